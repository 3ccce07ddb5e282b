#!/usr/bin/python3
"""What test_fleet checks, one line per check, exit 1 at the first that
fails.

fleet_check.py prometheus PROM_URL TOKEN API_PORT... DASHBOARD OUT.json
    while the clients run: their APIs' own http2XX rates (the engines'
    clocks) against Prometheus' sum(rate(dperf_http_2xx_total[10s])) over
    the same 10 s; the fleet's p99 from the histograms at that time (kept
    in OUT.json); every query of the Grafana dashboard returns data.
fleet_check.py merged RESULTS OUT.json
    after fleet-collect: the merged clients' summary is the sum of the
    instances', matches the servers' counters, and its p99 is within one
    Prometheus bucket of the one kept in OUT.json.
"""
import bisect
import glob
import json
import math
import re
import os
import sys
import time
import urllib.parse
import urllib.error
import urllib.request


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def get(url, token=None):
    req = urllib.request.Request(url)
    if token:
        req.add_header("Authorization", "Bearer " + token)
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())


def query(prom, expr, at):
    try:
        r = get("%s/api/v1/query?%s" % (prom, urllib.parse.urlencode({"query": expr, "time": "%.3f" % at})))
    except urllib.error.HTTPError as e:
        fail("query %s: %s %s" % (expr, e, e.read()[:200]))
    if r.get("status") != "success":
        fail("query %s: %r" % (expr, r))
    return r["data"]["result"]


