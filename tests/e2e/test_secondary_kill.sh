#!/usr/bin/env bash
# Secondary faults: during a running memif test, dperf-top (in a tmux pty)
# and dperf-ctl (watchers and rate changes) are started and killed with
# SIGKILL at random moments, 100 times in all, two lanes at a time: while
# EAL attaches, while they read, while a request is in flight. The
# primaries keep running and counting, still take control requests, and
# their totals balance at the end; both exit 0. (A round whose control
# checks DPDK made impossible is followed by a second one, below.)
. "$(dirname "$0")/lib.sh"
command -v tmux >/dev/null || fail "tmux is not installed"

KILLS=${KILLS:-100}
SOCK=dperf-kill-e2e-$$
tm() { tmux -L "$SOCK" "$@"; }
trap 'rc=$?; tm kill-server 2>/dev/null; (exit $rc); cleanup' EXIT
tm new-session -d -s idle "sleep 600" # (a window to hold the dperf-top panes)

# One round: a fresh pair, KILLS secondaries killed, then the checks.
# Sets stuck=1 when a killed tool left DPDK's lock held (below), after the
# checks that can still run; fails the test on anything else.
round() {
rm -f "$T"/*.log "$T/memif.sock" # (a pair ended by the watchdog leaves its socket)
CPS=10k CLIENT_DURATION=90s SERVER_DURATION=150s memif_pair "$T"
start_primary e2e-srv "$T/server.conf"
# DPERF_TEARDOWN_S=2: a tool killed inside rte_memzone_lookup leaves the
# client's memzone lock read-held (later tools still attach: lookups only
# read), and the client's exit then spins freeing its memzones until its
# teardown watchdog ends it (exit 0, its files removed first: main.c). At
# the default 10 s that wait was most of this test's spread (28-40 s in
# CI); a memif client's teardown takes well under a second otherwise.
DPERF_TEARDOWN_S=2 start_primary e2e-cli "$T/client.conf"
answered() { [ "$(stat_of e2e-cli http2XX)" -gt 0 ]; }
wait_until 15 answered || fail "no answer counted 15 s after the start"

# Two lanes at once, each killing every other one of the KILLS (so two
# tools attach side by side at times, and the 100 take half the time);
# each lane writes its counts to $T/lane.N.
lane() {
local top_n=0 watch_n=0 set_n=0 hit=0 i p
for i in $(seq "$1" 2 "$KILLS"); do
	case $((i % 3)) in
	0)	# dperf-top in a pty: the pane's process is dperf-top itself.
		p=$(tm new-window -d -P -F '#{pane_pid}' -t idle "exec $SECONDARY_BUILD/dperf-top -p e2e-cli -d 0.1")
		top_n=$((top_n + 1)) ;;
	1)	"$SECONDARY_BUILD/dperf-ctl" -p e2e-cli stats --watch 0.1 >/dev/null 2>&1 &
		p=$!; watch_n=$((watch_n + 1)) ;;
	2)	"$SECONDARY_BUILD/dperf-ctl" -p e2e-cli set cps $((8 + RANDOM % 5))k >/dev/null 2>&1 &
		p=$!; set_n=$((set_n + 1)) ;;
	esac
	# 0 to 0.6 s: inside EAL init, attached, or finished.
	sleep "0.$((RANDOM % 6))$((RANDOM % 10))"
	[ -n "$p" ] && kill -9 "$p" 2>/dev/null && hit=$((hit + 1))
	wait "$p" 2>/dev/null || true
	if [ $((i % 10)) -lt 2 ]; then
		kill -0 "$PID_e2e_cli" && kill -0 "$PID_e2e_srv" || fail "a primary died after $i killed secondaries"
	fi
done
echo "$top_n $watch_n $set_n $hit" >"$T/lane.$1"
}
lane 1 & l1=$!
lane 2 & l2=$!
wait "$l1" || fail "lane 1 failed (above)"
wait "$l2" || fail "lane 2 failed (above)"
read -r top_n watch_n set_n hit < <(awk '{ for (i = 1; i <= 4; i++) s[i] += $i } END { print s[1], s[2], s[3], s[4] }' "$T/lane.1" "$T/lane.2")
note "round $1: started $top_n dperf-top, $watch_n watchers, $set_n rate changes; $hit were still running when killed"
[ "$hit" -ge $((KILLS / 2)) ] || fail "only $hit of $KILLS secondaries were still running when killed"

# Still counting, still controllable, still visible. One exception, from
# DPDK: a tool killed inside EAL's own secondary start-up can leave a lock
# in the primary's shared memory held for good (seen once in many runs;
# then a CI run's client, freeing a memzone at its exit, spun on it until
# killed: its teardown now has a watchdog, main.c). Later tools then say
# so and exit 3 instead of spinning; the engine runs on, which is checked
# through the primaries' own output, and a SIGINT still ends each within
# its grace and the watchdog's 10 s, exit 0. The control checks cannot
# run on that pair: a second round with a fresh one must run them.
stuck=0
rc=0; out=$(ctl -p e2e-cli stats --json 2>&1) || rc=$?
if [ $rc = 3 ] && grep -q "is stuck inside DPDK" <<<"$out"; then
	stuck=1
	note "round $1: a killed tool left an EAL lock held; later tools say: $out"
	rate() { awk '/http2XX/{for(i=1;i<NF;i++) if($i=="http2XX") v=$(i+1)} END{print v+0}' "$T/e2e-cli.log"; }
	n0=$(grep -c '^seconds' "$T/e2e-cli.log")
	counting() { [ "$(grep -c '^seconds' "$T/e2e-cli.log")" -ge $((n0 + 2)) ] && [ "$(rate)" -gt 0 ]; }
	wait_until 5 counting || fail "the client stopped counting after the kills"
	kill -INT "$PID_e2e_cli"
	wait_exit "$PID_e2e_cli" 30 || fail "client exited with an error"
	kill -INT "$PID_e2e_srv"
	wait_exit "$PID_e2e_srv" 20 || fail "server exited with an error"
else
	[ $rc = 0 ] || fail "stats after the kills: exit $rc: $out"
	a=$(jget "$out" http2XX)
	# dperf-top attaches meanwhile (each attach takes seconds on a loaded box).
	tm new-window -d -t idle "$SECONDARY_BUILD/dperf-top -p e2e-cli --once >$T/top.txt 2>&1; touch $T/top.done"
	grew() { b=$(stat_of e2e-cli http2XX); [ "$b" -gt "$a" ]; }
	wait_until 3 grew || fail "the client stopped counting: http2XX $a -> $b"
	ctl -p e2e-cli set cps 10k >/dev/null || fail "a rate change was refused after the kills"
	ctl -p e2e-cli status | grep -q "^target_cps: 10000$" || fail "target_cps not 10000 after the change"
	wait_until 10 test -e "$T/top.done" || fail "dperf-top --once did not end in 10 s: $(cat "$T/top.txt")"
	grep -q "e2e-cli" "$T/top.txt" || fail "dperf-top --once could not attach after the kills: $(cat "$T/top.txt")"
	note "after the kills: http2XX $a -> $b, set cps accepted, dperf-top attaches"
	ctl -p e2e-cli stop >/dev/null || fail "stop refused"
	wait_exit "$PID_e2e_cli" 30 || fail "client exited with an error"
	kill -INT "$PID_e2e_srv" # (no tool attached to it: a signal ends it without another attach)
	wait_exit "$PID_e2e_srv" 20 || fail "server exited with an error"
fi
! grep -q "shutting down timed out" "$T/e2e-cli.log" ||
	note "round $1: the client's teardown was ended by its watchdog (a killed tool left its memzone lock held)"
c=$T/e2e-cli.log s=$T/e2e-srv.log
get=$(total "$c" httpGet)
[ "$get" = "$(total "$c" http2XX)" ] || fail "client httpGet $get != http2XX $(total "$c" http2XX)"
[ "$get" = "$(total "$s" httpGet)" ] || fail "client sent $get requests, server saw $(total "$s" httpGet)"
for log in "$c" "$s"; do
	[ "$(total "$log" skOpen)" = "$(total "$log" skClose)" ] || fail "$log: skOpen != skClose"
	[ "$(total "$log" skErr)" = 0 ] || fail "$log: skErr $(total "$log" skErr)"
done
}

round 1
if [ $stuck = 1 ]; then
	round 2
	[ $stuck = 0 ] || fail "a killed tool left DPDK's lock held in two rounds in a row: the control checks (set cps, status, dperf-top) did not run"
fi
pass "$hit of $KILLS secondaries killed while running; $get requests, all answered and counted on both sides"
