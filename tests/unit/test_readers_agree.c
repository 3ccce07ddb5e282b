/* SPDX-License-Identifier: BSD-3-Clause
 * dperf-ctl and dperf-top print the same figures for the same snapshots:
 * the real printing code of both tools (ctl's text, JSON and CSV, top's
 * plain frame) runs on one pair of snapshots, and cps, rps and the open
 * connections are read back from each output.
 */
// links: secondary/ctl_output.c secondary/ctl_prometheus.c tui/plain.c tui/figures.c tui/spark.c
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctl_msg.h"
#include "ctl_output.h"
#include "ctl_prometheus.h"
#include "stats_out.h"
#include "top.h"

#define HZ 1000ULL

struct fixture {
	struct dp_shm *s;
	struct top *t; /* a and b: the snapshots both tools print */
};

static int
setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (f == NULL || (f->s = aligned_alloc(DP_CACHE_LINE, sizeof(*f->s))) == NULL ||
	    (f->t = calloc(1, sizeof(*f->t))) == NULL)
		return -1;
	memset(f->s, 0, sizeof(*f->s));
	f->s->hdr.n_workers = 2;
	f->s->hdr.n_ports = 1;
	f->s->hdr.tsc_hz = HZ;
	f->s->hdr.start_tsc = 1;
	f->s->hdr.state = DP_ST_RUNNING;
	snprintf(f->s->hdr.name, sizeof(f->s->hdr.name), "agree");
	f->t->shm = f->s;
	f->t->hz = HZ;
	f->t->interval_s = 1.0;
	f->t->have_rates = 1;
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	struct fixture *f = *state;

	free(f->t);
	free(f->s);
	free(f);
	return 0;
}

/* One second of a test whose requests sent, answers received and
 * requests received all differ, so a tool counting the wrong one shows. */
static void
one_second(struct fixture *f, uint32_t mode)
{
	struct dp_shm *s = f->s;

	s->hdr.mode = mode;
	dp_snapshot_take(s, 1000, &f->t->a);
	s->workers[0].c[DP_C_SK_OPEN] = 300;
	s->workers[1].c[DP_C_SK_OPEN] = 120;
	s->workers[0].c[DP_C_HTTP_GET] = 900;
	s->workers[0].c[DP_C_HTTP_POST] = 40;
	s->workers[1].c[DP_C_HTTP_2XX] = 610;
	s->workers[1].c[DP_C_TCP_RSP] = 20;
	s->workers[0].sk_cur = 333;
	s->workers[1].sk_cur = 222;
	dp_snapshot_take(s, 2000, &f->t->b);
}

/* "1.23K" -> 1230 */
static double
si(const char *p)
{
	char *end;
	double v = strtod(p, &end);

	return *end == 'K' ? v * 1e3 : *end == 'M' ? v * 1e6 : *end == 'G' ? v * 1e9 : v;
}

/* The number after the first occurrence of key in text. */
static double
after(const char *text, const char *key)
{
	const char *p = strstr(text, key);

	if (p == NULL)
		fail_msg("\"%s\" not in:\n%s", key, text);
	return si(p + strlen(key));
}

/* Column col of the CSV's second line. */
static double
csv_field(const char *text, const char *col)
{
	const char *nl = strchr(text, '\n'), *h = text, *row;
	int idx = 0;

	assert_non_null(nl);
	row = nl + 1;
	for (;;) {
		size_t n = strcspn(h, ",\n");
		if (n == strlen(col) && strncmp(h, col, n) == 0)
			break;
		if (h[n] != ',')
			fail_msg("no CSV column %s", col);
		h += n + 1;
		idx++;
	}
	while (idx-- > 0)
		row = strchr(row, ',') + 1;
	return strtod(row, NULL);
}

typedef void (*printer)(FILE *, struct fixture *);

