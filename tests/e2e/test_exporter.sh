#!/usr/bin/env bash
# The Prometheus exporter as an HTTP server (libmicrohttpd): a scrape is
# answered while 20 connections sit idle, 16 concurrent scrapes are all
# answered in full, a request split across three segments is answered,
# HEAD gets the headers without a body, another path 404 and another
# method 405, idle connections are closed at the request deadline (not
# before), and 100 slowloris connections (a byte of head every 3.5 s) do
# not keep 6 scrapes in 12 s from being answered. Details in
# exporter_http.py.
. "$(dirname "$0")/lib.sh"

SERVER_DURATION=60s memif_pair "$T"
start_primary e2e-srv "$T/server.conf"
port=$((20000 + RANDOM % 20000))
bg "$SECONDARY_BUILD/dperf-ctl" -p e2e-srv export --prometheus 127.0.0.1:$port
EXP=$LAST_PID
up() { curl -sf -m 1 -o /dev/null "http://127.0.0.1:$port/metrics"; }
wait_until 10 up || fail "no /metrics answer"
# 3: the request deadline (CTL_HTTPD_REQUEST_S in secondary/ctl_httpd.h).
timeout 90 /usr/bin/python3 "$(dirname "$0")/exporter_http.py" "$port" 3 >"$T/http.log" 2>&1 ||
	fail "$(grep FAIL "$T/http.log" || tail -3 "$T/http.log")"
while read -r l; do note "$l"; done <"$T/http.log"
kill -INT "$PID_e2e_srv" # (a graceful stop without another attach)
wait_exit "$PID_e2e_srv" 20 || fail "server exit status"
wait_exit "$EXP" 5 || fail "the exporter did not exit when the engine stopped"
pass "concurrent scrapes, request deadline, split requests, HEAD, slowloris"
