#!/usr/bin/env bash
# A keepalive server whose client vanishes (issue 18, item 8): the client
# is killed with SIGKILL holding 2000 connections; the server closes each
# idle one after its idle timeout (counted in idleClose; a response the
# client had not acknowledged yet times out by retransmission instead),
# the FINs go unanswered into the dead link, every connection ends in
# skErr, and every connection is freed (it used to keep them all forever: the dead memif
# link held the timers back as "congestion").
. "$(dirname "$0")/lib.sh"

SERVER_DURATION=120s CPS=2k CLIENT_DURATION=60s CLIENT_EXTRA="cc 2000
keepalive_request_interval 1s" SERVER_EXTRA="keepalive" memif_pair "$T"
start_primary e2e-srv "$T/server.conf"
start_primary e2e-cli "$T/client.conf"
st() { local j; j=$(ctl -p e2e-srv stats --json) || fail "the server is gone: $(tail -2 "$T/e2e-srv.log")"; jget "$j" "$1"; }
for _ in $(seq 100); do [ "$(st skCon 2>/dev/null || echo 0)" -ge 2000 ] && break; sleep 0.1; done
[ "$(st skCon)" -ge 2000 ] || fail "the server holds only $(st skCon) connections"
kill -KILL "$PID_e2e_cli"
t0=$(date +%s)
# Idle timeout 2 x retransmit + interval + 1 s = 6 s, then 5 FIN
# retransmits 2 s apart: about 20 s.
while [ $(( $(date +%s) - t0 )) -lt 40 ] && [ "$(st skCon)" != 0 ]; do sleep 0.5; done
secs=$(( $(date +%s) - t0 ))
con=$(st skCon) idle=$(st idleClose) err=$(st skErr)
note "after ${secs}s: skCon $con, idleClose $idle, skErr $err"
[ "$con" = 0 ] || fail "the server still holds $con connections ${secs}s after its client died"
[ "$idle" -ge 1000 ] || fail "idleClose $idle, expected most of the 2000 idle connections"
[ "$err" = 2000 ] || fail "skErr $err: expected each of the 2000 lost connections once"
# The killed client's files (the next primary would reclaim them).
forget_killed
ctl -p e2e-srv stop >/dev/null
wait_exit "$PID_e2e_srv" 15 || fail "server exit status $?"
pass "2000 connections of a dead client freed in ${secs}s"