static void p_text(FILE *o, struct fixture *f) { ctl_print_stats_text(o, f->s, &f->t->a, &f->t->b); }
static void p_json(FILE *o, struct fixture *f) { dp_stats_json(o, f->s, &f->t->a, &f->t->b); }
static void p_csv(FILE *o, struct fixture *f) { dp_stats_csv(o, f->s, &f->t->a, &f->t->b, 1); }
static void p_top(FILE *o, struct fixture *f) { plain_frame(f->t, o); }

/* What p prints, in a heap string (a FILE on the caller's buffer: GCC
 * takes a returned memstream buffer for a dangling local). */
static void
print(printer p, struct fixture *f, char **out)
{
	size_t len = 0;
	FILE *o = open_memstream(out, &len);

	assert_non_null(o);
	p(o, f);
	fclose(o);
}

static void
agree(struct fixture *f, double rps)
{
	char *text, *json, *csv, *top;
	struct dp_rates r;

	print(p_text, f, &text);
	print(p_json, f, &json);
	print(p_csv, f, &csv);
	print(p_top, f, &top);
	dp_headline(f->s, &f->t->a, &f->t->b, &r);
	assert_true(r.rps == rps);
	/* dperf-ctl stats, text / --json / --csv */
	assert_true(after(text, " rps ") == rps);
	assert_true(after(json, "\"rps\":") == rps);
	assert_true(csv_field(csv, "rps") == rps);
	assert_true(after(text, " cps ") == r.cps);
	assert_true(after(json, "\"cps\":") == r.cps);
	assert_true(csv_field(csv, "cps") == r.cps);
	assert_true(after(text, "skCon ") == 555);
	assert_true(after(json, "\"skCon\":") == 555);
	assert_true(csv_field(csv, "skCon") == 555);
	/* dperf-top --once */
	assert_true(after(top, "req/s ") == rps);
	assert_true(after(top, "RATES      CPS ") == r.cps);
	assert_true(after(top, "current ") == 555);
	/* and the same state and mode names */
	assert_non_null(strstr(top, dp_state_name(f->s->hdr.state)));
	assert_non_null(strstr(text, dp_state_name(f->s->hdr.state)));
	assert_non_null(strstr(top, dp_mode_name(f->s->hdr.mode)));
	assert_non_null(strstr(json, dp_mode_name(f->s->hdr.mode)));
	free(text);
	free(json);
	free(csv);
	free(top);
}

static void
test_client(void **state)
{
	struct fixture *f = *state;

	one_second(f, DP_MODE_CLIENT);
	agree(f, 630.0); /* answers received: 610 2xx + 20 raw */
}

/* One sample of latency row j (enum dp_klat) of kind k on worker w, in
 * the kind's histogram and the total's, as the engine records it. */
static void
rec(struct dp_shm *s, uint32_t w, uint32_t k, int j, uint64_t ticks)
{
	dp_hist_add(&s->klat[w].h[k][j], ticks);
	dp_hist_add(&s->lat[w].h[dp_klat_lat[j]], ticks);
}

/* Each series of the family `name` (dperf_NAME_bucket, _sum, _count):
 * its buckets added up series by series, le by le, into b; the sums into
 * *sum, the counts into *count. */
static void
prom_family(const char *prom, const char *name, uint64_t *b, double *sum, uint64_t *count)
{
	char bucket[96], psum[96], pcount[96];
	uint32_t i = 0;
	int series = 0;

	snprintf(bucket, sizeof(bucket), "dperf_%s_bucket{", name);
	snprintf(psum, sizeof(psum), "dperf_%s_sum{", name);
	snprintf(pcount, sizeof(pcount), "dperf_%s_count{", name);
	for (const char *l = prom; *l; l = strchr(l, '\n') + 1) {
		const char *v = strstr(l, "} ");

		assert_non_null(strchr(l, '\n'));
		if (strncmp(l, bucket, strlen(bucket)) == 0) {
			b[i++ % (DP_HIST_LE_COUNT + 1)] += strtoull(v + 2, NULL, 10);
		} else if (strncmp(l, psum, strlen(psum)) == 0) {
			*sum += strtod(v + 2, NULL);
		} else if (strncmp(l, pcount, strlen(pcount)) == 0) {
			*count += strtoull(v + 2, NULL, 10);
			series++;
		}
	}
	assert_true(series > 0);
	assert_int_equal(i, (uint32_t)series * (DP_HIST_LE_COUNT + 1));
}

