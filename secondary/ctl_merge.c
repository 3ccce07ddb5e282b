/* SPDX-License-Identifier: BSD-3-Clause
 * dperf-ctl merge A.json B.json ...: the -o summaries of several
 * instances (one test run by a fleet) as one. Counters and open
 * connections are summed; rates are summed (each instance's over its own
 * interval: the fleet's rate over the interval they share, when they ran
 * together; "interval" is the shortest); latency comes from the
 * instances' histograms added bucket by bucket ("latency_hist", written
 * by lib/stats_out.c), so the fleet's percentiles are those of all its
 * samples, not an average of percentiles. Instances whose TSC rates
 * differ have different bucket bounds: their buckets are then moved into
 * nanosecond buckets of the same layout (one more bucket of error, 1.6%).
 * JSON by jansson (Debian's libjansson-dev).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "attach.h"
#include "ctl_merge.h"
#include "figures.h"
#include "hist.h"
#include "rates.h"

#define N_KINDS DP_LAT__COUNT /* every kind, as dp_lat_kinds names it */
static const char *const headline[] = { "cps", "rps", "bps_rx", "bps_tx", "pps_rx", "pps_tx",
					"good_bps_rx", "good_bps_tx" };
static const char *const gauges[] = { "skCon", "target_cps", "mbufTotal", "mbufFree", "mbufFreeStart" };

struct fleet {
	struct dp_hist h[N_KINDS];
	uint64_t hz;   /* the bounds of h: the instances' TSC rate, or 1e9 (ns) */
	int same_hz;
};

static int
bad(FILE *err, const char *path, const char *what, const char *key)
{
	fprintf(err, "dperf-ctl: merge: %s: %s%s%s\n", path, what, key ? " " : "", key ? key : "");
	return DP_EXIT_USAGE;
}

/* Add one instance's histogram (lh's member key, of an instance at hz)
 * to h, in the fleet's bounds. */
static int
add_to(struct dp_hist *h, const struct fleet *fl, const json_t *lh, uint64_t hz, const char *key,
       const char *path, FILE *err)
{
	const json_t *o = json_object_get(lh, key), *b = json_object_get(o, "b"), *e;
	uint64_t max;
	size_t i;

	if (o == NULL) /* a summary from before this kind existed: none of it */
		return 0;
	if (!json_is_array(b) || !json_is_integer(json_object_get(o, "max")))
		return bad(err, path, "latency_hist has no buckets for", key);
	max = (uint64_t)json_integer_value(json_object_get(o, "max"));
	json_array_foreach(b, i, e) {
		json_int_t idx = json_integer_value(json_array_get(e, 0)), n = json_integer_value(json_array_get(e, 1));
		uint32_t to = (uint32_t)idx;

		if (json_array_size(e) != 2 || idx < 0 || idx >= DP_HIST_BUCKETS || n < 0)
			return bad(err, path, "a bad bucket in latency_hist", key);
		if (!fl->same_hz) /* the bucket's middle, in ns */
			to = dp_hist_index((uint64_t)((double)(dp_hist_bucket_low(to) + dp_hist_bucket_width(to) / 2) *
						      1e9 / (double)hz));
		h->b[to] += (uint64_t)n;
		h->count += (uint64_t)n;
	}
	if (!fl->same_hz)
		max = (uint64_t)((double)max * 1e9 / (double)hz);
	if (max > h->max)
		h->max = max;
	return 0;
}

/* Add one instance's histogram of one kind to the fleet's. */
static int
add_hist(struct fleet *fl, const json_t *lh, uint64_t hz, unsigned k, const char *path, FILE *err)
{
	return add_to(&fl->h[k], fl, lh, hz, dp_lat_kinds[k].key, path, err);
}

