#!/usr/bin/env bash
# dperf-ctl serve: the HTTP API of one instance. Refused at start: a
# non-loopback address without a token file, a token file others can
# read, --metrics-token without a token. Then (serve_http.py) 401 without
# the token, 200 with it and the change visible in /v1/status, 400 on
# broken JSON, 409 on a change the primary refuses, and an answer beside
# 100 idle connections and after an oversized header; 504 when the
# primary does not answer (SIGSTOP; the server's, while the client's API
# is checked); /metrics open, or behind the token with --metrics-token.
. "$(dirname "$0")/lib.sh"

CLIENT_DURATION=60s CPS=2k memif_pair "$T"
head -c 24 /dev/urandom | base64 >"$T/token"
chmod 600 "$T/token"
cp "$T/token" "$T/token.open"
chmod 644 "$T/token.open"
port=$((20000 + RANDOM % 20000))

refused() { # refused WHAT ARGS...: exit 2 and one line
	local out rc=0
	out=$(ctl serve "$@" 2>&1) || rc=$?
	[ "$rc" = 2 ] || fail "serve $*: exit $rc (2 expected): $out"
	note "refused ($1): $(echo "$out" | head -1)"
}
refused 0.0.0.0:$port
refused 127.0.0.1:$port --token-file "$T/token.open"
refused 127.0.0.1:$port --metrics-token

start_primary e2e-srv "$T/server.conf"
start_primary e2e-cli "$T/client.conf"
# Two serves attach at once: the API's, on the client, and one with
# --metrics-token, on the server.
bg "$SECONDARY_BUILD/dperf-ctl" -p e2e-cli serve 127.0.0.1:$port --token-file "$T/token"
SRV=$LAST_PID
mport=$((port + 1))
bg "$SECONDARY_BUILD/dperf-ctl" -p e2e-srv serve 127.0.0.1:$mport --token-file "$T/token" --metrics-token
MSRV=$LAST_PID
auth="Authorization: Bearer $(cat "$T/token")"
up() { curl -sf -m 1 -o /dev/null "http://127.0.0.1:$port/metrics"; }
wait_until 10 up || fail "no /metrics answer"

# --metrics-token: /metrics needs the token too.
mup() { [ "$(curl -s -m 1 -o /dev/null -w '%{http_code}' "http://127.0.0.1:$mport/metrics")" = 401 ]; }
wait_until 10 mup || fail "--metrics-token: /metrics without the token is not 401"
code=$(curl -s -m 2 -o /dev/null -w '%{http_code}' -H "$auth" "http://127.0.0.1:$mport/metrics")
[ "$code" = 200 ] || fail "--metrics-token: /metrics with the token: $code"
note "--metrics-token: /metrics 401 without the token, 200 with it"

# 504: a primary that does not answer (the server, stopped): the change
# (a stop) is not applied. Its serve waits the whole of dperf-ctl's request
# timeout (10 s): the client's API is checked meanwhile (serve_http.py;
# the client's traffic stalls, which nothing here counts).
kill -STOP "$PID_e2e_srv"
curl -s -m 30 -o "$T/504.json" -w '%{http_code}' -X POST -H "$auth" \
	"http://127.0.0.1:$mport/v1/stop" >"$T/504.code" 2>/dev/null &
c504=$!
rc=0
timeout 60 /usr/bin/python3 "$(dirname "$0")/serve_http.py" "$port" "$(cat "$T/token")" >"$T/http.log" 2>&1 || rc=$?
wait "$c504" || true
kill -CONT "$PID_e2e_srv" 2>/dev/null || true # (a server that died or stopped is reported below)
[ $rc = 0 ] || fail "$(grep FAIL "$T/http.log" || tail -3 "$T/http.log")"
while read -r l; do note "$l"; done <"$T/http.log"
code=$(cat "$T/504.code")
[ "$code" = 504 ] || fail "POST /v1/stop to a stopped primary: $code $(cat "$T/504.json")"
# Resumed, it finds the stale request and refuses it: it runs on.
sleep 1
st=$(jget "$(curl -sf -m 5 -H "$auth" "http://127.0.0.1:$mport/v1/status")" state 2>/dev/null) || st="no answer"
kill -0 "$PID_e2e_srv" && [ "$st" = running ] || fail "the stop answered 504 was applied after all (server state $st)"
note "POST /v1/stop to a stopped primary: 504 $(cat "$T/504.json"), not applied (state $st)"

curl -sf -m 5 -X POST -H "$auth" "http://127.0.0.1:$port/v1/stop" >/dev/null ||
	fail "POST /v1/stop"
wait_exit "$PID_e2e_cli" 20 || fail "client exit status after POST /v1/stop"
wait_exit "$SRV" 5 || fail "serve did not exit when the engine stopped"
curl -sf -m 5 -X POST -H "$auth" "http://127.0.0.1:$mport/v1/stop" >/dev/null ||
	fail "POST /v1/stop to the server's serve"
wait_exit "$PID_e2e_srv" 20 || fail "server exit status"
wait_exit "$MSRV" 5 || fail "the server's serve did not exit when its engine stopped"
pass "401/200/400/409, bounded, 504, --metrics-token, stop through the API"
