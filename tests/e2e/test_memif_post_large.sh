#!/usr/bin/env bash
# POST bodies over several segments (issue #22 item 4): our client sends
# 64 KB POSTs (a body of 44 segments, through the sender of tcp_send.c)
# to our server over memif, keepalive and one connection per request;
# the server answers each once its body is complete: every request is
# answered (httpPost = http2XX on both sides), the server received each
# body once (goodRx) and the client sent it once (goodTx).
. "$(dirname "$0")/lib.sh"

SIZE=64000
run() { # NAME CLIENT_EXTRA
	CPS=1k CLIENT_DURATION=3s SERVER_DURATION=30s CLIENT_EXTRA=$2 \
		SERVER_EXTRA=keepalive memif_pair "$T"
	run_pair e2e-srv e2e-cli "$T/server.conf" "$T/client.conf"
	local c=$T/e2e-cli.log s=$T/e2e-srv.log post ok
	post=$(total "$c" httpPost) ok=$(total "$c" http2XX)
	[ "$post" -gt 500 ] || fail "$1: only $post POSTs"
	[ "$ok" = "$post" ] || fail "$1: httpPost $post, http2XX $ok"
	[ "$(total "$s" httpPost)" = "$post" ] || fail "$1: the server got $(total "$s" httpPost) POSTs, the client sent $post"
	[ "$(total "$s" http2XX)" = "$post" ] || fail "$1: the server answered $(total "$s" http2XX) of $post"
	for k in skErr httpErr; do
		[ "$(total "$c" $k)" = 0 ] && [ "$(total "$s" $k)" = 0 ] || fail "$1: $k $(total "$c" $k)/$(total "$s" $k)"
	done
	[ "$(total "$s" goodRx)" = $((post * SIZE * 8)) ] || fail "$1: server goodRx $(total "$s" goodRx), expected $post bodies of $SIZE bytes"
	[ "$(total "$c" goodTx)" = $((post * SIZE * 8)) ] || fail "$1: client goodTx $(total "$c" goodTx), expected $post requests of $SIZE bytes"
	note "$1: $post POSTs of $SIZE bytes answered, client pktTx $(total "$c" pktTx), pushRt $(total "$c" pushRt)"
}
run keepalive $'http_method POST\npayload_size 64k\nkeepalive 1ms\ncc 2'
run close $'http_method POST\npayload_size 64k'
pass "64 KB POST bodies over several segments, keepalive and closing: every one answered"
