/* SPDX-License-Identifier: BSD-3-Clause
 * The config file's lines: each keyword's row (config_table.c) parses its
 * value by kind (or by its handler), then config_check.c applies the rules
 * that need every line. Defaults come from the rows too.
 *
 * Our extensions to dperf's ranges: "slow_start 0" disables slow start and
 * "wait 0" skips the wait; dperf requires slow_start 10..600 and wait >= 1.
 * Warnings (deprecated keywords, keywords without effect here) go to
 * cfg->warnings in the same form, for the primary to print.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "config_err.h"
#include "config_int.h"

#define LINE_MAX_LEN 1024

#define NUMBER_EXPECTED "expected a number like 100, 2k, 1.5m"
#define TIME_EXPECTED "expected a time like 100s, 3.5m, 2h, 10ms, 100us"

/* ---- argument helpers ---- */

int
arg_num(struct pctx *p, const char *what, const char *s, uint64_t min, uint64_t max,
	uint64_t *out)
{
	uint64_t v = 0;

	if (dp_parse_number(s, &v) < 0)
		return kw_err(p, "bad number \"%s\" (" NUMBER_EXPECTED ")", s);
	if (v < min || v > max)
		return kw_err(p, "%s%s%s out of range (expected %llu..%llu)", what, *what ? " " : "",
			      s, (unsigned long long)min, (unsigned long long)max);
	*out = v;
	return 0;
}

