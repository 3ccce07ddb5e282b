/* SPDX-License-Identifier: BSD-3-Clause
 * Unit tests of lib/rates.c: snapshots, rates, busy share, SI format.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "rates.h"

#define HZ 1000ULL /* 1000 ticks per second keeps the arithmetic readable */

static int
shm_setup(void **state)
{
	/* struct dp_shm is cache-line aligned and large: heap, aligned. */
	struct dp_shm *s = aligned_alloc(DP_CACHE_LINE, sizeof(*s));

	if (s == NULL)
		return -1;
	memset(s, 0, sizeof(*s));
	s->hdr.n_workers = 2;
	s->hdr.n_ports = 1;
	*state = s;
	return 0;
}

static int
shm_teardown(void **state)
{
	free(*state);
	return 0;
}

static struct dp_snapshot *
snap(void)
{
	struct dp_snapshot *sn = calloc(1, sizeof(*sn));

	assert_non_null(sn);
	return sn;
}

/* A client's kinds in the snapshot (issue 37): each kind's counters
 * summed and histograms merged over the configured workers, rows beyond
 * the kinds untouched; a copy carries every field and the kinds' rows,
 * no more; the one-shot pair (dp_snapshot_last_second) has no per-kind
 * figures between its snapshots. */
static void
test_snapshot_kinds(void **state)
{
	struct dp_shm *s = *state;
	struct dp_snapshot *a = snap(), *b = snap();
	struct dp_lat l;

	s->kinds.n = 2;
	s->wkinds[0].c[1][DP_KC_REQ] = 7;
	s->wkinds[1].c[1][DP_KC_REQ] = 5;
	s->wkinds[2].c[1][DP_KC_REQ] = 1000; /* not a configured worker */
	dp_hist_add(&s->klat[0].h[1][DP_KLAT_RESPONSE], 10);
	dp_hist_add(&s->klat[1].h[1][DP_KLAT_RESPONSE], 30);
	dp_hist_add(&s->klat[2].h[1][DP_KLAT_RESPONSE], 50);
	memset(b->klat[2], 0xab, sizeof(b->klat[2]));
	dp_snapshot_take(s, 100, b);
	assert_int_equal(b->n_kinds, 2);
	assert_int_equal(b->kc[1][DP_KC_REQ], 12);
	assert_int_equal(b->klat[1][DP_KLAT_RESPONSE].count, 2);
	assert_int_equal(b->klat[1][DP_KLAT_RESPONSE].max, 30);
	assert_int_equal(b->klat[2][0].count, 0xababababababababULL); /* beyond the kinds: left */
	memset(a, 0xcd, sizeof(*a));
	dp_snapshot_copy(a, b);
	assert_memory_equal(a, b, offsetof(struct dp_snapshot, klat));
	assert_memory_equal(a->klat, b->klat, 2 * sizeof(a->klat[0]));
	assert_int_equal(a->klat[2][0].count, 0xcdcdcdcdcdcdcdcdULL);
	/* the interval between them: empty, and each kind's total */
	dp_klat_between(a, b, 1, DP_KLAT_RESPONSE, 1000, &l);
	assert_int_equal(l.count, 0);
	dp_klat_total(b, 1, DP_KLAT_RESPONSE, 1000, &l);
	assert_int_equal(l.count, 2);
	assert_true(l.p99 == 30000.0);
	a->kinds_at_tsc = 0; /* as dp_snapshot_last_second leaves its older one */
	dp_hist_add(&s->klat[0].h[1][DP_KLAT_RESPONSE], 20);
	dp_snapshot_take(s, 200, b);
	assert_false(dp_kinds_between(a, b));
	dp_klat_between(a, b, 1, DP_KLAT_RESPONSE, 1000, &l);
	assert_int_equal(l.count, 0);
	a->kinds_at_tsc = 1;
	dp_klat_between(a, b, 1, DP_KLAT_RESPONSE, 1000, &l);
	assert_int_equal(l.count, 1);
	assert_true(l.p50 == 20000.0);
	/* the one-shot pair: no per-kind figures between them */
	s->history[0].sec = 1;
	s->history[0].tsc = 250;
	s->history_head = 1;
	assert_int_equal(dp_snapshot_last_second(s, 300, a, b), 0);
	assert_int_equal(a->n_kinds, 2);
	assert_false(dp_kinds_between(a, b));
	dp_klat_between(a, b, 1, DP_KLAT_RESPONSE, 1000, &l);
	assert_int_equal(l.count, 0);
	free(a);
	free(b);
}

