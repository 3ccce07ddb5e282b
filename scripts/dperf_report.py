#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""dperf-report: one self-contained HTML page from dperf's -o summaries.

Reads one or more -o JSON files (lib/run_log.c writes their per-second
history and control changes), draws the plots with matplotlib (SVG, inline:
the page needs no network) and writes the page through a temporary file
renamed into place, so that a failure leaves no half-written report.

The page embeds the plotted series as JSON (<script id="dperf-report-data">),
the very lists the plots were drawn from, and every drawn line carries a gid
naming its series: tests/e2e/test_report.sh reads both back.
"""
import html
import io
import json
import os
import sys
import tempfile
import time

USAGE = """usage: dperf-report RUN.json [MORE.json ...] -o REPORT.html
       dperf-report -h | --help | --version
  RUN.json         a summary written by dperf -o (several: side by side)
  -o REPORT.html   the page to write (replaced only once it is complete)
  -h, --help       this help
  --version        the version
"""
VERSION = "@DP_VERSION@"  # make puts dperf-live's version here
FORMAT = "dperf-summary"
FORMAT_VERSION = 1  # lib/run_log.h's DP_SUMMARY_FORMAT
# The latency kinds come from the summary ("latency_kinds", written from
# lib/figures.c's dp_lat_kinds: sRTT, TLS handshake and any later kind
# with no change here); a summary written before it named them had these.
OLD_LAT_KINDS = (("connect", "connect"), ("response", "response"), ("server", "server"),
                 ("first_byte", "first byte"))
PCTS = (("p50", "-"), ("p90", "--"), ("p99", ":"))
SECOND_KEYS = ("elapsed", "state", "target_cps", "cps", "rps", "bps_rx", "bps_tx", "good_bps_rx",
               "good_bps_tx", "skCon", "latency_us", "rates")


class BadInput(Exception):
    """One line saying which file and what is wrong with it."""


def fmt_us(us):
    """Latency for people, as dp_fmt_us (lib/figures.c) prints it in
    dperf-top: one decimal below 10 us, whole microseconds below 1 ms,
    then ms and s with two decimals."""
    if us >= 1e6:
        return "%.2fs" % (us / 1e6)
    if us >= 1e3:
        return "%.2fms" % (us / 1e3)
    return "%.1fus" % us if us < 9.95 else "%.0fus" % us


def load(path):
    """A -o summary, checked: its format and version, a history with seconds."""
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as e:
        raise BadInput("%s: cannot read: %s" % (path, e.strerror)) from e
    if not raw.strip():
        raise BadInput("%s: empty file (expected the JSON dperf -o writes)" % path)
    try:
        run = json.loads(raw.decode("utf-8", errors="replace"))
    except json.JSONDecodeError as e:
        raise BadInput("%s: not complete JSON at line %d column %d (%s): truncated, or not a dperf -o summary"
                       % (path, e.lineno, e.colno, e.msg)) from e
    if not isinstance(run, dict):
        raise BadInput("%s: a JSON %s, expected the object dperf -o writes" % (path, type(run).__name__))
    if run.get("format") != FORMAT:
        raise BadInput("%s: not a dperf -o summary with history (no \"format\": \"%s\"; written by a dperf "
                       "older than dperf-report, or by `dperf-ctl stats --json`)" % (path, FORMAT))
    if run.get("format_version") != FORMAT_VERSION:
        raise BadInput("%s: format_version %s, this dperf-report reads %d (written by %s; use the "
                       "dperf-report of that version)" % (path, run.get("format_version"), FORMAT_VERSION,
                                                           run.get("version", "another dperf-live")))
    hist = run.get("history")
    if not isinstance(hist, list):
        raise BadInput("%s: no \"history\" array" % path)
    if not hist:
        raise BadInput("%s: the per-second history is empty (the run ended before its first full second)" % path)
    for i, sec in enumerate(hist):
        missing = [k for k in SECOND_KEYS if not isinstance(sec, dict) or k not in sec]
        if missing:
            raise BadInput("%s: history[%d] lacks %s" % (path, i, ", ".join(missing)))
    run["_path"] = path
    return run


def label(run, i):
    return "%d: %s (%s)" % (i + 1, run.get("name", "?"), os.path.basename(run["_path"]))


def lat_kinds(runs):
    """(key, label) of every latency kind any of the runs names, in order."""
    out = []
    for r in runs:
        kinds = r.get("latency_kinds")
        pairs = [(k.get("key"), k.get("label")) for k in kinds if isinstance(k, dict)] if isinstance(kinds, list) else OLD_LAT_KINDS
        out += [p for p in pairs if isinstance(p[0], str) and isinstance(p[1], str) and p not in out]
    return out


def kind_names(run):
    """The traffic kinds of a run's per-second history, in their order."""
    out = []
    for sec in run["history"]:
        rates = sec.get("kind_rates")
        if isinstance(rates, dict):
            out += [k for k in rates if k not in out]
    return out


