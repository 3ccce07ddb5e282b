/* SPDX-License-Identifier: BSD-3-Clause
 * --once: the overview's figures as plain text, for pipes and scripts.
 */
#include <stdio.h>

#include "top.h"

static void
spark(FILE *out, const char *label, const struct top *t, enum dp_series which)
{
	static const char lv[] = " _.-=*#";
	double v[60];
	int e[60], n = dp_history_series(t->shm, which, v, 60);
	double mx = top_spark_scale(v, n, 1, e);
	char m[16];

	if (which != DP_SERIES_CPS)
		snprintf(m, sizeof(m), "%.3f", mx);
	else
		top_si(mx, m, sizeof(m));
	fprintf(out, "%-11s |", label);
	for (int i = 0; i < n; i++)
		fputc(lv[e[i] == 0 ? 0 : 1 + (e[i] - 1) * 5 / 7], out);
	fprintf(out, "| last %ds, max %s\n", n, m);
}

static void
items(FILE *out, const uint64_t *v, const enum dp_counter *ids, int n)
{
	char b[16];

	for (int i = 0; i < n; i++)
		fprintf(out, " %s %s", dp_counter_names[ids[i]], top_si((double)v[ids[i]], b, sizeof(b)));
	fputc('\n', out);
}

static void
counters(FILE *out, const char *title, const uint64_t *v, const enum dp_counter *ids, int n)
{
	fprintf(out, "%-10s", title);
	items(out, v, ids, n);
}

void
plain_frame(const struct top *t, FILE *out)
{
	static const enum dp_counter conn[] = { DP_C_SK_OPEN, DP_C_SK_CLOSE, DP_C_SK_ERR };
	static const enum dp_counter flags[] = { DP_C_SYN_RX, DP_C_SYN_TX, DP_C_FIN_RX,
						 DP_C_FIN_TX, DP_C_RST_RX, DP_C_RST_TX };
	static const enum dp_counter rt[] = { DP_C_SYN_RT, DP_C_FIN_RT, DP_C_ACK_RT, DP_C_PUSH_RT };
	static const enum dp_counter http[] = { DP_C_HTTP_2XX, DP_C_HTTP_ERR, DP_C_HTTP_GET,
						DP_C_TCP_REQ, DP_C_TCP_RSP };
	const struct dp_shm *s = t->shm;
	struct top_figs f;
	char a[16], b[16], c[16];

	top_figures(t, &f);
	fprintf(out, "dperf-top  %.48s  %s  %s  pid %d\n", s->hdr.name, dp_mode_name(s->hdr.mode),
		dp_state_name(s->hdr.state), (int)s->hdr.pid);
	fprintf(out, "elapsed    %s", top_fmt_hms(f.elapsed_s, a, sizeof(a)));
	if (f.duration_s > 0)
		fprintf(out, " / %s  remaining %s", top_fmt_hms(f.duration_s, b, sizeof(b)),
			top_fmt_hms(f.duration_s > f.elapsed_s ? f.duration_s - f.elapsed_s : 0, c,
				    sizeof(c)));
	fprintf(out, "%s\n", f.paused ? "  PAUSED" : "");
	if (s->hdr.mode == DP_MODE_CLIENT)
		fprintf(out, "target     CPS %s\n", top_si((double)f.target_cps, a, sizeof(a)));
	fprintf(out, "RATES      CPS %s  req/s %s  (over %.2fs)\n", top_si(f.cps, a, sizeof(a)),
		top_si(f.rps, b, sizeof(b)), t->interval_s);
	fprintf(out, "           rx %.3f Gbit/s %.3f Mpps  tx %.3f Gbit/s %.3f Mpps  goodput rx %.3f Gbit/s tx %.3f Gbit/s\n",
		f.gbps_rx, f.mpps_rx, f.gbps_tx, f.mpps_tx, f.gbps_good_rx, f.gbps_good_tx);
	fprintf(out, "CONNS      current %s", top_si((double)f.sk_cur, a, sizeof(a)));
	items(out, f.tot, conn, 3);
	counters(out, "TCP", f.tot, flags, 6);
	counters(out, "RETRANS", f.tot, rt, 4);
	counters(out, "HTTP", f.tot, http, 5);
	if (f.is_tls) {
		char line[256];
		fprintf(out, "%-10s %s\n", "TLS", top_tls_line(&f, line, sizeof(line)));
	}
	counters(out, "LOSS", f.tot, top_loss_c, top_n_loss_c);
	fprintf(out, "%-10s", "PORT LOSS");
	for (int i = 0; i < top_n_loss_pc; i++)
		fprintf(out, " %s %s", dp_port_counter_names[top_loss_pc[i]],
			top_si((double)f.port[top_loss_pc[i]], a, sizeof(a)));
	fputc('\n', out);
	counters(out, "TESTER", f.tot, top_tester_c, top_n_tester_c);
	if (s->hdr.mode == DP_MODE_CLIENT) {
		char d[16], e[16];
		fprintf(out, "LATENCY    connect p50 %s p99 %s   first byte p50 %s   response p50 %s p99 %s\n",
			dp_fmt_us(f.lat[DP_LAT_CONNECT].p50, a, sizeof(a)), dp_fmt_us(f.lat[DP_LAT_CONNECT].p99, b, sizeof(b)),
			dp_fmt_us(f.lat[DP_LAT_FIRST_BYTE].p50, e, sizeof(e)),
			dp_fmt_us(f.lat[DP_LAT_RESPONSE].p50, c, sizeof(c)), dp_fmt_us(f.lat[DP_LAT_RESPONSE].p99, d, sizeof(d)));
	}
	{
		char more[128];
		fprintf(out, "LATENCY    %s\n", top_lat_both_sides(&f, more, sizeof(more)));
	}
	{ /* a client's traffic kinds: a row each */
		static struct top_kind rows[DP_MAX_KINDS];
		uint32_t n = top_kinds(t, rows);
		char line[160];

		if (n != 0)
			fprintf(out, "%-10s %s\n", "KINDS", top_kind_head(line, sizeof(line)));
		for (uint32_t k = 0; k < n; k++)
			fprintf(out, "%-10s %s\n", "", top_kind_line(&rows[k], line, sizeof(line)));
	}
	spark(out, "CPS", t, DP_SERIES_CPS);
	spark(out, "Gbit/s rx", t, DP_SERIES_GBPS_RX);
	spark(out, "Gbit/s tx", t, DP_SERIES_GBPS_TX);
}