static void
test_snapshot_sums(void **state)
{
	struct dp_shm *s = *state;
	struct dp_snapshot *a = snap();

	s->workers[0].c[DP_C_PKT_RX] = 10;
	s->workers[1].c[DP_C_PKT_RX] = 5;
	s->workers[0].sk_cur = 3;
	s->workers[1].sk_cur = 4;
	s->workers[2].c[DP_C_PKT_RX] = 1000; /* not a configured worker */
	s->ports[0].c[DP_PC_IPACKETS] = 77;
	dp_snapshot_take(s, 123, a);
	assert_int_equal(a->tsc, 123);
	assert_int_equal(a->n_workers, 2);
	assert_int_equal(a->n_ports, 1);
	assert_int_equal(a->c[DP_C_PKT_RX], 15);
	assert_int_equal(a->wc[1][DP_C_PKT_RX], 5);
	assert_int_equal(a->sk_cur, 7);
	assert_int_equal(a->w_sk_cur[0], 3);
	assert_int_equal(a->pc[0][DP_PC_IPACKETS], 77);
	free(a);
}

static void
test_snapshot_clamps_counts(void **state)
{
	struct dp_shm *s = *state;
	struct dp_snapshot *a = snap();

	s->hdr.n_workers = 1000;
	s->hdr.n_ports = 99;
	dp_snapshot_take(s, 1, a);
	assert_int_equal(a->n_workers, DP_MAX_WORKERS);
	assert_int_equal(a->n_ports, DP_MAX_PORTS);
	free(a);
}

static void
test_rate(void **state)
{
	struct dp_shm *s = *state;
	struct dp_snapshot *a = snap(), *b = snap();

	s->workers[0].c[DP_C_SK_OPEN] = 1000;
	s->workers[1].c[DP_C_SK_OPEN] = 500;
	dp_snapshot_take(s, 1000, a);
	s->workers[0].c[DP_C_SK_OPEN] += 2000;
	s->workers[1].c[DP_C_SK_OPEN] += 1000;
	dp_snapshot_take(s, 3000, b); /* 2 seconds later */
	assert_float_equal(dp_rate(a, b, DP_C_SK_OPEN, HZ), 1500.0, 1e-9);
	assert_float_equal(dp_rate_worker(a, b, 0, DP_C_SK_OPEN, HZ), 1000.0, 1e-9);
	assert_float_equal(dp_rate_worker(a, b, 1, DP_C_SK_OPEN, HZ), 500.0, 1e-9);
	assert_float_equal(dp_rate_worker(a, b, DP_MAX_WORKERS, DP_C_SK_OPEN, HZ), 0.0, 0);
	assert_float_equal(dp_rate(a, b, DP_C_PKT_TX, HZ), 0.0, 0); /* unchanged */
	free(a);
	free(b);
}

static void
test_rate_port(void **state)
{
	struct dp_shm *s = *state;
	struct dp_snapshot *a = snap(), *b = snap();

	s->ports[0].c[DP_PC_OBYTES] = 100;
	dp_snapshot_take(s, 0, a);
	s->ports[0].c[DP_PC_OBYTES] = 600;
	dp_snapshot_take(s, 500, b); /* half a second */
	assert_float_equal(dp_rate_port(a, b, 0, DP_PC_OBYTES, HZ), 1000.0, 1e-9);
	assert_float_equal(dp_rate_port(a, b, DP_MAX_PORTS, DP_PC_OBYTES, HZ), 0.0, 0);
	free(a);
	free(b);
}

static void
test_rate_degenerate(void **state)
{
	struct dp_shm *s = *state;
	struct dp_snapshot *a = snap(), *b = snap();

	s->workers[0].c[DP_C_PKT_TX] = 100;
	dp_snapshot_take(s, 1000, a);
	s->workers[0].c[DP_C_PKT_TX] = 200;
	dp_snapshot_take(s, 1000, b);
	assert_float_equal(dp_rate(a, b, DP_C_PKT_TX, HZ), 0.0, 0); /* empty interval */
	dp_snapshot_take(s, 500, b);
	assert_float_equal(dp_rate(a, b, DP_C_PKT_TX, HZ), 0.0, 0); /* time went back */
	dp_snapshot_take(s, 2000, b);
	assert_float_equal(dp_rate(a, b, DP_C_PKT_TX, 0), 0.0, 0);  /* no clock rate */
	s->workers[0].c[DP_C_PKT_TX] = 10;                           /* primary restarted */
	dp_snapshot_take(s, 2000, b);
	assert_float_equal(dp_rate(a, b, DP_C_PKT_TX, HZ), 0.0, 0);
	free(a);
	free(b);
}

static void
test_delta(void **state)
{
	(void)state;
	assert_int_equal(dp_delta(10, 15), 5);
	assert_int_equal(dp_delta(15, 15), 0);
	assert_int_equal(dp_delta(15, 10), 0);
	assert_int_equal(dp_delta(0, UINT64_MAX), UINT64_MAX);
	assert_int_equal(dp_delta(UINT64_MAX, 0), 0);
}