def series(run, kinds):
    """The plotted series of one run: name -> [[elapsed, value], ...]."""
    h = run["history"]
    t = [s["elapsed"] for s in h]

    def col(f):
        return [[x, f(s)] for x, s in zip(t, h)]
    out = {
        "cps": col(lambda s: s["cps"]),
        "target_cps": col(lambda s: s["target_cps"]),
        "rps": col(lambda s: s["rps"]),
        "gbps_rx": col(lambda s: s["bps_rx"] / 1e9),
        "gbps_tx": col(lambda s: s["bps_tx"] / 1e9),
        "good_gbps_rx": col(lambda s: s["good_bps_rx"] / 1e9),
        "good_gbps_tx": col(lambda s: s["good_bps_tx"] / 1e9),
        "skCon": col(lambda s: s["skCon"]),
    }
    # A second without a sample of a kind (or a run without that kind) has
    # no latency (null: a gap in the line), not a latency of 0.
    for kind, _ in kinds:
        for p, _ in PCTS:
            out["lat_%s_%s" % (kind, p)] = col(
                lambda s, k=kind, q=p: s["latency_us"][k][q] if s["latency_us"].get(k, {}).get("count") else None)
    # a traffic mix: each kind's requests per second (a set weight shows
    # as the shares moving at its change's line)
    for name in kind_names(run):
        out["kind_" + name] = col(lambda s, n=name: s.get("kind_rates", {}).get(n, {}).get("requests"))
        # and its response latency over each second (none in a second
        # without an answer of that kind, or from a dperf before them)
        for p in ("p50", "p99"):
            vals = col(lambda s, n=name, q=p: s.get("kind_rates", {}).get(n, {}).get("response_%s_us" % q))
            if any(v is not None for _, v in vals):
                out["klat_%s_%s" % (p, name)] = vals
    for name in run.get("error_counters", []):
        vals = col(lambda s, n=name: s["rates"].get(n, 0.0))
        if any(v for _, v in vals):
            out["err_" + name] = vals
    return out


def report_data(runs):
    kinds = lat_kinds(runs)
    return {"lat_kinds": kinds,
            "runs": [{"label": label(r, i), "file": r["_path"], "series": series(r, kinds),
                      "changes": r.get("changes", [])} for i, r in enumerate(runs)]}


# ---- plots ---------------------------------------------------------------

def figure_svg(plt, fig, salt):
    """The figure as inline SVG (its ids salted: several SVGs share a page)."""
    plt.rcParams["svg.hashsalt"] = salt
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})
    plt.close(fig)
    s = buf.getvalue()
    return s[s.index("<svg"):]


def mark_changes(ax, data, colors, panel, annotate):
    """Every control change, a dotted vertical line at its time (in its
    run's colour when there are several)."""
    runs = data["runs"]
    for ri, run in enumerate(runs):
        color = colors[ri % len(colors)] if len(runs) > 1 else "dimgray"
        for ci, ch in enumerate(run["changes"]):
            ax.axvline(ch["elapsed"], color=color, linestyle=(0, (1, 2)), linewidth=1.2,
                       gid="change-%d-%d-%s" % (ri, ci, panel))
            if annotate:
                ax.annotate("%s %s" % (ch["what"], change_value(ch)), xy=(ch["elapsed"], 1),
                            xycoords=("data", "axes fraction"), rotation=90, va="top", ha="right",
                            fontsize=7, color=color)


