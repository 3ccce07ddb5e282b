#!/usr/bin/env bash
# Outputs other tools read: `dperf-ctl export --prometheus` passes
# promtool's checks (latency as histograms) and agrees with dperf-ctl's counters; JSON Lines from
# `stats --json --watch` parse one object per line.
. "$(dirname "$0")/lib.sh"
command -v promtool >/dev/null || fail "promtool is not installed (Debian's prometheus package: scripts/install-deps.sh)"

CPS=5k CLIENT_DURATION=30s memif_pair "$T"
start_primary e2e-srv "$T/server.conf"
start_primary e2e-cli "$T/client.conf"
answered() { [ "$(stat_of e2e-cli http2XX)" -gt 0 ]; }
wait_until 15 answered || fail "no answer counted 15 s after the start"
port=$((20000 + RANDOM % 20000))
bg "$SECONDARY_BUILD/dperf-ctl" -p e2e-cli export --prometheus 127.0.0.1:$port
EXP=$LAST_PID
metrics() { curl -sf "http://127.0.0.1:$port/metrics" -o "$T/metrics.txt"; }
wait_until 10 metrics || fail "no /metrics answer in 10 s"
promtool check metrics <"$T/metrics.txt" >"$T/promtool.log" 2>&1 || fail "promtool: $(head -5 "$T/promtool.log")"
grep -q '^dperf_http_2xx_total{instance="e2e-cli",role="client"} [0-9]' "$T/metrics.txt" || fail "no http2XX counter: $(grep http "$T/metrics.txt" | head -3)"
grep -q '^dperf_stall_seconds_total{instance="e2e-cli",role="client"} [0-9]*\.[0-9]\{6\}$' "$T/metrics.txt" || fail "stallUs not in seconds: $(grep stall "$T/metrics.txt")"
# Latency: a histogram per worker whose +Inf bucket and _count are the
# answers that worker timed.
hcount=$(awk '/^dperf_response_seconds_count\{instance="e2e-cli",role="client",port="0",worker="0"\}/{print $2}' "$T/metrics.txt")
hinf=$(awk '/^dperf_response_seconds_bucket\{instance="e2e-cli",role="client",port="0",worker="0",le="\+Inf"\}/{print $2}' "$T/metrics.txt")
[ -n "$hcount" ] && [ "$hcount" -gt 0 ] && [ "$hcount" = "$hinf" ] || fail "no latency histogram (count $hcount, +Inf $hinf)"
# sRTT and TLS handshake are histograms beside them, per worker; with no
# sample (one-segment requests keep no RTT estimate; no TLS here) every
# bucket and the count are 0, as Prometheus expects of a histogram that
# has seen nothing, not a latency of 0.
for h in srtt tls_handshake; do
	grep -q "^# TYPE dperf_${h}_seconds histogram$" "$T/metrics.txt" || fail "no dperf_${h}_seconds histogram"
	hc=$(awk -v m="dperf_${h}_seconds_count" '$1 == m "{instance=\"e2e-cli\",role=\"client\",port=\"0\",worker=\"0\"}" {print $2}' "$T/metrics.txt")
	[ "$hc" = 0 ] || fail "dperf_${h}_seconds_count is '$hc' on a client with no sample of it"
done
m=$(awk '/^dperf_sk_open_total/{print $2}' "$T/metrics.txt")
[ "$m" -gt 0 ] || fail "skOpen in /metrics: $m"
curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/other" | grep -q 404 || fail "a path other than /metrics must be 404"
note "promtool check metrics: ok ($(wc -l <"$T/metrics.txt") lines)"

timeout 2.7 "$SECONDARY_BUILD/dperf-ctl" -p e2e-cli stats --json --watch 0.5 >"$T/watch.jsonl" || true
n=$(/usr/bin/python3 -c 'import json,sys; print(sum(1 for l in open(sys.argv[1]) if json.loads(l)["cps"] > 0))' "$T/watch.jsonl") || fail "JSON Lines do not parse"
[ "$n" -ge 3 ] || fail "only $n JSON lines"
note "stats --json --watch: $n JSON objects, one per line"

ctl -p e2e-cli stop >/dev/null
wait_exit "$PID_e2e_cli" 20 || fail "client exit status"
wait_exit "$EXP" 5 || fail "the exporter did not exit when the engine stopped"
ctl -p e2e-srv stop >/dev/null
wait_exit "$PID_e2e_srv" 20 || fail "server exit status"
pass "prometheus exposition valid, JSON Lines valid"
