#!/usr/bin/env bash
# A lost peer is an error, not silence (issue #18): a memif client at 2k
# connections/s, each connection making 50 requests 10 ms apart, loses its
# server to kill -9. Its state says link-down, the change log and linkDown
# say when, it launches nothing meanwhile without blaming itself
# (launchSkip flat), and the connections it had open time out through the
# retransmit path into skErr. A new server on the same socket: the client
# reconnects by itself, resolves its gateway again and carries on, and
# the summary says what happened. A second client on a socket whose
# server already has one never gets a link: it ends after wait + 5 s,
# non-zero, with one line saying so.
. "$(dirname "$0")/lib.sh"

CPS=2k CLIENT_DURATION=60s SERVER_DURATION=60s SERVER_EXTRA=keepalive \
	CLIENT_EXTRA=$'keepalive 10ms 50\nretransmit_timeout 100ms' memif_pair "$T"
c=$T/e2e-cli.log
st() { jget "$(ctl -p e2e-cli stats --json)" "$1"; }
start_primary e2e-srv "$T/server.conf"
start_primary e2e-cli "$T/client.conf"
answered() { [ "$(st http2XX)" -gt "$1" ]; }
wait_until 10 answered 5000 || fail "the client got $(st http2XX) answers, expected 5000 in 10 s"

kill -KILL "$PID_e2e_srv"
link_down() { [ "$(st state)" = link-down ]; }
wait_until 5 link_down || fail "state $(st state) 5 s after the server died, expected link-down"
skip0=$(st launchSkip) err0=$(st skErr) open0=$(st skOpen)
# The connections open at the kill: 5 tries at 100, 200, 400, 800 and
# 1600 ms, so all of them have failed 3.1 s later.
lost() { [ "$(st skCon)" = 0 ] && [ "$(st skErr)" -gt 0 ]; }
wait_until 6 lost || fail "skCon $(st skCon), skErr $(st skErr) with the server gone: connections never timed out"
skip1=$(st launchSkip) open1=$(st skOpen)
note "server killed: state link-down, skErr $(st skErr), launchSkip $skip0 -> $skip1, skOpen $open0 -> $open1"
[ "$skip1" = "$skip0" ] || fail "launchSkip grew $skip0 -> $skip1 while the link was down (the tester is not the limit)"
[ "$open1" = "$open0" ] || fail "skOpen grew $open0 -> $open1: connections launched into a dead link"

# A new server on the same socket: the client comes back by itself.
SERVER_DURATION=60s SERVER_EXTRA=keepalive memif_server_conf "$T/memif.sock" >"$T/server2.conf"
start_primary e2e-srv2 "$T/server2.conf"
srv2_answers() { [ "$(jget "$(ctl -p e2e-srv2 stats --json)" http2XX)" -gt 2000 ]; }
wait_until 10 srv2_answers || fail "the client did not come back to the new server (state $(st state))"
[ "$(st state)" = running ] || fail "state $(st state) after the reconnect, expected running"

# A second client on the same socket: the server already has one.
sed 's/^duration .*/duration 30s/' "$T/client.conf" >"$T/client2.conf"
start_primary e2e-cli2 "$T/client2.conf"
t0=$(date +%s)
wait_exit "$PID_e2e_cli2" 20 && fail "a client whose link never came up exited 0"
took=$(($(date +%s) - t0))
grep -q "^dperf: port 0 (net_memif0.*): the link never came up in 5 s" "$T/e2e-cli2.log" ||
	fail "no one-line reason from the second client: $(grep -v '^ \|^[a-z]* *[0-9]' "$T/e2e-cli2.log" | tail -3)"
note "second client: $(grep '^dperf: port 0' "$T/e2e-cli2.log") (after $took s)"

ctl -p e2e-cli stop >/dev/null || fail "stop refused"
wait_exit "$PID_e2e_cli" 15 || fail "the client exited non-zero after its peer came back"
grep -q "change   at .* s: port0 link 1 -> 0" "$c" && grep -q "change   at .* s: port0 link 0 -> 1" "$c" ||
	fail "the change log does not show the link going down and back up"
grep -q "state    link-down" "$c" || fail "the per-second output never showed state link-down"
[ "$(total "$c" linkDown)" = 1 ] && [ "$(total "$c" linkUp)" = 1 ] ||
	fail "summary: linkDown $(total "$c" linkDown) linkUp $(total "$c" linkUp), expected 1 and 1"
ctl -p e2e-srv2 stop >/dev/null
wait_exit "$PID_e2e_srv2" 15 || fail "the second server exited with an error"
pass "link-down shown and counted, $(total "$c" skErr) lost connections in skErr, launchSkip flat, reconnected to a new server ($(total "$T/e2e-srv2.log" http2XX) answers); a client with no link ends non-zero"
