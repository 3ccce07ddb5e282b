#!/usr/bin/env bash
# The Prometheus exporter as an HTTP server (libmicrohttpd): a scrape is
# answered while 20 connections sit idle, 16 concurrent scrapes are all
# answered in full, a request split across three segments is answered,
# HEAD gets the headers without a body, another path 404 and another
# method 405, and idle connections are closed after the idle timeout
# (not before). Details in exporter_http.py.
. "$(dirname "$0")/lib.sh"

SERVER_DURATION=60s memif_pair "$T"
start_primary e2e-srv "$T/server.conf"
port=$((20000 + RANDOM % 20000))
bg "$SECONDARY_BUILD/dperf-ctl" -p e2e-srv export --prometheus 127.0.0.1:$port
EXP=$LAST_PID
up() { curl -sf -m 1 -o /dev/null "http://127.0.0.1:$port/metrics"; }
wait_until 10 up || fail "no /metrics answer"
# 5: the idle timeout (EXPORT_IDLE_S in secondary/ctl_prometheus.c).
timeout 60 /usr/bin/python3 "$(dirname "$0")/exporter_http.py" "$port" 5 >"$T/http.log" 2>&1 ||
	fail "$(grep FAIL "$T/http.log" || tail -3 "$T/http.log")"
while read -r l; do note "$l"; done <"$T/http.log"
ctl -p e2e-srv stop >/dev/null
wait_exit "$PID_e2e_srv" 20 || fail "server exit status"
wait_exit "$EXP" 5 || fail "the exporter did not exit when the engine stopped"
pass "concurrent scrapes, idle timeout, split requests, HEAD"
