/* SPDX-License-Identifier: BSD-3-Clause
 * dperf-ctl export --prometheus [ADDR:PORT]: serve the memzone's figures
 * in Prometheus text exposition format at /metrics (127.0.0.1:9470 by
 * default). Counters are *_total, open connections and targets are
 * gauges, latency is a summary. Names are dperf's, in snake_case.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <rte_cycles.h>

#include "attach.h"
#include "ctl_prometheus.h"
#include "rates.h"
#include "stats_out.h"

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

/* The whole exposition for one scrape. */
static void
exposition(FILE *f, const struct dp_shm *s)
{
	static struct dp_snapshot snap;
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
	summary(f, "server_seconds", "server: request polled to response queued", &snap.lat_server,
		s->hdr.tsc_hz, inst);
}

static void
serve(int fd, const struct dp_shm *s)
{
	char req[1024], *body = NULL;
	size_t blen = 0;
	ssize_t n = recv(fd, req, sizeof(req) - 1, 0);
	FILE *f;

	if (n <= 0)
		return;
	req[n] = '\0';
	if (strncmp(req, "GET /metrics", 12) != 0) {
		static const char nf[] = "HTTP/1.0 404 Not Found\r\nContent-Length: 10\r\n\r\nnot found\n";
		if (send(fd, nf, sizeof(nf) - 1, MSG_NOSIGNAL) < 0)
			return;
		return;
	}
	f = open_memstream(&body, &blen);
	if (f == NULL)
		return;
	exposition(f, s);
	fclose(f);
	dprintf(fd, "HTTP/1.0 200 OK\r\nContent-Type: text/plain; version=0.0.4\r\nContent-Length: %zu\r\n\r\n", blen);
	for (size_t off = 0; off < blen;) {
		ssize_t w = send(fd, body + off, blen - off, MSG_NOSIGNAL);
		if (w <= 0)
			break;
		off += (size_t)w;
	}
	free(body);
}

int
ctl_prometheus(const struct dp_shm *s, const char *addr, volatile sig_atomic_t *stop)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	char host[64] = "127.0.0.1";
	int port = 9470, one = 1, lfd;
	const char *colon = addr ? strrchr(addr, ':') : NULL;

	if (addr != NULL) {
		if (colon == NULL || colon == addr || (size_t)(colon - addr) >= sizeof(host) ||
		    (port = atoi(colon + 1)) <= 0 || port > 65535) {
			fprintf(stderr, "dperf-ctl: export: bad address \"%s\" (expected ADDR:PORT)\n", addr);
			return DP_EXIT_USAGE;
		}
		snprintf(host, sizeof(host), "%.*s", (int)(colon - addr), addr);
	}
	if (inet_pton(AF_INET, host, &sa.sin_addr) != 1) {
		fprintf(stderr, "dperf-ctl: export: bad IPv4 address \"%s\"\n", host);
		return DP_EXIT_USAGE;
	}
	sa.sin_port = htons((uint16_t)port);
	lfd = socket(AF_INET, SOCK_STREAM, 0);
	setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (lfd < 0 || bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) != 0 || listen(lfd, 16) != 0) {
		fprintf(stderr, "dperf-ctl: export: cannot listen on %s:%d: %s\n", host, port, strerror(errno));
		if (lfd >= 0)
			close(lfd);
		return DP_EXIT_USAGE;
	}
	printf("serving %s at http://%s:%d/metrics\n", s->hdr.name, host, port);
	fflush(stdout);
	while (!*stop) {
		struct pollfd p = { .fd = lfd, .events = POLLIN };
		enum dp_end end = dp_primary_end(s);

		if (end != DP_END_RUNNING) {
			close(lfd);
			if (end == DP_END_DONE)
				printf("%s: engine stopped\n", s->hdr.name);
			return dp_report_end("dperf-ctl export", s, end);
		}
		if (poll(&p, 1, 500) == 1) {
			int fd = accept(lfd, NULL, NULL);
			if (fd >= 0) {
				serve(fd, s);
				close(fd);
			}
		}
	}
	close(lfd);
	return DP_EXIT_OK;
}
