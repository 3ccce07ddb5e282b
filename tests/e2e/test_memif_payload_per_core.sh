#!/usr/bin/env bash
# dperf 1.9: a server with one payload size per worker core ("payload_size
# 100 300" on "cpu 0 1") answers from each core with that core's size.
# UDP over a 2-queue memif: client worker i sends to server address i,
# which server core i owns; each server core's datagrams are checked from
# its own counters (dperf-ctl status: pkt_tx, bits_tx, udp_tx per worker):
# bits_tx / udp_tx = the frame of that core's size, exactly.
. "$(dirname "$0")/lib.sh"

sock=$T/memif.sock
cat >"$T/server.conf" <<CONF
mode server
cpu 0 1
duration 60s
protocol udp
payload_size 100 300
port net_memif0,role=server,socket=$sock 198.18.0.1 198.18.0.2
client 198.18.1.2 4
server 198.18.2.1 2
listen 80 1
CONF
cat >"$T/client.conf" <<CONF
mode client
cpu 0 1
duration 3s
cps 2k
protocol udp
payload_size 10
port net_memif0,role=client,socket=$sock 198.18.0.2 198.18.0.1
client 198.18.1.2 4
server 198.18.2.1 2
listen 80 1
slow_start 0
wait 1
CONF
start_primary e2e-srv "$T/server.conf"
start_primary e2e-cli "$T/client.conf"
wait_exit "$PID_e2e_cli" 30 || fail "client exited with an error"
ctl -p e2e-srv status >"$T/status.txt" || fail "server status"
ctl -p e2e-srv stop >/dev/null
wait_exit "$PID_e2e_srv" 15 || fail "server exited with an error"
grep "^worker" "$T/status.txt" | sed 's/^/  /'
for w in 0 1; do
	size=$([ $w = 0 ] && echo 100 || echo 300)
	read -r pkt bits udp < <(awk -v w="worker $w:" 'index($0, w) == 1 {
		for (i = 1; i < NF; i++) { if ($i == "pkt_tx") p = $(i + 1); if ($i == "bits_tx") b = $(i + 1); if ($i == "udp_tx") u = $(i + 1) }
		print p, b, u }' "$T/status.txt")
	[ -n "$udp" ] && [ "$udp" -ge 2000 ] || fail "server core $w sent ${udp:-no} datagrams"
	# pkt_tx - udp_tx: ARP frames (padded to 60 bytes), core 0 only
	frame=$(( (bits / 8 - (pkt - udp) * 60) ))
	[ $((frame % udp)) = 0 ] && [ $((frame / udp)) = $((14 + 20 + 8 + size)) ] ||
		fail "server core $w: $((bits / 8)) bytes in $pkt frames ($udp datagrams): not $((14 + 20 + 8 + size))-byte frames"
	note "core $w: $udp datagrams of $size bytes"
done
c=$T/e2e-cli.log
[ "$(total "$c" udpRx)" -ge $(( $(total "$c" udpTx) - 64 )) ] || fail "client received $(total "$c" udpRx) of $(total "$c" udpTx) answers"
pass "each server core answered with its own payload size"
