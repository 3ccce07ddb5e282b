/* SPDX-License-Identifier: BSD-3-Clause */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "figures.h"
#include "rates.h"

void
dp_snapshot_take(const struct dp_shm *s, uint64_t now_tsc, struct dp_snapshot *out)
{
	uint32_t nw = dp_shm_n_workers(s), np = s->hdr.n_ports;

	uint32_t nk = dp_shm_n_kinds(s);

	memset(out, 0, offsetof(struct dp_snapshot, klat)); /* and the kinds' rows below */
	if (np > DP_MAX_PORTS)
		np = DP_MAX_PORTS;
	out->tsc = now_tsc;
	out->n_workers = nw;
	out->n_ports = np;
	for (uint32_t w = 0; w < nw; w++) {
		const struct dp_worker_stats *ws = &s->workers[w];
		for (int c = 0; c < DP_C__COUNT; c++) {
			out->wc[w][c] = dp_load(&ws->c[c]);
			out->c[c] += out->wc[w][c];
		}
		out->w_busy[w] = dp_load(&ws->busy_tsc);
		out->w_loop[w] = dp_load(&ws->loop_tsc);
		for (int k = 0; k < DP_LAT__COUNT; k++)
			dp_hist_merge(&out->lat[k], &s->lat[w].h[k]);
	}
	out->sk_cur = dp_open_sockets(s, out->w_sk_cur);
	out->n_kinds = nk;
	out->kinds_at_tsc = 1;
	for (uint32_t k = 0; k < nk; k++) {
		for (int c = 0; c < DP_KC__COUNT; c++)
			out->kc[k][c] = dp_shm_kind_sum(s, k, (enum dp_kind_counter)c);
		memset(out->klat[k], 0, sizeof(out->klat[k]));
		for (uint32_t w = 0; w < nw; w++)
			for (int j = 0; j < DP_KLAT__COUNT; j++)
				dp_hist_merge(&out->klat[k][j], &s->klat[w].h[k][j]);
	}
	for (uint32_t p = 0; p < np; p++)
		for (int c = 0; c < DP_PC__COUNT; c++)
			out->pc[p][c] = s->ports[p].c[c];
}

void
dp_snapshot_copy(struct dp_snapshot *dst, const struct dp_snapshot *src)
{
	uint32_t nk = src->n_kinds < DP_MAX_KINDS ? src->n_kinds : DP_MAX_KINDS;

	if (dst == src)
		return;
	memcpy(dst, src, offsetof(struct dp_snapshot, klat));
	memcpy(dst->klat, src->klat, nk * sizeof(src->klat[0]));
}

static double
seconds(const struct dp_snapshot *a, const struct dp_snapshot *b, uint64_t hz)
{
	return b->tsc > a->tsc && hz ? (double)(b->tsc - a->tsc) / (double)hz : 0.0;
}

void
dp_snapshot_interval(const struct dp_snapshot *a, const struct dp_snapshot *b, uint64_t hz,
		     struct dp_interval *iv)
{
	iv->a = a->c;
	iv->b = b->c;
	iv->seconds = seconds(a, b, hz);
}

void
dp_headline(const struct dp_shm *s, const struct dp_snapshot *a, const struct dp_snapshot *b,
	    struct dp_rates *r)
{
	struct dp_interval iv;

	dp_snapshot_interval(a, b, s->hdr.tsc_hz, &iv);
	dp_rates(&iv, s->hdr.mode, r);
}

double
dp_rate(const struct dp_snapshot *a, const struct dp_snapshot *b, enum dp_counter c, uint64_t hz)
{
	return dp_per_sec(a->c[c], b->c[c], seconds(a, b, hz));
}

double
dp_rate_worker(const struct dp_snapshot *a, const struct dp_snapshot *b, uint32_t w,
	       enum dp_counter c, uint64_t hz)
{
	if (w >= DP_MAX_WORKERS)
		return 0.0;
	return dp_per_sec(a->wc[w][c], b->wc[w][c], seconds(a, b, hz));
}

double
dp_rate_port(const struct dp_snapshot *a, const struct dp_snapshot *b, uint32_t p,
	     enum dp_port_counter c, uint64_t hz)
{
	if (p >= DP_MAX_PORTS)
		return 0.0;
	return dp_per_sec(a->pc[p][c], b->pc[p][c], seconds(a, b, hz));
}

double
dp_worker_busy(const struct dp_snapshot *a, const struct dp_snapshot *b, uint32_t w)
{
	uint64_t busy, loop;

	if (w >= DP_MAX_WORKERS)
		return 0.0;
	busy = dp_delta(a->w_busy[w], b->w_busy[w]);
	loop = dp_delta(a->w_loop[w], b->w_loop[w]);
	if (loop == 0)
		return 0.0;
	return busy >= loop ? 1.0 : (double)busy / (double)loop;
}

