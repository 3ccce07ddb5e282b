#!/usr/bin/env bash
# set weight mid-test (issue 37): a client with kinds a and b at 50/50 (one
# request a connection) against our server; at 3 s `set weight b 0`, at
# 6 s `set weight b 150`. The -o summary's per-second history shows the
# shares follow within a second: under 1% b in the first second that starts
# after the first change and none after it, 75% (within 5 points) in the
# seconds after the second, 50% before; the changes are logged with their
# kind. The refusals (unknown kind, out of range, every weight 0, a server)
# exit 1 with the primary's line and change nothing.
. "$(dirname "$0")/lib.sh"

CPS=4k CLIENT_DURATION=30s CLIENT_EXTRA="kind_seed 7
kind a 50 /1k
kind b 50 /2k" SERVER_EXTRA="object /1k 1024
object /2k 2048" memif_pair "$T"
start_primary e2e-srv "$T/server.conf"
DPERF_ARGS="-o $T/sum.json" start_primary e2e-cli "$T/client.conf"

# elapsed_past S: the client runs at full rate and has run S seconds.
elapsed_past() {
	ctl -p e2e-cli status --json 2>/dev/null | /usr/bin/python3 -c '
import json, sys
j = json.load(sys.stdin)
sys.exit(0 if j["state"] == "running" and j["elapsed_s"] >= float(sys.argv[1]) else 1)' "$1"
}
refuse() {
	local words=$1 why rc=0
	shift
	why=$(ctl "$@" 2>&1 >/dev/null) || rc=$?
	[ $rc = 1 ] && grep -q "$words" <<<"$why" || fail "'$*': exit $rc, expected 1 and \"$words\": $why"
	note "refused '$*': $why"
}

wait_until 20 elapsed_past 2 || fail "the client did not run 2 s: $(tail -3 "$T/e2e-cli.log")"
out=$(ctl -p e2e-cli set weight b 0) || fail "set weight b 0 refused: $out"
note "$out"
grep -q "^accepted: weight b 0 (0.0% of new connections) (generation " <<<"$out" &&
	grep -q "^applied by all 1 workers " <<<"$out" || fail "set weight b 0: $out"
refuse "no such kind (expected one of a, b)" -p e2e-cli set weight nope 5
refuse "out of range (expected 0 to 1000000)" -p e2e-cli set weight a 2000000
refuse "every kind's weight would be 0" -p e2e-cli set weight a 0
refuse "this primary is a server" -p e2e-srv set weight a 1
ctl -p e2e-cli status --json | /usr/bin/python3 -c '
import json, sys
j = json.load(sys.stdin)
w = {k["name"]: k["weight"] for k in j["kinds"]}
assert w == {"a": 50, "b": 0}, w
ch = [c for c in j["changes"] if c["what"] == "set weight"]
assert [(c["kind"], c["old"], c["new"]) for c in ch] == [("b", 50, 0)], ch' || fail "status after set weight b 0"
wait_until 20 elapsed_past 5 || fail "the client did not run 5 s"
ctl -p e2e-cli set weight b 150 >/dev/null || fail "set weight b 150 refused"
# Two seconds more (one whole second after the change, however late the
# change came on a loaded box), then the end.
t2=$(jget "$(ctl -p e2e-cli status --json)" elapsed_s) || fail "status after set weight b 150"
wait_until 20 elapsed_past "$(/usr/bin/python3 -c "print($t2 + 2.2)")" || fail "the client did not run 2 s after set weight b 150"
ctl -p e2e-cli stop >/dev/null || fail "client stop refused"
wait_exit "$PID_e2e_cli" 40 || fail "the client exited with an error"
ctl -p e2e-srv stop >/dev/null
wait_exit "$PID_e2e_srv" 20 || fail "the server exited with an error"
c=$T/e2e-cli.log
grep -q "change   at .* s: set weight b 50 -> 0$" "$c" && grep -q "change   at .* s: set weight b 0 -> 150$" "$c" ||
	fail "the weight changes not in the client's output"
for k in skErr httpErr tcpDrop synRt badRx dropTx; do
	[ "$(total "$c" $k)" = 0 ] || fail "$k: $(total "$c" $k)"
done
/usr/bin/python3 - "$T/sum.json" <<'PY' || fail "the shares did not follow the weights: $(head -c 400 "$T/sum.json")"
import json, sys
summ = json.load(open(sys.argv[1]))
ch = [c for c in summ["changes"] if c["what"] == "set weight"]
assert [(c["kind"], c["old"], c["new"]) for c in ch] == [("b", 50, 0), ("b", 0, 150)], ch
t1, t2 = ch[0]["elapsed"], ch[1]["elapsed"]
print("  set weight b 0 at %.3f s, b 150 at %.3f s" % (t1, t2))
first_after, after = None, 0
for s in summ["history"]:
    start, end = s["elapsed"] - s["interval"], s["elapsed"]
    r = s["kind_rates"]
    a, b = r["a"]["requests"], r["b"]["requests"]
    n = a + b
    if s["state"] != "running" or n < 1000:
        continue
    share = 100.0 * b / n
    print("  %.3f-%.3f s: a %.0f b %.0f, b %.1f%%" % (start, end, a, b, share))
    if end <= t1:
        assert 45 <= share <= 55, "before the change: b %.1f%%" % share
    elif t1 <= start and end <= t2:
        if first_after is None:
            first_after = share
            assert share < 1, "the first second after set weight b 0: b %.1f%%" % share
        else:
            assert b == 0, "b still picked %.0f/s" % b
    elif t2 <= start:
        after += 1
        assert 70 <= share <= 80, "after set weight b 150: b %.1f%%" % share
assert first_after is not None, "no whole second between the changes"
assert after > 0, "no whole second after set weight b 150"
PY
pass "set weight b 0 then b 150 mid-test: the per-second shares followed within a second, the changes logged with their kind, four refusals"
