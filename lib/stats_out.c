/* SPDX-License-Identifier: BSD-3-Clause
 * Statistics as data: JSON (one object per line) and CSV, shared by
 * dperf-ctl and the primary's -o summary; and the text counter block
 * that both print.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctl_msg.h"
#include "run_log.h"
#include "stats_out.h"
#include "version.h"

void
dp_lat_text_both_sides(FILE *f, const struct dp_shm *s, const struct dp_snapshot *a,
		       const struct dp_snapshot *b, int total)
{
	static const int kinds[] = { DP_LAT_SRTT, DP_LAT_TLS_HS };

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		struct dp_lat l;

		if (total)
			dp_lat_from_hist(&b->lat[kinds[i]], s->hdr.tsc_hz, &l);
		else
			dp_lat_between(a, b, kinds[i], s->hdr.tsc_hz, &l);
		if (l.count)
			fprintf(f, "latency  %s p50 %.1f p90 %.1f p99 %.1f p99.9 %.1f max %.1f us (%" PRIu64 " samples)\n",
				dp_lat_kinds[kinds[i]].label, l.p50, l.p90, l.p99, l.p999, l.max, l.count);
	}
}

/* Latency (microseconds) over the interval and over the whole test,
 * every kind (an empty one with count 0). */
static void
latency_json(FILE *f, const struct dp_shm *s, const struct dp_snapshot *a, const struct dp_snapshot *b)
{
	struct dp_lat l;

	fprintf(f, ",\"latency_us\":{");
	for (int k = 0; k < DP_LAT__COUNT; k++) {
		fputs(k ? "," : "", f);
		dp_lat_between(a, b, k, s->hdr.tsc_hz, &l);
		dp_lat_json(f, dp_lat_kinds[k].key, &l);
	}
	fprintf(f, "},\"latency_total_us\":{");
	for (int k = 0; k < DP_LAT__COUNT; k++) {
		fputs(k ? "," : "", f);
		dp_lat_from_hist(&b->lat[k], s->hdr.tsc_hz, &l);
		dp_lat_json(f, dp_lat_kinds[k].key, &l);
	}
	fputc('}', f);
}

/* The ports' mbuf pools, summed: size, free now, free before traffic. */
static void
pools_json(FILE *f, const struct dp_shm *s)
{
	uint64_t total = 0, avail = 0, start = 0;

	for (uint32_t p = 0; p < s->hdr.n_ports && p < DP_MAX_PORTS; p++) {
		total += s->ports[p].mbuf_total;
		avail += s->ports[p].mbuf_free;
		start += s->ports[p].mbuf_free_start;
	}
	fprintf(f, ",\"mbufTotal\":%" PRIu64 ",\"mbufFree\":%" PRIu64 ",\"mbufFreeStart\":%" PRIu64,
		total, avail, start);
}

/* Bonded ports' members, each device's own counters (absent without a
 * bond): which links carry the traffic. */
static void
members_json(FILE *f, const struct dp_shm *s)
{
	int first = 1;

	for (uint32_t p = 0; p < s->hdr.n_ports && p < DP_MAX_PORTS; p++)
		for (uint32_t m = 0; m < s->ports[p].n_members && m < DP_BOND_MAX_MEMBERS; m++) {
			const struct dp_member_stats *ms = &s->ports[p].members[m];

			fprintf(f, "%s{\"port\":%u,\"name\":\"%s\",\"ipackets\":%" PRIu64
				",\"opackets\":%" PRIu64 ",\"ibytes\":%" PRIu64 ",\"obytes\":%" PRIu64 "}",
				first ? ",\"members\":[" : ",", p, ms->name, ms->ipackets, ms->opackets,
				ms->ibytes, ms->obytes);
			first = 0;
		}
	if (!first)
		fputc(']', f);
}

