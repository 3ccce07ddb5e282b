/* SPDX-License-Identifier: BSD-3-Clause
 * Unit tests of lib/run_log.c: the -o summary's per-second history (its
 * ring once full) and changes, as the JSON dperf-report reads.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctl_msg.h"
#include "run_log.h"
#include "stats_out.h"

#define HZ 1000ULL

struct fixture {
	struct dp_shm *s;
	struct dp_snapshot *a, *b;
};

static int
setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	f->s = aligned_alloc(DP_CACHE_LINE, sizeof(*f->s));
	f->a = calloc(1, sizeof(*f->a));
	f->b = calloc(1, sizeof(*f->b));
	if (f->s == NULL || f->a == NULL || f->b == NULL)
		return -1;
	memset(f->s, 0, sizeof(*f->s));
	f->s->hdr.n_workers = 1;
	f->s->hdr.n_ports = 1;
	f->s->hdr.tsc_hz = HZ;
	f->s->hdr.mode = DP_MODE_CLIENT;
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	struct fixture *f = *state;

	free(f->s);
	free(f->a);
	free(f->b);
	free(f);
	return 0;
}

/* Second i opens 100 * i connections; its snapshot in f->b. */
static void
run_second(struct fixture *f, struct dp_run_log *r, int i)
{
	*f->a = *f->b;
	f->s->workers[0].c[DP_C_SK_OPEN] += 100 * (uint64_t)i;
	f->s->ports[0].c[DP_PC_IMISSED] += (uint64_t)i;
	dp_snapshot_take(f->s, (uint64_t)i * HZ, f->b);
	dp_run_log_second(r, f->s, f->a, f->b);
}

static char *
summary(struct fixture *f, struct dp_run_log *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	assert_non_null(m);
	dp_summary_json(m, f->s, f->a, f->b, r);
	fclose(m);
	return buf;
}

/* Every name the report plots as an error is a counter of ours or of the
 * ports (no name left behind by a counter's change of meaning), and the
 * losses our TCP counts are among them: oooDrop (not held out of order),
 * pipeFull, launchFull; tcpOoo, now a segment held, is not. */
/* noinline: inlined, GCC 12 takes j for the address of summary()'s local */
static __attribute__((noinline)) void
check_error_names(const char *j)
{
	const char *p = strstr(j, "\"error_counters\":["), *e;
	int seen[3] = {0};

	assert_non_null(p);
	p += strlen("\"error_counters\":[");
	for (; *p == '"'; p = e + (e[1] == ',' ? 2 : 1)) {
		char name[64];
		int known = 0;

		e = strchr(p + 1, '"');
		assert_non_null(e);
		assert_true((size_t)(e - p - 1) < sizeof(name));
		memcpy(name, p + 1, (size_t)(e - p - 1));
		name[e - p - 1] = 0;
		for (int k = 0; k < DP_C__COUNT; k++)
			known |= strcmp(name, dp_counter_names[k]) == 0;
		for (int k = 0; k < DP_PC__COUNT; k++)
			known |= strcmp(name, dp_port_counter_names[k]) == 0;
		if (!known)
			fail_msg("error_counters: %s is no counter", name);
		if (strcmp(name, "tcpOoo") == 0)
			fail_msg("error_counters: tcpOoo counts segments held, not lost");
		seen[0] |= strcmp(name, "oooDrop") == 0;
		seen[1] |= strcmp(name, "pipeFull") == 0;
		seen[2] |= strcmp(name, "launchFull") == 0;
	}
	assert_true(seen[0] && seen[1] && seen[2]);
}

/* Every second's rate comes from its own two ends; a full log keeps the
 * last seconds and says how many it dropped. */
