#!/usr/bin/env bash
# Our HTTPS client against our HTTPS server over a memif pair (protocol
# https on both, our TCP and TLS): dperf-ctl set cps is followed and set
# duration extends the test as with plain HTTP; dperf-top shows the TLS
# figures and dperf-ctl stats --json carries them; every handshake started
# completes on both sides, each request answered, both sides agree, no
# TLS failure, every connection closed.
. "$(dirname "$0")/lib.sh"
CERT=$ROOT/build/tls/test-cert.pem KEY=$ROOT/build/tls/test-key.pem
[ -s "$KEY" ] || fail "$KEY missing (make build/tls/test-key.pem)"

SERVER_EXTRA=$(printf 'protocol https\ntls_cert %s\ntls_key %s\ntls_resume tickets' "$CERT" "$KEY") \
	CLIENT_EXTRA=$(printf 'protocol https\ntls_resume tickets') \
	CPS=100 CLIENT_DURATION=40s SERVER_DURATION=60s memif_pair "$T"
start_primary e2e-srv "$T/server.conf"
DPERF_ARGS="-o $T/summary.json" start_primary e2e-cli "$T/client.conf"
grep -qE '^TLS: [0-9]+ bytes per connection' "$T/e2e-cli.log" || fail "client: no bytes per TLS connection stated"
note "client $(grep -E '^TLS: ' "$T/e2e-cli.log"); server $(grep -E '^TLS: ' "$T/e2e-srv.log")"
bg "$SECONDARY_BUILD/dperf-ctl" -p e2e-cli stats --json --watch 0.5 >"$T/watch.jsonl"
WATCH=$LAST_PID
rate() { tail -1 "$T/watch.jsonl" | /usr/bin/python3 -c 'import json,sys; print(int(json.load(sys.stdin)["cps"]))' 2>/dev/null || echo 0; }
at() { [ -s "$T/watch.jsonl" ] && [ "$(rate)" -ge $(($1 * 9 / 10)) ] && [ "$(rate)" -le $(($1 * 11 / 10)) ]; }
# (rates low enough for two TLS engines on a shared 2-core box)
wait_until 15 at 100 || fail "the watcher did not see 100 CPS: $(tail -1 "$T/watch.jsonl")"
ctl -p e2e-cli set cps 200 >/dev/null || fail "set cps 200 refused"
wait_until 5 at 200 || fail "cps did not follow 200: $(tail -2 "$T/watch.jsonl" | cut -c1-300)"
note "cps follows 200: $(rate)"
# The live tools show the TLS figures: dperf-top's TLS line (handshakes
# per second, resumed share, failures per second by kind, handshake
# p50/p99, the cores inside OpenSSL) and dperf-ctl stats --json's TLS
# counters and their rates.
once=$("$SECONDARY_BUILD/dperf-top" -p e2e-cli --once -d 1 | cat; exit "${PIPESTATUS[0]}") || fail "dperf-top --once failed"
tls=$(echo "$once" | grep -E '^TLS +handshakes/s ') || fail "dperf-top: no TLS line in: $once"
note "dperf-top: $tls"
echo "$tls" | grep -Eq '^TLS +handshakes/s [0-9.]+[KM]?  resumed [0-9]+%  fail/s alert 0 proto 0 verify 0 eof 0 timeout 0 internal 0  tlsErr/s 0  handshake p50 [0-9.]+(us|ms|s) p99 [0-9.]+(us|ms|s)  OpenSSL [0-9]+\.[0-9]{2} cores$' ||
	fail "dperf-top: TLS line not as expected: $tls"
hps=$(echo "$tls" | sed -E 's/^TLS +handshakes\/s ([0-9.]+).*/\1/')
awk -v v="$hps" 'BEGIN { exit !(v >= 100) }' || fail "dperf-top: $hps handshakes/s at 200 CPS"
# the client's core inside OpenSSL (tlsUs): some, never more than its one core
cores=$(echo "$tls" | sed -E 's/.*OpenSSL ([0-9.]+) cores$/\1/')
awk -v v="$cores" 'BEGIN { exit !(v > 0 && v <= 1) }' || fail "dperf-top: OpenSSL $cores cores at 200 CPS"
tail -1 "$T/watch.jsonl" | /usr/bin/python3 -c '
import json, sys
j = json.load(sys.stdin)
for k in ("tlsHs", "tlsHsDone", "tlsResumed", "tlsFailAlert", "tlsFailProto", "tlsFailVerify",
          "tlsFailEof", "tlsFailTimeout", "tlsFailInternal", "tlsErr"):
    assert k in j and k in j["rates"], k
