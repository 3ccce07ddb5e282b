#!/usr/bin/env bash
# Signals from the surroundings (issue 18, item 1): only SIGKILL may leave
# files behind, and the next primary reclaims those. Output piped into
# `head` (SIGPIPE) and a closed ssh session (SIGHUP) do not stop the test;
# every other signal that would end the process stops it gracefully.
. "$(dirname "$0")/lib.sh"

N=e2e-sig
conf() { # conf DURATION: a memif server alone (it needs no peer to run)
	cat >"$T/s.conf" <<CONF
mode server
cpu 0
duration $1
port net_memif0,role=server,socket=$T/memif.sock 198.18.0.1 198.18.0.2
client 198.18.1.2 4
server 198.18.2.1 1
listen 80 1
CONF
}
# Nothing of instance $1 in the runtime base or the hugepage directories.
nothing_left() {
	[ ! -e "/var/run/dpdk/$1" ] || fail "$2: runtime directory /var/run/dpdk/$1 left behind"
	local m
	for m in $(awk '$3 == "hugetlbfs" {print $2}' /proc/mounts); do
		! ls "$m/$1"map_* >/dev/null 2>&1 || fail "$2: hugepage files $m/$1map_* left behind"
	done
	# its own hugetlbfs (primary/boot/hugedir.h) and its lock
	[ ! -e "/run/dperf/hugepages/$1" ] && [ ! -e "/run/dperf/hugepages/$1.lock" ] ||
		fail "$2: /run/dperf/hugepages/$1 left behind ($(grep -c "/run/dperf/hugepages/$1 " /proc/mounts) mounted)"
}

# Piped into head: the pipe closes after 3 lines, the test runs to its end.
conf 3s
set +e
"$BUILD/dperf" -c "$T/s.conf" -p $N 2>"$T/pipe.err" | head -3 >/dev/null
rc=${PIPESTATUS[0]}
set -e
[ "$rc" = 0 ] || fail "piped into head: exit status $rc ($(tail -2 "$T/pipe.err"))"
grep -q "per-second output failed (Broken pipe)" "$T/pipe.err" || fail "piped into head: the closed pipe was not noted: $(cat "$T/pipe.err")"
nothing_left $N "piped into head"
note "piped into head: ran to its end, rc 0, noted once"

# SIGHUP: keeps running to its end, summary and all.
conf 3s
start_primary $N "$T/s.conf"
kill -HUP "$PID_e2e_sig"
sleep 0.5 # (not readiness: the time SIGHUP gets to end the primary, which it must not)
kill -0 "$PID_e2e_sig" 2>/dev/null || fail "SIGHUP ended the primary"
wait_exit "$PID_e2e_sig" 10 || fail "SIGHUP: exit status $?"
grep -q "^---- dperf $N total" "$T/$N.log" || fail "SIGHUP: no summary"
nothing_left $N SIGHUP

# Every other terminating signal, sent from outside: a graceful stop long
# before the duration, summary printed, files removed, exit status 0.
conf 60s
for sig in USR1 USR2 QUIT ALRM TERM ABRT RTMIN+3; do
	start_primary $N "$T/s.conf"
	kill -s "$sig" "$PID_e2e_sig"
	wait_exit "$PID_e2e_sig" 10 || fail "SIG$sig: exit status $?"
	grep -q "^---- dperf $N total" "$T/$N.log" || fail "SIG$sig: no summary: $(tail -3 "$T/$N.log")"
	nothing_left $N "SIG$sig"
done
note "USR1 USR2 QUIT ALRM TERM ABRT RTMIN+3: graceful stops"

# SIGKILL leaves files; the next primary, whatever its name, reclaims them.
start_primary $N "$T/s.conf"
kill -KILL "$PID_e2e_sig"
wait "$PID_e2e_sig" 2>/dev/null || true
[ -e /var/run/dpdk/$N ] || fail "SIGKILL left nothing (the check below would prove nothing)"
[ -e /run/dperf/hugepages/$N.lock ] || fail "SIGKILL left no hugetlbfs of its own (the check below would prove nothing about it)"
rm -f "$T/memif.sock"
start_primary $N-2 "$T/s.conf"
line=$(grep "reclaimed" "$T/$N-2.log") || fail "the next primary did not say what it reclaimed"
mb=$(sed -n 's/.*reclaimed \([0-9]*\) MB.*/\1/p' <<<"$line")
[ "${mb:-0}" -gt 0 ] || fail "reclaimed no hugepage memory: $line"
nothing_left $N "after the next start"
ctl -p $N-2 stop >/dev/null
wait_exit "$PID_e2e_sig_2" 10 || fail "second primary: exit status"
nothing_left $N-2 "second primary"
pass "signals end the test cleanly; $line"
