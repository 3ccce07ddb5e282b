#!/usr/bin/env python3
"""make bench: the engine's speed and memory on this box.

One worker core per side over a net_memif pair (client on CPU 1, server on
CPU 0). Every figure is the median of the steady seconds (the primary's own
per-second output), with min and max. Prints a table, then one JSON object
on the last line.

Environment: BENCH_CC (default 2m), BENCH_ONLY (comma-separated scenarios
to run, of cps, throughput, keepalive, cc, tx_mpps, testpmd, attach, ctl;
default all),
BENCH_SMOKE=1 (a few seconds each, to check that the bench works; figures
meaningless), BUILD (default build).
"""
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.join(ROOT, os.environ.get("BUILD", "build"))
SMOKE = os.environ.get("BENCH_SMOKE") == "1"
DPERF, CTL, TOP = (os.path.join(BUILD, x) for x in ("dperf", "dperf-ctl", "dperf-top"))
TMP = tempfile.mkdtemp(prefix="dperf-bench.")
SOCK = os.path.join(TMP, "m.sock")
PROCS = []
RUN_S = 4 if SMOKE else 9      # client duration per scenario
# Both sides batch TX: a partial batch waits up to 5 us for more packets,
# so the memif PMD is called less often with fuller bursts (see README).
TX_TUNING = "tx_burst 32\ntx_hold 5us"
SKIP_S = 2                     # seconds discarded (start, ramp)


def parse_number(s):
    m = re.fullmatch(r"([0-9.]+)([kmg]?)", s.lower())
    return int(float(m.group(1)) * {"": 1, "k": 1e3, "m": 1e6, "g": 1e9}[m.group(2)])


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def start(args, out, nice=False):
    f = open(out, "w")
    p = subprocess.Popen(args, stdout=f, stderr=subprocess.STDOUT,
                         preexec_fn=(lambda: os.nice(19)) if nice else None)
    p.logpath = out
    PROCS.append(p)
    return p


def log_tail(proc, n=8):
    try:
        with open(proc.logpath) as f:
            return "".join(f.readlines()[-n:])
    except OSError:
        return ""


def wait_up(name, proc, timeout=30):
    end = time.time() + timeout
    while time.time() < end:
        if proc.poll() is not None:
            raise SystemExit(f"bench: {name} exited at start; its log ends:\n{log_tail(proc)}")
        ctl = subprocess.run([CTL, "-p", name, "status"], capture_output=True, text=True)
        if ctl.returncode == 0:
            return
        time.sleep(0.2)
    raise SystemExit(f"bench: {name} did not come up in {timeout} s (dperf-ctl status: "
                     f"{ctl.stderr.strip() or ctl.stdout.strip()}); its log ends:\n{log_tail(proc)}")


