#!/usr/bin/env bash
# Latency: our client against an HTTP server that sends its head at once
# and its body 20 ms later (Python, in a namespace, over a tap port): the
# response-time p50 that dperf-ctl reports is at least that delay and
# within 10% of what curl measures against the same server, and the
# connect time and the time to first byte are far below it.
. "$(dirname "$0")/lib.sh"

NS=dperf-e2e-lat
make_ns $NS
cat >"$T/slow.py" <<'PY'
import http.server, time
class H(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # the body must not wait for the ACK of the head
    def do_GET(self):
        body = b"slow\n"
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()  # the head leaves now (wfile is unbuffered)
        time.sleep(0.020)
        self.wfile.write(body)
    def log_message(self, *a):
        pass
http.server.ThreadingHTTPServer(("0.0.0.0", 80), H).serve_forever()
PY
bg ip netns exec $NS /usr/bin/python3 "$T/slow.py"
cat >"$T/client.conf" <<CONF
mode client
cpu 1
duration 7s
cps 50
port net_tap0,iface=dptap2 198.18.0.2 198.18.0.1
client 198.18.0.2 1
server 198.18.0.1 1
listen 80 1
slow_start 0
wait 2
lport_range 10000 60000
CONF
DPERF_ARGS="-o $T/summary.json" start_primary e2e-lat "$T/client.conf" $NS
ip -n $NS addr add 198.18.0.1/24 dev dptap2
ip -n $NS link set dptap2 up
# Responses counted (at least $1), read over dperf-ctl.
recorded() {
	j=$(ctl -p e2e-lat stats --json 2>/dev/null) || return 1
	[ "$(/usr/bin/python3 -c 'import json,sys; print(json.loads(sys.argv[1])["latency_total_us"]["response"]["count"])' "$j")" -ge "$1" ]
}
wait_until 10 recorded 10 || fail "no responses recorded 10 s after the start: $j"
# The independent reference: curl's own time for the same server, from
# inside its namespace (the server's 20 ms plus what Python adds on this
# box, which is 20.5 to 23 ms here depending on the host's load), taken
# while our client loads it: taken during the client's wait, against an
# idle server, it was 2.9 and 3.9 ms below ours in two CI runs.
for _ in $(seq 20); do
	ip netns exec $NS curl -s -o /dev/null -w '%{time_total}\n' http://198.18.0.1/ >>"$T/curl.times" ||
		fail "curl against the slow server failed"
done
ref=$(sort -n "$T/curl.times" | awk '{ t[NR] = $1 * 1e6 } END { print t[int((NR + 1) / 2)] }')
note "curl's median time for the same server: $ref us"
# A one-shot stats gives the last completed second's latency, as the
# primary recorded it (it was zero: the earlier snapshot was faked).
j=$(ctl -p e2e-lat stats --json) || fail "one-shot stats failed: $j"
read -r ip50 in iv <<<"$(/usr/bin/python3 -c '
import json, sys
j = json.loads(sys.argv[1]); l = j["latency_us"]["response"]
print(l["p50"], l["count"], j["interval"])' "$j")"
note "one-shot interval ${iv} s: response p50 ${ip50} us over $in responses"
# Ours is the whole run's, from the summary once the client has ended: no
# tool polls the primary meanwhile. Each dperf-ctl start costs the box
# CPU, Python's 20 ms sleep overshoots under it, and a CI run that polled
# during ours only (not during curl's) had ours at 25.3 ms, curl's 21.9.
wait_exit "$PID_e2e_lat" 30 || fail "client exit status"
read -r p50 n c50 f50 fn <<<"$(/usr/bin/python3 -c '
import json, sys
l = json.load(open(sys.argv[1]))["latency_total_us"]
print(l["response"]["p50"], l["response"]["count"], l["connect"]["p50"], l["first_byte"]["p50"], l["first_byte"]["count"])' "$T/summary.json")"
note "response p50 ${p50} us over $n responses, connect p50 ${c50} us, first byte p50 ${f50} us over $fn"
/usr/bin/python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) < 5000 else 1)" "$c50" || fail "connect p50 $c50 us"
# The head comes at once, the body 20 ms later: the time to first byte
# is that much below the response time (to the last byte), one per response
# (and per response still in flight at the end: none, as the client
# waits for its connections; up to 3 allowed).
# What Python adds (ms on a loaded box) is in both; the 20 ms between its
# head and its body only in the response time.
/usr/bin/python3 -c "import sys; f, p = map(float, sys.argv[1:]); sys.exit(0 if f <= p - 15000 else 1)" "$f50" "$p50" ||
	fail "first byte p50 $f50 us is not 15 ms below the response p50 $p50 us (the head leaves 20 ms before the body)"
[ "$fn" -ge "$n" ] && [ "$fn" -le $((n + 3)) ] || fail "first byte recorded $fn times for $n responses"
[ "$n" -ge 100 ] || fail "only $n responses measured"
# Every response of that second took the server's 20 ms at least (the
# upper side is the whole test's check below: a busy box adds delay).
/usr/bin/python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) >= 18000 else 1)" "$ip50" || fail "one-shot stats: interval response p50 $ip50 us"
[ "$in" -ge 30 ] || fail "one-shot stats: $in responses in the last second at 50 cps"
# Ours against curl's: within 10% (the histogram's own error is 1.6%),
# and never below the server's 20 ms.
/usr/bin/python3 -c "import sys; p, r = map(float, sys.argv[1:]); sys.exit(0 if 20000 <= p and 0.9 * r <= p <= 1.1 * r else 1)" "$p50" "$ref" ||
	fail "response p50 $p50 us is not within 10% of curl's $ref us (nor at least the server's 20 ms)"
grep -q "^latency  connect p50.* | first byte p50 .* | response p50" "$T/e2e-lat.log" || fail "no latency line in the primary's output"
pass "response p50 $p50 us for a 20 ms server (curl: $ref us)"
