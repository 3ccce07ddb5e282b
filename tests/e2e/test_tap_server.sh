#!/usr/bin/env bash
# Our server on a tap port inside a namespace, against the kernel's own
# tools: ping (ARP + ICMP counted), curl (exact size), ab and wrk (zero
# failures, http2XX equal to what they completed), and no retransmission
# on either side (the kernel's TcpRetransSegs, our *Rt counters): our
# delayed ACKs never make the kernel resend.
. "$(dirname "$0")/lib.sh"
for tool in curl ab wrk ping; do command -v $tool >/dev/null || fail "$tool is not installed (scripts/install-deps.sh)"; done

NS=dperf-e2e-tap
make_ns $NS
cat >"$T/server.conf" <<CONF
mode server
cpu 0
duration 120s
port net_tap0,iface=dptap0 198.18.0.1 198.18.0.2
client 198.18.0.2 1
server 198.18.0.1 1
listen 80 1
keepalive
payload_size 200
CONF
start_primary e2e-tap "$T/server.conf" $NS
ip -n $NS addr add 198.18.0.2/24 dev dptap0
ip -n $NS link set dptap0 up
in_ns() { ip netns exec $NS "$@"; }
# snap: one stats --json into S (each dperf-ctl attaches: a while on a
# loaded box); sv KEY: a field of it; st KEY: a fresh one's.
snap() { S=$(ctl -p e2e-tap stats --json); }
sv() { jget "$S" "$1"; }
st() { snap; sv "$1"; }

in_ns ping -c 3 -i 0.2 -W 2 198.18.0.1 >"$T/ping.log" || fail "ping: $(tail -2 "$T/ping.log")"
snap
[ "$(sv icmpRx)" -ge 3 ] && [ "$(sv icmpTx)" -ge 3 ] || fail "icmpRx $(sv icmpRx) icmpTx $(sv icmpTx) after 3 pings"
[ "$(sv arpRx)" -ge 1 ] || fail "arpRx $(sv arpRx): the kernel's ARP request was not counted"
note "ping ok: arpRx $(sv arpRx) icmpRx $(sv icmpRx)"

retrans0=$(ns_retrans $NS)
base=$(st http2XX)
in_ns curl -s -D "$T/hdr" -o "$T/body" http://198.18.0.1/ || fail "curl failed"
grep -qi '^HTTP/1.1 200' "$T/hdr" || fail "curl status: $(head -1 "$T/hdr")"
len=$(awk -F': ' 'tolower($1)=="content-length"{print $2+0}' "$T/hdr")
[ "$len" = 115 ] || fail "Content-Length $len, expected 200 - 85 = 115"
[ "$(stat -c %s "$T/body")" = 115 ] || fail "body of $(stat -c %s "$T/body") bytes"
hl=$(wc -c <"$T/hdr")
[ "$hl" = 85 ] || fail "response head is $hl bytes, dperf's is 85"
[ "$(st http2XX)" = $((base + 1)) ] || fail "http2XX did not count curl's request"
note "curl ok: 85-byte head, 115-byte body"

# Methods, on one keep-alive connection each: HEAD gets the head alone (a
# body would be read as the next answer), POST's body is skipped by its
# Content-Length, anything else is answered 400 and closed, and each is
# counted as dperf counts it (httpGet, httpPost, httpErr).
snap
g0=$(sv httpGet) p0=$(sv httpPost) e0=$(sv httpErr) ok0=$(sv http2XX)
cat >"$T/methods.py" <<'PY'
import socket
def talk(data, want):
    """Send data on a new connection; read until want bytes arrived, then
    0.3 s more (nothing else may come). Returns (bytes, closed by peer)."""
    s = socket.create_connection(("198.18.0.1", 80), timeout=3)
    s.sendall(data)
    got = b""
    while True:
        if len(got) >= want:
            s.settimeout(0.3)
        try:
            b = s.recv(65536)
        except socket.timeout:
            return got, False
        if not b:
            return got, True
        got += b
