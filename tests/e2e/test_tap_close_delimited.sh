#!/usr/bin/env bash
# Responses delimited by the server's close (issue 27 item 5): our client
# on a tap port against a Python server in a namespace that answers each
# request "HTTP/1.0 200 OK" with no Content-Length, not chunked, a body of
# random length (1 byte to 200 KB), then closes; every fifth answer is a
# 503 so framed. Every answer is counted by its status when the FIN ends
# it: http2XX equals the 200s the server logged, httpErr its 503s, no
# skErr, and goodRx is 8 x the bytes it wrote, exactly. Before, each was
# httpErr and skErr, and our client reset the connection.
. "$(dirname "$0")/lib.sh"

NS=dperf-e2e-tapcd
make_ns $NS
# The server binds 198.18.0.1 before our primary's tap device carries it.
ip netns exec $NS sysctl -qw net.ipv4.ip_nonlocal_bind=1
cat >"$T/server.py" <<'PY'
import os, random, socketserver, sys, threading
LOG = sys.argv[1]
lock = threading.Lock()
n = [0]
class H(socketserver.BaseRequestHandler):
    def handle(self):
        s = self.request
        got = b""
        while b"\r\n\r\n" not in got:
            b = s.recv(4096)
            if not b:
                return
            got += b
        with lock:
            n[0] += 1
            k = n[0]
        status = b"503 Service Unavailable" if k % 5 == 0 else b"200 OK"
        body = os.urandom(random.randint(1, 200000))
        rsp = b"HTTP/1.0 " + status + b"\r\nServer: close-delimited\r\n\r\n" + body
        s.sendall(rsp)
        with lock:
            with open(LOG, "a") as f:
                f.write("%s %d\n" % (status.split()[0].decode(), len(rsp)))
class S(socketserver.ThreadingTCPServer):
    allow_reuse_address = True
    daemon_threads = True
S(("198.18.0.1", 80), H).serve_forever()
PY
: >"$T/written.log"
bg ip netns exec $NS /usr/bin/python3 "$T/server.py" "$T/written.log"
SRV=$LAST_PID
listening() { kill -0 "$SRV" && ip netns exec $NS ss -ltnH "sport = :80" | grep -q LISTEN; }
wait_until 10 listening || fail "the Python server did not start"
cat >"$T/client.conf" <<CONF
mode client
cpu 1
duration 3s
cps 50
$(tap_client_lines dptapcd)
CONF
start_primary e2e-tapcd "$T/client.conf" $NS
ip -n $NS addr add 198.18.0.1/24 dev dptapcd
ip -n $NS link set dptapcd up
wait_exit "$PID_e2e_tapcd" 30 || fail "client exit status"
c=$T/e2e-tapcd.log
log=$T/written.log
ok=$(total "$c" http2XX) err=$(total "$c" httpErr)
logged() { [ "$(wc -l <"$log")" -ge "$1" ]; }
wait_until 5 logged $((ok + err)) || true
kill -TERM "$SRV"
n200=$(awk '$1 == 200' "$log" | wc -l) n503=$(awk '$1 == 503' "$log" | wc -l)
bytes=$(awk '{ s += $2 } END { print s + 0 }' "$log")
good=$(total "$c" goodRx)
note "httpGet $(total "$c" httpGet) http2XX $ok httpErr $err skErr $(total "$c" skErr) rstTx $(total "$c" rstTx); the server wrote $n200 200s and $n503 503s, $bytes bytes; goodRx $good bits"
[ "$n200" -ge 50 ] || fail "only $n200 answers of 200 in 3 s"
[ "$ok" = "$n200" ] || fail "http2XX $ok != the server's 200s $n200"
[ "$err" = "$n503" ] || fail "httpErr $err != the server's 503s $n503"
[ "$good" = $((bytes * 8)) ] || fail "goodRx $good bits != 8 x the $bytes bytes the server wrote"
for k in skErr rstTx badRx; do [ "$(total "$c" $k)" = 0 ] || fail "$k = $(total "$c" $k)"; done
pass "$ok close-delimited 200s in http2XX, $err 503s in httpErr, goodRx = 8 x the $bytes bytes written"
