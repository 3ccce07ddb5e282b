/* SPDX-License-Identifier: BSD-3-Clause
 * The overview: target vs actual, rates, connections, TCP, HTTP, TLS, every
 * loss counter, and graphs of the last seconds from the history ring.
 * Sections that do not fit are left out whole.
 */
#include <stdio.h>
#include <string.h>

#include "curses.h"
#include "top.h"

#define GUTTER 14

static int
target_line(const struct top *t, const struct top_figs *f, int y)
{
	char a[16], b[16], c[16];
	int x;

	if (t->shm->hdr.mode == DP_MODE_CLIENT) {
		x = ui_put(y, 0, AT_NONE, " target CPS %s   actual %s",
			    top_si((double)f->target_cps, a, sizeof(a)), top_si(f->cps, b, sizeof(b)));
		if (f->target_cps)
			x = ui_put(y, x, AT_NONE, " (%.1f%%)", f->cps * 100.0 / (double)f->target_cps);
		if (f->target_cc)
			x = ui_put(y, x, AT_NONE, "   target CC %s",
				    top_si((double)f->target_cc, c, sizeof(c)));
	} else {
		x = ui_put(y, 0, AT_NONE, " server: accepting %s CPS", top_si(f->cps, b, sizeof(b)));
	}
	if (f->paused)
		ui_put(y, x, AT_WARN, "   PAUSED");
	return y + 1;
}

static int
rates(const struct top_figs *f, int y)
{
	char a[16], b[16];

	ui_put(y, 0, AT_TITLE, " RATES");
	ui_put(y, GUTTER - 2, AT_NONE, "CPS %-10s req/s %s", top_si(f->cps, a, sizeof(a)),
		top_si(f->rps, b, sizeof(b)));
	ui_put(y + 1, GUTTER - 2, AT_NONE, "rx %7.3f Gbit/s %7.3f Mpps    tx %7.3f Gbit/s %7.3f Mpps    goodput rx %7.3f tx %7.3f Gbit/s",
		f->gbps_rx, f->mpps_rx, f->gbps_tx, f->mpps_tx, f->gbps_good_rx, f->gbps_good_tx);
	return y + 2;
}

static int
connections(const struct top_figs *f, int y)
{
	char a[16];
	int x;

	ui_put(y, 0, AT_TITLE, " CONNS");
	x = ui_put(y, GUTTER - 2, AT_NONE, "current %s  ", top_si((double)f->sk_cur, a, sizeof(a)));
	x = ui_counter(y, x, "opened", f->tot[DP_C_SK_OPEN], AT_NONE);
	x = ui_counter(y, x, "closed", f->tot[DP_C_SK_CLOSE], AT_NONE);
	ui_counter(y, x, "errors", f->tot[DP_C_SK_ERR], AT_BAD);
	return y + 1;
}

static int
pair(int y, int x, const char *name, uint64_t rx, uint64_t tx)
{
	char a[16], b[16];

	return ui_put(y, x, AT_NONE, "%s %s/%s  ", name, top_si((double)rx, a, sizeof(a)),
		       top_si((double)tx, b, sizeof(b)));
}

static int
tcp(const struct top_figs *f, int y)
{
	int x;

	ui_put(y, 0, AT_TITLE, " TCP rx/tx");
	x = pair(y, GUTTER - 2, "syn", f->tot[DP_C_SYN_RX], f->tot[DP_C_SYN_TX]);
	x = pair(y, x, "fin", f->tot[DP_C_FIN_RX], f->tot[DP_C_FIN_TX]);
	pair(y, x, "rst", f->tot[DP_C_RST_RX], f->tot[DP_C_RST_TX]);
	ui_put(y + 1, 0, AT_TITLE, " RETRANS");
	x = ui_counter(y + 1, GUTTER - 2, "synRt", f->tot[DP_C_SYN_RT], AT_WARN);
	x = ui_counter(y + 1, x, "finRt", f->tot[DP_C_FIN_RT], AT_WARN);
	x = ui_counter(y + 1, x, "ackRt", f->tot[DP_C_ACK_RT], AT_WARN);
	ui_counter(y + 1, x, "pushRt", f->tot[DP_C_PUSH_RT], AT_WARN);
	return y + 2;
}

static int
http(const struct top_figs *f, int y)
{
	int x;

	ui_put(y, 0, AT_TITLE, " HTTP");
	x = ui_counter(y, GUTTER - 2, "2xx", f->tot[DP_C_HTTP_2XX], AT_NONE);
	x = ui_counter(y, x, "errors", f->tot[DP_C_HTTP_ERR], AT_BAD);
	x = ui_counter(y, x, "get", f->tot[DP_C_HTTP_GET], AT_NONE);
	x = ui_counter(y, x, "tcpReq", f->tot[DP_C_TCP_REQ], AT_NONE);
	ui_counter(y, x, "tcpRsp", f->tot[DP_C_TCP_RSP], AT_NONE);
	return y + 1;
}

