#!/usr/bin/env python3
"""scripts/bench.py's judging, without DPDK: its verdicts, error counts and
parsing are driven with made-up primaries' outputs (the processes replaced
by stand-ins), so that a figure the bench prints cannot hide what went
wrong. Run by `make unit` with /usr/bin/python3."""
import importlib.util
import os
import shutil
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
spec = importlib.util.spec_from_file_location("bench", os.path.join(ROOT, "scripts", "bench.py"))
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)

CLEAN_CLIENT = {"httpGet": 1000, "http2XX": 1000, "skCon": 0, "pktTx": 3000}
CLEAN_SERVER = {"httpGet": 1000, "http2XX": 1000, "skCon": 0}


def second(n, **c):
    return dict({"sec": n, "state": "running", "cpu": 50.0, "http2XX": 0, "pktTx": 0, "pktRx": 0,
                 "bitsRx": 0, "tcpRsp": 0}, **c)


def run_of(rate, total, n=6):
    """A client run: n running seconds at rate, and its summary."""
    return bench.Run([second(i + 1, http2XX=rate, bitsRx=rate * 8, tcpRsp=rate) for i in range(n)], total)


class Patched(unittest.TestCase):
    """Replaces the bench's processes (server, client) with stand-ins."""

    def setUp(self):
        self.saved = {k: getattr(bench, k) for k in ("Server", "run_client", "attach_viewers",
                                                     "detach_viewers", "log", "start", "tls_extras",
                                                     "tls_ref_run", "TLS_ANSWER_ROUNDS")}
        self.saved_which = bench.shutil.which
        bench.log = lambda msg: None
        self.runs, self.servers, self.calls, self.extras = [], [], [], []
        # tls_ref's runs, in order (ref_beside: one before a figure, one after)
        self.ref_runs, self.ref_calls, self.server_secs = [], [], []
        test = self

        def fake_ref(name, pace=None):
            test.ref_calls.append(name if pace is None else (name, pace))
            return test.ref_runs.pop(0) if test.ref_runs else {"server_per_cpu_s": 1000, "client_per_cpu_s": 1000}
        bench.tls_ref_run = fake_ref

        class FakeServer:
            def __init__(self, extra=""):
                pass

            def __enter__(self):
                return self

            def __exit__(self, *a):
                self.total = test.servers.pop(0)
                if test.server_secs:
                    self.secs = test.server_secs.pop(0)

        def fake_run(cps, extra="", during=None, duration=None, wait=1):
            test.calls.append("with" if during else "without")
            test.extras.append(extra)
            if during:
                during(None)
            return test.runs.pop(0)
        bench.Server, bench.run_client = FakeServer, fake_run
        bench.tls_extras = lambda resume, cert="ec": ("server tls", f"client tls_resume {resume} {cert}")

    def tearDown(self):
        for k, v in self.saved.items():
            setattr(bench, k, v)
        bench.shutil.which = self.saved_which


class Held(unittest.TestCase):
    """CPS "held" is judged on both sides over the whole level."""

    def test_clean_level_held(self):
        errs = bench.level_errors(CLEAN_CLIENT, CLEAN_SERVER)
        self.assertEqual(errs, {})
        self.assertEqual(bench.verdict(1000, [1000, 990, 1001], errs), "held")

    def test_server_drop_fails_level(self):
        # The server's drops were hidden when only the client's seconds
        # were read (the server ran quiet).
        errs = bench.level_errors(CLEAN_CLIENT, dict(CLEAN_SERVER, tcpDrop=5))
        self.assertEqual(errs, {"server tcpDrop": 5})
        self.assertTrue(bench.verdict(1000, [1000] * 3, errs).startswith("errors server tcpDrop 5"))

    def test_errors_outside_steady_seconds_count(self):
        # A retransmit in the ramp or the drain is in the summary, not in
        # the steady seconds the rate is taken from.
        for k in ("synRt", "finRt", "imissed", "rxNombuf", "badRx"):
            errs = bench.level_errors(dict(CLEAN_CLIENT, **{k: 1}), CLEAN_SERVER)
            self.assertEqual(errs, {"client " + k: 1}, k)

    def test_unanswered_and_left_open(self):
        errs = bench.level_errors(dict(CLEAN_CLIENT, http2XX=997, skCon=3), CLEAN_SERVER)
        self.assertEqual(errs, {"client unanswered": 3, "client open at end": 3})

    def test_short_of_target(self):
        self.assertTrue(bench.verdict(1000, [900, 950, 960], {}, 7).startswith("error-free but short"))
        self.assertEqual(bench.verdict(1000, [], {}), "no steady seconds")


class CpsTry(Patched):
    def test_server_summary_is_judged(self):
        self.runs = [run_of(50000, dict(CLEAN_CLIENT))]
        self.servers = [dict(CLEAN_SERVER, skErr=2)]
        secs, v, info = bench.cps_try("50k")
        self.assertEqual(info["errors"], {"server skErr": 2})
        self.assertNotEqual(v, "held")
        self.assertEqual(info["judged"]["server_requests"], 1000)

    def test_client_whole_run_is_judged(self):
        # Clean steady seconds; a SYN retransmitted in the ramp is in the
        # client's summary only.
        self.runs = [run_of(50000, dict(CLEAN_CLIENT, synRt=1))]
        self.servers = [dict(CLEAN_SERVER)]
        secs, v, info = bench.cps_try("50k")
        self.assertEqual(v, "errors client synRt 1")


