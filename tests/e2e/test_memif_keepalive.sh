#!/usr/bin/env bash
# Keepalive throughput: 1400-byte responses back to back on 100
# connections; every request answered with the exact dperf size.
. "$(dirname "$0")/lib.sh"

CPS=1k CLIENT_DURATION=5s CLIENT_EXTRA="cc 100
keepalive_request_interval 1us
payload_size 1400" SERVER_EXTRA="keepalive
payload_size 1400" memif_pair "$T"
run_pair e2e-srv e2e-cli "$T/server.conf" "$T/client.conf"
c=$T/e2e-cli.log s=$T/e2e-srv.log
get=$(total "$c" httpGet) ok=$(total "$c" http2XX) bits=$(total "$c" bitsRx)
note "requests $get, answered $ok, client bitsRx $bits"
[ "$get" -ge 20000 ] || fail "only $get keepalive requests in 4 s"
[ "$get" = "$ok" ] || fail "httpGet $get != http2XX $ok"
[ "$(total "$s" http2XX)" = "$ok" ] || fail "server sent $(total "$s" http2XX) responses, client counted $ok"
# Every frame the server sent, the client received, and each is the size
# it must be: a response is one 1400-byte payload in a frame of 1454
# bytes, a SYN+ACK 66 (MSS, SACK-permitted and window scale options: our
# client offers both in its SYN), an ARP frame 60, any other TCP
# segment 54 (no payload). (Was a lower bound: larger frames passed.)
[ "$bits" = "$(total "$s" bitsTx)" ] && [ "$(total "$c" pktRx)" = "$(total "$s" pktTx)" ] ||
	fail "client bitsRx $bits pktRx $(total "$c" pktRx), server bitsTx $(total "$s" bitsTx) pktTx $(total "$s" pktTx)"
read -r pkt arp syn <<<"$(total "$c" pktRx) $(total "$c" arpRx) $(total "$c" synRx)"
want=$(( 8 * (ok * 1454 + arp * 60 + syn * 66 + (pkt - ok - arp - syn) * 54) ))
[ "$bits" = "$want" ] || fail "bitsRx $bits, expected $want ($ok responses of 1454 bytes, $arp ARP, $syn SYN+ACK, $((pkt - ok - arp - syn)) other segments)"
for k in skErr tcpDrop httpErr synRt pushRt badRx; do
	[ "$(total "$c" $k)" = 0 ] || fail "client $k = $(total "$c" $k)"
done
pass "$ok responses of 1400 bytes"
