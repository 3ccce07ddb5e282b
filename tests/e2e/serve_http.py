#!/usr/bin/python3
"""What test_serve checks of dperf-ctl serve's API, over raw sockets:
each check prints one line; the script exits 1 at the first that fails.

usage: serve_http.py PORT TOKEN
The instance on PORT is a client running at a cps target, without cc.
"""
import json
import socket
import sys
import threading
import time

PORT = int(sys.argv[1])
TOKEN = sys.argv[2]
ADDR = ("127.0.0.1", PORT)


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


HEADS = {}  # (method, path) -> the last answer's head, lower case


def request(method, path, body=None, token=TOKEN, extra=b"", timeout=5.0):
    """One request on its own connection: (status code, body bytes)."""
    head = "%s %s HTTP/1.1\r\nHost: x\r\nConnection: close\r\n" % (method, path)
    if token is not None:
        head += "Authorization: Bearer %s\r\n" % token
    data = body.encode() if body is not None else b""
    if body is not None:
        head += "Content-Type: application/json\r\nContent-Length: %d\r\n" % len(data)
    s = socket.create_connection(ADDR, timeout=timeout)
    s.sendall(head.encode() + extra + b"\r\n" + data)
    out = b""
    t0 = time.time()
    while True:
        try:
            b = s.recv(65536)
        except socket.timeout:
            fail("%s %s: no complete answer within %.1f s (%d bytes)" % (method, path, timeout, len(out)))
        except ConnectionResetError:
            break
        if not b:
            break
        out += b
    s.close()
    if not out:
        return 0, b"", time.time() - t0
    status = int(out.split(b" ", 2)[1])
    head, _, body = out.partition(b"\r\n\r\n")
    HEADS[(method, path)] = head.decode("latin-1").lower()
    return status, body, time.time() - t0


def expect(code, method, path, body=None, **kw):
    st, b, took = request(method, path, body, **kw)
    if st != code:
        fail("%s %s %s: %d %r (%d expected)" % (method, path, body or "", st, b[:200], code))
    return b


def status():
    return json.loads(expect(200, "GET", "/v1/status"))


expect(401, "GET", "/v1/status", token=None)
expect(401, "GET", "/v1/status", token=TOKEN[:-1] + ("x" if TOKEN[-1] != "x" else "y"))
expect(401, "PUT", "/v1/target", '{"cps": 10}', token="")
st = status()
print("GET /v1/status: 401 without the token or with a wrong one, 200 with it (%s, target_cps %d)"
      % (st["name"], st["target_cps"]))

r = json.loads(expect(200, "PUT", "/v1/target", '{"cps": "3k"}'))
st = status()
if st["target_cps"] != 3000 or st["generation"] != r["generation"]:
    fail("after PUT cps 3k (generation %d): status target_cps %d generation %d"
         % (r["generation"], st["target_cps"], st["generation"]))
r = json.loads(expect(200, "PUT", "/v1/target", ' { "cps" : 2500 } '))
if status()["target_cps"] != 2500:
    fail("PUT {\"cps\": 2500}: not in /v1/status")
print("PUT /v1/target {\"cps\": \"3k\"}, then 2500: 200, generation %d, both seen in /v1/status" % r["generation"])

for bad in ('{"cps": ', 'cps=5', '{"cps": "x"}', '{"cps": 1, "cc": 2}', '{"rate": 5}', '{"cps": 5}}', ''):
    b = json.loads(expect(400, "PUT", "/v1/target", bad))
    if "error" not in b:
        fail("400 without an error message for %r" % bad)
if status()["target_cps"] != 2500:
    fail("a refused body changed the target")
print("PUT of 7 broken bodies: 400 with the reason (e.g. %r), target unchanged" % b["error"])

b = json.loads(expect(409, "PUT", "/v1/target", '{"cc": 10}'))
print("PUT {\"cc\": 10} on a client without cc: 409 %r" % b["error"])
expect(409, "POST", "/v1/resume")
expect(200, "POST", "/v1/pause")
if status()["paused"] != 1:
    fail("POST /v1/pause: status not paused")
expect(200, "POST", "/v1/resume")
print("POST /v1/resume when running: 409; /v1/pause then /v1/resume: 200, seen in /v1/status")

# A 405 names the methods the resource takes in Allow (RFC 9110, 15.5.6).
for method, path, allow in (("GET", "/v1/target", "put"), ("POST", "/v1/status", "get, head"),
                            ("PUT", "/v1/stop", "post")):
    expect(405, method, path, body="{}" if method != "GET" else None)
    if "\r\nallow: %s" % allow not in HEADS[(method, path)]:
        fail("%s %s: 405 without Allow: %s in %r" % (method, path, allow, HEADS[(method, path)]))
expect(404, "GET", "/v1/nothing")
stats = json.loads(expect(200, "GET", "/v1/stats"))
if stats.get("name") != st["name"] or "cps" not in stats or stats.get("tcpRsp") is None:
    fail("GET /v1/stats: %r" % list(stats)[:10])
m = expect(200, "GET", "/metrics", token=None)
if b"dperf_sk_open_total" not in m:
    fail("GET /metrics without a token: no dperf_sk_open_total")
print("GET /v1/stats: 200 (cps %.0f), /metrics open: 200, 3 wrong methods 405 with Allow, /v1/nothing 404" % stats["cps"])

# Bounds: 100 idle connections (more than the 64 slots) and an oversized head.
idle = [socket.create_connection(ADDR, timeout=3) for _ in range(100)]
st, b, _ = request("GET", "/v1/status", extra=b"X-Big: " + b"a" * 20000 + b"\r\n")
if st == 200:
    fail("a 20 kB header was served")
print("a 20 kB header: %s" % (st or "connection closed"))
t0 = time.time()
st = status()
took = time.time() - t0
for s in idle:
    s.close()
print("GET /v1/status beside 100 idle connections: 200 in %.2f s" % took)
