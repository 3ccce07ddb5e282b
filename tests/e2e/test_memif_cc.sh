#!/usr/bin/env bash
# CC test: the client reaches its concurrent-connection target, holds it
# while each connection sends a request every second, then closes them all.
# It ramps at 1M/s with launch_num 64, so launches come in batches: the
# target must stop a batch part-way (it was overshot by one in half the
# runs before launch() checked it per connection).
. "$(dirname "$0")/lib.sh"

# The client runs until stopped (the steps below take 10 s on an idle
# box, more when each secondary's start is slow): a fixed duration ended
# it under a loaded box before the resume.
CPS=1m CLIENT_DURATION=120s CLIENT_EXTRA="cc 3000
launch_num 64
keepalive_request_interval 1s" SERVER_EXTRA="keepalive" memif_pair "$T"
start_primary e2e-srv "$T/server.conf"
start_primary e2e-cli "$T/client.conf"
at_target() { [ "$(stat_of e2e-cli skCon)" = 3000 ]; }
wait_until 15 at_target || fail "skCon did not reach 3000 in 15 s"
held=()
for i in 1 2 3; do
	[ "$i" = 1 ] || sleep 1 # the test's duration: the target held over 3 samples, 1 s apart
	j=$(ctl -p e2e-cli stats --json)
	held+=("$(jget "$j" skCon)")
done
note "skCon samples: ${held[*]}"
for v in "${held[@]}"; do [ "$v" = 3000 ] || fail "skCon $v, expected the cc target 3000 to be held"; done
# pause: no new connections, the keepalive ones stay and keep requesting.
ctl -p e2e-cli pause >/dev/null || fail "pause refused" # (returns once every worker applied it)
# The test's duration: 1 s paused, a keepalive request on every connection.
j1=$(ctl -p e2e-cli stats --json); sleep 1; j2=$(ctl -p e2e-cli stats --json)
[ "$(jget "$j1" skOpen)" = "$(jget "$j2" skOpen)" ] || fail "connections opened while paused"
[ "$(jget "$j2" skCon)" = 3000 ] || fail "skCon $(jget "$j2" skCon) while paused, expected 3000"
[ "$(jget "$j2" httpGet)" -gt "$(jget "$j1" httpGet)" ] || fail "keepalive requests stopped while paused"
why=$(ctl -p e2e-cli resume 2>&1) || fail "resume refused: $why"
note "paused: skOpen flat, skCon 3000, requests continue"
ctl -p e2e-cli stop >/dev/null || fail "stop refused"
wait_exit "$PID_e2e_cli" 30 || fail "client exited with an error"
ctl -p e2e-srv stop >/dev/null
wait_exit "$PID_e2e_srv" 15 || fail "server exited with an error"
c=$T/e2e-cli.log s=$T/e2e-srv.log
[ "$(total "$c" skOpen)" = 3000 ] || fail "client opened $(total "$c" skOpen) connections, expected 3000"
[ "$(total "$c" skClose)" = 3000 ] || fail "client closed $(total "$c" skClose) of 3000"
[ "$(total "$s" skClose)" = 3000 ] || fail "server closed $(total "$s" skClose) of 3000"
get=$(total "$c" httpGet)
[ "$get" -ge 15000 ] || fail "only $get requests: keepalive requests are not being sent every second"
[ "$get" = "$(total "$c" http2XX)" ] || fail "httpGet $get != http2XX $(total "$c" http2XX)"
for k in skErr tcpDrop httpErr synRt pushRt; do
	[ "$(total "$c" $k)" = 0 ] || fail "client $k = $(total "$c" $k)"
	[ "$(total "$s" $k)" = 0 ] || fail "server $k = $(total "$s" $k)"
done
pass "held 3000 connections, $get requests"
