/* SPDX-License-Identifier: BSD-3-Clause
 * RTT and RTO (primary/tcp/tcp_rtt.c) against RFC 6298's formulas computed
 * here in floating point, on synthetic samples: the first one (2.2), the
 * smoothing (2.3), the bounds, back-off (5.5) and Karn's rule (3).
 */
// links: primary/tcp/tcp_rtt.c
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <math.h>
#include <stdlib.h>
#include <cmocka.h>

#include "tcp/tcp_rtt.h"

/* microseconds: initial 2 s (dperf's default retransmit_timeout), 200 ms
 * to 60 s, a 15.6 us clock */
static const struct rtt_cfg cfg = { 2000000, 200000, 60000000, 16 };

/* RFC 6298 in doubles. */
struct ref {
	double srtt, rttvar;
	int have;
};

static double
ref_sample(struct ref *f, double r, const struct rtt_cfg *c)
{
	double rto;

	if (!f->have) {
		f->srtt = r;
		f->rttvar = r / 2;
		f->have = 1;
	} else {
		f->rttvar = 0.75 * f->rttvar + 0.25 * fabs(f->srtt - r);
		f->srtt = 0.875 * f->srtt + 0.125 * r;
	}
	rto = f->srtt + fmax(c->g, 4 * f->rttvar);
	return fmin(fmax(rto, c->rto_min), c->rto_max);
}

/* The integer estimate follows the RFC's within its rounding (a few us). */
static void
check_series(const struct rtt_cfg *c, const uint32_t *s, int n)
{
	struct rtt_est r;
	struct ref f = { 0 };

	rtt_init(&r, c);
	assert_int_equal(rtt_rto(&r, c), c->rto_init); /* 2.1 */
	for (int i = 0; i < n; i++) {
		double want = ref_sample(&f, s[i], c);

		rtt_sample(&r, s[i], c);
		assert_true(fabs(rtt_srtt(&r) - f.srtt) <= 2);
		assert_true(fabs(r.rttvar4 / 4.0 - f.rttvar) <= 2);
		assert_true(fabs(rtt_rto(&r, c) - want) <= 8);
	}
}

static void
first_sample(void **state)
{
	struct rtt_est r;

	(void)state;
	rtt_init(&r, &cfg);
	rtt_sample(&r, 300000, &cfg); /* 300 ms: RTO = R + 4 x R/2 = 900 ms */
	assert_int_equal(rtt_srtt(&r), 300000);
	assert_int_equal(r.rttvar4, 4 * 150000);
	assert_int_equal(rtt_rto(&r, &cfg), 900000);
}

static void
series(void **state)
{
	/* steady, then a step up, jitter, a step down */
	static const uint32_t a[] = { 100000, 100000, 100000, 100000, 400000, 400000, 420000, 380000,
				      400000, 50000, 60000, 40000, 55000, 50000, 50000, 50000 };
	/* large: near the maximum, clamped there */
	static const uint32_t b[] = { 30000000, 50000000, 59000000, 45000000 };
	/* small: the minimum governs; G matters once RTTVAR is below it */
	static const struct rtt_cfg tiny = { 1000, 10, 60000000, 16 };
	static const uint32_t c[] = { 40, 40, 40, 40, 40, 40, 40, 40, 40, 40, 40, 40, 40, 40, 40, 40, 40, 40 };
	uint32_t rnd[500];

	(void)state;
	check_series(&cfg, a, sizeof(a) / sizeof(a[0]));
	check_series(&cfg, b, sizeof(b) / sizeof(b[0]));
	check_series(&tiny, c, sizeof(c) / sizeof(c[0]));
	srand(6298);
	for (int i = 0; i < 500; i++)
		rnd[i] = 1000 + (uint32_t)(rand() % 900000);
	check_series(&cfg, rnd, 500);
}

static void
bounds(void **state)
{
	struct rtt_est r;

	(void)state;
	rtt_init(&r, &cfg);
	rtt_sample(&r, 20, &cfg); /* 20 us: the minimum */
	assert_int_equal(rtt_rto(&r, &cfg), cfg.rto_min);
	rtt_init(&r, &cfg);
	rtt_sample(&r, 40000000, &cfg); /* 40 s: 120 s clamped to 60 */
	assert_int_equal(rtt_rto(&r, &cfg), cfg.rto_max);
}

/* 5.5: doubled for each timeout, up to the maximum; a sample ends it. */
static void
backoff(void **state)
{
	struct rtt_est r;

	(void)state;
	rtt_init(&r, &cfg);
	rtt_sample(&r, 300000, &cfg);
	rtt_backoff(&r, &cfg);
	assert_int_equal(rtt_rto(&r, &cfg), 1800000);
	rtt_backoff(&r, &cfg);
	assert_int_equal(rtt_rto(&r, &cfg), 3600000);
	for (int i = 0; i < 40; i++)
		rtt_backoff(&r, &cfg);
	assert_int_equal(rtt_rto(&r, &cfg), cfg.rto_max);
	rtt_sample(&r, 300000, &cfg);
	assert_int_equal(rtt_rto(&r, &cfg), 300000 + 4 * 112500); /* RTTVAR 150 -> 112.5 ms */
}

/* Karn: the timed segment sent again gives no sample, and the backed-off
 * RTO stays; the next segment sent once gives one and ends the back-off. */
static void
karn(void **state)
{
	struct rtt_est r;

	(void)state;
	rtt_init(&r, &cfg);
	rtt_sent(&r, 1000, 0);
	rtt_sent(&r, 2000, 10); /* one timed at a time: the first */
	assert_int_equal(rtt_ack(&r, 999, 50000, &cfg), 0); /* not yet covered */
	assert_int_equal(rtt_ack(&r, 1000, 100000, &cfg), 1);
	assert_int_equal(rtt_srtt(&r), 100000);
	rtt_sent(&r, 3000, 200000);
	rtt_backoff(&r, &cfg); /* the timer: it goes again */
	assert_int_equal(rtt_rto(&r, &cfg), 2 * 300000);
	assert_int_equal(rtt_ack(&r, 3000, 5200000, &cfg), 0); /* 5 s would be wrong */
	assert_int_equal(rtt_srtt(&r), 100000);
	assert_int_equal(rtt_rto(&r, &cfg), 2 * 300000);
	rtt_sent(&r, 4000, 6000000);
	rtt_resent(&r); /* a fast retransmit: also no sample */
	assert_int_equal(rtt_ack(&r, 4000, 9000000, &cfg), 0);
	rtt_sent(&r, 5000, 9000000);
	assert_int_equal(rtt_ack(&r, 5000, 9100000, &cfg), 1);
	assert_int_equal(r.backoff, 0);
	assert_int_equal(rtt_srtt(&r), 100000);
	/* across 2^32 */
	rtt_sent(&r, 0xfffffff0u, 9200000);
	assert_int_equal(rtt_ack(&r, 0x10, 9300000, &cfg), 1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(first_sample),
		cmocka_unit_test(series),
		cmocka_unit_test(bounds),
		cmocka_unit_test(backoff),
		cmocka_unit_test(karn),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
