/* SPDX-License-Identifier: BSD-3-Clause
 * The memzone's figures in Prometheus text exposition format (served by
 * ctl_serve.c). Counters are *_total, open connections and targets are
 * gauges, latency is a summary. Names are dperf's, in snake_case.
 */
#include <ctype.h>
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

static void
summary(FILE *f, const char *name, const char *help, const struct dp_hist *h, uint64_t hz,
	const char *inst)
{
	static const double qs[] = { 0.5, 0.9, 0.99, 0.999 };
	double sum = 0;

	for (uint32_t i = 0; i < DP_HIST_BUCKETS; i++)
		sum += (double)h->b[i] * (double)(dp_hist_bucket_low(i) + dp_hist_bucket_width(i) / 2);
	fprintf(f, "# HELP dperf_%s %s\n# TYPE dperf_%s summary\n", name, help, name);
	for (size_t k = 0; k < sizeof(qs) / sizeof(qs[0]); k++)
		fprintf(f, "dperf_%s{instance=\"%s\",quantile=\"%g\"} %.9f\n", name, inst, qs[k],
			(double)dp_hist_quantile(h, qs[k]) / (double)hz);
	fprintf(f, "dperf_%s_sum{instance=\"%s\"} %.9f\n", name, inst, sum / (double)hz);
	fprintf(f, "dperf_%s_count{instance=\"%s\"} %" PRIu64 "\n", name, inst, h->count);
}

void
ctl_prometheus_exposition(FILE *f, const struct dp_shm *s)
{
	static struct dp_snapshot snap; /* large; one caller at a time (ctl_serve.c) */
	const char *inst = s->hdr.name;
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
			fprintf(f, "dperf_%s_total{instance=\"%s\"} %.6f\n", n, inst, (double)v / 1e6);
			continue;
		}
		fprintf(f, "# HELP dperf_%s_total dperf counter %s, all workers\n# TYPE dperf_%s_total counter\n",
			n, dp_counter_names[c], n);
		fprintf(f, "dperf_%s_total{instance=\"%s\"} %" PRIu64 "\n", n, inst, v);
	}
	for (int c = 0; c < DP_PC__COUNT; c++) {
		snake(dp_port_counter_names[c], n, sizeof(n));
		fprintf(f, "# HELP dperf_port_%s_total device counter %s\n# TYPE dperf_port_%s_total counter\n",
			n, dp_port_counter_names[c], n);
		for (uint32_t p = 0; p < snap.n_ports; p++)
			fprintf(f, "dperf_port_%s_total{instance=\"%s\",port=\"%u\"} %" PRIu64 "\n", n, inst, p,
				snap.pc[p][c]);
	}
	fprintf(f, "# HELP dperf_connections Open connections\n# TYPE dperf_connections gauge\n"
		   "dperf_connections{instance=\"%s\"} %" PRIu64 "\n", inst, snap.sk_cur);
	fprintf(f, "# HELP dperf_target_cps Applied CPS target\n# TYPE dperf_target_cps gauge\n"
		   "dperf_target_cps{instance=\"%s\"} %" PRIu64 "\n", inst, (uint64_t)s->ctl.target_cps);
	fprintf(f, "# HELP dperf_paused 1 while paused\n# TYPE dperf_paused gauge\n"
		   "dperf_paused{instance=\"%s\"} %u\n", inst, s->ctl.paused);
	/* The run's clock (dp_run_end_us): elapsed and end from the start. */
	fprintf(f, "# HELP dperf_elapsed_seconds Time since the start, wait and slow start included\n"
		   "# TYPE dperf_elapsed_seconds gauge\ndperf_elapsed_seconds{instance=\"%s\"} %.3f\n",
		inst, dp_elapsed_s(s, snap.tsc));
	fprintf(f, "# HELP dperf_end_seconds When the run ends, from the start: wait + slow start + duration\n"
		   "# TYPE dperf_end_seconds gauge\ndperf_end_seconds{instance=\"%s\"} %.3f\n",
		inst, dp_end_s(s));
	summary(f, "connect_seconds", "SYN sent to SYN+ACK received", &snap.lat_connect, s->hdr.tsc_hz, inst);
	summary(f, "response_seconds", "request sent to the end of its response", &snap.lat_response,
		s->hdr.tsc_hz, inst);
	summary(f, "first_byte_seconds", "request sent to the first byte of its response", &snap.lat_first_byte,
		s->hdr.tsc_hz, inst);
	summary(f, "server_seconds", "server: request polled to response queued", &snap.lat_server,
		s->hdr.tsc_hz, inst);
}
