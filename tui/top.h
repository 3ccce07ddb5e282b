/* SPDX-License-Identifier: BSD-3-Clause
 * dperf-top: state shared by its modules, and each module's entry points.
 * Pure declarations: no curses and no DPDK here.
 */
#ifndef DPERF_TUI_TOP_H
#define DPERF_TUI_TOP_H

#include <stdint.h>
#include <stdio.h>

#include "rates.h"
#include "shm.h"

#define TOP_CTL_TIMEOUT_MS 2000

enum top_view { VIEW_OVERVIEW = 0, VIEW_WORKERS, VIEW_PORTS, VIEW_KINDS, VIEW__COUNT };
enum top_msg { MSG_INFO = 0, MSG_OK, MSG_ERR };
enum top_prompt { PROMPT_NONE = 0, PROMPT_CPS, PROMPT_DURATION, PROMPT_STOP };

struct top {
	const struct dp_shm *shm;
	uint64_t hz;             /* TSC ticks per second (the primary's) */
	double interval_s;       /* refresh interval */
	struct dp_snapshot a, b; /* a older, b newer; rates are between them */
	int have_rates;          /* a and b are distinct snapshots */
	enum top_view view;
	int help;                /* help overlay shown */
	int stopped;             /* engine gone or done: figures frozen */
	int end;                 /* enum dp_end once stopped */
	int quit;
	enum top_prompt prompt;
	char input[32];
	size_t input_len;
	char status[256];
	enum top_msg status_kind;
};

/* Figures shared by the overview and the plain frame. */
struct top_figs {
	double cps, rps;
	double gbps_rx, gbps_tx, mpps_rx, mpps_tx;
	double gbps_good_rx; /* goodput: payload delivered in order, once */
	double gbps_good_tx; /* goodput sent: payload sent for the first time */
	double elapsed_s, duration_s; /* duration_s 0: none */
	uint64_t target_cps, target_cc, sk_cur;
	uint32_t paused;
	const uint64_t *tot;          /* cumulative counters (t->b.c) */
	uint64_t port[DP_PC__COUNT];  /* port counters summed over ports */
	struct dp_lat lat[DP_LAT__COUNT]; /* over the refresh window, microseconds */
	int is_tls;                   /* protocol https or tls: the TLS line is shown */
	struct dp_tls_rates tls;      /* over the refresh window */
};

/* Loss counters, every one of them; shown in red when non-zero. */
extern const enum dp_counter top_loss_c[];
extern const int top_n_loss_c;
extern const enum dp_port_counter top_loss_pc[];
extern const int top_n_loss_pc;
/* The tester's own limits: its worker losing the core (stall, stallUs),
 * launch slots it could not keep (launchSkip), device bursts abandoned
 * (devFault). Non-zero says the tester, not the device under test, was
 * the limit; shown in yellow. */
extern const enum dp_counter top_tester_c[];
extern const int top_n_tester_c;

/* figures.c */
void top_figures(const struct top *t, struct top_figs *f);
const char *top_fmt_hms(double s, char *buf, int len);
const char *top_si(double v, char *buf, int len); /* dp_fmt_si, trimmed */
/* The latencies measured on either side, one line: "sRTT p50 .. p99 ..
 * TLS handshake p50 .. p99 ..", "-" for a kind with no sample in the
 * window (no TLS traffic, no connection sending over several segments). */
const char *top_lat_both_sides(const struct top_figs *f, char *buf, int len);
/* The TLS figures, one line: "handshakes/s 1.2K  resumed 50%  fail/s
 * alert 0 proto 0 verify 0 eof 0 timeout 0 internal 0  tlsErr/s 0
 * handshake p50 .. p99 ..". */
const char *top_tls_line(const struct top_figs *f, char *buf, int len);

/* A client's traffic kind (issue 37) over the refresh window: the
 * kinds view's and the --once frame's row. Rates are per second; errors
 * (httpErr) the total since start; share: of the kinds' requests in the
 * window; resp: the response latency in the window. */
struct top_kind {
	char name[DP_KIND_NAME_LEN];
	uint32_t weight;
	double rps, ok_ps, share, gbps_good;
	uint64_t err;
	struct dp_lat resp;
};
/* The kinds' rows (at most DP_MAX_KINDS), 0 without kinds. */
uint32_t top_kinds(const struct top *t, struct top_kind *rows);
/* Column titles, then one row, as both outputs print them. */
const char *top_kind_head(char *buf, int len);
const char *top_kind_line(const struct top_kind *k, char *buf, int len);

/* clock.c: the only file including DPDK headers */
uint64_t top_tsc(void);
uint64_t top_local_tsc_hz(void);

/* spark.c: graphs of dp_history_series (figures.h) */
/* Scale v[0..n) into eighths of `rows` rows: out[i] in 0..rows*8. Returns the max. */
double top_spark_scale(const double *v, int n, int rows, int *out);

/* screen.c */
int ui_init(void);
void ui_end(void);
int ui_utf8(void);
enum ui_attr { AT_NONE = 0, AT_BOLD, AT_DIM, AT_HEAD, AT_OK, AT_BAD, AT_WARN, AT_TITLE, AT_GRAPH };
int ui_attr(enum ui_attr a);
/* Print at (y, x), clipped at the right edge; returns the column after. */
int ui_put(int y, int x, enum ui_attr a, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* "name value" with value bad-coloured when non-zero. Returns the column after. */
int ui_counter(int y, int x, const char *name, uint64_t v, enum ui_attr nonzero);
void ui_spark(int y, int x, int width, int rows, const double *v, int n);

/* frame.c: one full frame (header, view, hints, status, help) */
void top_draw(struct top *t);
void top_status(struct top *t, enum top_msg kind, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* view_*.c: draw the body between rows y0 and y1 (exclusive) */
void view_overview(const struct top *t, int y0, int y1);
void view_workers(const struct top *t, int y0, int y1);
void view_ports(const struct top *t, int y0, int y1);
void view_kinds(const struct top *t, int y0, int y1);
void view_help(void);

/* keys.c */
void keys_handle(struct top *t, int ch);

/* plain.c: the --once frame */
void plain_frame(const struct top *t, FILE *out);

#endif
