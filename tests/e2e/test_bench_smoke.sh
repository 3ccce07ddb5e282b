#!/usr/bin/env bash
# A smoke run of `make bench` (a few seconds per scenario): checks that
# the bench works and prints every figure; the figures themselves are not
# judged here (machines differ).
. "$(dirname "$0")/lib.sh"
BENCH_SMOKE=1 BUILD=$BUILD python3 "$ROOT/scripts/bench.py" >"$T/bench.out" 2>"$T/bench.err" || fail "bench failed: $(tail -5 "$T/bench.err")"
tail -1 "$T/bench.out" | python3 -c '
import json, sys
r = json.load(sys.stdin)
for k in ("cps", "throughput_gbps", "keepalive_rps", "cc", "tx_mpps", "testpmd_mpps", "cps_link_ratio", "attach_cost", "ctl_apply_us"):
    assert k in r, "missing " + k
assert r["cps"]["median"] > 0, "no CPS measured"
assert r["throughput_gbps"]["median"] > 0, "no throughput measured"
assert r["keepalive_rps"]["median"] > 0, "no keepalive requests measured"
# Each request and each response one packet, ACKs riding on them.
ppr = r["keepalive_rps"]["packets_per_request"]
assert 0.9 < ppr["tx"] <= 1.02 and 0.9 < ppr["rx"] <= 1.02, "keepalive packets per request %s" % ppr
ppc = r["cps"]["packets_per_conn"]
# SYN, request, FIN each way (second boundaries cut a few).
assert 2.9 <= ppc["tx"] <= 3.1 and 2.9 <= ppc["rx"] <= 3.1, "cps packets per connection %s" % ppc
assert r["cc"]["median"] == r["cc"]["target"], "cc target not held"
assert 0 < r["cc"]["bytes_per_conn"] <= 128, "bytes_per_conn %s" % r["cc"]["bytes_per_conn"]
assert r["tx_mpps"]["median"] > 0, "no flood measured"
assert r["ctl_apply_us"]["samples"] > 0, "no control latency measured"
' || fail "bench JSON: $(tail -1 "$T/bench.out" | cut -c1-300)"
grep -q "^figure" "$T/bench.out" || fail "no table printed"
pass "$(grep -E '^cps|^throughput' "$T/bench.out" | tr -s ' ' | tr '\n' ';')"
