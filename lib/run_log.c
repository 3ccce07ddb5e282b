/* SPDX-License-Identifier: BSD-3-Clause */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ctl_msg.h"
#include "run_log.h"
#include "stats_out.h"

/* The counters a report plots as errors (per second): every drop
 * (counters.h lists them; not tcpOoo, a segment held out of order, nor
 * testDrop, the loss a test asked for), retransmissions, failed
 * connections, requests, launches and TLS handshakes, the engine's own
 * faults, and the ports' error counters. The JSON names them, so
 * dperf-report holds no list of its own. */
static const char *const error_counters[] = {
	"dropTx", "badRx", "otherRx", "tcpDrop", "oooDrop", "udpDrop", "arpDrop",
	"rstRx", "synRt", "finRt", "ackRt", "pushRt", "skErr", "httpErr", "http404", "pipeFull",
	"launchSkip", "launchFull", "stall", "devFault", "ierrors", "oerrors", "imissed", "rxNombuf",
	/* TLS handshakes failed, by kind, and TLS connections failed after */
	"tlsFailAlert", "tlsFailProto", "tlsFailVerify", "tlsFailEof", "tlsFailTimeout",
	"tlsFailInternal", "tlsErr",
};

static void
second_from(struct dp_second *d, const struct dp_shm *s, const struct dp_snapshot *prev,
	    const struct dp_snapshot *cur)
{
	memset(d, 0, sizeof(*d));
	d->tsc = cur->tsc;
	d->state = s->hdr.state;
	memcpy(d->c, cur->c, sizeof(d->c));
	for (uint32_t p = 0; p < cur->n_ports && p < DP_MAX_PORTS; p++)
		for (int k = 0; k < DP_PC__COUNT; k++)
			d->pc[k] += cur->pc[p][k];
	d->sk_cur = cur->sk_cur;
	d->target_cps = s->ctl.target_cps;
	for (uint32_t k = 0; k < cur->n_kinds && k < DP_MAX_KINDS; k++)
		d->kreq[k] = cur->kc[k][DP_KC_REQ];
	if (prev != NULL) {
		for (int k = 0; k < DP_LAT__COUNT; k++)
			dp_lat_between(prev, cur, k, s->hdr.tsc_hz, &d->lat[k]);
		for (uint32_t k = 0; k < cur->n_kinds && k < DP_MAX_KINDS; k++) {
			struct dp_lat l;

			dp_klat_between(prev, cur, k, DP_KLAT_RESPONSE, s->hdr.tsc_hz, &l);
			d->kresp_p50[k] = (float)l.p50;
			d->kresp_p99[k] = (float)l.p99;
			d->kresp_n[k] = (uint32_t)l.count;
		}
	}
}

void
dp_run_log_begin(struct dp_run_log *r, const struct dp_shm *s, const struct dp_snapshot *first,
		 size_t max)
{
	memset(r, 0, sizeof(*r));
	r->max = max ? max : DP_RUN_LOG_MAX_SECONDS;
	second_from(&r->base, s, NULL, first);
	r->ch_seen = __atomic_load_n(&s->ctl.n_changes, __ATOMIC_ACQUIRE);
}

void
dp_run_log_second(struct dp_run_log *r, const struct dp_shm *s, const struct dp_snapshot *prev,
		  const struct dp_snapshot *cur)
{
	struct dp_second *d;

	if (r->no_memory)
		return;
	if (r->n == r->cap && r->cap < r->max) {
		size_t cap = r->cap ? r->cap * 2 : 64;
		void *v;

		if (cap > r->max)
			cap = r->max;
		if ((v = realloc(r->sec, cap * sizeof(*r->sec))) == NULL) {
			r->no_memory = 1;
			return;
		}
		r->sec = v;
		r->cap = cap;
	}
	if (r->n < r->cap) {
		d = &r->sec[r->n++];
	} else { /* full: the oldest second becomes the base of the next */
		r->base = r->sec[r->head];
		d = &r->sec[r->head];
		r->head = (r->head + 1) % r->n;
		r->dropped++;
	}
	second_from(d, s, prev, cur);
}

void
dp_run_log_changes(struct dp_run_log *r, const struct dp_shm *s)
{
	uint32_t n = __atomic_load_n(&s->ctl.n_changes, __ATOMIC_ACQUIRE);

	if (n - r->ch_seen > DP_CHANGES_LEN) {
		r->ch_lost += n - r->ch_seen - DP_CHANGES_LEN;
		r->ch_seen = n - DP_CHANGES_LEN;
	}
	for (; r->ch_seen != n; r->ch_seen++) {
		if (r->n_ch == r->cap_ch) {
			size_t cap = r->cap_ch ? r->cap_ch * 2 : 16;
			void *v = realloc(r->ch, cap * sizeof(*r->ch));

			if (v == NULL) {
				r->ch_lost += n - r->ch_seen;
				r->ch_seen = n;
				return;
			}
			r->ch = v;
			r->cap_ch = cap;
		}
		r->ch[r->n_ch++] = s->ctl.changes[r->ch_seen % DP_CHANGES_LEN];
	}
}

/* A kind's name as a JSON string: letters, digits, '_', '.', '-' (the
 * parse's rule), bounded by its field. */
static void
json_name(FILE *f, const char *name, size_t max)
{
	fprintf(f, "\"%.*s\"", (int)strnlen(name, max), name);
}