static void
test_history_ring(void **state)
{
	struct fixture *f = *state;
	struct dp_run_log r;
	char *j;

	dp_snapshot_take(f->s, 0, f->b);
	dp_run_log_begin(&r, f->s, f->b, 3);
	for (int i = 1; i <= 5; i++)
		run_second(f, &r, i);
	j = summary(f, &r);
	assert_non_null(strstr(j, "\"format\":\"dperf-summary\",\"format_version\":1,"));
	assert_non_null(strstr(j, "\"history_seconds_max\":3,\"history_dropped\":2,"));
	/* seconds 3, 4, 5 at 300, 400, 500 cps, imissed 3, 4, 5 a second */
	assert_non_null(strstr(j, "\"history\":[{\"sec\":3,\"elapsed\":3.000,\"interval\":1.000,"));
	assert_non_null(strstr(j, "\"target_cps\":0,\"cps\":300.0,"));
	assert_non_null(strstr(j, "\"cps\":400.0,"));
	assert_non_null(strstr(j, "\"cps\":500.0,"));
	assert_null(strstr(j, "\"cps\":200.0,"));
	assert_non_null(strstr(j, "\"imissed\":5.0,\"rxNombuf\":0.0,\"linkDown\":0.0,\"linkUp\":0.0}}]"));
	assert_non_null(strstr(j, "\"error_counters\":[\"dropTx\","));
	/* the report plots failed TLS handshakes, each kind, as errors */
	assert_non_null(strstr(j, ",\"tlsFailAlert\",\"tlsFailProto\",\"tlsFailVerify\",\"tlsFailEof\",\"tlsFailTimeout\",\"tlsFailInternal\",\"tlsErr\"]"));
	check_error_names(j);
	free(j);
	dp_run_log_free(&r);
}

static void
change(struct dp_shm *s, uint32_t what, int64_t old, int64_t val, uint64_t tsc)
{
	struct dp_change *ch = &s->ctl.changes[s->ctl.n_changes % DP_CHANGES_LEN];

	ch->tsc = tsc;
	ch->what = what;
	ch->old_value = old;
	ch->new_value = val;
	s->ctl.n_changes++;
}

/* Changes are copied with their times; more than the memzone's ring
 * between two reads are counted lost, not invented. */
static void
test_changes(void **state)
{
	struct fixture *f = *state;
	struct dp_run_log r;
	char *j;

	change(f->s, DP_OP_STOP, 0, 1, 1); /* before the log began: not its */
	dp_snapshot_take(f->s, 0, f->b);
	dp_run_log_begin(&r, f->s, f->b, 0);
	change(f->s, DP_OP_SET_CPS, 100, 2000, 2500);
	dp_run_log_changes(&r, f->s);
	for (int i = 0; i < DP_CHANGES_LEN + 3; i++)
		change(f->s, DP_OP_PAUSE, 0, 1, 3000);
	dp_run_log_changes(&r, f->s);
	j = summary(f, &r);
	assert_non_null(strstr(j, "\"history\":[],\"changes_lost\":3,\"changes\":[{\"elapsed\":2.500,\"what\":\"set cps\",\"old\":100,\"new\":2000},{\"elapsed\":3.000,\"what\":\"pause\""));
	assert_int_equal(r.n_ch, 1 + DP_CHANGES_LEN);
	free(j);
	dp_run_log_free(&r);
}

/* A traffic mix (issue 37): each second's requests per kind, so the
 * shares' change after a set weight shows in the history, and the change
 * itself with its kind's name; a run without kinds has neither. */
static void
test_kind_rates(void **state)
{
	struct fixture *f = *state;
	struct dp_shm *s = f->s;
	struct dp_run_log r;
	char *j;

	dp_snapshot_take(s, 0, f->b);
	dp_run_log_begin(&r, s, f->b, 0);
	run_second(f, &r, 1);
	j = summary(f, &r);
	assert_null(strstr(j, "kind_rates"));
	free(j);
	dp_run_log_free(&r);

	memset(f->b, 0, sizeof(*f->b));
	s->kinds.n = 2;
	snprintf(s->kinds.name[0], sizeof(s->kinds.name[0]), "small");
	snprintf(s->kinds.name[1], sizeof(s->kinds.name[1]), "big");
	s->wkinds[0].c[0][DP_KC_REQ] = 5; /* before the log: not a second's */
	dp_snapshot_take(s, 0, f->b);
	dp_run_log_begin(&r, s, f->b, 0);
	s->wkinds[0].c[0][DP_KC_REQ] += 70;
	s->wkinds[0].c[1][DP_KC_REQ] += 30;
	for (int i = 0; i < 10; i++) /* big's answers over the second: 20 ms, one 50 ms */
		dp_hist_add(&s->klat[0].h[1][DP_KLAT_RESPONSE], i == 9 ? 50 : 20);
	run_second(f, &r, 1);
	s->ctl.changes[0] = (struct dp_change){ .tsc = 1500, .what = DP_OP_SET_WEIGHT, .kind = 1,
						.old_value = 30, .new_value = 0 };
	s->ctl.n_changes = 1;
	dp_run_log_changes(&r, s);
	s->wkinds[0].c[0][DP_KC_REQ] += 100;
	run_second(f, &r, 2);
	j = summary(f, &r);
	/* and each kind's response latency over the second, when it had any */
	assert_non_null(strstr(j, ",\"kind_rates\":{\"small\":{\"requests\":70.0,\"responses\":0},\"big\":{"
				  "\"requests\":30.0,\"responses\":10,\"response_p50_us\":20000.0,\"response_p99_us\":50000.0}}}"));
	assert_non_null(strstr(j, ",\"kind_rates\":{\"small\":{\"requests\":100.0,\"responses\":0},\"big\":{"
				  "\"requests\":0.0,\"responses\":0}}}"));
	assert_non_null(strstr(j, "\"changes\":[{\"elapsed\":1.500,\"what\":\"set weight\",\"kind\":\"big\",\"old\":30,\"new\":0}]"));
	free(j);
	dp_run_log_free(&r);
}