def change_value(ch):
    if "kind" in ch:  # set weight: the kind's name first
        return "%s %s -> %s" % (ch["kind"], ch["old"], ch["new"])
    if ch["what"] in ("set duration", "add duration"):
        return "%g s" % (ch["new"] / 1e6)
    if ch["what"] in ("pause", "resume", "stop"):
        return ""
    return "%s -> %s" % (ch["old"], ch["new"])


def line(ax, pts, gid, **kw):
    ax.plot([p[0] for p in pts], [float("nan") if p[1] is None else p[1] for p in pts], gid=gid, **kw)


def plots(data):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator
    plt.rcParams.update({"svg.fonttype": "none", "path.simplify": False, "font.size": 9,
                         "axes.grid": True, "grid.alpha": 0.3})
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    runs = data["runs"]
    out = []

    def panels(title, specs, ylabel, log=False):
        """One figure: a panel per spec (its title and the lines: series
        key, legend suffix, line style), the page's width in all."""
        fig, axes = plt.subplots(1, len(specs), figsize=(13, 3.4), squeeze=False, layout="constrained")
        for pi, (ptitle, lines) in enumerate(specs):
            ax = axes[0][pi]
            for ri, run in enumerate(runs):
                for li, (key, suffix, style) in enumerate(lines):
                    # one run: a colour per line; several: a colour per run
                    color = colors[(li if len(runs) == 1 else ri) % len(colors)]
                    if key in run["series"]:
                        line(ax, run["series"][key], "%s-%d" % (key, ri), color=color,
                             linestyle=style, marker="." if len(run["series"][key]) < 120 else None,
                             label="%s %s" % (run["label"], suffix) if len(runs) > 1 else suffix)
            mark_changes(ax, data, colors, "%s-%d" % (title, pi), annotate=pi == 0)
            ax.set_title(ptitle)
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
            ax.set_xlabel("seconds since start")
            ax.set_ylabel(ylabel)
            if log:  # p50 in microseconds, p99 in milliseconds: both legible
                ax.set_yscale("log")
            else:
                ax.set_ylim(bottom=0)
            if ax.get_legend_handles_labels()[0]:
                ax.legend(fontsize=7, loc="best")
        out.append((title, figure_svg(plt, fig, title)))

    panels("cps", [("connections opened per second", [("cps", "cps", "-"), ("target_cps", "target", "--")])],
           "per second")
    panels("rps", [("requests per second (a client: answers received; a server: requests)",
                    [("rps", "req/s", "-")])], "per second")
    panels("gbps", [("received (Gbit/s)", [("gbps_rx", "wire", "-"), ("good_gbps_rx", "goodput", "--")]),
                    ("sent (Gbit/s)", [("gbps_tx", "wire", "-"), ("good_gbps_tx", "goodput", "--")])], "Gbit/s")
    panels("open", [("open connections (skCon)", [("skCon", "open", "-")])], "connections")
    knames = []
    for r in runs:
        knames += [k[5:] for k in r["series"] if k.startswith("kind_") and k[5:] not in knames]
    if knames:
        panels("kinds", [("requests per second by traffic kind", [("kind_" + n, n, "-") for n in knames])],
               "per second")
    klat = [n for n in knames if any("klat_p50_" + n in r["series"] for r in runs)]
    if klat:
        panels("kind_latency", [("response latency %s by traffic kind" % p,
                                 [("klat_%s_%s" % (p, n), n, "-") for n in klat]) for p in ("p50", "p99")],
               "microseconds (log)", log=True)
    kinds = [(k, name) for k, name in data["lat_kinds"]
             if any(v is not None for r in runs for _, v in r["series"]["lat_%s_p50" % k])]
    if kinds:
        panels("latency", [("%s latency" % name, [("lat_%s_%s" % (k, p), p, st) for p, st in PCTS])
                           for k, name in kinds], "microseconds (log)", log=True)
    errs = sorted({k for r in runs for k in r["series"] if k.startswith("err_")})
    if errs:
        fig, ax = plt.subplots(figsize=(13, 3.6), layout="constrained")
        styles = ["-", "--", ":", "-."]
        for ri, run in enumerate(runs):
            for ei, key in enumerate(errs):
                if key in run["series"]:
                    line(ax, run["series"][key], "%s-%d" % (key, ri), linestyle=styles[ri % len(styles)],
                         label="%s%s" % (key[4:], " (%d)" % (ri + 1) if len(runs) > 1 else ""),
                         color=plt.cm.tab20(ei % 20))
        mark_changes(ax, data, colors, "errors", annotate=True)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_title("errors per second, by counter")
        ax.set_xlabel("seconds since start")
        ax.set_ylabel("per second")
        ax.set_ylim(bottom=0)
        ax.legend(fontsize=7, ncol=4)
        out.append(("errors", figure_svg(plt, fig, "errors")))
    return out


