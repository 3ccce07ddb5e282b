/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef DPERF_STATS_OUT_H
#define DPERF_STATS_OUT_H

#include <stdio.h>

#include "rates.h"
#include "shm.h"

/* Seconds from the test's start to tsc; mode and state names. */
double dp_elapsed_s(const struct dp_shm *s, uint64_t tsc);
const char *dp_mode_name(uint32_t mode);
const char *dp_state_name(uint32_t state);

/* Headline rates between two snapshots (per second). */
struct dp_headline {
	double cps, rps, bps_rx, bps_tx, pps_rx, pps_tx;
};
void dp_headline(const struct dp_shm *s, const struct dp_snapshot *a, const struct dp_snapshot *b,
		 struct dp_headline *h);

/* Totals at b, rates and latency between a and b: one JSON object, one line. */
void dp_stats_json(FILE *f, const struct dp_shm *s, const struct dp_snapshot *a,
		   const struct dp_snapshot *b);
/* One CSV row (with the header line first when header is non-zero). */
void dp_stats_csv(FILE *f, const struct dp_shm *s, const struct dp_snapshot *a,
		  const struct dp_snapshot *b, int header);

#endif
