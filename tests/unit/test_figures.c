/* SPDX-License-Identifier: BSD-3-Clause
 * Unit tests of lib/figures.c: the one definition of every figure the
 * readers show (rates, rps per mode, open sockets, elapsed and remaining,
 * state and mode names, per-second series from the primary's history).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "figures.h"
#include "rates.h"

#define HZ 1000ULL /* ticks per second: readable arithmetic */

static int
shm_setup(void **state)
{
	struct dp_shm *s = aligned_alloc(DP_CACHE_LINE, sizeof(*s));

	if (s == NULL)
		return -1;
	memset(s, 0, sizeof(*s));
	s->hdr.n_workers = 2;
	s->hdr.n_ports = 1;
	s->hdr.tsc_hz = HZ;
	*state = s;
	return 0;
}

static int
shm_teardown(void **state)
{
	free(*state);
	return 0;
}

/* One second in which a client sent 1000 GETs and got 700 2xx answers
 * and 50 errors, opened 400 connections; a server's counters would read
 * differently, so each mode's rps is told apart from the other's. */
static void
fill_second(uint64_t *a, uint64_t *b)
{
	memset(a, 0, sizeof(uint64_t) * DP_C__COUNT);
	memset(b, 0, sizeof(uint64_t) * DP_C__COUNT);
	a[DP_C_SK_OPEN] = 100;
	b[DP_C_SK_OPEN] = 500;
	b[DP_C_HTTP_GET] = 1000;
	b[DP_C_HTTP_POST] = 30;
	b[DP_C_HTTP_2XX] = 700;
	b[DP_C_HTTP_ERR] = 50;
	b[DP_C_TCP_REQ] = 11;
	b[DP_C_TCP_RSP] = 7;
	b[DP_C_BITS_RX] = 8000;
	b[DP_C_BITS_TX] = 16000;
	b[DP_C_PKT_RX] = 20;
	b[DP_C_PKT_TX] = 40;
}

static void
test_rps_per_mode(void **state)
{
	uint64_t a[DP_C__COUNT], b[DP_C__COUNT];
	struct dp_interval iv = { .a = a, .b = b, .seconds = 2.0 };
	struct dp_rates r;

	(void)state;
	fill_second(a, b);
	/* A client: the answers it received complete and 2xx (700 + 7 raw
	 * responses), not the requests it sent (1000 + 30 + 11). */
	assert_true(dp_rps(&iv, DP_MODE_CLIENT) == (700.0 + 7.0) / 2.0);
	/* A server: the well-formed requests it received, POSTs included;
	 * not its answers, and not httpErr. */
	assert_true(dp_rps(&iv, DP_MODE_SERVER) == (1000.0 + 30.0 + 11.0) / 2.0);
	dp_rates(&iv, DP_MODE_CLIENT, &r);
	assert_true(r.rps == 353.5);
	assert_true(r.cps == 200.0);
	assert_true(r.bps_rx == 4000.0 && r.bps_tx == 8000.0);
	assert_true(r.pps_rx == 10.0 && r.pps_tx == 20.0);
}

static void
test_rate_edges(void **state)
{
	(void)state;
	assert_true(dp_per_sec(10, 30, 2.0) == 10.0);
	assert_true(dp_per_sec(30, 10, 2.0) == 0.0); /* a restarted primary */
	assert_true(dp_per_sec(10, 30, 0.0) == 0.0); /* an empty interval */
	assert_true(dp_per_sec(10, 30, -1.0) == 0.0);
}

/* Open sockets: the configured workers' sk_cur, and the snapshot's total
 * is that figure, its per-worker rows adding up to it. */
static void
test_open_sockets(void **state)
{
	struct dp_shm *s = *state;
	struct dp_snapshot *sn = calloc(1, sizeof(*sn));
	uint64_t per[DP_MAX_WORKERS] = { 0 };

	assert_non_null(sn);
	s->workers[0].sk_cur = 300;
	s->workers[1].sk_cur = 250;
	s->workers[2].sk_cur = 9999; /* not a worker of this primary */
	assert_int_equal(dp_open_sockets(s, NULL), 550);
	assert_int_equal(dp_open_sockets(s, per), 550);
	assert_int_equal(per[0], 300);
	assert_int_equal(per[1], 250);
	assert_int_equal(per[2], 0);
	dp_snapshot_take(s, 1, sn);
	assert_int_equal(sn->sk_cur, 550);
	assert_int_equal(sn->w_sk_cur[0] + sn->w_sk_cur[1], sn->sk_cur);
	s->hdr.n_workers = 10000; /* bounded by the memzone */
	assert_int_equal(dp_shm_n_workers(s), DP_MAX_WORKERS);
	free(sn);
}