# ---- the page ------------------------------------------------------------

def summary_rows(runs):
    """The final summary: figure name, then one value per run."""
    def lat(r, k, p):
        v = r.get("latency_total_us", {}).get(k, {})
        return fmt_us(v[p]) if v.get("count") else "-"
    rows = [
        ("duration (s)", lambda r: "%.1f" % r.get("elapsed", 0)),
        ("mode", lambda r: r.get("mode", "?")),
        ("connections opened (skOpen)", lambda r: "%d" % r.get("skOpen", 0)),
        ("cps, mean", lambda r: "%.0f" % r.get("cps", 0)),
        ("req/s, mean", lambda r: "%.0f" % r.get("rps", 0)),
        ("Gbit/s received / sent, mean", lambda r: "%.3f / %.3f" % (r.get("bps_rx", 0) / 1e9,
                                                                    r.get("bps_tx", 0) / 1e9)),
        ("goodput Gbit/s received / sent", lambda r: "%.3f / %.3f" % (r.get("good_bps_rx", 0) / 1e9,
                                                                      r.get("good_bps_tx", 0) / 1e9)),
    ]
    for k in ("httpGet", "http2XX", "httpErr", "tcpReq", "tcpRsp", "udpTx", "udpRx", "skErr", "pktRx",
              "pktTx"):
        rows.append((k, lambda r, k=k: "%d" % r.get(k, 0)))
    for k, name in lat_kinds(runs):
        for p in ("p50", "p99", "p999", "max"):
            rows.append(("%s latency %s" % (name, p), lambda r, k=k, p=p: lat(r, k, p)))
    # a traffic mix: each kind's requests and response latency, over the run
    knames = []
    for r in runs:
        knames += [k.get("name") for k in r.get("kinds", []) if k.get("name") not in knames]

    def kind(r, n):
        return next((k for k in r.get("kinds", []) if k.get("name") == n), {})
    for n in knames:
        rows.append(("kind %s requests / http2XX / httpErr" % n, lambda r, n=n: "%d / %d / %d" % (
            kind(r, n).get("requests", 0), kind(r, n).get("http2XX", 0), kind(r, n).get("httpErr", 0))))
        for p in ("p50", "p99"):
            rows.append(("kind %s response latency %s" % (n, p), lambda r, n=n, p=p: lat(kind(r, n), "response", p)))
    rows.append(("seconds in the history (dropped)", lambda r: "%d (%d)" % (len(r["history"]),
                                                                         r.get("history_dropped", 0))))
    rows.append(("control changes", lambda r: "%d" % len(r.get("changes", []))))
    return [(name, [f(r) for r in runs]) for name, f in rows]


