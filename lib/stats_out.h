/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef DPERF_STATS_OUT_H
#define DPERF_STATS_OUT_H

#include <stdio.h>

#include "rates.h"
#include "shm.h"

/* Totals at b, rates and latency between a and b: one JSON object, one line. */
void dp_stats_json(FILE *f, const struct dp_shm *s, const struct dp_snapshot *a,
		   const struct dp_snapshot *b);
struct dp_run_log;
/* The -o summary: dp_stats_json's object over the whole run (a at the
 * start, b at the end), plus the format, version, configuration, the
 * whole run's latency histograms ("latency_hist", which dperf-ctl merge
 * adds up across instances) and the run log r (its per-second history
 * and changes; NULL: none). */
void dp_summary_json(FILE *f, const struct dp_shm *s, const struct dp_snapshot *a,
		     const struct dp_snapshot *b, const struct dp_run_log *r);
/* The kinds measured on both sides (sRTT, TLS handshake), each as a
 * text line "latency  <label> p50 ... us" when it has samples, none
 * otherwise; true: over the whole test (b's totals), else between a and b. */
void dp_lat_text_both_sides(FILE *f, const struct dp_shm *s, const struct dp_snapshot *a,
			    const struct dp_snapshot *b, int total);
/* The counter block of the text outputs (the primary's seconds and
 * summary, dperf-ctl stats): "name value" pairs in aligned columns, five
 * to a line, dperf's order. Values are b's minus a's (a NULL: b's own). A
 * counter of a feature the run does not use (s->hdr.features) is left out
 * while its total (b) is 0. */
void dp_counters_text(FILE *f, const struct dp_shm *s, const uint64_t *a, const uint64_t *b);
/* A client's counters and latency per traffic kind (shm.h's kinds, two
 * or more), summed over the workers: totals at b (b NULL: the memzone's
 * now); and a server's counters per object (shm.h's objects, one or more;
 * figures.h's dp_rows), totals now. As JSON,
 * ',"kinds":[{"name":..., "weight":N, "requests":N,...,
 * "latency_total_us":{"connect":{...},"first_byte":...,"response":...,
 * "tls_handshake":...}},...]' (nothing without kinds), with
 * "latency_us" over a..b as well when the pair has per-kind figures
 * (dp_kinds_between), and with hist the whole test's histograms,
 * "latency_hist" (the -o summary's, which dperf-ctl merge adds up);
 * ',"objects":[{"path":"/1k","requests":N,"http2XX":N,"goodTx":N},...]'
 * (nothing without objects). As text, a line per kind, "kind NAME:
 * weight N requests N http2XX N httpErr N goodRx N", and one of its
 * latency over the whole test, "kind NAME latency: connect p50 .. p99 ..
 * us | ...", its latencies without samples left out (no line when none
 * has any); a line per object, "object PATH: requests N http2XX N goodTx
 * N". */
void dp_kinds_json(FILE *f, const struct dp_shm *s, const struct dp_snapshot *a, const struct dp_snapshot *b,
		   int hist);
void dp_kinds_text(FILE *f, const struct dp_shm *s, const struct dp_snapshot *b);
/* The kind a change (struct dp_change) is about: set weight's kind's
 * name, else NULL (every other change is about the whole test). */
const char *dp_change_kind(const struct dp_shm *s, const struct dp_change *ch);
/* A change's text, "set weight big 70 -> 10", "set cps 1000 -> 2000":
 * the same words in every text output. */
void dp_change_text(FILE *f, const struct dp_shm *s, const struct dp_change *ch);
/* Its JSON members, ,"what":"set weight","kind":"big","old":70,"new":10
 * (kind only when it has one). */
void dp_change_json(FILE *f, const struct dp_shm *s, const struct dp_change *ch);
/* One CSV row (with the header line first when header is non-zero):
 * the interval's figures, then a client's kinds, each kind's counters
 * over the interval and its latency p50 and p99 (kind_NAME_requests,
 * ..., kind_NAME_response_p99_us; empty cells when the pair has no
 * per-kind figures or the latency no sample). */
void dp_stats_csv(FILE *f, const struct dp_shm *s, const struct dp_snapshot *a,
		  const struct dp_snapshot *b, int header);

#endif
