#!/usr/bin/env bash
# Time a worker loses its core is a stall, not busy time (issue 38):
# the server of a 200 connections/s pair (about 1% busy) is stopped
# (SIGSTOP) for 400 ms once a second, eight times, as the host or the
# scheduler takes a polling worker's core. Packets pile up meanwhile, so
# the poll it resumes in returns some: that iteration used to count the
# whole gap as busy (cpuUsage about 40 in each such second). The stopped
# seconds must show the gap in stallUs and a cpuUsage still near idle.
. "$(dirname "$0")/lib.sh"

SERVER_DURATION=60s CPS=200 CLIENT_DURATION=14s memif_pair "$T"
start_primary e2e-srv "$T/server.conf"
start_primary e2e-cli "$T/client.conf"
sleep 3
for _ in $(seq 8); do
	kill -STOP "$PID_e2e_srv"
	sleep 0.4
	kill -CONT "$PID_e2e_srv"
	sleep 0.6
done
wait_exit "$PID_e2e_cli" 30 || fail "client exited with an error"
ctl -p e2e-srv stop >/dev/null
wait_exit "$PID_e2e_srv" 15 || fail "server exited with an error"

# Each per-second block of the server's log: its cpuUsage and stallUs.
# The stopped seconds: a stallUs of 300 ms or more.
read -r n med all < <(awk '
	$1 == "seconds" { cpu = $6 }
	{ for (i = 1; i < NF; i++) if ($i == "stallUs" && $(i + 1) >= 300000) print cpu }' "$T/e2e-srv.log" |
	sort -n | awk '{ v[NR] = $1; s = s (NR > 1 ? "," : "") $1 }
		END { print NR, (NR ? v[int((NR + 1) / 2)] : -1), s }')
note "seconds with a stop: $n, their cpuUsage: ${all:-none} (median ${med})"
[ "$n" -ge 4 ] || fail "only $n seconds show a stall of 300 ms or more (8 stops of 400 ms)"
[ "$med" -lt 10 ] || fail "cpuUsage $med (median) in the seconds the server was stopped: the stops counted as busy"
pass "8 stops of 400 ms: stallUs shows them, cpuUsage stays at ${med}% (median)"
