/* SPDX-License-Identifier: BSD-3-Clause
 * The overview's figures, computed from two snapshots: shared by the
 * curses overview and the --once plain frame so they always agree.
 */
#include <stdio.h>
#include <string.h>

#include "top.h"

const enum dp_counter top_loss_c[] = {
	DP_C_TCP_DROP, DP_C_OOO_DROP, DP_C_TEST_DROP, DP_C_DROP_TX, DP_C_BAD_RX, DP_C_OTHER_RX, DP_C_UDP_DROP,
	DP_C_ARP_DROP,
};
const int top_n_loss_c = sizeof(top_loss_c) / sizeof(top_loss_c[0]);
const enum dp_port_counter top_loss_pc[] = {
	DP_PC_IERRORS, DP_PC_OERRORS, DP_PC_IMISSED, DP_PC_RX_NOMBUF,
};
const int top_n_loss_pc = sizeof(top_loss_pc) / sizeof(top_loss_pc[0]);
const enum dp_counter top_tester_c[] = {
	DP_C_STALL, DP_C_STALL_US, DP_C_LAUNCH_SKIP, DP_C_DEV_FAULT,
};
const int top_n_tester_c = sizeof(top_tester_c) / sizeof(top_tester_c[0]);

void
top_figures(const struct top *t, struct top_figs *f)
{
	const struct dp_shm *s = t->shm;
	const struct dp_snapshot *a = &t->a, *b = &t->b;
	uint64_t hz = t->hz;
	struct dp_interval iv;
	struct dp_rates r;

	memset(f, 0, sizeof(*f));
	dp_headline(s, a, b, &r);
	f->cps = r.cps;
	f->rps = r.rps;
	f->gbps_rx = r.bps_rx / 1e9;
	f->gbps_tx = r.bps_tx / 1e9;
	f->gbps_good_rx = r.good_bps_rx / 1e9;
	f->gbps_good_tx = r.good_bps_tx / 1e9;
	f->mpps_rx = r.pps_rx / 1e6;
	f->mpps_tx = r.pps_tx / 1e6;
	f->elapsed_s = dp_elapsed_s(s, b->tsc);
	f->duration_s = dp_end_s(s); /* the whole run: lead included */
	f->target_cps = s->ctl.target_cps;
	f->target_cc = s->ctl.target_cc;
	f->paused = s->ctl.paused;
	f->sk_cur = b->sk_cur;
	f->tot = b->c;
	for (uint32_t p = 0; p < b->n_ports; p++)
		for (int c = 0; c < DP_PC__COUNT; c++)
			f->port[c] += b->pc[p][c];
	for (int k = 0; k < DP_LAT__COUNT; k++)
		dp_lat_between(a, b, k, hz, &f->lat[k]);
	f->is_tls = dp_is_tls(s);
	dp_snapshot_interval(a, b, hz, &iv);
	dp_tls_rates(&iv, &f->tls);
}

/* "p50 X p99 Y" of l, or "p50 - p99 -" without a sample. */
static const char *
p50_p99(const struct dp_lat *l, char *buf, int len)
{
	char a[16], b[16];

	if (l->count == 0)
		snprintf(buf, (size_t)len, "p50 - p99 -");
	else
		snprintf(buf, (size_t)len, "p50 %s p99 %s", dp_fmt_us(l->p50, a, sizeof(a)),
			 dp_fmt_us(l->p99, b, sizeof(b)));
	return buf;
}

const char *
top_lat_both_sides(const struct top_figs *f, char *buf, int len)
{
	char r[48], h[48];

	snprintf(buf, (size_t)len, "%s %s   %s %s", dp_lat_kinds[DP_LAT_SRTT].label,
		 p50_p99(&f->lat[DP_LAT_SRTT], r, sizeof(r)), dp_lat_kinds[DP_LAT_TLS_HS].label,
		 p50_p99(&f->lat[DP_LAT_TLS_HS], h, sizeof(h)));
	return buf;
}

