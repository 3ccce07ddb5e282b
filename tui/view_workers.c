/* SPDX-License-Identifier: BSD-3-Clause
 * Per-worker table: lcore, port, packet rates, CPS, open connections and
 * how busy the worker's loop is.
 */
#include <stdio.h>

#include "curses.h"
#include "top.h"

static void
row(int y, const char *who, const char *port, double rx, double tx, double cps, uint64_t conns,
    double busy)
{
	char a[16], b[16], c[16], d[16];
	int x, bar;

	x = ui_put(y, 0, AT_NONE, " %5s %4s %11s %11s %11s %11s ", who, port,
		    top_si(rx, a, sizeof(a)), top_si(tx, b, sizeof(b)), top_si(cps, c, sizeof(c)),
		    top_si((double)conns, d, sizeof(d)));
	if (busy < 0)
		return;
	x = ui_put(y, x, busy > 0.9 ? AT_BAD : AT_NONE, "%5.1f%% ", busy * 100);
	bar = COLS - x - 3;
	if (bar > 40)
		bar = 40;
	if (bar >= 5) {
		int fill = (int)(busy * bar + 0.5);

		x = ui_put(y, x, AT_NONE, "[");
		attron(ui_attr(AT_GRAPH));
		mvhline(y, x, '|', fill);
		attroff(ui_attr(AT_GRAPH));
		ui_put(y, x + bar, AT_NONE, "]");
	}
}

void
view_workers(const struct top *t, int y0, int y1)
{
	const struct dp_snapshot *a = &t->a, *b = &t->b;
	uint32_t n = b->n_workers, shown;
	uint64_t hz = t->hz;
	int y = y0 + 1;

	ui_put(y++, 0, AT_TITLE, " WORKERS (%u)", n);
	ui_put(y++, 0, AT_BOLD, " %5s %4s %11s %11s %11s %11s %6s", "lcore", "port", "rx pkt/s",
		"tx pkt/s", "CPS", "conns", "busy");
	/* Keep a row for the total and one for "more". */
	shown = n;
	if ((int)n > y1 - y - 1)
		shown = y1 - y - 2 > 0 ? (uint32_t)(y1 - y - 2) : 0;
	for (uint32_t w = 0; w < shown; w++) {
		char lc[12], pt[12];

		snprintf(lc, sizeof(lc), "%u", t->shm->workers[w].lcore);
		snprintf(pt, sizeof(pt), "%u", t->shm->workers[w].port);
		row(y++, lc, pt, dp_rate_worker(a, b, w, DP_C_PKT_RX, hz),
		    dp_rate_worker(a, b, w, DP_C_PKT_TX, hz), dp_rate_worker(a, b, w, DP_C_SK_OPEN, hz),
		    b->w_sk_cur[w], dp_worker_busy(a, b, w));
	}
	if (shown < n)
		ui_put(y++, 0, AT_DIM, " ... %u more (enlarge the terminal)", n - shown);
	if (y < y1) {
		attron(A_BOLD);
		row(y, "total", "", dp_rate(a, b, DP_C_PKT_RX, hz), dp_rate(a, b, DP_C_PKT_TX, hz),
		    dp_rate(a, b, DP_C_SK_OPEN, hz), b->sk_cur, -1);
		attroff(A_BOLD);
	}
}
