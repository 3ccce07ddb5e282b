/* SPDX-License-Identifier: BSD-3-Clause
 * dperf-ctl's printing: status, statistics as text or JSON.
 */
#include <inttypes.h>
#include <stdio.h>

#include "ctl_msg.h"
#include "ctl_output.h"
#include "stats_out.h"

/* The figures status prints, computed once for both formats. */
struct status_fig {
	double elapsed, duration, end, remaining;
	uint32_t lead;
	uint32_t first_change, n_changes;
};

static void
status_figures(const struct dp_shm *s, uint64_t now, struct status_fig *g)
{
	const struct dp_control *c = &s->ctl;

	g->elapsed = dp_elapsed_s(s, now);
	g->duration = (double)c->duration_us / 1e6;
	/* One clock, from the start: "duration" (dperf's, what "set duration"
	 * sets) begins after "lead" (a client's wait + slow start). */
	g->lead = c->lead_s;
	g->end = dp_end_s(s);
	g->remaining = dp_remaining_s(s, now);
	g->n_changes = c->n_changes;
	g->first_change = g->n_changes > DP_CHANGES_LEN ? g->n_changes - DP_CHANGES_LEN : 0;
}

static void
print_status_text(FILE *f, const struct dp_shm *s, const struct status_fig *g)
{
	const struct dp_control *c = &s->ctl;

	fprintf(f, "name: %s\npid: %d\nmode: %s\nstate: %s\n", s->hdr.name, s->hdr.pid,
		dp_mode_name(s->hdr.mode), dp_state_name(s->hdr.state));
	fprintf(f, "elapsed: %.1f s\nlead: %u s (wait and slow start; duration counts from here)\n"
		"duration: %.1f s\nend: %.1f s\nremaining: %.1f s\n", g->elapsed, g->lead,
		g->duration, g->end, g->remaining);
	fprintf(f, "target_cps: %" PRIu64 "\ntarget_cc: %" PRIu64 "\npaused: %u\ngeneration: %" PRIu64 "\n",
		(uint64_t)c->target_cps, (uint64_t)c->target_cc, c->paused, (uint64_t)c->generation);
	fprintf(f, "workers: %u\nports: %u\n", s->hdr.n_workers, s->hdr.n_ports);
	for (uint32_t w = 0; w < dp_shm_n_workers(s); w++) {
		const struct dp_worker_stats *ws = &s->workers[w];
		fprintf(f, "worker %u: lcore %u port %u applied_generation %" PRIu64 " cps_now %" PRIu64
			" connections %" PRIu64 " pkt_tx %" PRIu64 " bits_tx %" PRIu64 " udp_tx %" PRIu64
			"\n",
			w, ws->lcore, ws->port, (uint64_t)ws->applied_gen, (uint64_t)ws->cps_now,
			dp_load(&ws->sk_cur), dp_load(&ws->c[DP_C_PKT_TX]), dp_load(&ws->c[DP_C_BITS_TX]),
			dp_load(&ws->c[DP_C_UDP_TX]));
	}
	dp_kinds_text(f, s, NULL);
	for (uint32_t i = g->first_change; i < g->n_changes; i++) {
		const struct dp_change *ch = &c->changes[i % DP_CHANGES_LEN];
		fprintf(f, "change: %.3f s ", dp_elapsed_s(s, ch->tsc));
		dp_change_text(f, s, ch);
		fputc('\n', f);
	}
}

/* The same fields as the text, with the same names; one line. The name is
 * an instance name (letters, digits, '-', '_': checked at start), so it
 * needs no escaping. */