/* The object's fields, without its closing brace. */
static void
stats_fields(FILE *f, const struct dp_shm *s, const struct dp_snapshot *a, const struct dp_snapshot *b)
{
	struct dp_rates h;
	uint64_t hz = s->hdr.tsc_hz;

	dp_headline(s, a, b, &h);
	fprintf(f, "{\"name\":\"%s\",\"mode\":\"%s\",\"state\":\"%s\",\"elapsed\":%.3f,", s->hdr.name,
		dp_mode_name(s->hdr.mode), dp_state_name(s->hdr.state), dp_elapsed_s(s, b->tsc));
	fprintf(f, "\"end\":%.3f,", dp_end_s(s));
	fprintf(f, "\"interval\":%.3f,\"target_cps\":%" PRIu64 ",\"generation\":%" PRIu64 ",",
		(double)(b->tsc - a->tsc) / (double)hz, (uint64_t)s->ctl.target_cps,
		(uint64_t)s->ctl.generation);
	fprintf(f, "\"cps\":%.1f,\"rps\":%.1f,\"bps_rx\":%.0f,\"bps_tx\":%.0f,\"pps_rx\":%.0f,\"pps_tx\":%.0f,\"good_bps_rx\":%.0f,\"good_bps_tx\":%.0f,",
		h.cps, h.rps, h.bps_rx, h.bps_tx, h.pps_rx, h.pps_tx, h.good_bps_rx, h.good_bps_tx);
	fprintf(f, "\"skCon\":%" PRIu64, b->sk_cur);
	for (int c = 0; c < DP_C__COUNT; c++)
		fprintf(f, ",\"%s\":%" PRIu64, dp_counter_names[c], b->c[c]);
	for (int c = 0; c < DP_PC__COUNT; c++) {
		uint64_t t = 0;
		for (uint32_t p = 0; p < b->n_ports; p++)
			t += b->pc[p][c];
		fprintf(f, ",\"%s\":%" PRIu64, dp_port_counter_names[c], t);
	}
	pools_json(f, s);
	members_json(f, s);
	latency_json(f, s, a, b);
	fprintf(f, ",\"rates\":{");
	for (int c = 0; c < DP_C__COUNT; c++)
		fprintf(f, "%s\"%s\":%.1f", c ? "," : "", dp_counter_names[c],
			dp_rate(a, b, (enum dp_counter)c, hz));
	fputc('}', f);
}

/* A string as JSON: quotes, backslashes and control characters escaped
 * (the configuration's text, as its file had it). */
static void
json_string(FILE *f, const char *str, size_t max)
{
	fputc('"', f);
	for (size_t i = 0; i < max && str[i]; i++) {
		unsigned char ch = (unsigned char)str[i];

		if (ch == '"' || ch == '\\')
			fprintf(f, "\\%c", ch);
		else if (ch == '\n')
			fputs("\\n", f);
		else if (ch < 0x20 || ch == 0x7f)
			fprintf(f, "\\u%04x", ch);
		else
			fputc(ch, f);
	}
	fputc('"', f);
}

/* The whole test's histograms, non-empty buckets only, in TSC ticks (the
 * engine's own buckets, hist.h): what `dperf-ctl merge` adds up, so that
 * a fleet's percentiles come from all its samples. */
static void
hist_json(FILE *f, const char *key, const struct dp_hist *h)
{
	uint64_t n = 0;
	int first = 1;

	for (uint32_t i = 0; i < DP_HIST_BUCKETS; i++)
		n += h->b[i];
	fprintf(f, "\"%s\":{\"count\":%" PRIu64 ",\"max\":%" PRIu64 ",\"b\":[", key, n, h->max);
	for (uint32_t i = 0; i < DP_HIST_BUCKETS; i++)
		if (h->b[i] != 0) {
			fprintf(f, "%s[%u,%" PRIu64 "]", first ? "" : ",", i, h->b[i]);
			first = 0;
		}
	fputs("]}", f);
}

static void
latency_hist_json(FILE *f, const struct dp_shm *s, const struct dp_snapshot *b)
{
	fprintf(f, ",\"latency_hist\":{\"tsc_hz\":%" PRIu64 ",\"sub_bits\":%u,", s->hdr.tsc_hz, DP_HIST_SUB_BITS);
	for (int k = 0; k < DP_LAT__COUNT; k++) {
		fputs(k ? "," : "", f);
		hist_json(f, dp_lat_kinds[k].key, &b->lat[k]);
	}
	fputc('}', f);
}

