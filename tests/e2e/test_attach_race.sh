#!/usr/bin/env bash
# A tool that starts attaching just as its primary ends: the primary has
# removed its runtime directory, EAL in the tool makes it again and fails
# on the missing config. The tool must exit 3 and take that directory with
# it, or it outlives everyone (a CI run's test_ctl left /var/run/dpdk/e2e-cli
# behind when the primary's exit removed its files earlier). Made certain
# with gdb: a stand-in primary (a process holding the config file's lock,
# as EAL's primary does) passes the tool's check, then is gone, its
# directory removed, before the tool's rte_eal_init runs.
. "$(dirname "$0")/lib.sh"
command -v gdb >/dev/null || fail "gdb is not installed (scripts/install-deps.sh)"

NAME=e2e-attach-race DIR=/var/run/dpdk/e2e-attach-race
bg /usr/bin/python3 -c '
import fcntl, os, sys, time
d = sys.argv[1]; os.makedirs(d, mode=0o700, exist_ok=True)
open(d + "/dperf.instance", "w").close()
f = open(d + "/config", "w"); fcntl.lockf(f, fcntl.LOCK_EX)
open(d + "/ready", "w").close(); time.sleep(60)' "$DIR"
FAKE=$LAST_PID
wait_until 5 test -e "$DIR/ready" || fail "the stand-in primary did not start"
# The exit code is read where the tool asks the kernel to end it (a
# catchpoint on exit_group), not from gdb following it to its end: the
# tool's watch on its primary (lib/attach.c) ends it from a thread of its
# own while EAL's threads are being made, and gdb, following that, failed
# 5 runs in 6 ("Cannot find user-level thread for LWP ...", "Couldn't get
# registers: No such process") before showing the exit code. No
# libthread_db either: plain LWP tracking is all this test needs.
cat >"$T/gdb.cmds" <<GDB
set pagination off
set libthread-db-search-path
break rte_eal_init
run
shell kill $FAKE; while kill -0 $FAKE 2>/dev/null; do sleep 0.05; done; rm -rf $DIR
catch syscall exit_group
continue
printf "exit_group(%d)\\n", \$rdi
kill
quit
GDB
timeout 60 gdb -batch -x "$T/gdb.cmds" --args "$SECONDARY_BUILD/dperf-ctl" -p $NAME status >"$T/gdb.out" 2>&1 || true
grep -q "Breakpoint 1, .*rte_eal_init" "$T/gdb.out" || fail "gdb did not stop dperf-ctl in rte_eal_init: $(tail -5 "$T/gdb.out")"
grep -q "^exit_group(3)" "$T/gdb.out" || fail "dperf-ctl did not exit 3: $(grep -v '^\[' "$T/gdb.out" | tail -5)"
grep -q "cannot attach to '$NAME'" "$T/gdb.out" || fail "no 'cannot attach' line: $(tail -5 "$T/gdb.out")"
if [ -e "$DIR" ]; then
	left=$(ls -A "$DIR"); rm -rf "$DIR"
	fail "the tool left $DIR behind (holding: ${left:-nothing})"
fi
pass "a tool attaching to a primary that ended meanwhile: exit 3, nothing left behind"