class Keepalive(Patched):
    def test_errors_in_both_tries_fail_the_figure(self):
        self.runs = [run_of(10, dict(CLEAN_CLIENT, pushRt=4)), run_of(10, dict(CLEAN_CLIENT))]
        self.servers = [dict(CLEAN_SERVER), dict(CLEAN_SERVER, dropTx=1)]
        res = bench.bench_throughput()
        self.assertEqual(res["tries"], 2)
        self.assertEqual(res["errors"], {"server dropTx": 1})
        self.assertIn("server dropTx 1", res["failed"])
        self.assertEqual(bench.failures({"throughput_gbps": res}), ["throughput_gbps: errors server dropTx 1"])
        self.assertTrue(bench.judged(res).startswith("FAILED (2 tries)"))

    def test_second_clean_try_counts(self):
        self.runs = [run_of(10, dict(CLEAN_CLIENT, ackRt=1)), run_of(10, dict(CLEAN_CLIENT))]
        self.servers = [dict(CLEAN_SERVER), dict(CLEAN_SERVER)]
        res = bench.bench_throughput()
        self.assertEqual((res["tries"], res["errors"]), (2, {}))
        self.assertNotIn("failed", res)
        self.assertEqual(bench.failures({"throughput_gbps": res}), [])


def good_run(gbps, total, n=6):
    """A client run receiving gbps of goodput (goodRx) each second."""
    return bench.Run([second(i + 1, goodRx=int(gbps * 1e9)) for i in range(n)], total)


class Loss(Patched):
    """The loss scenario: goodput kept, retransmits per drop, no error but
    the drops and resends themselves."""

    def loss(self, gbps, client=None, server=None):
        """LOSS_ROUNDS rounds of a lossless run at 10 Gbit/s and a lossy
        one at gbps; each lossy run's counts are client and server."""
        self.runs, self.servers = [], []
        for _ in range(bench.LOSS_ROUNDS):
            self.runs += [good_run(10, dict(CLEAN_CLIENT)), good_run(gbps, dict(CLEAN_CLIENT, **(client or {})))]
            self.servers += [dict(CLEAN_SERVER), dict(CLEAN_SERVER, **(server or {}))]
        return bench.bench_loss()

    def test_recovered(self):
        res = self.loss(9, {"testDrop": 100, "tcpDrop": 130}, {"pushRt": 150})
        self.assertNotIn("failed", res)
        self.assertEqual((res["kept"], res["rt_per_drop"]), (0.9, 1.5))
        self.assertEqual((res["drops"], res["retransmits"]), (200, 300))  # both lossy runs
        self.assertEqual(bench.failures({"loss": res}), [])

    def test_interleaved_medians(self):
        # A B A B: lossless and lossy runs alternate, each a fresh
        # server, and the medians of all their seconds are compared: a
        # lossless run at 14 then one at 8 (the box busy meanwhile)
        # against lossy runs at 9 and 9 keep 9 / 11, not 9 / 14
        self.assertEqual(bench.LOSS_ROUNDS, 2)
        lossy = dict(CLEAN_CLIENT, testDrop=100)
        self.runs = [good_run(14, dict(CLEAN_CLIENT)), good_run(9, dict(lossy)),
                     good_run(8, dict(CLEAN_CLIENT)), good_run(9, dict(lossy))]
        self.servers = [dict(CLEAN_SERVER), dict(CLEAN_SERVER, pushRt=100)] * 2
        res = bench.bench_loss()
        self.assertEqual(["test_rx_drop" in e for e in self.extras], [False, True, False, True])
        self.assertEqual(res["lossless_gbps"]["median"], 11)
        self.assertEqual(res["kept"], round(9 / 11, 3))
        self.assertEqual([(r["lossless"], r["lossy"]) for r in res["rounds"]], [(14, 9), (8, 9)])
        self.assertNotIn("failed", res)

    def test_goodput_lost(self):
        res = self.loss(5, {"testDrop": 100, "tcpDrop": 100}, {"pushRt": 100})
        self.assertIn("goodput with loss 50% of the lossless one", res["failed"])

    def test_too_many_resent(self):
        # NewReno after a loss resends what the peer had kept
        res = self.loss(9, {"testDrop": 100, "tcpDrop": 900}, {"pushRt": 151})
        self.assertIn("302 segments retransmitted for 200 drops", res["failed"])

    def test_http_error(self):
        res = self.loss(9, {"testDrop": 100, "httpErr": 1}, {"pushRt": 100})
        self.assertIn("errors client httpErr 2", res["failed"])  # one in each lossy run

    def test_nothing_dropped(self):
        res = self.loss(10, {}, {})
        self.assertIn("dropped nothing", res["failed"])

    def large_then_loss(self, smoke):
        """bench_large then bench_loss, in a smoke run or not: (loss figure,
        which runs had test_rx_drop)."""
        saved = bench.SMOKE, bench.LOSS_ROUNDS
        bench.SMOKE, bench.LOSS_ROUNDS = smoke, 1
        bench.SMOKE_RUNS.clear()
        try:
            self.runs = [good_run(10, dict(CLEAN_CLIENT)), good_run(1, dict(CLEAN_CLIENT))]
            self.servers = [dict(CLEAN_SERVER), dict(CLEAN_SERVER)]
            if not smoke:
                self.runs.append(good_run(8, dict(CLEAN_CLIENT)))
                self.servers.append(dict(CLEAN_SERVER))
            self.runs.append(good_run(9, dict(CLEAN_CLIENT, testDrop=100)))
            self.servers.append(dict(CLEAN_SERVER, pushRt=100))
            bench.bench_large()
            res = bench.bench_loss()
        finally:
            bench.SMOKE, bench.LOSS_ROUNDS = saved
            bench.SMOKE_RUNS.clear()
        self.assertEqual((self.runs, self.servers), ([], []))  # every run given was made, no more
        return res, ["test_rx_drop" in e for e in self.extras]

    def test_smoke_lossless_is_the_large_run(self):
        # a smoke run: the large scenario's 1 MB run (the same server and
        # client) is the loss scenario's lossless run, not made again
        res, drops = self.large_then_loss(True)
        self.assertEqual(drops, [False, False, True])
        self.assertEqual((res["lossless_gbps"]["median"], res["lossy_gbps"]["median"]), (10, 9))
        self.assertNotIn("failed", res)

    def test_full_bench_makes_its_own_lossless_run(self):
        res, drops = self.large_then_loss(False)
        self.assertEqual(drops, [False, False, False, True])
        self.assertEqual((res["lossless_gbps"]["median"], res["lossy_gbps"]["median"]), (8, 9))

    def test_lossless_errors(self):
        self.runs = [good_run(10, dict(CLEAN_CLIENT, pushRt=3)), good_run(9, dict(CLEAN_CLIENT, testDrop=10)),
                     good_run(10, dict(CLEAN_CLIENT)), good_run(9, dict(CLEAN_CLIENT, testDrop=10))]
        self.servers = [dict(CLEAN_SERVER)] * 4
        res = bench.bench_loss()
        self.assertIn("without loss: errors client pushRt 3", res["failed"])