/* The -o summary: the totals of `stats --json` over the whole run, the
 * format and version that wrote it, the configuration, the latency
 * histograms and the run log. */
static void
summary_json(FILE *f, const struct dp_shm *s, const struct dp_snapshot *a, const struct dp_snapshot *b,
	     const struct dp_run_log *r)
{
	stats_fields(f, s, a, b);
	dp_kinds_json(f, s, a, b, 1); /* a client's kinds, totals at the end and their histograms */
	latency_hist_json(f, s, b);
	fprintf(f, ",\"format\":\"dperf-summary\",\"format_version\":%d,\"version\":", DP_SUMMARY_FORMAT);
	json_string(f, dp_version(), 256);
	fprintf(f, ",\"start_unix_us\":%" PRIu64 ",\"workers\":%u,\"ports\":%u,\"config_text\":",
		s->hdr.start_unix_us, s->hdr.n_workers, s->hdr.n_ports);
	json_string(f, s->config_text, sizeof(s->config_text));
	if (r != NULL)
		dp_run_log_json(f, s, r);
	fputs("}\n", f);
}

/* Kind k's counter c: at b, or in the memzone now (b NULL). */
static uint64_t
kind_count(const struct dp_shm *s, const struct dp_snapshot *b, uint32_t k, int c)
{
	return b != NULL ? b->kc[k][c] : dp_shm_kind_sum(s, k, (enum dp_kind_counter)c);
}

/* Kind k's histogram of latency row j over the whole test: b's, or the
 * memzone's now summed over the workers (b NULL; into a static: large). */
static const struct dp_hist *
kind_hist(const struct dp_shm *s, const struct dp_snapshot *b, uint32_t k, int j)
{
	static struct dp_hist h;

	if (b != NULL && k < b->n_kinds)
		return &b->klat[k][j];
	dp_shm_klat_sum(s, k, j, &h);
	return &h;
}

/* A server's objects (figures.h's dp_rows), totals now (snapshots keep
 * none): paths are JSON strings (json_string escapes a path's '"' and
 * '\\'), bounded by their field. */
static void
objects_json(FILE *f, const struct dp_shm *s)
{
	const struct dp_rows_desc *d = &dp_rows[DP_ROWS_OBJECTS];
	uint32_t n = dp_rows_n(s, DP_ROWS_OBJECTS);

	if (n == 0)
		return;
	fprintf(f, ",\"%s\":[", d->key);
	for (uint32_t k = 0; k < n; k++) {
		size_t len;
		const char *name = dp_rows_name(s, DP_ROWS_OBJECTS, k, &len);

		fprintf(f, "%s{\"%s\":", k ? "," : "", d->id);
		json_string(f, name, len);
		for (int c = 0; c < d->n_counters; c++)
			fprintf(f, ",\"%s\":%" PRIu64, d->counters[c], dp_rows_sum(s, DP_ROWS_OBJECTS, k, c));
		fputc('}', f);
	}
	fputc(']', f);
}

static void
objects_text(FILE *f, const struct dp_shm *s)
{
	const struct dp_rows_desc *d = &dp_rows[DP_ROWS_OBJECTS];
	uint32_t n = dp_rows_n(s, DP_ROWS_OBJECTS);

	for (uint32_t k = 0; k < n; k++) {
		size_t len;
		const char *name = dp_rows_name(s, DP_ROWS_OBJECTS, k, &len);

		fprintf(f, "%s %.*s:", d->label, (int)len, name);
		for (int c = 0; c < d->n_counters; c++)
			fprintf(f, " %s %" PRIu64, d->counters[c], dp_rows_sum(s, DP_ROWS_OBJECTS, k, c));
		fputc('\n', f);
	}
}

/* Kind names are letters, digits, '_', '.', '-' (the parse's rule), so
 * they need no escaping; the reader bounds them anyway. */
