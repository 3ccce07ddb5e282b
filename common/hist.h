/* SPDX-License-Identifier: BSD-3-Clause
 * Log-linear latency histograms in TSC ticks.
 *
 * A value v lands in bucket (e, m): e is the position of v's highest set
 * bit, m the next DP_HIST_SUB_BITS bits below it. Each power of two is cut
 * into 64 equal buckets, so a bucket's width is at most 1/64 of its lower
 * bound: relative error <= 1.6%. Recording is a count-leading-zeros, two
 * shifts and an increment; no division. Readers merge workers' histograms
 * and read percentiles.
 */
#ifndef DPERF_HIST_H
#define DPERF_HIST_H

#include <stdint.h>

#define DP_HIST_SUB_BITS 6
#define DP_HIST_SUB (1u << DP_HIST_SUB_BITS)
#define DP_HIST_EXP 40 /* up to 2^40 ticks: minutes at any TSC rate */
#define DP_HIST_BUCKETS ((DP_HIST_EXP + 1) * DP_HIST_SUB)

struct dp_hist {
	uint64_t count;
	uint64_t max;
	uint64_t b[DP_HIST_BUCKETS];
};

/* Percentiles of a histogram, in microseconds (rates.h computes them). */
struct dp_lat {
	double p50, p90, p99, p999, max;
	uint64_t count;
};

static inline uint32_t
dp_hist_index(uint64_t v)
{
	uint32_t e;

	if (v < DP_HIST_SUB)
		return (uint32_t)v; /* exact below 64 ticks */
	e = 63u - (uint32_t)__builtin_clzll(v);
	if (e > DP_HIST_EXP + DP_HIST_SUB_BITS - 1) /* clamp: the top bucket */
		return DP_HIST_BUCKETS - 1;
	return (e - DP_HIST_SUB_BITS + 1) * DP_HIST_SUB +
	       (uint32_t)((v >> (e - DP_HIST_SUB_BITS)) & (DP_HIST_SUB - 1));
}

/* Single writer (the owning worker): plain increments. */
static inline void
dp_hist_add(struct dp_hist *h, uint64_t v)
{
	h->b[dp_hist_index(v)]++;
	h->count++;
	if (v > h->max)
		h->max = v;
}

/* Lower bound and width of bucket i, in ticks. */
uint64_t dp_hist_bucket_low(uint32_t i);
uint64_t dp_hist_bucket_width(uint32_t i);

/* acc += h (reader side). */
void dp_hist_merge(struct dp_hist *acc, const struct dp_hist *h);
/* out = newer - older, for a per-interval view. */
void dp_hist_delta(struct dp_hist *out, const struct dp_hist *older, const struct dp_hist *newer);
/* The q-quantile, q in (0..1], by nearest rank (the ceil(q x count)-th
 * smallest sample): the middle of the bucket holding that rank, at most
 * max (max itself for q = 1). 0 when empty. */
uint64_t dp_hist_quantile(const struct dp_hist *h, double q);

/* Prometheus' buckets: the same le boundaries on every box, in seconds
 * (our buckets are in TSC ticks, whose rate differs between boxes, and
 * `sum by (le)` adds only equal labels): 1 us x 2^e x {1, 1.25, 1.5,
 * 1.75}, up to 2^24 us (16.8 s), then +Inf. Each is at most 25% wider than
 * its lower edge; an exporter puts each of our buckets in the first whose
 * le is at or above its middle. */
#define DP_HIST_LE_PER_OCTAVE 4
#define DP_HIST_LE_COUNT (24 * DP_HIST_LE_PER_OCTAVE + 1) /* finite ones */

/* le number k (0..DP_HIST_LE_COUNT-1), in seconds. */
double dp_hist_le_s(uint32_t k);
/* The first le at or above v seconds; DP_HIST_LE_COUNT for +Inf. */
uint32_t dp_hist_le_find(double v);

#endif
