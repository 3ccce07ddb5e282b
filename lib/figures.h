/* SPDX-License-Identifier: BSD-3-Clause
 * The figures every reader shows, defined once: dperf-ctl (stats as text,
 * JSON and CSV, status, export), dperf-top, the primary's per-second
 * report, its -o summary and its telemetry. A figure two readers print
 * comes from here, so they cannot disagree (they did: dperf-ctl counted a
 * client's rps from responses, dperf-top from requests).
 *
 * Definitions (docs/architecture.md, "Figures"):
 *   cps          connections opened per second (skOpen).
 *   rps          requests per second that reached the side reporting:
 *                a client counts the answers it received complete and
 *                successful (http2XX + tcpRsp), a server the well-formed
 *                requests it received (httpGet + httpPost + tcpReq).
 *                Requests sent and never answered are not rps.
 *   bps, pps     bits and packets per second as the engine counted them
 *                (bitsRx/bitsTx, pktRx/pktTx: every frame, ARP included).
 *   open sockets the workers' sk_cur summed (skCon in every output).
 *   elapsed      seconds from the start to now, or to the stop once stopped.
 *   tls hs/s     TLS handshakes completed per second (tlsHsDone): the TLS
 *                CPS; resumed share is tlsResumed over tlsHsDone in the
 *                same interval; failures per second by kind (tlsFail*).
 */
#ifndef DPERF_FIGURES_H
#define DPERF_FIGURES_H

#include <stdint.h>

#include "shm.h"

/* "client", "server", "none"; "init" ... "done", "unknown" out of range. */
const char *dp_mode_name(uint32_t mode);
const char *dp_state_name(uint32_t state);

/* The latency kinds (enum dp_lat_kind, shm.h) as every output names
 * them: key in JSON, CSV, merge and dperf-report, key + "_seconds" in
 * Prometheus; label in text; help says what is measured. A kind with no
 * sample (count 0) is shown as such: count 0 in JSON, an empty cell in
 * CSV, no line or "-" in text, never percentiles of 0. */
struct dp_lat_desc {
	const char *key;
	const char *label;
	const char *help;
};
extern const struct dp_lat_desc dp_lat_kinds[DP_LAT__COUNT];
/* The latencies measured per traffic kind (enum dp_klat, shm.h), each
 * as the kind of latency it is: its names are dp_lat_kinds[dp_klat_lat[j]]. */
extern const int dp_klat_lat[DP_KLAT__COUNT];

/* Tables of named rows with counters of their own beside the totals
 * (issue 37): a client's traffic kinds (shm.h's kinds, two or more) and
 * a server's objects (shm.h's objects, one or more). One description
 * every output reads (text, JSON, the -o summary, Prometheus) and
 * dperf-ctl merge, which sums rows by their name. */
enum dp_rows_which { DP_ROWS_KINDS, DP_ROWS_OBJECTS, DP_ROWS__COUNT };
struct dp_rows_desc {
	const char *key;   /* the JSON array: "kinds", "objects" */
	const char *label; /* a row's word: its text line, Prometheus names and label */
	const char *id;    /* the JSON member naming a row: "name", "path" */
	const char *help;  /* what a row is, for Prometheus' HELP */
	const char *const *counters; /* the counters' names (counters.h) */
	int n_counters;
	int bits;          /* the counter in bits (goodRx, goodTx): bytes in Prometheus */
	int weighted;      /* rows have a weight now (kinds: the pick's) */
};
extern const struct dp_rows_desc dp_rows[DP_ROWS__COUNT];

/* Rows counted in s (0: none), a row's name (NUL-terminated within
 * *len bytes), its weight (weighted rows), a counter summed over the
 * workers. */
uint32_t dp_rows_n(const struct dp_shm *s, int which);
const char *dp_rows_name(const struct dp_shm *s, int which, uint32_t row, size_t *len);
uint32_t dp_rows_weight(const struct dp_shm *s, int which, uint32_t row);
uint64_t dp_rows_sum(const struct dp_shm *s, int which, uint32_t row, int c);