class Attach(Patched):
    def test_interleaved_pairs_and_spread(self):
        bench.attach_viewers = lambda: ("dperf-top -d 0.1, dperf-ctl stats --watch 0.1", 2.0, None)
        bench.detach_viewers = lambda w: None
        rates = [900, 1000, 1000, 1000, 990, 1000]   # with, without, ...
        self.runs = [run_of(r, dict(CLEAN_CLIENT)) for r in rates]
        self.servers = [dict(CLEAN_SERVER) for _ in rates]
        res = bench.bench_attach_cost(1000, "test")
        self.assertEqual(self.calls, ["with", "without"] * 3)
        self.assertEqual(len(res["pairs"]), 3)
        self.assertEqual((res["ratio"], res["ratio_min"], res["ratio_max"]), (0.99, 0.9, 1.0))
        # Steady seconds 2..5 (1 is the ramp, 6 partial); second 2 (1 s
        # to 2 s) is not after the viewers read (2.0 s): 3 are used.
        self.assertEqual(res["pairs"][0]["seconds_with"], 3)
        self.assertNotIn("failed", res)

    def test_no_second_after_attach_fails(self):
        bench.attach_viewers = lambda: ("x", float("inf"), None)
        bench.detach_viewers = lambda w: None
        self.runs = [run_of(1000, dict(CLEAN_CLIENT)) for _ in range(6)]
        self.servers = [dict(CLEAN_SERVER) for _ in range(6)]
        res = bench.bench_attach_cost(1000, "test")
        self.assertIsNone(res["pairs"][0]["viewers_reading_after_s"])
        self.assertIn("no steady second", res["failed"])

    def test_without_tmux_says_top_not_attached(self):
        tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, tmp)
        bench.TMP = tmp

        class Proc:
            def poll(self):
                return None

        def fake_start(args, out, nice=False):
            with open(out, "w") as f:
                f.write('{"elapsed":2.500,"cps":1}\n{"elapsed":2.600,"cps":1}\n{"elapsed":2.7')
            return Proc()
        bench.start = fake_start
        bench.shutil.which = lambda name: None
        what, ready, watch = bench.attach_viewers()
        self.assertEqual(ready, 2.6)   # the last complete line, on the client's clock
        self.assertIn("dperf-top NOT attached (tmux is not installed)", what)
        self.assertIn("dperf-ctl stats --watch 0.1", what)
        self.assertNotIn("dperf-top -d", what)


class CtlApply(unittest.TestCase):
    def test_every_sample_counts(self):
        outs = ["accepted: cps 20000 (generation 2)\napplied by all 1 workers 80.5 us after it was sent\n",
                "accepted: cps 21000 (generation 3)\napplied by 0 of 1 workers within 1 s\n",
                "accepted: cps 20000 (generation 4)\napplied by all 1 workers 120.0 us after it was sent\n",
                ""]
        r = bench.apply_latency(outs)
        self.assertEqual((r["samples"], r["over_1s"], r["unanswered"]), (4, 1, 1))
        self.assertEqual(r["max"], 1e6)
        self.assertEqual(r["p50"], 120.0)

    def test_all_late(self):
        r = bench.apply_latency(["applied by 1 of 2 workers within 1 s\n"] * 3)
        self.assertEqual((r["samples"], r["over_1s"], r["p50"]), (3, 3, 1e6))