# Prometheus' le bounds (common/hist.h): 1 us x 2^e x {1, 1.25, 1.5, 1.75}.
LE = [2 ** (k // 4) * (1 + (k % 4) / 4) * 1e-6 for k in range(24 * 4 + 1)]


def le_bucket(seconds):
    return bisect.bisect_left(LE, seconds)


def prometheus(prom, token, ports, dashboard, out):
    # data from both clients, then the 10 s window
    deadline = time.time() + 30
    while True:
        try:
            r = query(prom, 'count(dperf_http_2xx_total{role="client"})', time.time())
        except OSError:  # not listening yet
            r = None
        if r and r[0]["value"][1] == "2":
            break
        if time.time() > deadline:
            fail("Prometheus does not scrape both clients 30 s after its start: %r" % r)
        time.sleep(0.5)
    # A few scrapes more before the window's start (its samples then span
    # it whole; the rate change was applied before this script started).
    time.sleep(2)
    # the engines' own rates: their counters over their own clocks
    a = [get("http://127.0.0.1:%s/v1/stats" % p, token) for p in ports]
    time.sleep(10)
    b = [get("http://127.0.0.1:%s/v1/stats" % p, token) for p in ports]
    t1 = time.time()
    own = sum((y["http2XX"] - x["http2XX"]) / (y["elapsed"] - x["elapsed"]) for x, y in zip(a, b))
    # The scrapes up to t1 are in once both clients have a sample taken
    # after it (every second: a deadline, not a fixed wait).
    deadline = time.time() + 15
    while True:
        r = query(prom, 'min(timestamp(dperf_http_2xx_total{role="client"})) and count(dperf_http_2xx_total{role="client"}) == 2',
                  time.time())
        if r and float(r[0]["value"][1]) > t1:
            break
        if time.time() > deadline:
            fail("Prometheus has no scrape of both clients after t1 %.3f within 15 s: %r" % (t1, r))
        time.sleep(0.2)
    r = query(prom, "sum(rate(dperf_http_2xx_total[10s]))", t1)
    if not r:
        fail("sum(rate(dperf_http_2xx_total[10s])): no data")
    pr = float(r[0]["value"][1])
    print("sum(rate(dperf_http_2xx_total[10s])) %.1f/s, the engines' own %.1f/s: %+.2f%%"
          % (pr, own, (pr - own) / own * 100))
    if abs(pr - own) > 0.02 * own:
        fail("Prometheus' rate %.1f/s is not within 2%% of the engines' %.1f/s" % (pr, own))
    if own < 1000:  # 800 before the change, 1600 after
        fail("the engines answer %.1f/s after fleet-rate -e cps=1600 (800 before)" % own)
    q = "histogram_quantile(0.99, sum by (le) (rate(dperf_response_seconds_bucket[10s])))"
    r = query(prom, q, t1)
    p99 = float(r[0]["value"][1]) if r else float("nan")
    if math.isnan(p99):
        fail("%s: no data (%r)" % (q, r))
    print("fleet p99 from the histograms: %.1f us" % (p99 * 1e6))
    d = json.load(open(dashboard))
    n, empty = 0, []
    for p in d["panels"]:
        for t in p["targets"]:
            e = t["expr"].replace("$__rate_interval", "10s")
            r = query(prom, e, t1)
            vals = [s["value"][1] for s in r]
            if r and all(v == "NaN" for v in vals) and "histogram_quantile" in e:
                # A quantile of no samples is NaN: right for a histogram
                # this run never fed (TLS handshakes in an HTTP test),
                # wrong for any other.
                m = re.search(r"(dperf_\w+)_bucket", e).group(1)
                c = query(prom, "sum(rate(%s_count[10s]))" % m, t1)
                if c and float(c[0]["value"][1]) == 0:
                    empty.append(p["title"])
                    continue
            if not r or all(v == "NaN" for v in vals):
                fail("dashboard panel %r: %s returns no data" % (p["title"], e))
            n += 1
    print("all %d queries of the Grafana dashboard return data%s" %
          (n, "; empty as this run fed no sample: %s" % ", ".join(sorted(set(empty))) if empty else ""))
    json.dump({"t1": t1, "p99_s": p99, "rate": pr, "own": own, "prom": prom}, open(out, "w"))


def merged(results, prom_out, t_stop):
    prom = json.load(open(prom_out))
    sides = {}
    for side in ("clients", "servers"):
        parts = [json.load(open(f)) for f in sorted(glob.glob(os.path.join(results, side, "*.json")))]
        whole = json.load(open(os.path.join(results, side + ".json")))
        if len(parts) != 2 or sorted(whole["instances"]) != sorted(p["name"] for p in parts):
            fail("%s: merged %r from %d summaries" % (side, whole.get("instances"), len(parts)))
        for k, v in whole.items():
            if isinstance(v, int) and not isinstance(v, bool):
                s = sum(p[k] for p in parts)
                if v != s:
                    fail("%s: merged %s %d, the instances' sum %d" % (side, k, v, s))
        n = whole["latency_total_us"]["response"]["count"] if side == "clients" else whole["synRx"]
        if n == 0:
            fail("%s: nothing happened" % side)
        sides[side] = whole
    c, s = sides["clients"], sides["servers"]
    print("merged summaries are the sums of the instances' (every counter): clients http2XX %d, servers httpGet %d"
          % (c["http2XX"], s["httpGet"]))
    # what one side sent the other received (memif loses nothing)
    for ck, sk in (("synTx", "synRx"), ("http2XX", "httpGet"), ("pktTx", "pktRx"), ("pktRx", "pktTx")):
        if c[ck] != s[sk]:
            fail("clients' %s %d, servers' %s %d" % (ck, c[ck], sk, s[sk]))
    print("clients' synTx, http2XX, pktTx, pktRx = servers' synRx, httpGet, pktRx, pktTx (%d, %d, %d, %d)"
          % (c["synTx"], c["http2XX"], c["pktTx"], c["pktRx"]))
    # The merged summary's p99 is over the whole run; so is the one compared
    # with it: the same query as the dashboard's, over the histograms' whole
    # counts at the last scrape before the stop (the rate over the last 10 s
    # above is another population: on a loaded box its p99 differed from the
    # run's by two buckets, 10.7 ms against 20.1 ms).
    p99 = c["latency_total_us"]["response"]["p99"] * 1e-6
    q = 'histogram_quantile(0.99, sum by (le) (dperf_response_seconds_bucket{role="client"}))'
    r = query(prom["prom"], q, t_stop)
    whole = float(r[0]["value"][1]) if r else float("nan")
    if math.isnan(whole):
        fail("%s at the stop: no data (%r)" % (q, r))
    kp, km = le_bucket(whole), le_bucket(p99)
    print("p99 over the run: Prometheus %.1f us (bucket %d), merged summary %.1f us (bucket %d); last 10 s: %.1f us"
          % (whole * 1e6, kp, p99 * 1e6, km, prom["p99_s"] * 1e6))
    if abs(kp - km) > 1:
        fail("Prometheus' p99 %.1f us is more than one bucket from the merged %.1f us" % (whole * 1e6, p99 * 1e6))


if sys.argv[1] == "prometheus":
    prometheus(sys.argv[2], sys.argv[3], sys.argv[4:-2], sys.argv[-2], sys.argv[-1])
else:
    merged(sys.argv[2], sys.argv[3], float(sys.argv[4]))
