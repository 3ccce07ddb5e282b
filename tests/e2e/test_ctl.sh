#!/usr/bin/env bash
# dperf-ctl against a running memif test: rate changes followed within a
# second, duration, pause/resume/stop, every refusal, exit codes, parallel
# secondaries (killed ones: test_secondary_kill.sh), two primaries, the watcher seeing the end.
. "$(dirname "$0")/lib.sh"

CPS=10k CLIENT_DURATION=300s SERVER_DURATION=400s memif_pair "$T"
start_primary e2e-srv "$T/server.conf"
start_primary e2e-cli "$T/client.conf"
rc=0; ctl status >/dev/null 2>"$T/list.err" || rc=$?
[ $rc = 2 ] && grep -q "e2e-cli" "$T/list.err" && grep -q "e2e-srv" "$T/list.err" || fail "two primaries without -p: rc $rc, $(cat "$T/list.err")"
code() { local rc=0; "$@" >/dev/null 2>&1 || rc=$?; echo $rc; }
[ "$(code ctl -p nosuch status)" = 3 ] || fail "unknown instance must exit 3"
[ "$(code ctl -p e2e-cli set cps abc)" = 2 ] || fail "bad number must exit 2"
[ "$(code ctl -p e2e-cli frobnicate)" = 2 ] || fail "unknown command must exit 2"

bg "$SECONDARY_BUILD/dperf-ctl" -p e2e-cli stats --json --watch 0.5 >"$T/watch.jsonl"
WATCH=$LAST_PID
# The watcher sees the client at its first target (10k, within 10%).
at_start_rate() {
	[ -s "$T/watch.jsonl" ] && [ "$(tail -1 "$T/watch.jsonl" | /usr/bin/python3 -c 'import json,sys; print(int(json.load(sys.stdin)["cps"]))' 2>/dev/null || echo 0)" -ge 9000 ]
}
wait_until 15 at_start_rate || fail "the watcher did not see 10k CPS 15 s after the start: $(tail -1 "$T/watch.jsonl")"