class TlsCrypto(unittest.TestCase):
    # openssl speed -mr -seconds 1 rsa2048 ecdhx25519 ecdsap256 (OpenSSL 3.0.19), its last lines
    SPEED = ("+H:253\n+F2:2:2048:1816.279070:38401.162791\n+F4:3:256:39321.428571:11872.727273\n"
             "+F5:22:253:23696.000000:0.000042\n")

    def test_ceilings_from_the_operations(self):
        r = bench.parse_speed(self.SPEED)
        self.assertEqual((r["x25519_ops"], r["ecdsap256_sign"], r["ecdsap256_verify"]), (23696, 39321, 11873))
        # server: 2 X25519 + 1 sign; client: 2 X25519 + 1 verify; resumed: 2 X25519
        self.assertEqual(r["server_full_hs"], round(1 / (2 / 23696 + 1 / 39321.428571)))
        self.assertEqual(r["client_full_hs"], round(1 / (2 / 23696 + 1 / 11872.727273)))
        self.assertEqual(r["resumed_hs"], 11848)
        # RSA-2048: the server's ceiling is its signature's, the client's far above
        self.assertEqual((r["rsa2048_sign"], r["rsa2048_verify"]), (1816, 38401))
        self.assertEqual(r["server_full_hs_rsa2048"], round(1 / (2 / 23696 + 1 / 1816.279070)))
        self.assertEqual(r["client_full_hs_rsa2048"], round(1 / (2 / 23696 + 1 / 38401.162791)))

    def test_missing_line_fails(self):
        r = bench.parse_speed("+F4:3:256:39321.428571:11872.727273\n+F2:2:2048:1816.2:38401.1\n")
        self.assertEqual(r, {"failed": "openssl speed printed no x25519_ops"})
        self.assertIn("x25519_ops", bench.failures({"tls_crypto": r})[0])
        # an RSA line of another size is not RSA-2048's
        r = bench.parse_speed(self.SPEED.replace(":2048:", ":4096:"))
        self.assertEqual(r, {"failed": "openssl speed printed no rsa2048_sign"})


class InOpenssl(unittest.TestCase):
    """Each side's tlsUs beside its busy time, over the same seconds."""

    def test_shares_and_own_cost(self):
        cli = [{"cpu": 90, "tlsUs": 810000, "http2XX": 2000}, {"cpu": 80, "tlsUs": 760000, "http2XX": 2000}]
        srv = [{"cpu": 50, "tlsUs": 400000, "http2XX": 2000}, {"cpu": 30, "tlsUs": 240000, "http2XX": 2000}]
        o = bench.in_openssl(cli, srv)
        # client: 1.7 s busy, 1.57 s in OpenSSL, 4000 answers
        self.assertEqual(o["client"], {"share": 0.924, "openssl_us": 392.5, "own_us": 32.5})
        # server: 0.8 s busy, 0.64 s in OpenSSL
        self.assertEqual(o["server"], {"share": 0.8, "openssl_us": 160.0, "own_us": 40.0})

    def test_none_without_tls(self):
        secs = [{"cpu": 50, "http2XX": 10}]
        self.assertEqual(bench.in_openssl(secs, secs), {})
        self.assertEqual(bench.in_openssl([{"cpu": 0, "tlsUs": 5, "http2XX": 1}], [{"cpu": 1, "tlsUs": 5, "http2XX": 1}]), {})