static void
print_status_json(FILE *f, const struct dp_shm *s, const struct status_fig *g)
{
	const struct dp_control *c = &s->ctl;

	fprintf(f, "{\"name\":\"%s\",\"pid\":%d,\"mode\":\"%s\",\"state\":\"%s\"", s->hdr.name,
		s->hdr.pid, dp_mode_name(s->hdr.mode), dp_state_name(s->hdr.state));
	fprintf(f, ",\"elapsed_s\":%.3f,\"lead_s\":%u,\"duration_s\":%.3f,\"end_s\":%.3f,\"remaining_s\":%.3f",
		g->elapsed, g->lead, g->duration, g->end, g->remaining);
	fprintf(f, ",\"target_cps\":%" PRIu64 ",\"target_cc\":%" PRIu64 ",\"paused\":%u,\"generation\":%" PRIu64,
		(uint64_t)c->target_cps, (uint64_t)c->target_cc, c->paused, (uint64_t)c->generation);
	fprintf(f, ",\"ports\":%u,\"workers\":[", s->hdr.n_ports);
	for (uint32_t w = 0; w < dp_shm_n_workers(s); w++) {
		const struct dp_worker_stats *ws = &s->workers[w];
		fprintf(f, "%s{\"lcore\":%u,\"port\":%u,\"applied_generation\":%" PRIu64
			",\"cps_now\":%" PRIu64 ",\"connections\":%" PRIu64 "}",
			w ? "," : "", ws->lcore, ws->port, (uint64_t)ws->applied_gen, (uint64_t)ws->cps_now,
			dp_load(&ws->sk_cur));
	}
	fputc(']', f);
	dp_kinds_json(f, s, NULL, NULL, 0);
	fprintf(f, ",\"changes\":[");
	for (uint32_t i = g->first_change; i < g->n_changes; i++) {
		const struct dp_change *ch = &c->changes[i % DP_CHANGES_LEN];
		fprintf(f, "%s{\"t_s\":%.3f", i > g->first_change ? "," : "", dp_elapsed_s(s, ch->tsc));
		dp_change_json(f, s, ch);
		fputc('}', f);
	}
	fprintf(f, "]}\n");
}

void
ctl_print_status(FILE *f, const struct dp_shm *s, uint64_t now, int json)
{
	struct status_fig g;

	status_figures(s, now, &g);
	if (json)
		print_status_json(f, s, &g);
	else
		print_status_text(f, s, &g);
}

void
ctl_print_stats_text(FILE *f, const struct dp_shm *s, const struct dp_snapshot *a,
		     const struct dp_snapshot *b)
{
	struct dp_rates h;

	dp_headline(s, a, b, &h);
	fprintf(f, "%s %s %s  elapsed %.1f s  cps %.0f (target %" PRIu64 ")  rps %.0f  skCon %" PRIu64
		"  rx %.3f Gbps %.3f Mpps  tx %.3f Gbps %.3f Mpps  goodput rx %.3f Gbps tx %.3f Gbps\n",
		s->hdr.name, dp_mode_name(s->hdr.mode), dp_state_name(s->hdr.state), dp_elapsed_s(s, b->tsc), h.cps,
		(uint64_t)s->ctl.target_cps, h.rps, b->sk_cur, h.bps_rx / 1e9, h.pps_rx / 1e6,
		h.bps_tx / 1e9, h.pps_tx / 1e6, h.good_bps_rx / 1e9, h.good_bps_tx / 1e9);
	dp_counters_text(f, s, NULL, b->c);
	dp_kinds_text(f, s, b);
	if (b->lat[DP_LAT_CONNECT].count || b->lat[DP_LAT_RESPONSE].count) {
		struct dp_lat c, r, fb;
		dp_lat_between(a, b, DP_LAT_CONNECT, s->hdr.tsc_hz, &c);
		dp_lat_between(a, b, DP_LAT_RESPONSE, s->hdr.tsc_hz, &r);
		dp_lat_between(a, b, DP_LAT_FIRST_BYTE, s->hdr.tsc_hz, &fb);
		fprintf(f, "latency  connect p50 %.1f p99 %.1f p99.9 %.1f us | first byte p50 %.1f p99 %.1f us"
			   " | response p50 %.1f p99 %.1f p99.9 %.1f us (max %.1f)\n",
			c.p50, c.p99, c.p999, fb.p50, fb.p99, r.p50, r.p99, r.p999, r.max);
	}
	dp_lat_text_both_sides(f, s, a, b, 0);
	for (uint32_t p = 0; p < b->n_ports; p++)
		fprintf(f, "port %u %s: ierrors %" PRIu64 " oerrors %" PRIu64 " imissed %" PRIu64 "\n", p,
			s->ports[p].name, b->pc[p][DP_PC_IERRORS], b->pc[p][DP_PC_OERRORS],
			b->pc[p][DP_PC_IMISSED]);
	fflush(f);
}
