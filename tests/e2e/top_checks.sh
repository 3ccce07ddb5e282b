#!/usr/bin/env bash
# Functions called through wait_for/trap look unreachable to shellcheck:
# shellcheck disable=SC2317
# SPDX-License-Identifier: BSD-3-Clause
# e2e: dperf-top against a running client primary.
#   env: BUILD (build dir), CLIENT_NAME (instance name of a running client)
# Runs dperf-top in a private tmux server (its own socket: nothing else of
# the user's tmux is touched), reads the screen, drives keys, and checks
# the engine's answers with dperf-ctl. Leaves the CPS target as found.
set -u

fail() { echo "FAIL: $*"; exit 1; }

: "${BUILD:?BUILD is not set}"
: "${CLIENT_NAME:?CLIENT_NAME is not set}"
TOP=$BUILD/dperf-top
CTL=$BUILD/dperf-ctl
[ -x "$TOP" ] || fail "$TOP not built"
[ -x "$CTL" ] || fail "$CTL not built"
command -v tmux >/dev/null || fail "tmux is not installed"

SOCK=dperf-top-e2e-$$
SESS=top
tm() { tmux -L "$SOCK" "$@"; }
cleanup() { tm kill-session -t "$SESS" 2>/dev/null; }
trap cleanup EXIT

pane() { tm capture-pane -p -t "$SESS"; }
status_field() { # status_field KEY: value of "KEY: value" from dperf-ctl status
	"$CTL" -p "$CLIENT_NAME" status 2>/dev/null |
		sed -n "s/^[[:space:]]*$1:[[:space:]]*\([^[:space:]]*\).*/\1/p" | head -n 1
}
# "99.87K" -> 99870 (dp_fmt_si's suffixes)
si_to_num() {
	awk -v s="$1" 'BEGIN { m = 1; u = substr(s, length(s));
		if (u == "K") m = 1e3; else if (u == "M") m = 1e6; else if (u == "G") m = 1e9;
		else if (u == "T") m = 1e12;
		if (m != 1) s = substr(s, 1, length(s) - 1);
		printf "%.0f\n", s * m }'
}
# within5 A B: |A-B| <= 5% of the larger (both 0 counts as equal)
within5() { awk -v a="$1" -v b="$2" 'BEGIN { m = a > b ? a : b; d = a - b; if (d < 0) d = -d;
	exit !(d <= 0.05 * m) }'; }
# wait_for SECONDS CMD...: retry CMD every 0.2 s
wait_for() {
	local end=$((SECONDS + $1)); shift
	until "$@"; do
		[ "$SECONDS" -ge "$end" ] && return 1
		sleep 0.2
	done
}

# --- not a terminal: refused before attaching -----------------------------
err=$("$TOP" -p "$CLIENT_NAME" 2>&1 >/dev/null | cat)
"$TOP" -p "$CLIENT_NAME" 2>/dev/null | cat
rc=${PIPESTATUS[0]}
[ "$rc" -eq 2 ] || fail "stdout not a tty: exit $rc, expected 2"
echo "$err" | grep -q "standard output is not a terminal" || fail "stdout not a tty: message '$err'"

# --- --once with stdout piped ---------------------------------------------
once=$("$TOP" -p "$CLIENT_NAME" --once -d 0.5 | cat; exit "${PIPESTATUS[0]}")
rc=$?
[ "$rc" -eq 0 ] || fail "--once exit $rc"
echo "$once" | grep -qF "$CLIENT_NAME" || fail "--once: no instance name in: $once"
echo "$once" | grep -Eq 'RATES +CPS +[0-9.]+[KMGT]?' || fail "--once: no CPS figure in: $once"
echo "$once" | grep -Eq '^TESTER +stall [0-9.]+[KMGT]? stallUs [0-9.]+[KMGT]? launchSkip [0-9.]+[KMGT]? devFault [0-9.]+[KMGT]?$' ||
	fail "--once: no TESTER line in: $once"
# The latencies of either side: this client's requests are one segment (no
# RTT estimate) and there is no TLS: both "-", not a measured 0.
echo "$once" | grep -Eq '^LATENCY +sRTT p50 - p99 -   TLS handshake p50 - p99 -$' ||
	fail "--once: no sRTT / TLS handshake line (\"-\" without samples) in: $once"
