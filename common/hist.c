/* SPDX-License-Identifier: BSD-3-Clause */
#include <string.h>

#include "hist.h"

uint64_t
dp_hist_bucket_low(uint32_t i)
{
	uint32_t g = i / DP_HIST_SUB, m = i % DP_HIST_SUB;

	if (g == 0)
		return i;
	return (uint64_t)(DP_HIST_SUB + m) << (g - 1);
}

uint64_t
dp_hist_bucket_width(uint32_t i)
{
	uint32_t g = i / DP_HIST_SUB;

	return g == 0 ? 1 : 1ULL << (g - 1);
}

void
dp_hist_merge(struct dp_hist *acc, const struct dp_hist *h)
{
	for (uint32_t i = 0; i < DP_HIST_BUCKETS; i++)
		acc->b[i] += h->b[i];
	acc->count += h->count;
	if (h->max > acc->max)
		acc->max = h->max;
}

void
dp_hist_delta(struct dp_hist *out, const struct dp_hist *older, const struct dp_hist *newer)
{
	uint64_t n = 0;

	for (uint32_t i = 0; i < DP_HIST_BUCKETS; i++) {
		out->b[i] = newer->b[i] >= older->b[i] ? newer->b[i] - older->b[i] : 0;
		n += out->b[i];
	}
	out->count = n;
	out->max = newer->max; /* the maximum is kept over the whole test */
}

uint64_t
dp_hist_quantile(const struct dp_hist *h, double q)
{
	uint64_t total = 0, rank, seen = 0;

	for (uint32_t i = 0; i < DP_HIST_BUCKETS; i++)
		total += h->b[i];
	if (total == 0)
		return 0;
	if (q >= 1.0)
		return h->max;
	/* The nearest rank, ceil(q x total): the smallest sample with at
	 * least q of them at or below it. Rounding down would report, of 10
	 * samples, the 9th as p99. The product is exact for the q we use
	 * (a product that should be whole but lands a hair above is not
	 * rounded up a rank). */
	{
		double x = q * (double)total;

		rank = (uint64_t)x;
		if ((double)rank < x * (1.0 - 1e-12))
			rank++;
	}
	if (rank == 0)
		rank = 1;
	for (uint32_t i = 0; i < DP_HIST_BUCKETS; i++) {
		seen += h->b[i];
		if (seen >= rank) {
			uint64_t mid = dp_hist_bucket_low(i) + dp_hist_bucket_width(i) / 2;
			return h->max && mid > h->max ? h->max : mid;
		}
	}
	return h->max;
}

double
dp_hist_le_s(uint32_t k)
{
	uint32_t e = k / DP_HIST_LE_PER_OCTAVE, m = k % DP_HIST_LE_PER_OCTAVE;

	return (double)(1ULL << e) * (1.0 + (double)m / DP_HIST_LE_PER_OCTAVE) * 1e-6;
}

uint32_t
dp_hist_le_find(double v)
{
	uint32_t lo = 0, hi = DP_HIST_LE_COUNT; /* the answer is in [lo, hi] */

	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;

		if (v <= dp_hist_le_s(mid))
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}
