#!/usr/bin/env bash
# A traffic mix (issue 37) between our client and our server over memif
# (stopped once it sent 12,000 requests and the outputs were read):
# the client's kinds weighted 70/20/10/5 on keepalive connections (4
# requests each, the 1 MB kind's 2), the
# server answering by path from its object table (1 KB, 64 KB, 1 MB) and
# 404 for the fourth kind's path. Per kind: every request answered, the
# three known paths with 2xx and exactly their answers' bytes (size + the
# 85-byte head, each request), the unknown one with errors only, as many
# as the server's http404. The server's answers are the kinds' sum; the
# kinds' requests are the client's httpGet; shares of requests within 2 points of
# weight x requests per connection.
# Outputs per kind while it runs: dperf-top --once and its kinds view (4)
# have a row per kind,
# status --json each kind's latency, stats --csv --watch each kind's
# columns (their requests add up to httpGet's); after it: the
# summary's kinds' latency histograms add up to the totals bucket by
# bucket (connect, first byte, response), the 1 MB kind answers slower
# than the 1 KB one, and merge adds the kinds' histograms up.
. "$(dirname "$0")/lib.sh"

CPS=2k CLIENT_DURATION=30s CLIENT_EXTRA="keepalive 1ms 4
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
# (DPERF_NO_NICE: at nice 19 beside two busy-polling workers and other
# load, dperf-top --once took 10.9 s here, its attach 1.7 s)
top=$(DPERF_NO_NICE=1 "$SECONDARY_BUILD/dperf-top" -p e2e-cli --once -d 0.5) || fail "dperf-top --once failed: $top"
grep -Eq '^KINDS +kind +weight +share +req/s +2xx/s +errors +goodput +rsp p50 +rsp p99$' <<<"$top" ||
	fail "dperf-top --once: no KINDS head in: $top"
for kw in "small 70" "mid 20" "big 10" "gone 5"; do
	grep -Eq "^ {11}${kw% *} +${kw#* } +[0-9.]+% +[0-9.]+[KM]? +[0-9.]+[KM]? +[0-9.]+[KM]? +[0-9.]+ +([0-9.]+(us|ms|s)|-) +([0-9.]+(us|ms|s)|-)\$" <<<"$top" ||
		fail "dperf-top --once: no row for kind $kw (name weight) in: $top"
done
# the live view's kinds (key 4): a row per kind
command -v tmux >/dev/null || fail "tmux is not installed"
SOCK=dperf-top-mix-$$
tm() { tmux -L "$SOCK" "$@"; }
# (in a function under set +e: in the trap's own text, set -e ended it at
# a tmux server already gone, or at (exit 1), before cleanup)
end_tmux() { local rc=$?; set +e; tm kill-server 2>/dev/null; (exit "$rc"); cleanup; }
trap end_tmux EXIT
tm new-session -d -s kinds -x 110 -y 30 "DPERF_NO_NICE=1 $SECONDARY_BUILD/dperf-top -p e2e-cli -d 0.5; sleep 30"
shows() { tm capture-pane -p -t kinds | grep -Eq -- "$1"; }
wait_until 10 shows 'RATES +CPS' || fail "dperf-top did not draw: $(tm capture-pane -p -t kinds)"
tm send-keys -t kinds 4
wait_until 5 shows '^ KINDS \(4\)' || fail "dperf-top: no kinds view on 4: $(tm capture-pane -p -t kinds)"
for kw in "small 70" "mid 20" "big 10" "gone 5"; do
	shows "^ ${kw% *} +${kw#* } +[0-9.]+% " || fail "dperf-top's kinds view: no row for $kw: $(tm capture-pane -p -t kinds)"
done
tm kill-server
# (after dperf-top: two tools attaching at once took seconds more here)
bg env DPERF_NO_NICE=1 "$SECONDARY_BUILD/dperf-ctl" -p e2e-cli stats --csv --watch 0.5 >"$T/kinds.csv" 2>"$T/csv.err"
CSV_PID=$LAST_PID
# (30 s is a bound: the box's load decides how long the readers take)
# at least 12,000 requests, each kind's latency in status, a pause until
# every connection has ended, a stop
many() { [ "$(stat_of e2e-cli httpGet)" -ge 12000 ]; }
wait_until 20 many || fail "the client sent no 12,000 requests in 20 s"
ctl -p e2e-cli status --json >"$T/status.json" || fail "status --json"
/usr/bin/python3 - "$T/status.json" <<'PY' || fail "status --json: kinds' latency: $(head -c 1500 "$T/status.json")"
import json, sys
st = json.load(open(sys.argv[1]))
for k in st["kinds"]:
    lt = k["latency_total_us"]
    assert set(lt) == {"connect", "first_byte", "response", "tls_handshake"}, (k["name"], sorted(lt))
    assert lt["response"]["count"] > 0 and lt["response"]["p50"] > 0, (k["name"], lt["response"])
    assert lt["tls_handshake"]["count"] == 0, k["name"]
    # its own answers: no more than its requests (the histograms are
    # live, the counters published after each loop: a burst's slack)
    assert lt["response"]["count"] <= k["requests"] + 100, (k["name"], lt["response"]["count"], k["requests"])