/* sRTT and TLS handshake beside the other kinds: each second's, the
 * whole run's percentiles and its buckets (what merge adds up), under
 * the names every output uses; a kind with no sample (no TLS here) says
 * count 0 and has no bucket, and no text line. HZ is 1000: a tick is a
 * millisecond, exact below 64. */
static void
test_latency_kinds(void **state)
{
	struct fixture *f = *state;
	struct dp_hist *srtt = &f->s->lat[0].h[DP_LAT_SRTT];
	struct dp_run_log r;
	char *j, *text = NULL;
	size_t len = 0;
	FILE *m;

	dp_snapshot_take(f->s, 0, f->b);
	dp_run_log_begin(&r, f->s, f->b, 0);
	for (int k = 0; k < 3; k++)
		dp_hist_add(srtt, 20);
	run_second(f, &r, 1);
	dp_hist_add(srtt, 40);
	run_second(f, &r, 2);
	/* a: second 1, so that the summary's interval (latency_us) holds one
	 * sample and its total (latency_total_us) four */
	j = summary(f, &r);
	assert_non_null(strstr(j, "{\"sec\":1,"));
	/* the kinds named for dperf-report, every one in order */
	assert_non_null(strstr(j, "\"latency_kinds\":[{\"key\":\"connect\",\"label\":\"connect\","));
	assert_non_null(strstr(j, "},{\"key\":\"srtt\",\"label\":\"sRTT\",\"help\":\"smoothed RTT"));
	assert_non_null(strstr(j, "},{\"key\":\"tls_handshake\",\"label\":\"TLS handshake\",\"help\":\"TLS handshake: "));
	assert_non_null(strstr(j, "\"srtt\":{\"count\":3,\"p50\":20000.0,\"p90\":20000.0,\"p99\":20000.0,"
				  "\"p999\":20000.0,\"max\":20000.0},\"tls_handshake\":{\"count\":0,"));
	assert_non_null(strstr(j, "\"srtt\":{\"count\":1,\"p50\":40000.0,"));
	/* the whole run: percentiles, and the buckets by index */
	assert_non_null(strstr(j, "\"latency_total_us\":{\"connect\":{\"count\":0,"));
	assert_non_null(strstr(j, "\"srtt\":{\"count\":4,\"p50\":20000.0,"));
	assert_non_null(strstr(j, "\"srtt\":{\"count\":4,\"max\":40,\"b\":[[20,3],[40,1]]},"
				  "\"tls_handshake\":{\"count\":0,\"max\":0,\"b\":[]}}"));
	free(j);
	m = open_memstream(&text, &len);
	assert_non_null(m);
	dp_lat_text_both_sides(m, f->s, f->a, f->b, 1);
	fclose(m);
	/* nearest rank: of 20, 20, 20, 40 the 90th percentile is the 4th */
	assert_string_equal(text, "latency  sRTT p50 20000.0 p90 40000.0 p99 40000.0 p99.9 40000.0 max 40000.0 us"
				  " (4 samples)\n");
	free(text);
	dp_run_log_free(&r);
}

/* The configuration's text is a JSON string whatever the file held. */
static void
test_config_text(void **state)
{
	struct fixture *f = *state;
	char *j;

	strcpy(f->s->config_text, "mode client\n# \"quoted\" \\ \t\x01");
	dp_snapshot_take(f->s, 0, f->b);
	j = summary(f, NULL);
	assert_non_null(strstr(j, "\"config_text\":\"mode client\\n# \\\"quoted\\\" \\\\ \\u0009\\u0001\"}\n"));
	free(j);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_history_ring, setup, teardown),
		cmocka_unit_test_setup_teardown(test_changes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_kind_rates, setup, teardown),
		cmocka_unit_test_setup_teardown(test_config_text, setup, teardown),
		cmocka_unit_test_setup_teardown(test_latency_kinds, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
