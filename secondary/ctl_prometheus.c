/* SPDX-License-Identifier: BSD-3-Clause
 * The memzone's figures in Prometheus text exposition format (served by
 * ctl_serve.c). Counters are *_total, open connections and targets are
 * gauges, latency is a histogram per worker in buckets every box shares. Names are dperf's, in snake_case.
 */
#include <ctype.h>
#include <stddef.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>

#include "ctl_prometheus.h"
#include "figures.h"
#include "rates.h"

/* "pktRx" -> "pkt_rx", "http2XX" -> "http_2xx". */
static void
snake(const char *in, char *out, size_t len)
{
	size_t o = 0;

	for (size_t i = 0; in[i] && o + 2 < len; i++) {
		unsigned char c = (unsigned char)in[i];
		unsigned char prev = i > 0 ? (unsigned char)in[i - 1] : 0;
		/* A word starts at an upper-case letter after a lower-case one,
		 * or at a digit after a letter ("http2XX" -> "http_2xx"). */
		if ((isupper(c) && islower(prev)) || (isdigit(c) && isalpha(prev)))
			out[o++] = '_';
		out[o++] = (char)tolower(c);
	}
	out[o] = '\0';
}

/* The labels every series of this instance carries. */
struct who {
	const char *inst, *role;
};

/* One worker's histogram in Prometheus' fixed buckets (hist.h), which
 * add up across workers and boxes: histogram_quantile over
 * sum by (le) (rate(..._bucket)) is the fleet's quantile. _count is the
 * buckets' sum (a worker may be adding while we read), _sum the sum of
 * our buckets' middles (the engine records no exact sum). */
static void
histogram(FILE *f, const char *name, const struct dp_hist *h, uint64_t hz, const char *lbl)
{
	uint64_t le[DP_HIST_LE_COUNT + 1] = { 0 }, n = 0;
	double sum = 0;

	for (uint32_t i = 0; i < DP_HIST_BUCKETS; i++) {
		double mid;

		if (h->b[i] == 0)
			continue;
		mid = (double)(dp_hist_bucket_low(i) + dp_hist_bucket_width(i) / 2) / (double)hz;
		le[dp_hist_le_find(mid)] += h->b[i];
		sum += (double)h->b[i] * mid;
	}
	for (uint32_t k = 0; k < DP_HIST_LE_COUNT; k++) {
		n += le[k];
		fprintf(f, "dperf_%s_bucket{%s,le=\"%.9g\"} %" PRIu64 "\n", name, lbl, dp_hist_le_s(k), n);
	}
	n += le[DP_HIST_LE_COUNT];
	fprintf(f, "dperf_%s_bucket{%s,le=\"+Inf\"} %" PRIu64 "\n", name, lbl, n);
	fprintf(f, "dperf_%s_sum{%s} %.9f\n", name, lbl, sum);
	fprintf(f, "dperf_%s_count{%s} %" PRIu64 "\n", name, lbl, n);
}

/* Each worker's histograms of one kind (enum dp_lat_kind): a kind with
 * no sample yet has every bucket and its count at 0, as Prometheus
 * expects of a histogram that has seen nothing. */
static void
histograms(FILE *f, const struct dp_shm *s, int kind, const struct who *who)
{
	char name[64];

	snprintf(name, sizeof(name), "%s_seconds", dp_lat_kinds[kind].key);
	fprintf(f, "# HELP dperf_%s %s\n# TYPE dperf_%s histogram\n", name, dp_lat_kinds[kind].help, name);
	for (uint32_t w = 0; w < dp_shm_n_workers(s); w++) {
		char lbl[160];

		snprintf(lbl, sizeof(lbl), "instance=\"%s\",role=\"%s\",port=\"%u\",worker=\"%u\"", who->inst,
			 who->role, s->workers[w].port, w);
		histogram(f, name, &s->lat[w].h[kind], s->hdr.tsc_hz, lbl);
	}
}

/* The latencies measured per traffic kind (enum dp_klat), each as
 * dperf_kind_KEY_seconds{kind="..."}, summed over the workers (a label
 * per worker and kind would be 16 x 16 series of 99 buckets): its
 * buckets, _sum and _count over the kinds are those of
 * dperf_KEY_seconds over the workers (the engine records each sample in
 * both). */
