#!/usr/bin/env bash
# A smoke run of `make bench` (a few seconds per scenario): checks that
# the bench works and prints every figure; the figures themselves are not
# judged here (machines differ), but what the bench judged is: both sides
# of every CPS level and of the throughput run were read.
. "$(dirname "$0")/lib.sh"
# tls_ref paces handshakes only: a pace with answers is refused, with why
rc=0
msg=$("$BUILD/tests/tls_ref" -m keepalive -p 100 cert.pem key.pem 2>&1) || rc=$?
[ "$rc" = 2 ] && [ "$msg" = "tls_ref: -p 100: paces handshakes (-m hs), not -m keepalive" ] ||
	fail "tls_ref -m keepalive -p 100: exit $rc: $msg"
BENCH_SMOKE=1 BUILD=$BUILD /usr/bin/python3 "$ROOT/scripts/bench.py" >"$T/bench.out" 2>"$T/bench.err" || fail "bench failed: $(tail -5 "$T/bench.err")"
tail -1 "$T/bench.out" | /usr/bin/python3 -c '
import json, sys
r = json.load(sys.stdin)
for k in ("cps", "throughput_gbps", "throughput_gbps_1m", "cps_64k", "keepalive_rps", "cc", "mix", "tx_mpps", "testpmd_mpps", "cps_link_ratio", "attach_cost", "ctl_apply_us"):
    assert k in r, "missing " + k
assert r["cps"]["median"] > 0, "no CPS measured"
assert r["throughput_gbps"]["median"] > 0, "no throughput measured"
assert r["keepalive_rps"]["median"] > 0, "no keepalive requests measured"
# A smoke run judges no figure: a TX ring found full (dropTx) while the
# peer was descheduled is the doing of the box (seen in CI beside a niced
# compile: client dropTx 92 in both tries of the 1 MB run), and so is its
# repair: a lost ACK or request is resent (pushRt) and its duplicate
# dropped by the receiver (tcpDrop; CI: client dropTx 1620, server pushRt
# 21, client tcpDrop 21). Those two are accepted only beside a dropTx and
# at most one duplicate per resend; any other error, or a request left
# unanswered, is a fault of the bench or of the engine.
REPAIR = ("pushRt", "tcpDrop")
def answered(fig, what):
    assert fig["median"] > 0, "%s: nothing measured: %s" % (what, fig)
    e = fig["errors"]
    lost = sum(v for k, v in e.items() if k.endswith(" dropTx"))
    other = {k: v for k, v in e.items() if not k.endswith(" dropTx") and not (lost and k.split()[-1] in REPAIR)}
    assert not other, "%s: errors %s" % (what, fig)
    resent = sum(v for k, v in e.items() if k.endswith(" pushRt"))
    assert sum(v for k, v in e.items() if k.endswith(" tcpDrop")) <= resent, "%s: duplicates beyond resends: %s" % (what, e)
    j = fig["judged"]
    assert j["client_requests"] == j["client_answers"] == j["server_requests"] == j["server_answers"] > 0, \
        "%s: requests %s" % (what, j)
answered(r["throughput_gbps_1m"], "1 MB answers")
answered(r["cps_64k"], "64 KB answers")
# Each request and each response one packet, ACKs riding on them.
ppr = r["keepalive_rps"]["packets_per_request"]
assert 0.9 < ppr["tx"] <= 1.02 and 0.9 < ppr["rx"] <= 1.02, "keepalive packets per request %s" % ppr
ppc = r["cps"]["packets_per_conn"]
# SYN, request, FIN each way (second boundaries cut a few).
assert 2.9 <= ppc["tx"] <= 3.1 and 2.9 <= ppc["rx"] <= 3.1, "cps packets per connection %s" % ppc
assert r["cc"]["median"] == r["cc"]["target"], "cc target not held"
assert 0 < r["cc"]["bytes_per_conn"] <= 128, "bytes_per_conn %s" % r["cc"]["bytes_per_conn"]
assert r["tx_mpps"]["median"] > 0, "no flood measured"
# The mix scenario in a smoke run: two kinds at saturation, both sides read.
m = r["mix"]
assert m["two_kinds"]["median"] > 0 and not m["errors"], "mix %s" % m
assert m["judged"]["client_requests"] == m["judged"]["server_requests"] > 0, "mix requests %s" % m["judged"]
for lv in r["cps"]["levels"] + [r["throughput_gbps"]]:
    j = lv["judged"]
    assert j["server_requests"] > 0 and j["client_requests"] > 0, "a side not judged: %s" % j
    if not lv["errors"]:
        assert j["server_requests"] == j["client_requests"] == j["client_answers"], "requests %s" % j