/* Sum the integer key over all inputs into out. */
static int
sum_int(json_t *out, json_t **in, char **paths, int n, const char *key, FILE *err)
{
	json_int_t t = 0;

	for (int i = 0; i < n; i++) {
		const json_t *v = json_object_get(in[i], key);

		if (!json_is_integer(v))
			return bad(err, paths[i], "no integer", key);
		t += json_integer_value(v);
	}
	json_object_set_new(out, key, json_integer(t));
	return 0;
}

/* Sum the number key of the objects obj (NULL: the top level). */
static int
sum_real(json_t *out, json_t **in, char **paths, int n, const char *obj, const char *key, FILE *err)
{
	double t = 0;

	for (int i = 0; i < n; i++) {
		const json_t *o = obj ? json_object_get(in[i], obj) : in[i], *v = json_object_get(o, key);

		if (!json_is_number(v))
			return bad(err, paths[i], "no number", key);
		t += json_number_value(v);
	}
	json_object_set_new(out, key, json_real(t));
	return 0;
}

static json_t *
lat_obj(const struct dp_hist *h, uint64_t hz)
{
	struct dp_lat l;

	dp_lat_from_hist(h, hz, &l);
	return json_pack("{s:I,s:f,s:f,s:f,s:f,s:f}", "count", (json_int_t)l.count, "p50", l.p50, "p90", l.p90,
			 "p99", l.p99, "p999", l.p999, "max", l.max);
}

static json_t *
hist_obj(const struct dp_hist *h)
{
	json_t *b = json_array();

	for (uint32_t i = 0; i < DP_HIST_BUCKETS; i++)
		if (h->b[i] != 0)
			json_array_append_new(b, json_pack("[I,I]", (json_int_t)i, (json_int_t)h->b[i]));
	return json_pack("{s:I,s:I,s:o}", "count", (json_int_t)h->count, "max", (json_int_t)h->max, "b", b);
}

/* The fleet's latency of each kind: its histograms (enum dp_klat), in
 * the order of "kinds" in the output. */
struct kind_hists {
	struct dp_hist h[DP_KLAT__COUNT];
};

/* Kind x's latency histograms, in the instance's "latency_hist" (none in
 * a summary from before them), added to kh. */
static int
add_kind_hists(struct kind_hists *kh, const struct fleet *fl, const json_t *in, const json_t *k,
	       const char *path, FILE *err)
{
	const json_t *lh = json_object_get(k, "latency_hist");
	uint64_t hz = (uint64_t)json_integer_value(json_object_get(json_object_get(in, "latency_hist"), "tsc_hz"));

	if (lh == NULL)
		return 0;
	if (!json_is_object(lh))
		return bad(err, path, "a kind's latency_hist is not an object", NULL);
	for (int j = 0; j < DP_KLAT__COUNT; j++)
		if (add_to(&kh->h[j], fl, lh, hz, dp_lat_kinds[dp_klat_lat[j]].key, path, err) != 0)
			return DP_EXIT_USAGE;
	return 0;
}

/* A client's traffic kinds ("kinds") and a server's objects ("objects",
 * issue 37; figures.h's dp_rows) summed by name over the instances, in
 * the order they first appear, a kind's latency from its histograms
 * added up (as the fleet's own); an instance without them adds none, and
 * without any the fleet has none. */