assert j["tlsHsDone"] > 0 and j["rates"]["tlsHsDone"] >= 0.8 * j["cps"] > 0, (j["tlsHsDone"], j["rates"]["tlsHsDone"], j["cps"])
assert j["latency_us"]["tls_handshake"]["count"] > 0
' || fail "dperf-ctl stats --json: TLS counters or rates missing: $(tail -1 "$T/watch.jsonl" | cut -c1-300)"
# and Prometheus: the counters from the same table, the handshake histogram
port=$((20000 + RANDOM % 20000))
bg "$SECONDARY_BUILD/dperf-ctl" -p e2e-cli export --prometheus 127.0.0.1:$port
up() { curl -sf -m 1 -o "$T/metrics" "http://127.0.0.1:$port/metrics"; }
wait_until 10 up || fail "no /metrics answer"
grep -Eq '^dperf_tls_hs_done_total\{[^}]*\} [1-9]' "$T/metrics" || fail "/metrics: no dperf_tls_hs_done_total > 0"
grep -Eq '^dperf_tls_fail_eof_total\{[^}]*\} 0$' "$T/metrics" || fail "/metrics: no dperf_tls_fail_eof_total 0"
grep -Eq '^dperf_tls_handshake_seconds_count\{[^}]*\} [1-9]' "$T/metrics" || fail "/metrics: no TLS handshake histogram"
why=$(ctl -p e2e-cli set duration +2s 2>&1) || fail "set duration +2s refused: $why"
ctl -p e2e-cli status | grep -q "^duration: 42.0 s$" || fail "duration not extended to 42 s: $(ctl -p e2e-cli status | grep duration)"
sleep 1 # a second at the new rate and duration, then the end
ctl -p e2e-cli stop >/dev/null || fail "client stop refused"
wait_exit "$PID_e2e_cli" 30 || fail "client exited with an error"
wait_exit "$WATCH" 5 || true
ctl -p e2e-srv stop >/dev/null || fail "stop refused"
wait_exit "$PID_e2e_srv" 15 || fail "server exited with an error"

c=$T/e2e-cli.log s=$T/e2e-srv.log
hs=$(total "$c" tlsHs) done_=$(total "$c" tlsHsDone) ok=$(total "$c" http2XX) res=$(total "$c" tlsResumed)
note "client tlsHs $hs tlsHsDone $done_ tlsResumed $res httpGet $(total "$c" httpGet) http2XX $ok; server tlsHsDone $(total "$s" tlsHsDone) tlsResumed $(total "$s" tlsResumed) http2XX $(total "$s" http2XX)"
[ "$ok" -gt 300 ] || fail "only $ok answers at 100 then 200 CPS"
[ "$hs" = "$done_" ] && [ "$done_" = "$ok" ] && [ "$(total "$c" httpGet)" = "$ok" ] ||
	fail "client: tlsHs $hs tlsHsDone $done_ httpGet $(total "$c" httpGet) http2XX $ok"
for k in tlsHs tlsHsDone tlsResumed httpGet http2XX skOpen; do
	[ "$(total "$s" $k)" = "$(total "$c" $k)" ] || fail "server $k $(total "$s" $k) != client's $(total "$c" $k)"
done
# connections launched before the first ticket arrived cannot resume (on
# this shared box the first handshakes may take tens of milliseconds);
# that the server resumed exactly these is checked above
[ "$res" -ge $((done_ / 2)) ] || fail "$res of $done_ resumed with tickets"
for k in tlsFailAlert tlsFailProto tlsFailVerify tlsFailEof tlsFailTimeout tlsFailInternal tlsErr skErr httpErr badRx; do
	[ "$(total "$c" $k)" = 0 ] || fail "client $k = $(total "$c" $k)"
	[ "$(total "$s" $k)" = 0 ] || fail "server $k = $(total "$s" $k)"
done
[ "$(total "$c" skOpen)" = "$(total "$c" skClose)" ] || fail "client left connections open"
# the handshake time (SYN sent to Finished) recorded once per handshake
hist=$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["latency_total_us"]["tls_handshake"]["count"])' "$T/summary.json")
[ "$hist" = "$done_" ] || fail "tls_handshake histogram count $hist, tlsHsDone $done_"
note "$(grep -i '^latency' "$c" | tail -1 | grep -o 'TLS[^|]*' || true)"
pass "$ok HTTPS requests on $done_ handshakes ($res resumed), set cps and set duration followed"
