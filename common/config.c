/* SPDX-License-Identifier: BSD-3-Clause
 * The config file: dperf's keywords, one per line.
 *
 *   keyword table -> one handler per keyword (range checks of its own values)
 *   validate()    -> cross-field rules once every line is read
 *   dump()        -> the effective configuration, parseable again
 *
 * Every error is one line: "FILE:LINE: keyword: what is wrong (expected ...)",
 * or "FILE: keyword: ..." when no line applies (a missing keyword).
 *
 * Our extensions to dperf's ranges: "slow_start 0" disables slow start and
 * "wait 0" skips the wait; dperf requires slow_start 10..600 and wait >= 1.
 * Warnings (deprecated keywords, keywords without effect here) go to
 * cfg->warnings in the same form, for the primary to print.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <ctype.h>
#include <arpa/inet.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "escape.h"

#define LINE_MAX_LEN 1024
#define MAX_TOKENS 40
#define MAX_KEYWORDS DP_CFG_MAX_KEYWORDS
#define MAX_CPU_ID 1023
#define MSS_STD 1460
#define MSS_JUMBO 9000
#define US_PER_SEC 1000000ULL

#define NUMBER_EXPECTED "expected a number like 100, 2k, 1.5m"
#define TIME_EXPECTED "expected a time like 100s, 3.5m, 2h, 10ms, 100us"

struct pctx;
typedef int (*kw_fn)(struct pctx *p, int argc, char **argv);

/* What a keyword's value is. Value kinds are parsed, range-checked,
 * defaulted, described (dperf -k) and dumped by the table alone; K_FN
 * keywords have a handler, which may still use its row's value kind
 * (kw_store) for the part that is a plain value. */
enum kw_kind {
	K_FN,    /* the handler does everything */
	K_FLAG,  /* no argument: sets a uint8_t to 1 */
	K_NUM,   /* dperf's numbers (100, 2k, 1.5m) into a uint32_t or uint64_t */
	K_TIME,  /* times (100s, 10ms, 3.5m, 100us) in microseconds, a uint64_t */
	K_SECS,  /* whole seconds, given as a number or a time, into a uint32_t */
};

/* When dperf-live's dump of the configuration writes a value keyword. */
enum kw_dump { D_ALWAYS, D_NONZERO, D_CUSTOM /* a dump_* function writes it */ };

struct keyword {
	const char *name;
	kw_fn fn;           /* NULL: kw_value (value kinds) or the flag */
	uint8_t kind;       /* enum kw_kind */
	uint8_t dump;       /* enum kw_dump, value kinds */
	uint8_t min_args;
	uint8_t max_args;
	uint8_t multi;      /* may be given on several lines */
	uint8_t zero_ok;    /* K_SECS: 0 allowed below min ("0 to disable") */
	uint8_t size;       /* the field's bytes (value kinds, flags) */
	size_t off;         /* the dp_config field (value kinds, flags) */
	uint64_t min, max;  /* value kinds: the range (us for times, s for K_SECS) */
	uint64_t def;       /* value kinds: the default */
	const char *syntax; /* the arguments, shown in "(expected ...)" */
	const char *help;   /* dperf -k; for value kinds the range and default follow */
	const char *def_text; /* value kinds: the default in words, when not def */
};

struct pctx {
	const char *name;
	uint32_t line;
	const struct keyword *kw;
	struct dp_config *cfg;
	char *err;
	size_t errlen;
	uint32_t kw_line[MAX_KEYWORDS]; /* first line each keyword was given on */
	uint32_t packet_size;           /* dperf's deprecated size: turned into payload_size */
};

/* ---- errors ---- */

static int __attribute__((format(printf, 4, 5)))
err_at(struct pctx *p, uint32_t line, const char *kw, const char *fmt, ...)
{
	char msg[DP_ERR_LEN], all[2 * DP_ERR_LEN];
	va_list ap;

	if (p->err == NULL || p->errlen == 0)
		return -1;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (line != 0)
		snprintf(all, sizeof(all), "%s:%u: %s: %s", p->name, line, kw, msg);
	else
		snprintf(all, sizeof(all), "%s: %s: %s", p->name, kw, msg);
	dp_escape(p->err, p->errlen, all); /* the values quoted come from the file */
	return -1;
}

/* An error on the current line, about the current keyword. */
#define kw_err(p, ...) err_at((p), (p)->line, (p)->kw->name, __VA_ARGS__)

/* A warning: appended to cfg->warnings, one line each (a warning that
 * does not fit is cut, never the ones before it). */
