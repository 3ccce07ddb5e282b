/* SPDX-License-Identifier: BSD-3-Clause
 * dperf-ctl merge over summaries written by the real -o writer
 * (dp_summary_json): counters and rates summed, and the fleet's
 * percentiles exactly those of all the samples' histogram, not a mix of
 * the instances' percentiles; instances of different TSC rates within two
 * buckets; bad inputs refused in one line naming the file.
 */
// links: secondary/ctl_merge.c
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "ctl_merge.h"
#include "rates.h"
#include "stats_out.h"

#define SECS 10

static int kinds_in_summary; /* summary() gives its instance traffic kinds */
static int objects_in_summary; /* summary() is a server's, with objects */

struct inst {
	struct dp_shm *s;
	struct dp_snapshot first, last;
};

/* An instance of a client at tsc_hz whose answers took base + i % spread
 * microseconds, n of them, each with an sRTT sample of half that (and
 * no TLS handshake); its -o summary written to path. */
static void
summary(const char *path, const char *name, uint64_t hz, uint64_t n, double base_us, double spread_us,
	struct dp_hist *all_us)
{
	struct inst *in = calloc(1, sizeof(*in));
	FILE *f;

	in->s = aligned_alloc(DP_CACHE_LINE, sizeof(*in->s));
	assert_non_null(in->s);
	memset(in->s, 0, sizeof(*in->s));
	in->s->hdr.tsc_hz = hz;
	in->s->hdr.mode = objects_in_summary ? DP_MODE_SERVER : DP_MODE_CLIENT;
	in->s->hdr.state = DP_ST_DONE;
	in->s->hdr.n_workers = 1;
	snprintf(in->s->hdr.name, sizeof(in->s->hdr.name), "%s", name);
	in->last.tsc = SECS * hz;
	in->last.n_workers = 1;
	in->last.c[DP_C_HTTP_2XX] = n;
	in->last.c[DP_C_SK_OPEN] = n + 3;
	in->last.c[DP_C_PKT_TX] = 7 * n;
	if (kinds_in_summary) { /* two kinds, "b" only in instance "b" */
		in->s->kinds.n = 2;
		snprintf(in->s->kinds.name[0], sizeof(in->s->kinds.name[0]), "a");
		snprintf(in->s->kinds.name[1], sizeof(in->s->kinds.name[1]), "%s", name[0] == 'b' ? "b" : "c");
		for (int c = 0; c < DP_KC__COUNT; c++) {
			in->s->wkinds[0].c[0][c] = n + (uint64_t)c;
			in->s->wkinds[0].c[1][c] = 10 * (uint64_t)c + 1;
		}
		/* the snapshot at the end, as dp_snapshot_take reads them */
		in->last.n_kinds = 2;
		in->last.kinds_at_tsc = 1;
		for (int k = 0; k < 2; k++)
			for (int c = 0; c < DP_KC__COUNT; c++)
				in->last.kc[k][c] = in->s->wkinds[0].c[k][c];
	}
	if (objects_in_summary) { /* "/1k" in both, "/x" only in instance "a" */
		in->s->objects.n = name[0] == 'a' ? 2 : 1;
		snprintf(in->s->objects.path[0], sizeof(in->s->objects.path[0]), "/1k");
		snprintf(in->s->objects.path[1], sizeof(in->s->objects.path[1]), "/x");
		for (int c = 0; c < DP_OC__COUNT; c++) {
			in->s->wobjects[0].c[0][c] = n + (uint64_t)c;
			in->s->wobjects[0].c[1][c] = 10 * (uint64_t)c + 1;
		}
	}
	for (uint64_t i = 0; i < n; i++) {
		double us = base_us + (double)(i * 7919 % (uint64_t)spread_us);

		dp_hist_add(&in->last.lat[DP_LAT_RESPONSE], (uint64_t)(us * (double)hz / 1e6));
		if (kinds_in_summary) /* each answer in its kind's too: one in three of kind 1 */
			dp_hist_add(&in->last.klat[i % 3 == 0][DP_KLAT_RESPONSE], (uint64_t)(us * (double)hz / 1e6));
		dp_hist_add(&in->last.lat[DP_LAT_SRTT], (uint64_t)(us / 2 * (double)hz / 1e6));
		if (all_us != NULL)
			dp_hist_add(all_us, (uint64_t)(us * 1000)); /* ns: the exact samples, finely */
	}
	f = fopen(path, "w");
	assert_non_null(f);
	dp_summary_json(f, in->s, &in->first, &in->last, NULL);
	fclose(f);
	free(in->s);
	free(in);
}