p50 = {k["name"]: k["latency_total_us"]["response"]["p50"] for k in st["kinds"]}
assert p50["big"] > p50["small"], "status: 1 MB answered no slower than 1 KB: %s" % p50
PY
# paused first, so that every connection makes all its requests (a stop
# closes idle keepalive connections: cut short, the long kinds' ones
# moved the shares 2.2 points on a loaded box)
ctl -p e2e-cli pause >/dev/null || fail "pause the client"
drained() { [ "$(stat_of e2e-cli skCon)" = 0 ]; }
wait_until 20 drained || fail "the client's connections did not end 20 s after a pause"
ctl -p e2e-cli stop >/dev/null || fail "stop the client"
wait_exit "$PID_e2e_cli" 40 || fail "the client exited with an error"
wait_exit "$CSV_PID" 10 || fail "stats --csv --watch: $(cat "$T/csv.err")"
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
/usr/bin/python3 - "$T/sum.json" "$T/kinds.csv" <<'PY' || fail "per-kind latency and CSV"
import csv, json, sys
summ = json.load(open(sys.argv[1]))
kinds = {k["name"]: k for k in summ["kinds"]}
tot = summ["latency_hist"]
for key in ("connect", "first_byte", "response", "tls_handshake"):
    want = {}
    for i, n in tot[key]["b"]:
        want[i] = want.get(i, 0) + n
    got = {}
    for k in kinds.values():
        for i, n in k["latency_hist"][key]["b"]:
            got[i] = got.get(i, 0) + n
    assert got == want, "%s: the kinds' buckets do not add up to the total's" % key
    assert sum(k["latency_hist"][key]["count"] for k in kinds.values()) == tot[key]["count"], key
for name, k in kinds.items():
    assert k["latency_total_us"]["response"]["count"] == k["requests"], (name, k["latency_total_us"]["response"], k["requests"])
p50 = {n: k["latency_total_us"]["response"]["p50"] for n, k in kinds.items()}
print("  response p50 per kind (us): " + ", ".join("%s %.1f" % x for x in p50.items()))
assert p50["big"] > p50["small"], "1 MB answered no slower than 1 KB"
rows = list(csv.DictReader(open(sys.argv[2])))
assert len(rows) >= 2, "stats --csv --watch: %d rows" % len(rows)
# (the watch attaches after the traffic began: its rows add up to what
# httpGet counted in them, not to the whole run)
get = sum(int(r["httpGet"]) for r in rows)
kreq = sum(int(r["kind_%s_requests" % n]) for r in rows for n in kinds)
assert get > 0 and abs(kreq - get) <= get // 200, "CSV: the kinds' requests %d, httpGet %d" % (kreq, get)
for name in kinds:
    assert any(r["kind_%s_response_p99_us" % name] for r in rows), name + ": no response latency in any CSV row"
print("  CSV: %d rows, the kinds' requests %d, httpGet %d" % (len(rows), kreq, get))
PY
ctl merge "$T/sum.json" "$T/sum.json" >"$T/merged.json" || fail "merge"
/usr/bin/python3 - "$T/sum.json" "$T/merged.json" <<'PY' || fail "merge: kinds' latency"
import json, sys
one, two = (json.load(open(p)) for p in sys.argv[1:])
a = {k["name"]: k for k in one["kinds"]}
for k in two["kinds"]:
    r = k["latency_hist"]["response"]
    assert r["count"] == 2 * a[k["name"]]["latency_hist"]["response"]["count"], k["name"]
    assert abs(k["latency_total_us"]["response"]["p50"] - a[k["name"]]["latency_total_us"]["response"]["p50"]) <= 0.05, k["name"]
PY
pass "$get requests in four kinds, one a path the server has not: per kind answered and counted as the server counted them, bytes exact, shares within 2 points; per-kind latency in top, status, CSV, the summary (adding up to the totals) and merge"
