#!/usr/bin/env python3
"""dperf-report (scripts/dperf_report.py) on good and bad input: a real -o
summary (report_run.json, written by dperf from a memif run with a set cps
in it) gives a page; another format version, a truncated file, an empty
history, an empty file or a failed write give one line on stderr, exit 1,
and no report (nor a temporary file) left behind. Run by `make unit` with
/usr/bin/python3."""
import contextlib
import importlib.util
import io
import json
import re
import os
import shutil
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
spec = importlib.util.spec_from_file_location("dperf_report", os.path.join(ROOT, "scripts", "dperf_report.py"))
rep = importlib.util.module_from_spec(spec)
spec.loader.exec_module(rep)
RUN = os.path.join(HERE, "report_run.json")


class Report(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="dperf-report-test.")
        self.out = os.path.join(self.dir, "report.html")
        with open(RUN) as f:
            self.raw = f.read()
        self.run = json.loads(self.raw)

    def tearDown(self):
        shutil.rmtree(self.dir)

    def write(self, name, text):
        p = os.path.join(self.dir, name)
        with open(p, "w") as f:
            f.write(text)
        return p

    def report(self, *files):
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            rc = rep.main(list(files) + ["-o", self.out])
        return rc, err.getvalue()

    def refused(self, path, words):
        """One line naming the file and what is wrong; no report, no temporary."""
        rc, err = self.report(RUN, path)
        self.assertEqual(rc, 1, err)
        self.assertEqual(err.count("\n"), 1, err)
        self.assertTrue(err.startswith("dperf-report: %s: " % path), err)
        self.assertIn(words, err)
        self.assertEqual(os.listdir(self.dir), [os.path.basename(path)])

    def test_good(self):
        rc, err = self.report(RUN, RUN)
        self.assertEqual((rc, err), (0, ""))
        with open(self.out) as f:
            page = f.read()
        self.assertIn('<script type="application/json" id="dperf-report-data">', page)
        for plot in ("cps", "rps", "gbps", "open", "latency"):
            self.assertIn('<div class="plot" id="plot-%s"><svg' % plot, page)
        self.assertIn('<g id="cps-1">', page)  # the second run beside the first
        # nothing fetched when it opens: no linked resource, no import
        fetched = re.findall(r'(?:src|href)\s*=\s*"(?!#)[^"]*"|<link|@import|url\((?!#)', page)
        self.assertEqual(fetched, [])
        self.assertEqual(sorted(os.listdir(self.dir)), ["report.html"])

    def test_latency_kinds(self):
        """The kinds the summary names are plotted and tabled (sRTT here,
        with samples); one without a sample in any second (TLS handshake)
        gets no plot and "-" in the table, not a latency of 0."""
        self.run["latency_kinds"] = [{"key": k, "label": n, "help": ""} for k, n in rep.OLD_LAT_KINDS] + [
            {"key": "srtt", "label": "sRTT", "help": ""}, {"key": "tls_handshake", "label": "TLS handshake", "help": ""}]
        empty = {"count": 0, "p50": 0.0, "p90": 0.0, "p99": 0.0, "p999": 0.0, "max": 0.0}
        for i, sec in enumerate(self.run["history"]):
            sec["latency_us"]["srtt"] = {"count": 3, "p50": 100.0 + i, "p90": 150.0, "p99": 200.0 + i,
                                         "p999": 200.0, "max": 210.0}
            sec["latency_us"]["tls_handshake"] = dict(empty)
        self.run["latency_total_us"]["srtt"] = {"count": 99, "p50": 123.4, "p90": 150.0, "p99": 234.5,
                                                "p999": 250.0, "max": 260.0}
        self.run["latency_total_us"]["tls_handshake"] = dict(empty)
        path = self.write("kinds.json", json.dumps(self.run))
        rc, err = self.report(path)
        self.assertEqual((rc, err), (0, ""))
        with open(self.out) as f:
            page = f.read()
        data = json.loads(re.search(r'<script type="application/json" id="dperf-report-data">(.*?)</script>',
                                    page, re.S).group(1).replace("<\\/", "</"))
        ser = data["runs"][0]["series"]
        self.assertEqual([p[1] for p in ser["lat_srtt_p99"]], [200.0 + i for i in range(len(self.run["history"]))])
        self.assertEqual({p[1] for p in ser["lat_tls_handshake_p50"]}, {None})
        self.assertIn('<g id="lat_srtt_p50-0">', page)  # drawn
        self.assertNotIn('<g id="lat_tls_handshake_p50-0">', page)  # not drawn
        rows = dict(rep.summary_rows([rep.load(path)]))
        self.assertEqual(rows["sRTT latency p50"], [rep.fmt_us(123.4)])
        self.assertEqual(rows["TLS handshake latency p50"], ["-"])
        # a summary written before the kinds were named: the four of then
        del self.run["latency_kinds"]
        self.assertEqual(rep.lat_kinds([self.run]), list(rep.OLD_LAT_KINDS))

    def test_weight_change(self):
        """A traffic mix: each kind's requests per second plotted, and a
        set weight marked as a rate change is, its kind named."""
        for i, sec in enumerate(self.run["history"]):
            sec["kind_rates"] = {"small": {"requests": 70.0 + i}, "big": {"requests": 0.0 if i > 1 else 30.0}}
        self.run["changes"] = [{"elapsed": 1.5, "what": "set weight", "kind": "big", "old": 30, "new": 0}]
        path = self.write("mix.json", json.dumps(self.run))
        rc, err = self.report(path)
        self.assertEqual((rc, err), (0, ""))
        with open(self.out) as f:
            page = f.read()
        data = json.loads(re.search(r'<script type="application/json" id="dperf-report-data">(.*?)</script>',
                                    page, re.S).group(1).replace("<\\/", "</"))
        ser = data["runs"][0]["series"]
        self.assertEqual([p[1] for p in ser["kind_small"]], [70.0 + i for i in range(len(self.run["history"]))])
        self.assertEqual([p[1] for p in ser["kind_big"]][:3], [30.0, 30.0, 0.0])
        self.assertIn('<div class="plot" id="plot-kinds"><svg', page)
        self.assertIn('<g id="kind_big-0">', page)
        self.assertIn('<g id="change-0-0-kinds-0">', page)  # the change's line on the kinds' plot
        self.assertIn("<td>set weight big 30 -&gt; 0</td>", page)
        self.assertEqual(rep.change_value(self.run["changes"][0]), "big 30 -> 0")
        # a run without kinds: no such plot
        rc, err = self.report(RUN)
        with open(self.out) as f:
            self.assertNotIn('id="plot-kinds"', f.read())

    def test_kind_latency(self):
        """A traffic mix's response latency per kind: each second's p50 and
        p99 plotted per kind, a second without an answer of a kind a gap (not
        0), a kind never answered not plotted; the whole run's per kind in
        the summary table."""
        for i, sec in enumerate(self.run["history"]):
            sec["kind_rates"] = {"small": {"requests": 70.0, "responses": 70, "response_p50_us": 12.5 + i,
                                           "response_p99_us": 40.0},
                                 "big": {"requests": 30.0, "responses": 0 if i == 1 else 30},
                                 "gone": {"requests": 5.0, "responses": 0}}
            if i != 1:
                sec["kind_rates"]["big"].update({"response_p50_us": 900.0, "response_p99_us": 2500.0})
        lat = {"count": 9, "p50": 950.0, "p90": 2000.0, "p99": 2600.0, "p999": 2600.0, "max": 2600.0}
        self.run["kinds"] = [{"name": "small", "requests": 700, "http2XX": 700, "httpErr": 0, "goodRx": 8,
                              "latency_total_us": {"response": dict(lat, p50=13.0, p99=41.0)}},
                             {"name": "big", "requests": 300, "http2XX": 290, "httpErr": 10, "goodRx": 8,
                              "latency_total_us": {"response": lat}}]
        path = self.write("mixlat.json", json.dumps(self.run))
        rc, err = self.report(path)
        self.assertEqual((rc, err), (0, ""))
        with open(self.out) as f:
            page = f.read()
        data = json.loads(re.search(r'<script type="application/json" id="dperf-report-data">(.*?)</script>',
                                    page, re.S).group(1).replace("<\\/", "</"))
        ser = data["runs"][0]["series"]
        self.assertEqual([p[1] for p in ser["klat_p50_small"]], [12.5 + i for i in range(len(self.run["history"]))])
        self.assertEqual([p[1] for p in ser["klat_p99_big"]][:3], [2500.0, None, 2500.0])
        self.assertNotIn("klat_p50_gone", ser)
        self.assertIn('<div class="plot" id="plot-kind_latency"><svg', page)
        self.assertIn('<g id="klat_p99_big-0">', page)
        self.assertNotIn('<g id="klat_p50_gone-0">', page)
        rows = dict(rep.summary_rows([self.run]))
        self.assertEqual(rows["kind big requests / http2XX / httpErr"], ["300 / 290 / 10"])
        self.assertEqual(rows["kind small response latency p99"], [rep.fmt_us(41.0)])
        self.assertEqual(rows["kind big response latency p50"], [rep.fmt_us(950.0)])
        # before the kinds' latency: their requests plotted, no latency plot
        for sec in self.run["history"]:
            for k in sec["kind_rates"].values():
                k.pop("response_p50_us", None)
                k.pop("response_p99_us", None)
        rc, err = self.report(self.write("mixold.json", json.dumps(self.run)))
        with open(self.out) as f:
            page = f.read()
        self.assertIn('id="plot-kinds"', page)
        self.assertNotIn('id="plot-kind_latency"', page)

    def test_other_version(self):
        self.run["format_version"] = 2
        self.refused(self.write("v2.json", json.dumps(self.run)), "format_version 2, this dperf-report reads 1")

    def test_no_format(self):
        # a `dperf-ctl stats --json` line, or a summary from before the history
        for k in ("format", "format_version", "history", "changes"):
            del self.run[k]
        self.refused(self.write("old.json", json.dumps(self.run)), "not a dperf -o summary with history")

    def test_truncated(self):
        self.refused(self.write("cut.json", self.raw[: len(self.raw) // 2]), "not complete JSON at line 1")

    def test_empty_history(self):
        self.run["history"] = []
        self.refused(self.write("nohist.json", json.dumps(self.run)), "the per-second history is empty")

    def test_empty_file(self):
        self.refused(self.write("empty.json", ""), "empty file")

    def test_broken_second(self):
        del self.run["history"][3]["latency_us"]
        self.refused(self.write("sec.json", json.dumps(self.run)), "history[3] lacks latency_us")

    def test_old_report_kept(self):
        """A refused run leaves the previous report as it was."""
        with open(self.out, "w") as f:
            f.write("old")
        rc, _ = self.report(self.write("cut.json", self.raw[:100]))
        self.assertEqual(rc, 1)
        with open(self.out) as f:
            self.assertEqual(f.read(), "old")

    def test_write_fails(self):
        """A failure while writing leaves nothing half-written, and the
        previous report as it was."""
        with open(self.out, "w") as f:
            f.write("old")
        saved = rep.os.replace

        def fail(a, b):
            raise OSError(28, "No space left on device")
        rep.os.replace = fail
        try:
            rc, err = self.report(RUN)
        finally:
            rep.os.replace = saved
        self.assertEqual(rc, 1)
        self.assertEqual(err, "dperf-report: -o %s: No space left on device\n" % self.out)
        self.assertEqual(os.listdir(self.dir), ["report.html"])
        with open(self.out) as f:
            self.assertEqual(f.read(), "old")

    def test_fmt_us(self):
        self.assertEqual([rep.fmt_us(v) for v in (0.34, 9.94, 9.96, 15.4, 999.4, 1234.5, 2.5e6)],
                         ["0.3us", "9.9us", "10us", "15us", "999us", "1.23ms", "2.50s"])


if __name__ == "__main__":
    sys.exit(0 if unittest.main(exit=False, verbosity=1).result.wasSuccessful() else 1)
