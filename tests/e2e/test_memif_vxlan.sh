#!/usr/bin/env bash
# VXLAN on both sides of a memif pair: CPS, keepalive and UDP, every
# request answered, nothing counted bad or foreign, and every frame sent
# 50 bytes (IPv4 outer) or 70 bytes (IPv6 outer) longer than without the
# tunnel: everything went through it. ARP (or NDP) for the outer addresses
# stays outside.
. "$(dirname "$0")/lib.sh"

VX_SRV="vxlan 4242 02:00:00:00:00:01 02:00:00:00:00:02 198.18.0.1 1 198.18.0.2 1"
VX_CLI="vxlan 4242 02:00:00:00:00:02 02:00:00:00:00:01 198.18.0.2 1 198.18.0.1 1"

no_errors() { # LOG WHO COUNTER...
	local log=$1 who=$2
	shift 2
	for k in "$@"; do
		[ "$(total "$log" "$k")" = 0 ] || fail "$TEST_NAME $who $k = $(total "$log" "$k")"
	done
}

# ---- CPS: each connection is SYN, ACK+request, FIN from the client,
# 66 (MSS, SACK-permitted and window scale options), 109 and 54 bytes without the tunnel;
# ARP 60 bytes, outside.
mkdir "$T/cps" "$T/ka" "$T/udp"
CPS=10k CLIENT_DURATION=3s SERVER_EXTRA="$VX_SRV" CLIENT_EXTRA="$VX_CLI" memif_pair "$T/cps"
run_pair e2e-srv e2e-cli "$T/cps/server.conf" "$T/cps/client.conf"
c=$T/e2e-cli.log s=$T/e2e-srv.log
get=$(total "$c" httpGet) ok=$(total "$c" http2XX)
[ "$get" -gt 10000 ] && [ "$get" = "$ok" ] || fail "cps: httpGet $get http2XX $ok"
[ "$(total "$s" http2XX)" = "$ok" ] || fail "cps: server answered $(total "$s" http2XX), client counted $ok"
no_errors "$c" client skErr tcpDrop httpErr badRx otherRx
no_errors "$s" server skErr tcpDrop httpErr badRx otherRx
bits=$(total "$c" bitsTx) conns=$(total "$c" skOpen)
arp=$(( $(total "$c" pktTx) - 3 * conns ))
[ "$bits" = $(( (conns * (66 + 109 + 54 + 3 * 50) + arp * 60) * 8 )) ] ||
	fail "cps: client bitsTx $bits for $conns connections and $arp ARP frames: not every frame was encapsulated"
note "cps: $ok requests answered through VNI 4242"

# ---- keepalive: 50 connections, a 1400-byte response every millisecond
# (1400 fits the tunnel's mss, 1410)
CPS=1k CLIENT_DURATION=3s SERVER_EXTRA="$VX_SRV
keepalive
payload_size 1400" CLIENT_EXTRA="$VX_CLI
cc 50
keepalive 1ms
payload_size 1400" memif_pair "$T/ka"
run_pair e2e-srv e2e-cli "$T/ka/server.conf" "$T/ka/client.conf"
get=$(total "$c" httpGet) ok=$(total "$c" http2XX)
[ "$get" -gt 50000 ] && [ "$get" = "$ok" ] || fail "keepalive: httpGet $get http2XX $ok"
[ "$(total "$s" http2XX)" = "$ok" ] || fail "keepalive: server answered $(total "$s" http2XX), client counted $ok"
no_errors "$c" client skErr tcpDrop httpErr badRx otherRx synRt pushRt
no_errors "$s" server skErr tcpDrop httpErr badRx otherRx
note "keepalive: $ok requests answered with 1400 bytes"

# ---- UDP with IPv6 outside, IPv4 inside: every datagram answered; NDP
# resolves the outer gateway.
CPS=10k CLIENT_DURATION=3s SERVER_EXTRA="protocol udp
vxlan 7 02:00:00:00:00:01 02:00:00:00:00:02 2001:db8::1 1 2001:db8::2 1" CLIENT_EXTRA="protocol udp
vxlan 7 02:00:00:00:00:02 02:00:00:00:00:01 2001:db8::2 1 2001:db8::1 1" memif_pair "$T/udp"
sed -i 's/198\.18\.0\.1 198\.18\.0\.2$/2001:db8::1 2001:db8::2/; s/198\.18\.0\.2 198\.18\.0\.1$/2001:db8::2 2001:db8::1/' \
	"$T/udp/server.conf" "$T/udp/client.conf"
run_pair e2e-srv e2e-cli "$T/udp/server.conf" "$T/udp/client.conf"
tx=$(total "$c" udpTx) srx=$(total "$s" udpRx) stx=$(total "$s" udpTx) rx=$(total "$c" udpRx)
[ "$tx" -ge 20000 ] || fail "udp: client sent only $tx datagrams"
[ "$srx" = "$tx" ] && [ "$stx" = "$srx" ] && [ "$rx" = "$stx" ] ||
	fail "udp: client sent $tx, server received $srx and answered $stx, client received $rx"
no_errors "$c" client udpDrop badRx otherRx
no_errors "$s" server udpDrop badRx otherRx
[ "$(total "$c" arpRx)" -gt 0 ] || fail "udp: no neighbour advertisement for the outer gateway"
note "udp: $rx of $tx datagrams answered, IPv6 outside"
pass "CPS, keepalive and UDP through VXLAN, every request answered"