def page(runs):
    data = report_data(runs)
    figs = plots(data)
    e = html.escape
    parts = ["<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">",
             "<title>dperf report: %s</title>" % e(", ".join(r.get("name", "?") for r in runs)),
             "<style>body{font-family:sans-serif;margin:1.5em;max-width:1300px;color:#222}"
             "table{border-collapse:collapse;font-size:90%}td,th{border:1px solid #ccc;padding:2px 8px;"
             "text-align:right}td:first-child,th:first-child{text-align:left}pre{background:#f6f6f6;"
             "padding:.6em;font-size:85%;overflow:auto}.plot svg{width:100%;height:auto}"
             ".runs{display:flex;gap:1em;flex-wrap:wrap}.runs>div{flex:1;min-width:300px}</style></head><body>",
             "<h1>dperf report</h1>"]
    parts.append("<h2>Runs</h2><table><tr><th>#</th><th>file</th><th>instance</th><th>started (UTC)</th>"
                 "<th>version</th><th>workers</th><th>ports</th></tr>")
    for i, r in enumerate(runs):
        start = r.get("start_unix_us", 0) / 1e6
        parts.append("<tr><td>%d</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr>" % (
            i + 1, e(r["_path"]), e(str(r.get("name", "?"))),
            time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(start)) if start else "-",
            e(str(r.get("version", "?"))), r.get("workers", "?"), r.get("ports", "?")))
    parts.append("</table>")
    parts.append("<h2>Over time</h2><p>Every control change is a dotted vertical line at its time.</p>")
    for name, svg in figs:
        parts.append("<div class=\"plot\" id=\"plot-%s\">%s</div>" % (name, svg))
    parts.append("<h2>Summary</h2><table><tr><th>figure</th>%s</tr>" % "".join(
        "<th>%d</th>" % (i + 1) for i in range(len(runs))))
    for name, vals in summary_rows(runs):
        parts.append("<tr><td>%s</td>%s</tr>" % (e(name), "".join("<td>%s</td>" % e(v) for v in vals)))
    parts.append("</table>")
    parts.append("<h2>Control changes</h2>")
    if any(r["changes"] for r in data["runs"]):
        parts.append("<table><tr><th>run</th><th>at (s)</th><th>change</th></tr>")
        for i, r in enumerate(data["runs"]):
            for ch in r["changes"]:
                parts.append("<tr><td>%d</td><td>%.3f</td><td>%s %s</td></tr>" % (
                    i + 1, ch["elapsed"], e(ch["what"]), e(change_value(ch))))
        parts.append("</table>")
    else:
        parts.append("<p>none</p>")
    parts.append("<h2>Configuration</h2><div class=\"runs\">")
    for i, r in enumerate(runs):
        parts.append("<div><h3>%d: %s</h3><pre>%s</pre></div>" % (i + 1, e(r["_path"]),
                                                                   e(r.get("config_text", ""))))
    parts.append("</div>")
    # "</" cannot end the script early: json.dumps leaves "/" alone, so escape it.
    parts.append("<script type=\"application/json\" id=\"dperf-report-data\">%s</script>"
                 % json.dumps(data).replace("</", "<\\/"))
    parts.append("</body></html>\n")
    return "".join(parts)


def write_atomic(path, text):
    """The page appears complete or not at all."""
    d = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".dperf-report.", dir=d)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def parse_args(argv):
    files, out, i = [], None, 0
    while i < len(argv):
        a = argv[i]
        if a in ("-h", "--help"):
            sys.stdout.write(USAGE)
            sys.exit(0)
        if a == "--version":
            print("dperf-live %s" % VERSION.replace("@" + "DP_VERSION@", "(source)"))
            sys.exit(0)
        if a == "-o":
            if i + 1 >= len(argv):
                usage_error("-o needs a file name")
            out = argv[i + 1]
            i += 2
            continue
        if a.startswith("-") and a != "-":
            usage_error("unknown option %s" % a)
        files.append(a)
        i += 1
    if not files:
        usage_error("no RUN.json given")
    if out is None:
        usage_error("no -o REPORT.html given")
    return files, out


def usage_error(msg):
    sys.stderr.write("dperf-report: %s\n%s" % (msg, USAGE))
    sys.exit(2)


def main(argv):
    files, out = parse_args(argv)
    try:
        runs = [load(p) for p in files]
        write_atomic(out, page(runs))
    except BadInput as e:
        sys.stderr.write("dperf-report: %s\n" % e)
        return 1
    except OSError as e:
        sys.stderr.write("dperf-report: -o %s: %s\n" % (out, e.strerror or e))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
