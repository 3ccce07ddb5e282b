#!/usr/bin/env bash
# Control requests are never applied late (issue 18, item 4): a change sent
# to a stopped primary (SIGSTOP) gets "no answer" with its own exit status
# (4, not 3 "no such primary"), and after SIGCONT the primary refuses the
# queued request as too old; status says the primary did not answer.
. "$(dirname "$0")/lib.sh"

N=e2e-stale
SERVER_DURATION=60s SERVER_EXTRA= memif_server_conf "$T/memif.sock" >"$T/s.conf"
start_primary $N "$T/s.conf"
kill -STOP "$PID_e2e_stale"
# Both asked at once (each waits out dperf-ctl's whole 10 s for an answer).
(rc=0; ctl -p $N status >"$T/status.out" 2>"$T/status.err" || rc=$?; echo $rc >"$T/status.rc") &
st=$!
rc=0; ctl -p $N set duration 30s >"$T/set.out" 2>"$T/set.err" || rc=$?
wait $st
[ "$(cat "$T/status.rc")" = 4 ] || fail "status of a stopped primary: exit $(cat "$T/status.rc"), expected 4"
grep -q "did not answer\|no answer" "$T/status.err" || fail "status did not say the primary is not answering: $(cat "$T/status.err")"
[ $rc = 4 ] || fail "set duration to a stopped primary: exit $rc, expected 4 ($(tail -1 "$T/set.err"))"
grep -q "set duration was not applied" "$T/set.err" || fail "no 'not applied': $(tail -1 "$T/set.err")"
note "$(tail -1 "$T/set.err")"
kill -CONT "$PID_e2e_stale"
sleep 0.5 # (not readiness: the time the primary gets to apply the queued change, which it must refuse)
ctl -p $N status >"$T/status2.out" || fail "status after SIGCONT: exit $?"
grep -q "^duration: 60.0 s$" "$T/status2.out" || fail "the stale request was applied: $(grep duration "$T/status2.out")"
grep -q "^generation: 0$" "$T/status2.out" || fail "a change was recorded: $(grep generation "$T/status2.out")"
ctl -p $N stop >/dev/null
wait_exit "$PID_e2e_stale" 10 || fail "primary exit status $?"
pass "no answer: exit 4, not applied, then refused as stale"