static void
test_worker_busy(void **state)
{
	struct dp_shm *s = *state;
	struct dp_snapshot *a = snap(), *b = snap();

	dp_snapshot_take(s, 0, a);
	assert_float_equal(dp_worker_busy(a, a, 0), 0.0, 0); /* no loop time */
	s->workers[0].busy_tsc = 50;
	s->workers[0].loop_tsc = 200;
	s->workers[1].busy_tsc = 300; /* more than the loop: clamped */
	s->workers[1].loop_tsc = 200;
	dp_snapshot_take(s, 100, b);
	assert_float_equal(dp_worker_busy(a, b, 0), 0.25, 1e-12);
	assert_float_equal(dp_worker_busy(a, b, 1), 1.0, 0);
	assert_float_equal(dp_worker_busy(a, b, DP_MAX_WORKERS), 0.0, 0);
	assert_float_equal(dp_worker_busy(b, a, 0), 0.0, 0); /* reversed: clamped deltas */
	free(a);
	free(b);
}

/* One-shot readers: the last completed second, from the history, with
 * the latency the primary recorded for it. */
static void
test_last_second(void **state)
{
	struct dp_shm *s = *state;
	struct dp_snapshot *a = snap(), *b = snap();
	struct dp_lat l;

	s->hdr.start_tsc = 100;
	assert_int_equal(dp_snapshot_last_second(s, 5000, a, b), -1);
	/* Second 1: from the start, counters from zero. */
	s->history[0].sec = 1;
	s->history[0].tsc = 1100;
	s->history[0].c[DP_C_HTTP_2XX] = 40;
	s->history[0].lat[1].count = 40;
	s->history[0].lat[1].p50 = 20000.0;
	s->history_head = 1;
	s->workers[0].c[DP_C_HTTP_2XX] = 77; /* now: past the second */
	assert_int_equal(dp_snapshot_last_second(s, 5000, a, b), 0);
	/* Totals now; the interval, the first second's. */
	assert_int_equal(b->tsc, 5000);
	assert_int_equal(a->tsc, 4000);
	assert_int_equal(b->c[DP_C_HTTP_2XX], 77);
	assert_int_equal(a->c[DP_C_HTTP_2XX], 37);
	assert_true(dp_rate(a, b, DP_C_HTTP_2XX, HZ) == 40.0);
	dp_lat_between(a, b, 1, HZ, &l);
	assert_int_equal(l.count, 40);
	assert_true(l.p50 == 20000.0);
	/* Second 2: between the last two entries. */
	s->history[1].sec = 2;
	s->history[1].tsc = 2100;
	s->history[1].c[DP_C_HTTP_2XX] = 90;
	s->history[1].lat[0].count = 50;
	s->history_head = 2;
	s->workers[0].c[DP_C_HTTP_2XX] = 95;
	assert_int_equal(dp_snapshot_last_second(s, 5000, a, b), 0);
	assert_int_equal(b->tsc - a->tsc, 1000);
	assert_int_equal(b->c[DP_C_HTTP_2XX], 95);
	assert_true(dp_rate(a, b, DP_C_HTTP_2XX, HZ) == 50.0);
	dp_lat_between(a, b, 0, HZ, &l);
	assert_int_equal(l.count, 50);
	dp_lat_between(a, b, 1, HZ, &l);
	assert_int_equal(l.count, 0);
	free(a);
	free(b);
}

static void
test_fmt_si(void **state)
{
	static const struct {
		double v;
		const char *s;
	} cases[] = {
		{ 0, "0" },           { 999, "999" },       { 1000, "1.00K" },
		{ 1234567, "1.23M" }, { 2.5e9, "2.50G" },   { 4e12, "4.00T" },
		{ 1e15, "1000.00T" }, { -1500, "-1.50K" },  { 12.4, "12" },
	};
	char buf[32];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_ptr_equal(dp_fmt_si(cases[i].v, buf, sizeof(buf)), buf);
		assert_string_equal(buf, cases[i].s);
	}
	dp_fmt_si(1234567, buf, 4); /* truncated, still terminated */
	assert_string_equal(buf, "1.2");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_snapshot_sums, shm_setup, shm_teardown),
		cmocka_unit_test_setup_teardown(test_snapshot_clamps_counts, shm_setup,
						shm_teardown),
		cmocka_unit_test_setup_teardown(test_rate, shm_setup, shm_teardown),
		cmocka_unit_test_setup_teardown(test_rate_port, shm_setup, shm_teardown),
		cmocka_unit_test_setup_teardown(test_rate_degenerate, shm_setup, shm_teardown),
		cmocka_unit_test(test_delta),
		cmocka_unit_test_setup_teardown(test_worker_busy, shm_setup, shm_teardown),
		cmocka_unit_test(test_fmt_si),
		cmocka_unit_test_setup_teardown(test_last_second, shm_setup, shm_teardown),
		cmocka_unit_test_setup_teardown(test_snapshot_kinds, shm_setup, shm_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
