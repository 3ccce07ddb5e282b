#!/usr/bin/env bash
# POST bodies over many segments to the kernel's TCP (issue #22): our
# client on a tap port sends payload_file (100000 random bytes, 69
# segments) as the body of every POST to a Python HTTP server in a
# namespace, which hashes each body it reads. Every body the server got
# has the file's sha256; the server's count of bodies equals our
# httpPost and http2XX; nothing is an error on either side.
. "$(dirname "$0")/lib.sh"

NS=dperf-e2e-tappost
make_ns $NS
ip netns exec $NS sysctl -qw net.ipv4.ip_nonlocal_bind=1
head -c 100000 /dev/urandom >"$T/body.bin"
want=$(sha256sum <"$T/body.bin" | cut -d' ' -f1)
cat >"$T/server.py" <<'PY'
import hashlib, http.server, sys
log = open(sys.argv[1], "a", buffering=1)
class H(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def do_POST(self):
        n = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(n)
        log.write("%d %s\n" % (len(body), hashlib.sha256(body).hexdigest()))
        self.send_response(200)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"ok")
    def log_message(self, *a):
        pass
http.server.ThreadingHTTPServer(("198.18.0.1", 80), H).serve_forever()
PY
: >"$T/bodies.log"
bg ip netns exec $NS /usr/bin/python3 "$T/server.py" "$T/bodies.log"
SRV=$LAST_PID
listening() { kill -0 "$SRV" && ip netns exec $NS ss -ltnH "sport = :80" | grep -q LISTEN; }
wait_until 10 listening || fail "the Python server did not start"
cat >"$T/client.conf" <<CONF
mode client
cpu 1
duration 2s
cps 20
http_method POST
payload_file $T/body.bin
$(tap_client_lines dptappo)
CONF
start_primary e2e-tappost "$T/client.conf" $NS
ip -n $NS addr add 198.18.0.1/24 dev dptappo
ip -n $NS link set dptappo up
wait_exit "$PID_e2e_tappost" 30 || fail "client exit status"
c=$T/e2e-tappost.log
post=$(total "$c" httpPost) ok=$(total "$c" http2XX)
logged() { [ "$(wc -l <"$T/bodies.log")" -ge "$1" ]; }
wait_until 5 logged "$ok" || true
kill -TERM "$SRV"
got=$(wc -l <"$T/bodies.log")
good=$(awk -v w="$want" '$1 == 100000 && $2 == w' "$T/bodies.log" | wc -l)
note "httpPost $post http2XX $ok; the server read $got bodies, $good with the file's sha256; pushRt $(total "$c" pushRt)"
[ "$post" -ge 20 ] || fail "only $post POSTs in 2 s at 20/s"
[ "$got" = "$good" ] || fail "$((got - good)) of $got bodies differ from the file: $(awk -v w="$want" '$2 != w' "$T/bodies.log" | head -2)"
[ "$got" = "$post" ] && [ "$ok" = "$post" ] || fail "httpPost $post, http2XX $ok, bodies read by the server $got: not equal"
for k in skErr httpErr badRx; do [ "$(total "$c" $k)" = 0 ] || fail "$k = $(total "$c" $k)"; done
pass "$post POSTs of a 100000-byte file over 69 segments each, every body the file's exact bytes at the kernel's end"
