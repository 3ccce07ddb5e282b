#!/usr/bin/env bash
# Readers tell a death from an end (issue 18, item 5): stats --watch (text
# and JSON) and export exit 0 after a normal end, and after a SIGKILL of
# the primary say it died, with its pid, and exit 5; a reader whose output
# fails (full disk, closed pipe) says so and exits 6.
. "$(dirname "$0")/lib.sh"

N=e2e-rend
PORT=$((20000 + $$ % 10000))
SERVER_DURATION=60s SERVER_EXTRA= memif_server_conf "$T/memif.sock" >"$T/s.conf"

# readers: start the three, remembered in R_TEXT R_JSON R_EXP
readers() {
	bg ctl -p $N stats --watch 0.2 >"$T/$1.text" 2>"$T/$1.text.err"; R_TEXT=$LAST_PID
	bg ctl -p $N stats --json --watch 0.2 >"$T/$1.json" 2>"$T/$1.json.err"; R_JSON=$LAST_PID
	bg ctl -p $N export --prometheus 127.0.0.1:$PORT >"$T/$1.exp" 2>"$T/$1.exp.err"; R_EXP=$LAST_PID
	for _ in $(seq 50); do [ -s "$T/$1.text" ] && [ -s "$T/$1.json" ] && [ -s "$T/$1.exp" ] && return; sleep 0.1; done
	fail "$1: the readers did not start"
}
# expect_exit PID RC WHAT
expect_exit() {
	local rc=0
	wait_exit "$1" 10 || rc=$?
	[ "$rc" = "$2" ] || fail "$3: exit $rc, expected $2"
}

# A normal end: exit 0, "engine stopped".
start_primary $N "$T/s.conf"
readers end
ctl -p $N stop >/dev/null
wait_exit "$PID_e2e_rend" 10 || fail "primary exit status"
expect_exit $R_TEXT 0 "stats --watch after a normal end"
expect_exit $R_JSON 0 "stats --json --watch after a normal end"
expect_exit $R_EXP 0 "export after a normal end"
grep -q "engine stopped" "$T/end.text" || fail "no 'engine stopped': $(tail -2 "$T/end.text")"
grep -q '"event":"engine stopped"' "$T/end.json" || fail "no engine stopped event: $(tail -1 "$T/end.json")"

# A death: exit 5, the pid named.
start_primary $N "$T/s.conf"
readers died
pid=$PID_e2e_rend
kill -KILL "$pid"
expect_exit $R_TEXT 5 "stats --watch after SIGKILL"
expect_exit $R_JSON 5 "stats --json --watch after SIGKILL"
expect_exit $R_EXP 5 "export after SIGKILL"
for f in text json exp; do
	grep -q "(pid $pid) died before its test ended" "$T/died.$f.err" || fail "$f: no death message with pid $pid: $(cat "$T/died.$f.err")"
done
grep -q '"event":"engine died"' "$T/died.json" || fail "no engine died event: $(tail -1 "$T/died.json")"
note "$(cat "$T/died.text.err")"

# Output that fails: a full disk, a closed pipe.
start_primary $N "$T/s.conf"
bg ctl -p $N stats --watch 0.2 >/dev/full 2>"$T/full.err"
expect_exit $LAST_PID 6 "stats --watch > /dev/full"
grep -q "writing the output failed: No space left on device" "$T/full.err" || fail "/dev/full: $(cat "$T/full.err")"
set +e
timeout 10 "$SECONDARY_BUILD/dperf-ctl" -p $N stats --watch 0.2 2>"$T/pipe.err" | head -1 >/dev/null
rc=${PIPESTATUS[0]}
set -e
[ "$rc" = 6 ] || fail "stats --watch | head -1: exit $rc, expected 6"
grep -q "writing the output failed: Broken pipe" "$T/pipe.err" || fail "closed pipe: $(cat "$T/pipe.err")"
ctl -p $N stop >/dev/null
wait_exit "$PID_e2e_rend" 10 || fail "primary exit status"
pass "normal end 0, death 5 with the pid, failed output 6"