def stop(name, proc, timeout=20):
    if proc.poll() is None:
        subprocess.run([CTL, "-p", name, "stop"], capture_output=True)
    try:
        proc.wait(timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def seconds(logfile):
    """The primary's per-second blocks: [{counter: delta, 'cpu': %, 'skCon': n}]."""
    out, cur = [], None
    with open(logfile) as f:
        for line in f:
            tok = line.split()
            if not tok:
                continue
            if tok[0] == "seconds":
                cur = {"sec": int(tok[1]), "state": tok[3], "cpu": float(tok[5]), "skCon": int(tok[7])}
                out.append(cur)
            elif tok[0].startswith("----"):
                cur = None
            elif cur is not None and not tok[0].startswith("port") and len(tok) % 2 == 0:
                for k, v in zip(tok[0::2], tok[1::2]):
                    if v.isdigit():
                        cur[k] = int(v)
    return out


def stat(values):
    if not values:
        return {"median": 0, "min": 0, "max": 0}
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def write(path, text):
    with open(path, "w") as f:
        f.write(text)
    return path


def server_conf(extra=""):
    return write(os.path.join(TMP, "server.conf"), f"""mode server
cpu 0
duration 3600s
port net_memif0,role=server,socket={SOCK},rsize=13 198.18.0.1 198.18.0.2
client 198.18.1.2 200
server 198.18.2.1 1
listen 80 {LISTEN}
quiet
{TX_TUNING}
{extra}
""")


def client_conf(cps, extra="", duration=None):
    return write(os.path.join(TMP, "client.conf"), f"""mode client
cpu 1
duration {duration or RUN_S}s
cps {cps}
port net_memif0,role=client,socket={SOCK},rsize=13 198.18.0.2 198.18.0.1
client 198.18.1.2 200
server 198.18.2.1 1
listen 80 {LISTEN}
slow_start 0
wait 1
launch_num 16
{TX_TUNING}
{extra}
""")


class Server:
    def __init__(self, extra=""):
        self.extra = extra

    def __enter__(self):
        self.p = start([DPERF, "-c", server_conf(self.extra), "-p", "bench-srv"],
                       os.path.join(TMP, "server.log"))
        wait_up("bench-srv", self.p)
        return self

    def __exit__(self, *a):
        stop("bench-srv", self.p)


def run_client(cps, extra="", during=None, duration=None):
    """Run one client to its end; returns its steady seconds."""
    logf = os.path.join(TMP, "client.log")
    p = start([DPERF, "-c", client_conf(cps, extra, duration), "-p", "bench-cli"], logf)
    if during:
        wait_up("bench-cli", p)
        during(p)
    p.wait(120)
    return steady(seconds(logf))


def steady(secs):
    """Seconds in the running state, without the first one (ramp) and the
    last (partial)."""
    run = [s for s in secs if s["state"] == "running"]
    return run[1:-1] if len(run) > 2 else run


ERRS = ("skErr", "tcpDrop", "synRt", "pushRt", "finRt", "ackRt", "dropTx", "httpErr")


def errors(secs):
    """The error counters that are not zero over these seconds."""
    return {k: v for k, v in ((k, sum(s.get(k, 0) for s in secs)) for k in ERRS) if v}


# ---------------------------------------------------------------- scenarios

HELD = 0.97  # a level is held when its median reaches this share of the target


def cps_try(lv):
    """One client run at target lv against a fresh server: (secs, verdict, info)."""
    with Server():
        secs = run_client(lv)
    rates = [s.get("http2XX", 0) for s in secs]
    errs = errors(secs)
    med = stat(rates)["median"]
    skip = sum(s.get("launchSkip", 0) for s in secs)
    if not secs:
        verdict = "no steady seconds"
    elif errs:
        verdict = f"errors {errs}"
    elif med < HELD * parse_number(lv):
        verdict = f"error-free but short of the target (launchSkip {skip})"
    else:
        verdict = "held"
    log(f"  cps {lv}: {verdict}, median {med:.0f}/s, client busy {stat([s.get('cpu', 0) for s in secs])['median']:.0f}%, "
        f"client worker stalls >= 1 ms: {sum(s.get('stall', 0) for s in secs)} "
        f"({sum(s.get('stallUs', 0) for s in secs) / 1000:.1f} ms in all)")
    return secs, verdict, {"target": parse_number(lv), "cps": stat(rates), "errors": errs,
                           "launch_skip": skip}


def bench_cps():
    """Raise the target until a level is not held: error-free (no skErr,
    tcpDrop, retransmits, dropTx, httpErr) with a median of at least 97% of
    the target. A client that cannot keep up skips launches (launchSkip)
    instead of overflowing its peer, so the first level not held usually
    shows the saturation rate, error-free, short of its target."""
    levels = ["50k", "100k"] if SMOKE else ["200k", "400k", "600k", "800k", "900k", "1m", "1.1m",
                                             "1.2m", "1.35m", "1.5m", "1.6m", "1.75m", "2m", "2.25m", "2.5m"]
    best, tried, saturation = None, [], None
    for lv in levels:
        # A level counts as held when one of two tries holds it: this
        # shared 2-core box has stray stalls (see README). Each try gets
        # a fresh server: DPDK 22.11's memif PMD can crash the side that
        # stays when its peer disconnects (README, limits).
        kept = None
        for attempt in (1, 2):
            secs, verdict, info = cps_try(lv)
            if verdict == "held":
                break
            # A level not held reports its better try: error-free first.
            if kept is None or (not info["errors"], info["cps"]["median"]) > \
                    (not kept[2]["errors"], kept[2]["cps"]["median"]):
                kept = (secs, verdict, info)
        if verdict != "held":
            secs, verdict, info = kept
        info.update({"ok": verdict == "held", "tries": attempt})
        tried.append(info)
        if verdict != "held":
            saturation = info
            break
        best = {"secs": secs, "target": parse_number(lv)}
    if best is None:
        return {"median": 0, "min": 0, "max": 0, "cores": "1+1", "levels": tried}, None
    secs = best["secs"]
    res = stat([s["http2XX"] for s in secs])
    res.update({"target": best["target"], "cores": "1+1 (client+server)",
                "client_cpu_pct": stat([s["cpu"] for s in secs])["median"], "levels": tried,
                "next_level": saturation})
    res["packets_per_conn"] = per_unit(secs, "http2XX")
    pps = stat([s["pktTx"] for s in secs])["median"]
    return res, {"pps_one_way": pps, "target": best["target"]}


def per_unit(secs, unit):
    """Packets each way per request (or connection), from the client's
    counters over these seconds: its pktTx, and its pktRx (what the server
    sent it)."""
    n = sum(s.get(unit, 0) for s in secs)
    if not n:
        return {"tx": 0, "rx": 0}
    return {"tx": round(sum(s["pktTx"] for s in secs) / n, 3),
            "rx": round(sum(s["pktRx"] for s in secs) / n, 3)}


def bench_throughput():
    with Server("keepalive\npayload_size 1460"):
        secs = run_client("10k", "cc 200\nkeepalive_request_interval 1us")
    gbps = stat([s["bitsRx"] / 1e9 for s in secs])
    gbps.update({"cores": "1+1", "response_bytes": 1460, "connections": 200,
                 "errors": errors(secs)})
    return gbps


def bench_keepalive():
    """Requests per second on 200 keepalive connections, each sending its
    next 64-byte request as soon as the response is in (raw TCP), and the
    packets each way per request: 1 and 1 when every ACK rides on data."""
    with Server("keepalive\npayload_size 64"):
        secs = run_client("10k", "cc 200\nkeepalive_request_interval 1us\npayload_size 64")
    rps = stat([s.get("tcpRsp", 0) for s in secs])
    rps.update({"cores": "1+1", "message_bytes": 64, "connections": 200,
                "packets_per_request": per_unit(secs, "tcpRsp"), "errors": errors(secs)})
    return rps


def rss_of_table(pid, nbytes):
    """Rss (bytes) of the anonymous mapping holding the socket table."""
    best = 0
    with open(f"/proc/{pid}/smaps") as f:
        size = None
        for line in f:
            m = re.match(r"^([0-9a-f]+)-([0-9a-f]+) ", line)
            if m:
                size = int(m.group(2), 16) - int(m.group(1), 16)
            elif line.startswith("Rss:") and size is not None and abs(size - nbytes) < 4 << 20:
                best = max(best, int(line.split()[1]) * 1024)
    return best


def mem_available_mb():
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) // 1024
    return 0