a = r["attach_cost"]
assert len(a["pairs"]) >= 1 and all(q["seconds_with"] and q["seconds_without"] for q in a["pairs"]), "attach pairs %s" % a["pairs"]
assert a["attached"].startswith("dperf-top -d 0.1, dperf-ctl stats --watch 0.1"), "attached: %s" % a["attached"]
c = r["ctl_apply_us"]
assert c["samples"] == 5 and c["unanswered"] == 0, "ctl samples %s" % c
# issue 38: tls_ref answers on one connection, the cipher on 16 KB, and the
# HTTPS keepalive figure set against both
t = r["tls_ref"]
for n in ("ka_1460", "bulk_1m"):
    assert t[n]["server_per_cpu_s"] > 0 and t[n]["client_per_cpu_s"] > 0, "tls_ref %s: %s" % (n, t.get(n))
# tls_ref per CPU-second: a rate, over its mean (every slice lost counted,
# as the engine counts them), not its median
for n in ("ec_full", "ka_1460", "bulk_1m"):
    for side in ("server", "client"):
        assert abs(t[n][side + "_per_cpu_s"] * t[n][side + "_mean_us"] / 1e6 - 1) < 0.01, "tls_ref %s: %s" % (n, t[n])
assert (r["tls_crypto"].get("aead_16k_gbps") or 0) > 0, "no AEAD figure: %s" % r["tls_crypto"]
tt = r["tls_throughput_gbps"]
assert tt["answers_per_s"] > 0 and "lower" in tt.get("of_openssl", {}) and tt.get("of_aead_16k", 0) > 0, \
    "tls_throughput against tls_ref and the cipher: %s" % tt
# each TLS figure against tls_ref runs beside it; the link ceiling of the answers
assert len(tt["tls_ref"]["runs"]) == 2 and tt["link_ceiling"].get("of_lower", 0) > 0, \
    "tls_throughput: tls_ref beside it, link ceiling: %s" % tt
# before and after each level, paced at its rate: never faster than the
# level (unpaced it made 1165/s at 500/s); slower is allowed, as on a
# loaded box (CI23: 434/s at 500/s), where tls_ref falls behind its pace
for k in ("tls_cps", "tls_cps_rsa", "tls_cps_resume"):
    assert len(r[k]["tls_ref"]["runs"]) == 2 * len(r[k]["levels"]), "%s: tls_ref beside levels: %s" % (k, r[k].get("tls_ref"))
    for lv in r[k]["levels"]:
        for run in lv["between"]:
            assert run["per_s"] == lv["target"] and 0 < run["achieved_per_s"] <= 1.1 * run["per_s"], \
                "%s: tls_ref not at the level pace: %s" % (k, run)
# every side: its time in OpenSSL (tlsUs) within its busy time, same seconds
# (the busy share is printed in whole percents: a tenth of slack); none
# without TLS
for k, fig in [(k, lv) for k in ("tls_cps", "tls_cps_rsa", "tls_cps_resume") for lv in r[k]["levels"]] + [("tls_throughput_gbps", tt)]:
    o = fig.get("in_openssl") or {}
    for side in ("server", "client"):
        assert 0.3 < o.get(side, {}).get("share", 0) <= 1.1 and o[side]["own_us"] >= -0.1 * o[side]["openssl_us"], \
            "%s: in OpenSSL %s" % (k, o)
assert "in_openssl" not in r["throughput_gbps"], "TLS time without TLS: %s" % r["throughput_gbps"]
' || fail "bench JSON: $(tail -1 "$T/bench.out" | cut -c1-300)"
grep -q "^figure" "$T/bench.out" || fail "no table printed"
pass "$(grep -E '^cps|^throughput' "$T/bench.out" | tr -s ' ' | tr '\n' ';')"