static void
kind_histograms(FILE *f, const struct dp_shm *s, uint32_t nk, const struct who *who)
{
	static struct dp_hist h; /* large: not on the stack */

	for (int j = 0; j < DP_KLAT__COUNT; j++) {
		const struct dp_lat_desc *d = &dp_lat_kinds[dp_klat_lat[j]];
		char name[64];

		snprintf(name, sizeof(name), "kind_%s_seconds", d->key);
		fprintf(f, "# HELP dperf_%s %s, per traffic kind, all workers\n# TYPE dperf_%s histogram\n", name,
			d->help, name);
		for (uint32_t k = 0; k < nk; k++) {
			char lbl[160];

			snprintf(lbl, sizeof(lbl), "instance=\"%s\",role=\"%s\",kind=\"%.*s\"", who->inst, who->role,
				 (int)sizeof(s->kinds.name[k]), s->kinds.name[k]);
			dp_shm_klat_sum(s, k, j, &h);
			histogram(f, name, &h, s->hdr.tsc_hz, lbl);
		}
	}
}

/* A label value: '\\' and '"' escaped (Prometheus' text format; a kind's
 * name has neither, an object's path may), at most len bytes. */
static void
label_value(FILE *f, const char *v, size_t len)
{
	for (size_t i = 0; i < len && v[i] != '\0'; i++) {
		if (v[i] == '\\' || v[i] == '"')
			fputc('\\', f);
		fputc(v[i], f);
	}
}

/* The rows of a client's traffic kinds (two or more) and of a server's
 * objects (issue 37, figures.h's dp_rows): each row counter as
 * dperf_LABEL_NAME_total{LABEL="..."} summed over the workers (kind
 * names, object paths), goodRx and goodTx in bytes; sum by (instance)
 * of a row counter is the run's (kinds' requests: httpGet or httpPost).
 * Kinds also have their weights now. */
static void
rows(FILE *f, const struct dp_shm *s, int which, const struct who *who)
{
	const struct dp_rows_desc *d = &dp_rows[which];
	uint32_t nk = dp_rows_n(s, which);
	char n[64];

	if (nk == 0)
		return;
	for (int c = 0; c < d->n_counters; c++) {
		int bits = c == d->bits;

		snake(d->counters[c], n, sizeof(n));
		fprintf(f, "# HELP dperf_%s_%s%s_total dperf counter %s of each %s%s, all "
			"workers\n# TYPE dperf_%s_%s%s_total counter\n", d->label, n, bits ? "_bytes" : "",
			d->counters[c], d->help, bits ? " / 8" : "", d->label, n, bits ? "_bytes" : "");
		for (uint32_t k = 0; k < nk; k++) {
			size_t len;
			const char *name = dp_rows_name(s, which, k, &len);

			fprintf(f, "dperf_%s_%s%s_total{instance=\"%s\",role=\"%s\",%s=\"", d->label, n,
				bits ? "_bytes" : "", who->inst, who->role, d->label);
			label_value(f, name, len);
			fprintf(f, "\"} %" PRIu64 "\n", dp_rows_sum(s, which, k, c) / (bits ? 8 : 1));
		}
	}
	if (!d->weighted)
		return;
	/* the weights now (the file's, then dperf-ctl set weight's) */
	fprintf(f, "# HELP dperf_%s_weight Weight of each %s in the pick of new connections\n"
		"# TYPE dperf_%s_weight gauge\n", d->label, d->help, d->label);
	for (uint32_t k = 0; k < nk; k++) {
		size_t len;
		const char *name = dp_rows_name(s, which, k, &len);

		fprintf(f, "dperf_%s_weight{instance=\"%s\",role=\"%s\",%s=\"", d->label, who->inst,
			who->role, d->label);
		label_value(f, name, len);
		fprintf(f, "\"} %u\n", dp_rows_weight(s, which, k));
	}
	kind_histograms(f, s, nk, who); /* and their latency (the weighted rows are the kinds) */
}

