#!/usr/bin/env bash
# One server, five clients one after another over the same memif socket,
# as a user re-running tests against a server left up. The server survives
# every disconnect (DPDK 22.11's memif PMD can fault in the survivor's
# datapath there; dev_fault.c recovers and counts it in devFault), and it
# answers each client's every request. Each client runs 1 s at 100k
# connections/s (about 100k requests on an idle box) and must send more
# than 25k of them (a quarter: a loaded box halves the rate).
. "$(dirname "$0")/lib.sh"

CPS=100k CLIENT_DURATION=1s SERVER_DURATION=120s memif_pair "$T"
start_primary e2e-srv "$T/server.conf"
sum=0
for i in 1 2 3 4 5; do
	start_primary e2e-cli$i "$T/client.conf"
	wait_exit "$(eval echo "\$PID_e2e_cli$i")" 30 || fail "client $i exited with an error"
	kill -0 "$PID_e2e_srv" 2>/dev/null || fail "server died when client $i left"
	c=$T/e2e-cli$i.log
	get=$(total "$c" httpGet) ok=$(total "$c" http2XX)
	[ "$get" -gt 25000 ] || fail "client $i sent only $get requests"
	[ "$get" = "$ok" ] || fail "client $i: httpGet $get != http2XX $ok"
	for k in skErr tcpDrop httpErr dropTx synRt pushRt; do
		[ "$(total "$c" $k)" = 0 ] || fail "client $i: $k = $(total "$c" $k)"
	done
	sum=$((sum + ok))
	# The server has closed this client's connections before the next starts.
	srv_idle() { [ "$(stat_of e2e-srv skCon)" = 0 ]; }
	wait_until 5 srv_idle || fail "the server still holds $(stat_of e2e-srv skCon) connections 5 s after client $i ended"
done
ctl -p e2e-srv stop >/dev/null || fail "stop refused"
wait_exit "$PID_e2e_srv" 15 || fail "server exited with an error"
s=$T/e2e-srv.log
[ "$(total "$s" http2XX)" = "$sum" ] || fail "server answered $(total "$s" http2XX), the clients got $sum"
for k in skErr httpErr; do
	[ "$(total "$s" $k)" = 0 ] || fail "server $k = $(total "$s" $k)"
done
pass "5 clients, $sum requests, all answered; server devFault=$(total "$s" devFault)"