const char *
top_tls_line(const struct top_figs *f, char *buf, int len)
{
	const struct dp_tls_rates *t = &f->tls;
	char v[16], lat[48];
	int n;

	n = snprintf(buf, (size_t)len, "handshakes/s %s  resumed ", top_si(t->hs, v, sizeof(v)));
	if (t->resumed_share < 0)
		n += snprintf(buf + n, (size_t)(len > n ? len - n : 0), "-");
	else
		n += snprintf(buf + n, (size_t)(len > n ? len - n : 0), "%.0f%%", t->resumed_share * 100);
	n += snprintf(buf + n, (size_t)(len > n ? len - n : 0), "  fail/s");
	for (int k = 0; k < DP_TLS_FAIL_KINDS; k++)
		n += snprintf(buf + n, (size_t)(len > n ? len - n : 0), " %s %s", dp_tls_fail_label[k],
			      top_si(t->fail[k], v, sizeof(v)));
	snprintf(buf + n, (size_t)(len > n ? len - n : 0), "  tlsErr/s %s  handshake %s  OpenSSL %.2f cores",
		 top_si(t->err, v, sizeof(v)), p50_p99(&f->lat[DP_LAT_TLS_HS], lat, sizeof(lat)), t->ossl_cores);
	return buf;
}

const char *
top_fmt_hms(double s, char *buf, int len)
{
	unsigned long v = s > 0 ? (unsigned long)s : 0;

	if (v >= 3600)
		snprintf(buf, len, "%lu:%02lu:%02lu", v / 3600, v / 60 % 60, v % 60);
	else
		snprintf(buf, len, "%02lu:%02lu", v / 60, v % 60);
	return buf;
}

const char *
top_si(double v, char *buf, int len)
{
	size_t n;

	dp_fmt_si(v, buf, len);
	n = strlen(buf);
	while (n > 0 && buf[n - 1] == ' ')
		buf[--n] = '\0';
	return buf;
}

uint32_t
top_kinds(const struct top *t, struct top_kind *rows)
{
	const struct dp_snapshot *a = &t->a, *b = &t->b;
	double secs = b->tsc > a->tsc && t->hz ? (double)(b->tsc - a->tsc) / (double)t->hz : 0;
	uint32_t n = b->n_kinds < DP_MAX_KINDS ? b->n_kinds : DP_MAX_KINDS;
	int have = dp_kinds_between(a, b);
	uint64_t req = 0;

	for (uint32_t k = 0; k < n && have; k++)
		req += dp_delta(a->kc[k][DP_KC_REQ], b->kc[k][DP_KC_REQ]);
	for (uint32_t k = 0; k < n; k++) {
		struct top_kind *r = &rows[k];

		memset(r, 0, sizeof(*r));
		snprintf(r->name, sizeof(r->name), "%.*s", (int)sizeof(r->name) - 1, t->shm->kinds.name[k]);
		r->weight = t->shm->kinds.weight[k];
		r->err = b->kc[k][DP_KC_HTTP_ERR];
		if (!have)
			continue;
		r->rps = dp_per_sec(a->kc[k][DP_KC_REQ], b->kc[k][DP_KC_REQ], secs);
		r->ok_ps = dp_per_sec(a->kc[k][DP_KC_HTTP_2XX], b->kc[k][DP_KC_HTTP_2XX], secs);
		r->gbps_good = dp_per_sec(a->kc[k][DP_KC_GOOD_RX], b->kc[k][DP_KC_GOOD_RX], secs) / 1e9;
		r->share = req ? (double)dp_delta(a->kc[k][DP_KC_REQ], b->kc[k][DP_KC_REQ]) / (double)req : 0;
		dp_klat_between(a, b, k, DP_KLAT_RESPONSE, t->hz, &r->resp);
	}
	return n;
}

#define KIND_COLS "%-16s %7s %6s %8s %8s %8s %8s %8s %8s"

const char *
top_kind_head(char *buf, int len)
{
	snprintf(buf, (size_t)len, KIND_COLS, "kind", "weight", "share", "req/s", "2xx/s", "errors", "goodput",
		 "rsp p50", "rsp p99");
	return buf;
}

/* goodput in Gbit/s; the latency "-" without a response in the window */
const char *
top_kind_line(const struct top_kind *k, char *buf, int len)
{
	char w[16], sh[16], r[16], ok[16], e[16], g[16], p50[16], p99[16];

	snprintf(w, sizeof(w), "%u", k->weight);
	snprintf(sh, sizeof(sh), "%.1f%%", k->share * 100);
	snprintf(g, sizeof(g), "%.3f", k->gbps_good);
	if (k->resp.count) {
		dp_fmt_us(k->resp.p50, p50, sizeof(p50));
		dp_fmt_us(k->resp.p99, p99, sizeof(p99));
	} else {
		snprintf(p50, sizeof(p50), "-");
		snprintf(p99, sizeof(p99), "-");
	}
	snprintf(buf, (size_t)len, KIND_COLS, k->name, w, sh, top_si(k->rps, r, sizeof(r)),
		 top_si(k->ok_ps, ok, sizeof(ok)), top_si((double)k->err, e, sizeof(e)), g, p50, p99);
	return buf;
}