static int
merge_rows(json_t *o, json_t **in, char **paths, int n, int which, const struct fleet *fl, FILE *err)
{
	const struct dp_rows_desc *d = &dp_rows[which];
	int kinds = which == DP_ROWS_KINDS;
	json_t *out = json_array(), *e0;
	struct kind_hists *kh = NULL;
	size_t n_kh = 0, x0;
	char what[64];
	int rc = 0;

	for (int i = 0; i < n; i++) {
		json_t *ks = json_object_get(in[i], d->key), *k, *e;
		size_t x, y;

		if (ks == NULL)
			continue;
		if (!json_is_array(ks)) {
			rc = bad(err, paths[i], d->key, "is not an array");
			goto out;
		}
		json_array_foreach(ks, x, k) {
			const char *name = json_string_value(json_object_get(k, d->id));
			json_t *into = NULL;
			size_t at = 0;

			if (name == NULL) {
				snprintf(what, sizeof(what), "a %s without a %s", d->label, d->id);
				rc = bad(err, paths[i], what, NULL);
				goto out;
			}
			json_array_foreach(out, y, e)
				if (strcmp(json_string_value(json_object_get(e, d->id)), name) == 0)
					into = e, at = y;
			if (into == NULL) {
				if (kinds) {
					struct kind_hists *more = realloc(kh, (n_kh + 1) * sizeof(*kh));

					if (more == NULL) {
						rc = bad(err, paths[i], "out of memory", NULL);
						goto out;
					}
					kh = more;
					memset(&kh[n_kh], 0, sizeof(*kh));
					at = n_kh++;
				}
				into = json_pack("{s:s}", d->id, name);
				json_array_append_new(out, into);
			}
			if (kinds && (rc = add_kind_hists(&kh[at], fl, in[i], k, paths[i], err)) != 0)
				goto out;
			for (int c = 0; c < d->n_counters; c++) {
				const char *cn = d->counters[c];
				json_t *v = json_object_get(k, cn);

				if (!json_is_integer(v)) {
					snprintf(what, sizeof(what), "a %s without", d->label);
					rc = bad(err, paths[i], what, cn);
					goto out;
				}
				json_object_set_new(into, cn, json_integer(json_integer_value(json_object_get(into, cn)) +
									  json_integer_value(v)));
			}
		}
	}
	if (kinds)
		json_array_foreach(out, x0, e0) {
			json_t *lat = json_object(), *lh = json_object();

			for (int j = 0; j < DP_KLAT__COUNT; j++) {
				const char *key = dp_lat_kinds[dp_klat_lat[j]].key;

				json_object_set_new(lat, key, lat_obj(&kh[x0].h[j], fl->hz));
				json_object_set_new(lh, key, hist_obj(&kh[x0].h[j]));
			}
			json_object_set_new(e0, "latency_total_us", lat);
			json_object_set_new(e0, "latency_hist", lh); /* in the fleet's latency_hist's tsc_hz */
		}
	if (json_array_size(out) != 0) {
		json_object_set_new(o, d->key, out);
		out = NULL;
	}
out:
	json_decref(out);
	free(kh);
	return rc;
}

