#!/usr/bin/env bash
# Our client loading nginx inside a namespace over a tap port, first a
# connection per request, then 20 keepalive connections with a request
# every 10 ms (each request carries the ACK of the response before it):
# nginx's access log has exactly as many lines as our http2XX, and
# neither side retransmitted (the kernel's TcpRetransSegs, our *Rt).
. "$(dirname "$0")/lib.sh"
command -v nginx >/dev/null || fail "nginx is not installed (scripts/install-deps.sh)"

NS=dperf-e2e-nginx
make_ns $NS
mkdir -p "$T/www"
head -c 20000 /dev/urandom >"$T/www/big"
nginx_start $NS 80 <<CONF
    access_log $T/nginx/access.log;
    server {
        listen 80 reuseport backlog=4096;
        location / { return 200 "hello from nginx\n"; }
        location = /big { root $T/www; }
    }
CONF
cat >"$T/client.conf" <<CONF
mode client
cpu 1
duration 3s
cps 500
port net_tap0,iface=dptap1 198.18.0.2 198.18.0.1
client 198.18.0.2 1
server 198.18.0.1 1
listen 80 1
slow_start 0
wait 1
lport_range 10000 60000
CONF
retrans0=$(ns_retrans $NS)
# run_client NAME CONF: run our client in the namespace to its end. Each
# primary makes the tap device anew, so its address goes on each time.
run_client() {
	local pid
	start_primary "$1" "$2" $NS
	ip -n $NS addr add 198.18.0.1/24 dev dptap1
	ip -n $NS link set dptap1 up
	pid=PID_${1//-/_}
	wait_exit "${!pid}" 30 || fail "$1: exit status"
}
run_client e2e-ngx "$T/client.conf"
c=$T/e2e-ngx.log
# nginx writes its log line after the response: wait until it has as
# many as N (compared exactly below).
logged() { [ "$(wc -l <"$T/nginx/access.log")" -ge "$1" ]; }
wait_until 5 logged "$(total "$c" http2XX)" || true
ok=$(total "$c" http2XX) get=$(total "$c" httpGet) lines=$(wc -l <"$T/nginx/access.log")
note "httpGet $get http2XX $ok nginx access log $lines lines"
[ "$ok" -ge 1000 ] || fail "only $ok answers from nginx"
[ "$ok" = "$lines" ] || fail "http2XX $ok != nginx access log lines $lines"
[ "$get" = "$ok" ] || fail "httpGet $get != http2XX $ok"
for k in skErr httpErr badRx synRt pushRt finRt ackRt; do [ "$(total "$c" $k)" = 0 ] || fail "$k = $(total "$c" $k)"; done

# Keepalive.
sed -e 's/^cps 500$/cps 1k/' "$T/client.conf" >"$T/ka.conf"
printf 'cc 20\nkeepalive_request_interval 10ms\n%s\n' "${NGX_KA_EXTRA:-}" >>"$T/ka.conf"
run_client e2e-ngx-ka "$T/ka.conf"
k=$T/e2e-ngx-ka.log
wait_until 5 logged $((lines + $(total "$k" http2XX))) || true
kok=$(total "$k" http2XX) kget=$(total "$k" httpGet) klines=$(( $(wc -l <"$T/nginx/access.log") - lines ))
ktx=$(total "$k" pktTx)
note "keepalive: httpGet $kget http2XX $kok nginx logged $klines, client pktTx $ktx"
[ "$kok" -ge 3000 ] || fail "only $kok keepalive answers from nginx (20 connections, one every 10 ms, 3 s)"
[ "$kok" = "$klines" ] || fail "keepalive: http2XX $kok != nginx access log lines $klines"
[ "$kget" = "$kok" ] || fail "keepalive: httpGet $kget != http2XX $kok"
# One packet per request, plus each connection's SYN, FIN and last ACK.
[ "$ktx" -le $((kget * 102 / 100 + 60)) ] || fail "keepalive: client sent $ktx packets for $kget requests (expected about one per request)"
for x in skErr httpErr badRx synRt pushRt finRt ackRt; do [ "$(total "$k" $x)" = 0 ] || fail "keepalive: $x = $(total "$k" $x)"; done

# Responses of 20,000 bytes (14 segments) on 10 keepalive connections,
# a request every 100 ms: every second full-sized segment is ACKed, the
# rest wait for the delay or the next segment; the kernel must never
# need to retransmit.
lines2=$(wc -l <"$T/nginx/access.log")
sed -e 's/^cps 500$/cps 1k/' "$T/client.conf" >"$T/big.conf"
printf 'cc 10\nkeepalive_request_interval 100ms\nhttp_path /big\n' >>"$T/big.conf"
run_client e2e-ngx-big "$T/big.conf"
b=$T/e2e-ngx-big.log
wait_until 5 logged $((lines2 + $(total "$b" http2XX))) || true
bok=$(total "$b" http2XX) bget=$(total "$b" httpGet) blines=$(( $(wc -l <"$T/nginx/access.log") - lines2 ))
bbytes=$(awk -v n="$lines2" 'NR > n && $9 == 200 { s += $10 } END { print s + 0 }' "$T/nginx/access.log")
note "20 KB responses: httpGet $bget http2XX $bok nginx logged $blines ($bbytes body bytes), client pktTx $(total "$b" pktTx) pktRx $(total "$b" pktRx)"
[ "$bok" -ge 200 ] || fail "only $bok 20 KB responses (10 connections, one every 100 ms, 3 s)"
[ "$bok" = "$blines" ] || fail "20 KB: http2XX $bok != nginx access log lines $blines"
[ "$bbytes" = $((bok * 20000)) ] || fail "nginx sent $bbytes body bytes for $bok responses of 20000"
for x in skErr httpErr badRx synRt pushRt finRt ackRt; do [ "$(total "$b" $x)" = 0 ] || fail "20 KB: $x = $(total "$b" $x)"; done
retrans=$(( $(ns_retrans $NS) - retrans0 ))
[ "$retrans" = 0 ] || fail "nginx's kernel retransmitted $retrans segments (TcpRetransSegs)"
pass "$ok requests, then $kok on 20 keepalive connections, then $bok responses of 20 KB; nginx logged each; no retransmission"