class TlsRef(unittest.TestCase):
    """tls_ref's runs read from its JSON line, each certificate and
    resumption under its name; a run that fails fails the figure."""

    def setUp(self):
        self.saved = (bench.TLS_REF, bench.tls_cert)
        self.dir = tempfile.mkdtemp()
        bench.tls_cert = lambda kind: (f"{kind}-cert.pem", f"{kind}-key.pem")

    def tearDown(self):
        bench.TLS_REF, bench.tls_cert = self.saved
        shutil.rmtree(self.dir)

    def tool(self, body):
        bench.TLS_REF = os.path.join(self.dir, "tls_ref")
        with open(bench.TLS_REF, "w") as f:
            f.write("#!/bin/sh\n" + body)
        os.chmod(bench.TLS_REF, 0o755)

    def test_runs_by_name(self):
        # echoes its arguments' resumption and certificate back as figures
        self.tool('eval "cert=\\${$(($#-1))}"\n'
                  'echo "{\\"resume\\":\\"$4\\",\\"cert\\":\\"$cert\\",\\"server_per_cpu_s\\":1}"\n')
        r = bench.bench_tls_ref()
        self.assertEqual(r["ec_full"], {"resume": "none", "cert": "ec-cert.pem", "server_per_cpu_s": 1})
        self.assertEqual(r["ec_resumed"]["resume"], "tickets")
        self.assertEqual(r["rsa2048_full"]["cert"], "rsa2048-cert.pem")
        self.assertNotIn("failed", r)
        # the answers' runs (issue 38): -m MODE -s BYTES, under their names
        self.tool('echo "{\\"a2\\":\\"$2\\",\\"a4\\":\\"$4\\"}"\n')
        r = bench.bench_tls_ref()
        self.assertEqual(r["ka_1460"], {"a2": "keepalive", "a4": "1460"})
        self.assertEqual(r["bulk_1m"], {"a2": "bulk", "a4": "1000000"})

    def test_each_side_on_its_core(self):
        # each run says the core it was pinned to: the server's figures
        # come from CPU 0's run, the client's from CPU 1's, both at once
        self.tool('c=$(awk \'/Cpus_allowed_list/ {print $2}\' /proc/self/status)\n'
                  'echo "{\\"server_per_cpu_s\\":$((100+c)),\\"server_us\\":$c,\\"client_per_cpu_s\\":$((200+c)),'
                  '\\"client_mean_us\\":$c,\\"resumed\\":$c}"\n')
        r = bench.tls_ref_run("ec_full")
        self.assertEqual(r, {"server_per_cpu_s": 100, "server_us": 0, "resumed": 0,
                             "client_per_cpu_s": 201, "client_mean_us": 1})
        # either run failing fails it
        self.tool('c=$(awk \'/Cpus_allowed_list/ {print $2}\' /proc/self/status)\n'
                  '[ "$c" = 1 ] && { echo "tls_ref: cpu 1 failed" >&2; exit 3; }\necho "{}"\n')
        self.assertEqual(bench.tls_ref_run("ec_full"), {"failed": "tls_ref ec_full exited 3: tls_ref: cpu 1 failed"})

    def test_paced(self):
        # paced at a level's rate: about a second of connections (at least
        # 200, at most the run's 2000), -p the rate; unpaced as before
        self.tool('echo "{\\"args\\":\\"$*\\"}"\n')
        args = lambda pace: bench.tls_ref_run("ec_resumed", pace)["args"].split()
        self.assertEqual(args(250)[:6], ["-n", "250", "-r", "tickets", "-p", "250"])
        self.assertEqual(args(100)[:6], ["-n", "200", "-r", "tickets", "-p", "100"])
        self.assertEqual(args(5000)[:6], ["-n", "2000", "-r", "tickets", "-p", "5000"])
        self.assertEqual(args(None)[:5], ["-n", "2000", "-r", "tickets", "-g"])
        self.assertEqual(bench.tls_ref_runs()["ec_resumed"][0][:2], ["-n", "2000"])  # left as it was

    def test_failure_fails_the_figure(self):
        self.tool("echo 'tls_ref: a connection failed' >&2; exit 1\n")
        r = bench.bench_tls_ref()
        self.assertEqual(r, {"failed": "tls_ref ec_full exited 1: tls_ref: a connection failed"})
        self.assertIn("tls_ref ec_full exited 1", bench.failures({"tls_ref": r})[0])


TLS_CLIENT = dict(CLEAN_CLIENT, tlsHs=1000, tlsHsDone=1000, tlsResumed=0)
CRYPTO = {"server_full_hs": 1000, "client_full_hs": 800, "resumed_hs": 2000}