static int
latency(const struct top *t, const struct top_figs *f, int y)
{
	char a[16], b[16], c[16], d[16], e[16], more[128];
	const struct dp_lat *l = f->lat;

	ui_put(y, 0, AT_TITLE, " LATENCY");
	if (t->shm->hdr.mode != DP_MODE_CLIENT)
		ui_put(y, GUTTER - 2, AT_NONE, "server p50 %s p99 %s p99.9 %s",
		       dp_fmt_us(l[DP_LAT_SERVER].p50, a, sizeof(a)), dp_fmt_us(l[DP_LAT_SERVER].p99, b, sizeof(b)),
		       dp_fmt_us(l[DP_LAT_SERVER].p999, c, sizeof(c)));
	else
		ui_put(y, GUTTER - 2, AT_NONE, "connect p50 %s p99 %s   first byte p50 %s   response p50 %s p99 %s",
		       dp_fmt_us(l[DP_LAT_CONNECT].p50, a, sizeof(a)), dp_fmt_us(l[DP_LAT_CONNECT].p99, b, sizeof(b)),
		       dp_fmt_us(l[DP_LAT_FIRST_BYTE].p50, e, sizeof(e)),
		       dp_fmt_us(l[DP_LAT_RESPONSE].p50, c, sizeof(c)), dp_fmt_us(l[DP_LAT_RESPONSE].p99, d, sizeof(d)));
	ui_put(y + 1, GUTTER - 2, AT_NONE, "%s", top_lat_both_sides(f, more, sizeof(more)));
	return y + 2;
}

/* TLS (protocol https or tls only): handshakes per second, the share
 * resumed, failures per second by kind, handshake p50/p99. Failures in
 * red when any. */
static int
tls(const struct top_figs *f, int y)
{
	char line[256];

	ui_put(y, 0, AT_TITLE, " TLS");
	ui_put(y, GUTTER - 2, f->tls.fail_sum > 0 || f->tls.err > 0 ? AT_BAD : AT_NONE, "%s",
	       top_tls_line(f, line, sizeof(line)));
	return y + 1;
}

/* One row of engine counters, totals since start. */
static void
counter_row(int y, const char *title, const uint64_t *tot, const enum dp_counter *ids, int n,
	    enum ui_attr nonzero)
{
	int x = GUTTER - 2;

	ui_put(y, 0, AT_TITLE, "%s", title);
	for (int i = 0; i < n; i++)
		x = ui_counter(y, x, dp_counter_names[ids[i]], tot[ids[i]], nonzero);
}

static int
losses(const struct top_figs *f, int y)
{
	int x = GUTTER - 2;

	counter_row(y, " LOSS", f->tot, top_loss_c, top_n_loss_c, AT_BAD);
	ui_put(y + 1, 0, AT_TITLE, " PORT LOSS");
	for (int i = 0; i < top_n_loss_pc; i++)
		x = ui_counter(y + 1, x, dp_port_counter_names[top_loss_pc[i]],
				f->port[top_loss_pc[i]], AT_BAD);
	return y + 2;
}

static void
graph(const struct top *t, enum dp_series which, int y, int rows)
{
	static double v[DP_HISTORY_LEN];
	int width = COLS - GUTTER - 1, n;
	char mx[16], now[16];
	const char *title;
	double m = 0;

	n = dp_history_series(t->shm, which, v, width < DP_HISTORY_LEN ? width : DP_HISTORY_LEN);
	for (int i = 0; i < n; i++)
		m = v[i] > m ? v[i] : m;
	if (which != DP_SERIES_CPS) {
		snprintf(mx, sizeof(mx), "%.3f", m);
		snprintf(now, sizeof(now), "%.3f", n ? v[n - 1] : 0.0);
	} else {
		top_si(m, mx, sizeof(mx));
		top_si(n ? v[n - 1] : 0.0, now, sizeof(now));
	}
	title = which == DP_SERIES_CPS ? "CPS" : which == DP_SERIES_GBPS_RX ? "Gbit/s rx" : "Gbit/s tx";
	ui_put(y, 0, AT_TITLE, " %s", title);
	if (rows == 1) {
		int x = (int)strlen(title) + 2;

		if (x + 1 + (int)strlen(mx) < GUTTER) /* the max, where it fits */
			ui_put(y, x, AT_DIM, "^%s", mx);
	} else {
		ui_put(y + 1, 1, AT_DIM, "max %s", mx);
		if (rows >= 3)
			ui_put(y + 2, 1, AT_DIM, "now %s", now);
		if (rows >= 4)
			ui_put(y + 3, 1, AT_DIM, "%ds shown", n);
	}
	ui_spark(y, GUTTER, width, rows, v, n);
}

void
view_overview(const struct top *t, int y0, int y1)
{
	struct top_figs f;
	int y = y0, rows;

	top_figures(t, &f);
	if (y + 1 <= y1)
		y = target_line(t, &f, y);
	if (y + 3 <= y1)
		y = rates(&f, y + 1);
	if (y + 1 <= y1)
		y = connections(&f, y);
	if (y + 2 <= y1)
		y = tcp(&f, y);
	if (y + 1 <= y1)
		y = http(&f, y);
	if (f.is_tls && y + 1 <= y1)
		y = tls(&f, y);
	if (y + 2 <= y1)
		y = losses(&f, y);
	if (y + 1 <= y1)
		counter_row(y++, " TESTER", f.tot, top_tester_c, top_n_tester_c, AT_WARN);
	if (y + 2 <= y1)
		y = latency(t, &f, y);
	/* Graphs get the rest: a blank line, then three graphs of equal
	 * height, CPS and each way's Gbit/s. */
	rows = (y1 - y - 3) / 3;
	if (rows > 8)
		rows = 8;
	if (rows >= 1) {
		graph(t, DP_SERIES_CPS, y + 1, rows);
		graph(t, DP_SERIES_GBPS_RX, y + 2 + rows, rows);
		graph(t, DP_SERIES_GBPS_TX, y + 3 + 2 * rows, rows);
	} else if (y1 - y >= 2) {
		graph(t, DP_SERIES_CPS, y + 1, 1);
	}
}
