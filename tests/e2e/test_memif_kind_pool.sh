#!/usr/bin/env bash
# A kind with its own server pool (issue 37): the client's kind "pool"
# names "server 198.18.3.1 1", kind "main" has the server line's
# 198.18.2.1; our server has both as server lines. Every request
# answered, per kind as the server counted it per object (/a is main's
# path, /b pool's). Proof of the addresses: dpdk-dumpcap on the client's
# port for 2 s; in the capture every GET /b goes to 198.18.3.1 and names
# it as Host, every GET /a to 198.18.2.1, both seen, and the server's
# SYN+ACKs come from both addresses.
. "$(dirname "$0")/lib.sh"
command -v dpdk-dumpcap >/dev/null || fail "dpdk-dumpcap is not installed (dpdk package)"

CPS=1k CLIENT_DURATION=5s CLIENT_EXTRA="kind_seed 7
kind main 50 /a
kind pool 50 /b server 198.18.3.1 1" SERVER_EXTRA="server 198.18.3.1 1
object /a 100
object /b 200" memif_pair "$T"
DPERF_ARGS="-o $T/srv.json" start_primary e2e-srv "$T/server.conf"
DPERF_ARGS="-o $T/cli.json" start_primary e2e-cli "$T/client.conf"
answered() { [ "$(stat_of e2e-cli http2XX)" -gt 0 ]; }
wait_until 10 answered || fail "no answer counted 10 s after the start"
dpdk-dumpcap --file-prefix=e2e-cli -i 0 -a duration:2 -w "$T/cap.pcapng" -q >"$T/dumpcap.log" 2>&1 ||
	fail "dpdk-dumpcap: $(tail -3 "$T/dumpcap.log")"
wait_exit "$PID_e2e_cli" 30 || fail "the client exited with an error"
ctl -p e2e-srv stop >/dev/null
wait_exit "$PID_e2e_srv" 20 || fail "the server exited with an error"
c=$T/e2e-cli.log s=$T/e2e-srv.log
get=$(total "$c" httpGet) ok=$(total "$c" http2XX)
note "client httpGet $get http2XX $ok; server httpGet $(total "$s" httpGet) http2XX $(total "$s" http2XX)"
[ "$get" -gt 1000 ] && [ "$ok" = "$get" ] || fail "client: $ok of $get requests answered"
[ "$(total "$s" http2XX)" = "$ok" ] || fail "server answered $(total "$s" http2XX), client counted $ok"
for k in httpErr skErr tcpDrop synRt pushRt badRx dropTx; do
	[ "$(total "$c" $k)" = 0 ] && [ "$(total "$s" $k)" = 0 ] || fail "$k: client $(total "$c" $k), server $(total "$s" $k)"
done
/usr/bin/python3 - "$T/cli.json" "$T/srv.json" "$T/cap.pcapng" <<'PY' || fail "kinds and their server addresses"
import json, struct, sys
cli, srv = (json.load(open(f)) for f in sys.argv[1:3])
kinds = {k["name"]: k for k in cli["kinds"]}
objs = {o["path"]: o for o in srv["objects"]}
for name, path in (("main", "/a"), ("pool", "/b")):
    k, o = kinds[name], objs[path]
    print("  kind %s: requests %d http2XX %d; server object %s: requests %d http2XX %d"
          % (name, k["requests"], k["http2XX"], path, o["requests"], o["http2XX"]))
    assert k["requests"] > 300 and k["http2XX"] == k["requests"] == o["requests"] == o["http2XX"], name
# the capture: Ethernet, IPv4, TCP (pcapng enhanced packet blocks)
data = open(sys.argv[3], "rb").read()
gets, synack, off = {}, {}, 0
ip = lambda b: ".".join(str(x) for x in b)
while off + 12 <= len(data):
    btype, blen = struct.unpack_from("<II", data, off)
    if blen < 12:
        break
    if btype == 6:
        caplen = struct.unpack_from("<I", data, off + 20)[0]
        f = data[off + 28:off + 28 + caplen]
        if len(f) > 34 and f[12:14] == b"\x08\x00" and f[23] == 6:
            ihl = (f[14] & 15) * 4
            tcp = f[14 + ihl:]
            src, dst = ip(f[26:30]), ip(f[30:34])
            flags, doff = tcp[13], (tcp[12] >> 4) * 4
            pay = tcp[doff:]
            if flags & 0x12 == 0x12:
                synack[src] = synack.get(src, 0) + 1
            if pay.startswith(b"GET "):
                path = pay.split(b" ")[1].decode()
                host = pay.split(b"\r\nHost: ")[1].split(b"\r\n")[0].decode()
                key = (path, dst, host)
                gets[key] = gets.get(key, 0) + 1
    off += blen
print("  captured GETs (path, to, Host): %s; SYN+ACKs from: %s" % (gets, synack))
assert set(gets) == {("/a", "198.18.2.1", "198.18.2.1"), ("/b", "198.18.3.1", "198.18.3.1")}, gets
assert min(gets.values()) > 100, gets
assert set(synack) == {"198.18.2.1", "198.18.3.1"} and min(synack.values()) > 100, synack
PY
pass "$get requests, kind pool's to 198.18.3.1 and kind main's to 198.18.2.1 (seen in a capture), all answered, per kind as the server counted"
