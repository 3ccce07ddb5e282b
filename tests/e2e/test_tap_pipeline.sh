#!/usr/bin/env bash
# Pipelined requests behind answers over many segments (issue 27 item 4):
# our server (payload_size 1m: 1,000,000 bytes, 685 segments an answer) on a tap port, a
# Python client in a namespace. Two GETs in one write get both answers,
# one after the other, byte for byte; then a GET, part of its answer, two
# GETs more while it is on its way: three answers, byte for byte, on the
# same connection. Before, the second request was counted in httpGet and
# never answered: the client waited forever.
. "$(dirname "$0")/lib.sh"

NS=dperf-e2e-tappl
make_ns $NS
cat >"$T/server.conf" <<CONF
mode server
cpu 0
duration 120s
$(tap_server_lines dptappl)
keepalive
payload_size 1m
CONF
start_primary e2e-tappl "$T/server.conf" $NS
ip -n $NS addr add 198.18.0.2/24 dev dptappl
ip -n $NS link set dptappl up
st() { jget "$(ctl -p e2e-tappl stats --json)" "$1"; }

cat >"$T/pipe.py" <<'PY'
import hashlib, socket, sys, time
SIZE = 1000000  # payload_size 1m
GET = b"GET / HTTP/1.1\r\nHost: x\r\n\r\n"
# Our answer (http.h): an 85-byte head padded with 'a', the body all 'a'.
head = b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\nConnection: keep-alive\r\n" % (SIZE - 85)
head += b"X-Pad: " + b"a" * (85 - len(head) - 11) + b"\r\n\r\n"
want = head + b"a" * (SIZE - 85)
assert len(want) == SIZE

def read_n(s, n, got):
    deadline = time.time() + 20
    while len(got) < n:
        try:
            b = s.recv(1 << 20) if time.time() < deadline else None
        except socket.timeout:
            b = None
        if b is None:
            sys.exit("no answer: %d of %d bytes" % (len(got), n))
        if not b:
            sys.exit("closed by the server after %d of %d bytes" % (len(got), n))
        got += b
    return got

def still_open(s):
    s.settimeout(0.3)
    try:
        return s.recv(1) != b""  # nothing more may come
    except socket.timeout:
        return True

s = socket.create_connection(("198.18.0.1", 80), timeout=5)
s.sendall(GET + GET)  # two requests in one write
got = read_n(s, 2 * SIZE, bytearray())
assert bytes(got) == want * 2, "two answers differ from ours"
print("two GETs in one write: %d bytes, sha256 %s (expected %s)" % (
    len(got), hashlib.sha256(got).hexdigest()[:16], hashlib.sha256(want * 2).hexdigest()[:16]))
s.settimeout(5)
s.sendall(GET)
got = read_n(s, 100000, bytearray())
s.sendall(GET + GET)  # while the first answer is on its way
got = read_n(s, 3 * SIZE, got)
assert bytes(got) == want * 3, "three answers differ from ours"
assert still_open(s), "the server closed or sent more"
print("GET, then two GETs mid-answer: %d bytes, byte-exact, connection open" % len(got))
PY
g0=$(st httpGet) ok0=$(st http2XX)
ip netns exec $NS timeout 60 /usr/bin/python3 "$T/pipe.py" >"$T/pipe.log" 2>&1 || fail "python client: $(tail -3 "$T/pipe.log")"
while read -r line; do note "$line"; done <"$T/pipe.log"
answered() { [ "$(st http2XX)" -ge "$1" ]; }
wait_until 5 answered $((ok0 + 5)) || true
note "httpGet +$(( $(st httpGet) - g0 )) http2XX +$(( $(st http2XX) - ok0 )) pipeFull $(st pipeFull) pushRt $(st pushRt)"
[ "$(st httpGet)" = $((g0 + 5)) ] && [ "$(st http2XX)" = $((ok0 + 5)) ] ||
	fail "httpGet +$(( $(st httpGet) - g0 )) http2XX +$(( $(st http2XX) - ok0 )), expected +5 +5"
for k in pipeFull httpErr skErr badRx; do [ "$(st $k)" = 0 ] || fail "$k = $(st $k)"; done
ctl -p e2e-tappl stop >/dev/null
wait_exit "$PID_e2e_tappl" 20 || fail "server exit status"
pass "pipelined GETs of 1 MB answers: 2 in one write and 2 mid-answer, each answered byte for byte"
