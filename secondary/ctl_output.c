/* SPDX-License-Identifier: BSD-3-Clause
 * dperf-ctl's printing: status, statistics as text or JSON.
 */
#include <inttypes.h>
#include <stdio.h>

#include "ctl_msg.h"
#include "ctl_output.h"

static double
secs(const struct dp_shm *s, uint64_t tsc)
{
	return tsc > s->hdr.start_tsc && s->hdr.start_tsc ? (double)(tsc - s->hdr.start_tsc) / (double)s->hdr.tsc_hz : 0.0;
}

static const char *
mode_name(uint32_t m)
{
	return m == DP_MODE_CLIENT ? "client" : m == DP_MODE_SERVER ? "server" : "none";
}

static const char *
state_name(uint32_t st)
{
	return st < DP_ST__COUNT ? dp_state_names[st] : "unknown";
}

void
ctl_print_status(FILE *f, const struct dp_shm *s, uint64_t now)
{
	const struct dp_control *c = &s->ctl;
	double el = s->hdr.stop_tsc ? secs(s, s->hdr.stop_tsc) : secs(s, now);
	uint32_t nc = c->n_changes;

	fprintf(f, "name: %s\npid: %d\nmode: %s\nstate: %s\n", s->hdr.name, s->hdr.pid,
		mode_name(s->hdr.mode), state_name(s->hdr.state));
	fprintf(f, "elapsed: %.1f s\nduration: %.1f s\nremaining: %.1f s\n", el,
		(double)c->duration_us / 1e6,
		(double)c->duration_us / 1e6 > el ? (double)c->duration_us / 1e6 - el : 0.0);
	fprintf(f, "target_cps: %" PRIu64 "\ntarget_cc: %" PRIu64 "\npaused: %u\ngeneration: %" PRIu64 "\n",
		(uint64_t)c->target_cps, (uint64_t)c->target_cc, c->paused, (uint64_t)c->generation);
	fprintf(f, "workers: %u\nports: %u\n", s->hdr.n_workers, s->hdr.n_ports);
	for (uint32_t w = 0; w < s->hdr.n_workers && w < DP_MAX_WORKERS; w++) {
		const struct dp_worker_stats *ws = &s->workers[w];
		fprintf(f, "worker %u: lcore %u port %u applied_generation %" PRIu64 " cps_now %" PRIu64
			" connections %" PRIu64 "\n",
			w, ws->lcore, ws->port, (uint64_t)ws->applied_gen, (uint64_t)ws->cps_now,
			(uint64_t)ws->sk_cur);
	}
	for (uint32_t i = nc > DP_CHANGES_LEN ? nc - DP_CHANGES_LEN : 0; i < nc; i++) {
		const struct dp_change *ch = &c->changes[i % DP_CHANGES_LEN];
		fprintf(f, "change: %.3f s %s %" PRId64 " -> %" PRId64 "\n", secs(s, ch->tsc),
			dp_ctl_op_name(ch->what), ch->old_value, ch->new_value);
	}
}

/* Headline rates shared by text and JSON. */
struct headline {
	double cps, rps, bps_rx, bps_tx, pps_rx, pps_tx;
};

static void
headline(const struct dp_shm *s, const struct dp_snapshot *a, const struct dp_snapshot *b,
	 struct headline *h)
{
	uint64_t hz = s->hdr.tsc_hz;
	int client = s->hdr.mode == DP_MODE_CLIENT;

	h->cps = dp_rate(a, b, DP_C_SK_OPEN, hz);
	h->rps = client ? dp_rate(a, b, DP_C_HTTP_2XX, hz) + dp_rate(a, b, DP_C_TCP_RSP, hz)
			: dp_rate(a, b, DP_C_HTTP_GET, hz) + dp_rate(a, b, DP_C_TCP_REQ, hz);
	h->bps_rx = dp_rate(a, b, DP_C_BITS_RX, hz);
	h->bps_tx = dp_rate(a, b, DP_C_BITS_TX, hz);
	h->pps_rx = dp_rate(a, b, DP_C_PKT_RX, hz);
	h->pps_tx = dp_rate(a, b, DP_C_PKT_TX, hz);
}

static void
lat_json(FILE *f, const char *key, const struct dp_lat *l)
{
	fprintf(f, "\"%s\":{\"count\":%lu,\"p50\":%.1f,\"p90\":%.1f,\"p99\":%.1f,\"p999\":%.1f,\"max\":%.1f}",
		key, (unsigned long)l->count, l->p50, l->p90, l->p99, l->p999, l->max);
}