/* A client's kinds (issue 37): stats text and --json, status text and
 * --json each show every kind's counters summed over the workers, the
 * same figures, and its latency (connect, first byte, response, TLS
 * handshake) from its histograms merged over the workers: text and
 * status over the whole test, --json over the interval and the whole
 * test, --csv over the interval, dperf-top's rows over its window;
 * Prometheus a histogram per kind whose buckets, sums and counts add up
 * to the total's; none of it without kinds. HZ is 1000: a tick is a
 * millisecond, exact below 64. */
static void
test_kinds(void **state)
{
	struct fixture *f = *state;
	struct dp_shm *s = f->s;
	char *text, *json, *st_text, *st_json, *csv, *top;
	static const char *const want_text =
		"kind small: weight 70 requests 16 http2XX 15 httpErr 1 goodRx 1608\n"
		"kind small latency: connect p50 2000.0 p99 2000.0 us | response p50 5000.0 p99 100000.0 us\n"
		"kind big.1: weight 30 requests 4 http2XX 3 httpErr 0 goodRx 800008\n"
		"kind big.1 latency: first byte p50 30000.0 p99 30000.0 us | response p50 40000.0 p99 40000.0 us\n";
	static const char *const want_json[] = {
		",\"kinds\":[{\"name\":\"small\",\"weight\":70,\"requests\":16,\"http2XX\":15,\"httpErr\":1,"
		"\"goodRx\":1608,",
		"{\"name\":\"big.1\",\"weight\":30,\"requests\":4,\"http2XX\":3,\"httpErr\":0,\"goodRx\":800008,",
		"\"latency_total_us\":{\"connect\":{\"count\":20,\"p50\":2000.0,\"p90\":2000.0,\"p99\":2000.0,"
		"\"p999\":2000.0,\"max\":2000.0},\"first_byte\":{\"count\":0,",
		"\"response\":{\"count\":30,\"p50\":5000.0,\"p90\":100000.0,\"p99\":100000.0,",
	};
	/* over the interval (stats --json only: status has no interval) */
	static const char *const want_iv =
		"\"goodRx\":1608,\"latency_us\":{\"connect\":{\"count\":20,\"p50\":2000.0,\"p90\":2000.0,\"p99\":2000.0,"
		"\"p999\":2000.0,\"max\":2000.0},\"first_byte\":{\"count\":0,\"p50\":0.0,\"p90\":0.0,\"p99\":0.0,"
		"\"p999\":0.0,\"max\":0.0},\"response\":{\"count\":20,\"p50\":5000.0,\"p90\":5000.0,\"p99\":5000.0,";

	one_second(f, DP_MODE_CLIENT);
	print(p_json, f, &json);
	assert_null(strstr(json, "kinds")); /* none yet */
	free(json);
	print(p_csv, f, &csv);
	assert_null(strstr(csv, "kind_"));
	free(csv);
	print(p_top, f, &top);
	assert_null(strstr(top, "KINDS"));
	free(top);
	{
		char *prom;
		size_t len = 0;
		FILE *o = open_memstream(&prom, &len);

		assert_non_null(o);
		ctl_prometheus_exposition(o, s);
		fclose(o);
		assert_null(strstr(prom, "dperf_kind_"));
		free(prom);
	}
	s->kinds.n = 2;
	snprintf(s->kinds.name[0], sizeof(s->kinds.name[0]), "small");
	snprintf(s->kinds.name[1], sizeof(s->kinds.name[1]), "big.1");
	s->kinds.weight[0] = 70;
	s->kinds.weight[1] = 30;
	/* a set weight logged: its kind named in the status's changes */
	s->ctl.changes[0] = (struct dp_change){ .tsc = s->hdr.start_tsc, .what = DP_OP_SET_WEIGHT,
						.kind = 1, .old_value = 10, .new_value = 30 };
	s->ctl.n_changes = 1;
	/* before the interval: half the requests, small's 10 slow answers */
	for (int w = 0; w < 2; w++) {
		s->wkinds[w].c[0][DP_KC_REQ] = 4;
		s->wkinds[w].c[1][DP_KC_REQ] = 1;
		for (int i = 0; i < 5; i++)
			rec(s, (uint32_t)w, 0, DP_KLAT_RESPONSE, 100);
	}
	dp_snapshot_take(s, 1000, &f->t->a);
	for (int w = 0; w < 2; w++) {
		s->wkinds[w].c[0][DP_KC_REQ] = 8;
		s->wkinds[w].c[0][DP_KC_HTTP_2XX] = w ? 8 : 7;
		s->wkinds[w].c[0][DP_KC_HTTP_ERR] = w ? 0 : 1;
		s->wkinds[w].c[0][DP_KC_GOOD_RX] = 804;
		s->wkinds[w].c[1][DP_KC_REQ] = 2;
		s->wkinds[w].c[1][DP_KC_HTTP_2XX] = w ? 2 : 1;
		s->wkinds[w].c[1][DP_KC_GOOD_RX] = 400004;
		for (int i = 0; i < 10; i++) {
			rec(s, (uint32_t)w, 0, DP_KLAT_CONNECT, 2);
			rec(s, (uint32_t)w, 0, DP_KLAT_RESPONSE, 5);
		}
		for (int i = 0; i < 2; i++) {
			rec(s, (uint32_t)w, 1, DP_KLAT_FIRST_BYTE, 30);
			rec(s, (uint32_t)w, 1, DP_KLAT_RESPONSE, 40);
		}
	}
	s->wkinds[0].c[2][DP_KC_REQ] = 99; /* beyond n: not shown */
	dp_snapshot_take(s, 2000, &f->t->b);
	print(p_text, f, &text);
	print(p_json, f, &json);
	print(p_csv, f, &csv);
	print(p_top, f, &top);
	{
		size_t len = 0;
		FILE *o = open_memstream(&st_text, &len);

		assert_non_null(o);
		ctl_print_status(o, s, 2000, 0);
		fclose(o);
		o = open_memstream(&st_json, &len);
		assert_non_null(o);
		ctl_print_status(o, s, 2000, 1);
		fclose(o);
	}
	/* the TLS handshakes' line beside: only the substrings above */
	if (strstr(text, want_text) == NULL)
		fail_msg("stats text without\n%s\nin\n%s", want_text, text);
	assert_non_null(strstr(st_text, "kind small: weight 70 requests 16 http2XX 15 httpErr 1 goodRx 1608\n"
					"kind small latency: connect p50 2000.0 p99 2000.0 us | response p50 5000.0"));
	assert_non_null(strstr(st_text, " s set weight big.1 10 -> 30\n"));
	assert_non_null(strstr(st_json, "\"what\":\"set weight\",\"kind\":\"big.1\",\"old\":10,\"new\":30}"));
	for (size_t i = 0; i < sizeof(want_json) / sizeof(want_json[0]); i++) {
		if (strstr(json, want_json[i]) == NULL)
			fail_msg("stats --json without %s in %s", want_json[i], json);
		if (strstr(st_json, want_json[i]) == NULL)
			fail_msg("status --json without %s in %s", want_json[i], st_json);
	}
	assert_non_null(strstr(json, want_iv));
	assert_null(strstr(st_json, "\"latency_us\""));
	assert_null(strstr(json, "latency_hist")); /* the -o summary's only */
	/* CSV: each kind's counters and latency over the interval */
	assert_true(csv_field(csv, "kind_small_requests") == 8);
	assert_true(csv_field(csv, "kind_big.1_requests") == 2);
	assert_true(csv_field(csv, "kind_small_httpErr") == 1);
	assert_true(csv_field(csv, "kind_big.1_goodRx") == 800008);
	assert_true(csv_field(csv, "kind_small_connect_p50_us") == 2000.0);
	assert_true(csv_field(csv, "kind_small_response_p99_us") == 5000.0);
	assert_true(csv_field(csv, "kind_big.1_first_byte_p99_us") == 30000.0);
	assert_non_null(strstr(csv, "kind_small_tls_handshake_p50_us,kind_small_tls_handshake_p99_us,kind_big.1_requests"));
	{ /* small's first byte: empty cells, not 0 */
		const char *nl = strchr(csv, '\n'), *h = csv, *row = nl + 1;
		int idx = 0;

		while (strncmp(h, "kind_small_first_byte_p50_us,", 29) != 0) {
			h = strchr(h, ',') + 1;
			idx++;
		}
		while (idx-- > 0)
			row = strchr(row, ',') + 1;
		assert_true(strncmp(row, ",,", 2) == 0);
	}
	/* dperf-top --once: a row per kind over its window */
	if (strstr(top, "KINDS") == NULL)
		fail_msg("no KINDS in\n%s", top);
	{
		char line[160];
		static struct top_kind rows[DP_MAX_KINDS];

		assert_int_equal(top_kinds(f->t, rows), 2);
		assert_string_equal(rows[0].name, "small");
		assert_true(rows[0].rps == 8.0 && rows[1].rps == 2.0);
		assert_true(rows[0].share == 0.8 && rows[1].share == 0.2);
		assert_true(rows[0].ok_ps == 15.0 && rows[0].err == 1);
		assert_true(rows[1].gbps_good == 800008 / 1e9);
		assert_true(rows[0].resp.count == 20 && rows[0].resp.p99 == 5000.0);
		assert_non_null(strstr(top, top_kind_line(&rows[0], line, sizeof(line))));
		assert_non_null(strstr(top, top_kind_line(&rows[1], line, sizeof(line))));
		assert_non_null(strstr(line, "big.1"));
		assert_non_null(strstr(line, " 30 "));
		assert_non_null(strstr(line, "20.0%"));
		assert_non_null(strstr(line, "40.00ms"));
	}
	/* Prometheus: a series per kind, the kind a label, goodRx in bytes;
	 * TLS handshakes spread over many buckets on worker 1 first */
	for (uint64_t i = 0; i < 500; i++)
		rec(s, 1, (uint32_t)(i % 2), DP_KLAT_TLS_HS, 1 + i * i % 20000);
	{
		char *prom;
		size_t len = 0;
		FILE *o = open_memstream(&prom, &len);

		assert_non_null(o);
		ctl_prometheus_exposition(o, s);
		fclose(o);
		assert_non_null(strstr(prom, "# TYPE dperf_kind_requests_total counter\n"
					     "dperf_kind_requests_total{instance=\"agree\",role=\"client\",kind=\"small\"} 16\n"
					     "dperf_kind_requests_total{instance=\"agree\",role=\"client\",kind=\"big.1\"} 4\n"));
		assert_non_null(strstr(prom, "dperf_kind_http_2xx_total{instance=\"agree\",role=\"client\",kind=\"small\"} 15\n"));
		assert_non_null(strstr(prom, "dperf_kind_http_err_total{instance=\"agree\",role=\"client\",kind=\"small\"} 1\n"));
		assert_non_null(strstr(prom, "dperf_kind_good_rx_bytes_total{instance=\"agree\",role=\"client\",kind=\"big.1\"} 100001\n"));
		assert_non_null(strstr(prom, "# TYPE dperf_kind_weight gauge\n"
					     "dperf_kind_weight{instance=\"agree\",role=\"client\",kind=\"small\"} 70\n"
					     "dperf_kind_weight{instance=\"agree\",role=\"client\",kind=\"big.1\"} 30\n"));
		assert_non_null(strstr(prom, "# TYPE dperf_kind_response_seconds histogram\n"
					     "dperf_kind_response_seconds_bucket{instance=\"agree\",role=\"client\",kind=\"small\",le=\"1e-06\"} 0\n"));
		assert_non_null(strstr(prom, "dperf_kind_response_seconds_count{instance=\"agree\",role=\"client\",kind=\"big.1\"} 4\n"));
		/* each latency's kinds add up to its total: every le, _sum, _count */
		for (int j = 0; j < DP_KLAT__COUNT; j++) {
			uint64_t kb[DP_HIST_LE_COUNT + 1] = { 0 }, tb[DP_HIST_LE_COUNT + 1] = { 0 }, kn = 0, tn = 0;
			double ks = 0, ts = 0;
			char name[64];

			snprintf(name, sizeof(name), "kind_%s_seconds", dp_lat_kinds[dp_klat_lat[j]].key);
			prom_family(prom, name, kb, &ks, &kn);
			snprintf(name, sizeof(name), "%s_seconds", dp_lat_kinds[dp_klat_lat[j]].key);
			prom_family(prom, name, tb, &ts, &tn);
			assert_memory_equal(kb, tb, sizeof(kb));
			assert_int_equal(kn, tn);
			assert_true(ks >= ts * (1 - 1e-9) && ks <= ts * (1 + 1e-9));
			assert_true(tn == (j == DP_KLAT_CONNECT ? 20 : j == DP_KLAT_FIRST_BYTE ? 4
					   : j == DP_KLAT_RESPONSE ? 34 : 500));
		}
		free(prom);
	}
	{
		int lines = 0;

		for (const char *q = strstr(text, "\nkind "); q != NULL; q = strstr(q + 1, "\nkind "))
			lines++;
		assert_int_equal(lines, 4);
	}
	free(text);
	free(json);
	free(csv);
	free(top);
	free(st_text);
	free(st_json);
}