class TlsCps(Patched):
    """The HTTPS CPS searches: TLS failures fail a level, the figure is set
    beside the crypto's ceilings."""

    def test_tls_failure_fails_level(self):
        for k in ("tlsFailEof", "tlsFailTimeout", "tlsFailAlert", "tlsErr"):
            self.assertEqual(bench.level_errors(dict(TLS_CLIENT, **{k: 2}), CLEAN_SERVER), {"client " + k: 2}, k)

    def test_full_handshakes_over_the_ceiling(self):
        # 250 and 500 held; 750 had handshakes time out on the server in both tries
        self.runs = [run_of(250, TLS_CLIENT), run_of(500, TLS_CLIENT), run_of(990, TLS_CLIENT),
                     run_of(995, TLS_CLIENT)]
        self.servers = [CLEAN_SERVER, CLEAN_SERVER, dict(CLEAN_SERVER, tlsFailTimeout=3),
                        dict(CLEAN_SERVER, tlsFailTimeout=1)]
        r = bench.bench_tls_cps("none", CRYPTO)
        self.assertEqual(self.extras, ["client tls_resume none ec"] * 4)
        self.assertEqual((r["median"], r["target"]), (500, 500))
        self.assertEqual(r["of_crypto_ceiling"], {"server_full_hs": 0.5, "client_full_hs": 0.625})
        self.assertEqual(r["next_level"]["errors"], {"server tlsFailTimeout": 1})
        self.assertEqual(r["resumed_share"], 0)
        self.assertNotIn("failed", r)
        import io
        import contextlib
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            bench.table({"tls_cps": r})
        self.assertIn("server_full_hs 50%, client_full_hs 62%", out.getvalue())
        self.assertEqual(r["error_free_cps"], 500)
        self.assertIn("750 / 995 / server tlsFailTimeout 1", out.getvalue())

    def test_resumed_over_the_key_exchange(self):
        resumed = dict(TLS_CLIENT, tlsResumed=990)
        self.runs = [run_of(250, resumed), run_of(500, resumed), run_of(800, resumed), run_of(700, resumed)]
        self.servers = [CLEAN_SERVER] * 4
        r = bench.bench_tls_cps("tickets", CRYPTO)
        # the first level not held (800 of 1k), error-free, is the rate
        self.assertEqual(r["next_level"]["cps"]["median"], 800)
        self.assertEqual((r["median"], r["error_free_cps"]), (500, 800))
        self.assertEqual(r["of_crypto_ceiling"], {"resumed_hs": 0.4})
        self.assertNotIn("target_70pct_met", r)  # the target is full handshakes'
        self.assertEqual(r["resumed_share"], 0.99)

    def test_server_busy_ratio_and_nothing_held(self):
        # 250 short of its target (200/s), error-free: no level held, the
        # rate still measured; the server 25% busy -> 800/s per busy core
        self.runs = [run_of(200, TLS_CLIENT), run_of(200, TLS_CLIENT)]
        self.servers = [CLEAN_SERVER] * 2

        class BusyServer(bench.Server):
            def __exit__(s, *a):
                super().__exit__(*a)
                s.secs = [bench.steady([second(i + 1, cpu=25.0) for i in range(6)])[0]]
        bench.Server = BusyServer
        r = bench.bench_tls_cps("none", CRYPTO)
        self.assertIn("no level held", r["failed"])
        # the level not held is the next level, not "all levels held"
        self.assertEqual(r["next_level"]["cps"]["median"], 200)
        self.assertEqual(r["error_free_cps"], 200)
        self.assertEqual(r["of_crypto_ceiling"], {"server_full_hs": 0.2, "client_full_hs": 0.25})
        self.assertEqual(r["server_busy_ratio"], 0.8)

    def test_rsa_against_both_references(self):
        # RSA-2048: 250, 500, 750 held, 1k reached 900 error-free. The
        # server ran idle seconds before and after the client (cpu 1, no
        # answers): its busy share is read over the seconds it answered.
        self.runs = [run_of(r, TLS_CLIENT) for r in (250, 500, 750, 900, 880)]
        self.servers = [CLEAN_SERVER] * 5
        busy = iter([25.0, 45.0, 65.0, 77.0, 75.4])
        rates = iter([250, 500, 750, 900, 880])

        class BusyServer(bench.Server):
            def __exit__(s, *a):
                s.total = self.servers.pop(0)
                cpu, rate = next(busy), next(rates)
                s.secs = ([second(1, cpu=1.0)] * 3 + [second(i, cpu=cpu, http2XX=rate) for i in range(4)] +
                          [second(9, cpu=1.0)] * 4)
        bench.Server = BusyServer
        crypto = dict(CRYPTO, server_full_hs_rsa2048=1200, client_full_hs_rsa2048=9000)
        # tls_ref before and after each level, paced at its rate: the 250
        # level between 1000 and 1500 (1250), the 500 level between 1500
        # and 1250 (1375), the others 1250 for the server
        a = {"server_per_cpu_s": 1000, "client_per_cpu_s": 1400}
        b = {"server_per_cpu_s": 1500, "client_per_cpu_s": 1600}
        c = {"server_per_cpu_s": 1250, "client_per_cpu_s": 1500}
        self.ref_runs = [dict(a, server_us=1), b, b, c, c, c, c, c]
        r = bench.bench_tls_cps("none", crypto, "rsa2048")
        self.assertEqual(self.ref_calls, [("rsa2048_full", n) for n in (250, 250, 500, 500, 750, 750, 1000, 1000)])
        self.assertEqual(r["tls_ref"], {"server_per_cpu_s": 1281, "client_per_cpu_s": 1512,
                                        "runs": [a, b, b, c, c, c, c, c]})
        self.assertEqual(self.extras[0], "client tls_resume none rsa2048")
        self.assertEqual((r["target"], r["error_free_cps"], r["error_free_server_cpu_pct"]), (750, 900, 77.0))
        self.assertEqual(r["of_crypto_ceiling"], {"server_full_hs_rsa2048": 0.75, "client_full_hs_rsa2048": 0.1})
        self.assertTrue(r["target_70pct_met"])
        # per busy core, each level over tls_ref beside it: server
        # 1000/1250, 1111/1375, 1154/1250, 1169/1250 -> median of 0.8,
        # 0.808, 0.923, 0.935; client 50% busy at each: 500..1800 over
        # 1500, 1550, 1500, 1500
        o = r["of_openssl_handshake"]
        self.assertEqual(o["server_per_busy_core_levels"], [[1000, 0.8], [1111, 0.808], [1154, 0.923], [1169, 0.935]])
        self.assertEqual(o["client_per_busy_core_levels"], [[500, 0.333], [1000, 0.645], [1500, 1.0], [1800, 1.2]])
        self.assertEqual((o["server"], o["server_per_busy_core"], o["client_per_busy_core"]), (0.72, 0.866, 0.823))
        self.assertFalse(o["target_90pct_met"])
        # 8% of a core per 100/s more between levels: 800 µs per connection
        self.assertEqual(r["server_us_per_conn_slope"], 800.0)
        self.assertIsNone(bench.busy_slope(r["levels"][:1]))
        rows = dict((a, b) for a, b, _ in bench.tls_rows({"tls_cps_rsa": r}))
        self.assertEqual(rows["  tls_ref before and after each level, at its pace, per CPU-second: server / client, mean (each run)"],
                         "1281 / 1512 (1000 / 1400; 1500 / 1600; 1500 / 1600; "
                         + "; ".join(["1250 / 1500"] * 5) + ")")
        self.assertEqual(rows["  per busy core and of tls_ref beside, levels at least 20% busy: server; client"],
                         "1000/80% 1111/81% 1154/92% 1169/94%; 500/33% 1000/64% 1500/100% 1800/120%")

    def test_per_busy_core_levels(self):
        ref = lambda n: {"server_per_cpu_s": n, "client_per_cpu_s": n}
        lv = lambda cps, srv, errors=None, between=(ref(1000), ref(1000)): {
            "cps": {"median": cps}, "server_cpu_pct": srv, "errors": errors or {}, "between": list(between)}
        # a level under 20% busy, a level with errors and one whose
        # tls_ref failed count for nothing; each against its own tls_ref
        self.assertEqual(bench.per_busy_core([lv(100, 10), lv(500, 50), lv(900, 60, {"client tcpDrop": 1}),
                                              lv(600, 40, between=(ref(1000), ref(2000))),
                                              lv(800, 40, between=(ref(1000), {"failed": "x"})),
                                              lv(700, 70)], "server"),
                         (1.0, [[1000, 1.0], [1500, 1.0], [1000, 1.0]]))
        # none that busy: the best error-free level
        self.assertEqual(bench.per_busy_core([lv(100, 10), lv(150, 12)], "server"), (1.25, [[1250, 1.25]]))
        self.assertEqual(bench.per_busy_core([], "server"), (0, []))

    def test_tls_ref_failed_fails_search(self):
        # 250 held, 500 reached 400 error-free; tls_ref failed after 250
        self.runs = [run_of(250, TLS_CLIENT), run_of(400, TLS_CLIENT), run_of(400, TLS_CLIENT)]
        self.servers = [CLEAN_SERVER] * 3
        self.ref_runs = [{"server_per_cpu_s": 1000, "client_per_cpu_s": 1000},
                         {"failed": "tls_ref ec_full exited 1: x"}]
        r = bench.bench_tls_cps("none", CRYPTO)
        self.assertEqual(r["failed"], "tls_ref ec_full exited 1: x")
        self.assertNotIn("of_openssl_handshake", r)
        self.assertEqual(r["error_free_cps"], 400)

    def test_reference_failed_beside(self):
        self.ref_runs = [{"server_per_cpu_s": 1, "client_per_cpu_s": 1}, {"failed": "tls_ref ec_full exited 1: x"}]
        out, ref = bench.ref_beside("ec_full", lambda: 7)
        self.assertEqual((out, ref), (7, {"failed": "tls_ref ec_full exited 1: x"}))

    def test_no_ratio_without_the_crypto(self):
        self.assertEqual(bench.tls_ratios(500, {"failed": "openssl speed exited 1"}, ("resumed_hs",)), {})