static void __attribute__((format(printf, 4, 5)))
warn_at(struct pctx *p, uint32_t line, const char *kw, const char *fmt, ...)
{
	char *w = p->cfg->warnings;
	size_t used = strlen(w), room = sizeof(p->cfg->warnings) - used;
	char msg[DP_ERR_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (room > 1)
		snprintf(w + used, room, "%s:%u: %s: %s\n", p->name, line, kw, msg);
}

/* A warning on the current line, about the current keyword. */
#define kw_warn(p, ...) warn_at((p), (p)->line, (p)->kw->name, __VA_ARGS__)

/* ---- argument helpers ---- */

static int
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

static int
arg_u32(struct pctx *p, const char *what, const char *s, uint64_t min, uint64_t max,
	uint32_t *out)
{
	uint64_t v = 0;

	if (arg_num(p, what, s, min, max, &v) < 0)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

static int
arg_ip(struct pctx *p, const char *what, const char *s, struct dp_ip *ip)
{
	if (dp_parse_ip(s, ip) < 0)
		return kw_err(p, "bad %s address \"%s\" (expected an IPv4 or IPv6 address)", what,
			      s);
	return 0;
}

/* ---- value keywords: the table's kinds ---- */

static const struct keyword *find_keyword(const char *name);

/* A time as the parser reads it back: whole hours, seconds, ms or us (ranges, defaults, the dump). */
static const char *
fmt_span(uint64_t us, char *buf, size_t len)
{
	if (us == 0)
		snprintf(buf, len, "0");
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

/* A value keyword's range as its messages and dperf -k say it. */
static const char *
kw_range(const struct keyword *kw, char *buf, size_t len)
{
	char a[32], b[32];

	switch (kw->kind) {
	case K_TIME:
		if (kw->max == UINT64_MAX)
			snprintf(buf, len, "a time > %s", fmt_span(kw->min - 1, a, sizeof(a)));
		else
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

static uint64_t
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

/* Parse s as kw's kind, check it against kw's range, store it in kw's
 * field. Messages name the line's keyword (p->kw), which for "keepalive
 * INTERVAL NUM" is not kw. */
static int
kw_store(struct pctx *p, const struct keyword *kw, const char *s)
{
	char range[64];
	uint64_t v = 0, us = 0;

	switch (kw->kind) {
	case K_FLAG:
		v = 1;
		break;
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
		v = (us + US_PER_SEC / 2) / US_PER_SEC;
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

static int
kw_value(struct pctx *p, int argc, char **argv)
{
	return kw_store(p, p->kw, argc ? argv[0] : NULL);
}

/* ---- keyword handlers ---- */

static int
h_mode(struct pctx *p, int argc, char **argv)
{
	(void)argc;
	if (strcmp(argv[0], "client") == 0)
		p->cfg->mode = DP_MODE_CLIENT;
	else if (strcmp(argv[0], "server") == 0)
		p->cfg->mode = DP_MODE_SERVER;
	else
		return kw_err(p, "bad mode \"%s\" (expected client or server)", argv[0]);
	return 0;
}

static int
cpu_add(struct pctx *p, unsigned long id)
{
	struct dp_config *cfg = p->cfg;

	for (uint32_t i = 0; i < cfg->n_cpus; i++)
		if (cfg->cpus[i] == id)
			return kw_err(p, "core %lu listed twice (expected each core once)", id);
	if (cfg->n_cpus >= DP_MAX_CPUS)
		return kw_err(p, "too many cores (expected at most %d)", DP_MAX_CPUS);
	cfg->cpus[cfg->n_cpus++] = (uint16_t)id;
	return 0;
}

static int
parse_cpu_id(const char *s, char **end, unsigned long *id)
{
	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	*id = strtoul(s, end, 10);
	return (errno != 0 || *id > MAX_CPU_ID) ? -1 : 0;
}

static int
h_cpu(struct pctx *p, int argc, char **argv)
{
	p->cfg->cpu_line = p->line;
	for (int i = 0; i < argc; i++) {
		unsigned long lo, hi;
		char *end;

		if (parse_cpu_id(argv[i], &end, &lo) < 0)
			goto bad;
		hi = lo;
		if (*end == '-' && parse_cpu_id(end + 1, &end, &hi) < 0)
			goto bad;
		if (*end != '\0' || hi < lo)
			goto bad;
		for (unsigned long c = lo; c <= hi; c++)
			if (cpu_add(p, c) < 0)
				return -1;
		continue;
bad:
		return kw_err(p, "bad core \"%s\" (expected core numbers 0..%d like \"0 1\" or "
			      "ranges like \"2-5\")", argv[i], MAX_CPU_ID);
	}
	return 0;
}

static int
h_socket_mem(struct pctx *p, int argc, char **argv)
{
	const char *s = argv[0];
	size_t n = strlen(s);

	(void)argc;
	if (n >= sizeof(p->cfg->socket_mem) || strspn(s, "0123456789,") != n || s[0] == ','
	    || s[n - 1] == ',')
		return kw_err(p, "bad value \"%s\" (expected megabytes per NUMA node like 1024,1024)",
			      s);
	memcpy(p->cfg->socket_mem, s, n + 1);
	p->cfg->socket_mem_line = p->line;
	return 0;
}

static int
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

/* The ethdev names a port's device gives EAL: its own, or its members'. */
static uint32_t
dev_names(const struct dp_port_cfg *pc, char names[][DP_DEV_LEN])
{
	if (!pc->is_bond) {
		dp_dev_name(pc->dev, strlen(pc->dev), names[0], DP_DEV_LEN);
		return 1;
	}
	for (uint32_t i = 0; i < pc->n_members; i++)
		dp_dev_name(pc->dev + pc->member_off[i], pc->member_len[i], names[i], DP_DEV_LEN);
	return pc->n_members;
}

static int
port_dev(struct pctx *p, const char *dev, struct dp_port_cfg *pc)
{
	char mine[DP_BOND_MAX_MEMBERS][DP_DEV_LEN], theirs[DP_BOND_MAX_MEMBERS][DP_DEV_LEN];
	char why[DP_ERR_LEN];
	uint32_t n_mine, n_theirs;

	if (strncmp(dev, "bond", 4) == 0) {
		if (dp_bond_parse(dev, pc, why, sizeof(why)) < 0)
			return kw_err(p, "%s", why);
	} else if (strncmp(dev, "net_bonding", 11) == 0) {
		return kw_err(p, "a net_bonding vdev cannot be given directly (expected dperf's "
			      "bondMODE:POLICY(DEV0,DEV1,...), which creates it with its members)");
	} else {
		if (strncmp(dev, "net_", 4) == 0 && strlen(dev) > 4)
			pc->is_vdev = 1;
		else if (!dp_is_pci_addr(dev, strlen(dev)))
			return kw_err(p, "bad device \"%s\" (expected a PCI address like 0000:01:00.0, "
				      "a vdev like net_memif0,role=server, or a bond like "
				      "bond0:2(DEV0,DEV1))", dev);
		if (strlen(dev) >= sizeof(pc->dev))
			return kw_err(p, "device too long (expected at most %d characters)",
				      DP_DEV_LEN - 1);
		strcpy(pc->dev, dev);
	}
	/* A device serves one port: EAL would create it once, for the first. */
	n_mine = dev_names(pc, mine);
	for (uint32_t i = 0; i < p->cfg->n_ports; i++) {
		n_theirs = dev_names(&p->cfg->ports[i], theirs);
		for (uint32_t a = 0; a < n_mine; a++)
			for (uint32_t b = 0; b < n_theirs; b++)
				if (strcmp(mine[a], theirs[b]) == 0)
					return kw_err(p, "device \"%s\" already used on line %u "
						      "(expected each device once)", mine[a],
						      p->cfg->ports[i].line);
	}
	return 0;
}

static int
h_port(struct pctx *p, int argc, char **argv)
{
	struct dp_port_cfg pc;

	memset(&pc, 0, sizeof(pc));
	if (p->cfg->n_ports >= DP_MAX_PORTS)
		return kw_err(p, "too many ports (expected at most %d \"port\" lines)", DP_MAX_PORTS);
	if (port_dev(p, argv[0], &pc) < 0 || arg_ip(p, "local", argv[1], &pc.local) < 0
	    || arg_ip(p, "gateway", argv[2], &pc.gw) < 0)
		return -1;
	if (pc.local.family != pc.gw.family)
		return kw_err(p, "local %s and gateway %s are of different address families "
			      "(expected both IPv4 or both IPv6)", argv[1], argv[2]);
	if (argc == 4) {
		if (parse_mac(argv[3], pc.gw_mac) < 0)
			return kw_err(p, "bad MAC \"%s\" (expected a MAC like aa:bb:cc:dd:ee:ff)",
				      argv[3]);
		pc.has_gw_mac = 1;
	}
	pc.line = p->line;
	p->cfg->ports[p->cfg->n_ports++] = pc;
	return 0;
}

static uint32_t
last_byte(const struct dp_ip *ip)
{
	return ip->family == 4 ? (ntohl(ip->v4) & 0xff) : ip->v6[15];
}

static int
parse_range(struct pctx *p, char **argv, struct dp_range *r, uint32_t n, uint32_t max)
{
	char buf[64];

	if (n >= max)
		return kw_err(p, "too many ranges (expected at most %u \"%s\" lines)", max,
			      p->kw->name);
	memset(r, 0, sizeof(*r));
	if (arg_ip(p, p->kw->name, argv[0], &r->start) < 0
	    || arg_u32(p, "count", argv[1], 1, 254, &r->num) < 0)
		return -1;
	if (last_byte(&r->start) + r->num - 1 > 255) {
		struct dp_ip end = dp_range_addr(r, r->num - 1);
		return kw_err(p, "%s + %u addresses ends at %s (expected the range to vary the "
			      "last byte only, up to .255)", argv[0], r->num,
			      dp_ip_str(&end, buf, sizeof(buf)));
	}
	r->line = p->line;
	return 0;
}

static int
h_client(struct pctx *p, int argc, char **argv)
{
	struct dp_config *cfg = p->cfg;

	(void)argc;
	if (parse_range(p, argv, &cfg->clients[cfg->n_clients], cfg->n_clients,
			DP_MAX_CLIENT_RANGES) < 0)
		return -1;
	cfg->n_clients++;
	return 0;
}

static int
h_server(struct pctx *p, int argc, char **argv)
{
	struct dp_config *cfg = p->cfg;

	(void)argc;
	if (parse_range(p, argv, &cfg->servers[cfg->n_servers], cfg->n_servers, DP_MAX_PORTS) < 0)
		return -1;
	cfg->n_servers++;
	return 0;
}

static int
h_listen(struct pctx *p, int argc, char **argv)
{
	uint64_t port = 0, num = 1;

	if (arg_num(p, "port", argv[0], 1, 65535, &port) < 0)
		return -1;
	if (argc == 2 && arg_num(p, "count", argv[1], 1, 65535, &num) < 0)
		return -1;
	if (port + num - 1 > 65535)
		return kw_err(p, "ports %llu + %llu pass 65535 (expected port + count - 1 <= 65535)",
			      (unsigned long long)port, (unsigned long long)num);
	p->cfg->listen_port = (uint16_t)port;
	p->cfg->listen_num = (uint16_t)num;
	return 0;
}

/* dperf's older spelling of "keepalive INTERVAL": it turns keepalive on
 * (dperf's test/performance/cc files give cc with this line only).
 * 0 is dperf's "next request as soon as the response is in". */
static int
h_keepalive_interval(struct pctx *p, int argc, char **argv)
{
	(void)argc;
	p->cfg->keepalive = 1;
	return kw_store(p, p->kw, argv[0]);
}

/* "keepalive", or dperf's older "keepalive INTERVAL [NUM]". */
static int
h_keepalive(struct pctx *p, int argc, char **argv)
{
	p->cfg->keepalive = 1;
	if (argc >= 1 && kw_store(p, find_keyword("keepalive_request_interval"), argv[0]) < 0)
		return -1;
	if (argc == 2 && kw_store(p, find_keyword("keepalive_request_num"), argv[1]) < 0)
		return -1;
	return 0;
}

static int
h_protocol(struct pctx *p, int argc, char **argv)
{
	(void)argc;
	if (strcmp(argv[0], "tcp") == 0)
		p->cfg->protocol = DP_PROTO_TCP;
	else if (strcmp(argv[0], "http") == 0)
		p->cfg->protocol = DP_PROTO_HTTP;
	else if (strcmp(argv[0], "udp") == 0)
		p->cfg->protocol = DP_PROTO_UDP;
	else
		return kw_err(p, "bad protocol \"%s\" (expected tcp, http or udp)", argv[0]);
	return 0;
}

static int
h_tos(struct pctx *p, int argc, char **argv)
{
	const char *s = argv[0];
	uint64_t v = 0;

	(void)argc;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		size_t n = strlen(s + 2);
		if (n == 0 || n > 2 || strspn(s + 2, "0123456789abcdefABCDEF") != n)
			return kw_err(p, "bad value \"%s\" (expected 0x00..0xff or 0..255)", s);
		v = strtoul(s + 2, NULL, 16);
	} else if (dp_parse_number(s, &v) < 0 || v > 255) {
		return kw_err(p, "bad value \"%s\" (expected 0x00..0xff or 0..255)", s);
	}
	p->cfg->tos = (uint8_t)v;
	return 0;
}

static int
h_tcp_rst(struct pctx *p, int argc, char **argv)
{
	(void)argc;
	if (strcmp(argv[0], "0") != 0 && strcmp(argv[0], "1") != 0)
		return kw_err(p, "bad value \"%s\" (expected 0 or 1)", argv[0]);
	p->cfg->tcp_rst = (uint8_t)(argv[0][0] - '0');
	return 0;
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
h_http_host(struct pctx *p, int argc, char **argv)
{
	(void)argc;
	if (strlen(argv[0]) >= sizeof(p->cfg->http_host) || !printable(argv[0]))
		return kw_err(p, "bad host \"%s\" (expected printable text of at most %zu "
			      "characters)", argv[0], sizeof(p->cfg->http_host) - 1);
	strcpy(p->cfg->http_host, argv[0]);
	return 0;
}

static int
h_http_path(struct pctx *p, int argc, char **argv)
{
	(void)argc;
	if (argv[0][0] != '/' || strlen(argv[0]) >= sizeof(p->cfg->http_path)
	    || !printable(argv[0]))
		return kw_err(p, "bad path \"%s\" (expected a path starting with '/', at most %zu "
			      "characters)", argv[0], sizeof(p->cfg->http_path) - 1);
	strcpy(p->cfg->http_path, argv[0]);
	return 0;
}

static int
h_http_method(struct pctx *p, int argc, char **argv)
{
	(void)argc;
	if (strcasecmp(argv[0], "GET") == 0)
		p->cfg->http_method = DP_HTTP_GET;
	else if (strcasecmp(argv[0], "POST") == 0)
		p->cfg->http_method = DP_HTTP_POST;
	else
		return kw_err(p, "bad method \"%s\" (expected GET or POST)", argv[0]);
	return 0;
}

static uint32_t line_of(const struct pctx *p, const char *name);

/* "client_port_range MIN [MAX]" (MAX defaults to 65535), and dperf's
 * deprecated spelling "lport_range", with dperf's warning. */
static int
h_client_port_range(struct pctx *p, int argc, char **argv)
{
	int old = strcmp(p->kw->name, "lport_range") == 0;
	const char *other = old ? "client_port_range" : "lport_range";

	if (line_of(p, other) != 0)
		return kw_err(p, "given twice, first as \"%s\" on line %u (expected one client "
			      "port range)", other, line_of(p, other));
	if (old)
		kw_warn(p, "deprecated, use \"client_port_range\"");
	p->cfg->lport_max = 65535;
	if (arg_u32(p, "min", argv[0], 1, 65535, &p->cfg->lport_min) < 0
	    || (argc == 2 && arg_u32(p, "max", argv[1], 1, 65535, &p->cfg->lport_max) < 0))
		return -1;
	if (p->cfg->lport_min > p->cfg->lport_max)
		return kw_err(p, "min %u above max %u (expected MIN <= MAX)", p->cfg->lport_min,
			      p->cfg->lport_max);
	return 0;
}

/* ---- dperf 1.9 keywords beyond the common core ---- */

/* "change_dip IP STEP NUM": a flooding client sends to NUM destinations,
 * IP + k * STEP (the address's last 32 bits count). */
static int
h_change_dip(struct pctx *p, int argc, char **argv)
{
	struct dp_config *cfg = p->cfg;
	uint32_t low;
	uint64_t last;

	(void)argc;
	if (arg_ip(p, "destination", argv[0], &cfg->change_dip) < 0
	    || arg_u32(p, "step", argv[1], 1, 65535, &cfg->change_dip_step) < 0
	    || arg_u32(p, "count", argv[2], 1, 65535, &cfg->change_dip_num) < 0)
		return -1;
	if (cfg->change_dip.family == 4)
		low = cfg->change_dip.v4;
	else
		memcpy(&low, cfg->change_dip.v6 + 12, 4);
	last = (uint64_t)ntohl(low) + (uint64_t)cfg->change_dip_step * (cfg->change_dip_num - 1);
	if (last > UINT32_MAX)
		return kw_err(p, "%s + %u x %u passes the end of the address space (expected a "
			      "smaller step or count)", argv[0], cfg->change_dip_step,
			      cfg->change_dip_num - 1);
	return 0;
}

/* dperf's "vxlan VNI INNER_SMAC INNER_DMAC VTEP_LOCAL NUM VTEP_REMOTE NUM",
 * one per port in port order; the counts are checked against the cores in
 * v_vxlan(). dperf takes IPv4 VTEPs only; here they may be IPv6 too. */
static int
h_vxlan(struct pctx *p, int argc, char **argv)
{
	struct dp_config *cfg = p->cfg;
	struct dp_vxlan vx;

	(void)argc;
	memset(&vx, 0, sizeof(vx));
	if (cfg->n_vxlans >= DP_MAX_PORTS)
		return kw_err(p, "too many lines (expected at most %d, one per \"port\" line)",
			      DP_MAX_PORTS);
	if (arg_u32(p, "VNI", argv[0], 1, DP_VXLAN_VNI_MAX, &vx.vni) < 0)
		return -1;
	if (parse_mac(argv[1], vx.inner_smac) < 0 || parse_mac(argv[2], vx.inner_dmac) < 0)
		return kw_err(p, "bad inner MAC \"%s\" (expected a MAC like aa:bb:cc:dd:ee:ff)",
			      parse_mac(argv[1], vx.inner_smac) < 0 ? argv[1] : argv[2]);
	if (parse_range(p, argv + 3, &vx.vtep_local, 0, 1) < 0
	    || parse_range(p, argv + 5, &vx.vtep_remote, 0, 1) < 0)
		return -1;
	if (vx.vtep_local.start.family != vx.vtep_remote.start.family)
		return kw_err(p, "local VTEP %s and remote VTEP %s are of different address families "
			      "(expected both IPv4 or both IPv6)", argv[3], argv[5]);
	vx.line = p->line;
	cfg->vxlans[cfg->n_vxlans++] = vx;
	return 0;
}

/* dperf: "rss [l3|l3l4|auto [mq_rx_none|mq_rx_rss|l3|l3l4]]". Our RSS
 * hashes IP addresses only, which is dperf's l3 with mq_rx_rss. */
static int
h_rss(struct pctx *p, int argc, char **argv)
{
	if (argc >= 1 && strcmp(argv[0], "l3") != 0)
		return kw_err(p, "\"%s\" is not supported by this version of dperf-live (expected "
			      "rss or rss l3: the hash covers IP addresses only)", argv[0]);
	if (argc == 2 && strcmp(argv[1], "mq_rx_rss") != 0)
		return kw_err(p, "\"%s\" is not supported by this version of dperf-live (expected "
			      "mq_rx_rss)", argv[1]);
	p->cfg->rss = 1;
	return 0;
}

static int
h_jumbo(struct pctx *p, int argc, char **argv)
{
	p->cfg->jumbo = 1;
	p->cfg->jumbo_mtu = DP_JUMBO_MTU_MIN;
	if (argc == 1)
		return arg_u32(p, "MTU", argv[0], DP_JUMBO_MTU_MIN, DP_JUMBO_MTU_MAX,
			       &p->cfg->jumbo_mtu);
	return 0;
}

/* Deprecated in dperf: the frame size, headers included. validate()
 * turns it into payload_size once the address family and protocol are known. */
static int
h_packet_size(struct pctx *p, int argc, char **argv)
{
	(void)argc;
	kw_warn(p, "deprecated, use \"payload_size\"");
	return arg_u32(p, "", argv[0], 1, DP_JUMBO_MTU_MAX + 14, &p->packet_size);
}

static int
h_simd512(struct pctx *p, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	p->cfg->simd512 = 1;
	kw_warn(p, "no effect in dperf-live (packets are built from templates, not with AVX-512 copies)");
	return 0;
}

/* "payload_size N", or on a server dperf 1.9's "payload_size N0 N1 ...",
 * one size per worker core (checked against the cores in validate()). */
static int
h_payload_size(struct pctx *p, int argc, char **argv)
{
	struct dp_config *cfg = p->cfg;

	for (int i = 0; i < argc; i++) {
		if (arg_u32(p, "", argv[i], 1, DP_PAYLOAD_MAX, &cfg->payload_sizes[i]) < 0)
			return -1;
		if (cfg->payload_sizes[i] > cfg->payload_size)
			cfg->payload_size = cfg->payload_sizes[i];
	}
	cfg->n_payload_sizes = argc > 1 ? (uint32_t)argc : 0;
	if (argc == 1)
		cfg->payload_sizes[0] = 0;
	return 0;
}

/* "payload_file PATH": kept as an absolute path (a relative one is taken
 * from the current directory, as dperf opens it), checked in
 * v_payload_file once the protocol is known. */
static int
h_payload_file(struct pctx *p, int argc, char **argv)
{
	char cwd[DP_DEV_LEN];
	int n;

	(void)argc;
	if (argv[0][0] == '/')
		n = snprintf(p->cfg->payload_file, sizeof(p->cfg->payload_file), "%s", argv[0]);
	else if (getcwd(cwd, sizeof(cwd)) == NULL)
		return kw_err(p, "%s: cannot resolve a relative path: %s (expected an absolute path)",
			      argv[0], strerror(errno));
	else
		n = snprintf(p->cfg->payload_file, sizeof(p->cfg->payload_file), "%s/%s", cwd, argv[0]);
	if (n < 0 || (size_t)n >= sizeof(p->cfg->payload_file))
		return kw_err(p, "path too long (expected at most %d characters, absolute)",
			      DP_DEV_LEN - 1);
	return 0;
}

static const struct {
	const char *name;
	uint8_t level;
} log_levels[] = {
	{ "debug", 8 }, { "info", 7 }, { "notice", 6 }, { "warning", 5 }, { "warn", 5 },
	{ "error", 4 },
};

static int
h_log_level(struct pctx *p, int argc, char **argv)
{
	uint64_t v = 0;

	(void)argc;
	for (size_t i = 0; i < sizeof(log_levels) / sizeof(log_levels[0]); i++) {
		if (strcasecmp(argv[0], log_levels[i].name) == 0) {
			p->cfg->log_level = log_levels[i].level;
			return 0;
		}
	}
	if (dp_parse_number(argv[0], &v) < 0 || v > 8)
		return kw_err(p, "bad level \"%s\" (expected debug, info, notice, warning, error "
			      "or 0..8)", argv[0]);
	p->cfg->log_level = (uint8_t)v;
	return 0;
}

/* ---- the keyword table ---- */

#define FIELD(f) .off = offsetof(struct dp_config, f), .size = sizeof(((struct dp_config *)0)->f)
#define FLAG(n, f, h) { .name = n, .kind = K_FLAG, FIELD(f), .syntax = "", .help = h }
#define KW(n, fn_, lo, hi, syn, h) \
	{ .name = n, .fn = fn_, .kind = K_FN, .min_args = lo, .max_args = hi, .syntax = syn, .help = h }
#define KW_MULTI(n, fn_, lo, hi, syn, h) \
	{ .name = n, .fn = fn_, .kind = K_FN, .min_args = lo, .max_args = hi, .multi = 1, \
	  .syntax = syn, .help = h }
/* A value: one argument of kind k into field f, range lo..hi, default d,
 * written by the dump as dm says; h says what it does, dt the default in
 * words when d alone would mislead. */
#define VAL(n, k, f, lo, hi, d, dm, syn, h, dt) \
	{ .name = n, .kind = k, .dump = dm, .min_args = 1, .max_args = 1, FIELD(f), .min = lo, \
	  .max = hi, .def = d, .syntax = syn, .help = h, .def_text = dt }
#define NUM(n, f, lo, hi, d, dm, h, dt) VAL(n, K_NUM, f, lo, hi, d, dm, "NUMBER", h, dt)
#define TIME(n, f, lo, hi, d, dm, h, dt) VAL(n, K_TIME, f, lo, hi, d, dm, "TIME", h, dt)
#define MS 1000ULL
#define S US_PER_SEC

/* One row per keyword: the parser, the defaults (dp_config_defaults),
 * dperf -k and the dump all read it. Numbers take dperf's syntax (100,
 * 2k, 1.5m), times 100s, 3.5m, 10ms, 100us. */
static const struct keyword keywords[] = {
	KW("mode", h_mode, 1, 1, "client|server", "required"),
	KW("cpu", h_cpu, 1, MAX_TOKENS, "N [N|N-M ...]", "required; cores 0..1023, at most 16, "
	   "a multiple of the number of ports"),
	KW("socket_mem", h_socket_mem, 1, 1, "MB[,MB...]", "EAL --socket-mem; default: EAL's"),
	KW_MULTI("port", h_port, 3, 4, "DEV LOCAL_IP GW_IP [GW_MAC]", "1..4 lines; DEV a PCI "
		 "address, a vdev (net_memif0,..., net_tap0,...) or a bond "
		 "bondMODE:POLICY(DEV0,DEV1,...), MODE 0..4, POLICY 0..2 (l2, l23, l34)"),
	TIME("duration", duration_us, 1, UINT64_MAX, 60 * S, D_ALWAYS,
	     "at full rate, after wait and slow_start", NULL),
	NUM("cps", cps, 1, UINT32_MAX, 0, D_NONZERO, "client", "1000 when cc is given"),
	NUM("cc", cc, 1, UINT32_MAX, 0, D_NONZERO, "client, with keepalive", "none"),
	FLAG("flood", flood, "client: packets without connections"),
	NUM("launch_num", launch_num, 1, 1024, 4, D_ALWAYS, "connections launched at a time", NULL),
	KW_MULTI("client", h_client, 2, 2, "IP COUNT", "COUNT 1..254, last byte varies; one "
		 "line per port on a client, any number (up to 16) on a server"),
	KW_MULTI("server", h_server, 2, 2, "IP COUNT", "COUNT 1..254; one line per port, one "
		 "address per core unless rss"),
	KW("listen", h_listen, 1, 2, "PORT [COUNT]", "PORT 1..65535, COUNT 1..65535; default 80 1"),
	KW("payload_size", h_payload_size, 1, DP_MAX_CPUS, "NUMBER [NUMBER ...]", "1..1g; an HTTP "
	   "response (and a POST up to 64m) above mss goes out over several segments, a GET or a "
	   "raw/UDP message is one; below 85 raw bytes with protocol tcp; a server may give "
	   "one per core; default: short HTTP messages"),
	FLAG("payload_random", payload_random, "random letters in payloads"),
	KW("payload_file", h_payload_file, 1, 1, "PATH", "the payload is the file's bytes: an "
	   "HTTP body (Content-Length the file's size) over TCP, the whole datagram over UDP; "
	   "1 byte..64m less 85 (UDP: up to mss); not with payload_size, packet_size or "
	   "payload_random; a relative PATH is from the current directory"),
	KW("keepalive", h_keepalive, 0, 2, "[INTERVAL [NUM]]", "INTERVAL 0..1h, default 1s; "
	   "NUM 0..1000000000 requests per connection, default 0 (no limit)"),
	{ .name = "keepalive_request_interval", .fn = h_keepalive_interval, .kind = K_TIME,
	  .dump = D_CUSTOM, .min_args = 1, .max_args = 1, FIELD(keepalive_request_interval_us),
	  .min = 0, .max = 3600 * S, .def = S, .syntax = "TIME", .help = "turns keepalive on" },
	NUM("keepalive_request_num", keepalive_request_num, 0, 1000000000, 0, D_ALWAYS,
	    "requests per connection, 0 = no limit", NULL),
	NUM("pipeline", pipeline, 1, 64, 1, D_ALWAYS, "requests in flight per connection", NULL),
	KW("protocol", h_protocol, 1, 1, "tcp|http|udp", "default tcp; udp with cc and keepalive: "
	   "cc / interval datagrams per second"),
	NUM("tx_burst", tx_burst, 1, 1024, 8, D_ALWAYS, "packets per device call", NULL),
	TIME("tx_hold", tx_hold_us, 0, 1 * MS, 0, D_NONZERO,
	     "dperf-live: a partial TX batch waits up to this long", NULL),
	{ .name = "slow_start", .kind = K_SECS, .dump = D_ALWAYS, .min_args = 1, .max_args = 1,
	  FIELD(slow_start), .min = 10, .max = 600, .zero_ok = 1, .def = 30, .syntax = "SECONDS",
	  .help = "client; 0 (dperf-live) for none" },
	VAL("wait", K_SECS, wait, 0, 60, 3, D_ALWAYS, "SECONDS", "client", NULL),
	NUM("mss", mss, 536, MSS_JUMBO, MSS_STD, D_ALWAYS, "above 1460 with jumbo only", NULL),
	KW("tos", h_tos, 1, 1, "NUMBER", "0..255 or 0x00..0xff; default 0"),
	NUM("vlan", vlan, 1, 4094, 0, D_NONZERO, "802.1Q tag", "none"),
	KW_MULTI("vxlan", h_vxlan, 7, 7, "VNI INNER_SMAC INNER_DMAC VTEP_LOCAL NUM VTEP_REMOTE NUM",
		 "one line per port, in port order: VNI 1..16777215; VTEPs of the port's address "
		 "family, NUM local = the port's worker cores, NUM remote 1 or the same; not with "
		 "vlan"),
	KW("jumbo", h_jumbo, 0, 1, "[MTU]", "MTU 9000..9710; default 9000"),
	KW("rss", h_rss, 0, 2, "[l3 [mq_rx_rss]]", "spread flows over a port's cores by an IP "
	   "address hash (dperf's l3); l3l4 and auto are refused"),
	FLAG("quiet", quiet, "no per-second output"),
	FLAG("daemon", daemon, "run in the background, output in /var/log/dperf"),
	FLAG("fast_close", fast_close, "client: close with RST after the response"),
	KW("tcp_rst", h_tcp_rst, 1, 1, "0|1", "answer unknown segments with RST; default 1"),
	KW("http_host", h_http_host, 1, 1, "HOST", "default: the server address"),
	KW("http_path", h_http_path, 1, 1, "/PATH", "default /"),
	KW("http_method", h_http_method, 1, 1, "GET|POST", "default GET"),
	KW("client_port_range", h_client_port_range, 1, 2, "MIN [MAX]", "1..65535; default 1 "
	   "65535"),
	KW("lport_range", h_client_port_range, 1, 2, "MIN [MAX]", "deprecated: client_port_range"),
	NUM("send_window", send_window, 2, 16, 0, D_NONZERO,
	    "at most N segments in flight, for messages over several segments", "unset: the congestion and peer windows alone"),
	NUM("test_rx_drop", test_rx_drop, 0, 1000000, 0, D_NONZERO,
	    "dperf-live, for tests only: drop one received TCP segment carrying data in N, "
	    "counted in tcpDrop (loss without a lossy link)", "0 (none)"),
	NUM("test_tx_drop", test_tx_drop, 0, 1000000, 0, D_NONZERO,
	    "dperf-live, for tests only: drop one data segment of a message over several "
	    "segments in N before it leaves (loss toward a kernel peer, whose side "
	    "we cannot make lossy)", "0 (none)"),
	KW("packet_size", h_packet_size, 1, 1, "NUMBER", "deprecated: the frame size, headers "
	   "included; becomes payload_size"),
	KW("simd512", h_simd512, 0, 0, "", "accepted; no effect in dperf-live"),
	KW("change_dip", h_change_dip, 3, 3, "IP STEP NUM", "client with flood: destinations IP + "
	   "k x STEP, k < NUM; STEP 1..65535, NUM 1..65535, at least one per core"),
	FLAG("client_hop", client_hop, "client: each new connection changes both the client "
	     "address and the local port (dperf's meaning); without it the address changes "
	     "first, then the port"),
	FLAG("neigh_ignore", neigh_ignore, "answer no ARP request or IPv6 neighbour "
	     "solicitation (counted in arpDrop); the gateway is still resolved"),
	FLAG("flow_isolate", flow_isolate, "rte_flow isolated mode on every port: only ARP/NDP, "
	     "the port's address and each worker's traffic (rules to its queue) reach dperf; a "
	     "device without it (memif) is refused at start"),
	FLAG("clear_screen", clear_screen, "clear the terminal before each second's figures"),
	TIME("retransmit_timeout", retransmit_timeout_us, 10 * MS, 60 * S, 2 * S, D_ALWAYS,
	     "the initial retransmission timeout (RFC 6298's RTO before a round trip is measured)",
	     NULL),
	/* 40 ms, Linux's shortest delayed-ACK time: below the 200 ms minimum
	 * RTO of a kernel peer, so a held ACK never causes a retransmission,
	 * and long enough for a keepalive request every few ms to carry it.
	 * At most 500 ms: RFC 1122 4.2.3.2. */
	TIME("delayed_ack", delayed_ack_us, 0, 500 * MS, 40 * MS, D_ALWAYS,
	     "dperf-live: longest an ACK waits for data to ride on, at most half of "
	     "retransmit_timeout", "40ms (or that half)"),
	FLAG("disable_ack", disable_ack, "a response's ACK always waits for the next request"),
	KW("log_level", h_log_level, 1, 1, "debug|info|notice|warning|error|0..8", "default info"),
};

#define N_KEYWORDS (sizeof(keywords) / sizeof(keywords[0]))
_Static_assert(N_KEYWORDS <= MAX_KEYWORDS, "raise MAX_KEYWORDS");

/* dperf keywords this version refuses, each with its reason: accepting one
 * and ignoring it would run a different test from the one the file asks for. */
static const struct {
	const char *name;
	const char *why;
} refused[] = {
	{ "kni", "KNI was removed from DPDK in 23.11 (expected a net_tap port, or net_virtio_user "
		 "with vhost-net, to reach the kernel: see conf/kni-replacement-server.conf)" },
	{ "synflood", "not supported by this version of dperf-live" },
	{ "server_hop", "not supported by this version of dperf-live" },
};

static const struct keyword *
find_keyword(const char *name)
{
	for (size_t i = 0; i < N_KEYWORDS; i++)
		if (strcmp(keywords[i].name, name) == 0)
			return &keywords[i];
	return NULL;
}

static uint32_t
line_of(const struct pctx *p, const char *name)
{
	const struct keyword *kw = find_keyword(name);

	return kw ? p->kw_line[kw - keywords] : 0;
}

/* ---- line parsing ---- */

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

static int
parse_tokens(struct pctx *p, int n, char **tok)
{
	const struct keyword *kw = find_keyword(tok[0]);
	int argc = n - 1;

	for (size_t i = 0; kw == NULL && i < sizeof(refused) / sizeof(refused[0]); i++)
		if (strcmp(tok[0], refused[i].name) == 0)
			return err_at(p, p->line, tok[0], "%s", refused[i].why);
	if (kw == NULL)
		return err_at(p, p->line, tok[0], "unknown keyword");
	p->kw = kw;
	if (argc < kw->min_args || argc > kw->max_args)
		return kw_err(p, "wrong number of arguments (expected \"%s%s%s\")", kw->name,
			      kw->syntax[0] ? " " : "", kw->syntax);
	if (!kw->multi && p->kw_line[kw - keywords] != 0)
		return kw_err(p, "given twice, first on line %u (expected one \"%s\" line)",
			      p->kw_line[kw - keywords], kw->name);
	if (p->kw_line[kw - keywords] == 0)
		p->kw_line[kw - keywords] = p->line;
	return kw->fn ? kw->fn(p, argc, tok + 1) : kw_value(p, argc, tok + 1);
}

static int
parse_line(struct pctx *p, const char *start, size_t len)
{
	char buf[LINE_MAX_LEN];
	char *tok[MAX_TOKENS + 1];
	int n;

	if (len >= sizeof(buf))
		return err_at(p, p->line, "line", "too long (expected at most %d characters)",
			      LINE_MAX_LEN - 1);
	memcpy(buf, start, len);
	buf[len] = '\0';
	n = tokenize(buf, tok, MAX_TOKENS);
	if (n == 0)
		return 0;
	if (n > MAX_TOKENS)
		return err_at(p, p->line, tok[0], "too many arguments (expected at most %d)",
			      MAX_TOKENS - 1);
	return parse_tokens(p, n, tok);
}

/* ---- cross-field validation ---- */

static int
v_required(struct pctx *p)
{
	const struct dp_config *cfg = p->cfg;

	if (cfg->mode == DP_MODE_NONE)
		return err_at(p, 0, "mode", "missing (expected \"mode client\" or \"mode server\")");
	if (cfg->n_cpus == 0)
		return err_at(p, 0, "cpu", "missing (expected a line like \"cpu 0 1\" or \"cpu 0-3\")");
	if (cfg->n_ports == 0)
		return err_at(p, 0, "port", "missing (expected at least one \"port\" line)");
	return 0;
}

static int
v_ranges_family(struct pctx *p, const char *kw, const struct dp_range *r, uint32_t n, int fam)
{
	for (uint32_t i = 0; i < n; i++)
		if (r[i].start.family != fam)
			return err_at(p, r[i].line, kw, "IPv%d range on IPv%d ports (expected "
				      "addresses of the ports' family)", r[i].start.family, fam);
	return 0;
}

/* One address family for the ports and one for the ranges: the same,
 * except inside VXLAN, where the ranges are the inner addresses (the
 * server range's family, checked against the rest). */
static int
v_family(struct pctx *p)
{
	const struct dp_config *cfg = p->cfg;
	int fam = cfg->ports[0].local.family;

	for (uint32_t i = 1; i < cfg->n_ports; i++)
		if (cfg->ports[i].local.family != fam)
			return err_at(p, cfg->ports[i].line, "port", "IPv%d port after an IPv%d "
				      "port (expected all ports of one address family)",
				      cfg->ports[i].local.family, fam);
	if (cfg->n_vxlans != 0 && cfg->n_servers != 0)
		fam = cfg->servers[0].start.family;
	if (v_ranges_family(p, "client", cfg->clients, cfg->n_clients, fam) < 0)
		return -1;
	return v_ranges_family(p, "server", cfg->servers, cfg->n_servers, fam);
}

static int
v_range_count(struct pctx *p, const char *kw, uint32_t n, const struct dp_range *r)
{
	const struct dp_config *cfg = p->cfg;

	if (n == 0 && strcmp(kw, "client") == 0 && cfg->mode == DP_MODE_SERVER)
		return err_at(p, 0, kw, "missing (expected the client address range this server "
			      "accepts)");
	if (n == 0)
		return err_at(p, 0, kw, "missing (expected one \"%s\" line per \"port\" line)", kw);
	if (strcmp(kw, "client") == 0 && cfg->mode == DP_MODE_SERVER)
		return 0; /* a server accepts any number of client ranges */
	if (n != cfg->n_ports)
		return err_at(p, r[n - 1].line, kw, "%u \"%s\" lines for %u \"port\" lines "
			      "(expected one \"%s\" line per \"port\" line)", n, kw, cfg->n_ports, kw);
	return 0;
}

static int
v_cores(struct pctx *p)
{
	const struct dp_config *cfg = p->cfg;
	uint32_t per_port;

	if (cfg->n_cpus % cfg->n_ports != 0)
		return err_at(p, line_of(p, "cpu"), "cpu", "%u cores for %u ports (expected the "
			      "same number of cores on every port)", cfg->n_cpus, cfg->n_ports);
	per_port = cfg->n_cpus / cfg->n_ports;
	/* dperf: with vxlan, one server address per core even with rss (each
	 * core has its own VTEP and its own inner server address) */
	for (uint32_t i = 0; i < cfg->n_servers && (!cfg->rss || cfg->n_vxlans); i++)
		if (cfg->servers[i].num != per_port)
			return err_at(p, cfg->servers[i].line, "server", "%u addresses for %u "
				      "worker cores on this port (expected one server address per "
				      "core%s)", cfg->servers[i].num, per_port,
				      cfg->n_vxlans ? ", as vxlan requires" : ", or \"rss\"");
	return 0;
}

/* A keyword that only applies to mode client. */
static int
v_client_only(struct pctx *p, const char *kw)
{
	uint32_t line = line_of(p, kw);

	if (p->cfg->mode != DP_MODE_CLIENT && line != 0)
		return err_at(p, line, kw, "only for mode client (expected no \"%s\" line in mode "
			      "server)", kw);
	return 0;
}

/* ---- dperf's rules ---- */

/* The line of "keepalive", or of its older spelling. */
static uint32_t
keepalive_line(const struct pctx *p)
{
	uint32_t a = line_of(p, "keepalive"), b = line_of(p, "keepalive_request_interval");

	return a != 0 ? a : b;
}

/* dperf's UDP packets-per-second mode (cc + keepalive): each of cc
 * connections sends one datagram per interval. Here the rate is cc /
 * interval from the start (ramped by slow start); dperf opens the cc
 * connections at cps first, so cps has no effect here and says so. */
static int
v_pps(struct pctx *p)
{
	const struct dp_config *cfg = p->cfg;
	uint32_t line = line_of(p, "cps");

	if (cfg->keepalive_request_interval_us == 0)
		return err_at(p, keepalive_line(p), "keepalive", "interval 0 with protocol udp and "
			      "cc (expected a positive interval: each connection sends one datagram "
			      "per interval)");
	if (line != 0)
		warn_at(p, line, "cps", "no effect with protocol udp, cc and keepalive "
			"(packets-per-second mode: the rate is cc / interval)");
	return 0;
}

/* A client's targets, as dperf: cc needs keepalive; cps defaults to 1000
 * when only cc is given; flood with keepalive needs an interval above 0. */
static int
v_targets(struct pctx *p)
{
	struct dp_config *cfg = p->cfg;

	if (cfg->mode != DP_MODE_CLIENT)
		return 0;
	if (cfg->cc != 0 && !cfg->keepalive)
		return err_at(p, line_of(p, "cc"), "cc", "needs keepalive (expected a line like "
			      "\"keepalive 1s\": connections are kept open and send a request per "
			      "interval)");
	if (cfg->cps == 0 && cfg->cc != 0)
		cfg->cps = DP_DEFAULT_CPS;
	if (cfg->cps == 0 && !cfg->flood)
		return err_at(p, 0, "cps", "missing (expected \"cps NUMBER\" in mode client, "
			      "\"cc NUMBER\" with keepalive, or \"flood\")");
	if (cfg->flood && cfg->keepalive && cfg->keepalive_request_interval_us == 0)
		return err_at(p, keepalive_line(p), "keepalive", "interval 0 with flood (expected "
			      "a positive interval: flood sends one packet per connection per interval)");
	if (cfg->protocol == DP_PROTO_UDP && cfg->cc != 0)
		return v_pps(p);
	return 0;
}

/* Client ranges must not overlap: a server finds a connection's socket
 * from the client address, and an address in two ranges has two. */
static int
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

static int
v_client_ranges(struct pctx *p)
{
	const struct dp_config *cfg = p->cfg;

	for (uint32_t i = 1; i < cfg->n_clients; i++)
		for (uint32_t j = 0; j < i; j++)
			if (ranges_overlap(&cfg->clients[i], &cfg->clients[j]))
				return err_at(p, cfg->clients[i].line, "client", "overlaps the range "
					      "on line %u (expected each client address in one range)",
					      cfg->clients[j].line);
	return 0;
}

/* dperf's change_dip: a flooding client only, destinations of the ports'
 * family (IPv6: in the server range's /96, as the tuples carry the last 32
 * bits), at least one per core. */
static int
v_change_dip(struct pctx *p)
{
	const struct dp_config *cfg = p->cfg;
	uint32_t line = line_of(p, "change_dip");

	if (cfg->change_dip_num == 0)
		return 0;
	if (cfg->mode != DP_MODE_CLIENT || !cfg->flood)
		return err_at(p, line, "change_dip", "only for a flooding client (expected mode "
			      "client and \"flood\")");
	if (cfg->change_dip.family != cfg->ports[0].local.family)
		return err_at(p, line, "change_dip", "IPv%d address on IPv%d ports (expected "
			      "addresses of the ports' family)", cfg->change_dip.family,
			      cfg->ports[0].local.family);
	if (cfg->change_dip.family == 6
	    && memcmp(cfg->change_dip.v6, cfg->servers[0].start.v6, 12) != 0)
		return err_at(p, line, "change_dip", "outside the server range's /96 (expected the "
			      "first 12 bytes of line %u's address)", cfg->servers[0].line);
	if (cfg->change_dip_num < cfg->n_cpus)
		return err_at(p, line, "change_dip", "%u addresses for %u cores (expected at least "
			      "one per core)", cfg->change_dip_num, cfg->n_cpus);
	return 0;
}

/* One payload size per core: a server's, one for each core of the cpu line. */
static int
v_payload_sizes(struct pctx *p)
{
	const struct dp_config *cfg = p->cfg;
	uint32_t line = line_of(p, "payload_size");

	if (cfg->n_payload_sizes == 0)
		return 0;
	if (cfg->mode != DP_MODE_SERVER)
		return err_at(p, line, "payload_size", "%u sizes on a client (expected one size; "
			      "one per core is for a server)", cfg->n_payload_sizes);
	if (cfg->n_payload_sizes != cfg->n_cpus)
		return err_at(p, line, "payload_size", "%u sizes for %u cores (expected one size, "
			      "or one per core of the cpu line)", cfg->n_payload_sizes, cfg->n_cpus);
	for (uint32_t i = 0; i < cfg->n_payload_sizes; i++)
		if (cfg->protocol == DP_PROTO_HTTP && cfg->payload_sizes[i] < DP_HTTP_MIN_SIZE)
			return err_at(p, line, "payload_size", "%u too small for protocol http "
				      "(expected >= %d)", cfg->payload_sizes[i], DP_HTTP_MIN_SIZE);
	return 0;
}

/* payload_file: the file must be readable now, regular, 1 byte at least;
 * its size makes payload_size (the HTTP head's 85 bytes added over TCP).
 * A GET has no body to carry it. A TCP server may also give payload_size
 * (one or one per core, each at least the file's payload): the file is
 * then the first bytes of a longer body, the filler the rest (issue #22;
 * our extension). */
static int
v_payload_file(struct pctx *p)
{
	struct dp_config *cfg = p->cfg;
	uint32_t line = line_of(p, "payload_file");
	const char *path = cfg->payload_file;
	int prefix = cfg->mode == DP_MODE_SERVER && cfg->protocol != DP_PROTO_UDP;
	const char *other[] = { "packet_size", "payload_random", "payload_size" };
	size_t n_other = sizeof(other) / sizeof(other[0]) - (prefix ? 1 : 0);
	uint64_t head = cfg->protocol == DP_PROTO_UDP ? 0 : DP_HTTP_MIN_SIZE;
	uint64_t max = cfg->protocol == DP_PROTO_UDP ? cfg->mss : DP_PAYLOAD_STORED - DP_HTTP_MIN_SIZE;
	struct stat st;
	int fd;

	if (line == 0)
		return 0;
	for (size_t i = 0; i < n_other; i++)
		if (line_of(p, other[i]) != 0)
			return err_at(p, line, "payload_file", "given with %s on line %u (expected one "
				      "of them: the file's bytes are the payload%s)", other[i],
				      line_of(p, other[i]),
				      i == 2 ? "; payload_size with it is for a TCP server, where "
					       "the file begins a longer body" : "");
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return err_at(p, line, "payload_file", "%s: cannot open: %s (expected a readable "
			      "file)", path, strerror(errno));
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return err_at(p, line, "payload_file", "%s: not a regular file (expected a file "
			      "whose bytes are the payload)", path);
	}
	close(fd);
	if (st.st_size == 0)
		return err_at(p, line, "payload_file", "%s: empty (expected at least 1 byte)", path);
	if ((uint64_t)st.st_size > max)
		return err_at(p, line, "payload_file", "%s: %llu bytes, too large (expected at most "
			      "%llu%s)", path, (unsigned long long)st.st_size, (unsigned long long)max,
			      cfg->protocol == DP_PROTO_UDP ? ", mss: a UDP message is one datagram" :
			      ", the body of one HTTP message");
	if (cfg->mode == DP_MODE_CLIENT && cfg->protocol != DP_PROTO_UDP
	    && cfg->http_method != DP_HTTP_POST)
		return err_at(p, line, "payload_file", "on a client sending GET (expected "
			      "\"http_method POST\", whose body it becomes, protocol udp, or the "
			      "file on the server)");
	cfg->payload_file_size = (uint32_t)st.st_size;
	if (line_of(p, "payload_size") == 0) {
		cfg->payload_size = cfg->payload_file_size + (uint32_t)head;
		return 0;
	}
	for (uint32_t i = 0; i < (cfg->n_payload_sizes ? cfg->n_payload_sizes : 1); i++) {
		uint32_t size = cfg->n_payload_sizes ? cfg->payload_sizes[i] : cfg->payload_size;
		if (size < st.st_size + head)
			return err_at(p, line_of(p, "payload_size"), "payload_size", "%u is shorter "
				      "than payload_file %s on line %u (expected at least %llu: the "
				      "file's %llu bytes%s, which begin the body)", size, path, line,
				      (unsigned long long)(st.st_size + head),
				      (unsigned long long)st.st_size,
				      head ? " and the 85-byte head" : "");
	}
	return 0;
}

/* dperf's deprecated packet_size: the frame without CRC; the payload is
 * what is left after Ethernet, IP and TCP/UDP headers. */
static int
v_packet_size(struct pctx *p)
{
	struct dp_config *cfg = p->cfg;
	uint32_t line = line_of(p, "packet_size"), hdrs;

	if (p->packet_size == 0)
		return 0;
	if (cfg->payload_size != 0)
		return err_at(p, line, "packet_size", "given with payload_size on line %u (expected "
			      "one of them)", line_of(p, "payload_size"));
	hdrs = 14 + (cfg->ports[0].local.family == 6 ? 40 : 20)
	       + (cfg->protocol == DP_PROTO_UDP ? 8 : 20);
	if (p->packet_size <= hdrs)
		return err_at(p, line, "packet_size", "%u leaves no payload (expected more than "
			      "the %u bytes of headers)", p->packet_size, hdrs);
	cfg->payload_size = p->packet_size - hdrs;
	return 0;
}

static int
v_mode(struct pctx *p)
{
	/* dperf accepts client_hop on a server and ignores it there */
	if (p->cfg->mode == DP_MODE_SERVER && line_of(p, "client_hop") != 0)
		warn_at(p, line_of(p, "client_hop"), "client_hop", "no effect in mode server (the "
			"client chooses its addresses and ports)");
	if (v_client_only(p, "cps") < 0 || v_client_only(p, "cc") < 0
	    || v_client_only(p, "flood") < 0)
		return -1;
	return v_targets(p);
}

static int
v_sizes(struct pctx *p)
{
	const struct dp_config *cfg = p->cfg;
	uint32_t mtu_mss = cfg->jumbo ? MSS_JUMBO : MSS_STD;
	uint32_t line = line_of(p, "payload_size");

	if (cfg->mss > mtu_mss)
		return err_at(p, line_of(p, "mss"), "mss", "%u needs jumbo frames (expected at "
			      "most %u, or \"jumbo\")", cfg->mss, MSS_STD);
	/* A UDP message is one datagram; over TCP an HTTP response may span
	 * segments (the message rules, config_rules.c, say which may). */
	if (cfg->protocol == DP_PROTO_UDP && cfg->payload_size > mtu_mss)
		return err_at(p, line, "payload_size", "%u needs jumbo frames (expected at most "
			      "%u, or \"jumbo\")", cfg->payload_size, MSS_STD);
	if (cfg->protocol == DP_PROTO_UDP && cfg->payload_size > cfg->mss)
		return err_at(p, line, "payload_size", "%u is larger than mss %u (expected at "
			      "most mss: a UDP message is one datagram)", cfg->payload_size, cfg->mss);
	if (cfg->protocol == DP_PROTO_HTTP && cfg->payload_size != 0
	    && cfg->payload_size < DP_HTTP_MIN_SIZE)
		return err_at(p, line, "payload_size", "%u too small for protocol http (expected "
			      ">= %d, or protocol tcp for raw payloads)", cfg->payload_size,
			      DP_HTTP_MIN_SIZE);
	return 0;
}

/* An ACK we hold back must reach the peer before our own retransmission
 * timer would fire in its place: a peer configured like us (another
 * dperf-live) would otherwise retransmit what we only delayed. */
static int
v_delayed_ack(struct pctx *p)
{
	struct dp_config *cfg = p->cfg;
	uint32_t line = line_of(p, "delayed_ack");

	/* The default yields to a short retransmit_timeout; a value the
	 * user wrote is checked. */
	if (line == 0 && cfg->delayed_ack_us > cfg->retransmit_timeout_us / 2)
		cfg->delayed_ack_us = cfg->retransmit_timeout_us / 2;
	if (cfg->delayed_ack_us > cfg->retransmit_timeout_us / 2)
		return err_at(p, line, "delayed_ack", "%llu us is more than half of "
			      "retransmit_timeout (expected at most %llu us: the held ACK "
			      "still has to cross the network before the timer fires)",
			      (unsigned long long)cfg->delayed_ack_us,
			      (unsigned long long)cfg->retransmit_timeout_us / 2);
	return 0;
}

/* The bytes VXLAN adds in front of an inner frame: outer Ethernet, IPv4
 * or IPv6, UDP and the VXLAN header. */
static uint32_t
vxlan_overhead(int family)
{
	return 14 + (family == 6 ? 40 : 20) + 8 + 8;
}

/* dperf's vxlan rules: one line per port; as many local VTEPs as the
 * port has cores, remote VTEPs one or as many; not with vlan. Ours: the
 * VTEPs are of the port's family (IPv4 or IPv6), and the inner segments
 * fit the outer MTU, so mss comes down to fit unless it was given. */
static int
v_vxlan(struct pctx *p)
{
	struct dp_config *cfg = p->cfg;
	uint32_t per_port = cfg->n_cpus / cfg->n_ports, mtu, fit;
	int inner6 = cfg->servers[0].start.family == 6;

	if (cfg->n_vxlans == 0)
		return 0;
	if (cfg->n_vxlans != cfg->n_ports)
		return err_at(p, cfg->vxlans[cfg->n_vxlans - 1].line, "vxlan", "%u \"vxlan\" lines "
			      "for %u \"port\" lines (expected one per port, in port order)",
			      cfg->n_vxlans, cfg->n_ports);
	if (cfg->vlan != 0)
		return err_at(p, line_of(p, "vlan"), "vlan", "given with vxlan (expected one of "
			      "them: dperf cannot tag and encapsulate at the same time)");
	for (uint32_t i = 0; i < cfg->n_vxlans; i++) {
		const struct dp_vxlan *vx = &cfg->vxlans[i];
		int fam = cfg->ports[i].local.family;

		if (vx->vtep_local.start.family != fam)
			return err_at(p, vx->line, "vxlan", "IPv%d VTEP addresses on the IPv%d port of "
				      "line %u (expected the port's family: the VTEPs are the outer "
				      "addresses)", vx->vtep_local.start.family, fam, cfg->ports[i].line);
		if (vx->vtep_local.num != per_port)
			return err_at(p, vx->line, "vxlan", "%u local VTEP addresses for %u worker "
				      "cores on this port (expected one per core)", vx->vtep_local.num,
				      per_port);
		if (vx->vtep_remote.num != 1 && vx->vtep_remote.num != per_port)
			return err_at(p, vx->line, "vxlan", "%u remote VTEP addresses for %u worker "
				      "cores on this port (expected 1, or one per core)",
				      vx->vtep_remote.num, per_port);
	}
	/* The outer packet must fit the port's MTU: the inner IP packet loses
	 * what the encapsulation adds (Linux's vxlan device: MTU 1450). */
	mtu = cfg->jumbo ? cfg->jumbo_mtu : 1500;
	fit = mtu + 14 - vxlan_overhead(cfg->ports[0].local.family) - 14 - (inner6 ? 40 : 20) - 20;
	if (cfg->mss > fit && line_of(p, "mss") != 0)
		return err_at(p, line_of(p, "mss"), "mss", "%u does not fit a %u-byte MTU inside "
			      "VXLAN (expected at most %u%s)", cfg->mss, mtu, fit,
			      cfg->jumbo ? "" : ", or jumbo");
	if (cfg->mss > fit)
		cfg->mss = fit;
	return 0;
}

static int
validate(struct pctx *p)
{
	const struct dp_config *cfg = p->cfg;

	if (v_required(p) < 0 || v_family(p) < 0)
		return -1;
	if (v_range_count(p, "server", cfg->n_servers, cfg->servers) < 0
	    || v_range_count(p, "client", cfg->n_clients, cfg->clients) < 0)
		return -1;
	if (v_client_ranges(p) < 0 || v_packet_size(p) < 0 || v_payload_sizes(p) < 0
	    || v_payload_file(p) < 0)
		return -1;
	if (v_cores(p) < 0 || v_mode(p) < 0 || v_vxlan(p) < 0 || v_sizes(p) < 0
	    || v_delayed_ack(p) < 0
	    || v_change_dip(p) < 0)
		return -1;
	return 0;
}

/* ---- API ---- */

void
dp_config_defaults(struct dp_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	for (size_t i = 0; i < N_KEYWORDS; i++)
		if (keywords[i].kind >= K_NUM)
			kw_put(cfg, &keywords[i], keywords[i].def);
	/* the handlers' keywords */
	cfg->listen_port = 80;
	cfg->listen_num = 1;
	cfg->tcp_rst = 1;
	cfg->log_level = 7; /* RTE_LOG_INFO */
	cfg->protocol = DP_PROTO_TCP;
	cfg->http_method = DP_HTTP_GET;
	cfg->lport_min = 1;
	cfg->lport_max = 65535;
	strcpy(cfg->http_path, "/");
}

int
dp_config_parse(const char *name, const char *text, struct dp_config *cfg, char *err,
		size_t errlen)
{
	struct dp_config tmp;
	struct pctx p;

	memset(&p, 0, sizeof(p));
	p.name = name;
	p.cfg = &tmp;
	p.err = err;
	p.errlen = errlen;
	if (err != NULL && errlen > 0)
		err[0] = '\0';
	dp_config_defaults(&tmp);
	snprintf(tmp.file, sizeof(tmp.file), "%s", name);
	while (*text != '\0') {
		size_t len = strcspn(text, "\n");

		p.line++;
		if (parse_line(&p, text, len) < 0)
			return -1;
		text += len;
		if (*text == '\n')
			text++;
	}
	if (validate(&p) < 0)
		return -1;
	memcpy(tmp.kw_line, p.kw_line, sizeof(tmp.kw_line));
	*cfg = tmp;
	return 0;
}

/* ---- reading the file ---- */

#define CONFIG_MAX_BYTES (1 << 20)
#define PIPE_WAIT_MS 10000

static int __attribute__((format(printf, 4, 5)))
read_err(char *err, size_t errlen, const char *path, const char *fmt, ...)
{
	char msg[DP_ERR_LEN], all[2 * DP_ERR_LEN];
	va_list ap;

	if (err == NULL || errlen == 0)
		return -1;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(all, sizeof(all), "%s: %s", path, msg);
	dp_escape(err, errlen, all);
	return -1;
}

/* A regular file, or a pipe (-c /dev/stdin, a FIFO). Not a directory or a
 * device (fopen + ftell used to answer "Cannot allocate memory" and
 * "Illegal seek"), and never a wait without end: the FIFO is opened
 * without blocking, and a pipe that stays silent PIPE_WAIT_MS is refused. */
static int
read_config_text(const char *path, char **out, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	size_t len = 0;
	struct stat st;
	char *text;

	if (fd < 0)
		return read_err(err, errlen, path, "cannot open: %s", strerror(errno));
	if (fstat(fd, &st) != 0) {
		close(fd);
		return read_err(err, errlen, path, "cannot read: %s", strerror(errno));
	}
	if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode)) {
		close(fd);
		return read_err(err, errlen, path, "cannot read: %s (expected a configuration file)",
				S_ISDIR(st.st_mode) ? "a directory" :
				S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device" : "a socket");
	}
	text = malloc(CONFIG_MAX_BYTES + 1);
	if (text == NULL) {
		close(fd);
		return read_err(err, errlen, path, "cannot read: %s", strerror(errno));
	}
	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		ssize_t n = read(fd, text + len, CONFIG_MAX_BYTES + 1 - len);

		if (n > 0 && (len += (size_t)n) <= CONFIG_MAX_BYTES)
			continue;
		if (n == 0 || len > CONFIG_MAX_BYTES)
			break;
		if (errno == EINTR)
			continue;
		if (errno == EAGAIN && poll(&pfd, 1, PIPE_WAIT_MS) > 0)
			continue;
		free(text);
		close(fd);
		if (errno == EAGAIN) /* poll timed out */
			return read_err(err, errlen, path, "cannot read: nothing came through the pipe in %d s",
					PIPE_WAIT_MS / 1000);
		return read_err(err, errlen, path, "cannot read: %s", strerror(errno));
	}
	close(fd);
	if (len > CONFIG_MAX_BYTES) {
		free(text);
		return read_err(err, errlen, path, "cannot read: larger than %d bytes (expected a configuration file)",
				CONFIG_MAX_BYTES);
	}
	if (len == 0 && S_ISFIFO(st.st_mode)) {
		free(text);
		return read_err(err, errlen, path, "cannot read: the pipe is empty (nothing writes to it?)");
	}
	text[len] = '\0';
	if (strlen(text) != len) {
		free(text);
		return read_err(err, errlen, path, "cannot read: binary file (expected text)");
	}
	*out = text;
	return 0;
}

int
dp_config_load(const char *path, struct dp_config *cfg, char *err, size_t errlen)
{
	static const char bom[] = "\xef\xbb\xbf"; /* editors on Windows write it */
	char *text = NULL;
	int rc;

	if (read_config_text(path, &text, err, errlen) != 0)
		return -1;
	rc = dp_config_parse(path, strncmp(text, bom, 3) == 0 ? text + 3 : text, cfg, err, errlen);
	free(text);
	return rc;
}

/* ---- dump ---- */

struct out {
	char *buf;
	size_t len;
	size_t pos; /* as if unlimited */
};

static void __attribute__((format(printf, 2, 3)))
put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	size_t room = o->pos < o->len ? o->len - o->pos : 0;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(room ? o->buf + o->pos : NULL, room, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->pos += (size_t)n;
}

static void
dump_ports(struct out *o, const struct dp_config *cfg)
{
	char a[64], b[64];

	for (uint32_t i = 0; i < cfg->n_ports; i++) {
		const struct dp_port_cfg *pc = &cfg->ports[i];
		put(o, "port %s %s %s", pc->dev, dp_ip_str(&pc->local, a, sizeof(a)),
		    dp_ip_str(&pc->gw, b, sizeof(b)));
		if (pc->has_gw_mac)
			put(o, " %02x:%02x:%02x:%02x:%02x:%02x", pc->gw_mac[0], pc->gw_mac[1],
			    pc->gw_mac[2], pc->gw_mac[3], pc->gw_mac[4], pc->gw_mac[5]);
		put(o, "\n");
	}
	for (uint32_t i = 0; i < cfg->n_clients; i++)
		put(o, "client %s %u\n", dp_ip_str(&cfg->clients[i].start, a, sizeof(a)),
		    cfg->clients[i].num);
	for (uint32_t i = 0; i < cfg->n_servers; i++)
		put(o, "server %s %u\n", dp_ip_str(&cfg->servers[i].start, a, sizeof(a)),
		    cfg->servers[i].num);
	put(o, "listen %u %u\n", cfg->listen_port, cfg->listen_num);
	for (uint32_t i = 0; i < cfg->n_vxlans; i++) {
		const struct dp_vxlan *vx = &cfg->vxlans[i];
		const uint8_t *sm = vx->inner_smac, *dm = vx->inner_dmac;

		put(o, "vxlan %u %02x:%02x:%02x:%02x:%02x:%02x %02x:%02x:%02x:%02x:%02x:%02x", vx->vni,
		    sm[0], sm[1], sm[2], sm[3], sm[4], sm[5], dm[0], dm[1], dm[2], dm[3], dm[4], dm[5]);
		put(o, " %s %u", dp_ip_str(&vx->vtep_local.start, a, sizeof(a)), vx->vtep_local.num);
		put(o, " %s %u\n", dp_ip_str(&vx->vtep_remote.start, a, sizeof(a)),
		    vx->vtep_remote.num);
	}
}

static void
dump_load(struct out *o, const struct dp_config *cfg)
{
	static const char *const protos[] = { "tcp", "http", "udp" };
	char t[32];

	put(o, "protocol %s\n", protos[cfg->protocol]);
	if (cfg->n_payload_sizes != 0) {
		put(o, "payload_size");
		for (uint32_t i = 0; i < cfg->n_payload_sizes; i++)
			put(o, " %u", cfg->payload_sizes[i]);
		put(o, "\n");
	} else if (cfg->payload_file[0] != '\0') {
		put(o, "payload_file %s\n", cfg->payload_file);
	} else if (cfg->payload_size != 0) {
		put(o, "payload_size %u\n", cfg->payload_size);
	}
	if (cfg->keepalive) /* the interval line turns keepalive on */
		put(o, "keepalive_request_interval %s\n",
		    fmt_span(cfg->keepalive_request_interval_us, t, sizeof(t)));
	if (cfg->jumbo)
		put(o, "jumbo %u\n", cfg->jumbo_mtu);
	put(o, "tos 0x%02x\n", cfg->tos);
	put(o, "tcp_rst %u\n", cfg->tcp_rst);
	put(o, "client_port_range %u %u\n", cfg->lport_min, cfg->lport_max);
	put(o, "log_level %u\n", cfg->log_level);
}

/* The table's value keywords, as their rows say. */
static void
dump_values(struct out *o, const struct dp_config *cfg)
{
	char t[32];

	for (size_t i = 0; i < N_KEYWORDS; i++) {
		const struct keyword *kw = &keywords[i];
		uint64_t v = kw->kind >= K_NUM ? kw_get(cfg, kw) : 0;

		if (kw->kind < K_NUM || kw->dump == D_CUSTOM || (kw->dump == D_NONZERO && v == 0))
			continue;
		if (kw->kind == K_TIME)
			put(o, "%s %s\n", kw->name, fmt_span(v, t, sizeof(t)));
		else
			put(o, "%s %llu\n", kw->name, (unsigned long long)v);
	}
}

static void
dump_http(struct out *o, const struct dp_config *cfg)
{
	if (cfg->http_host[0] != '\0')
		put(o, "http_host %s\n", cfg->http_host);
	put(o, "http_path %s\n", cfg->http_path);
	put(o, "http_method %s\n", cfg->http_method == DP_HTTP_POST ? "POST" : "GET");
}

static void
dump_flags(struct out *o, const struct dp_config *cfg)
{
	for (size_t i = 0; i < N_KEYWORDS; i++)
		if (keywords[i].kind == K_FLAG && kw_get(cfg, &keywords[i]) != 0)
			put(o, "%s\n", keywords[i].name);
	if (cfg->keepalive)
		put(o, "keepalive\n");
	if (cfg->simd512)
		put(o, "simd512\n");
	if (cfg->rss)
		put(o, "rss\n");
	if (cfg->change_dip_num != 0) {
		char a[64];
		put(o, "change_dip %s %u %u\n", dp_ip_str(&cfg->change_dip, a, sizeof(a)),
		    cfg->change_dip_step, cfg->change_dip_num);
	}
}

size_t
dp_config_dump(const struct dp_config *cfg, char *buf, size_t len)
{
	struct out o = { buf, len, 0 };

	if (len > 0)
		buf[0] = '\0';
	put(&o, "mode %s\n", cfg->mode == DP_MODE_SERVER ? "server" : "client");
	put(&o, "cpu");
	for (uint32_t i = 0; i < cfg->n_cpus; i++)
		put(&o, " %u", cfg->cpus[i]);
	put(&o, "\n");
	if (cfg->socket_mem[0] != '\0')
		put(&o, "socket_mem %s\n", cfg->socket_mem);
	dump_ports(&o, cfg);
	dump_values(&o, cfg);
	dump_load(&o, cfg);
	dump_http(&o, cfg);
	dump_flags(&o, cfg);
	if (len == 0)
		return 0;
	return o.pos < len ? o.pos : len - 1;
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

size_t
dp_config_keywords(char *buf, size_t len)
{
	struct out o = { buf, len, 0 };

	if (len > 0)
		buf[0] = '\0';
	for (size_t i = 0; i < N_KEYWORDS; i++) {
		const struct keyword *kw = &keywords[i];
		char range[64], def[32];

		put(&o, "%s%s%s\n    ", kw->name, kw->syntax[0] ? " " : "", kw->syntax);
		if (kw->kind >= K_NUM) { /* range and default first, as for the handlers' */
			if (kw->def_text == NULL && kw->kind == K_TIME)
				fmt_span(kw->def, def, sizeof(def));
			else if (kw->def_text == NULL)
				snprintf(def, sizeof(def), "%llu", (unsigned long long)kw->def);
			put(&o, "%s; default %s%s", kw_range(kw, range, sizeof(range)),
			    kw->def_text ? kw->def_text : def, kw->help[0] ? "; " : "");
		}
		put(&o, "%s", kw->help);
		put(&o, "\n");
	}
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		put(&o, "%s\n    refused: %s\n", refused[i].name, refused[i].why);
	if (len == 0)
		return 0;
	return o.pos < len ? o.pos : len - 1;
}

uint32_t
dp_config_line(const struct dp_config *cfg, const char *keyword)
{
	const struct keyword *kw = find_keyword(keyword);

	return kw ? cfg->kw_line[kw - keywords] : 0;
}