const char *
dp_fmt_si(double v, char *buf, int len)
{
	static const char suffix[] = { ' ', 'K', 'M', 'G', 'T' };
	int i = 0;

	while ((v >= 1000.0 || v <= -1000.0) && i < 4) {
		v /= 1000.0;
		i++;
	}
	if (i == 0)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.2f%c", v, suffix[i]);
	return buf;
}

void
dp_lat_from_hist(const struct dp_hist *h, uint64_t hz, struct dp_lat *out)
{
	double us = hz ? 1e6 / (double)hz : 0.0;

	out->count = h->count;
	out->p50 = (double)dp_hist_quantile(h, 0.50) * us;
	out->p90 = (double)dp_hist_quantile(h, 0.90) * us;
	out->p99 = (double)dp_hist_quantile(h, 0.99) * us;
	out->p999 = (double)dp_hist_quantile(h, 0.999) * us;
	out->max = (double)h->max * us;
}

void
dp_lat_between(const struct dp_snapshot *a, const struct dp_snapshot *b, int kind, uint64_t hz,
	       struct dp_lat *out)
{
	static struct dp_hist d; /* large: not on the stack */

	if (kind < 0 || kind >= DP_LAT__COUNT)
		kind = DP_LAT_SERVER;
	if (b->lat_recorded) {
		*out = b->lat_interval[kind];
		return;
	}
	dp_hist_delta(&d, &a->lat[kind], &b->lat[kind]);
	dp_lat_from_hist(&d, hz, out);
}

int
dp_snapshot_last_second(const struct dp_shm *s, uint64_t now_tsc, struct dp_snapshot *a,
			struct dp_snapshot *b)
{
	uint64_t head = __atomic_load_n(&s->history_head, __ATOMIC_ACQUIRE);
	const struct dp_history_entry *e1, *e0;

	if (head == 0)
		return -1;
	e1 = &s->history[(head - 1) % DP_HISTORY_LEN];
	e0 = head >= 2 ? &s->history[(head - 2) % DP_HISTORY_LEN] : NULL;
	/* b is now (the totals a reader expects); a is b less that second,
	 * so that every difference and rate between them is that second's.
	 * The first second starts at the test's start, every counter zero. */
	dp_snapshot_take(s, now_tsc, b);
	b->lat_recorded = 1;
	memcpy(b->lat_interval, e1->lat, sizeof(b->lat_interval));
	dp_snapshot_copy(a, b);
	a->lat_recorded = 0;
	a->kinds_at_tsc = 0;
	a->tsc = b->tsc - (e1->tsc - (e0 ? e0->tsc : s->hdr.start_tsc));
	for (int c = 0; c < DP_C__COUNT; c++)
		a->c[c] = b->c[c] - (e1->c[c] - (e0 ? e0->c[c] : 0));
	return 0;
}

int
dp_kinds_between(const struct dp_snapshot *a, const struct dp_snapshot *b)
{
	return a->n_kinds != 0 && a->n_kinds == b->n_kinds && a->kinds_at_tsc && b->kinds_at_tsc;
}

void
dp_klat_between(const struct dp_snapshot *a, const struct dp_snapshot *b, uint32_t k, int j, uint64_t hz,
		struct dp_lat *out)
{
	static struct dp_hist d; /* large: not on the stack */

	memset(out, 0, sizeof(*out));
	if (!dp_kinds_between(a, b) || k >= b->n_kinds || j < 0 || j >= DP_KLAT__COUNT)
		return;
	dp_hist_delta(&d, &a->klat[k][j], &b->klat[k][j]);
	dp_lat_from_hist(&d, hz, out);
}

void
dp_klat_total(const struct dp_snapshot *b, uint32_t k, int j, uint64_t hz, struct dp_lat *out)
{
	memset(out, 0, sizeof(*out));
	if (k >= b->n_kinds || j < 0 || j >= DP_KLAT__COUNT)
		return;
	dp_lat_from_hist(&b->klat[k][j], hz, out);
}

void
dp_lat_json(FILE *f, const char *key, const struct dp_lat *l)
{
	fprintf(f, "\"%s\":{\"count\":%lu,\"p50\":%.1f,\"p90\":%.1f,\"p99\":%.1f,\"p999\":%.1f,\"max\":%.1f}",
		key, (unsigned long)l->count, l->p50, l->p90, l->p99, l->p999, l->max);
}