/* A server's objects (issue 37): the same rows as a client's kinds
 * (figures.h's dp_rows): stats and status, text and --json, and
 * Prometheus with the path as the object label ('"' and '\\' escaped),
 * each object's counters summed over the workers; none without objects. */
static void
test_objects(void **state)
{
	struct fixture *f = *state;
	struct dp_shm *s = f->s;
	char *text, *json, *st_text, *st_json, *prom;
	size_t len = 0;
	FILE *o;
	static const char *const want_text =
		"object /1k: requests 7 http2XX 6 goodTx 8872\n"
		"object /a\"b\\c: requests 2 http2XX 2 goodTx 1440\n";
	static const char *const want_json =
		",\"objects\":[{\"path\":\"/1k\",\"requests\":7,\"http2XX\":6,\"goodTx\":8872},"
		"{\"path\":\"/a\\\"b\\\\c\",\"requests\":2,\"http2XX\":2,\"goodTx\":1440}]";

	one_second(f, DP_MODE_SERVER);
	print(p_json, f, &json);
	assert_null(strstr(json, "objects")); /* none without object lines */
	free(json);
	s->objects.n = 2;
	snprintf(s->objects.path[0], sizeof(s->objects.path[0]), "/1k");
	snprintf(s->objects.path[1], sizeof(s->objects.path[1]), "/a\"b\\c");
	for (int w = 0; w < 2; w++) {
		s->wobjects[w].c[0][DP_OC_REQ] = w ? 4 : 3;
		s->wobjects[w].c[0][DP_OC_HTTP_2XX] = 3;
		s->wobjects[w].c[0][DP_OC_GOOD_TX] = 4436;
		s->wobjects[w].c[1][DP_OC_REQ] = 1;
		s->wobjects[w].c[1][DP_OC_HTTP_2XX] = 1;
		s->wobjects[w].c[1][DP_OC_GOOD_TX] = 720;
	}
	s->wobjects[0].c[2][DP_OC_REQ] = 99; /* beyond n: not shown */
	print(p_text, f, &text);
	print(p_json, f, &json);
	o = open_memstream(&st_text, &len);
	assert_non_null(o);
	ctl_print_status(o, s, 2000, 0);
	fclose(o);
	o = open_memstream(&st_json, &len);
	assert_non_null(o);
	ctl_print_status(o, s, 2000, 1);
	fclose(o);
	o = open_memstream(&prom, &len);
	assert_non_null(o);
	ctl_prometheus_exposition(o, s);
	fclose(o);
	assert_non_null(strstr(text, want_text));
	assert_non_null(strstr(st_text, want_text));
	assert_non_null(strstr(json, want_json));
	assert_non_null(strstr(st_json, want_json));
	assert_non_null(strstr(prom, "# TYPE dperf_object_requests_total counter\n"
				     "dperf_object_requests_total{instance=\"agree\",role=\"server\",object=\"/1k\"} 7\n"
				     "dperf_object_requests_total{instance=\"agree\",role=\"server\",object=\"/a\\\"b\\\\c\"} 2\n"));
	assert_non_null(strstr(prom, "dperf_object_http_2xx_total{instance=\"agree\",role=\"server\",object=\"/1k\"} 6\n"));
	assert_non_null(strstr(prom, "dperf_object_good_tx_bytes_total{instance=\"agree\",role=\"server\",object=\"/1k\"} 1109\n"));
	assert_null(strstr(prom, "dperf_object_weight"));
	assert_null(strstr(prom, "dperf_kind_"));
	free(text);
	free(json);
	free(st_text);
	free(st_json);
	free(prom);
}