void
ctl_prometheus_exposition(FILE *f, const struct dp_shm *s)
{
	static struct dp_snapshot snap; /* large; one caller at a time (ctl_serve.c) */
	const char *inst = s->hdr.name;
	const struct who who = { inst, dp_mode_name(s->hdr.mode) };
	const char *role = who.role;
	char n[64];

	dp_snapshot_take(s, rte_rdtsc(), &snap);
	for (int c = 0; c < DP_C__COUNT; c++) {
		uint64_t v = snap.c[c];

		snake(dp_counter_names[c], n, sizeof(n));
		if (strncmp(n, "bits_", 5) == 0) { /* Prometheus' base unit is bytes */
			snprintf(n, sizeof(n), "%s_bytes", dp_counter_names[c] + 4);
			n[0] = (char)tolower((unsigned char)n[0]);
			v /= 8;
		}
		size_t l = strlen(n);
		if (l > 3 && strcmp(n + l - 3, "_us") == 0) { /* and of time, seconds */
			snprintf(n + l - 3, sizeof(n) - (l - 3), "_seconds");
			fprintf(f, "# HELP dperf_%s_total dperf counter %s / 1e6, all workers\n# TYPE dperf_%s_total counter\n",
				n, dp_counter_names[c], n);
			fprintf(f, "dperf_%s_total{instance=\"%s\",role=\"%s\"} %.6f\n", n, inst, role, (double)v / 1e6);
			continue;
		}
		fprintf(f, "# HELP dperf_%s_total dperf counter %s, all workers\n# TYPE dperf_%s_total counter\n",
			n, dp_counter_names[c], n);
		fprintf(f, "dperf_%s_total{instance=\"%s\",role=\"%s\"} %" PRIu64 "\n", n, inst, role, v);
	}
	for (int c = 0; c < DP_PC__COUNT; c++) {
		snake(dp_port_counter_names[c], n, sizeof(n));
		fprintf(f, "# HELP dperf_port_%s_total device counter %s\n# TYPE dperf_port_%s_total counter\n",
			n, dp_port_counter_names[c], n);
		for (uint32_t p = 0; p < snap.n_ports; p++)
			fprintf(f, "dperf_port_%s_total{instance=\"%s\",role=\"%s\",port=\"%u\"} %" PRIu64 "\n", n, inst, role, p,
				snap.pc[p][c]);
	}
	fprintf(f, "# HELP dperf_connections Open connections\n# TYPE dperf_connections gauge\n"
		   "dperf_connections{instance=\"%s\",role=\"%s\"} %" PRIu64 "\n", inst, role, snap.sk_cur);
	fprintf(f, "# HELP dperf_target_cps Applied CPS target\n# TYPE dperf_target_cps gauge\n"
		   "dperf_target_cps{instance=\"%s\",role=\"%s\"} %" PRIu64 "\n", inst, role, (uint64_t)s->ctl.target_cps);
	fprintf(f, "# HELP dperf_paused 1 while paused\n# TYPE dperf_paused gauge\n"
		   "dperf_paused{instance=\"%s\",role=\"%s\"} %u\n", inst, role, s->ctl.paused);
	/* The run's clock (dp_run_end_us): elapsed and end from the start. */
	fprintf(f, "# HELP dperf_elapsed_seconds Time since the start, wait and slow start included\n"
		   "# TYPE dperf_elapsed_seconds gauge\ndperf_elapsed_seconds{instance=\"%s\",role=\"%s\"} %.3f\n",
		inst, role, dp_elapsed_s(s, snap.tsc));
	fprintf(f, "# HELP dperf_end_seconds When the run ends, from the start: wait + slow start + duration\n"
		   "# TYPE dperf_end_seconds gauge\ndperf_end_seconds{instance=\"%s\",role=\"%s\"} %.3f\n",
		inst, role, dp_end_s(s));
	for (int k = 0; k < DP_LAT__COUNT; k++)
		histograms(f, s, k, &who);
	for (int w = 0; w < DP_ROWS__COUNT; w++)
		rows(f, s, w, &who);
}
