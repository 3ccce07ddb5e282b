#!/usr/bin/env bash
# flood: every frame the flooding client hands to the device is a packet of
# its own, whole and correct, although it builds each in an mbuf it reuses
# (primary/net/pkt_flood.c). The client floods into DPDK's net_pcap; an
# independent checker (pcap_check.py) reads every frame: IP and TCP/UDP
# checksums, lengths, a different source address and port in each, one
# payload, IPv4 ids one apart. The frame count equals the client's pktTx.
# dperf's client_hop: each frame changes both the source address and port.
. "$(dirname "$0")/lib.sh"

# flood_run NAME 4|6 EXTRA: 1 s of flooding at 150k/s (after wait 1) into
# $T/NAME.pcap; checks the client's own figures, then starts the checker
# on the pcap in the background (nice 10, beside the next run: its worker
# keeps the priority), whose figures checked NAME checks.
flood_run() {
	local name=$1 extra=$3 lip=198.18.1.2 rip=198.18.2.1 me=198.18.0.2 gw=198.18.0.1 n
	[ "$2" = 6 ] && lip=2001:2::1:2 rip=2001:2::2:1 me=2001:2::2 gw=2001:2::1
	cat >"$T/$name.conf" <<CONF
mode client
cpu 1
duration 1s
cps 150k
port net_pcap0,tx_pcap=$T/$name.pcap $me $gw 02:00:00:00:00:01
client $lip 4
server $rip 1
listen 80 1
flood
payload_size 18
slow_start 0
wait 1
launch_num 64
$extra
CONF
	start_primary "e2e-flood-$name" "$T/$name.conf"
	wait_exit "$(eval echo "\$PID_e2e_flood_${name//-/_}")" 20 || fail "$name: client exited with an error"
	n=$(total "$T/e2e-flood-$name.log" pktTx)
	echo "$n" >"$T/$name.n"
	[ "$n" -ge 100000 ] || fail "$name: the client sent only $n frames"
	[ "$(total "$T/e2e-flood-$name.log" dropTx)" = 0 ] || fail "$name: dropTx $(total "$T/e2e-flood-$name.log" dropTx)"
	# every mbuf back in the pool at the end (the reused ones too)
	grep -q "mbufFree \([0-9]*\) mbufFreeStart \1 " "$T/e2e-flood-$name.log" || fail "$name: mbufs not returned: $(grep mbufFree "$T/e2e-flood-$name.log")"
	bg nice -n 10 /usr/bin/python3 "$(dirname "$0")/pcap_check.py" "$T/$name.pcap" >"$T/$name.json"
	eval "CHECK_${name//-/_}=$LAST_PID"
}
# checked NAME: waits for NAME's checker; sets R (its JSON) and N (the
# client's pktTx); every frame whole and correct, one per pktTx.
checked() {
	local name=$1 pid=CHECK_${1//-/_}
	wait "${!pid}" || fail "$name: pcap_check failed"
	R=$(cat "$T/$name.json") N=$(cat "$T/$name.n")
	note "$name: pktTx $N, pcap $R"
	[ "$(jget "$R" frames)" = "$N" ] || fail "$name: pcap has $(jget "$R" frames) frames, client counted $N"
	for k in bad_ip bad_l4 bad_len; do
		[ "$(jget "$R" $k)" = 0 ] || fail "$name: $k = $(jget "$R" $k) of $N frames"
	done
	# 4 addresses x 65k ports: no tuple repeats in 150k frames
	[ "$(jget "$R" tuples)" = "$N" ] || fail "$name: $(jget "$R" tuples) distinct source tuples in $N frames"
}

flood_run udp 4 "protocol udp"
# client_hop: address and port both change from one frame to the next,
# and still no tuple repeats
flood_run hop 4 "protocol udp
client_hop"
flood_run vlan 4 "protocol udp
vlan 100"
flood_run syn 4 ""
flood_run udp6 6 "protocol udp"
# dperf's change_dip: the destinations go in turn over the 4 listed
# (198.18.3.1 + k x 2), as many frames to each (one core: one list).
flood_run dip 4 "protocol udp
change_dip 198.18.3.1 2 4"
flood_run dip-syn 4 "change_dip 198.18.3.1 1 2"

checked udp
[ "$(jget "$R" payloads)" = 1 ] && [ "$(jget "$R" ip_id_gaps)" = 0 ] && [ "$(jget "$R" proto)" = "['udp']" ] ||
	fail "udp: $R"
# the plain walk: the next address on the same port, 3 frames in 4
[ "$(jget "$R" same_src_addr)" = 0 ] && [ "$(jget "$R" same_src_port)" -ge $((N * 3 / 4 - 2)) ] ||
	fail "udp: not dperf-live's plain walk (address first, then port): $R"
checked hop
[ "$(jget "$R" same_src_addr)" = 0 ] && [ "$(jget "$R" same_src_port)" = 0 ] ||
	fail "hop: consecutive frames share an address or a port: $R"
checked vlan
[ "$(jget "$R" vlan)" = "$N" ] && [ "$(jget "$R" payloads)" = 1 ] || fail "vlan: $R"
checked syn
[ "$(jget "$R" syn)" = "$N" ] && [ "$(jget "$R" ip_id_gaps)" = 0 ] || fail "syn: $R"
checked udp6
[ "$(jget "$R" payloads)" = 1 ] && [ "$(jget "$R" proto)" = "['udp']" ] || fail "udp6: $R"
checked dip
/usr/bin/python3 - "$R" "$N" <<'PY' || fail "dip: destinations not spread over the change_dip list: $R"
import json, sys
r, n = json.loads(sys.argv[1]), int(sys.argv[2])
want = ["198.18.3.1", "198.18.3.3", "198.18.3.5", "198.18.3.7"]
assert sorted(r["dsts"]) == want, r["dsts"]
assert all(abs(c - n / 4) <= 1 for c in r["dsts"].values()), r["dsts"]
PY
checked dip-syn
[ "$(jget "$R" syn)" = "$N" ] || fail "dip-syn: $R"
/usr/bin/python3 -c 'import json, sys; d = json.loads(sys.argv[1])["dsts"]; sys.exit(sorted(d) != ["198.18.3.1", "198.18.3.2"] or abs(d["198.18.3.1"] - d["198.18.3.2"]) > 1)' "$R" ||
	fail "dip-syn: destinations $R"
pass "UDP, UDP with VLAN, SYN and UDP over IPv6: every frame correct; change_dip spreads UDP and SYN floods; client_hop changes address and port with each frame"
