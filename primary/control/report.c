/* SPDX-License-Identifier: BSD-3-Clause */
#include <inttypes.h>

#include "ctl_msg.h"
#include "control/report.h"
#include "stats_out.h"

static void
ports(FILE *f, const struct dp_snapshot *a, const struct dp_snapshot *b)
{
	for (uint32_t p = 0; p < b->n_ports; p++)
		fprintf(f, "port%-4u ierrors %-14" PRIu64 " oerrors %-14" PRIu64 " imissed %-14" PRIu64
			" rxNombuf %-14" PRIu64 " linkDown %-14" PRIu64 " linkUp %" PRIu64 "\n",
			p, dp_delta(a->pc[p][DP_PC_IERRORS], b->pc[p][DP_PC_IERRORS]),
			dp_delta(a->pc[p][DP_PC_OERRORS], b->pc[p][DP_PC_OERRORS]),
			dp_delta(a->pc[p][DP_PC_IMISSED], b->pc[p][DP_PC_IMISSED]),
			dp_delta(a->pc[p][DP_PC_RX_NOMBUF], b->pc[p][DP_PC_RX_NOMBUF]),
			dp_delta(a->pc[p][DP_PC_LINK_DOWN], b->pc[p][DP_PC_LINK_DOWN]),
			dp_delta(a->pc[p][DP_PC_LINK_UP], b->pc[p][DP_PC_LINK_UP]));
}

/* A bond's members, each device's own counters since it started: which
 * links carried the bond's traffic. */
static void
members(FILE *f, const struct dp_shm *shm)
{
	for (uint32_t p = 0; p < shm->hdr.n_ports && p < DP_MAX_PORTS; p++)
		for (uint32_t m = 0; m < shm->ports[p].n_members && m < DP_BOND_MAX_MEMBERS; m++) {
			const struct dp_member_stats *ms = &shm->ports[p].members[m];

			fprintf(f, "port%-4u member %s ipackets %" PRIu64 " opackets %" PRIu64
				" ibytes %" PRIu64 " obytes %" PRIu64 "\n", p, ms->name, ms->ipackets,
				ms->opackets, ms->ibytes, ms->obytes);
		}
}

static void
lat_line(FILE *f, const struct dp_lat *c, const struct dp_lat *fb, const struct dp_lat *r)
{
	if (c->count == 0 && r->count == 0)
		return;
	fprintf(f, "latency  connect p50 %.1f p90 %.1f p99 %.1f p99.9 %.1f max %.1f us | "
		   "first byte p50 %.1f p90 %.1f p99 %.1f p99.9 %.1f max %.1f us | "
		   "response p50 %.1f p90 %.1f p99 %.1f p99.9 %.1f max %.1f us\n",
		c->p50, c->p90, c->p99, c->p999, c->max, fb->p50, fb->p90, fb->p99, fb->p999, fb->max,
		r->p50, r->p90, r->p99, r->p999, r->max);
}

static void
server_line(FILE *f, const struct dp_lat *l)
{
	if (l->count == 0)
		return;
	fprintf(f, "latency  server (request polled to response queued) p50 %.1f p90 %.1f p99 %.1f p99.9 %.1f max %.1f us\n",
		l->p50, l->p90, l->p99, l->p999, l->max);
}