class TlsAnswers(Patched):
    """Issue 38: HTTPS answers per second over tls_ref's for the same
    answers (each side's answers per CPU-second, and the lower one against
    the target), their plaintext Gbit/s over the cipher's on 16 KB."""

    def round_of(self, tls_rate, plain_rate, ref, cpu=(100.0, 80.0), total=6000):
        """One round: the run without TLS (server cpu[0]% busy, client
        cpu[1]%), then the run with TLS between two tls_ref runs of ref."""
        for rate in (plain_rate, tls_rate):
            self.runs.append(bench.Run([second(i + 1, http2XX=rate, bitsRx=rate * 8, cpu=cpu[1]) for i in range(6)],
                                       dict(CLEAN_CLIENT, httpGet=total, http2XX=total)))
            self.servers.append(dict(CLEAN_SERVER, httpGet=total, http2XX=total))
            self.server_secs.append([second(i + 1, http2XX=rate, cpu=cpu[0]) for i in range(4)])
        self.ref_runs += [ref, ref]

    def both_tries_fail(self, i, **errors):
        """Run i of the queued ones (0 and 1 are a round's without and
        with TLS) has errors in its first try and in its second."""
        bad = dict(CLEAN_CLIENT, httpGet=6000, http2XX=6000, **errors)
        self.runs[i] = bench.Run(self.runs[i].all, bad)
        self.runs.insert(i + 1, bench.Run(self.runs[i].all, bad))
        self.servers.insert(i + 1, dict(CLEAN_SERVER, httpGet=6000, http2XX=6000))
        self.server_secs.insert(i + 1, self.server_secs[i])

    def test_keepalive_over_tls_ref(self):
        bench.TLS_ANSWER_ROUNDS = 1
        self.round_of(50000, 200000, {"server_per_cpu_s": 100000, "client_per_cpu_s": 80000}, total=300000)
        r = bench.bench_tls_throughput({"aead_16k_gbps": 10.0})
        self.assertEqual(self.ref_calls, ["ka_1460", "ka_1460"])
        # the run without TLS first, then the same answers over TLS
        self.assertEqual(self.extras, ["cc 200\nkeepalive_request_interval 1us",
                                       "client tls_resume none ec\ncc 200\nkeepalive_request_interval 1us"])
        self.assertEqual(r["response_bytes"], 1460)
        self.assertEqual(r["answers_per_s"], 50000)
        self.assertEqual(r["plain_gbps"], 0.584)  # 50,000 x 1460 x 8
        # 50k/s: half the server's 100k per CPU-second, 62.5% of the client's (the lower)
        self.assertEqual(r["of_openssl"], {"server": 0.5, "client": 0.625, "lower": 0.625,
                                           "target_50pct_met": True})
        self.assertEqual(r["of_aead_16k"], 0.058)
        self.assertEqual((r["server_cpu_pct"], r["client_cpu_pct"]), (100.0, 80.0))
        # without TLS 200k/s: server 5 µs + tls_ref's 10, client 4 + 12.5:
        # the client's 16.5 µs -> 60,606/s, 75.8% of tls_ref's lower 80k
        self.assertEqual(r["link_ceiling"], {"plain_answers_per_s": 200000, "server_us": 15.0, "client_us": 16.5,
                                             "answers_per_s": 60606, "of_lower": 0.758, "plain_errors": {}})
        self.assertNotIn("failed", r)

    def test_bulk_median_round(self):
        # three rounds, each against its own tls_ref runs: 50%, 25%, 40%
        # of the lower side; the figure is the 40% round
        bench.TLS_ANSWER_ROUNDS = 3
        self.round_of(1000, 4000, {"server_per_cpu_s": 2000, "client_per_cpu_s": 2500})
        self.round_of(1000, 4000, {"server_per_cpu_s": 4000, "client_per_cpu_s": 4500})
        self.round_of(1200, 4000, {"server_per_cpu_s": 3000, "client_per_cpu_s": 3500})
        r = bench.bench_tls_large({"aead_16k_gbps": 20.0})
        self.assertEqual(self.ref_calls, ["bulk_1m"] * 6)
        self.assertEqual(r["response_bytes"], 1000000)
        self.assertEqual(r["answers_per_s"], 1200)
        self.assertEqual(r["of_openssl"], {"server": 0.4, "client": 0.343, "lower": 0.4, "target_60pct_met": False})
        self.assertEqual([x["of_openssl_lower"] for x in r["rounds"]], [0.5, 0.25, 0.4])
        self.assertEqual([x["tls_ref_lower"] for x in r["rounds"]], [2000, 4000, 3000])
        self.assertEqual(r["of_aead_16k"], 0.48)
        # the median round's ceiling: 250 µs + 333.3 on the server
        self.assertEqual(r["link_ceiling"]["server_us"], 583.33)
        self.assertEqual(r["link_ceiling"]["answers_per_s"], 1714)
        self.assertNotIn("failed", r)

    def test_round_with_errors_fails(self):
        bench.TLS_ANSWER_ROUNDS = 2
        ref = {"server_per_cpu_s": 2000, "client_per_cpu_s": 2500}
        self.round_of(1000, 4000, ref)
        # the second round's TLS run had drops in both of its tries
        self.round_of(1000, 4000, ref)
        self.both_tries_fail(3, tcpDrop=3)
        r = bench.bench_tls_large()
        self.assertEqual(r["failed"], "1 of 2 rounds: errors client tcpDrop 3")

    def test_ceiling_beside_plain_errors(self):
        # the run without TLS dropped a few of its client's ACKs in both
        # tries: its µs per answer still make the ceiling, its errors shown
        bench.TLS_ANSWER_ROUNDS = 1
        self.round_of(1000, 4000, {"server_per_cpu_s": 2000, "client_per_cpu_s": 2500})
        self.both_tries_fail(0, dropTx=5)
        r = bench.bench_tls_large()
        self.assertNotIn("failed", r)
        self.assertEqual(r["link_ceiling"]["plain_errors"], {"client dropTx": 5})
        self.assertEqual(r["link_ceiling"]["server_us"], 750.0)  # 250 without TLS + tls_ref's 500
        rows = dict((a, b) for a, b, _ in bench.tls_rows({"tls_large_gbps": r}))
        self.assertIn("(without TLS: client dropTx 5)", " ".join(rows.values()))

    def test_no_ratio_without_references(self):
        bench.TLS_ANSWER_ROUNDS = 1
        self.round_of(1000, 4000, {"failed": "tls_ref bulk_1m exited 1"})
        r = bench.bench_tls_throughput({"failed": "openssl speed exited 1"})
        # a tls_ref that failed beside the figure fails it, as the bench's
        # own tls_ref run does
        self.assertEqual(r["failed"], "1 of 1 rounds: tls_ref bulk_1m exited 1")
        self.assertNotIn("of_openssl", r)
        self.assertNotIn("of_aead_16k", r)
        self.assertEqual(r["link_ceiling"], {})
        self.assertEqual(bench.of_tls_ref(10, {"server_per_cpu_s": 0}, 0.5), {})

    def test_aead_speed_line(self):
        out = "+DT:AES-256-GCM:1:16384\n+R:130030:AES-256-GCM:0.500000\n+H:16384\n+F:25:AES-256-GCM:4260823040.00\n"
        self.assertEqual(bench.parse_speed_evp(out, "aes-256-gcm"), 34.087)
        self.assertIsNone(bench.parse_speed_evp(out.replace("+F:", "+X:"), "aes-256-gcm"))

    def test_rows_printed(self):
        r = {"tls_large_gbps": dict(bench.stat([8.0]), errors={}, tries=1, answers_per_s=1000, plain_gbps=8.0,
                                    of_aead_16k=0.4, of_openssl={"server": 0.5, "client": 0.4, "lower": 0.5,
                                                                 "target_60pct_met": False})}
        rows = dict((a, b) for a, b, _ in bench.tls_rows(r))
        self.assertEqual(rows["  of tls_ref's answers per CPU-second beside it: server / client / lower (target 60%)"],
                         "50% / 40% / 50% (not met)")
        self.assertEqual(rows["  answers/s; their plaintext Gbit/s; of the cipher's 16 KB Gbit/s on one core"],
                         "1000; 8.00; 40%")


if __name__ == "__main__":
    sys.exit(0 if unittest.main(exit=False, verbosity=1).result.wasSuccessful() else 1)