static void
test_names(void **state)
{
	static const char *const st[] = { "init", "wait", "slow-start", "running",
					  "paused", "link-down", "stopping", "done" };

	(void)state;
	assert_int_equal(sizeof(st) / sizeof(st[0]), DP_ST__COUNT);
	for (uint32_t i = 0; i < DP_ST__COUNT; i++)
		assert_string_equal(dp_state_name(i), st[i]);
	assert_string_equal(dp_state_name(DP_ST__COUNT), "unknown");
	assert_string_equal(dp_state_name(UINT32_MAX), "unknown");
	assert_string_equal(dp_mode_name(DP_MODE_CLIENT), "client");
	assert_string_equal(dp_mode_name(DP_MODE_SERVER), "server");
	assert_string_equal(dp_mode_name(DP_MODE_NONE), "none");
	assert_string_equal(dp_mode_name(77), "none");
}

/* Elapsed runs from the start to now, and stops with the primary. */
static void
test_clock(void **state)
{
	struct dp_shm *s = *state;

	assert_true(dp_elapsed_s(s, 5000) == 0.0); /* not started */
	s->hdr.start_tsc = 1000;
	s->ctl.lead_s = 2;
	s->ctl.duration_us = 10000000;
	assert_true(dp_elapsed_s(s, 500) == 0.0);
	assert_true(dp_elapsed_s(s, 4000) == 3.0);
	assert_true(dp_end_s(s) == 12.0);
	assert_true(dp_remaining_s(s, 4000) == 9.0);
	s->hdr.stop_tsc = 3000;
	assert_true(dp_elapsed_s(s, 4000) == 2.0);
	assert_true(dp_remaining_s(s, 4000) == 10.0);
	assert_true(dp_remaining_s(s, 90000) == 10.0);
	s->hdr.stop_tsc = 0;
	assert_true(dp_remaining_s(s, 90000) == 0.0);
}

static void
push(struct dp_shm *s, uint64_t sec, uint64_t tsc, uint64_t open, uint64_t ok, uint64_t get)
{
	struct dp_history_entry *e = &s->history[s->history_head % DP_HISTORY_LEN];

	memset(e, 0, sizeof(*e));
	e->sec = sec;
	e->tsc = tsc;
	e->c[DP_C_SK_OPEN] = open;
	e->c[DP_C_HTTP_2XX] = ok;
	e->c[DP_C_HTTP_GET] = get;
	e->c[DP_C_BITS_RX] = sec * 1000000000ULL;
	e->c[DP_C_BITS_TX] = sec * 3000000000ULL;
	s->history_head++;
}

/* The graphs' per-second series are the same figures, second by second. */
static void
test_history_series(void **state)
{
	struct dp_shm *s = *state;
	double v[8];

	s->hdr.mode = DP_MODE_CLIENT;
	assert_int_equal(dp_history_series(s, DP_SERIES_CPS, v, 8), 0);
	push(s, 1, 1000, 100, 90, 200);
	push(s, 2, 2000, 300, 290, 500);
	push(s, 3, 2500, 400, 390, 600); /* a short second: half of one */
	assert_int_equal(dp_history_series(s, DP_SERIES_CPS, v, 8), 2);
	assert_true(v[0] == 200.0 && v[1] == 200.0);
	assert_int_equal(dp_history_series(s, DP_SERIES_RPS, v, 8), 2);
	assert_true(v[0] == 200.0 && v[1] == 200.0); /* 2xx, not GETs */
	s->hdr.mode = DP_MODE_SERVER;
	assert_int_equal(dp_history_series(s, DP_SERIES_RPS, v, 8), 2);
	assert_true(v[0] == 300.0 && v[1] == 200.0);
	/* each way apart, never summed */
	assert_int_equal(dp_history_series(s, DP_SERIES_GBPS_RX, v, 8), 2);
	assert_true(v[0] == 1.0 && v[1] == 2.0);
	assert_int_equal(dp_history_series(s, DP_SERIES_GBPS_TX, v, 8), 2);
	assert_true(v[0] == 3.0 && v[1] == 6.0);
	/* At most max values: the newest. */
	assert_int_equal(dp_history_series(s, DP_SERIES_GBPS_TX, v, 1), 1);
	assert_true(v[0] == 6.0);
}

/* Latency below 10 us keeps a decimal: dperf-top printed a p50 of 0.3 us
 * as "0us" where stats printed 0.3. (dperf-report's fmt_us: the same
 * values in tests/unit/test_report_input.py.) */