static json_t *
run_merge(int n, char **paths, int *rc, char *err, size_t errlen)
{
	char *out = NULL;
	size_t len = 0;
	FILE *o = open_memstream(&out, &len), *e = fmemopen(err, errlen, "w");
	json_t *j;

	*rc = ctl_merge(o, e, n, paths);
	fclose(o);
	fclose(e);
	j = *rc == 0 ? json_loads(out, 0, NULL) : NULL;
	free(out);
	return j;
}

static double
lat(json_t *j, const char *kind, const char *q)
{
	return json_number_value(json_object_get(json_object_get(json_object_get(j, "latency_total_us"), kind), q));
}

/* Same TSC rate: buckets added one by one, the percentiles those of the
 * histogram of both instances' samples, to the last digit. */
static void
test_same_hz(void **state)
{
	char a[] = "/tmp/test_merge_a.XXXXXX", b[] = "/tmp/test_merge_b.XXXXXX", err[256] = "";
	char *paths[] = { a, b };
	struct dp_hist *both = calloc(1, sizeof(*both)), *both_srtt = calloc(1, sizeof(*both_srtt));
	struct dp_lat want, want_srtt;
	const uint64_t hz = 2000000000;
	json_t *j;
	int rc;

	(void)state;
	close(mkstemp(a));
	close(mkstemp(b));
	/* a: fast (100-200 us), b: slow (5-9 ms): the fleet's p99 is b's
	 * tail; an average of the two p99s would be far off it */
	summary(a, "a", hz, 90000, 100, 100, NULL);
	summary(b, "b", hz, 10000, 5000, 4000, NULL);
	for (uint64_t i = 0; i < 90000; i++) {
		dp_hist_add(both, (uint64_t)((100 + (double)(i * 7919 % 100)) * (double)hz / 1e6));
		dp_hist_add(both_srtt, (uint64_t)((100 + (double)(i * 7919 % 100)) / 2 * (double)hz / 1e6));
	}
	for (uint64_t i = 0; i < 10000; i++) {
		dp_hist_add(both, (uint64_t)((5000 + (double)(i * 7919 % 4000)) * (double)hz / 1e6));
		dp_hist_add(both_srtt, (uint64_t)((5000 + (double)(i * 7919 % 4000)) / 2 * (double)hz / 1e6));
	}
	dp_lat_from_hist(both, hz, &want);
	dp_lat_from_hist(both_srtt, hz, &want_srtt);
	j = run_merge(2, paths, &rc, err, sizeof(err));
	assert_int_equal(rc, 0);
	assert_non_null(j);
	assert_int_equal(json_integer_value(json_object_get(j, "http2XX")), 100000);
	assert_int_equal(json_integer_value(json_object_get(j, "skOpen")), 100006);
	assert_int_equal(json_integer_value(json_object_get(j, "pktTx")), 700000);
	assert_true(fabs(json_number_value(json_object_get(json_object_get(j, "rates"), "http2XX")) - 10000.0) < 1e-6);
	assert_int_equal((uint64_t)lat(j, "response", "count"), 100000);
	assert_true(lat(j, "response", "p50") == want.p50);
	assert_true(lat(j, "response", "p90") == want.p90);
	assert_true(lat(j, "response", "p99") == want.p99);
	assert_true(lat(j, "response", "p999") == want.p999);
	assert_true(lat(j, "response", "max") == want.max);
	assert_true(want.p99 > 5000); /* b's tail, as it should */
	/* sRTT the same way; no TLS handshake in either: merged, still none */
	assert_int_equal((uint64_t)lat(j, "srtt", "count"), 100000);
	assert_true(lat(j, "srtt", "p50") == want_srtt.p50);
	assert_true(lat(j, "srtt", "p99") == want_srtt.p99);
	assert_true(lat(j, "srtt", "max") == want_srtt.max);
	assert_int_equal((uint64_t)lat(j, "tls_handshake", "count"), 0);
	assert_int_equal(json_array_size(json_object_get(json_object_get(json_object_get(j, "latency_hist"),
									 "tls_handshake"), "b")), 0);
	json_decref(j);
	unlink(a);
	unlink(b);
	free(both);
	free(both_srtt);
}

/* Different TSC rates: moved to nanosecond buckets; each percentile
 * within two buckets (2 x 1.6%) of the samples' own. */
/* Traffic kinds (issue 37): the -o summary carries them, and the merge
 * sums them by name over the instances, in the order they first appear. */
