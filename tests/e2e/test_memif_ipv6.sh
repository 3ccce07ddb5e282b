#!/usr/bin/env bash
# IPv6: a CPS test over a memif pair with IPv6 addresses (neighbour
# discovery instead of ARP): every request answered, both sides agree, no
# error.
. "$(dirname "$0")/lib.sh"

cat >"$T/server.conf" <<CONF
mode server
cpu 0
duration 60s
port net_memif0,role=server,socket=$T/m.sock 2001:db8::1 2001:db8::2
client 2001:db8:1::2 4
server 2001:db8:2::1 1
listen 80 1
CONF
cat >"$T/client.conf" <<CONF
mode client
cpu 1
duration 5s
cps 10k
port net_memif0,role=client,socket=$T/m.sock 2001:db8::2 2001:db8::1
client 2001:db8:1::2 4
server 2001:db8:2::1 1
listen 80 1
slow_start 0
wait 1
CONF
start_primary e2e-srv6 "$T/server.conf"
start_primary e2e-cli6 "$T/client.conf"
wait_exit "$PID_e2e_cli6" 30 || fail "client exited with an error"
ctl -p e2e-srv6 stop >/dev/null
wait_exit "$PID_e2e_srv6" 15 || fail "server exited with an error"
c=$T/e2e-cli6.log s=$T/e2e-srv6.log
get=$(total "$c" httpGet) ok=$(total "$c" http2XX)
note "IPv6: httpGet $get http2XX $ok; neighbour discovery: client arpTx $(total "$c" arpTx) arpRx $(total "$c" arpRx)"
[ "$get" -gt 20000 ] || fail "only $get requests"
[ "$get" = "$ok" ] || fail "httpGet $get != http2XX $ok"
[ "$(total "$s" http2XX)" = "$ok" ] || fail "server answered $(total "$s" http2XX), client got $ok"
for k in skErr tcpDrop httpErr badRx synRt pushRt; do
	[ "$(total "$c" $k)" = 0 ] || fail "client $k = $(total "$c" $k)"
	[ "$(total "$s" $k)" = 0 ] || fail "server $k = $(total "$s" $k)"
done
[ "$(total "$c" pktTx)" = "$(total "$s" pktRx)" ] || fail "client pktTx != server pktRx"
pass "$ok requests over IPv6"
