#!/usr/bin/env bash
# VXLAN against the kernel's own: our server on a tap port inside a
# namespace, and there a Linux VXLAN device (VNI 42, port 4789) over the
# tap. curl and ab reach our server through the kernel's tunnel: ARP for
# the outer addresses outside it, HTTP inside, every request answered,
# nothing counted bad or foreign on our side.
. "$(dirname "$0")/lib.sh"
for tool in curl ab; do command -v $tool >/dev/null || fail "$tool is not installed (scripts/install-deps.sh)"; done

NS=dperf-e2e-vxlan
OUR_MAC=02:00:00:00:00:01 KERNEL_MAC=02:00:00:00:00:02
make_ns $NS
# No IPv6 in the namespace: the kernel's router solicitations and MLD
# reports, outside and inside the tunnel, would be counted in otherRx
# (rightly: not for us), and this test wants it at 0.
ip netns exec $NS sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1
cat >"$T/server.conf" <<CONF
mode server
cpu 0
duration 120s
port net_tap0,iface=dpvxtap0 198.18.0.1 198.18.0.2
vxlan 42 $OUR_MAC $KERNEL_MAC 198.18.0.1 1 198.18.0.2 1
client 198.18.10.2 1
server 198.18.10.1 1
listen 80 1
keepalive
payload_size 200
CONF
start_primary e2e-vxtap "$T/server.conf" $NS
in_ns() { ip netns exec $NS "$@"; }
st() { jget "$(ctl -p e2e-vxtap stats --json)" "$1"; }
ip -n $NS addr add 198.18.0.2/24 dev dpvxtap0
ip -n $NS link set dpvxtap0 up
# The kernel's end: its inner MAC is the one our frames go to; ours is
# configured, as dperf's inner MACs are (no ARP inside the tunnel).
ip -n $NS link add vx0 address $KERNEL_MAC type vxlan id 42 local 198.18.0.2 remote 198.18.0.1 \
	dstport 4789 dev dpvxtap0
ip -n $NS addr add 198.18.10.2/24 dev vx0
ip -n $NS link set vx0 up
ip -n $NS neigh replace 198.18.10.1 lladdr $OUR_MAC dev vx0 nud permanent

base=$(st http2XX)
in_ns curl -s -m 5 -D "$T/hdr" -o "$T/body" http://198.18.10.1/ || fail "curl through vx0 failed"
grep -qi '^HTTP/1.1 200' "$T/hdr" || fail "curl status: $(head -1 "$T/hdr")"
[ "$(stat -c %s "$T/body")" = 115 ] || fail "body of $(stat -c %s "$T/body") bytes, expected 200 - 85"
[ "$(st http2XX)" = $((base + 1)) ] || fail "http2XX did not count curl's request"
[ "$(st arpRx)" -ge 1 ] || fail "arpRx $(st arpRx): the kernel's ARP for our VTEP was not seen"
note "curl ok through the kernel's VXLAN device"

in_ns ab -q -n 2000 -c 8 -k http://198.18.10.1/ >"$T/ab.log" 2>&1 || fail "ab: $(tail -3 "$T/ab.log")"
done_n=$(awk '/^Complete requests:/ {print $3}' "$T/ab.log")
failed=$(awk '/^Failed requests:/ {print $3}' "$T/ab.log")
[ "$done_n" = 2000 ] && [ "$failed" = 0 ] || fail "ab: $done_n complete, $failed failed"
[ "$(st http2XX)" = $((base + 2001)) ] || fail "http2XX $(st http2XX), expected $((base + 2001))"
for k in badRx otherRx httpErr; do
	[ "$(st $k)" = 0 ] || fail "$k = $(st $k)"
done
# what the kernel's device received and sent went through the tunnel
rx=$(in_ns cat /sys/class/net/vx0/statistics/rx_packets)
[ "$rx" -ge 2001 ] || fail "vx0 received only $rx packets"
pass "curl and ab (2000 requests, 0 failed) through a Linux VXLAN device, VNI 42"
