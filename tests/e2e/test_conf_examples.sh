#!/usr/bin/env bash
# The shipped examples do what the README says: each client in conf/
# against its server in conf/, as shipped but for a shorter duration
# (4 s at full rate; 10 s for cc): every request answered; cc-client.conf
# holds its 2000 connections against memif-server.conf.
. "$(dirname "$0")/lib.sh"

# pair SERVER CLIENT: run conf/CLIENT against conf/SERVER; the logs are
# $T/ex-srv.log and $T/ex-cli.log.
pair() {
	sed 's/^duration .*/duration    60s/' "$ROOT/conf/$1" >"$T/srv.conf"
	sed "s/^duration .*/duration    ${CLI_DURATION:-4s}/" "$ROOT/conf/$2" >"$T/cli.conf"
	start_primary ex-srv "$T/srv.conf"
	start_primary ex-cli "$T/cli.conf"
	if [ -n "${DURING:-}" ]; then $DURING; fi
	wait_exit "$PID_ex_cli" 40 || fail "$2 against $1: the client exited with an error"
	ctl -p ex-srv stop >/dev/null
	wait_exit "$PID_ex_srv" 20 || fail "$1: the server exited with an error"
}
# answered SERVER CLIENT REQ RSP: the client's REQ equal its RSP, above 0,
# and the server answered as many; no errors on either side.
answered() {
	local c=$T/ex-cli.log s=$T/ex-srv.log req rsp
	req=$(total "$c" "$3") rsp=$(total "$c" "$4")
	[ "$req" -gt 0 ] || fail "$2: no $3"
	[ "$req" = "$rsp" ] || fail "$2 against $1: $3 $req but $4 $rsp"
	for k in skErr httpErr tcpDrop udpDrop synRt pushRt; do
		[ "$(total "$c" $k)" = 0 ] || fail "$2: client $k $(total "$c" $k)"
		[ "$(total "$s" $k)" = 0 ] || fail "$1: server $k $(total "$s" $k)"
	done
	note "$2 against $1: $req $3, all answered"
}

pair memif-server.conf memif-client.conf
answered memif-server.conf memif-client.conf httpGet http2XX

# cc: reached after the ramp (cps 1k to cc 2k: 2 s, after wait 1) and held.
held=()
sample_cc() {
	wait_until 8 cc_reached || fail "cc-client.conf: skCon ${last_cc:-unknown} at the last look, never 2000"
	for _ in 1 2 3; do held+=("$(stat_of ex-cli skCon)"); done
}
cc_reached() { last_cc=$(stat_of ex-cli skCon) && [ "$last_cc" = 2000 ]; }
CLI_DURATION=10s DURING=sample_cc pair memif-server.conf cc-client.conf
note "cc-client.conf skCon samples: ${held[*]}"
for v in "${held[@]}"; do [ "$v" = 2000 ] || fail "cc-client.conf: skCon $v, expected its cc 2000 held"; done
answered memif-server.conf cc-client.conf httpGet http2XX

pair ipv6-server.conf ipv6-client.conf
answered ipv6-server.conf ipv6-client.conf httpGet http2XX
pair udp-server.conf udp-client.conf
answered udp-server.conf udp-client.conf udpTx udpRx
pass "memif, cc (2000 held), ipv6 and udp example pairs: every request answered"
