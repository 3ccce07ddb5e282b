/* SPDX-License-Identifier: BSD-3-Clause
 * Reader-side statistics: snapshots of the memzone's cumulative counters
 * and the rates between two snapshots. Readers compute everything; the
 * engine only increments its own counters.
 */
#ifndef DPERF_RATES_H
#define DPERF_RATES_H

#include <stdint.h>
#include <stdio.h>

#include "figures.h"
#include "shm.h"

struct dp_snapshot {
	uint64_t tsc;
	uint64_t c[DP_C__COUNT];              /* summed over workers */
	uint64_t sk_cur;                      /* open sockets (dp_open_sockets) */
	uint64_t wc[DP_MAX_WORKERS][DP_C__COUNT]; /* per worker */
	uint64_t w_sk_cur[DP_MAX_WORKERS];
	uint64_t w_busy[DP_MAX_WORKERS];
	uint64_t w_loop[DP_MAX_WORKERS];
	uint64_t pc[DP_MAX_PORTS][DP_PC__COUNT];
	struct dp_hist lat[DP_LAT__COUNT]; /* merged over workers, cumulative */
	uint32_t n_workers;
	uint32_t n_ports;
	/* Set by dp_snapshot_last_second: the latency over the interval that
	 * ends at this snapshot, as the primary recorded it (the histograms
	 * above are then the totals now, not at tsc). */
	int lat_recorded;
	struct dp_lat lat_interval[DP_LAT__COUNT];
	/* A client's traffic kinds (issue 37), rows 0..n_kinds-1: each kind's
	 * counters summed over the workers, and its latency histograms
	 * (enum dp_klat) merged over them, cumulative. kinds_at_tsc: they
	 * were read at tsc; dp_snapshot_last_second's older snapshot has them
	 * from now (the history keeps no kinds), so per-kind figures over
	 * that pair are unknown (dp_kinds_between). */
	uint32_t n_kinds;
	int kinds_at_tsc;
	uint64_t kc[DP_MAX_KINDS][DP_KC__COUNT];
	/* last: 1.3 MB, of which dp_snapshot_take clears the rows it fills */
	struct dp_hist klat[DP_MAX_KINDS][DP_KLAT__COUNT];
};

/* Copy the counters of s at time now_tsc. */
void dp_snapshot_take(const struct dp_shm *s, uint64_t now_tsc, struct dp_snapshot *out);
/* *dst = *src, the kinds' histograms only as far as src has kinds (a
 * whole copy moves 1.4 MB, mostly rows no test uses). */
void dp_snapshot_copy(struct dp_snapshot *dst, const struct dp_snapshot *src);

/* For a one-shot reader: b is now, a is b less the last second the
 * primary completed (from its history), so that the rates and the latency
 * between a and b are exactly that second's, and b's totals are current.
 * (Per-worker and port rates between them are zero.) Returns -1 when no
 * second has completed yet. */
int dp_snapshot_last_second(const struct dp_shm *s, uint64_t now_tsc, struct dp_snapshot *a,
			    struct dp_snapshot *b);

/* The interval between two snapshots, and the headline figures over it
 * (figures.h: what cps and rps mean). */
void dp_snapshot_interval(const struct dp_snapshot *a, const struct dp_snapshot *b, uint64_t tsc_hz,
			  struct dp_interval *iv);
void dp_headline(const struct dp_shm *s, const struct dp_snapshot *a, const struct dp_snapshot *b,
		 struct dp_rates *r);

/* Per-second rate of a summed counter between a (older) and b (newer);
 * 0 when the interval is empty. Counters never decrease; a decrease
 * (a restarted primary) yields 0. */
double dp_rate(const struct dp_snapshot *a, const struct dp_snapshot *b,
	       enum dp_counter c, uint64_t tsc_hz);
double dp_rate_worker(const struct dp_snapshot *a, const struct dp_snapshot *b,
		      uint32_t w, enum dp_counter c, uint64_t tsc_hz);
double dp_rate_port(const struct dp_snapshot *a, const struct dp_snapshot *b,
		    uint32_t p, enum dp_port_counter c, uint64_t tsc_hz);
/* Busy share of worker w in [0,1] between the snapshots. */
double dp_worker_busy(const struct dp_snapshot *a, const struct dp_snapshot *b, uint32_t w);

/* Delta of a counter between two values, clamped at 0. */
static inline uint64_t
dp_delta(uint64_t older, uint64_t newer)
{
	return newer >= older ? newer - older : 0;
}

/* Percentiles of a histogram in microseconds (struct dp_lat: hist.h). */
void dp_lat_from_hist(const struct dp_hist *h, uint64_t tsc_hz, struct dp_lat *out);
/* Latency between two snapshots (kind: enum dp_lat_kind, shm.h). */
void dp_lat_between(const struct dp_snapshot *a, const struct dp_snapshot *b, int kind,
		    uint64_t tsc_hz, struct dp_lat *out);

/* Whether per-kind figures exist between a and b: both have kinds, the
 * same number, each read at its own time. */
int dp_kinds_between(const struct dp_snapshot *a, const struct dp_snapshot *b);
/* Kind k's latency row j (enum dp_klat) between two snapshots (an empty
 * one, count 0, when !dp_kinds_between), or over the whole test (b's
 * totals). */
void dp_klat_between(const struct dp_snapshot *a, const struct dp_snapshot *b, uint32_t k, int j,
		     uint64_t tsc_hz, struct dp_lat *out);
void dp_klat_total(const struct dp_snapshot *b, uint32_t k, int j, uint64_t tsc_hz, struct dp_lat *out);

/* One latency's percentiles as "key":{...} (the run log's and stats_out's
 * JSON). */
void dp_lat_json(FILE *f, const char *key, const struct dp_lat *l);

/* Human format with SI suffix: 1234567 -> "1.23M". Returns buf. */
const char *dp_fmt_si(double v, char *buf, int len);

#endif
