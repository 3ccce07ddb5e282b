#!/usr/bin/env bash
# A traffic mix of http and https kinds (issue 37) between our client and
# our server over memif: the client (protocol https) with two kinds
# marked http (1 KB, and 40 KB over several segments) and one https kind
# (16 KB), a connection per request; the server (protocol https with
# plain_http) answering each connection as its first byte says, by path
# from its objects. Per kind, both sides' figures equal: the client's
# requests = its http2XX = the server's requests and http2XX for that
# kind's path, the client's goodRx = the server's goodTx of the object =
# (size + 85-byte head) x answers; the client's TLS handshakes are the
# https kind's connections, all completed on both sides; the kinds and
# the objects each sum to their side's totals; no error on either side.
. "$(dirname "$0")/lib.sh"
CERT=$ROOT/build/tls/test-cert.pem KEY=$ROOT/build/tls/test-key.pem
[ -s "$KEY" ] || fail "$KEY missing (make build/tls/test-key.pem)"

SERVER_EXTRA=$(printf 'protocol https\ntls_cert %s\ntls_key %s\nplain_http\nobject /1k 1024\nobject /40k 40000\nobject /16k 16384' "$CERT" "$KEY") \
	CLIENT_EXTRA=$(printf 'protocol https\nkind_seed 5\nkind p1k 50 /1k http\nkind p40k 20 /40k http\nkind t16k 30 /16k https') \
	CPS=400 CLIENT_DURATION=3s memif_pair "$T"
DPERF_ARGS="-o $T/srv.json" start_primary e2e-srv "$T/server.conf"
DPERF_ARGS="-o $T/cli.json" start_primary e2e-cli "$T/client.conf"
# the server's per-object lines in dperf-ctl status (while the client runs)
ctl -p e2e-srv status >"$T/status.txt" || fail "dperf-ctl status failed"
grep -Eq '^object /16k: requests [0-9]+ http2XX [0-9]+ goodTx [0-9]+$' "$T/status.txt" ||
	fail "status: no line for object /16k: $(grep -E '^(object|kind) ' "$T/status.txt")"
wait_exit "$PID_e2e_cli" 30 || fail "the client exited with an error"
ctl -p e2e-srv stop >/dev/null
wait_exit "$PID_e2e_srv" 20 || fail "the server exited with an error"
/usr/bin/python3 - "$T/cli.json" "$T/srv.json" <<'PY' || fail "per-kind figures differ between the sides"
import json, sys
cli, srv = (json.load(open(f)) for f in sys.argv[1:3])
want = {"p1k": ("/1k", 1024, False), "p40k": ("/40k", 40000, False), "t16k": ("/16k", 16384, True)}
kinds = {k["name"]: k for k in cli.get("kinds", [])}
objs = {o["path"]: o for o in srv.get("objects", [])}
assert sorted(kinds) == sorted(want), "client kinds %s" % sorted(kinds)
assert sorted(objs) == sorted(p for p, _, _ in want.values()), "server objects %s" % sorted(objs)
tls_req = 0
for name, (path, size, tls) in sorted(want.items()):
    k, o = kinds[name], objs[path]
    print("  %s (%s, %s): client requests %d http2XX %d httpErr %d goodRx %d B; server requests %d http2XX %d goodTx %d B"
          % (name, path, "https" if tls else "http", k["requests"], k["http2XX"], k["httpErr"], k["goodRx"] // 8,
             o["requests"], o["http2XX"], o["goodTx"] // 8))
    assert k["requests"] > 50, name + ": too few requests to judge"
    assert k["requests"] == k["http2XX"] == o["requests"] == o["http2XX"], name + ": requests and answers differ"
    assert k["httpErr"] == 0, name + ": httpErr"
    assert k["goodRx"] == o["goodTx"] == 8 * k["http2XX"] * (size + 85), name + ": bytes differ or not size + head"
    tls_req += k["requests"] if tls else 0
for side, rows, get in (("client", kinds, "httpGet"), ("server", objs, "httpGet")):
    tot = cli if side == "client" else srv
    assert sum(r["requests"] for r in rows.values()) == tot[get], side + ": rows' requests != " + get
    assert sum(r["http2XX"] for r in rows.values()) == tot["http2XX"], side + ": rows' http2XX != http2XX"
# (the totals' goodRx and goodTx are TCP's payload, the https kind's records;
# the rows count the plaintext: each side's sum is the other's)
assert sum(k["goodRx"] for k in kinds.values()) == sum(o["goodTx"] for o in objs.values()), "kinds' goodRx != objects' goodTx"
# one request per connection: the https kind's connections are its requests
print("  TLS: client tlsHs %d tlsHsDone %d, server tlsHs %d tlsHsDone %d, https-kind connections %d"
      % (cli["tlsHs"], cli["tlsHsDone"], srv["tlsHs"], srv["tlsHsDone"], tls_req))
assert cli["tlsHs"] == cli["tlsHsDone"] == srv["tlsHs"] == srv["tlsHsDone"] == tls_req, "TLS handshakes != https connections"
for side, j in (("client", cli), ("server", srv)):
    for c in ("skErr", "httpErr", "http404", "tlsErr", "tlsFailAlert", "tlsFailProto", "tlsFailVerify",
              "tlsFailEof", "tlsFailTimeout", "tlsFailInternal", "tcpDrop", "badRx", "dropTx"):
        assert j[c] == 0, "%s %s %d" % (side, c, j[c])
PY
pass "http and https kinds in one run: per kind the client's requests, 2xx and bytes are the server's for its path, TLS handshakes the https kind's connections"
