#!/usr/bin/env bash
# dperf-top attached to a running memif test, driven in tmux: the screen
# shows the instance, state and a CPS within 5% of dperf-ctl's; '+', 'p',
# 'c', 'q' (top_checks.sh); then 's' + 'y' stops the engine, and a
# primary that dies under dperf-top leaves the terminal usable.
. "$(dirname "$0")/lib.sh"
command -v tmux >/dev/null || fail "tmux is not installed"

CPS=10k CLIENT_DURATION=60s memif_pair "$T"
start_primary e2e-srv "$T/server.conf"
start_primary e2e-cli "$T/client.conf"
# Answers counted in a whole second: the screen has a CPS to compare.
counting() { [ "$(stat_of e2e-cli http2XX)" -ge 10000 ]; }
wait_until 15 counting || fail "the client counted no second at 10k 15 s after its start"
SOCK=dperf-top-e2e-$$
tm() { tmux -L "$SOCK" "$@"; }
trap 'rc=$?; tm kill-server 2>/dev/null; (exit $rc); cleanup' EXIT
# shows SESSION TEXT: the session's screen shows TEXT (any case).
shows() { tm capture-pane -p -t "$1" | grep -qiF -- "$2"; }
# (The trailing sleep keeps the pane, and its exit line, on screen.)
tm new-session -d -s stop -x 100 -y 30 "$SECONDARY_BUILD/dperf-top -p e2e-cli -d 0.5; echo top-exit=\$?; sleep 30"
# The server's dperf-top, for the kill below, attaches and draws meanwhile
# (the client's stop leaves the server running). Both attach while
# top_checks.sh runs (its own tmux server; these two only watch until
# then).
tm new-session -d -s kill -x 80 -y 24 "$SECONDARY_BUILD/dperf-top -p e2e-srv --exit-on-stop; echo top-exit=\$?; sleep 30"
BUILD=$SECONDARY_BUILD CLIENT_NAME=e2e-cli bash "$(dirname "$0")/top_checks.sh" || fail "top checks"

wait_until 10 shows stop e2e-cli || fail "dperf-top did not draw: $(tm capture-pane -p -t stop)"
tm send-keys -t stop s
wait_until 5 shows stop "stop the test" || fail "'s' did not ask for confirmation: $(tm capture-pane -p -t stop)"
tm send-keys -t stop y
wait_exit "$PID_e2e_cli" 20 || fail "client exit status after 's' 'y'"
wait_until 5 shows stop "engine stopped" || fail "no 'engine stopped' after the stop: $(tm capture-pane -p -t stop)"
tm send-keys -t stop q
wait_until 5 shows stop "top-exit=" || fail "dperf-top did not exit on 'q': $(tm capture-pane -p -t stop)"
shows stop "top-exit=0" || fail "dperf-top did not exit 0 after the engine stopped: $(tm capture-pane -p -t stop)"
note "'s' + 'y' stopped the engine; dperf-top showed it and exited 0"

# The server dies (SIGKILL) under dperf-top: the terminal must come back.
wait_until 10 shows kill e2e-srv || fail "dperf-top did not draw: $(tm capture-pane -p -t kill)"
kill -9 "$PID_e2e_srv"
wait_until 10 shows kill "top-exit=" || fail "dperf-top did not exit 10 s after its primary was killed: $(tm capture-pane -p -t kill)"
out=$(tm capture-pane -p -t kill)
grep -q "top-exit=5" <<<"$out" || fail "dperf-top did not exit 5 when its primary was killed: $out"
grep -q "(pid $PID_e2e_srv) died before its test ended" <<<"$out" || fail "dperf-top did not say the primary died: $out"
forget_killed
pass "screen, keys, stop, killed primary"