# The TLS line is for protocol https/tls only (test_memif_tls checks it there)
! echo "$once" | grep -Eq '^TLS ' || fail "--once: a TLS line without TLS in: $once"

# --- live view ------------------------------------------------------------
cmd="$(printf '%q' "$TOP") -p $(printf '%q' "$CLIENT_NAME") -d 0.5; echo dperf-top-exit=\$?; exec sleep 600"
tm new-session -d -s "$SESS" -x 100 -y 30 "$cmd" || fail "tmux new-session"
# Drawn once it has a rate to show (dperf-top needs two samples).
drawn() { pane | grep -Eq 'RATES +CPS +[0-9.]+[KMGT]?'; }
wait_for 10 drawn || fail "dperf-top drew no CPS in 10 s: $(pane)"
screen=$(pane)
head=$(echo "$screen" | head -n 1)
echo "$head" | grep -qF "$CLIENT_NAME" || fail "instance name missing from header: $head"
echo "$head" | grep -Eq ' (init|wait|slow-start|running|paused|stopping|done)( |$)' ||
	fail "state missing from header: $head"
echo "$screen" | grep -Eq 'sRTT p50 .* p99 .*   TLS handshake p50 .* p99 ' || fail "no sRTT / TLS handshake row on screen: $screen"

# CPS on screen vs dperf-ctl's per-second skOpen rate, within 5%.
ok=0
for _ in 1 2 3 4 5; do
	shown=$(pane | grep -Eo 'RATES +CPS +[0-9.]+[KMGT]?' | awk '{ print $3 }' | head -n 1)
	ctl=$("$CTL" -p "$CLIENT_NAME" stats --json 2>/dev/null |
		grep -Eo '"cps"[[:space:]]*:[[:space:]]*[0-9.eE+-]+' | head -n 1 | sed 's/.*:[[:space:]]*//')
	[ -n "$shown" ] || fail "no CPS figure on screen: $(pane)"
	[ -n "$ctl" ] || fail "dperf-ctl stats --json has no \"cps\""
	shown_n=$(si_to_num "$shown")
	if within5 "$shown_n" "$ctl"; then ok=1; break; fi
	sleep 1
done
[ "$ok" -eq 1 ] || fail "CPS on screen $shown ($shown_n) vs dperf-ctl $ctl: more than 5% apart"

# '+': the target goes up.
before=$(status_field target_cps)
[ -n "$before" ] || fail "dperf-ctl status has no target_cps line"
tm send-keys -t "$SESS" '+'
raised() { local now; now=$(status_field target_cps); [ -n "$now" ] && [ "$now" -gt "$before" ]; }
wait_for 3 raised || fail "'+': target_cps still $(status_field target_cps) (was $before)"
accepted() { pane | grep -q 'accepted:'; }
wait_for 3 accepted ||
	fail "'+': no 'accepted:' on the status line"

# 'c': put the target back exactly (exercises the prompt).
tm send-keys -t "$SESS" c
tm send-keys -t "$SESS" -l "$before"
tm send-keys -t "$SESS" Enter
restored() { [ "$(status_field target_cps)" = "$before" ]; }
wait_for 3 restored || fail "'c $before': target_cps is $(status_field target_cps)"

# 'p': paused; 'p' again: running again.
tm send-keys -t "$SESS" p
is_paused() { [ "$(status_field state)" = paused ]; }
wait_for 3 is_paused || fail "'p': state is $(status_field state), expected paused"
tm send-keys -t "$SESS" p
not_paused() { ! is_paused; }
wait_for 3 not_paused || fail "second 'p': still paused"

# 'q': dperf-top ends with 0 and gives the terminal back.
tm send-keys -t "$SESS" q
ended() { pane | grep -q 'dperf-top-exit='; }
wait_for 3 ended || fail "'q': dperf-top still running: $(pane)"
pane | grep -q 'dperf-top-exit=0' || fail "'q': $(pane | grep 'dperf-top-exit=')"
pane | grep -q 'RATES' && fail "'q': screen not restored: $(pane)"

echo "PASS: dperf-top"
exit 0
