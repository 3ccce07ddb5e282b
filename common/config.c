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

struct keyword {
	const char *name;
	kw_fn fn;
	uint8_t min_args;
	uint8_t max_args;
	uint8_t multi;      /* may be given on several lines */
	size_t flag_off;    /* for flags: offset of the uint8_t field */
	const char *syntax; /* the arguments, shown in "(expected ...)" */
};

struct pctx {
	const char *name;
	uint32_t line;
	const struct keyword *kw;
	struct dp_config *cfg;
	char *err;
	size_t errlen;
	uint32_t kw_line[MAX_KEYWORDS]; /* first line each keyword was given on */
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
arg_time(struct pctx *p, const char *s, uint64_t min_us, uint64_t max_us, const char *range,
	 uint64_t *out)
{
	uint64_t v = 0;

	if (dp_parse_duration_us(s, &v) < 0)
		return kw_err(p, "bad time \"%s\" (" TIME_EXPECTED ")", s);
	if (v < min_us || v > max_us)
		return kw_err(p, "%s out of range (expected %s)", s, range);
	*out = v;
	return 0;
}

/* Seconds: a plain number or a time, rounded to the nearest second. */
static int
arg_seconds(struct pctx *p, const char *s, uint64_t *secs, uint64_t *us)
{
	if (dp_parse_duration_us(s, us) < 0)
		return kw_err(p, "bad time \"%s\" (expected seconds like 30, or a time like 1m)", s);
	*secs = (*us + US_PER_SEC / 2) / US_PER_SEC;
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
is_pci_addr(const char *s)
{
	/* [dddd:]bb:dd.f, hexadecimal, function 0..7 */
	size_t n = strlen(s), i = 0;
	const char *pat4 = "xxxx:xx:xx.f", *pat = pat4;

	if (n == 7)
		pat = pat4 + 5;
	else if (n != 12)
		return 0;
	for (; i < n; i++) {
		char c = s[i];
		if (pat[i] == 'x' && !isxdigit((unsigned char)c))
			return 0;
		if (pat[i] == 'f' && (c < '0' || c > '7'))
			return 0;
		if ((pat[i] == ':' || pat[i] == '.') && c != pat[i])
			return 0;
	}
	return 1;
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

static int
port_dev(struct pctx *p, const char *dev, struct dp_port_cfg *pc)
{
	if (strncmp(dev, "bond", 4) == 0 || strncmp(dev, "net_bonding", 11) == 0)
		return kw_err(p, "bonded ports are not supported by this version of dperf-live "
			      "(expected one PCI address or vdev per \"port\" line)");
	if (strncmp(dev, "net_", 4) == 0 && strlen(dev) > 4)
		pc->is_vdev = 1;
	else if (!is_pci_addr(dev))
		return kw_err(p, "bad device \"%s\" (expected a PCI address like 0000:01:00.0 or a "
			      "vdev like net_memif0,role=server)", dev);
	if (strlen(dev) >= sizeof(pc->dev))
		return kw_err(p, "device too long (expected at most %d characters)", DP_DEV_LEN - 1);
	for (uint32_t i = 0; i < p->cfg->n_ports; i++)
		if (strcmp(p->cfg->ports[i].dev, dev) == 0)
			return kw_err(p, "device \"%s\" already used on line %u (expected each "
				      "device once)", dev, p->cfg->ports[i].line);
	strcpy(pc->dev, dev);
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
parse_range(struct pctx *p, char **argv, struct dp_range *r, uint32_t n)
{
	char buf[64];

	if (n >= DP_MAX_PORTS)
		return kw_err(p, "too many ranges (expected at most %d \"%s\" lines, one per port)",
			      DP_MAX_PORTS, p->kw->name);
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
	if (parse_range(p, argv, &cfg->clients[cfg->n_clients], cfg->n_clients) < 0)
		return -1;
	cfg->n_clients++;
	return 0;
}

static int
h_server(struct pctx *p, int argc, char **argv)
{
	struct dp_config *cfg = p->cfg;

	(void)argc;
	if (parse_range(p, argv, &cfg->servers[cfg->n_servers], cfg->n_servers) < 0)
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

static int
h_duration(struct pctx *p, int argc, char **argv)
{
	(void)argc;
	return arg_time(p, argv[0], 1, UINT64_MAX, "a time > 0", &p->cfg->duration_us);
}

static int
h_cps(struct pctx *p, int argc, char **argv)
{
	(void)argc;
	return arg_num(p, "", argv[0], 1, UINT32_MAX, &p->cfg->cps);
}

static int
h_cc(struct pctx *p, int argc, char **argv)
{
	(void)argc;
	if (arg_num(p, "", argv[0], 1, UINT32_MAX, &p->cfg->cc) < 0)
		return -1;
	p->cfg->keepalive = 1;
	return 0;
}

static int
h_flag(struct pctx *p, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	*((uint8_t *)p->cfg + p->kw->flag_off) = 1;
	return 0;
}

static int
h_launch_num(struct pctx *p, int argc, char **argv)
{
	(void)argc;
	return arg_u32(p, "", argv[0], 1, 1024, &p->cfg->launch_num);
}

static int
h_payload_size(struct pctx *p, int argc, char **argv)
{
	(void)argc;
	return arg_u32(p, "", argv[0], 1, MSS_JUMBO, &p->cfg->payload_size);
}

static int
h_keepalive_interval(struct pctx *p, int argc, char **argv)
{
	(void)argc;
	return arg_time(p, argv[0], 1, 3600 * US_PER_SEC, "1us..1h",
			&p->cfg->keepalive_request_interval_us);
}

static int
h_keepalive_num(struct pctx *p, int argc, char **argv)
{
	(void)argc;
	return arg_u32(p, "", argv[0], 0, 1000000000, &p->cfg->keepalive_request_num);
}

/* "keepalive", or dperf's older "keepalive INTERVAL [NUM]". */
static int
h_keepalive(struct pctx *p, int argc, char **argv)
{
	p->cfg->keepalive = 1;
	if (argc >= 1 && h_keepalive_interval(p, 1, argv) < 0)
		return -1;
	if (argc == 2 && h_keepalive_num(p, 1, argv + 1) < 0)
		return -1;
	return 0;
}

static int
h_pipeline(struct pctx *p, int argc, char **argv)
{
	(void)argc;
	return arg_u32(p, "", argv[0], 1, 64, &p->cfg->pipeline);
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
h_tx_burst(struct pctx *p, int argc, char **argv)
{
	(void)argc;
	return arg_u32(p, "", argv[0], 1, 1024, &p->cfg->tx_burst);
}

/* dperf-live extension: fewer, fuller device calls at high rates. */
static int
h_tx_hold(struct pctx *p, int argc, char **argv)
{
	(void)argc;
	return arg_time(p, argv[0], 0, 1000, "0..1ms", &p->cfg->tx_hold_us);
}

static int
h_slow_start(struct pctx *p, int argc, char **argv)
{
	uint64_t secs = 0, us = 0;

	(void)argc;
	if (arg_seconds(p, argv[0], &secs, &us) < 0)
		return -1;
	if ((us != 0 && secs < 10) || secs > 600)
		return kw_err(p, "%s out of range (expected 10..600 seconds, or 0 to disable)",
			      argv[0]);
	p->cfg->slow_start = (uint32_t)secs;
	return 0;
}

static int
h_wait(struct pctx *p, int argc, char **argv)
{
	uint64_t secs = 0, us = 0;

	(void)argc;
	if (arg_seconds(p, argv[0], &secs, &us) < 0)
		return -1;
	if (secs > 60)
		return kw_err(p, "%s out of range (expected 0..60 seconds)", argv[0]);
	p->cfg->wait = (uint32_t)secs;
	return 0;
}

static int
h_mss(struct pctx *p, int argc, char **argv)
{
	(void)argc;
	return arg_u32(p, "", argv[0], 536, MSS_JUMBO, &p->cfg->mss);
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
h_vlan(struct pctx *p, int argc, char **argv)
{
	(void)argc;
	return arg_u32(p, "", argv[0], 1, 4094, &p->cfg->vlan);
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

static int
h_lport_range(struct pctx *p, int argc, char **argv)
{
	(void)argc;
	if (arg_u32(p, "min", argv[0], 1, 65535, &p->cfg->lport_min) < 0
	    || arg_u32(p, "max", argv[1], 1, 65535, &p->cfg->lport_max) < 0)
		return -1;
	if (p->cfg->lport_min > p->cfg->lport_max)
		return kw_err(p, "min %u above max %u (expected MIN <= MAX)", p->cfg->lport_min,
			      p->cfg->lport_max);
	return 0;
}

static int
h_retransmit_timeout(struct pctx *p, int argc, char **argv)
{
	(void)argc;
	return arg_time(p, argv[0], 10000, 60 * US_PER_SEC, "10ms..60s",
			&p->cfg->retransmit_timeout_us);
}

/* dperf-live extension. At most 500 ms: RFC 1122 4.2.3.2. */
static int
h_delayed_ack(struct pctx *p, int argc, char **argv)
{
	(void)argc;
	return arg_time(p, argv[0], 0, 500000, "0..500ms", &p->cfg->delayed_ack_us);
}

static const struct {
	const char *name;
	uint8_t level;
} log_levels[] = {
	{ "debug", 8 }, { "info", 7 }, { "notice", 6 }, { "warning", 5 }, { "error", 4 },
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

#define FLAG(n, field) { n, h_flag, 0, 0, 0, offsetof(struct dp_config, field), "" }
#define KW(n, fn, lo, hi, syntax) { n, fn, lo, hi, 0, 0, syntax }
#define KW_MULTI(n, fn, lo, hi, syntax) { n, fn, lo, hi, 1, 0, syntax }

static const struct keyword keywords[] = {
	KW("mode", h_mode, 1, 1, "client|server"),
	KW("cpu", h_cpu, 1, MAX_TOKENS, "N [N|N-M ...]"),
	KW("socket_mem", h_socket_mem, 1, 1, "MB[,MB...]"),
	KW_MULTI("port", h_port, 3, 4, "DEV LOCAL_IP GW_IP [GW_MAC]"),
	KW("duration", h_duration, 1, 1, "TIME"),
	KW("cps", h_cps, 1, 1, "NUMBER"),
	KW("cc", h_cc, 1, 1, "NUMBER"),
	FLAG("flood", flood),
	KW("launch_num", h_launch_num, 1, 1, "NUMBER"),
	KW_MULTI("client", h_client, 2, 2, "IP COUNT"),
	KW_MULTI("server", h_server, 2, 2, "IP COUNT"),
	KW("listen", h_listen, 1, 2, "PORT [COUNT]"),
	KW("payload_size", h_payload_size, 1, 1, "NUMBER"),
	FLAG("payload_random", payload_random),
	KW("keepalive", h_keepalive, 0, 2, "[INTERVAL [NUM]]"),
	KW("keepalive_request_interval", h_keepalive_interval, 1, 1, "TIME"),
	KW("keepalive_request_num", h_keepalive_num, 1, 1, "NUMBER"),
	KW("pipeline", h_pipeline, 1, 1, "NUMBER"),
	KW("protocol", h_protocol, 1, 1, "tcp|http|udp"),
	KW("tx_burst", h_tx_burst, 1, 1, "NUMBER"),
	KW("tx_hold", h_tx_hold, 1, 1, "TIME"),
	KW("slow_start", h_slow_start, 1, 1, "SECONDS"),
	KW("wait", h_wait, 1, 1, "SECONDS"),
	KW("mss", h_mss, 1, 1, "NUMBER"),
	KW("tos", h_tos, 1, 1, "NUMBER"),
	KW("vlan", h_vlan, 1, 1, "ID"),
	FLAG("jumbo", jumbo),
	FLAG("rss", rss),
	FLAG("quiet", quiet),
	FLAG("daemon", daemon),
	FLAG("fast_close", fast_close),
	KW("tcp_rst", h_tcp_rst, 1, 1, "0|1"),
	KW("http_host", h_http_host, 1, 1, "HOST"),
	KW("http_path", h_http_path, 1, 1, "/PATH"),
	KW("http_method", h_http_method, 1, 1, "GET|POST"),
	KW("lport_range", h_lport_range, 2, 2, "MIN MAX"),
	KW("retransmit_timeout", h_retransmit_timeout, 1, 1, "TIME"),
	KW("delayed_ack", h_delayed_ack, 1, 1, "TIME"),
	FLAG("disable_ack", disable_ack),
	KW("log_level", h_log_level, 1, 1, "debug|info|notice|warning|error|0..8"),
};

#define N_KEYWORDS (sizeof(keywords) / sizeof(keywords[0]))
_Static_assert(N_KEYWORDS <= MAX_KEYWORDS, "raise MAX_KEYWORDS");

/* dperf keywords this version does not implement. */
static const char *const unsupported[] = {
	"vxlan", "kni", "change_dip", "synflood", "packet_size", "simd512",
	"client_hop", "server_hop", "bond",
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

	for (size_t i = 0; kw == NULL && i < sizeof(unsupported) / sizeof(unsupported[0]); i++)
		if (strcmp(tok[0], unsupported[i]) == 0)
			return err_at(p, p->line, tok[0],
				      "not supported by this version of dperf-live");
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
	return kw->fn(p, argc, tok + 1);
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
	for (uint32_t i = 0; i < cfg->n_servers && !cfg->rss; i++)
		if (cfg->servers[i].num != per_port)
			return err_at(p, cfg->servers[i].line, "server", "%u addresses for %u "
				      "worker cores on this port (expected one server address per "
				      "core, or \"rss\")", cfg->servers[i].num, per_port);
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

static int
v_mode(struct pctx *p)
{
	const struct dp_config *cfg = p->cfg;

	if (v_client_only(p, "cps") < 0 || v_client_only(p, "cc") < 0
	    || v_client_only(p, "flood") < 0)
		return -1;
	if (cfg->mode == DP_MODE_CLIENT && cfg->cps == 0 && !cfg->flood)
		return err_at(p, 0, "cps", "missing (expected \"cps NUMBER\" in mode client, or "
			      "\"flood\")");
	if (cfg->protocol == DP_PROTO_UDP && cfg->cc != 0)
		return err_at(p, line_of(p, "cc"), "cc", "not with protocol udp (expected no "
			      "\"cc\" line, or protocol tcp/http)");
	return 0;
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
	if (cfg->payload_size > mtu_mss)
		return err_at(p, line, "payload_size", "%u needs jumbo frames (expected at most "
			      "%u, or \"jumbo\")", cfg->payload_size, MSS_STD);
	if (cfg->payload_size > cfg->mss)
		return err_at(p, line, "payload_size", "%u is larger than mss %u (expected at "
			      "most mss: messages are single packets)", cfg->payload_size, cfg->mss);
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
	if (line == 0 && cfg->delayed_ack_us >= cfg->retransmit_timeout_us)
		cfg->delayed_ack_us = cfg->retransmit_timeout_us / 2;
	if (cfg->delayed_ack_us >= cfg->retransmit_timeout_us)
		return err_at(p, line, "delayed_ack", "%llu ms is not below "
			      "retransmit_timeout (expected less than %llu ms)",
			      (unsigned long long)cfg->delayed_ack_us / 1000,
			      (unsigned long long)cfg->retransmit_timeout_us / 1000);
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
	if (v_cores(p) < 0 || v_mode(p) < 0 || v_sizes(p) < 0 || v_delayed_ack(p) < 0)
		return -1;
	return 0;
}

/* ---- API ---- */

void
dp_config_defaults(struct dp_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->listen_port = 80;
	cfg->listen_num = 1;
	cfg->duration_us = 100 * US_PER_SEC;
	cfg->tcp_rst = 1;
	cfg->log_level = 7; /* RTE_LOG_INFO */
	cfg->protocol = DP_PROTO_TCP;
	cfg->http_method = DP_HTTP_GET;
	cfg->launch_num = 4;
	cfg->keepalive_request_interval_us = US_PER_SEC;
	cfg->pipeline = 1;
	cfg->tx_burst = 8;
	cfg->slow_start = 30;
	cfg->wait = 3;
	cfg->mss = MSS_STD;
	cfg->lport_min = 1;
	cfg->lport_max = 65535;
	cfg->retransmit_timeout_us = 2 * US_PER_SEC;
	/* 40 ms, Linux's shortest delayed-ACK time: below the 200 ms minimum
	 * RTO of a kernel peer, so a held ACK never causes a retransmission,
	 * and long enough for a keepalive request every few ms to carry it. */
	cfg->delayed_ack_us = 40000;
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

static const char *
fmt_time(uint64_t us, char *buf, size_t len)
{
	if (us % US_PER_SEC == 0)
		snprintf(buf, len, "%llus", (unsigned long long)(us / US_PER_SEC));
	else if (us % 1000 == 0)
		snprintf(buf, len, "%llums", (unsigned long long)(us / 1000));
	else
		snprintf(buf, len, "%lluus", (unsigned long long)us);
	return buf;
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
}

static void
dump_load(struct out *o, const struct dp_config *cfg)
{
	static const char *const protos[] = { "tcp", "http", "udp" };
	char t[32];

	put(o, "duration %s\n", fmt_time(cfg->duration_us, t, sizeof(t)));
	if (cfg->cps != 0)
		put(o, "cps %llu\n", (unsigned long long)cfg->cps);
	if (cfg->cc != 0)
		put(o, "cc %llu\n", (unsigned long long)cfg->cc);
	put(o, "launch_num %u\n", cfg->launch_num);
	put(o, "protocol %s\n", protos[cfg->protocol]);
	if (cfg->payload_size != 0)
		put(o, "payload_size %u\n", cfg->payload_size);
	put(o, "keepalive_request_interval %s\n",
	    fmt_time(cfg->keepalive_request_interval_us, t, sizeof(t)));
	put(o, "keepalive_request_num %u\n", cfg->keepalive_request_num);
	put(o, "pipeline %u\n", cfg->pipeline);
	put(o, "tx_burst %u\n", cfg->tx_burst);
	if (cfg->tx_hold_us)
		put(o, "tx_hold %s\n", fmt_time(cfg->tx_hold_us, t, sizeof(t)));
	put(o, "slow_start %u\n", cfg->slow_start);
	put(o, "wait %u\n", cfg->wait);
	put(o, "mss %u\n", cfg->mss);
	put(o, "tos 0x%02x\n", cfg->tos);
	if (cfg->vlan != 0)
		put(o, "vlan %u\n", cfg->vlan);
	put(o, "tcp_rst %u\n", cfg->tcp_rst);
	put(o, "lport_range %u %u\n", cfg->lport_min, cfg->lport_max);
	put(o, "retransmit_timeout %s\n", fmt_time(cfg->retransmit_timeout_us, t, sizeof(t)));
	put(o, "delayed_ack %s\n", fmt_time(cfg->delayed_ack_us, t, sizeof(t)));
	if (cfg->disable_ack)
		put(o, "disable_ack\n");
	put(o, "log_level %u\n", cfg->log_level);
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
		if (keywords[i].fn == h_flag
		    && *((const uint8_t *)cfg + keywords[i].flag_off) != 0)
			put(o, "%s\n", keywords[i].name);
	if (cfg->keepalive)
		put(o, "keepalive\n");
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
dp_config_line(const struct dp_config *cfg, const char *keyword)
{
	const struct keyword *kw = find_keyword(keyword);

	return kw ? cfg->kw_line[kw - keywords] : 0;
}
