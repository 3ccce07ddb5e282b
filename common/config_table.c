/* SPDX-License-Identifier: BSD-3-Clause
 * The keyword table: one row per keyword, read by the parser, the
 * defaults (dp_config_defaults), dperf -k and the dump. A row says the
 * keyword's kind, field, range, default (as a file would write it) and
 * help; dperf.conf(5) gives each keyword a line, which `make docs-check`
 * holds to the row's range and default. A keyword the kinds cannot say
 * has a handler here or in config_net.c (and a dump function in
 * config_dump.c); its default and help are still in its row.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "config_err.h"
#include "config_int.h"

/* ---- the handlers' keywords ---- */

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

/* Deprecated in dperf: the frame size, headers included. config_check.c
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
 * one size per worker core (checked against the cores in config_check.c). */
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

/* A path (payload_file, tls_cert, tls_key, tls_ca) into its row's field:
 * kept absolute (a relative one is taken from the current directory, as
 * dperf opens it), checked in config_check.c once the protocol is known
 * (payload_file) or opened at start (the TLS files). */
static int
h_path(struct pctx *p, int argc, char **argv)
{
	char cwd[DP_DEV_LEN], *dst = (char *)p->cfg + p->kw->off;
	size_t size = p->kw->size;
	int n;

	(void)argc;
	if (argv[0][0] == '/')
		n = snprintf(dst, size, "%s", argv[0]);
	else if (getcwd(cwd, sizeof(cwd)) == NULL)
		return kw_err(p, "%s: cannot resolve a relative path: %s (expected an absolute path)",
			      argv[0], strerror(errno));
	else
		n = snprintf(dst, size, "%s/%s", cwd, argv[0]);
	if (n < 0 || (size_t)n >= size)
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

/* ---- the table ---- */

#define FIELD(f) .off = offsetof(struct dp_config, f), .size = sizeof(((struct dp_config *)0)->f)
/* A handler's keyword: lo..hi arguments; d its default as a file writes it (or NULL). */
#define FN(n, fn_, dump_, lo, hi, syn, d, h) \
	{ .name = n, .fn = fn_, .dump_fn = dump_, .kind = K_FN, .min_args = lo, .max_args = hi, \
	  .syntax = syn, .def = d, .help = h }
#define FN_MULTI(n, fn_, dump_, lo, hi, syn, h) \
	{ .name = n, .fn = fn_, .dump_fn = dump_, .kind = K_FN, .min_args = lo, .max_args = hi, \
	  .multi = 1, .syntax = syn, .help = h }
#define FLAG(n, f, h) { .name = n, .kind = K_FLAG, FIELD(f), .syntax = "", .help = h }
/* One of the words w ("a|b"), stored as first + its index. */
#define ENUM(n, f, w, first, d, noun_, h) \
	{ .name = n, .kind = K_ENUM, .min_args = 1, .max_args = 1, FIELD(f), .min = first, \
	  .syntax = w, .def = d, .noun = noun_, .help = h }
/* A value: one argument of kind k into field f, range lo..hi, default d
 * (text), written by the dump as dm says; h says what it does, dt the
 * default in words when d alone would mislead. */
#define VAL(n, k, f, lo, hi, d, dm, syn, h, dt) \
	{ .name = n, .kind = k, .dump = dm, .min_args = 1, .max_args = 1, FIELD(f), .min = lo, \
	  .max = hi, .def = d, .syntax = syn, .help = h, .def_text = dt }
#define NUM(n, f, lo, hi, d, dm, h, dt) VAL(n, K_NUM, f, lo, hi, d, dm, "NUMBER", h, dt)
#define TIME(n, f, lo, hi, d, dm, h, dt) VAL(n, K_TIME, f, lo, hi, d, dm, "TIME", h, dt)
/* dperf-live's TLS keywords: a path (h_path), text. */
#define TLS_PATH(n, f, h) \
	{ .name = n, .fn = h_path, .kind = K_STR, .dump = D_NONZERO, FIELD(f), .min_args = 1, \
	  .max_args = 1, .syntax = "PATH", .def_text = "none", .help = h }
/* An ENUM whose first word (0) is the default, not written by the dump. */
#define TLS_ENUM(n, f, w, d, noun_, h) \
	{ .name = n, .kind = K_ENUM, .dump = D_NONZERO, .min_args = 1, .max_args = 1, FIELD(f), \
	  .syntax = w, .def = d, .noun = noun_, .help = h }
#define TLS_STR(n, f, syn, h, dt) \
	{ .name = n, .kind = K_STR, .dump = D_NONZERO, .min_args = 1, .max_args = 1, FIELD(f), \
	  .syntax = syn, .help = h, .def_text = dt }
#define MS 1000ULL
#define S US_PER_SEC

/* Numbers take dperf's syntax (100, 2k, 1.5m), times 100s, 3.5m, 10ms, 100us. */
const struct keyword dp_keywords[] = {
	ENUM("mode", mode, "client|server", DP_MODE_CLIENT, NULL, "mode", "required"),
	FN("cpu", h_cpu, dump_cpu, 1, CFG_MAX_TOKENS, "N [N|N-M ...]", NULL, "required; cores "
	   "0..1023, at most 16, a multiple of the number of ports"),
	{ .name = "socket_mem", .fn = h_socket_mem, .dump_fn = dump_socket_mem, .min_args = 1,
	  .max_args = 1, .syntax = "MB[,MB...]", .help = "EAL --socket-mem", .def_text = "none" },
	FN_MULTI("port", h_port, dump_ports, 3, 4, "DEV LOCAL_IP GW_IP [GW_MAC]", "1..4 lines; DEV "
		 "a PCI address, a vdev (net_memif0,..., net_tap0,...) or a bond "
		 "bondMODE:POLICY(DEV0,DEV1,...), MODE 0..4, POLICY 0..2 (l2, l23, l34)"),
	TIME("duration", duration_us, 1, DP_DURATION_MAX_US, "60s", D_ALWAYS,
	     "at full rate, after wait and slow_start", NULL),
	NUM("cps", cps, 1, UINT32_MAX, NULL, D_NONZERO, "client", "1000 when only cc is given"),
	NUM("cc", cc, 1, UINT32_MAX, NULL, D_NONZERO, "client, with keepalive", "none"),
	FLAG("flood", flood, "client: packets without connections"),
	NUM("launch_num", launch_num, 1, 1024, "4", D_ALWAYS, "connections launched at a time", NULL),
	FN_MULTI("client", h_client, dump_clients, 2, 2, "IP COUNT", "COUNT 1..254, last byte "
		 "varies; one line per port on a client, any number (up to 16) on a server"),
	FN_MULTI("server", h_server, dump_servers, 2, 2, "IP COUNT", "COUNT 1..254; one line per "
		 "port, one address per core unless rss; dperf-live: a server with one port up "
		 "to 4, its pools"),
	FN("listen", h_listen, dump_listen, 1, 2, "PORT [COUNT]", "80 1",
	   "PORT 1..65535, COUNT 1..65535"),
	{ .name = "payload_size", .fn = h_payload_size, .dump_fn = dump_payload_size,
	  .min_args = 1, .max_args = DP_MAX_CPUS, .syntax = "NUMBER [NUMBER ...]",
	  .def_text = "unset: short messages", .help = "1..1g; an HTTP response (and a POST up to "
	  "64m) above mss goes out over several segments, a GET or a raw/UDP message is one; "
	  "below 85 raw bytes with protocol tcp; a server may give one per core" },
	FLAG("payload_random", payload_random, "random letters in payloads"),
	{ .name = "payload_file", .fn = h_path, .dump_fn = dump_payload_file, .kind = K_STR,
	  FIELD(payload_file), .min_args = 1, .max_args = 1, .syntax = "PATH", .def_text = "none", .help = "the "
	  "payload is the file's bytes: an HTTP body (Content-Length the file's size) over TCP, "
	  "the whole datagram over UDP; 1 byte..64m less 85 (UDP: up to mss); not with "
	  "payload_size, packet_size or payload_random; a relative PATH is from the current "
	  "directory" },
	FN("keepalive", h_keepalive, dump_keepalive, 0, 2, "[INTERVAL [NUM]]", NULL, "INTERVAL "
	   "as keepalive_request_interval, NUM as keepalive_request_num"),
	{ .name = "keepalive_request_interval", .fn = h_keepalive_interval,
	  .dump_fn = dump_keepalive_interval, .kind = K_TIME, .min_args = 1, .max_args = 1,
	  FIELD(keepalive_request_interval_us), .min = 0, .max = 3600 * S, .def = "1s",
	  .syntax = "TIME", .help = "turns keepalive on" },
	NUM("keepalive_request_num", keepalive_request_num, 0, 1000000000, "0", D_ALWAYS,
	    "requests per connection, 0 = no limit", NULL),
	NUM("pipeline", pipeline, 1, 64, "1", D_ALWAYS, "requests in flight per connection", NULL),
	ENUM("protocol", protocol, "tcp|http|udp|https|tls", DP_PROTO_TCP, "tcp", "protocol",
	     "udp with cc and keepalive: cc / interval datagrams per second; https (HTTP over "
	     "TLS) and tls (raw TLS records): dperf-live, with the tls_* keywords"),
	/* TLS: dperf-live's (issue 28); the files are opened, and the names
	 * OpenSSL takes checked, when the test starts. */
	TLS_PATH("tls_cert", tls_cert, "server: the certificate (PEM, its chain after it)"),
	TLS_PATH("tls_key", tls_key, "server: the certificate's private key (PEM)"),
	ENUM("tls_version", tls_version, "1.2|1.3", 12, NULL, "version",
	     "only this TLS version; unset: 1.2 and 1.3"),
	TLS_STR("tls_ciphers", tls_ciphers, "LIST", "OpenSSL's names, ':'-separated: TLS_* are "
		"TLS 1.3 suites, the others TLS 1.2 ciphers", "OpenSSL's"),
	TLS_STR("tls_groups", tls_groups, "LIST", "key exchange groups, ':'-separated, the first "
		"the client's key share", DP_TLS_GROUPS_DEFAULT),
	TLS_ENUM("tls_resume", tls_resume, "none|tickets|ids", "none", "way",
	     "client: resume the last session with tickets or session IDs; server: what it "
	     "offers (tickets: both)"),
	TLS_STR("tls_sni", tls_sni, "HOST", "client: the server name sent (and checked with "
		"tls_verify 1)", "none"),
	TLS_STR("tls_alpn", tls_alpn, "LIST", "protocols, ','-separated, e.g. http/1.1; a server "
		"refuses a client with none in common", "none"),
	TLS_ENUM("tls_verify", tls_verify, "0|1", "0", NULL,
	     "client: 1 checks the server's certificate against tls_ca"),
	TLS_PATH("tls_ca", tls_ca, "client: the certificates trusted with tls_verify 1 (PEM)"),
	NUM("tx_burst", tx_burst, 1, 1024, "8", D_ALWAYS, "packets per device call", NULL),
	TIME("tx_hold", tx_hold_us, 0, 1 * MS, "0", D_NONZERO,
	     "dperf-live: a partial TX batch waits up to this long", NULL),
	{ .name = "slow_start", .kind = K_SECS, .dump = D_ALWAYS, .min_args = 1, .max_args = 1,
	  FIELD(slow_start), .min = 10, .max = 600, .zero_ok = 1, .def = "30",
	  .syntax = "SECONDS", .help = "client; 0 (dperf-live) for none" },
	VAL("wait", K_SECS, wait, 0, 60, "3", D_ALWAYS, "SECONDS", "client", NULL),
	NUM("mss", mss, 536, MSS_JUMBO, "1460", D_ALWAYS, "above 1460 with jumbo only", NULL),
	FN("tos", h_tos, dump_tos, 1, 1, "NUMBER", "0", "0..255 or 0x00..0xff"),
	NUM("vlan", vlan, 1, 4094, NULL, D_NONZERO, "802.1Q tag", "none"),
	FN_MULTI("vxlan", h_vxlan, dump_vxlans, 7, 7, "VNI INNER_SMAC INNER_DMAC VTEP_LOCAL NUM "
		 "VTEP_REMOTE NUM", "one line per port, in port order: VNI 1..16777215; VTEPs of "
		 "the port's address family, NUM local = the port's worker cores, NUM remote 1 or "
		 "the same; not with vlan"),
	FN("jumbo", h_jumbo, dump_jumbo, 0, 1, "[MTU]", NULL, "MTU 9000..9710; default 9000"),
	FN("rss", h_rss, dump_rss, 0, 2, "[l3 [mq_rx_rss]]", NULL, "spread flows over a port's "
	   "cores by an IP address hash (dperf's l3); l3l4 and auto are refused"),
	FLAG("quiet", quiet, "no per-second output"),
	FLAG("daemon", daemon, "run in the background, output in /var/log/dperf"),
	FLAG("fast_close", fast_close, "client: close with RST after the response"),
	ENUM("tcp_rst", tcp_rst, "0|1", 0, "1", NULL, "answer unknown segments with RST"),
	{ .name = "http_host", .kind = K_STR, .dump = D_NONZERO, .min_args = 1, .max_args = 1,
	  FIELD(http_host), .noun = "host", .syntax = "HOST", .def_text = "the server address",
	  .help = "the requests' Host" },
	{ .name = "http_path", .kind = K_STR, .min_args = 1, .max_args = 1, FIELD(http_path),
	  .slash = 1, .noun = "path", .syntax = "/PATH", .def = "/", .help = "the requests' path" },
	{ .name = "http_method", .kind = K_ENUM, .min_args = 1, .max_args = 1, FIELD(http_method),
	  .min = DP_HTTP_GET, .nocase = 1, .noun = "method", .syntax = "GET|POST", .def = "GET",
	  .help = "the requests' method" },
	FN("client_port_range", h_client_port_range, dump_client_port_range, 1, 2, "MIN [MAX]",
	   "1 65535", "1..65535"),
	FN("lport_range", h_client_port_range, NULL, 1, 2, "MIN [MAX]",
	   NULL, "deprecated: client_port_range"),
	NUM("send_window", send_window, 2, 16, NULL, D_NONZERO, "at most N segments in flight, "
	    "for messages over several segments; unset, the congestion and peer windows alone", "unset"),
	NUM("test_rx_drop", test_rx_drop, 0, 1000000, "0", D_NONZERO,
	    "dperf-live, for tests only: drop one received TCP segment carrying data in N, "
	    "counted in tcpDrop (loss without a lossy link)", "0 (none)"),
	NUM("test_tx_drop", test_tx_drop, 0, 1000000, "0", D_NONZERO,
	    "dperf-live, for tests only: drop one data segment of a message over several "
	    "segments in N before it leaves (loss toward a kernel peer, whose side "
	    "we cannot make lossy)", "0 (none)"),
	FN("packet_size", h_packet_size, NULL, 1, 1, "NUMBER", NULL, "deprecated: the frame "
	   "size, headers included; becomes payload_size"),
	FN("simd512", h_simd512, dump_simd512, 0, 0, "", NULL, "accepted; no effect in dperf-live"),
	FN("change_dip", h_change_dip, dump_change_dip, 3, 3, "IP STEP NUM", NULL, "client "
	   "with flood: destinations IP + k x STEP, k < NUM; STEP 1..65535, NUM 1..65535, at "
	   "least one per core"),
	FLAG("client_hop", client_hop, "client: each new connection changes both the client "
	     "address and the local port (dperf's meaning); without it the address changes "
	     "first, then the port"),
	FLAG("neigh_ignore", neigh_ignore, "answer no ARP request or IPv6 neighbour "
	     "solicitation (counted in arpDrop); the gateway is still resolved"),
	FLAG("flow_isolate", flow_isolate, "rte_flow isolated mode on every port: only ARP/NDP, "
	     "the port's address and each worker's traffic (rules to its queue) reach dperf; a "
	     "device without it (memif) is refused at start"),
	FLAG("clear_screen", clear_screen, "clear the terminal before each second's figures"),
	TIME("retransmit_timeout", retransmit_timeout_us, 10 * MS, 60 * S, "2s", D_ALWAYS,
	     "the initial retransmission timeout (RFC 6298's RTO before a round trip is measured)",
	     NULL),
	/* 40 ms, Linux's shortest delayed-ACK time: below the 200 ms minimum
	 * RTO of a kernel peer, so a held ACK never causes a retransmission,
	 * and long enough for a keepalive request every few ms to carry it.
	 * At most 500 ms: RFC 1122 4.2.3.2. */
	TIME("delayed_ack", delayed_ack_us, 0, 500 * MS, "40ms", D_ALWAYS,
	     "dperf-live: longest an ACK waits for data to ride on, at most half of "
	     "retransmit_timeout (the default too yields to that half)", NULL),
	FLAG("disable_ack", disable_ack, "a response's ACK always waits for the next request"),
	FN("log_level", h_log_level, dump_log_level, 1, 1, "debug|info|notice|warning|error|0..8",
	   "info", ""),
	/* Traffic mixes (issue 37), dperf-live's: config_mix.c. kind's dump
	 * writes kind_seed with the kinds (a seed alone is refused). */
	FN_MULTI("kind", h_kind, dump_kinds, 3, 11, "NAME WEIGHT PATH [size N] [keepalive N] "
		 "[http|https] [server A.B.C.D N]", "dperf-live, client: a kind of request, 1..16 lines; each new "
		 "connection's kind is picked by WEIGHT (0..1000000, not all 0) with kind_seed; "
		 "NAME 1..31 of [A-Za-z0-9_.-]; PATH at most 127 characters; size the answer's body "
		 "expected, keepalive its requests per connection (with a keepalive line); server "
		 "its own server pool, N addresses as the server line's (one port); not with "
		 "http_path"),
	NUM("kind_seed", kind_seed, 0, UINT32_MAX, "0", D_NEVER, "dperf-live, client with kind "
	    "lines: the seed of the kinds' pick (same seed, same sequence per worker)", NULL),
	FN_MULTI("object", h_object, dump_objects, 2, 2, "PATH SIZE|file:FILE", "dperf-live, "
		 "server: the answer to PATH (at most 127 characters), a body of SIZE bytes "
		 "(0..1g less 85) or FILE's bytes, 1..31 lines; any other path gets 404; not with "
		 "payload_size or payload_file"),
	FLAG("plain_http", plain_http, "dperf-live, server with protocol https: also serve plain "
	     "HTTP on the same ports (a connection whose first byte is not a TLS handshake "
	     "record), for a client mixing http and https kinds"),
};

const size_t dp_n_keywords = sizeof(dp_keywords) / sizeof(dp_keywords[0]);
_Static_assert(sizeof(dp_keywords) / sizeof(dp_keywords[0]) <= DP_CFG_MAX_KEYWORDS,
	       "raise DP_CFG_MAX_KEYWORDS");

/* Accepting one of these and ignoring it would run a different test from
 * the one the file asks for. */
const struct refused_kw dp_refused[] = {
	{ "kni", "KNI was removed from DPDK in 23.11 (expected a net_tap port, or net_virtio_user "
		 "with vhost-net, to reach the kernel: see conf/kni-replacement-server.conf)" },
	{ "synflood", "not supported by this version of dperf-live" },
	{ "server_hop", "not supported by this version of dperf-live" },
};
const size_t dp_n_refused = sizeof(dp_refused) / sizeof(dp_refused[0]);