static void
test_kinds(void **state)
{
	char a[] = "/tmp/test_merge_a.XXXXXX", b[] = "/tmp/test_merge_b.XXXXXX", err[256] = "";
	char *paths[] = { a, b };
	json_t *j, *ks;
	int rc;

	(void)state;
	close(mkstemp(a));
	close(mkstemp(b));
	kinds_in_summary = 1;
	summary(a, "a", 1000000000, 100, 100, 100, NULL);
	summary(b, "b", 1000000000, 50, 100, 100, NULL);
	kinds_in_summary = 0;
	j = run_merge(2, paths, &rc, err, sizeof(err));
	assert_int_equal(rc, 0);
	ks = json_object_get(j, "kinds");
	assert_int_equal(json_array_size(ks), 3);
	assert_string_equal(json_string_value(json_object_get(json_array_get(ks, 0), "name")), "a");
	assert_string_equal(json_string_value(json_object_get(json_array_get(ks, 1), "name")), "c");
	assert_string_equal(json_string_value(json_object_get(json_array_get(ks, 2), "name")), "b");
	/* a: in both, 100 + c and 50 + c; c and b: one each, 10c + 1 */
	assert_int_equal(json_integer_value(json_object_get(json_array_get(ks, 0), "requests")), 150);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(ks, 0), "goodRx")), 156);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(ks, 1), "http2XX")), 11);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(ks, 2), "httpErr")), 21);
	/* their latency from their histograms added up by name: a's answers
	 * two in three of each instance's (66 + 33), c's and b's one in three
	 * of one (34, 17); the kinds' buckets add up to the fleet's, bucket by
	 * bucket, and connect (no sample) stays empty */
	{
		static const int want_n[3] = { 66 + 33, 34, 17 };
		const json_t *tot = json_object_get(json_object_get(j, "latency_hist"), "response"), *e;
		uint64_t sum[DP_HIST_BUCKETS] = { 0 }, all[DP_HIST_BUCKETS] = { 0 };
		size_t i;

		for (size_t k = 0; k < 3; k++) {
			const json_t *kd = json_array_get(ks, k);
			const json_t *h = json_object_get(json_object_get(kd, "latency_hist"), "response");

			assert_int_equal(json_integer_value(json_object_get(h, "count")), want_n[k]);
			assert_int_equal(json_integer_value(json_object_get(json_object_get(
					 json_object_get(kd, "latency_total_us"), "response"), "count")), want_n[k]);
			assert_true(json_number_value(json_object_get(json_object_get(
					 json_object_get(kd, "latency_total_us"), "response"), "p50")) >= 100);
			assert_int_equal(json_integer_value(json_object_get(json_object_get(
					 json_object_get(kd, "latency_hist"), "connect"), "count")), 0);
			json_array_foreach(json_object_get(h, "b"), i, e)
				sum[json_integer_value(json_array_get(e, 0))] += (uint64_t)json_integer_value(json_array_get(e, 1));
		}
		json_array_foreach(json_object_get(tot, "b"), i, e)
			all[json_integer_value(json_array_get(e, 0))] += (uint64_t)json_integer_value(json_array_get(e, 1));
		assert_int_equal(json_integer_value(json_object_get(tot, "count")), 150);
		assert_memory_equal(sum, all, sizeof(sum));
	}
	json_decref(j);
	/* without kinds: none in the fleet's either */
	summary(a, "a", 1000000000, 100, 100, 100, NULL);
	summary(b, "b", 1000000000, 50, 100, 100, NULL);
	j = run_merge(2, paths, &rc, err, sizeof(err));
	assert_int_equal(rc, 0);
	assert_null(json_object_get(j, "kinds"));
	json_decref(j);
	unlink(a);
	unlink(b);
}

/* A server's objects (issue 37): summed by path, as kinds by name. */
static void
test_objects(void **state)
{
	char a[] = "/tmp/test_merge_a.XXXXXX", b[] = "/tmp/test_merge_b.XXXXXX", err[256] = "";
	char *paths[] = { a, b };
	json_t *j, *os;
	int rc;

	(void)state;
	close(mkstemp(a));
	close(mkstemp(b));
	objects_in_summary = 1;
	summary(a, "a", 1000000000, 100, 100, 100, NULL);
	summary(b, "b", 1000000000, 50, 100, 100, NULL);
	objects_in_summary = 0;
	j = run_merge(2, paths, &rc, err, sizeof(err));
	assert_int_equal(rc, 0);
	assert_null(json_object_get(j, "kinds"));
	os = json_object_get(j, "objects");
	assert_int_equal(json_array_size(os), 2);
	assert_string_equal(json_string_value(json_object_get(json_array_get(os, 0), "path")), "/1k");
	assert_string_equal(json_string_value(json_object_get(json_array_get(os, 1), "path")), "/x");
	/* /1k: in both, 100 + c and 50 + c; /x: a's alone, 10c + 1 */
	assert_int_equal(json_integer_value(json_object_get(json_array_get(os, 0), "requests")), 150);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(os, 0), "http2XX")), 152);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(os, 0), "goodTx")), 154);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(os, 1), "goodTx")), 21);
	json_decref(j);
	unlink(a);
	unlink(b);
}