void
dp_kinds_json(FILE *f, const struct dp_shm *s, const struct dp_snapshot *a, const struct dp_snapshot *b, int hist)
{
	uint32_t n = dp_shm_n_kinds(s);
	uint64_t hz = s->hdr.tsc_hz;

	objects_json(f, s);
	if (b != NULL && b->n_kinds < n)
		n = b->n_kinds;
	if (n == 0)
		return;
	fputs(",\"kinds\":[", f);
	for (uint32_t k = 0; k < n; k++) {
		struct dp_lat l;

		fprintf(f, "%s{\"name\":", k ? "," : "");
		json_string(f, s->kinds.name[k], sizeof(s->kinds.name[k]));
		fprintf(f, ",\"weight\":%u", s->kinds.weight[k]);
		for (int c = 0; c < DP_KC__COUNT; c++)
			fprintf(f, ",\"%s\":%" PRIu64, dp_kind_counter_names[c], kind_count(s, b, k, c));
		if (a != NULL && b != NULL && dp_kinds_between(a, b)) {
			fputs(",\"latency_us\":{", f);
			for (int j = 0; j < DP_KLAT__COUNT; j++) {
				fputs(j ? "," : "", f);
				dp_klat_between(a, b, k, j, hz, &l);
				dp_lat_json(f, dp_lat_kinds[dp_klat_lat[j]].key, &l);
			}
			fputc('}', f);
		}
		fputs(",\"latency_total_us\":{", f);
		for (int j = 0; j < DP_KLAT__COUNT; j++) {
			fputs(j ? "," : "", f);
			dp_lat_from_hist(kind_hist(s, b, k, j), hz, &l);
			dp_lat_json(f, dp_lat_kinds[dp_klat_lat[j]].key, &l);
		}
		fputc('}', f);
		if (hist) { /* in the summary's latency_hist's tsc_hz */
			fputs(",\"latency_hist\":{", f);
			for (int j = 0; j < DP_KLAT__COUNT; j++) {
				fputs(j ? "," : "", f);
				hist_json(f, dp_lat_kinds[dp_klat_lat[j]].key, kind_hist(s, b, k, j));
			}
			fputc('}', f);
		}
		fputc('}', f);
	}
	fputc(']', f);
}

void
dp_kinds_text(FILE *f, const struct dp_shm *s, const struct dp_snapshot *b)
{
	uint32_t n = dp_shm_n_kinds(s);

	objects_text(f, s);
	if (b != NULL && b->n_kinds < n)
		n = b->n_kinds;
	for (uint32_t k = 0; k < n; k++) {
		int shown = 0;

		fprintf(f, "kind %.*s: weight %u", (int)sizeof(s->kinds.name[k]), s->kinds.name[k],
			s->kinds.weight[k]);
		for (int c = 0; c < DP_KC__COUNT; c++)
			fprintf(f, " %s %" PRIu64, dp_kind_counter_names[c], kind_count(s, b, k, c));
		fputc('\n', f);
		for (int j = 0; j < DP_KLAT__COUNT; j++) {
			struct dp_lat l;

			dp_lat_from_hist(kind_hist(s, b, k, j), s->hdr.tsc_hz, &l);
			if (l.count == 0)
				continue;
			if (!shown)
				fprintf(f, "kind %.*s latency:", (int)sizeof(s->kinds.name[k]), s->kinds.name[k]);
			fprintf(f, "%s %s p50 %.1f p99 %.1f us", shown ? " |" : "", dp_lat_kinds[dp_klat_lat[j]].label,
				l.p50, l.p99);
			shown = 1;
		}
		if (shown)
			fputc('\n', f);
	}
}

const char *
dp_change_kind(const struct dp_shm *s, const struct dp_change *ch)
{
	if (ch->what != DP_OP_SET_WEIGHT || ch->kind >= dp_shm_n_kinds(s))
		return NULL;
	return s->kinds.name[ch->kind];
}

void
dp_change_text(FILE *f, const struct dp_shm *s, const struct dp_change *ch)
{
	const char *k = dp_change_kind(s, ch);

	fprintf(f, "%s%s%.*s %" PRId64 " -> %" PRId64, dp_ctl_op_name(ch->what), k ? " " : "",
		k ? (int)sizeof(s->kinds.name[0]) : 0, k ? k : "", ch->old_value, ch->new_value);
}

