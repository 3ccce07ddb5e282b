/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef DPERF_STATS_OUT_H
#define DPERF_STATS_OUT_H

#include <stdio.h>

#include "rates.h"
#include "shm.h"

/* Totals at b, rates and latency between a and b: one JSON object, one line. */
void dp_stats_json(FILE *f, const struct dp_shm *s, const struct dp_snapshot *a,
		   const struct dp_snapshot *b);
/* The same, plus the whole test's latency histograms ("latency_hist"):
 * the -o summary, which dperf-ctl merge adds up across instances. */
void dp_summary_json(FILE *f, const struct dp_shm *s, const struct dp_snapshot *a,
		     const struct dp_snapshot *b);
/* One CSV row (with the header line first when header is non-zero). */
void dp_stats_csv(FILE *f, const struct dp_shm *s, const struct dp_snapshot *a,
		  const struct dp_snapshot *b, int header);

#endif
