#!/usr/bin/env bash
# Answers larger than one segment (issue #22, the server's side as dperf
# 1.9 has it): a server with payload_size 64k sends each answer over 45
# segments, send_window 4 at a time, advanced by the client's ACKs; over
# memif, a client at 2k requests/s (keepalive) and one at 2k connections/s
# (each answer closing its connection) get every answer complete
# (http2XX = httpGet on both sides), with no retransmission, and the
# bytes received are the answers' bytes.
. "$(dirname "$0")/lib.sh"

SIZE=64000
run() { # NAME CLIENT_EXTRA SERVER_EXTRA
	CPS=2k CLIENT_DURATION=3s SERVER_DURATION=30s CLIENT_EXTRA=$2 SERVER_EXTRA=$3 memif_pair "$T"
	run_pair e2e-srv e2e-cli "$T/server.conf" "$T/client.conf"
	local c=$T/e2e-cli.log s=$T/e2e-srv.log get ok
	get=$(total "$c" httpGet) ok=$(total "$c" http2XX)
	[ "$get" -gt 1000 ] || fail "$1: only $get requests"
	[ "$ok" = "$get" ] || fail "$1: httpGet $get, http2XX $ok"
	[ "$(total "$s" http2XX)" = "$ok" ] || fail "$1: server answered $(total "$s" http2XX), client got $ok"
	for k in skErr httpErr synRt pushRt finRt tcpDrop dropTx; do
		[ "$(total "$c" $k)" = 0 ] || fail "$1: client $k $(total "$c" $k)"
		[ "$(total "$s" $k)" = 0 ] || fail "$1: server $k $(total "$s" $k)"
	done
	note "$1: $ok answers of $SIZE bytes, server pktTx $(total "$s" pktTx), client bitsRx $(total "$c" bitsRx)"
	# Each answer is at least SIZE bytes of TCP payload: bitsRx covers them.
	[ "$(total "$c" bitsRx)" -ge $((ok * SIZE * 8)) ] || fail "$1: bitsRx $(total "$c" bitsRx) below $ok answers of $SIZE bytes"
	[ "$(total "$s" pktTx)" -ge $((ok * (SIZE / 1460))) ] || fail "$1: server pktTx $(total "$s" pktTx) below $((SIZE / 1460)) segments per answer"
}
run keepalive $'keepalive 1ms\ncc 2' $'keepalive\npayload_size 64k'
run close "" "payload_size 64k"
pass "64 KB answers over several segments, keepalive and closing: every one complete, no retransmission"