void
dp_change_json(FILE *f, const struct dp_shm *s, const struct dp_change *ch)
{
	const char *k = dp_change_kind(s, ch);

	fprintf(f, ",\"what\":\"%s\"", dp_ctl_op_name(ch->what));
	if (k != NULL) {
		fputs(",\"kind\":", f);
		json_string(f, k, sizeof(s->kinds.name[0]));
	}
	fprintf(f, ",\"old\":%" PRId64 ",\"new\":%" PRId64, ch->old_value, ch->new_value);
}

static void
stats_json(FILE *f, const struct dp_shm *s, const struct dp_snapshot *a, const struct dp_snapshot *b)
{
	stats_fields(f, s, a, b);
	dp_kinds_json(f, s, a, b, 0);
	fputs("}\n", f);
}

/* One object per line, written with one write: the line is longer than
 * stdio's 4 KiB buffer, and a reader of `stats --json --watch` output
 * (tail -1 of a file) saw half a line when it went out in two. */
static void
one_write(FILE *f, const struct dp_shm *s, const struct dp_snapshot *a, const struct dp_snapshot *b,
	  const struct dp_run_log *r, int summary)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (m == NULL) {
		if (summary)
			summary_json(f, s, a, b, r);
		else
			stats_json(f, s, a, b);
	} else {
		if (summary)
			summary_json(m, s, a, b, r);
		else
			stats_json(m, s, a, b);
		fclose(m);
		fflush(f);
		/* not fwrite: glibc writes whole 4 KiB blocks of a long one
		 * directly and buffers the rest, two writes again */
		if (fileno(f) < 0) /* a memory stream */
			fwrite(buf, 1, len, f);
		else for (size_t off = 0; off < len;) {
			ssize_t n = write(fileno(f), buf + off, len - off);
			if (n <= 0) { /* stdio's own try fails too and sets
					 ferror(f), which the callers check
					 (-o on a full disk is an error) */
				fwrite(buf + off, 1, len - off, f);
				break;
			}
			off += (size_t)n;
		}
		free(buf);
	}
	fflush(f);
}

void
dp_stats_json(FILE *f, const struct dp_shm *s, const struct dp_snapshot *a, const struct dp_snapshot *b)
{
	one_write(f, s, a, b, NULL, 0);
}

void
dp_summary_json(FILE *f, const struct dp_shm *s, const struct dp_snapshot *a, const struct dp_snapshot *b,
		const struct dp_run_log *r)
{
	one_write(f, s, a, b, r, 1);
}


/* The latency columns of the CSV, in this order (server latency is the
 * JSON's only). */
static const int csv_lat[] = { DP_LAT_CONNECT, DP_LAT_RESPONSE, DP_LAT_FIRST_BYTE, DP_LAT_SRTT, DP_LAT_TLS_HS };
#define N_CSV_LAT (sizeof(csv_lat) / sizeof(csv_lat[0]))

/* Per-interval deltas of every counter, headline rates and latency (an
 * empty cell for a kind with no sample in the interval). */