static double
at_s(const struct dp_shm *s, uint64_t tsc)
{
	return tsc > s->hdr.start_tsc ? (double)(tsc - s->hdr.start_tsc) / (double)s->hdr.tsc_hz : 0.0;
}

static const struct dp_second *
nth(const struct dp_run_log *r, size_t i)
{
	return &r->sec[(r->head + i) % r->n];
}

/* One second: the figures of `stats --json` over it, the rates of every
 * counter (engine and ports) and its latency. */
static void
second_json(FILE *f, const struct dp_shm *s, const struct dp_second *a, const struct dp_second *b)
{
	double secs = (double)(b->tsc - a->tsc) / (double)s->hdr.tsc_hz, t = at_s(s, b->tsc);
	struct dp_interval iv = { .a = a->c, .b = b->c, .seconds = secs };
	struct dp_rates h;

	dp_rates(&iv, s->hdr.mode, &h);
	fprintf(f, "{\"sec\":%.0f,\"elapsed\":%.3f,\"interval\":%.3f,\"state\":\"%s\",\"target_cps\":%" PRIu64,
		t, t, secs, dp_state_name(b->state), b->target_cps);
	fprintf(f, ",\"cps\":%.1f,\"rps\":%.1f,\"bps_rx\":%.0f,\"bps_tx\":%.0f,\"pps_rx\":%.0f,\"pps_tx\":%.0f,\"good_bps_rx\":%.0f,\"good_bps_tx\":%.0f,\"skCon\":%" PRIu64,
		h.cps, h.rps, h.bps_rx, h.bps_tx, h.pps_rx, h.pps_tx, h.good_bps_rx, h.good_bps_tx, b->sk_cur);
	fprintf(f, ",\"latency_us\":{");
	for (int k = 0; k < DP_LAT__COUNT; k++) {
		fputs(k ? "," : "", f);
		dp_lat_json(f, dp_lat_kinds[k].key, &b->lat[k]);
	}
	fprintf(f, "},\"rates\":{");
	for (int c = 0; c < DP_C__COUNT; c++)
		fprintf(f, "%s\"%s\":%.1f", c ? "," : "", dp_counter_names[c], dp_interval_rate(&iv, c));
	for (int c = 0; c < DP_PC__COUNT; c++)
		fprintf(f, ",\"%s\":%.1f", dp_port_counter_names[c], dp_per_sec(a->pc[c], b->pc[c], secs));
	fputc('}', f);
	/* a traffic mix's shares over the second: each kind's requests
	 * (set weight's effect; its change is in "changes") */
	if (dp_shm_n_kinds(s) != 0) {
		fputs(",\"kind_rates\":{", f);
		for (uint32_t k = 0; k < dp_shm_n_kinds(s); k++) {
			fputs(k ? "," : "", f);
			json_name(f, s->kinds.name[k], sizeof(s->kinds.name[k]));
			fprintf(f, ":{\"requests\":%.1f,\"responses\":%u", dp_per_sec(a->kreq[k], b->kreq[k], secs),
				b->kresp_n[k]);
			if (b->kresp_n[k] != 0) /* its response latency over the second */
				fprintf(f, ",\"response_p50_us\":%.1f,\"response_p99_us\":%.1f", b->kresp_p50[k],
					b->kresp_p99[k]);
			fputc('}', f);
		}
		fputc('}', f);
	}
	fputc('}', f);
}

void
dp_run_log_json(FILE *f, const struct dp_shm *s, const struct dp_run_log *r)
{
	const struct dp_second *prev = &r->base;

	fprintf(f, ",\"history_seconds_max\":%zu,\"history_dropped\":%" PRIu64 ",\"history_incomplete\":%s",
		r->max, r->dropped, r->no_memory ? "true" : "false");
	fprintf(f, ",\"error_counters\":[");
	for (size_t i = 0; i < sizeof(error_counters) / sizeof(error_counters[0]); i++)
		fprintf(f, "%s\"%s\"", i ? "," : "", error_counters[i]);
	/* the latency kinds, so that dperf-report names and plots every one
	 * (an empty one it leaves out) with no list of its own */
	fprintf(f, "],\"latency_kinds\":[");
	for (int k = 0; k < DP_LAT__COUNT; k++)
		fprintf(f, "%s{\"key\":\"%s\",\"label\":\"%s\",\"help\":\"%s\"}", k ? "," : "",
			dp_lat_kinds[k].key, dp_lat_kinds[k].label, dp_lat_kinds[k].help);
	fprintf(f, "],\"history\":[");
	for (size_t i = 0; i < r->n; i++) {
		const struct dp_second *cur = nth(r, i);

		fputs(i ? "," : "", f);
		second_json(f, s, prev, cur);
		prev = cur;
	}
	fprintf(f, "],\"changes_lost\":%" PRIu64 ",\"changes\":[", r->ch_lost);
	for (size_t i = 0; i < r->n_ch; i++) {
		fprintf(f, "%s{\"elapsed\":%.3f", i ? "," : "", at_s(s, r->ch[i].tsc));
		dp_change_json(f, s, &r->ch[i]);
		fputc('}', f);
	}
	fputc(']', f);
}

void
dp_run_log_free(struct dp_run_log *r)
{
	free(r->sec);
	free(r->ch);
	memset(r, 0, sizeof(*r));
}