/* Everything but the loading: in[] are the parsed summaries. */
static int
merge(FILE *out, FILE *err, int n, char **paths, json_t **in, struct fleet *fl)
{
	json_t *o = json_object(), *names = json_array(), *rates = json_object(), *lat, *lh;
	const char *mode = json_string_value(json_object_get(in[0], "mode"));
	double interval = 0;
	int rc = 0;

	fl->hz = (uint64_t)json_integer_value(json_object_get(json_object_get(in[0], "latency_hist"), "tsc_hz"));
	fl->same_hz = 1;
	for (int i = 0; i < n; i++) {
		const json_t *h = json_object_get(in[i], "latency_hist");
		const char *m = json_string_value(json_object_get(in[i], "mode"));
		double iv = json_number_value(json_object_get(in[i], "interval"));

		if (!json_is_object(h) || json_integer_value(json_object_get(h, "tsc_hz")) <= 0)
			rc = bad(err, paths[i], "no latency_hist (not an -o summary, or one from an older dperf)", NULL);
		else if (json_integer_value(json_object_get(h, "sub_bits")) != DP_HIST_SUB_BITS)
			rc = bad(err, paths[i], "latency_hist of another bucket layout", NULL);
		else if (m == NULL || mode == NULL || strcmp(m, mode) != 0)
			rc = bad(err, paths[i], "a different mode from", paths[0]);
		if (rc)
			goto out;
		if ((uint64_t)json_integer_value(json_object_get(h, "tsc_hz")) != fl->hz)
			fl->same_hz = 0;
		if (i == 0 || iv < interval)
			interval = iv;
		json_array_append_new(names, json_copy(json_object_get(in[i], "name")));
	}
	for (int i = 0; i < n; i++) {
		const json_t *h = json_object_get(in[i], "latency_hist");

		for (unsigned k = 0; k < N_KINDS; k++)
			if ((rc = add_hist(fl, h, (uint64_t)json_integer_value(json_object_get(h, "tsc_hz")), k,
					   paths[i], err)) != 0)
				goto out;
	}
	if (!fl->same_hz)
		fl->hz = 1000000000;
	json_object_set_new(o, "name", json_string("fleet"));
	json_object_set_new(o, "mode", json_string(mode));
	json_object_set_new(o, "instances", names);
	names = NULL;
	json_object_set_new(o, "interval", json_real(interval));
	for (size_t k = 0; k < sizeof(headline) / sizeof(headline[0]) && !rc; k++)
		rc = sum_real(o, in, paths, n, NULL, headline[k], err);
	for (size_t k = 0; k < sizeof(gauges) / sizeof(gauges[0]) && !rc; k++)
		rc = sum_int(o, in, paths, n, gauges[k], err);
	for (int c = 0; c < DP_C__COUNT && !rc; c++)
		rc = sum_int(o, in, paths, n, dp_counter_names[c], err);
	for (int c = 0; c < DP_PC__COUNT && !rc; c++)
		rc = sum_int(o, in, paths, n, dp_port_counter_names[c], err);
	for (int c = 0; c < DP_C__COUNT && !rc; c++)
		rc = sum_real(rates, in, paths, n, "rates", dp_counter_names[c], err);
	for (int w = 0; w < DP_ROWS__COUNT && !rc; w++)
		rc = merge_rows(o, in, paths, n, w, fl, err);
	if (rc)
		goto out;
	json_object_set_new(o, "rates", rates);
	rates = NULL;
	lat = json_object();
	lh = json_pack("{s:I,s:i}", "tsc_hz", (json_int_t)fl->hz, "sub_bits", DP_HIST_SUB_BITS);
	for (unsigned k = 0; k < N_KINDS; k++) {
		json_object_set_new(lat, dp_lat_kinds[k].key, lat_obj(&fl->h[k], fl->hz));
		json_object_set_new(lh, dp_lat_kinds[k].key, hist_obj(&fl->h[k]));
	}
	json_object_set_new(o, "latency_total_us", lat);
	json_object_set_new(o, "latency_hist", lh);
	if (json_dumpf(o, out, JSON_COMPACT | JSON_REAL_PRECISION(12)) != 0 || fputc('\n', out) == EOF ||
	    fflush(out) != 0) {
		fprintf(err, "dperf-ctl: merge: writing the output failed\n");
		rc = DP_EXIT_OUTPUT;
	}
out:
	json_decref(names);
	json_decref(rates);
	json_decref(o);
	return rc;
}

int
ctl_merge(FILE *out, FILE *err, int n, char **paths)
{
	json_t **in = calloc((size_t)n, sizeof(*in));
	struct fleet *fl = calloc(1, sizeof(*fl)); /* 84 KB: not on the stack */
	int rc = 0;

	if (in == NULL || fl == NULL) {
		fprintf(err, "dperf-ctl: merge: out of memory\n");
		rc = DP_EXIT_USAGE;
	}
	for (int i = 0; i < n && rc == 0; i++) {
		json_error_t e;

		if ((in[i] = json_load_file(paths[i], JSON_REJECT_DUPLICATES, &e)) == NULL) {
			fprintf(err, "dperf-ctl: merge: %s:%d: %s\n", paths[i], e.line, e.text);
			rc = DP_EXIT_USAGE;
		} else if (!json_is_object(in[i])) {
			rc = bad(err, paths[i], "not a JSON object", NULL);
		}
	}
	if (rc == 0)
		rc = merge(out, err, n, paths, in, fl);
	for (int i = 0; in != NULL && i < n; i++)
		json_decref(in[i]);
	free(in);
	free(fl);
	return rc;
}