void
dp_stats_csv(FILE *f, const struct dp_shm *s, const struct dp_snapshot *a, const struct dp_snapshot *b,
	     int header)
{
	struct dp_rates h;

	if (header) {
		fprintf(f, "elapsed,state,interval,cps,rps,bps_rx,bps_tx,pps_rx,pps_tx,skCon,target_cps");
		for (int k = 0; k < DP_C__COUNT; k++)
			fprintf(f, ",%s", dp_counter_names[k]);
		for (size_t k = 0; k < N_CSV_LAT; k++)
			fprintf(f, ",%s_p50_us,%s_p99_us", dp_lat_kinds[csv_lat[k]].key, dp_lat_kinds[csv_lat[k]].key);
		for (uint32_t k = 0; k < b->n_kinds; k++) {
			int nl = (int)sizeof(s->kinds.name[k]);
			const char *nm = s->kinds.name[k];

			for (int c = 0; c < DP_KC__COUNT; c++)
				fprintf(f, ",kind_%.*s_%s", nl, nm, dp_kind_counter_names[c]);
			for (int j = 0; j < DP_KLAT__COUNT; j++)
				fprintf(f, ",kind_%.*s_%s_p50_us,kind_%.*s_%s_p99_us", nl, nm,
					dp_lat_kinds[dp_klat_lat[j]].key, nl, nm, dp_lat_kinds[dp_klat_lat[j]].key);
		}
		fputc('\n', f);
	}
	dp_headline(s, a, b, &h);
	fprintf(f, "%.3f,%s,%.3f,%.1f,%.1f,%.0f,%.0f,%.0f,%.0f,%" PRIu64 ",%" PRIu64, dp_elapsed_s(s, b->tsc),
		dp_state_name(s->hdr.state), (double)(b->tsc - a->tsc) / (double)s->hdr.tsc_hz, h.cps, h.rps,
		h.bps_rx, h.bps_tx, h.pps_rx, h.pps_tx, b->sk_cur, (uint64_t)s->ctl.target_cps);
	for (int k = 0; k < DP_C__COUNT; k++)
		fprintf(f, ",%" PRIu64, dp_delta(a->c[k], b->c[k]));
	for (size_t k = 0; k < N_CSV_LAT; k++) {
		struct dp_lat l;

		dp_lat_between(a, b, csv_lat[k], s->hdr.tsc_hz, &l);
		if (l.count)
			fprintf(f, ",%.1f,%.1f", l.p50, l.p99);
		else
			fputs(",,", f);
	}
	for (uint32_t k = 0; k < b->n_kinds; k++) {
		int have = dp_kinds_between(a, b);

		for (int c = 0; c < DP_KC__COUNT; c++)
			if (have)
				fprintf(f, ",%" PRIu64, dp_delta(a->kc[k][c], b->kc[k][c]));
			else
				fputc(',', f);
		for (int j = 0; j < DP_KLAT__COUNT; j++) {
			struct dp_lat l;

			dp_klat_between(a, b, k, j, s->hdr.tsc_hz, &l);
			if (l.count)
				fprintf(f, ",%.1f,%.1f", l.p50, l.p99);
			else
				fputs(",,", f);
		}
	}
	fputc('\n', f);
	fflush(f);
}

/* Five pairs to a line, as dperf prints them. Each column is as wide as
 * its widest name and value among the counters shown, values to the
 * right (dperf's fixed "%-8s %-14lu" let names past eight letters push
 * the rest of their line out of its columns). */
#define COUNTERS_PER_LINE 5

void
dp_counters_text(FILE *f, const struct dp_shm *s, const uint64_t *a, const uint64_t *b)
{
	int shown[DP_C__COUNT], n = 0;
	int name_w[COUNTERS_PER_LINE] = { 0 }, val_w[COUNTERS_PER_LINE] = { 0 };
	char val[DP_C__COUNT][24];

	for (int c = 0; c < DP_C__COUNT; c++) {
		if (DP_C_IS_TLS(c) && !(s->hdr.features & DP_FEAT_TLS) && b[c] == 0)
			continue;
		snprintf(val[n], sizeof(val[n]), "%" PRIu64, a ? dp_delta(a[c], b[c]) : b[c]);
		shown[n++] = c;
	}
	for (int i = 0; i < n; i++) {
		int col = i % COUNTERS_PER_LINE, nw = (int)strlen(dp_counter_names[shown[i]]);
		int vw = (int)strlen(val[i]);

		name_w[col] = nw > name_w[col] ? nw : name_w[col];
		val_w[col] = vw > val_w[col] ? vw : val_w[col];
	}
	for (int i = 0; i < n; i++) {
		int col = i % COUNTERS_PER_LINE, last = col == COUNTERS_PER_LINE - 1 || i == n - 1;

		fprintf(f, "%-*s %*s%s", name_w[col], dp_counter_names[shown[i]], val_w[col], val[i],
			last ? "\n" : "   ");
	}
}
