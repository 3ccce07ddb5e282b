/* SPDX-License-Identifier: BSD-3-Clause
 * Latency histograms against known distributions: every percentile within
 * the stated 2% relative error of the exact sample quantile.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "hist.h"

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* Check p50, p90, p99, p99.9 of samples v[0..n) against the histogram. */
static void
check(uint64_t *v, size_t n)
{
	static const double qs[] = { 0.5, 0.9, 0.99, 0.999 };
	struct dp_hist *h = calloc(1, sizeof(*h));

	for (size_t i = 0; i < n; i++)
		dp_hist_add(h, v[i]);
	assert_int_equal(h->count, n);
	qsort(v, n, sizeof(v[0]), cmp_u64);
	assert_int_equal(h->max, v[n - 1]);
	assert_int_equal(dp_hist_quantile(h, 1.0), v[n - 1]);
	for (size_t k = 0; k < sizeof(qs) / sizeof(qs[0]); k++) {
		size_t rank = (size_t)ceil(qs[k] * (double)n); /* nearest rank */
		uint64_t exact = v[rank ? rank - 1 : 0], got = dp_hist_quantile(h, qs[k]);
		double err = fabs((double)got - (double)exact) / (double)(exact ? exact : 1);
		if (err > 0.02)
			fail_msg("q%.3f: histogram %lu, exact %lu (%.2f%%)", qs[k], (unsigned long)got,
				 (unsigned long)exact, err * 100);
	}
	free(h);
}

static void
test_uniform(void **state)
{
	size_t n = 200000;
	uint64_t *v = malloc(n * sizeof(*v));

	(void)state;
	srand(1);
	for (size_t i = 0; i < n; i++) /* 1 us .. 10 ms at 2.5 GHz */
		v[i] = 2500 + (uint64_t)rand() % 25000000;
	check(v, n);
	free(v);
}

static void
test_exponential(void **state)
{
	size_t n = 200000;
	uint64_t *v = malloc(n * sizeof(*v));

	(void)state;
	srand(2);
	for (size_t i = 0; i < n; i++) { /* mean 50 us at 2.5 GHz */
		double u = ((double)rand() + 1.0) / ((double)RAND_MAX + 2.0);
		v[i] = (uint64_t)(-log(u) * 125000.0) + 1;
	}
	check(v, n);
	free(v);
}

static void
test_constant(void **state)
{
	uint64_t vals[] = { 1, 63, 64, 65, 1000, 2500000, 50000000000ULL };

	(void)state;
	for (size_t k = 0; k < sizeof(vals) / sizeof(vals[0]); k++) {
		uint64_t v[1000];
		for (size_t i = 0; i < 1000; i++)
			v[i] = vals[k];
		check(v, 1000);
	}
}

/* Few samples, each in a bucket of its own: a percentile is the nearest
 * rank, the smallest sample with at least that share at or below it
 * (ceil(q x n)), not the one below: with 10 samples p99 and p99.9 are
 * the 10th, p90 the 9th, p50 the 5th; with 3, p50 is the 2nd. */
static void
test_nearest_rank(void **state)
{
	uint64_t v[10];

	(void)state;
	for (size_t i = 0; i < 10; i++)
		v[i] = 1000ULL << (2 * i);
	check(v, 10);
	check(v, 3);
	check(v, 2);
	check(v, 1);
}

static void
test_buckets_cover(void **state)
{
	(void)state;
	/* Every value maps into a bucket whose range contains it. */
	for (uint64_t v = 0; v < (1ULL << 46); v = v < 4096 ? v + 1 : v + v / 97) {
		uint32_t i = dp_hist_index(v);
		assert_true(i < DP_HIST_BUCKETS);
		assert_true(dp_hist_bucket_low(i) <= v);
		assert_true(v < dp_hist_bucket_low(i) + dp_hist_bucket_width(i));
		assert_true(dp_hist_bucket_width(i) * 64 <= (dp_hist_bucket_low(i) > 64 ? dp_hist_bucket_low(i) : 64));
	}
	assert_int_equal(dp_hist_index(UINT64_MAX), DP_HIST_BUCKETS - 1);
}

static void
test_merge_delta(void **state)
{
	struct dp_hist *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b)), *m = calloc(1, sizeof(*m));
	struct dp_hist *d = calloc(1, sizeof(*d));

	(void)state;
	for (int i = 0; i < 100; i++)
		dp_hist_add(a, 1000);
	*b = *a;
	for (int i = 0; i < 50; i++)
		dp_hist_add(b, 100000);
	dp_hist_merge(m, a);
	dp_hist_merge(m, b);
	assert_int_equal(m->count, 250);
	assert_int_equal(m->max, 100000);
	dp_hist_delta(d, a, b);
	assert_int_equal(d->count, 50);
	assert_true(dp_hist_quantile(d, 0.5) >= 98500 && dp_hist_quantile(d, 0.5) <= 101500);
	dp_hist_delta(d, b, a); /* a restarted writer never yields negative counts */
	assert_int_equal(d->count, 0);
	assert_int_equal(dp_hist_quantile(d, 0.5), 0);
	free(a);
	free(b);
	free(m);
	free(d);
}

/* Prometheus' fixed buckets: increasing, at most 25% wide, and the search
 * finds the first le at or above a value (an le is an inclusive bound). */
static void
test_prometheus_le(void **state)
{
	(void)state;
	assert_true(fabs(dp_hist_le_s(0) - 1e-6) < 1e-15);
	assert_true(fabs(dp_hist_le_s(DP_HIST_LE_COUNT - 1) - 16.777216) < 1e-9);
	assert_int_equal(dp_hist_le_find(0), 0);
	assert_int_equal(dp_hist_le_find(1e3), DP_HIST_LE_COUNT);
	for (uint32_t k = 0; k < DP_HIST_LE_COUNT; k++) {
		double le = dp_hist_le_s(k);

		if (k > 0) {
			assert_true(le > dp_hist_le_s(k - 1));
			assert_true(le <= dp_hist_le_s(k - 1) * 1.25 + 1e-15);
		}
		assert_int_equal(dp_hist_le_find(le), k);
		assert_int_equal(dp_hist_le_find(le * (1 + 1e-9)), k + 1);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_uniform),
		cmocka_unit_test(test_exponential),
		cmocka_unit_test(test_constant),
		cmocka_unit_test(test_nearest_rank),
		cmocka_unit_test(test_buckets_cover),
		cmocka_unit_test(test_merge_delta),
		cmocka_unit_test(test_prometheus_le),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
