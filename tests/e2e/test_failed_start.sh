#!/usr/bin/env bash
# Failed starts (issue 18, item 2): the common causes are caught before EAL,
# by dperf -t as by a start (one line, exit 2, nothing created); a start
# that EAL refuses leaves nothing; a summary that cannot be written at the
# end is an error, not lost silently.
. "$(dirname "$0")/lib.sh"

N=e2e-fail
good() {
	SERVER_DURATION=2s SERVER_EXTRA= memif_server_conf "$T/m.sock"
}
nothing_left() {
	[ ! -e "/var/run/dpdk/$N" ] || fail "$1: runtime directory /var/run/dpdk/$N left behind"
	! ls /dev/hugepages/"$N"map_* >/dev/null 2>&1 || fail "$1: hugepage files /dev/hugepages/${N}map_* left behind"
	[ ! -e "/run/dperf/hugepages/$N" ] && [ ! -e "/run/dperf/hugepages/$N.lock" ] ||
		fail "$1: its own hugetlbfs /run/dperf/hugepages/$N left behind"
}
# refused WHAT EXPECTED [PREFIX-COMMAND...] -- DPERF-ARGS: dperf -t and a
# start both give one line containing EXPECTED and exit 2.
refused() {
	local what=$1 want=$2 pre=() out rc
	shift 2
	while [ "$1" != -- ]; do pre+=("$1"); shift; done
	shift
	for mode in -t ""; do
		rc=0
		out=$("${pre[@]}" "$BUILD/dperf" $mode -p $N "$@" 2>&1 >/dev/null) || rc=$?
		[ $rc = 2 ] || fail "$what (${mode:-start}): exit $rc, expected 2: $(head -3 <<<"$out")"
		[ "$(wc -l <<<"$out")" = 1 ] || fail "$what (${mode:-start}): more than one line: $(head -3 <<<"$out")"
		grep -qF -- "$want" <<<"$out" || fail "$what (${mode:-start}): '$out' does not say '$want'"
	done
	nothing_left "$what"
	note "$what: $out"
}

good >"$T/ok.conf"
"$BUILD/dperf" -t -c "$T/ok.conf" >/dev/null || fail "the good config does not pass -t"

free=$(( $(cat /sys/kernel/mm/hugepages/hugepages-2048kB/free_hugepages) * 2 ))
{ good; echo "socket_mem $((free + 1000))"; } >"$T/mem.conf"
refused "socket_mem beyond free hugepages" "mem.conf:8: socket_mem $((free + 1000)) asks for" -- -c "$T/mem.conf"

good | sed 's/^cpu 0/cpu 99/' >"$T/cpu99.conf"
refused "cpu 99" "cpu99.conf:2: cpu 99: this machine has CPUs 0-" -- -c "$T/cpu99.conf"
good | sed 's/^cpu 0/cpu 1/' >"$T/cpu1.conf"
refused "cpu outside taskset" "cpu1.conf:2: cpu 1 is not in the set this process may run on" taskset -c 0 -- -c "$T/cpu1.conf"

chmod 755 "$T"; chmod 644 "$T/ok.conf"
refused "non-root user" "dperf runs as root" setpriv --reuid=65534 --regid=65534 --clear-groups -- -c "$T/ok.conf"

refused "-o in a missing directory" "-o /nonexistent/dir/out.json: cannot write there" -- -c "$T/ok.conf" -o /nonexistent/dir/out.json

# EAL refuses an unknown driver: its files go with it.
good | sed 's/^port net_memif0[^ ]*/port net_bogus0/' >"$T/bogus.conf"
rc=0; "$BUILD/dperf" -c "$T/bogus.conf" -p $N >"$T/bogus.log" 2>&1 || rc=$?
[ $rc != 0 ] || fail "net_bogus0: exit 0"
nothing_left "net_bogus0"
note "net_bogus0: exit $rc, $(tail -1 "$T/bogus.log")"

# The summary cannot be written at the end (a full disk): exit 1, a message.
rc=0; "$BUILD/dperf" -c "$T/ok.conf" -p $N -o /dev/full >"$T/full.log" 2>&1 || rc=$?
[ $rc = 1 ] || fail "-o /dev/full: exit $rc, expected 1"
grep -q -- "-o /dev/full: writing the summary failed: No space left on device" "$T/full.log" || fail "-o /dev/full: no message: $(tail -2 "$T/full.log")"
nothing_left "-o /dev/full"
pass "caught before EAL; nothing left after a refused start; a lost summary is an error"