static void
test_server(void **state)
{
	struct fixture *f = *state;

	one_second(f, DP_MODE_SERVER);
	agree(f, 940.0); /* requests received: 900 GET + 40 POST */
}

/* The latencies of either side, sRTT with samples and TLS handshake
 * without: every output shows the same sRTT, under its one name, and
 * none shows the empty TLS histogram as a measured 0 (text: no line;
 * JSON: count 0; CSV: empty cells; dperf-top: "-"). HZ is 1000: a tick
 * is a millisecond. */
static void
test_latency_both_sides(void **state)
{
	struct fixture *f = *state;
	char *text, *json, *csv, *top;

	f->s->hdr.mode = DP_MODE_SERVER;
	dp_snapshot_take(f->s, 1000, &f->t->a);
	for (int i = 0; i < 5; i++)
		dp_hist_add(&f->s->lat[1].h[DP_LAT_SRTT], 30);
	dp_snapshot_take(f->s, 2000, &f->t->b);
	print(p_text, f, &text);
	print(p_json, f, &json);
	print(p_csv, f, &csv);
	print(p_top, f, &top);
	assert_non_null(strstr(text, "\nlatency  sRTT p50 30000.0 p90 30000.0 p99 30000.0 p99.9 30000.0 max 30000.0 us (5 samples)\n"));
	assert_null(strstr(text, "TLS"));
	assert_non_null(strstr(json, "\"latency_us\":{\"connect\":{\"count\":0,"));
	assert_non_null(strstr(json, "\"srtt\":{\"count\":5,\"p50\":30000.0,\"p90\":30000.0,\"p99\":30000.0,"
				     "\"p999\":30000.0,\"max\":30000.0},\"tls_handshake\":{\"count\":0,"));
	assert_true(csv_field(csv, "srtt_p50_us") == 30000.0);
	assert_true(csv_field(csv, "srtt_p99_us") == 30000.0);
	assert_non_null(strstr(csv, ",srtt_p50_us,srtt_p99_us,tls_handshake_p50_us,tls_handshake_p99_us\n"));
	assert_non_null(strstr(csv, ",30000.0,30000.0,,\n")); /* no handshake: empty cells */
	assert_non_null(strstr(top, "\nLATENCY    sRTT p50 30.00ms p99 30.00ms   TLS handshake p50 - p99 -\n"));
	free(text);
	free(json);
	free(csv);
	free(top);
}