/* Connections open now: each worker's sk_cur read once and summed; when
 * per_worker is not NULL it receives the values summed (so a reader's
 * per-worker rows always add up to its total). */
uint64_t dp_open_sockets(const struct dp_shm *s, uint64_t *per_worker);

/* Seconds from the start to tsc, or to the stop when the primary stopped
 * before tsc; 0 before the start. */
double dp_elapsed_s(const struct dp_shm *s, uint64_t tsc);
/* When the run ends, from the start (dp_run_end_us), and what is left of
 * it at tsc. */
double dp_end_s(const struct dp_shm *s);
double dp_remaining_s(const struct dp_shm *s, uint64_t tsc);

/* One interval: the cumulative counters at its two ends (DP_C__COUNT
 * each, a the older) and its length. From two snapshots, or from two
 * entries of the primary's history. */
struct dp_interval {
	const uint64_t *a, *b;
	double seconds;
};

/* The one rate: a cumulative count going from older to newer over
 * seconds, per second; 0 for an empty interval and for a count that went
 * down (a restarted primary). */
double dp_per_sec(uint64_t older, uint64_t newer, double seconds);
/* Per-second rate of counter c over iv. */
double dp_interval_rate(const struct dp_interval *iv, enum dp_counter c);

/* The headline rates over an interval, for a primary in mode. */
struct dp_rates {
	double cps, rps, bps_rx, bps_tx, pps_rx, pps_tx;
	double good_bps_rx; /* goodput: payload delivered in order, once (goodRx) */
	double good_bps_tx; /* goodput sent: payload sent for the first time (goodTx) */
};
double dp_rps(const struct dp_interval *iv, uint32_t mode);
void dp_rates(const struct dp_interval *iv, uint32_t mode, struct dp_rates *r);

/* Latency for people, every reader's: one decimal below 10 us (a p50 of
 * 0.3 us is not "0us"), whole microseconds below 1 ms, then ms and s with
 * two decimals: "0.3us", "15us", "1.25ms", "2.00s". (dperf-report's
 * fmt_us is this, in Python.) Returns buf. */
const char *dp_fmt_us(double us, char *buf, int len);

/* TLS over an interval (protocol https or tls): handshakes completed per
 * second, the share of them resumed (-1 when none completed), failed
 * handshakes per second by kind (dp_tls_fail_c's order) and their sum,
 * TLS connections failed after their handshake (tlsErr) per second, and
 * the workers' cores inside OpenSSL's calls (tlsUs per second over a
 * million: 0.5 is half a core's time). */
#define DP_TLS_FAIL_KINDS 6
extern const enum dp_counter dp_tls_fail_c[DP_TLS_FAIL_KINDS];
extern const char *const dp_tls_fail_label[DP_TLS_FAIL_KINDS]; /* "alert", "proto", ... */
struct dp_tls_rates {
	double hs, resumed_share, fail[DP_TLS_FAIL_KINDS], fail_sum, err, ossl_cores;
};
void dp_tls_rates(const struct dp_interval *iv, struct dp_tls_rates *t);
/* Whether the primary runs TLS (protocol https or tls), from its
 * effective configuration (config_text): the readers show TLS figures
 * only then. */
int dp_is_tls(const struct dp_shm *s);

/* Per-second series from the primary's history ring, oldest first, at
 * most max values (the last max seconds); returns how many. A reader
 * that attaches late still has the last minutes. */
/* Gbit/s each way, apart: a sum of the two hid which way the traffic went
 * (dperf-top's "Gbit/s" graph drew rx + tx and did not say so). */
enum dp_series { DP_SERIES_CPS = 0, DP_SERIES_RPS, DP_SERIES_GBPS_RX, DP_SERIES_GBPS_TX };
int dp_history_series(const struct dp_shm *s, enum dp_series which, double *out, int max);

#endif