GET = b"GET / HTTP/1.1\r\nHost: x\r\n\r\n"
# HEAD then GET: the 85-byte head alone, then the GET's head and body.
got, closed = talk(b"HEAD / HTTP/1.1\r\nHost: x\r\n\r\n" + GET, 85 + 200)
assert len(got) == 85 + 200 and got[85:].startswith(b"HTTP/1.1 200 OK") and not closed, (len(got), got[:120])
# POST with a body (Content-Length in another case), then GET: two answers.
got, closed = talk(b"POST / HTTP/1.1\r\nHost: x\r\nContent-length:  5\r\n\r\nGET /" + GET, 400)
assert len(got) == 400 and got[200:].startswith(b"HTTP/1.1 200 OK") and not closed, (len(got), got[:120])
got, closed = talk(b"BREW / HTCPCP/1.0\r\n\r\n", 1)
assert got.startswith(b"HTTP/1.1 400 Bad Request\r\n") and closed, (got, closed)
print("ok")
PY
in_ns /usr/bin/python3 "$T/methods.py" >"$T/methods.log" 2>&1 || fail "methods: $(tail -3 "$T/methods.log")"
snap
[ "$(sv httpGet)" = $((g0 + 3)) ] && [ "$(sv httpPost)" = $((p0 + 1)) ] && [ "$(sv httpErr)" = $((e0 + 1)) ] &&
	[ "$(sv http2XX)" = $((ok0 + 4)) ] ||
	fail "methods counted httpGet +$(( $(sv httpGet) - g0 )) httpPost +$(( $(sv httpPost) - p0 )) httpErr +$(( $(sv httpErr) - e0 )) http2XX +$(( $(sv http2XX) - ok0 )), expected +3 +1 +1 +4"
note "methods ok: HEAD without body, POST body skipped, BREW answered 400 and closed"

base=$(st http2XX)
in_ns ab -q -n 20000 -c 50 http://198.18.0.1/ >"$T/ab.log" 2>&1 || fail "ab: $(tail -3 "$T/ab.log")"
done_n=$(awk '/^Complete requests:/{print $3}' "$T/ab.log")
failed=$(awk '/^Failed requests:/{print $3}' "$T/ab.log")
[ "$done_n" = 20000 ] && [ "$failed" = 0 ] || fail "ab: complete $done_n failed $failed"
grown_to() { [ "$(st http2XX)" -ge "$1" ]; }
wait_until 5 grown_to $((base + 20000)) || true # (then exactly, below)
snap
[ "$(sv http2XX)" = $((base + 20000)) ] || fail "http2XX grew by $(( $(sv http2XX) - base )), ab completed 20000"
note "ab ok: 20000 requests, 0 failed"

base=$(sv http2XX)
in_ns wrk -t 1 -c 100 -d 5s http://198.18.0.1/ >"$T/wrk.log" 2>&1 || fail "wrk: $(tail -3 "$T/wrk.log")"
reqs=$(awk '/requests in/{print $1}' "$T/wrk.log")
grep -q "Socket errors" "$T/wrk.log" && fail "wrk: $(grep 'Socket errors' "$T/wrk.log")"
grep -q "Non-2xx" "$T/wrk.log" && fail "wrk: $(grep 'Non-2xx' "$T/wrk.log")"
wait_until 5 grown_to $((base + reqs)) || true # (then within bounds, below)
got=$(( $(st http2XX) - base ))
# wrk stops counting at 5 s: up to one answer per connection may be in flight then.
[ "$got" -ge "$reqs" ] && [ "$got" -le $((reqs + 100)) ] || fail "http2XX grew by $got, wrk completed $reqs"
note "wrk ok: $reqs requests, http2XX +$got"
snap
for k in badRx skErr synRt pushRt finRt ackRt; do [ "$(sv $k)" = 0 ] || fail "$k = $(sv $k)"; done
[ "$(sv httpErr)" = 1 ] || fail "httpErr = $(sv httpErr), expected 1 (the BREW)"
retrans=$(( $(ns_retrans $NS) - retrans0 ))
[ "$retrans" = 0 ] || fail "the kernel retransmitted $retrans segments to us (TcpRetransSegs)"
note "no retransmission: kernel TcpRetransSegs +0, our synRt pushRt finRt ackRt 0"
ctl -p e2e-tap stop >/dev/null
wait_exit "$PID_e2e_tap" 20 || fail "server exit status"
pass "ping, curl, ab ($done_n), wrk ($reqs)"
