/* SPDX-License-Identifier: BSD-3-Clause
 * The figures every reader shows (figures.h has their definitions).
 */
#include <stdio.h>
#include <string.h>

#include "figures.h"

const char *
dp_mode_name(uint32_t mode)
{
	return mode == DP_MODE_CLIENT ? "client" : mode == DP_MODE_SERVER ? "server" : "none";
}

const struct dp_rows_desc dp_rows[DP_ROWS__COUNT] = {
	[DP_ROWS_KINDS] = { "kinds", "kind", "name", "traffic kind", dp_kind_counter_names, DP_KC__COUNT,
			    DP_KC_GOOD_RX, 1 },
	[DP_ROWS_OBJECTS] = { "objects", "object", "path", "server object (its path)",
			      dp_object_counter_names, DP_OC__COUNT, DP_OC_GOOD_TX, 0 },
};

uint32_t
dp_rows_n(const struct dp_shm *s, int which)
{
	return which == DP_ROWS_KINDS ? dp_shm_n_kinds(s) : dp_shm_n_objects(s);
}

const char *
dp_rows_name(const struct dp_shm *s, int which, uint32_t row, size_t *len)
{
	if (which == DP_ROWS_KINDS) {
		*len = sizeof(s->kinds.name[row]);
		return s->kinds.name[row];
	}
	*len = sizeof(s->objects.path[row]);
	return s->objects.path[row];
}

uint32_t
dp_rows_weight(const struct dp_shm *s, int which, uint32_t row)
{
	return which == DP_ROWS_KINDS ? s->kinds.weight[row] : 0;
}

uint64_t
dp_rows_sum(const struct dp_shm *s, int which, uint32_t row, int c)
{
	if (which == DP_ROWS_KINDS)
		return dp_shm_kind_sum(s, row, (enum dp_kind_counter)c);
	return dp_shm_object_sum(s, row, (enum dp_object_counter)c);
}

const struct dp_lat_desc dp_lat_kinds[DP_LAT__COUNT] = {
	[DP_LAT_CONNECT] = { "connect", "connect", "SYN sent to SYN+ACK received" },
	[DP_LAT_RESPONSE] = { "response", "response", "request sent to the end of its response" },
	[DP_LAT_SERVER] = { "server", "server", "server: request polled to response queued" },
	[DP_LAT_FIRST_BYTE] = { "first_byte", "first byte", "request sent to the first byte of its response" },
	[DP_LAT_SRTT] = { "srtt", "sRTT",
			  "smoothed RTT (RFC 6298) of a connection sending a message over several segments, at each sample" },
	[DP_LAT_TLS_HS] = { "tls_handshake", "TLS handshake",
			    "TLS handshake: SYN sent (client) or received (server) to Finished" },
};

const int dp_klat_lat[DP_KLAT__COUNT] = {
	[DP_KLAT_CONNECT] = DP_LAT_CONNECT,
	[DP_KLAT_FIRST_BYTE] = DP_LAT_FIRST_BYTE,
	[DP_KLAT_RESPONSE] = DP_LAT_RESPONSE,
	[DP_KLAT_TLS_HS] = DP_LAT_TLS_HS,
};

const char *
dp_state_name(uint32_t state)
{
	static const char *const names[DP_ST__COUNT] = {
		[DP_ST_INIT] = "init",
		[DP_ST_WAIT] = "wait",
		[DP_ST_SLOW_START] = "slow-start",
		[DP_ST_RUNNING] = "running",
		[DP_ST_PAUSED] = "paused",
		[DP_ST_LINK_DOWN] = "link-down",
		[DP_ST_STOPPING] = "stopping",
		[DP_ST_DONE] = "done",
	};

	return state < DP_ST__COUNT && names[state] ? names[state] : "unknown";
}

uint64_t
dp_open_sockets(const struct dp_shm *s, uint64_t *per_worker)
{
	uint32_t nw = dp_shm_n_workers(s);
	uint64_t sum = 0;

	for (uint32_t w = 0; w < nw; w++) {
		uint64_t v = dp_load(&s->workers[w].sk_cur);

		if (per_worker != NULL)
			per_worker[w] = v;
		sum += v;
	}
	return sum;
}

double
dp_elapsed_s(const struct dp_shm *s, uint64_t tsc)
{
	uint64_t start = s->hdr.start_tsc, stop = s->hdr.stop_tsc;

	if (stop != 0 && stop < tsc)
		tsc = stop;
	if (start == 0 || tsc <= start || s->hdr.tsc_hz == 0)
		return 0.0;
	return (double)(tsc - start) / (double)s->hdr.tsc_hz;
}

double
dp_end_s(const struct dp_shm *s)
{
	return (double)dp_run_end_us(&s->ctl) / 1e6;
}

double
dp_remaining_s(const struct dp_shm *s, uint64_t tsc)
{
	double end = dp_end_s(s), el = dp_elapsed_s(s, tsc);

	return end > el ? end - el : 0.0;
}

double
dp_per_sec(uint64_t older, uint64_t newer, double seconds)
{
	if (!(seconds > 0) || newer < older)
		return 0.0;
	return (double)(newer - older) / seconds;
}

double
dp_interval_rate(const struct dp_interval *iv, enum dp_counter c)
{
	return dp_per_sec(iv->a[c], iv->b[c], iv->seconds);
}

