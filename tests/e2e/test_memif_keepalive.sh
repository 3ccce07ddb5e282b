#!/usr/bin/env bash
# Keepalive throughput: 1400-byte responses back to back on 100
# connections; every request answered with the exact dperf size.
. "$(dirname "$0")/lib.sh"

CPS=1k CLIENT_DURATION=5s CLIENT_EXTRA="cc 100
keepalive_request_interval 1us
payload_size 1400" SERVER_EXTRA="keepalive
payload_size 1400" memif_pair "$T"
run_pair e2e-srv e2e-cli "$T/server.conf" "$T/client.conf"
c=$T/e2e-cli.log s=$T/e2e-srv.log
get=$(total "$c" httpGet) ok=$(total "$c" http2XX) bits=$(total "$c" bitsRx)
note "requests $get, answered $ok, client bitsRx $bits"
[ "$get" -ge 20000 ] || fail "only $get keepalive requests in 4 s"
[ "$get" = "$ok" ] || fail "httpGet $get != http2XX $ok"
[ "$(total "$s" http2XX)" = "$ok" ] || fail "server sent $(total "$s" http2XX) responses, client counted $ok"
# Each response is one 1400-byte payload in one frame of 1454 bytes.
[ "$bits" -ge $((ok * 1454 * 8)) ] || fail "bitsRx $bits below $ok responses of 1454-byte frames"
for k in skErr tcpDrop httpErr synRt pushRt badRx; do
	[ "$(total "$c" $k)" = 0 ] || fail "client $k = $(total "$c" $k)"
done
pass "$ok responses of 1400 bytes"
