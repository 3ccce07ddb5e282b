#!/usr/bin/env bash
# VLAN: with "vlan 100" on both sides every frame carries the tag (the
# peer accepts them) and a CPS test completes without error.
. "$(dirname "$0")/lib.sh"

CPS=10k CLIENT_DURATION=4s SERVER_EXTRA="vlan 100" CLIENT_EXTRA="vlan 100" memif_pair "$T"
run_pair e2e-srv e2e-cli "$T/server.conf" "$T/client.conf"
c=$T/e2e-cli.log s=$T/e2e-srv.log
get=$(total "$c" httpGet) ok=$(total "$c" http2XX)
[ "$get" -gt 20000 ] && [ "$get" = "$ok" ] || fail "httpGet $get http2XX $ok"
for k in skErr tcpDrop httpErr badRx otherRx; do
	[ "$(total "$c" $k)" = 0 ] || fail "client $k = $(total "$c" $k)"
done
# Every tagged frame is 4 bytes longer than in the untagged CPS test:
# SYN 70 (MSS, SACK-permitted and window scale options), ACK+request 113 (a 55-byte GET),
# FIN 58 bytes, ARP padded to 60.
# (ARP requests sent before the link was up count in arpTx, not pktTx.)
bits=$(total "$c" bitsTx) conns=$(total "$c" skOpen)
arp=$(( $(total "$c" pktTx) - 3 * conns ))
[ "$bits" = $(( (conns * (70 + 113 + 58) + arp * 60) * 8 )) ] || fail "client bitsTx $bits for $conns connections, arpTx $arp, pktTx $(total "$c" pktTx): frames are not tagged as expected"
pass "$ok requests with 802.1Q tag 100"