/* Latency (microseconds) over the interval and over the whole test. */
static void
latency_json(FILE *f, const struct dp_shm *s, const struct dp_snapshot *a, const struct dp_snapshot *b)
{
	struct dp_lat l;

	fprintf(f, ",\"latency_us\":{");
	dp_lat_between(a, b, 0, s->hdr.tsc_hz, &l);
	lat_json(f, "connect", &l);
	fputc(',', f);
	dp_lat_between(a, b, 1, s->hdr.tsc_hz, &l);
	lat_json(f, "response", &l);
	fprintf(f, "},\"latency_total_us\":{");
	dp_lat_from_hist(&b->lat_connect, s->hdr.tsc_hz, &l);
	lat_json(f, "connect", &l);
	fputc(',', f);
	dp_lat_from_hist(&b->lat_response, s->hdr.tsc_hz, &l);
	lat_json(f, "response", &l);
	fputc('}', f);
}

void
ctl_print_stats_json(FILE *f, const struct dp_shm *s, const struct dp_snapshot *a,
		     const struct dp_snapshot *b)
{
	struct headline h;
	uint64_t hz = s->hdr.tsc_hz;

	headline(s, a, b, &h);
	fprintf(f, "{\"name\":\"%s\",\"mode\":\"%s\",\"state\":\"%s\",\"elapsed\":%.3f,", s->hdr.name,
		mode_name(s->hdr.mode), state_name(s->hdr.state), secs(s, b->tsc));
	fprintf(f, "\"interval\":%.3f,\"target_cps\":%" PRIu64 ",\"generation\":%" PRIu64 ",",
		(double)(b->tsc - a->tsc) / (double)hz, (uint64_t)s->ctl.target_cps,
		(uint64_t)s->ctl.generation);
	fprintf(f, "\"cps\":%.1f,\"rps\":%.1f,\"bps_rx\":%.0f,\"bps_tx\":%.0f,\"pps_rx\":%.0f,\"pps_tx\":%.0f,",
		h.cps, h.rps, h.bps_rx, h.bps_tx, h.pps_rx, h.pps_tx);
	fprintf(f, "\"skCon\":%" PRIu64, b->sk_cur);
	for (int c = 0; c < DP_C__COUNT; c++)
		fprintf(f, ",\"%s\":%" PRIu64, dp_counter_names[c], b->c[c]);
	for (int c = 0; c < DP_PC__COUNT; c++) {
		uint64_t t = 0;
		for (uint32_t p = 0; p < b->n_ports; p++)
			t += b->pc[p][c];
		fprintf(f, ",\"%s\":%" PRIu64, dp_port_counter_names[c], t);
	}
	latency_json(f, s, a, b);
	fprintf(f, ",\"rates\":{");
	for (int c = 0; c < DP_C__COUNT; c++)
		fprintf(f, "%s\"%s\":%.1f", c ? "," : "", dp_counter_names[c],
			dp_rate(a, b, (enum dp_counter)c, hz));
	fprintf(f, "}}\n");
	fflush(f);
}

void
ctl_print_stats_text(FILE *f, const struct dp_shm *s, const struct dp_snapshot *a,
		     const struct dp_snapshot *b)
{
	struct headline h;
	int col = 0;

	headline(s, a, b, &h);
	fprintf(f, "%s %s %s  elapsed %.1f s  cps %.0f (target %" PRIu64 ")  rps %.0f  skCon %" PRIu64
		"  rx %.3f Gbps %.3f Mpps  tx %.3f Gbps %.3f Mpps\n",
		s->hdr.name, mode_name(s->hdr.mode), state_name(s->hdr.state), secs(s, b->tsc), h.cps,
		(uint64_t)s->ctl.target_cps, h.rps, b->sk_cur, h.bps_rx / 1e9, h.pps_rx / 1e6,
		h.bps_tx / 1e9, h.pps_tx / 1e6);
	for (int c = 0; c < DP_C__COUNT; c++)
		fprintf(f, "%-8s %-14" PRIu64 "%s", dp_counter_names[c], b->c[c],
			++col % 5 == 0 ? "\n" : " ");
	if (col % 5)
		fputc('\n', f);
	if (b->lat_connect.count || b->lat_response.count) {
		struct dp_lat c, r;
		dp_lat_between(a, b, 0, s->hdr.tsc_hz, &c);
		dp_lat_between(a, b, 1, s->hdr.tsc_hz, &r);
		fprintf(f, "latency  connect p50 %.1f p99 %.1f p99.9 %.1f us | response p50 %.1f p99 %.1f p99.9 %.1f us (max %.1f)\n",
			c.p50, c.p99, c.p999, r.p50, r.p99, r.p999, r.max);
	}
	for (uint32_t p = 0; p < b->n_ports; p++)
		fprintf(f, "port %u %s: ierrors %" PRIu64 " oerrors %" PRIu64 " imissed %" PRIu64 "\n", p,
			s->ports[p].name, b->pc[p][DP_PC_IERRORS], b->pc[p][DP_PC_OERRORS],
			b->pc[p][DP_PC_IMISSED]);
	fflush(f);
}
