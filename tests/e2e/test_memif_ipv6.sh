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
run_pair e2e-srv6 e2e-cli6 "$T/server.conf" "$T/client.conf"
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
d=$(( $(total "$s" pktRx) - $(total "$c" pktTx) ))
[ "${d#-}" -le 4 ] || fail "client pktTx $(total "$c" pktTx) != server pktRx $(total "$s" pktRx) (see test_memif_cps)"
pass "$ok requests over IPv6"
