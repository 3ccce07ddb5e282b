#!/usr/bin/env bash
# CPS test over a memif pair: every request answered, both sides agree,
# no errors, and the server stops gracefully on "dperf-ctl stop".
. "$(dirname "$0")/lib.sh"

CPS=20k CLIENT_DURATION=5s memif_pair "$T"
start_primary e2e-srv "$T/server.conf"
DPERF_ARGS="-o $T/summary.json" start_primary e2e-cli "$T/client.conf"
# The watcher follows the whole test and ends by itself when the client does.
bg "$SECONDARY_BUILD/dperf-ctl" -p e2e-cli stats --csv --watch 1 >"$T/stats.csv"
WATCH=$LAST_PID
wait_exit "$PID_e2e_cli" 30 || fail "client exited with an error"
wait_exit "$WATCH" 5 || fail "stats --watch exit status"
ctl -p e2e-srv stop >/dev/null || fail "stop refused"
wait_exit "$PID_e2e_srv" 15 || fail "server exited with an error"

c=$T/e2e-cli.log s=$T/e2e-srv.log
get=$(total "$c" httpGet) ok=$(total "$c" http2XX)
note "client httpGet=$get http2XX=$ok skOpen=$(total "$c" skOpen) server http2XX=$(total "$s" http2XX)"
[ "$get" -gt 50000 ] || fail "client sent only $get requests in 5 s at 20k cps"
[ "$get" = "$ok" ] || fail "httpGet $get != http2XX $ok"
for k in skErr tcpDrop httpErr badRx dropTx synRt pushRt; do
	[ "$(total "$c" $k)" = 0 ] || fail "client $k = $(total "$c" $k)"
	[ "$(total "$s" $k)" = 0 ] || fail "server $k = $(total "$s" $k)"
done
[ "$(total "$s" httpGet)" = "$get" ] || fail "server saw $(total "$s" httpGet) requests, client sent $get"
[ "$(total "$s" http2XX)" = "$ok" ] || fail "server answered $(total "$s" http2XX), client got $ok"
[ "$(total "$s" skOpen)" = "$(total "$c" skOpen)" ] || fail "skOpen differs"
[ "$(total "$c" skOpen)" = "$(total "$c" skClose)" ] || fail "client left connections open"
# Every frame is counted on both sides, the ARP exchanged while the memif
# link comes up included: what one sent, the other received.
for k in "pktTx pktRx" "pktRx pktTx" "arpTx arpRx" "arpRx arpTx"; do
	set -- $k
	[ "$(total "$c" $1)" = "$(total "$s" $2)" ] || fail "client $1 $(total "$c" $1) != server $2 $(total "$s" $2)"
done
[ "$(total "$c" arpTx)" -ge 1 ] || fail "client arpTx $(total "$c" arpTx): its ARP was not counted"
grep -q "change .*stop 0 -> 1" "$s" || fail "server did not record the stop"
# Latency: connect and response on the client, request-to-response on the server.
grep -q "^latency  connect p50" "$c" || fail "no client latency line"
grep -q "^latency  server (request polled to response queued) p50" "$s" || fail "no server latency line"
[ "$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["latency_total_us"]["response"]["count"])' "$T/summary.json")" = "$ok" ] || fail "response latency not recorded for every answer"
# -o: the final summary as JSON, the same totals as the printed summary.
[ "$(jget "$(cat "$T/summary.json")" http2XX)" = "$ok" ] || fail "-o summary: $(cut -c1-200 "$T/summary.json")"
# --csv: a header, then rows with as many fields.
/usr/bin/python3 - "$T/stats.csv" <<'PY' || fail "stats --csv: $(head -3 "$T/stats.csv")"
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
assert rows[0][:4] == ["elapsed", "state", "interval", "cps"] and len(rows) >= 3, rows[:2]
assert all(len(r) == len(rows[0]) for r in rows), "ragged rows"
# The first row covers the wait; the last ones the stop.
running = [float(r[3]) for r in rows[2:] if r[1] == "running"]
assert len(running) >= 1 and all(c > 10000 for c in running), [r[:4] for r in rows]
PY
pass "$get requests, all answered"
