/* SPDX-License-Identifier: BSD-3-Clause
 * The run's story for the -o summary: every second's figures and every
 * applied control change, kept by the primary in its own memory (the
 * memzone's history ring keeps 600 seconds for late readers; a report
 * wants the whole run). dperf-report draws its plots from it.
 */
#ifndef DPERF_RUN_LOG_H
#define DPERF_RUN_LOG_H

#include <stddef.h>
#include <stdio.h>

#include "rates.h"
#include "shm.h"

/* The -o summary's format; dperf-report refuses any other. */
#define DP_SUMMARY_FORMAT 1
/* Seconds kept: a day (about 1.05 KB each, 91 MB at most). A longer run
 * keeps its last day and says how many seconds it dropped. */
#define DP_RUN_LOG_MAX_SECONDS 86400

/* One second, as cumulative counters at its end (the rates are the
 * difference with the one before) and the latency over it. */
struct dp_second {
	uint64_t tsc;
	uint32_t state; /* enum dp_state */
	uint64_t c[DP_C__COUNT];
	uint64_t pc[DP_PC__COUNT]; /* summed over ports */
	uint64_t sk_cur;
	uint64_t target_cps;
	struct dp_lat lat[DP_LAT__COUNT];
	uint64_t kreq[DP_MAX_KINDS]; /* each traffic kind's requests (the pick's shares) */
	/* each kind's response latency over the second (dperf-report's plot
	 * per kind): p50, p99 in microseconds, and its samples */
	float kresp_p50[DP_MAX_KINDS], kresp_p99[DP_MAX_KINDS];
	uint32_t kresp_n[DP_MAX_KINDS];
};

struct dp_run_log {
	struct dp_second base;   /* the start of the oldest second kept */
	struct dp_second *sec;   /* a ring once it holds max seconds */
	size_t n, cap, head, max; /* head: the oldest, once full */
	uint64_t dropped;        /* seconds dropped from the front */
	int no_memory;           /* an allocation failed: seconds lost after */
	struct dp_change *ch;
	size_t n_ch, cap_ch;
	uint32_t ch_seen;        /* the memzone's n_changes read so far */
	uint64_t ch_lost;        /* overwritten in its ring before read */
};

/* The log starts at first (the summary's baseline); max 0 = the default. */
void dp_run_log_begin(struct dp_run_log *r, const struct dp_shm *s, const struct dp_snapshot *first,
		      size_t max);
/* One second ended: cur are its end's counters, prev its start's. */
void dp_run_log_second(struct dp_run_log *r, const struct dp_shm *s, const struct dp_snapshot *prev,
		       const struct dp_snapshot *cur);
/* Copies the changes the primary applied since the last call (its ring
 * keeps DP_CHANGES_LEN: called every tick, it never laps). */
void dp_run_log_changes(struct dp_run_log *r, const struct dp_shm *s);
/* ,"history":[...],"changes":[...] and the fields that describe them. */
void dp_run_log_json(FILE *f, const struct dp_shm *s, const struct dp_run_log *r);
void dp_run_log_free(struct dp_run_log *r);

#endif