void
report_second(FILE *f, const struct dp_shm *shm, const struct dp_config *cfg,
	      const struct dp_snapshot *prev, const struct dp_snapshot *cur, uint64_t sec)
{
	double busy = 0;

	for (uint32_t w = 0; w < cur->n_workers; w++)
		busy += dp_worker_busy(prev, cur, w);
	if (cfg->clear_screen) /* dperf's clear_screen: each second on a clean terminal */
		fputs("\033[H\033[2J", f);
	fprintf(f, "\nseconds  %-14" PRIu64 " state    %-14s cpuUsage %-14.0f skCon    %-14" PRIu64
		" targetCps %" PRIu64 "\n",
		sec, dp_state_name(shm->hdr.state),
		cur->n_workers ? 100.0 * busy / cur->n_workers : 0.0, cur->sk_cur,
		(uint64_t)shm->ctl.target_cps);
	dp_counters_text(f, shm, prev->c, cur->c);
	ports(f, prev, cur);
	if (shm->hdr.mode == DP_MODE_CLIENT) {
		struct dp_lat c, r, fb;
		dp_lat_between(prev, cur, DP_LAT_CONNECT, shm->hdr.tsc_hz, &c);
		dp_lat_between(prev, cur, DP_LAT_RESPONSE, shm->hdr.tsc_hz, &r);
		dp_lat_between(prev, cur, DP_LAT_FIRST_BYTE, shm->hdr.tsc_hz, &fb);
		lat_line(f, &c, &fb, &r);
	} else {
		struct dp_lat l;
		dp_lat_between(prev, cur, DP_LAT_SERVER, shm->hdr.tsc_hz, &l);
		server_line(f, &l);
	}
	dp_lat_text_both_sides(f, shm, prev, cur, 0);
	fflush(f);
}

void
report_changes(FILE *f, const struct dp_shm *shm, uint32_t *printed)
{
	uint32_t n = __atomic_load_n(&shm->ctl.n_changes, __ATOMIC_ACQUIRE);
	uint64_t hz = shm->hdr.tsc_hz;

	if (n - *printed > DP_CHANGES_LEN)
		*printed = n - DP_CHANGES_LEN;
	for (; *printed < n; (*printed)++) {
		const struct dp_change *ch = &shm->ctl.changes[*printed % DP_CHANGES_LEN];
		double t = ch->tsc > shm->hdr.start_tsc ? (double)(ch->tsc - shm->hdr.start_tsc) / (double)hz : 0;
		fprintf(f, "change   at %.3f s: ", t);
		dp_change_text(f, shm, ch);
		fputc('\n', f);
	}
	fflush(f);
}

void
report_summary(FILE *f, const struct dp_shm *shm, const struct dp_snapshot *first,
	       const struct dp_snapshot *last)
{
	double secs = last->tsc > first->tsc ? (double)(last->tsc - first->tsc) / (double)shm->hdr.tsc_hz : 0;

	fprintf(f, "\n---- dperf %s total (%.1f s) ----\n", shm->hdr.name, secs);
	dp_counters_text(f, shm, first->c, last->c);
	ports(f, first, last);
	fprintf(f, "skCon    %" PRIu64 "\n", last->sk_cur);
	for (uint32_t p = 0; p < shm->hdr.n_ports && p < DP_MAX_PORTS; p++)
		fprintf(f, "port%-4u mbufFree %" PRIu64 " mbufFreeStart %" PRIu64 " mbufTotal %" PRIu64 "\n", p,
			shm->ports[p].mbuf_free, shm->ports[p].mbuf_free_start, shm->ports[p].mbuf_total);
	members(f, shm);
	if (shm->hdr.mode == DP_MODE_CLIENT) {
		struct dp_lat c, r, fb;
		dp_lat_from_hist(&last->lat[DP_LAT_CONNECT], shm->hdr.tsc_hz, &c);
		dp_lat_from_hist(&last->lat[DP_LAT_RESPONSE], shm->hdr.tsc_hz, &r);
		dp_lat_from_hist(&last->lat[DP_LAT_FIRST_BYTE], shm->hdr.tsc_hz, &fb);
		lat_line(f, &c, &fb, &r);
	} else {
		struct dp_lat l;
		dp_lat_from_hist(&last->lat[DP_LAT_SERVER], shm->hdr.tsc_hz, &l);
		server_line(f, &l);
	}
	dp_lat_text_both_sides(f, shm, first, last, 1);
	dp_kinds_text(f, shm, last); /* a client's kinds: counters and latency */
	fflush(f);
}
