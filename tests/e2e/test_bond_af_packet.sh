#!/usr/bin/env bash
# Bonded ports (dperf's "port bondMODE:POLICY(DEV0,DEV1)"), on DPDK's
# net_bonding PMD: a client and a server, each on a bond of two
# net_af_packet members, joined by two veth pairs between two namespaces
# (DPDK 22.11's memif refuses the MAC address a bond sets on its members).
# In round robin (mode 0), balance-xor over ports (mode 2, policy 2 l34),
# modes that need no switch, and 802.3ad (mode 4), whose LACP the two DPDK
# bonds negotiate between themselves: every request answered, no error, and both
# members of each bond carry traffic, by their own device counters (the
# summary's "member" lines), which add up to what the engine sent (plus
# LACP's own frames in mode 4).
. "$(dirname "$0")/lib.sh"

C=dperf-e2e-bondc S=dperf-e2e-bonds
make_ns $C
make_ns $S
for ns in $C $S; do
	# No IPv6 autoconfiguration chatter (router solicitations, MLD) on
	# the members: only the test's frames cross the links.
	ip netns exec $ns sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1
done
for i in 0 1; do
	ip link add dpbc$i netns $C type veth peer name dpbs$i netns $S
	ip netns exec $C sysctl -qw net.ipv6.conf.dpbc$i.disable_ipv6=1
	ip netns exec $S sysctl -qw net.ipv6.conf.dpbs$i.disable_ipv6=1
	ip -n $C link set dpbc$i up
	ip -n $S link set dpbs$i up
done

# run MODE POLICY: one client run against a server, both on bondMODE:POLICY.
run() {
	local mode=$1 policy=$2 tag=m$1p$2 duration=3s
	# 802.3ad: the link is up once LACP has converged (2-5 s here), and
	# the client launches nothing before (state "wait"). Its duration,
	# counted from its start, is first a deadline; once it runs, it is set
	# to end 3 to 4 s later, so that 3 s at least run at full rate (a fixed
	# wait of 5 s did that before, whatever LACP took).
	[ "$mode" != 4 ] || duration=30s
	# Frames the members send that the engine did not: 802.3ad's own LACP
	# frames (about one a second per member; 8 in an 8 s run here).
	local lacp=0
	[ "$mode" != 4 ] || lacp=64
	cat >"$T/server-$tag.conf" <<CONF
mode server
cpu 0
duration 60s
port bond$mode:$policy(net_af_packet0,iface=dpbs0,net_af_packet1,iface=dpbs1) 198.18.0.1 198.18.0.2
client 198.18.1.2 4
server 198.18.2.1 1
listen 80 1
CONF
	cat >"$T/client-$tag.conf" <<CONF
mode client
cpu 1
duration $duration
cps 5k
port bond$mode:$policy(net_af_packet0,iface=dpbc0,net_af_packet1,iface=dpbc1) 198.18.0.2 198.18.0.1
client 198.18.1.2 4
server 198.18.2.1 1
listen 80 1
slow_start 0
wait 0
CONF
	start_primary e2e-bonds-$tag "$T/server-$tag.conf" $S
	DPERF_ARGS="-o $T/client-$tag.json" start_primary e2e-bondc-$tag "$T/client-$tag.conf" $C
	if [ "$mode" = 4 ]; then
		# The first second the client's own log (flushed each second)
		# shows it running: it has run at full rate since then at least.
		local up=
		running() { up=$(awk '/^seconds/ && $4 == "running" { print $2; exit }' "$T/e2e-bondc-$tag.log"); [ -n "$up" ]; }
		wait_until 20 running || fail "$tag: the client is not running 20 s after its start (LACP): $(grep '^seconds' "$T/e2e-bondc-$tag.log" | tail -1)"
		ctl -p e2e-bondc-$tag set duration $((up + 3))s >/dev/null || fail "$tag: set duration refused"
		note "$tag: LACP converged, the client running at second $up"
	fi
	wait_exit "$(eval echo "\$PID_e2e_bondc_$tag")" 30 || fail "$tag: client exited with an error"
	ctl -p e2e-bonds-$tag stop >/dev/null || fail "$tag: stop refused"
	wait_exit "$(eval echo "\$PID_e2e_bonds_$tag")" 15 || fail "$tag: server exited with an error"

	local c=$T/e2e-bondc-$tag.log s=$T/e2e-bonds-$tag.log get ok
	get=$(total "$c" httpGet) ok=$(total "$c" http2XX)
	[ "$get" -gt 10000 ] || fail "$tag: client sent only $get requests in 3 s at 5k cps"
	[ "$get" = "$ok" ] || fail "$tag: httpGet $get != http2XX $ok"
	[ "$(total "$s" http2XX)" = "$ok" ] || fail "$tag: server answered $(total "$s" http2XX), client got $ok"
	for k in skErr tcpDrop httpErr badRx dropTx synRt pushRt; do
		[ "$(total "$c" $k)" = 0 ] || fail "$tag: client $k = $(total "$c" $k)"
		[ "$(total "$s" $k)" = 0 ] || fail "$tag: server $k = $(total "$s" $k)"
	done
	# Each member's own counters: both carry a real share (a quarter at
	# least) of what the engine sent and received, and together they are
	# every frame it sent.
	for side in c s; do
		local log=${!side} tx rx
		tx=$(total "$log" pktTx) rx=$(total "$log" pktRx)
		awk -v tx="$tx" -v rx="$rx" -v who="$tag $side" -v lacp=$lacp '
			/^port0 +member / { n++; o += $7
				if ($7 * 4 < tx || $5 * 4 < rx) { print who ": member " $3 " carried too little: " $0 " (pktTx " tx ", pktRx " rx ")"; bad = 1 } }
			END {
				if (n != 2) { print who ": " n " member lines, expected 2"; exit 1 }
				if (o < tx || o > tx + lacp) { print who ": members sent " o " frames, the engine " tx " (expected " (lacp ? "up to " lacp " LACP frames more" : "the same") ")"; exit 1 }
				exit bad }' "$log" >"$T/members.err" || fail "$(cat "$T/members.err")"
	done
	# The -o summary (and dperf-ctl stats --json) lists the members too.
	/usr/bin/python3 - "$T/client-$tag.json" "$(total "$c" pktTx)" $lacp <<'PY' || fail "$tag: -o members: $(cut -c1-300 "$T/client-$tag.json")"
import json, sys
m = json.load(open(sys.argv[1]))["members"]
assert [x["name"] for x in m] == ["net_af_packet0", "net_af_packet1"], m
assert 0 <= sum(x["opackets"] for x in m) - int(sys.argv[2]) <= int(sys.argv[3]), m
PY
	note "$tag: $get requests, all answered; client $(grep -E '^port0 +member' "$c" | awk '{printf "%s tx %s rx %s; ", $3, $7, $5}')"
}

# BOND_RUNS: the MODE:POLICY pairs to run.
for mp in ${BOND_RUNS:-0:0 2:2 4:2}; do run "${mp%:*}" "${mp#*:}"; done
pass "bonds of two af_packet members in modes 0, 2 and 4: every request answered, both members carry traffic"
