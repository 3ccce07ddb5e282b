#!/usr/bin/env bash
# A traffic mix (issue 37) between our client and our server over memif:
# the client's kinds weighted 70/20/10/5 on keepalive connections (4
# requests each, the 1 MB kind's 2), the
# server answering by path from its object table (1 KB, 64 KB, 1 MB) and
# 404 for the fourth kind's path. Per kind: every request answered, the
# three known paths with 2xx and exactly their answers' bytes (size + the
# 85-byte head, each request), the unknown one with errors only, as many
# as the server's http404. The server's answers are the kinds' sum; the
# kinds' requests are the client's httpGet; shares of requests within 2 points of
# weight x requests per connection.
. "$(dirname "$0")/lib.sh"

CPS=2k CLIENT_DURATION=4s CLIENT_EXTRA="keepalive 1ms 4
kind_seed 3
kind small 70 /1k
kind mid 20 /64k
kind big 10 /1m keepalive 2
kind gone 5 /nowhere" SERVER_EXTRA="keepalive
object /1k 1024
object /64k 65536
object /1m 1000000" memif_pair "$T"
start_primary e2e-srv "$T/server.conf"
DPERF_ARGS="-o $T/sum.json" start_primary e2e-cli "$T/client.conf"
wait_exit "$PID_e2e_cli" 40 || fail "the client exited with an error"
ctl -p e2e-srv stop >/dev/null
wait_exit "$PID_e2e_srv" 20 || fail "the server exited with an error"
c=$T/e2e-cli.log s=$T/e2e-srv.log
get=$(total "$c" httpGet) ok=$(total "$c" http2XX) err=$(total "$c" httpErr)
note "client httpGet $get http2XX $ok httpErr $err; server httpGet $(total "$s" httpGet) http2XX $(total "$s" http2XX) http404 $(total "$s" http404)"
[ "$(total "$s" httpGet)" = "$get" ] || fail "server counted $(total "$s" httpGet) requests, client sent $get"
[ "$(total "$s" http2XX)" = "$ok" ] || fail "server answered $(total "$s" http2XX) with 2xx, client counted $ok"
[ "$(total "$s" http404)" = "$err" ] || fail "server http404 $(total "$s" http404), client httpErr $err"
for k in skErr tcpDrop synRt pushRt badRx dropTx; do
	[ "$(total "$c" $k)" = 0 ] && [ "$(total "$s" $k)" = 0 ] || fail "$k: client $(total "$c" $k), server $(total "$s" $k)"
done
/usr/bin/python3 - "$T/sum.json" "$get" "$ok" "$err" <<'PY' || fail "per-kind counters: $(cat "$T/sum.json" | head -c 600)"
import json, sys
summ = json.load(open(sys.argv[1]))
get, ok, err = map(int, sys.argv[2:])
# (answer body, weight x requests per connection): big's connections
# carry 2 requests, the others 4, so its share of requests is half its
# share of connections.
want = {"small": (1024, 70 * 4), "mid": (65536, 20 * 4), "big": (1000000, 10 * 2), "gone": (None, 5 * 4)}
kinds = {k["name"]: k for k in summ["kinds"]}
assert sorted(kinds) == sorted(want), sorted(kinds)
req = sum(k["requests"] for k in kinds.values())
assert req == get >= 10000, "kinds' requests %d, httpGet %d (at least 10,000)" % (req, get)
assert sum(k["http2XX"] for k in kinds.values()) == ok, "kinds' http2XX do not add up to %d" % ok
assert sum(k["httpErr"] for k in kinds.values()) == err, "kinds' httpErr do not add up to %d" % err
w = sum(x[1] for x in want.values())
for name, (size, weight) in want.items():
    k = kinds[name]
    share = 100.0 * k["requests"] / req
    print("  %s: requests %d http2XX %d httpErr %d goodRx %d B, share %.2f%% (weight %.2f%%)"
          % (name, k["requests"], k["http2XX"], k["httpErr"], k["goodRx"] // 8, share, 100.0 * weight / w))
    assert abs(share - 100.0 * weight / w) <= 2, name + ": share off its weight"
    if size is None:
        assert k["http2XX"] == 0 and k["httpErr"] == k["requests"] > 0, name + ": not all 404"
    else:
        assert k["http2XX"] == k["requests"] and k["httpErr"] == 0, name + ": not all answered 2xx"
        assert k["goodRx"] == 8 * k["http2XX"] * (size + 85), name + ": goodRx is not size + head per answer"
PY
pass "$get requests in four kinds, one a path the server has not: per kind answered and counted as the server counted them, bytes exact, shares within 2 points"
