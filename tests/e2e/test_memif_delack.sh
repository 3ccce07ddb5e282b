#!/usr/bin/env bash
# Delayed ACKs (tcp_dack.h): 200 keepalive connections, a request on each
# every millisecond. Each request carries the ACK of the response before
# it and each response the ACK of its request (64-byte raw TCP messages: tcpReq, tcpRsp): about one packet each way
# per request (handshakes and closes add a few hundred in all), every
# request answered, nothing retransmitted. DACK="delayed_ack 0" runs the
# same test with every ACK sent at once, to see it fail (about 2.0 on the
# client).
. "$(dirname "$0")/lib.sh"

CPS=1m CLIENT_DURATION=4s CLIENT_EXTRA="cc 200
keepalive_request_interval 1ms
payload_size 64
${DACK:-}" SERVER_EXTRA="keepalive
payload_size 64" memif_pair "$T"
run_pair e2e-srv e2e-cli "$T/server.conf" "$T/client.conf"
c=$T/e2e-cli.log s=$T/e2e-srv.log
get=$(total "$c" tcpReq) ok=$(total "$c" tcpRsp)
ctx=$(total "$c" pktTx) stx=$(total "$s" pktTx) sok=$(total "$s" tcpRsp)
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.4f", a / b }'; }
note "latency: $(grep "^latency" "$c" | tail -1 | sed "s/^latency *//")"
note "requests $get answered $ok; client pktTx $ctx ($(ratio "$ctx" "$get") per request), server pktTx $stx ($(ratio "$stx" "$sok") per response)"
[ "$get" -ge 200000 ] || fail "only $get requests in 4 s (200 connections, one every ms)"
[ "$get" = "$ok" ] || fail "tcpReq $get != tcpRsp $ok"
[ "$sok" = "$ok" ] || fail "server answered $sok, client counted $ok"
awk -v a="$ctx" -v b="$get" 'BEGIN { exit !(a / b <= 1.02) }' ||
	fail "client sent $(ratio "$ctx" "$get") packets per request (expected <= 1.02: the request carries the ACK)"
awk -v a="$stx" -v b="$sok" 'BEGIN { exit !(a / b <= 1.02) }' ||
	fail "server sent $(ratio "$stx" "$sok") packets per response (expected <= 1.02)"
for k in skErr tcpDrop httpErr synRt pushRt ackRt finRt; do
	[ "$(total "$c" $k)" = 0 ] || fail "client $k = $(total "$c" $k)"
	[ "$(total "$s" $k)" = 0 ] || fail "server $k = $(total "$s" $k)"
done
pass "$ok requests, $(ratio "$ctx" "$get") client and $(ratio "$stx" "$sok") server packets per request"
