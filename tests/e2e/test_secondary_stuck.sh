#!/usr/bin/env bash
# A tool killed while it holds a lock in the primary's shared memory
# (DPDK's memzone lock, held for reading inside rte_memzone_lookup while a
# secondary's EAL start attaches the ports) leaves it held for good. What
# test_secondary_kill meets at random, made certain here: gdb stops a
# dperf-ctl there and kills it. Then later tools must say so and exit 3
# (not spin), the engine must go on counting, and a SIGINT must still end
# it with its summary, exit 0 and no file left: freeing its memzones at
# exit would wait forever on that lock, so a watchdog ends the teardown
# (a CI run's client spun there until killed, its files left behind).
. "$(dirname "$0")/lib.sh"
command -v gdb >/dev/null || fail "gdb is not installed (scripts/install-deps.sh)"

CPS=5k CLIENT_DURATION=60s SERVER_DURATION=90s memif_pair "$T"
start_primary e2e-srv "$T/server.conf"
# Its teardown is made to hang: DPERF_TEARDOWN_S=2 lets its watchdog end
# it after 2 s, not the default 10 (the lock is held here, so the
# watchdog ends it whatever its length: a shorter one only waits less; a
# memif client's teardown takes well under a second when nothing is held).
DPERF_TEARDOWN_S=2 start_primary e2e-cli "$T/client.conf"
cat >"$T/gdb.cmds" <<'GDB'
set pagination off
set breakpoint pending on
break rte_memzone_lookup
run
break rte_fbarray_find_next_used
continue
bt 2
kill
quit
GDB
timeout 60 gdb -batch -x "$T/gdb.cmds" --args "$SECONDARY_BUILD/dperf-ctl" -p e2e-cli status >"$T/gdb.out" 2>&1 || true
# Killed with the lock held: inside the lookup, not before nor after it.
grep -q "^#1 .* in rte_memzone_lookup" "$T/gdb.out" || fail "gdb did not stop dperf-ctl inside rte_memzone_lookup: $(grep -E '^#|Breakpoint|rror' "$T/gdb.out" | head -5)"

# The client's seconds printed so far: it must print two more after the
# kill (checked below, once the later tool has given up: those 3 s count).
n0=$(grep -c '^seconds' "$T/e2e-cli.log")
# DPERF_ATTACH_TIMEOUT_S=3: it says so after 3 s, not the default 15 (the
# lock is held for good here, so no attach can end before it: a shorter
# timeout only waits less; the two seconds the client must print after
# the kill have their own 5 s deadline below).
rc=0; out=$(DPERF_ATTACH_TIMEOUT_S=3 timeout 40 "$SECONDARY_BUILD/dperf-ctl" -p e2e-cli stats --json 2>&1) || rc=$?
[ $rc = 3 ] && grep -q "is stuck inside DPDK" <<<"$out" || fail "a tool after the kill: exit $rc, expected 3 and 'stuck inside DPDK': $out"
note "a later tool: $(tail -1 <<<"$out" | cut -c1-110)..."
counting() { [ "$(grep -c '^seconds' "$T/e2e-cli.log")" -ge $((n0 + 2)) ]; }
wait_until 5 counting || fail "the client stopped printing its seconds after the kill"

t0=$(date +%s%N)
kill -INT "$PID_e2e_cli"
wait_exit "$PID_e2e_cli" 30 || fail "client exit status after SIGINT"
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
grep -q "^---- dperf e2e-cli total" "$T/e2e-cli.log" || fail "no summary from the client"
grep -q "shutting down timed out" "$T/e2e-cli.log" || fail "the client exited without its watchdog: was the lock held? $(tail -3 "$T/e2e-cli.log")"
[ "$(total "$T/e2e-cli.log" skOpen)" = "$(total "$T/e2e-cli.log" skClose)" ] || fail "client left connections open"
note "client: summary, exit 0, $ms ms after SIGINT (its teardown ended by the watchdog)"
ctl -p e2e-srv stop >/dev/null || fail "server stop refused"
wait_exit "$PID_e2e_srv" 15 || fail "server exit status"
# (run-e2e.sh's leftover check then finds no file of either.)
pass "a tool killed holding the memzone lock: later tools exit 3, the engine counts on, SIGINT ends it in $ms ms, exit 0"
