#!/usr/bin/env bash
# The shipped examples do what the README says: each client in conf/
# against its server in conf/, as shipped but for a shorter duration
# (1 s at full rate, enough for "every request answered"; 10 s for cc):
# every request answered; cc-client.conf
# holds its 2000 connections against memif-server.conf. memif-client.conf
# and cc-client.conf run one after the other against one memif-server.conf
# (a server left up for a second client).
. "$(dirname "$0")/lib.sh"

# serve SERVER: start conf/SERVER as ex-srv (log $T/ex-srv.log);
# unserve: stop it, which must exit 0.
serve() {
	SERVER=$1
	sed 's/^duration .*/duration    60s/' "$ROOT/conf/$1" >"$T/srv.conf"
	start_primary ex-srv "$T/srv.conf"
}
unserve() {
	ctl -p ex-srv stop >/dev/null
	wait_exit "$PID_ex_srv" 20 || fail "$SERVER: the server exited with an error"
}
# client NAME CLIENT: run conf/CLIENT as NAME (log $T/NAME.log) to its end
# against the server up; the server has closed its connections after it.
client() {
	local pid=PID_${1//-/_}
	sed "s/^duration .*/duration    ${CLI_DURATION:-1s}/" "$ROOT/conf/$2" >"$T/$1.conf"
	start_primary "$1" "$T/$1.conf"
	wait_exit "${!pid}" 40 || fail "$2 against $SERVER: the client exited with an error"
	srv_idle() { [ "$(stat_of ex-srv skCon)" = 0 ]; }
	wait_until 5 srv_idle || fail "$SERVER still holds $(stat_of ex-srv skCon) connections 5 s after $2 ended"
}
# pair SERVER CLIENT: run conf/CLIENT against conf/SERVER; the logs are
# $T/ex-srv.log and $T/ex-cli.log.
pair() { serve "$1"; client ex-cli "$2"; unserve; }
# answered SERVER CLIENT REQ RSP [NAME]: the client's (log $T/NAME.log,
# default ex-cli) REQ equal its RSP, above 0; no errors on either side
# (the server's log: once it stopped).
answered() {
	local c=$T/${5:-ex-cli}.log s=$T/ex-srv.log req rsp
	req=$(total "$c" "$3") rsp=$(total "$c" "$4")
	[ "$req" -gt 0 ] || fail "$2: no $3"
	[ "$req" = "$rsp" ] || fail "$2 against $1: $3 $req but $4 $rsp"
	for k in skErr httpErr tcpDrop udpDrop synRt pushRt; do
		[ "$(total "$c" $k)" = 0 ] || fail "$2: client $k $(total "$c" $k)"
		[ "$(total "$s" $k)" = 0 ] || fail "$1: server $k $(total "$s" $k)"
	done
	note "$2 against $1: $req $3, all answered"
}

serve memif-server.conf
client ex-cli memif-client.conf

# cc: reached after the ramp (cps 1k to cc 2k: 2 s, no wait) and held
# in every second after that until the stop. Read from the client's own
# per-second lines rather than asked over dperf-ctl: a secondary's attach
# takes long enough on a loaded box that sampled looks raced the client's end.
CLI_DURATION=10s client ex-cc cc-client.conf
unserve
read -r first held bad < <(awk '
	/^seconds/ { for (i = 1; i < NF; i++) { if ($i == "seconds") t = $(i+1); if ($i == "state") st = $(i+1); if ($i == "skCon") c = $(i+1) }
		if (st == "stopping") next
		if (c == 2000 && first == "") first = t
		if (first != "") { if (c == 2000) n++; else if (bad == "") bad = t ":" c } }
	END { print (first == "" ? "never" : first), n + 0, (bad == "" ? "none" : bad) }' "$T/ex-cc.log")
note "cc-client.conf: skCon 2000 from second $first, held $held s, first lapse: $bad"
[ "$first" != never ] && [ "$first" -le 5 ] || fail "cc-client.conf: skCon reached 2000 at second $first, expected by second 5"
[ "$bad" = none ] || fail "cc-client.conf: skCon fell from 2000 (second:skCon $bad)"
[ "$held" -ge 6 ] || fail "cc-client.conf: skCon 2000 held only $held s"
answered memif-server.conf memif-client.conf httpGet http2XX
answered memif-server.conf cc-client.conf httpGet http2XX ex-cc

pair ipv6-server.conf ipv6-client.conf
answered ipv6-server.conf ipv6-client.conf httpGet http2XX
pair udp-server.conf udp-client.conf
answered udp-server.conf udp-client.conf udpTx udpRx
pass "memif, cc (2000 held), ipv6 and udp example pairs: every request answered"