double
dp_rps(const struct dp_interval *iv, uint32_t mode)
{
	if (mode == DP_MODE_CLIENT) /* answers received, complete and 2xx */
		return dp_interval_rate(iv, DP_C_HTTP_2XX) + dp_interval_rate(iv, DP_C_TCP_RSP);
	/* a server: well-formed requests received (httpErr counts the others) */
	return dp_interval_rate(iv, DP_C_HTTP_GET) + dp_interval_rate(iv, DP_C_HTTP_POST) +
	       dp_interval_rate(iv, DP_C_TCP_REQ);
}

void
dp_rates(const struct dp_interval *iv, uint32_t mode, struct dp_rates *r)
{
	r->cps = dp_interval_rate(iv, DP_C_SK_OPEN);
	r->rps = dp_rps(iv, mode);
	r->bps_rx = dp_interval_rate(iv, DP_C_BITS_RX);
	r->bps_tx = dp_interval_rate(iv, DP_C_BITS_TX);
	r->pps_rx = dp_interval_rate(iv, DP_C_PKT_RX);
	r->pps_tx = dp_interval_rate(iv, DP_C_PKT_TX);
	r->good_bps_rx = dp_interval_rate(iv, DP_C_GOOD_RX);
	r->good_bps_tx = dp_interval_rate(iv, DP_C_GOOD_TX);
}

const enum dp_counter dp_tls_fail_c[DP_TLS_FAIL_KINDS] = {
	DP_C_TLS_F_ALERT, DP_C_TLS_F_PROTO,   DP_C_TLS_F_VERIFY,
	DP_C_TLS_F_EOF,   DP_C_TLS_F_TIMEOUT, DP_C_TLS_F_INTERNAL,
};
const char *const dp_tls_fail_label[DP_TLS_FAIL_KINDS] = {
	"alert", "proto", "verify", "eof", "timeout", "internal",
};

void
dp_tls_rates(const struct dp_interval *iv, struct dp_tls_rates *t)
{
	double resumed = dp_interval_rate(iv, DP_C_TLS_RESUMED);

	t->hs = dp_interval_rate(iv, DP_C_TLS_HS_DONE);
	/* a share of the same interval's handshakes: the counts' ratio */
	t->resumed_share = t->hs > 0 ? resumed / t->hs : -1.0;
	t->fail_sum = 0;
	for (int k = 0; k < DP_TLS_FAIL_KINDS; k++) {
		t->fail[k] = dp_interval_rate(iv, dp_tls_fail_c[k]);
		t->fail_sum += t->fail[k];
	}
	t->err = dp_interval_rate(iv, DP_C_TLS_ERR);
	t->ossl_cores = dp_interval_rate(iv, DP_C_TLS_US) / 1e6;
}

int
dp_is_tls(const struct dp_shm *s)
{
	char text[sizeof(s->config_text)];
	const char *p;

	/* a copy, terminated: the primary wrote it once, before the start */
	memcpy(text, s->config_text, sizeof(text));
	text[sizeof(text) - 1] = '\0';
	for (p = text; *p != '\0'; p++) { /* line by line: the parser's dump */
		if (strncmp(p, "protocol https\n", 15) == 0 || strncmp(p, "protocol tls\n", 13) == 0)
			return 1;
		p = strchr(p, '\n');
		if (p == NULL)
			break;
	}
	return 0;
}

const char *
dp_fmt_us(double us, char *buf, int len)
{
	if (us >= 1e6)
		snprintf(buf, len, "%.2fs", us / 1e6);
	else if (us >= 1e3)
		snprintf(buf, len, "%.2fms", us / 1e3);
	else if (us < 9.95) /* what %.1f prints as below 10.0 */
		snprintf(buf, len, "%.1fus", us);
	else
		snprintf(buf, len, "%.0fus", us);
	return buf;
}

static double
series_value(const struct dp_interval *iv, uint32_t mode, enum dp_series which)
{
	struct dp_rates r;

	dp_rates(iv, mode, &r);
	if (which == DP_SERIES_GBPS_RX)
		return r.bps_rx / 1e9;
	if (which == DP_SERIES_GBPS_TX)
		return r.bps_tx / 1e9;
	return which == DP_SERIES_RPS ? r.rps : r.cps;
}

int
dp_history_series(const struct dp_shm *s, enum dp_series which, double *out, int max)
{
	uint64_t head = __atomic_load_n(&s->history_head, __ATOMIC_ACQUIRE), first;
	uint64_t hz = s->hdr.tsc_hz;
	struct dp_history_entry prev, cur;
	int have_prev = 0, n = 0;

	if (max <= 0 || head == 0)
		return 0;
	/* Skip the oldest slot: the primary may be overwriting it right now. */
	first = head > DP_HISTORY_LEN - 1 ? head - (DP_HISTORY_LEN - 1) : 0;
	if (head - first > (uint64_t)max + 1)
		first = head - ((uint64_t)max + 1);
	for (uint64_t k = first; k < head; k++) {
		memcpy(&cur, &s->history[k % DP_HISTORY_LEN], sizeof(cur));
		if (cur.sec == 0) {
			have_prev = 0;
			continue;
		}
		if (have_prev && cur.tsc > prev.tsc && n < max) {
			struct dp_interval iv = {
				.a = prev.c,
				.b = cur.c,
				.seconds = hz ? (double)(cur.tsc - prev.tsc) / (double)hz
					      : (double)(cur.sec - prev.sec),
			};
			out[n++] = series_value(&iv, s->hdr.mode, which);
		}
		prev = cur;
		have_prev = 1;
	}
	return n;
}