static void
test_fmt_us(void **state)
{
	static const struct { double us; const char *s; } cases[] = {
		{ 0.34, "0.3us" }, { 9.94, "9.9us" }, { 9.96, "10us" }, { 15.4, "15us" },
		{ 999.4, "999us" }, { 1234.5, "1.23ms" }, { 2.5e6, "2.50s" },
	};
	char buf[16];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_string_equal(dp_fmt_us(cases[i].us, buf, sizeof(buf)), cases[i].s);
}

/* The one-shot interval from the history gives the same rps as the
 * history series for that second. */
static void
test_last_second_figures(void **state)
{
	struct dp_shm *s = *state;
	struct dp_snapshot *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
	struct dp_rates r;
	double v[4];

	assert_non_null(a);
	assert_non_null(b);
	s->hdr.mode = DP_MODE_CLIENT;
	s->hdr.start_tsc = 1;
	push(s, 1, 1000, 100, 90, 200);
	push(s, 2, 2000, 300, 290, 500);
	s->workers[0].c[DP_C_HTTP_2XX] = 350; /* now, past the second */
	s->workers[0].c[DP_C_HTTP_GET] = 560;
	assert_int_equal(dp_snapshot_last_second(s, 2300, a, b), 0);
	dp_headline(s, a, b, &r);
	assert_int_equal(dp_history_series(s, DP_SERIES_RPS, v, 4), 1);
	assert_true(r.rps == 200.0);
	assert_true(r.rps == v[0]);
	free(a);
	free(b);
}

/* TLS figures: handshakes completed per second, the share resumed (none
 * completed: -1, not 0%), failures per second by kind; and TLS told from
 * the effective configuration's protocol line only. */
static void
test_tls_figures(void **state)
{
	struct dp_shm *s = *state;
	uint64_t a[DP_C__COUNT] = { 0 }, b[DP_C__COUNT] = { 0 };
	struct dp_interval iv = { .a = a, .b = b, .seconds = 2.0 };
	struct dp_tls_rates t;

	a[DP_C_TLS_HS_DONE] = 100;
	b[DP_C_TLS_HS_DONE] = 500;
	b[DP_C_TLS_HS] = 900; /* started: not the rate */
	a[DP_C_TLS_RESUMED] = 10;
	b[DP_C_TLS_RESUMED] = 110;
	b[DP_C_TLS_F_VERIFY] = 6;
	b[DP_C_TLS_F_TIMEOUT] = 2;
	b[DP_C_TLS_ERR] = 4;
	a[DP_C_TLS_US] = 1000000;
	b[DP_C_TLS_US] = 1500000; /* 0.5 s of OpenSSL over 2 s */
	dp_tls_rates(&iv, &t);
	assert_true(t.hs == 200.0);
	assert_true(t.ossl_cores == 0.25);
	assert_true(t.resumed_share == 0.25);
	assert_true(t.fail[2] == 3.0 && t.fail[4] == 1.0 && t.fail_sum == 4.0 && t.err == 2.0);
	assert_string_equal(dp_tls_fail_label[2], "verify");
	assert_int_equal(dp_tls_fail_c[4], DP_C_TLS_F_TIMEOUT);
	memcpy(a, b, sizeof(a));
	dp_tls_rates(&iv, &t);
	assert_true(t.hs == 0.0 && t.resumed_share == -1.0 && t.fail_sum == 0.0);

	strcpy(s->config_text, "mode client\nprotocol https\nhttp_path /\n");
	assert_true(dp_is_tls(s));
	strcpy(s->config_text, "mode server\nprotocol tls\n");
	assert_true(dp_is_tls(s));
	strcpy(s->config_text, "mode client\nprotocol http\ntls_sni protocol tls\n");
	assert_false(dp_is_tls(s));
	strcpy(s->config_text, "mode client\nprotocol tcp\nhttp_path /protocol https\n");
	assert_false(dp_is_tls(s));
	memset(s->config_text, 'x', sizeof(s->config_text)); /* no terminator: bounded */
	assert_false(dp_is_tls(s));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rps_per_mode),
		cmocka_unit_test(test_rate_edges),
		cmocka_unit_test_setup_teardown(test_open_sockets, shm_setup, shm_teardown),
		cmocka_unit_test(test_names),
		cmocka_unit_test_setup_teardown(test_clock, shm_setup, shm_teardown),
		cmocka_unit_test_setup_teardown(test_history_series, shm_setup, shm_teardown),
		cmocka_unit_test(test_fmt_us),
		cmocka_unit_test_setup_teardown(test_tls_figures, shm_setup, shm_teardown),
		cmocka_unit_test_setup_teardown(test_last_second_figures, shm_setup, shm_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
