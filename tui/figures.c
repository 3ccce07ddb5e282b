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
	snprintf(buf + n, (size_t)(len > n ? len - n : 0), "  tlsErr/s %s  handshake %s",
		 top_si(t->err, v, sizeof(v)), p50_p99(&f->lat[DP_LAT_TLS_HS], lat, sizeof(lat)));
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
