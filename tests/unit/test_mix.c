/* SPDX-License-Identifier: BSD-3-Clause
 * The kinds' weighted pick (primary/state/mix.h): shares within 1% of the
 * weights over 100,000 picks, the same sequence for the same seed and
 * worker, weight 0 never picked, all zeros refused, a new table taken
 * mid-run.
 */
// links: primary/state/mix.c
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "state/mix.h"

#define PICKS 100000

/* Every share within 1 percentage point of its weight's, and no pick of a
 * kind of weight 0. */
static void
check_shares(const uint32_t *w, uint32_t n, uint64_t seed, uint32_t worker)
{
	struct mix_table t = { 0 };
	uint32_t count[MIX_MAX_KINDS] = { 0 };
	uint64_t sum = 0;
	struct mix m;

	assert_int_equal(mix_table_build(&t, w, n), 0);
	mix_init(&m, seed, worker, &t);
	for (uint32_t i = 0; i < n; i++)
		sum += w[i];
	for (int i = 0; i < PICKS; i++) {
		uint32_t k = mix_pick(&m);

		assert_true(k < n);
		count[k]++;
	}
	for (uint32_t i = 0; i < n; i++) {
		double want = (double)w[i] / (double)sum, got = (double)count[i] / PICKS;

		if (w[i] == 0)
			assert_int_equal(count[i], 0);
		if (got - want > 0.01 || want - got > 0.01)
			fail_msg("kind %u: share %.4f, weight's %.4f (seed %llu worker %u)", i, got,
				 want, (unsigned long long)seed, worker);
	}
}

static void
test_shares(void **state)
{
	static const uint32_t w3[] = { 70, 20, 10 };
	static const uint32_t w16[] = { 1, 0, 5, 100, 7, 0, 33, 2, 1000, 1, 0, 50, 9, 12, 400, 3 };
	static const uint32_t skew[] = { 1, 0, 1000000, 0 };
	static const uint32_t one[] = { 5 };
	static const uint32_t eq[] = { 1, 1, 1, 1, 1, 1, 1 };

	(void)state;
	for (uint64_t seed = 0; seed < 4; seed++)
		for (uint32_t worker = 0; worker < 3; worker++) {
			check_shares(w3, 3, seed, worker);
			check_shares(w16, 16, seed, worker);
		}
	check_shares(skew, 4, 9, 0);
	check_shares(one, 1, 1, 0);
	check_shares(eq, 7, 1, 0);
}

/* The table itself: each column's share of the draws, summed per kind,
 * is its weight's to 2^-32 per column (the shares test above allows 1%). */
static void
test_table_exact(void **state)
{
	static const uint32_t w[] = { 3, 0, 7, 11, 0, 1 };
	double share[6] = { 0 };
	struct mix_table t = { 0 };

	(void)state;
	assert_int_equal(mix_table_build(&t, w, 6), 0);
	for (uint32_t c = 0; c < t.n; c++) {
		double p = t.prob[c] == UINT32_MAX ? 1.0 : (double)t.prob[c] / 4294967296.0;

		share[c] += p / t.n;
		share[t.alias[c]] += (1.0 - p) / t.n;
	}
	for (int i = 0; i < 6; i++) {
		double want = w[i] / 22.0;

		assert_true(share[i] - want < 1e-8 && want - share[i] < 1e-8);
		if (w[i] == 0)
			assert_true(share[i] == 0.0);
	}
}

static void
test_same_seed(void **state)
{
	static const uint32_t w[] = { 70, 20, 10, 5, 0, 1 };
	struct mix_table t = { 0 };
	struct mix a, b, c, d;
	int same_c = 0, same_d = 0;

	(void)state;
	assert_int_equal(mix_table_build(&t, w, 6), 0);
	mix_init(&a, 42, 1, &t);
	mix_init(&b, 42, 1, &t);
	mix_init(&c, 43, 1, &t); /* another seed */
	mix_init(&d, 42, 2, &t); /* another worker */
	for (int i = 0; i < PICKS; i++) {
		uint32_t k = mix_pick(&a);

		assert_int_equal(k, mix_pick(&b));
		same_c += k == mix_pick(&c);
		same_d += k == mix_pick(&d);
	}
	/* two independent sequences agree about sum(p_i^2) of the time: 48% here */
	assert_true(same_c < PICKS * 6 / 10);
	assert_true(same_d < PICKS * 6 / 10);
}

static void
test_refused(void **state)
{
	static const uint32_t zeros[] = { 0, 0, 0 };
	static const uint32_t ok[] = { 1, 2 };
	uint32_t many[MIX_MAX_KINDS + 1];
	struct mix_table t = { 0 };

	(void)state;
	for (int i = 0; i <= MIX_MAX_KINDS; i++)
		many[i] = 1;
	assert_int_equal(mix_table_build(&t, ok, 2), 0);
	assert_int_equal(mix_table_build(&t, zeros, 3), -1);
	assert_int_equal(t.n, 2); /* left as it was */
	assert_int_equal(mix_table_build(&t, ok, 0), -1);
	assert_int_equal(mix_table_build(&t, many, MIX_MAX_KINDS + 1), -1);
	assert_int_equal(mix_table_build(&t, many, MIX_MAX_KINDS), 0);
}

/* A worker takes a new table at a tick: the picks after it follow the new
 * weights, a kind turned to 0 is no longer picked, and the sequence is
 * still the seed's (two workers swapping at the same pick agree). */
static void
test_swap(void **state)
{
	static const uint32_t before[] = { 50, 50, 0 }, after[] = { 0, 10, 90 };
	struct mix_table t1 = { 0 }, t2 = { 0 };
	uint32_t count[3] = { 0 };
	struct mix a, b;

	(void)state;
	assert_int_equal(mix_table_build(&t1, before, 3), 0);
	assert_int_equal(mix_table_build(&t2, after, 3), 0);
	mix_init(&a, 7, 0, &t1);
	mix_init(&b, 7, 0, &t1);
	for (int i = 0; i < 1000; i++) {
		uint32_t k = mix_pick(&a);

		assert_int_not_equal(k, 2);
		assert_int_equal(k, mix_pick(&b));
	}
	mix_swap(&a, &t2);
	mix_swap(&b, &t2);
	for (int i = 0; i < PICKS; i++) {
		uint32_t k = mix_pick(&a);

		assert_int_equal(k, mix_pick(&b));
		count[k]++;
	}
	assert_int_equal(count[0], 0);
	assert_true(count[1] > PICKS * 9 / 100 && count[1] < PICKS * 11 / 100);
	assert_true(count[2] > PICKS * 89 / 100 && count[2] < PICKS * 91 / 100);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shares),
		cmocka_unit_test(test_table_exact),
		cmocka_unit_test(test_same_seed),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_swap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