# follow TARGET: the watcher's samples (every 0.5 s) reach the target
# within 10% no later than 1.5 s after the change was accepted. A sample
# in which the host took the worker's core (stallUs) counts the launches
# the pacer skipped for it (launchSkip, the 10 ms catch-up window) as
# launched: the engine asked for the new rate, the box did not let it run
# (CI saw 4065/s + 923 skipped against 5000, under ASan, 277 ms stalled).
follow() {
	local target=$1 n0 cps=0
	n0=$(wc -l <"$T/watch.jsonl")
	for _ in 1 2 3; do
		sleep 0.5
		cps=$(tail -1 "$T/watch.jsonl" | /usr/bin/python3 -c 'import json,sys
j = json.load(sys.stdin); r = j["rates"]
print(int(j["cps"] + (r["launchSkip"] if r["stallUs"] > 0 else 0)))')
		[ "$(wc -l <"$T/watch.jsonl")" -gt "$n0" ] || continue
		if [ "$cps" -ge $((target * 9 / 10)) ] && [ "$cps" -le $((target * 11 / 10)) ]; then
			note "cps follows $target: $cps"
			return 0
		fi
	done
	fail "cps did not follow the target $target within 1.5 s (last sample $cps)"
}
ctl -p e2e-cli set cps 5k >/dev/null || fail "set cps 5k refused"
follow 5000
ctl -p e2e-cli set cps 20k >/dev/null || fail "set cps 20k refused"
follow 20000
st=$(ctl -p e2e-cli status)
grep -q "^target_cps: 20000$" <<<"$st" || fail "status: $st"
gen=$(awk '/^generation:/{print $2}' <<<"$st")
grep -q "applied_generation $gen " <<<"$st" || fail "worker did not apply generation $gen: $st"
# status --json: the same figures as the text, as one JSON object.
js=$(ctl -p e2e-cli status --json) || fail "status --json failed: $js"
/usr/bin/python3 - "$js" "$gen" <<'PY' || fail "status --json does not match the text: $js"
import json, sys
j = json.loads(sys.argv[1]); gen = int(sys.argv[2])
assert j["name"] == "e2e-cli" and j["mode"] == "client" and j["state"] == "running", j
assert j["target_cps"] == 20000 and j["generation"] >= gen, j
assert len(j["workers"]) == 1 and j["workers"][0]["applied_generation"] >= gen, j
assert [c["new"] for c in j["changes"] if c["what"] == "set cps"][-2:] == [5000, 20000], j
PY
# A usage error names the option, not the command.
rc=0; why=$(ctl -p e2e-cli status --bogus 2>&1 >/dev/null) || rc=$?
[ $rc = 2 ] && grep -q -- '"--bogus"' <<<"$why" && ! grep -q "unknown command" <<<"$why" || fail "status --bogus: exit $rc, $why"

ctl -p e2e-cli set duration +5s >/dev/null || fail "set duration +5s refused"
ctl -p e2e-cli status | grep -q "^duration: 305.0 s$" || fail "duration not extended to 305 s"

# Refusals: exit 1 with the primary's reason.
refuse() {
	local why rc=0
	why=$(ctl "$@" 2>&1 >/dev/null) || rc=$?
	[ $rc = 1 ] || fail "'$*' not refused (exit $rc: $why)"
	note "refused '$*': $why"
}
# (All at once: each attaches a secondary of its own, which takes a while.)
pids=()
refuse -p e2e-srv set cps 1k & pids+=($!)
refuse -p e2e-cli set cps 0 & pids+=($!)
refuse -p e2e-cli set cps 100g & pids+=($!)
refuse -p e2e-cli resume & pids+=($!)
refuse -p e2e-cli set duration 1s & pids+=($!)
refuse -p e2e-cli set cc 100 & pids+=($!)
for p in "${pids[@]}"; do wait "$p" || fail "a request that must be refused was not (above)"; done

ctl -p e2e-cli pause >/dev/null || fail "pause refused"
refuse -p e2e-cli pause
paused() { ctl -p e2e-cli status | grep -q "^state: paused$"; }
wait_until 5 paused || fail "state is not paused 5 s after pause was applied"
# The test's duration: 1 s paused, and no connection opened in it.
o1=$(jget "$(ctl -p e2e-cli stats --json)" skOpen); sleep 1; o2=$(jget "$(ctl -p e2e-cli stats --json)" skOpen)
[ "$o1" = "$o2" ] || fail "connections opened while paused: $o1 -> $o2"
ctl -p e2e-cli resume >/dev/null || fail "resume refused"
follow 20000

before=$(jget "$(ctl -p e2e-cli stats --json)" http2XX)
pids=()
for i in $(seq 20); do ctl -p e2e-cli set cps 20k >"$T/par.$i" 2>&1 & pids+=($!); done
for p in "${pids[@]}"; do wait $p || fail "a parallel request was not answered: $(cat "$T"/par.* | grep -v "accepted\|applied" | head -3)"; done
after=$(jget "$(ctl -p e2e-cli stats --json)" http2XX)
[ "$after" -gt "$before" ] || fail "counters stopped"
note "20 parallel requests answered"

# Requests racing the end: twelve dperf-ctl started 25 ms apart from the
# moment the stop is sent. Each must hear an answer (accepted before the
# stop, refused after it: exit 0 or 1) or find the primary gone (exit 3),
# within 8 s; none may wait out its 10 s timeout for a primary that ended
# (exit 4, which a CI run saw: the primary had dropped its IPC action).
# (8 s, not less: a secondary's EAL start on a loaded box takes seconds;
# one that overlaps the primary's end waited 5 s inside DPDK's vdev scan,
# and a request sent as the primary closed its IPC socket waited out the
# tool's 10 s (a CI run: 11.9 s). The tool now gives up within 50 ms of
# the primary's teardown: lib/attach.c, lib/ctl_client.c.)
# The refusal rule itself is unit-tested (test_control).
race=()
for i in $(seq 0 11); do
	( sleep "$(printf '0.%03d' $((i * 25)))"; s0=$(date +%s%N); rc=0
	  why=$(ctl -p e2e-cli set cps 1k 2>&1) || rc=$?
	  echo "$rc $(( ($(date +%s%N) - s0) / 1000000 )) ${why//$'\n'/ | }" >"$T/race.$i" ) &
	race+=($!)
done
ctl -p e2e-cli stop >/dev/null || fail "stop refused"
for p in "${race[@]}"; do wait "$p"; done
for i in $(seq 0 11); do
	read -r rc ms why <"$T/race.$i"
	case $rc in 0 | 1 | 3) ;; *) fail "set cps racing the stop ($((i * 25)) ms): exit $rc after $ms ms: $why" ;; esac
	[ "$ms" -le 8000 ] || fail "set cps racing the stop ($((i * 25)) ms): answered after $ms ms: $why"
done
note "12 requests racing the stop: exits $(cut -d' ' -f1 "$T"/race.* | sort | uniq -c | awk '{printf "%s%s x%s", s, $2, $1; s=", "}'), the slowest $(cut -d' ' -f2 "$T"/race.* | sort -n | tail -1) ms"
wait_exit "$PID_e2e_cli" 20 || fail "client exit status after stop"
wait_exit "$WATCH" 5 || fail "watcher exit status"
tail -1 "$T/watch.jsonl" | grep -q '"event":"engine stopped"' || fail "watcher did not report the end: $(tail -1 "$T/watch.jsonl")"
/usr/bin/python3 -c 'import json,sys; [json.loads(l) for l in open(sys.argv[1])]' "$T/watch.jsonl" || fail "watch output is not JSON Lines"
ctl -p e2e-srv stop >/dev/null
wait_exit "$PID_e2e_srv" 15 || fail "server exit status"
c=$T/e2e-cli.log
grep -q "set cps 10000 -> 5000" "$c" && grep -q "set duration 300000000 -> 305000000" "$c" && grep -q "pause 0 -> 1" "$c" || fail "changes not recorded in the primary's output"
# 20 secondaries starting at once on a 2-core box preempt the busy-polling
# workers: retransmits and duplicate segments (tcpDrop) may follow, but
# every connection must still complete.
for k in skErr httpErr; do [ "$(total "$c" $k)" = 0 ] || fail "client $k = $(total "$c" $k)"; done
[ "$(total "$c" httpGet)" = "$(total "$c" http2XX)" ] || fail "httpGet != http2XX"
[ "$(total "$c" skOpen)" = "$(total "$c" skClose)" ] || fail "connections left open"
pass "rate, duration, pause, stop, refusals, faults"