int
arg_u32(struct pctx *p, const char *what, const char *s, uint64_t min, uint64_t max,
	uint32_t *out)
{
	uint64_t v = 0;

	if (arg_num(p, what, s, min, max, &v) < 0)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

int
arg_ip(struct pctx *p, const char *what, const char *s, struct dp_ip *ip)
{
	if (dp_parse_ip(s, ip) < 0)
		return kw_err(p, "bad %s address \"%s\" (expected an IPv4 or IPv6 address)", what,
			      s);
	return 0;
}

int
parse_mac(const char *s, uint8_t mac[6])
{
	for (int i = 0; i < 6; i++) {
		if (!isxdigit((unsigned char)s[0]) || !isxdigit((unsigned char)s[1]))
			return -1;
		if (s[2] != (i == 5 ? '\0' : ':'))
			return -1;
		char hex[3] = { s[0], s[1], '\0' };
		mac[i] = (uint8_t)strtoul(hex, NULL, 16);
		s += 3;
	}
	return 0;
}

uint32_t
last_byte(const struct dp_ip *ip)
{
	return ip->family == 4 ? (ntohl(ip->v4) & 0xff) : ip->v6[15];
}

/* 1 when two ranges share an address (the last byte varies in each). */
int
ranges_overlap(const struct dp_range *a, const struct dp_range *b)
{
	uint32_t la = last_byte(&a->start), lb = last_byte(&b->start);

	if (a->start.family != b->start.family)
		return 0;
	if (a->start.family == 4 ? (ntohl(a->start.v4) >> 8) != (ntohl(b->start.v4) >> 8)
				 : memcmp(a->start.v6, b->start.v6, 15) != 0)
		return 0;
	return la < lb + b->num && lb < la + a->num;
}

/* ---- the kinds ---- */

const char *
fmt_span(uint64_t us, char *buf, size_t len)
{
	if (us == 0)
		snprintf(buf, len, "0");
	else if (us % (86400 * US_PER_SEC) == 0)
		snprintf(buf, len, "%llud", (unsigned long long)(us / 86400 / US_PER_SEC));
	else if (us % (3600 * US_PER_SEC) == 0)
		snprintf(buf, len, "%lluh", (unsigned long long)(us / 3600 / US_PER_SEC));
	else if (us % US_PER_SEC == 0)
		snprintf(buf, len, "%llus", (unsigned long long)(us / US_PER_SEC));
	else if (us % 1000 == 0)
		snprintf(buf, len, "%llums", (unsigned long long)(us / 1000));
	else
		snprintf(buf, len, "%lluus", (unsigned long long)us);
	return buf;
}

const char *
kw_range(const struct keyword *kw, char *buf, size_t len)
{
	char a[32], b[32];

	switch (kw->kind) {
	case K_TIME:
		snprintf(buf, len, "%s..%s", fmt_span(kw->min, a, sizeof(a)),
			 fmt_span(kw->max, b, sizeof(b)));
		break;
	case K_SECS:
		snprintf(buf, len, "%llu..%llu seconds%s", (unsigned long long)kw->min,
			 (unsigned long long)kw->max, kw->zero_ok ? ", or 0 to disable" : "");
		break;
	default:
		snprintf(buf, len, "%llu..%llu", (unsigned long long)kw->min,
			 (unsigned long long)kw->max);
	}
	return buf;
}

static void
kw_put(struct dp_config *cfg, const struct keyword *kw, uint64_t v)
{
	void *f = (uint8_t *)cfg + kw->off;

	if (kw->size == 8)
		memcpy(f, &v, 8);
	else if (kw->size == 4)
		*(uint32_t *)f = (uint32_t)v;
	else
		*(uint8_t *)f = (uint8_t)v;
}

uint64_t
kw_get(const struct dp_config *cfg, const struct keyword *kw)
{
	const void *f = (const uint8_t *)cfg + kw->off;
	uint64_t v;

	if (kw->size == 8)
		memcpy(&v, f, 8);
	else if (kw->size == 4)
		v = *(const uint32_t *)f;
	else
		v = *(const uint8_t *)f;
	return v;
}

/* K_ENUM: the index of s among the syntax's words "a|b|c", or -1; the
 * words as a message lists them ("a, b or c") into list. */
static int
enum_index(const struct keyword *kw, const char *s, char *list, size_t len)
{
	const char *w = kw->syntax;
	size_t pos = 0, n = strlen(s);
	int found = -1;

	for (int i = 0; *w != '\0'; i++) {
		size_t wl = strcspn(w, "|");
		int last = w[wl] == '\0';

		if (wl == n && (kw->nocase ? strncasecmp(w, s, n) : strncmp(w, s, n)) == 0)
			found = i;
		if (pos < len)
			pos += (size_t)snprintf(list + pos, len - pos, "%s%.*s",
						i == 0 ? "" : last ? " or " : ", ", (int)wl, w);
		w += wl + !last;
	}
	return found;
}

static int
printable(const char *s)
{
	for (; *s; s++)
		if (!isgraph((unsigned char)*s))
			return 0;
	return 1;
}

static int
kw_store_text(struct pctx *p, const struct keyword *kw, const char *s)
{
	const char *noun = kw->noun ? kw->noun : "value";
	char words[128];
	int i;

	if (kw->kind == K_ENUM) {
		if ((i = enum_index(kw, s, words, sizeof(words))) < 0)
			return kw_err(p, "bad %s \"%s\" (expected %s)", noun, s, words);
		kw_put(p->cfg, kw, kw->min + (uint64_t)i);
		return 0;
	}
	if (strlen(s) >= kw->size || !printable(s) || (kw->slash && s[0] != '/'))
		return kw_err(p, "bad %s \"%s\" (expected %s at most %u characters)", noun, s,
			      kw->slash ? "a path starting with '/'," : "printable text of",
			      kw->size - 1u);
	memcpy((char *)p->cfg + kw->off, s, strlen(s) + 1);
	return 0;
}

/* Messages name the line's keyword (p->kw), which for "keepalive
 * INTERVAL NUM" is not kw. */
int
kw_store(struct pctx *p, const struct keyword *kw, const char *s)
{
	char range[64];
	uint64_t v = 0, us = 0;

	switch (kw->kind) {
	case K_FLAG:
		v = 1;
		break;
	case K_ENUM:
	case K_STR:
		return kw_store_text(p, kw, s);
	case K_NUM:
		if (dp_parse_number(s, &v) < 0)
			return kw_err(p, "bad number \"%s\" (" NUMBER_EXPECTED ")", s);
		break;
	case K_TIME:
		if (dp_parse_duration_us(s, &v) < 0)
			return kw_err(p, "bad time \"%s\" (" TIME_EXPECTED ")", s);
		break;
	case K_SECS: /* a plain number or a time, to the nearest second */
		if (dp_parse_duration_us(s, &us) < 0)
			return kw_err(p, "bad time \"%s\" (expected seconds like 30, or a time like 1m)", s);
		v = us / US_PER_SEC + (us % US_PER_SEC >= US_PER_SEC / 2); /* never wraps */
		break;
	default:
		return kw_err(p, "internal: %s has no value kind", kw->name);
	}
	if (kw->kind != K_FLAG && !(kw->kind == K_SECS && kw->zero_ok && us == 0) &&
	    (v < kw->min || v > kw->max))
		return kw_err(p, "%s out of range (expected %s)", s, kw_range(kw, range, sizeof(range)));
	kw_put(p->cfg, kw, v);
	return 0;
}

const struct keyword *
find_keyword(const char *name)
{
	for (size_t i = 0; i < dp_n_keywords; i++)
		if (strcmp(dp_keywords[i].name, name) == 0)
			return &dp_keywords[i];
	return NULL;
}

uint32_t
line_of(const struct pctx *p, const char *name)
{
	const struct keyword *kw = find_keyword(name);

	return kw ? p->kw_line[kw - dp_keywords] : 0;
}

/* ---- lines ---- */

static int
tokenize(char *line, char **tok, int max)
{
	static const char seps[] = " \t\r\n\v\f";
	int n = 0;
	char *hash = strchr(line, '#'), *save = NULL;

	if (hash != NULL)
		*hash = '\0';
	for (char *s = strtok_r(line, seps, &save); s != NULL; s = strtok_r(NULL, seps, &save)) {
		if (n == max)
			return max + 1;
		tok[n++] = s;
	}
	return n;
}

/* One keyword's arguments, by its handler or its kind. */
static int
kw_apply(struct pctx *p, const struct keyword *kw, int argc, char **argv)
{
	p->kw = kw;
	if (kw->fn != NULL)
		return kw->fn(p, argc, argv);
	return kw_store(p, kw, argc ? argv[0] : NULL);
}

static int
parse_tokens(struct pctx *p, int n, char **tok)
{
	const struct keyword *kw = find_keyword(tok[0]);
	int argc = n - 1;
	size_t k;

	for (size_t i = 0; kw == NULL && i < dp_n_refused; i++)
		if (strcmp(tok[0], dp_refused[i].name) == 0)
			return err_at(p, p->line, tok[0], "%s", dp_refused[i].why);
	if (kw == NULL)
		return err_at(p, p->line, tok[0], "unknown keyword");
	p->kw = kw;
	k = (size_t)(kw - dp_keywords);
	if (argc < kw->min_args || argc > kw->max_args)
		return kw_err(p, "wrong number of arguments (expected \"%s%s%s\")", kw->name,
			      kw->syntax[0] ? " " : "", kw->syntax);
	if (!kw->multi && p->kw_line[k] != 0)
		return kw_err(p, "given twice, first on line %u (expected one \"%s\" line)",
			      p->kw_line[k], kw->name);
	if (p->kw_line[k] == 0)
		p->kw_line[k] = p->line;
	return kw_apply(p, kw, argc, tok + 1);
}

int
parse_line(struct pctx *p, const char *start, size_t len)
{
	char buf[LINE_MAX_LEN];
	char *tok[CFG_MAX_TOKENS + 1];
	int n;

	if (len >= sizeof(buf))
		return err_at(p, p->line, "line", "too long (expected at most %d characters)",
			      LINE_MAX_LEN - 1);
	memcpy(buf, start, len);
	buf[len] = '\0';
	n = tokenize(buf, tok, CFG_MAX_TOKENS);
	if (n == 0)
		return 0;
	if (n > CFG_MAX_TOKENS)
		return err_at(p, p->line, tok[0], "too many arguments (expected at most %d)",
			      CFG_MAX_TOKENS - 1);
	return parse_tokens(p, n, tok);
}

/* ---- API ---- */

/* Each row's default, written as a file would write it, parsed as the
 * file's line would be (a value by its kind, even when its row has a
 * handler: keepalive_request_interval's turns keepalive on). A default
 * that does not parse is the table's bug: test_config's test_defaults
 * and every parse would show it. */
void
dp_config_defaults(struct dp_config *cfg)
{
	char err[DP_ERR_LEN];
	struct pctx p = { .name = "defaults", .cfg = cfg, .err = err, .errlen = sizeof(err) };

	memset(cfg, 0, sizeof(*cfg));
	for (size_t i = 0; i < dp_n_keywords; i++) {
		const struct keyword *kw = &dp_keywords[i];
		char buf[64], *tok[CFG_MAX_TOKENS + 1];
		int n, rc;

		if (kw->def == NULL)
			continue;
		snprintf(buf, sizeof(buf), "%s", kw->def);
		n = tokenize(buf, tok, CFG_MAX_TOKENS);
		p.kw = kw;
		rc = kw->kind == K_FN ? kw->fn(&p, n, tok) : kw_store(&p, kw, n ? tok[0] : NULL);
		if (rc != 0) {
			fprintf(stderr, "dperf: internal: %s\n", err);
			abort();
		}
	}
}

uint32_t
dp_config_line(const struct dp_config *cfg, const char *keyword)
{
	const struct keyword *kw = find_keyword(keyword);

	return kw ? cfg->kw_line[kw - dp_keywords] : 0;
}

uint64_t
dp_config_tuple_space(const struct dp_config *cfg)
{
	if (cfg->n_clients == 0)
		return 0;
	return (uint64_t)cfg->clients[0].num * (cfg->lport_max - cfg->lport_min + 1)
	       * cfg->listen_num;
}

uint32_t
dp_config_lead_s(const struct dp_config *cfg)
{
	return cfg->mode == DP_MODE_CLIENT ? cfg->wait + cfg->slow_start : 0;
}
