#!/usr/bin/env bash
# dperf-report from a real run: a memif client at 2k cps for 6 s, "set cps 4k" in
# the middle, -o; the report's plotted points equal the JSON's seconds,
# the change is marked at its time, and Chromium renders the page.
. "$(dirname "$0")/lib.sh"

CPS=2k CLIENT_DURATION=6s memif_pair "$T"
start_primary e2e-srv "$T/server.conf"
DPERF_ARGS="-o $T/run.json" start_primary e2e-cli "$T/client.conf"
# The change lands mid-run: after the primary printed its 2nd second (of
# its 6 s, so seconds at 2k before it and at 4k after it even when the
# attach takes 2.5 s; its own output: a dperf-ctl attach per poll takes
# seconds on a loaded box).
wait_until 15 grep -q "^seconds  *2 " "$T/e2e-cli.log" || fail "the client did not reach 2 s"
ctl -p e2e-cli set cps 4k >/dev/null || fail "set cps 4k refused"
wait_exit "$PID_e2e_cli" 30 || fail "client exited with an error"
kill -INT "$PID_e2e_srv" # (the stop is not what is checked here: a signal needs no attach)
wait_exit "$PID_e2e_srv" 15 || fail "server exited with an error"
note "run.json: $(wc -c <"$T/run.json") bytes"

"$BUILD/dperf-report" "$T/run.json" -o "$T/report.html" 2>"$T/report.err" || fail "dperf-report: $(cat "$T/report.err")"
# Chromium renders the page (offline; an error on the page fails),
# meanwhile the page's data are checked (below).
bg "$ROOT/scripts/report-shot.sh" "$T/report.html" "$T/report.png" 1400 3000 2>"$T/chromium.err"
shot=$LAST_PID
# The plotted points are the JSON's seconds: the data the plots were drawn
# from (embedded in the page), and the drawn lines themselves (matplotlib's
# SVG, one <g id> per series): as many vertices as seconds, the change's
# line at its time on the same x axis.
/usr/bin/python3 - "$T/run.json" "$T/report.html" <<'PY' || fail "the report's plots differ from the run's JSON"
import json, re, sys
run = json.load(open(sys.argv[1]))
page = open(sys.argv[2]).read()
data = json.loads(re.search(r'<script type="application/json" id="dperf-report-data">(.*?)</script>', page, re.S)
                  .group(1).replace("<\\/", "</"))
h, s = run["history"], data["runs"][0]["series"]
assert len(h) >= 5, "only %d seconds in the history" % len(h)
want = {"cps": [x["cps"] for x in h], "rps": [x["rps"] for x in h], "skCon": [x["skCon"] for x in h],
        "target_cps": [x["target_cps"] for x in h], "gbps_rx": [x["bps_rx"] / 1e9 for x in h],
        "good_gbps_tx": [x["good_bps_tx"] / 1e9 for x in h],
        "lat_connect_p99": [x["latency_us"]["connect"]["p99"] if x["latency_us"]["connect"]["count"] else None
                            for x in h],
        "lat_response_p50": [x["latency_us"]["response"]["p50"] if x["latency_us"]["response"]["count"] else None
                             for x in h]}
for k, v in want.items():
    assert [p[1] for p in s[k]] == v, (k, s[k], v)
    assert [p[0] for p in s[k]] == [x["elapsed"] for x in h], k
# the latency kinds come from the run (every one the engine has), and one
# without a sample (no TLS here) is in each second with count 0, not drawn
assert [k["key"] for k in run["latency_kinds"]] == ["connect", "response", "server", "first_byte", "srtt",
                                                    "tls_handshake"], run["latency_kinds"]
assert data["lat_kinds"] == [[k["key"], k["label"]] for k in run["latency_kinds"]], data["lat_kinds"]
assert all(x["latency_us"]["tls_handshake"]["count"] == 0 for x in h)
assert '<g id="lat_connect_p50-0">' in page and '<g id="lat_tls_handshake_p50-0">' not in page
# the run itself launched (its rate under a loaded box is not this test's)
assert sum(x["cps"] for x in h) > 1000, [x["cps"] for x in h]

def path(gid):
    m = re.search(r'<g id="%s">\s*<path d="([^"]*)"' % re.escape(gid), page)
    assert m, "no drawn line %s" % gid
    return [tuple(map(float, p.split())) for p in re.findall(r"[ML] ([-\d.]+ [-\d.]+)", m.group(1))]

xy = path("cps-0")
assert len(xy) == len(h), ("cps-0 has %d vertices, %d seconds" % (len(xy), len(h)))
for k in ("rps-0", "skCon-0", "gbps_rx-0", "gbps_tx-0", "good_gbps_rx-0"):
    assert len(path(k)) == len(h), k
ch = [c for c in run["changes"] if c["what"] == "set cps"]
assert len(ch) == 1 and ch[0]["old"] == 2000 and ch[0]["new"] == 4000, run["changes"]
t = ch[0]["elapsed"]
i = next(i for i, x in enumerate(h) if x["elapsed"] >= t)  # the second it falls in
assert i > 0 and h[i - 1]["target_cps"] == 2000 and h[i]["target_cps"] == 4000, (t, i)
# its line's x on the cps plot, against the seconds around it (pixels)
(x0, _), (x1, _) = xy[i - 1], xy[i]
want_x = x0 + (x1 - x0) * (t - h[i - 1]["elapsed"]) / (h[i]["elapsed"] - h[i - 1]["elapsed"])
cx = path("change-0-0-cps-0")[0][0]
assert abs(cx - want_x) < 0.5, ("change drawn at x=%.2f, expected %.2f (%.3f s)" % (cx, want_x, t))
print("  [test_report] %d seconds plotted as in the JSON; set cps at %.3f s drawn in second %d" % (len(h), t, i + 1))
PY
wait "$shot" || fail "$(cat "$T/chromium.err")"
# The PNG: not blank, and the plots' frames there (matplotlib draws each
# axes' top and bottom as a dark line several hundred pixels long).
/usr/bin/python3 - "$T/report.png" <<'PY' || fail "the rendered page is not the report"
import sys
import matplotlib.image as mpimg
img = mpimg.imread(sys.argv[1])[:, :, :3]
assert img.shape[0] == 3000 and img.shape[1] == 1400, img.shape
ink = (img.mean(axis=2) < 0.9).mean()
assert ink > 0.02, "blank page: %.3f of the pixels are not white" % ink
dark = img.max(axis=2) < 0.3
def longest(row):
    best = cur = 0
    for v in row:
        cur = cur + 1 if v else 0
        best = max(best, cur)
    return best
frames = [y for y in range(0, img.shape[0]) if dark[y].sum() >= 300 and longest(dark[y]) >= 300]
# rows next to each other are one line
lines = [y for k, y in enumerate(frames) if k == 0 or y - frames[k - 1] > 2]
assert len(lines) >= 8, "%d plot frame lines in the screenshot (expected at least 8)" % len(lines)
blue = ((abs(img[:, :, 0] - 0x1f / 255) < 0.08) & (abs(img[:, :, 1] - 0x77 / 255) < 0.08) &
        (abs(img[:, :, 2] - 0xb4 / 255) < 0.08)).sum()
assert blue > 500, "the series' colour is missing (%d pixels)" % blue
print("  [test_report] screenshot: %.1f%% ink, %d plot frame lines, %d series pixels" % (100 * ink, len(lines), blue))
PY
pass "set cps at its second; points as in the JSON; rendered"