/* A TLS client's second: every output carries the TLS counters (from
 * the counter table) and dperf-top shows its TLS line, with the rates of
 * lib/figures.c; a test not TLS has no TLS line. */
static void
test_tls(void **state)
{
	struct fixture *f = *state;
	char *text, *json, *csv, *top, want[256];
	struct dp_interval iv;
	struct dp_tls_rates r;

	f->s->hdr.mode = DP_MODE_CLIENT;
	snprintf(f->s->config_text, sizeof(f->s->config_text), "mode client\nprotocol https\n");
	dp_snapshot_take(f->s, 1000, &f->t->a);
	f->s->workers[0].c[DP_C_TLS_HS_DONE] = 300;
	f->s->workers[1].c[DP_C_TLS_HS_DONE] = 100;
	f->s->workers[1].c[DP_C_TLS_RESUMED] = 100;
	f->s->workers[0].c[DP_C_TLS_F_EOF] = 3;
	f->s->workers[1].c[DP_C_TLS_F_ALERT] = 2;
	f->s->workers[1].c[DP_C_TLS_ERR] = 1;
	f->s->workers[0].c[DP_C_TLS_US] = 300000; /* half a core over the second, both workers */
	f->s->workers[1].c[DP_C_TLS_US] = 200000;
	for (int i = 0; i < 4; i++)
		dp_hist_add(&f->s->lat[0].h[DP_LAT_TLS_HS], 2);
	dp_snapshot_take(f->s, 2000, &f->t->b);
	print(p_text, f, &text);
	print(p_json, f, &json);
	print(p_csv, f, &csv);
	print(p_top, f, &top);
	dp_snapshot_interval(&f->t->a, &f->t->b, HZ, &iv);
	dp_tls_rates(&iv, &r);
	assert_true(r.hs == 400.0 && r.resumed_share == 0.25 && r.fail_sum == 5.0 && r.ossl_cores == 0.5);
	assert_true(after(text, "tlsHsDone ") == 400);
	assert_true(after(json, "\"tlsHsDone\":") == 400);
	assert_non_null(strstr(json, "\"rates\":{"));
	assert_true(after(strstr(json, "\"rates\":{"), "\"tlsHsDone\":") == r.hs);
	assert_true(csv_field(csv, "tlsHsDone") == 400);
	assert_true(csv_field(csv, "tlsFailEof") == 3);
	snprintf(want, sizeof(want), "\nTLS        handshakes/s 400  resumed 25%%  fail/s alert 2 proto 0 verify 0 "
		 "eof 3 timeout 0 internal 0  tlsErr/s 1  handshake p50 2.00ms p99 2.00ms  OpenSSL 0.50 cores\n");
	if (strstr(top, want) == NULL)
		fail_msg("no TLS line %s in:\n%s", want, top);
	free(top);
	/* the same counters, protocol http: no TLS line */
	snprintf(f->s->config_text, sizeof(f->s->config_text), "mode client\nprotocol http\n");
	print(p_top, f, &top);
	assert_null(strstr(top, "\nTLS "));
	free(text);
	free(json);
	free(csv);
	free(top);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_latency_both_sides, setup, teardown),
		cmocka_unit_test_setup_teardown(test_client, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tls, setup, teardown),
		cmocka_unit_test_setup_teardown(test_server, setup, teardown),
		cmocka_unit_test_setup_teardown(test_kinds, setup, teardown),
		cmocka_unit_test_setup_teardown(test_objects, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
