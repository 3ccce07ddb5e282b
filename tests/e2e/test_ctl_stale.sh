#!/usr/bin/env bash
# Control requests are never applied late (issue 18, item 4): a change sent
# to a stopped primary (SIGSTOP) gets "no answer" with its own exit status
# (4, not 3 "no such primary"), and after SIGCONT the primary refuses the
# queued request as too old; status says the primary did not answer.
# Meanwhile, a primary that dies with a request of ours unanswered: the
# tool says so (3) at once, not after its whole timeout.
. "$(dirname "$0")/lib.sh"
command -v gdb >/dev/null || fail "gdb is not installed (scripts/install-deps.sh)"

N=e2e-stale
SERVER_DURATION=60s SERVER_EXTRA= memif_server_conf "$T/memif.sock" >"$T/s.conf"
SERVER_DURATION=60s SERVER_EXTRA= memif_server_conf "$T/memif2.sock" >"$T/s2.conf"
start_primary $N "$T/s.conf"
start_primary e2e-dies "$T/s2.conf"

# The dying primary (in the background, while the stale requests below wait
# out their time): a CI run's dperf-ctl racing a stop took 11.9 s to say
# that the primary had ended (its request reached the primary's IPC socket
# as the primary closed it, and it waited its whole 10 s). gdb holds the
# tool just before it sends; the primary is stopped, the request sent into
# its socket, and the primary killed 0.5 s later.
cat >"$T/gdb.cmds" <<GDB
set pagination off
set auto-solib-add off
set breakpoint pending on
break dp_ctl_send_kind
run
shell kill -STOP $PID_e2e_dies
shell (sleep 0.5; kill -KILL $PID_e2e_dies) >/dev/null 2>&1 &
shell date +%s%N >$T/sent
continue
shell date +%s%N >$T/ended
quit
GDB
timeout 60 gdb -batch -x "$T/gdb.cmds" --args "$SECONDARY_BUILD/dperf-ctl" -p e2e-dies set duration 40s >"$T/gdb.out" 2>&1 &
gdb_pid=$!

# The set: gdb holds it just before its request, attached while the
# primary runs (a tool that attaches to a stopped primary waits 5 s in
# DPDK's vdev scan first, as the status below does); then the primary is
# stopped and the set goes on. Both wait out their whole time for an
# answer: status 1 s, set 6 s (DPERF_CTL_TIMEOUT_S instead of the default
# 10 s: still past the 5 s after which the primary refuses a request).
cat >"$T/gdb-set.cmds" <<GDB
set pagination off
set auto-solib-add off
set breakpoint pending on
break dp_ctl_send_kind
run
shell touch $T/set.held; while [ ! -e $T/go ]; do sleep 0.05; done
continue
quit
GDB
DPERF_CTL_TIMEOUT_S=6 timeout 60 gdb -batch -x "$T/gdb-set.cmds" --args "$SECONDARY_BUILD/dperf-ctl" -p $N set duration 30s >"$T/set.err" 2>&1 &
set_pid=$!
held() { [ -e "$T/set.held" ]; }
wait_until 20 held || fail "gdb did not hold the set before its request: $(tail -3 "$T/set.err")"
kill -STOP "$PID_e2e_stale"
touch "$T/go"
(rc=0; ctl -p $N status >"$T/status.out" 2>"$T/status.err" || rc=$?; echo $rc >"$T/status.rc") &
st=$!
wait $st
wait $set_pid || true
[ "$(cat "$T/status.rc")" = 4 ] || fail "status of a stopped primary: exit $(cat "$T/status.rc"), expected 4"
grep -q "did not answer\|no answer" "$T/status.err" || fail "status did not say the primary is not answering: $(cat "$T/status.err")"
rc=$(sed -n 's/.*exited with code 0*\([0-9][0-9]*\)\]$/\1/p' "$T/set.err")
[ "$rc" = 4 ] || fail "set duration to a stopped primary: exit ${rc:-0}, expected 4 ($(grep -E 'dperf-ctl|exited' "$T/set.err" | tail -2))"
grep -q "within 6 s: set duration was not applied" "$T/set.err" || fail "no 'within 6 s ... not applied': $(grep dperf-ctl "$T/set.err")"
note "$(grep "was not applied" "$T/set.err")"
kill -CONT "$PID_e2e_stale"
sleep 0.5 # (not readiness: the time the primary gets to apply the queued change, which it must refuse)
ctl -p $N status >"$T/status2.out" || fail "status after SIGCONT: exit $?"
grep -q "^duration: 60.0 s$" "$T/status2.out" || fail "the stale request was applied: $(grep duration "$T/status2.out")"
grep -q "^generation: 0$" "$T/status2.out" || fail "a change was recorded: $(grep generation "$T/status2.out")"
ctl -p $N stop >/dev/null
wait_exit "$PID_e2e_stale" 10 || fail "primary exit status $?"

wait "$gdb_pid" || true
wait "$PID_e2e_dies" 2>/dev/null || true
forget_killed
grep -q "Breakpoint 1, dp_ctl_send_kind" "$T/gdb.out" || fail "gdb did not stop dperf-ctl before its request: $(grep -E 'Breakpoint|rror|exited' "$T/gdb.out" | head -5)"
grep -q "exited with code 03" "$T/gdb.out" && grep -q "ended before answering" "$T/gdb.out" ||
	fail "a request to a primary that died: not exit 3 'ended before answering': $(grep -E 'dperf-ctl|exited' "$T/gdb.out" | head -3)"
ms=$(( ($(cat "$T/ended") - $(cat "$T/sent")) / 1000000 ))
# The kill comes 0.5 s after the send; the tool looks every 50 ms.
[ "$ms" -le 3000 ] || fail "a request to a primary killed 0.5 s after it was sent: the tool said so after $ms ms"
note "a request to a primary killed 0.5 s after it was sent: exit 3 after $ms ms"
pass "no answer: exit 4, not applied, then refused as stale; a primary gone with a request unanswered: exit 3 at once"
