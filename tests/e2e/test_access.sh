#!/usr/bin/env bash
# Access: a primary's runtime directory is 0700 and its hugepage files
# (the memzones) 0600, so another user can neither attach (dperf-ctl and
# dperf-top say why, exit 3) nor reach the control socket or the shared
# memory directly. The primary is unaffected.
. "$(dirname "$0")/lib.sh"
id nobody >/dev/null 2>&1 || fail "no 'nobody' user on this box"
as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }

CPS=5k CLIENT_DURATION=30s memif_pair "$T"
chmod 0755 "$T" # only the engine's own files are under test
start_primary e2e-acc "$T/server.conf"
rd=/var/run/dpdk/e2e-acc
[ "$(stat -c %a "$rd")" = 700 ] || fail "runtime dir $rd is mode $(stat -c %a "$rd"), expected 700"
[ "$(stat -c %a /var/run/dpdk)" = 700 ] || fail "/var/run/dpdk is mode $(stat -c %a /var/run/dpdk)"
n=0
shopt -s nullglob
for f in $(huge_files e2e-acc); do
	[ "$(stat -c %a "$f")" = 600 ] || fail "$f is mode $(stat -c %a "$f"), expected 600"
	n=$((n + 1))
done
[ "$n" -gt 0 ] || fail "no hugepage files for e2e-acc"
note "$rd mode 700, $n hugepage files mode 600"

for cmd in "dperf-ctl -p e2e-acc status" "dperf-ctl -p e2e-acc set duration 1s" "dperf-ctl status" "dperf-top -p e2e-acc --once"; do
	rc=0
	# shellcheck disable=SC2086
	out=$(as_nobody "$SECONDARY_BUILD"/$cmd 2>&1) || rc=$?
	[ $rc = 3 ] || fail "'$cmd' as nobody: exit $rc, expected 3 ($out)"
	grep -q "only a primary's owner can attach" <<<"$out" || fail "'$cmd' as nobody does not say why: $out"
	[ "$(wc -l <<<"$out")" = 1 ] || fail "'$cmd' as nobody: more than one line: $out"
done
note "as nobody: $out"
as_nobody /usr/bin/python3 - "$rd/mp_socket" "$(huge_files e2e-acc | head -1)" <<'PY' || fail "nobody reached the control socket or the shared memory"
import socket, sys
try:
    s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    s.sendto(b"x", sys.argv[1])
    sys.exit("sent to " + sys.argv[1])
except PermissionError:
    pass
try:
    open(sys.argv[2], "rb").read(1)
    sys.exit("read " + sys.argv[2])
except PermissionError:
    pass
PY
ctl -p e2e-acc status | grep -q "^state: running$" || fail "the primary is not running after the attempts"
ctl -p e2e-acc status | grep -q "^duration: 60.0 s$" || fail "the duration changed"
ctl -p e2e-acc stop >/dev/null
wait_exit "$PID_e2e_acc" 15 || fail "primary exited with an error"
pass "other users cannot attach, control or read the shared memory"