static void
test_other_hz(void **state)
{
	char a[] = "/tmp/test_merge_a.XXXXXX", b[] = "/tmp/test_merge_b.XXXXXX", err[256] = "";
	char *paths[] = { a, b };
	struct dp_hist *all = calloc(1, sizeof(*all));
	struct dp_lat want;
	json_t *j;
	int rc;

	(void)state;
	close(mkstemp(a));
	close(mkstemp(b));
	summary(a, "a", 2100000000, 50000, 300, 700, all);
	summary(b, "b", 2900000000, 50000, 900, 3000, all);
	dp_lat_from_hist(all, 1000000000, &want);
	j = run_merge(2, paths, &rc, err, sizeof(err));
	assert_int_equal(rc, 0);
	assert_int_equal((uint64_t)lat(j, "response", "count"), 100000);
	assert_true(fabs(lat(j, "response", "p50") - want.p50) <= want.p50 * 0.033);
	assert_true(fabs(lat(j, "response", "p99") - want.p99) <= want.p99 * 0.033);
	json_decref(j);
	unlink(a);
	unlink(b);
	free(all);
}

static void
test_refused(void **state)
{
	char a[] = "/tmp/test_merge_a.XXXXXX", b[] = "/tmp/test_merge_b.XXXXXX", err[256] = "";
	char *paths[] = { a, b };
	FILE *f;
	int rc;

	(void)state;
	close(mkstemp(a));
	close(mkstemp(b));
	summary(a, "a", 2000000000, 10, 100, 10, NULL);
	f = fopen(b, "w");
	fputs("{\"name\":\"b\",\n\"mode\": client}\n", f);
	fclose(f);
	assert_null(run_merge(2, paths, &rc, err, sizeof(err)));
	assert_int_equal(rc, 2);
	assert_non_null(strstr(err, b));
	assert_non_null(strstr(err, ":2:")); /* the line */
	f = fopen(b, "w");
	fputs("{\"name\":\"b\",\"mode\":\"client\",\"interval\":1}\n", f); /* stats --json: no histograms */
	fclose(f);
	assert_null(run_merge(2, paths, &rc, err, sizeof(err)));
	assert_int_equal(rc, 2);
	assert_non_null(strstr(err, "no latency_hist"));
	unlink(a);
	unlink(b);
}

/* A summary written before sRTT and TLS handshake existed (no such key
 * in its latency_hist) merges with a newer one: it adds none of them,
 * and the rest as before. */
static void
test_older_summary(void **state)
{
	char a[] = "/tmp/test_merge_a.XXXXXX", b[] = "/tmp/test_merge_b.XXXXXX", err[256] = "";
	char *paths[] = { a, b };
	json_t *old, *j;
	int rc;

	(void)state;
	close(mkstemp(a));
	close(mkstemp(b));
	summary(a, "a", 2000000000, 100, 100, 10, NULL);
	summary(b, "b", 2000000000, 50, 100, 10, NULL);
	old = json_load_file(b, 0, NULL);
	assert_non_null(old);
	assert_int_equal(json_object_del(json_object_get(old, "latency_hist"), "srtt"), 0);
	assert_int_equal(json_object_del(json_object_get(old, "latency_hist"), "tls_handshake"), 0);
	assert_int_equal(json_dump_file(old, b, JSON_COMPACT), 0);
	json_decref(old);
	j = run_merge(2, paths, &rc, err, sizeof(err));
	assert_int_equal(rc, 0);
	assert_non_null(j);
	assert_int_equal((uint64_t)lat(j, "response", "count"), 150);
	assert_int_equal((uint64_t)lat(j, "srtt", "count"), 100); /* a's only */
	assert_int_equal((uint64_t)lat(j, "tls_handshake", "count"), 0);
	json_decref(j);
	unlink(a);
	unlink(b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_hz),
		cmocka_unit_test(test_other_hz),
		cmocka_unit_test(test_kinds),
		cmocka_unit_test(test_objects),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_older_summary),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