def hugepages_used_mb():
    base = "/sys/kernel/mm/hugepages/hugepages-2048kB/"
    nr = int(open(base + "nr_hugepages").read())
    free = int(open(base + "free_hugepages").read())
    return (nr - free) * 2


def bench_cc(cc):
    tuples_per_listen = 200 * 65535
    global LISTEN
    LISTEN = max(1, -(-cc // (tuples_per_listen * 3 // 4)))
    n_sk = 200 * 65535 * LISTEN
    hold = 3 if SMOKE else 5
    ramp_cps = "200k" if SMOKE else "500k"
    ramp_s = cc / parse_number(ramp_cps) + 2
    # Each connection sends a request every interval: 60 s, or longer so
    # that the requests stay under 250k/s (150M connections at 60 s would
    # be 2.5M requests/s, more than a core per side can answer on top of
    # the ramp). The server's idle timeout follows its interval.
    ka = f"keepalive_request_interval {max(60, -(-cc // 250000))}s"
    res = {}
    with Server("keepalive\n" + ka) as server:
        def during(p):
            t_end = time.time() + ramp_s + 60
            while time.time() < t_end:
                out = subprocess.run([CTL, "-p", "bench-cli", "stats", "--json"], capture_output=True, text=True)
                if out.returncode == 0 and json.loads(out.stdout)["skCon"] >= cc:
                    break
                time.sleep(0.5)
            samples = []
            for _ in range(hold):
                time.sleep(1)
                out = subprocess.run([CTL, "-p", "bench-cli", "stats", "--json"], capture_output=True, text=True)
                samples.append(json.loads(out.stdout)["skCon"])
            res["held"] = stat(samples)
            res["table_rss"] = rss_of_table(p.pid, n_sk * 64)
            res["server_table_rss"] = rss_of_table(server.p.pid, n_sk * 64)
            res["hugepages_mb"] = hugepages_used_mb()
            res["mem_available_mb"] = mem_available_mb()
            subprocess.run([CTL, "-p", "bench-cli", "stop"], capture_output=True)
        run_client(ramp_cps, f"cc {cc}\n{ka}", during,
                   duration=int(ramp_s + hold + 90))
    LISTEN = 1
    out = res.get("held", stat([]))
    out.update({"target": cc, "cores": "1+1",
                "bytes_per_conn": round(res.get("table_rss", 0) / cc, 1) if cc else 0,
                "server_bytes_per_conn": round(res.get("server_table_rss", 0) / cc, 1) if cc else 0,
                "hugepage_mb_both_primaries": res.get("hugepages_mb", 0),
                "mem_available_mb_while_held": res.get("mem_available_mb", 0)})
    return out


def bench_tx_mpps():
    conf = write(os.path.join(TMP, "flood.conf"), f"""mode client
cpu 1
duration {RUN_S}s
cps 100m
port net_null0,no-rx=1 198.18.0.2 198.18.0.1 02:00:00:00:00:01
client 198.18.1.2 200
server 198.18.2.1 1
listen 80 1
protocol udp
flood
payload_size 18
slow_start 0
wait 1
launch_num 128
tx_burst 64
""")
    logf = os.path.join(TMP, "flood.log")
    p = start([DPERF, "-c", conf, "-p", "bench-flood"], logf)
    p.wait(60)
    secs = steady(seconds(logf))
    res = stat([s["pktTx"] / 1e6 for s in secs])
    res.update({"cores": "1", "frame_bytes": 60})
    return res


def bench_testpmd():
    tp = shutil.which("dpdk-testpmd")
    if not tp:
        return {"median": 0, "min": 0, "max": 0, "note": "dpdk-testpmd not installed"}
    sock = os.path.join(TMP, "tp.sock")
    dur = 10
    common = ["--no-pci", "--legacy-mem", "-m", "512", "--log-level=error"]
    rx = subprocess.Popen(
        ["bash", "-c", f"timeout -s INT {dur + 4} {tp} '--lcores=0@(0-1),1@0' --file-prefix=bench-tp-rx "
         f"--vdev=net_memif0,role=server,socket={sock},rsize=13 {' '.join(common)} -- "
         "--forward-mode=rxonly --stats-period=1 --nb-cores=1"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    PROCS.append(rx)
    time.sleep(2)
    tx = subprocess.Popen(
        ["bash", "-c", f"timeout -s INT {dur + 1} {tp} '--lcores=0@(0-1),1@1' --file-prefix=bench-tp-tx "
         f"--vdev=net_memif0,role=client,socket={sock},rsize=13 {' '.join(common)} -- "
         "--forward-mode=txonly --txpkts=64 --burst=64 --nb-cores=1 --stats-period=1"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    PROCS.append(tx)
    out, _ = rx.communicate(timeout=dur + 30)
    tx.wait(30)
    pps = [int(x) / 1e6 for x in re.findall(r"Rx-pps:\s+(\d+)", out)]
    # Seconds while the generator ran; its start and end are partial.
    pps = [x for x in pps if x > 0][1:-1] or pps
    res = stat(pps)
    res.update({"cores": "1+1", "mode": "txonly -> rxonly, 64-byte frames"})
    return res


def bench_attach_cost(target):
    with Server():
        base = run_client(target)

        def attach(p):
            tmux = shutil.which("tmux")
            if tmux:
                subprocess.run([tmux, "-L", "dperf-bench", "new-session", "-d", "-x", "100", "-y", "30",
                                f"{TOP} -p bench-cli -d 0.1"], check=False)
            start([CTL, "-p", "bench-cli", "stats", "--watch", "0.1"], os.path.join(TMP, "watch.log"))
        watched = run_client(target, during=attach)
        subprocess.run(["tmux", "-L", "dperf-bench", "kill-server"], capture_output=True)
    a = stat([s["http2XX"] for s in base])["median"]
    b = stat([s["http2XX"] for s in watched])["median"]
    return {"ratio": round(b / a, 4) if a else 0, "cps_without": a, "cps_with": b,
            "attached": "dperf-top -d 0.1 and dperf-ctl stats --watch 0.1", "target": target}


def bench_ctl_apply():
    lat = []
    with Server():
        def during(p):
            for i in range(5 if SMOKE else 20):
                out = subprocess.run([CTL, "-p", "bench-cli", "set", "cps", str(20000 + 1000 * (i % 2))],
                                     capture_output=True, text=True).stdout
                m = re.search(r"applied by all \d+ workers ([0-9.]+) us", out)
                if m:
                    lat.append(float(m.group(1)))
            subprocess.run([CTL, "-p", "bench-cli", "stop"], capture_output=True)
        run_client("20k", during=during, duration=120)
    return {"p50": round(statistics.median(lat), 1) if lat else 0, "max": round(max(lat), 1) if lat else 0,
            "samples": len(lat)}


LISTEN = 1


def main():
    if os.geteuid() != 0:
        raise SystemExit("bench: needs root (hugepages)")
    t0 = time.time()
    res = {"machine": {"cpus": os.cpu_count(), "cpu": open("/proc/cpuinfo").read().split("model name")[1].split("\n")[0].strip(" :\t"),
                       "link": "net_memif pair, one worker core per side"}}
    only = set(filter(None, os.environ.get("BENCH_ONLY", "").split(",")))
    unknown = only - set(SCENARIOS)
    if unknown:
        raise SystemExit(f"bench: BENCH_ONLY: unknown scenario(s) {', '.join(sorted(unknown))}; "
                         f"known: {', '.join(SCENARIOS)}")
    run = lambda name: not only or name in only
    cps_info = None
    if run("cps"):
        log("bench: cps search"); res["cps"], cps_info = bench_cps()
    if run("throughput"):
        log("bench: throughput"); res["throughput_gbps"] = bench_throughput()
    if run("keepalive"):
        log("bench: keepalive"); res["keepalive_rps"] = bench_keepalive()
    if run("cc"):
        cc = parse_number(os.environ.get("BENCH_CC", "200k" if SMOKE else "2m"))
        log(f"bench: cc {cc}"); res["cc"] = bench_cc(cc)
    if run("tx_mpps"):
        log("bench: tx_mpps"); res["tx_mpps"] = bench_tx_mpps()
    if run("testpmd"):
        log("bench: testpmd"); res["testpmd_mpps"] = bench_testpmd()
    if cps_info and res.get("testpmd_mpps", {}).get("median"):
        res["cps_link_ratio"] = round(cps_info["pps_one_way"] / 1e6 / res["testpmd_mpps"]["median"], 4)
    elif run("cps") and run("testpmd"):
        res["cps_link_ratio"] = 0
    target = cps_info["target"] if cps_info else 100000
    if run("attach"):
        log("bench: attach cost"); res["attach_cost"] = bench_attach_cost(target)
    if run("ctl"):
        log("bench: ctl apply"); res["ctl_apply_us"] = bench_ctl_apply()
    res["seconds"] = round(time.time() - t0)
    res["smoke"] = SMOKE
    table(res)
    print(json.dumps(res, separators=(",", ":")))


SCENARIOS = ("cps", "throughput", "keepalive", "cc", "tx_mpps", "testpmd", "attach", "ctl")


def next_level(n):
    if not n:
        return "none (all levels held)"
    errs = ", ".join(f"{k} {v}" for k, v in n["errors"].items()) or "none"
    return f"{n['target']:.0f} / {n['cps']['median']:.0f} / {errs}"


def table(r):
    def mmm(d, fmt="{:.0f}"):
        return f"{fmt.format(d['median'])} ({fmt.format(d['min'])}..{fmt.format(d['max'])})"
    rows = []
    if "cps" in r:
        rows += [("cps (error-free, HTTP short connections)", mmm(r["cps"]), r["cps"].get("cores", "")),
                 ("  next level: target / achieved / errors", next_level(r["cps"].get("next_level")), "")]
        if "packets_per_conn" in r["cps"]:
            ppc = r["cps"]["packets_per_conn"]
            rows.append(("  packets per connection: client tx / rx", f"{ppc['tx']} / {ppc['rx']}", ""))
    if "throughput_gbps" in r:
        rows.append(("throughput_gbps (keepalive, 1460-byte responses)", mmm(r["throughput_gbps"], "{:.2f}"), "1+1"))
    if "keepalive_rps" in r:
        ppr = r["keepalive_rps"]["packets_per_request"]
        rows += [("keepalive_rps (cc 200, 64-byte messages)", mmm(r["keepalive_rps"]), "1+1"),
                 ("  packets per request: client tx / rx", f"{ppr['tx']} / {ppr['rx']}", "")]
    if "cc" in r:
        rows.append(("cc held / bytes_per_conn", f"{mmm(r['cc'])} / {r['cc']['bytes_per_conn']}", "1+1"))
    if "tx_mpps" in r:
        rows.append(("tx_mpps (UDP flood to net_null)", mmm(r["tx_mpps"], "{:.2f}"), "1"))
    if "testpmd_mpps" in r:
        rows.append(("testpmd_mpps (memif txonly->rxonly)",
                     mmm(r["testpmd_mpps"], "{:.2f}") if "min" in r["testpmd_mpps"] else "n/a", "1+1"))
    if "cps_link_ratio" in r:
        rows.append(("cps_link_ratio", f"{r['cps_link_ratio']}", ""))
    if "attach_cost" in r:
        rows.append(("attach_cost (cps with/without viewers)", f"{r['attach_cost']['ratio']}", ""))
    if "ctl_apply_us" in r:
        rows.append(("ctl_apply_us p50 / max", f"{r['ctl_apply_us']['p50']} / {r['ctl_apply_us']['max']}", ""))
    w = max(len(a) for a, _, _ in rows)
    print(f"{'figure'.ljust(w)}  {'median (min..max)'.ljust(28)}  cores")
    for a, b, c in rows:
        print(f"{a.ljust(w)}  {b.ljust(28)}  {c}")


if __name__ == "__main__":
    try:
        main()
    finally:
        for p in PROCS:
            if p.poll() is None:
                p.terminate()
                try:
                    p.wait(10)
                except subprocess.TimeoutExpired:
                    p.kill()
        subprocess.run(["tmux", "-L", "dperf-bench", "kill-server"], capture_output=True)
        shutil.rmtree(TMP, ignore_errors=True)
        # testpmd stopped by SIGINT leaves its runtime directory behind.
        # So does a primary that had to be killed; every process of the run has ended here.
        for d in ("bench-tp-rx", "bench-tp-tx", "bench-srv", "bench-cli", "bench-flood"):
            shutil.rmtree(os.path.join("/var/run/dpdk", d), ignore_errors=True)
