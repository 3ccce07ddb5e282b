/* SPDX-License-Identifier: BSD-3-Clause
 * The effective configuration: dperf's keywords and meanings.
 *
 * struct dp_config stays in the primary (the secondaries read its dump,
 * the memzone's config_text). The parser (common/config_*.c, one table
 * row per keyword: config_int.h) is pure C: no EAL, testable on its own.
 */
#ifndef DPERF_CONFIG_H
#define DPERF_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#include "numbers.h"

#define DP_MAX_PORTS 4
#define DP_MAX_CPUS 16
#define DP_DEV_LEN 256
#define DP_ERR_LEN 512
/* A server accepts any number of client ranges (dperf: server-cps.conf
 * lists the addresses around its own as two ranges); a client has one
 * range per port. */
#define DP_MAX_CLIENT_RANGES 16
/* Warnings of the parse (deprecated keywords, keywords without effect
 * here), one per line, for the primary to print. */
#define DP_WARN_LEN 512
#define DP_DEFAULT_CPS 1000   /* dperf: a client given cc but no cps */
#define DP_JUMBO_MTU_MIN 9000 /* dperf's range for "jumbo MTU" */
#define DP_JUMBO_MTU_MAX 9710
/* A bonded port (dperf's "bondMODE:POLICY(DEV0,DEV1,...)"): members per
 * bond, modes 0..4 and transmit policies 0..2 as dperf documents them. */
#define DP_BOND_MAX_MEMBERS 8
#define DP_BOND_MODE_MAX 4
#define DP_BOND_POLICY_MAX 2

/* The longest duration: the workers' clock is 32-bit milliseconds
 * (primary/engine: now_ms wraps after 49.7 days), and a run lasts the lead
 * (wait + slow start, at most 660 s) plus the duration. 45 days keeps the
 * whole run inside one turn of that clock; every sum of durations (the
 * parse's, "set duration +T") is checked against it. */
#define DP_DURATION_MAX_US (45ULL * 86400 * 1000000)

enum dp_mode { DP_MODE_NONE = 0, DP_MODE_CLIENT, DP_MODE_SERVER };
/* protocol tcp: dperf's meaning: HTTP messages, raw bytes when
 * payload_size < DP_HTTP_MIN_SIZE. protocol http: always HTTP.
 * Extensions: https, HTTP over TLS; tls, raw TLS records (tls_* keywords). */
enum dp_proto { DP_PROTO_TCP = 0, DP_PROTO_HTTP, DP_PROTO_UDP, DP_PROTO_HTTPS, DP_PROTO_TLS };
#define DP_PROTO_IS_TLS(p) ((p) == DP_PROTO_HTTPS || (p) == DP_PROTO_TLS)
/* tls_groups unset: the key exchange pinned to X25519 (P-256 listed for
 * an ECDSA P-256 certificate in TLS 1.2: primary/tls/tls_ctx.h says why). */
#define DP_TLS_GROUPS_DEFAULT "X25519:P-256"
/* tls_resume: a client's way of resuming; a server's ways it offers. */
enum dp_tls_resume { DP_TLS_RESUME_NONE = 0, DP_TLS_RESUME_TICKETS, DP_TLS_RESUME_IDS };
enum dp_http_method { DP_HTTP_GET = 0, DP_HTTP_POST };

/* dperf: from this size up a message is HTTP with Content-Length size-85. */
#define DP_HTTP_MIN_SIZE 85

struct dp_ip {
	uint8_t family; /* 4 or 6; 0 = unset */
	uint8_t pad[3];
	union {
		uint32_t v4; /* network byte order */
		uint8_t v6[16];
	};
};

struct dp_range {
	struct dp_ip start;
	uint32_t num;
	uint32_t line;
};

struct dp_port_cfg {
	char dev[DP_DEV_LEN]; /* PCI address, vdev string beginning "net_", or a bond */
	struct dp_ip local;
	struct dp_ip gw;
	uint8_t gw_mac[6];
	uint8_t has_gw_mac;
	uint8_t is_vdev;
	uint32_t line;
	/* A bond: dev is "bondMODE:POLICY(DEV0,DEV1,...)" as written, and
	 * member i is dev[member_off[i] .. + member_len[i]) (a PCI address or
	 * a vdev with its arguments). */
	uint8_t is_bond;
	uint8_t bond_mode;   /* DPDK's BONDING_MODE_*: 0 round robin .. 4 802.3ad */
	uint8_t bond_policy; /* DPDK's BALANCE_XMIT_POLICY_*: 0 l2, 1 l23, 2 l34 */
	uint8_t n_members;
	uint16_t member_off[DP_BOND_MAX_MEMBERS];
	uint16_t member_len[DP_BOND_MAX_MEMBERS];
};

/* dperf's "vxlan VNI INNER_SMAC INNER_DMAC VTEP_LOCAL NUM VTEP_REMOTE NUM",
 * one line per port, in port order: everything the port sends is
 * encapsulated (outer addresses: the VTEPs, of the port's family; inner:
 * the client and server ranges, of either family), everything it
 * receives decapsulated. */
#define DP_VXLAN_VNI_MAX 0xffffff
#define DP_VXLAN_PORT 4789
struct dp_vxlan {
	uint32_t vni;           /* 1..DP_VXLAN_VNI_MAX */
	uint8_t inner_smac[6];  /* the inner frames' source MAC (ours) */
	uint8_t inner_dmac[6];  /* and destination (the peer's) */
	struct dp_range vtep_local;  /* one address per worker core of the port */
	struct dp_range vtep_remote; /* one for all, or one per core */
	uint32_t line;
};

/* The largest payload_size: an HTTP response over several segments (its
 * first DP_RSP_STORED bytes in memory once per worker, messages.h). */
#define DP_PAYLOAD_MAX (1u << 30)
/* What of a message is kept in memory (the rest follows messages.h's
 * content rule): a payload_file must fit in it. */
#define DP_PAYLOAD_STORED (64u << 20)
/* Traffic mixes (issue 37, dperf-live's extension): a client's request
 * kinds ("kind" lines), each new connection's kind picked by weight with a
 * seeded generator (primary/state/mix.h), and a server's objects ("object"
 * lines), answered by the request's path. Without them: one kind, dperf's
 * http_path, and one answer for every path, as dperf. */
#define DP_MAX_KINDS 16
#define DP_KIND_NAME_LEN 32   /* a name's bytes, its NUL included */
#define DP_KIND_PATH_LEN 128  /* a kind's or an object's path, its NUL included */
#define DP_KIND_WEIGHT_MAX 1000000
#define DP_MAX_OBJECTS 31 /* an object's code is 5 bits of a request's key (stream_scan.h) */

/* A client's kind of request: "kind NAME WEIGHT PATH [size N] [keepalive
 * N] [http|https] [server A.B.C.D N]". With its own server pool, worker q
 * of the (one) port sends the kind's connections to the pool's address q,
 * as it sends the others to the server line's address q. */
struct dp_kind {
	char name[DP_KIND_NAME_LEN];
	char path[DP_KIND_PATH_LEN];
	uint32_t weight;        /* 0..DP_KIND_WEIGHT_MAX; 0: never picked (until set weight) */
	uint32_t size;          /* the answer's body expected, bytes (has_size) */
	uint32_t keepalive_num; /* requests per connection (has_keepalive), 0 = no limit */
	uint8_t has_size;
	uint8_t has_keepalive;
	uint8_t proto;          /* enum dp_proto given, or DP_PROTO_TCP when not */
	uint8_t has_proto;
	uint8_t has_srv;        /* its own server pool (srv); else the server line's */
	struct dp_range srv;
	uint32_t line;
};

/* A server's object: "object PATH SIZE" (a body of SIZE filler bytes) or
 * "object PATH file:FILE" (the file's bytes, FILE kept absolute). */
struct dp_object {
	char path[DP_KIND_PATH_LEN];
	char file[DP_DEV_LEN];  /* "" = filler */
	uint32_t size;          /* the body's bytes (Content-Length); a file's size */
	uint32_t line;
};

/* Keywords a configuration may hold (the parser's table). */
#define DP_CFG_MAX_KEYWORDS 80

struct dp_config {
	char file[DP_DEV_LEN];
	/* The first line each keyword was given on (0: not given), for the
	 * rules checked after parsing: see dp_config_line. */
	uint32_t kw_line[DP_CFG_MAX_KEYWORDS];
	enum dp_mode mode;
	uint16_t cpus[DP_MAX_CPUS];
	uint32_t n_cpus;
	char socket_mem[64]; /* "" = not set */
	uint32_t cpu_line, socket_mem_line; /* for host checks' messages (0 = not given) */

	struct dp_port_cfg ports[DP_MAX_PORTS];
	uint32_t n_ports;
	struct dp_range clients[DP_MAX_CLIENT_RANGES];
	uint32_t n_clients;
	struct dp_range servers[DP_MAX_PORTS];
	uint32_t n_servers;
	uint16_t listen_port; /* default 80 */
	uint16_t listen_num;  /* default 1 */

	uint64_t duration_us;  /* at full rate, after wait and slow start; default 60s */
	uint64_t cps;          /* client: default 1000 when only cc is given */
	uint64_t cc;           /* 0 = not set; needs keepalive */
	uint8_t flood;
	uint8_t payload_random;
	uint8_t keepalive;     /* client: keep connections for several requests */
	uint8_t jumbo;
	uint8_t rss;
	uint8_t quiet;
	uint8_t daemon;
	uint8_t tcp_rst;       /* default 1 */
	uint8_t fast_close;
	uint8_t log_level;     /* 0..8 as DPDK's RTE_LOG levels; default 7 (info) */
	uint8_t tos;
	enum dp_proto protocol;
	enum dp_http_method http_method;
	uint32_t launch_num;   /* default 4 */
	uint32_t payload_size; /* 0 = not set (short default messages) */
	/* dperf 1.9: a server may answer with one size per worker core, in the
	 * order of the cpu line; 0 = one size (payload_size) for all. The
	 * largest is in payload_size, for the size checks. */
	uint32_t n_payload_sizes;
	uint32_t payload_sizes[DP_MAX_CPUS];
	uint64_t keepalive_request_interval_us; /* default 1s */
	uint32_t keepalive_request_num;         /* 0 = unlimited */
	uint32_t pipeline;     /* requests in flight per connection, default 1 */
	uint32_t tx_burst;     /* 1..1024, default 8 */
	uint64_t tx_hold_us;   /* a partial TX batch waits up to this long, default 0 */
	uint32_t slow_start;   /* seconds, 10..600, default 30 */
	uint32_t wait;         /* seconds before slow start, default 3 */
	uint32_t mss;          /* default 1460 */
	uint32_t vlan;         /* 0 = no tag, else 1..4094 */
	uint32_t test_rx_drop; /* extension, tests only: drop one received data segment in N (0: none) */
	uint32_t test_tx_drop; /* extension, tests only: drop one sent segment of a long message in N (0: none) */
	uint32_t send_window;  /* 0 = not set, else 2..16 (messages over several segments) */
	uint32_t jumbo_mtu;    /* with jumbo: 9000..9710, default 9000 */
	uint32_t lport_min;    /* default 1 */
	uint32_t lport_max;    /* default 65535 */
	uint64_t retransmit_timeout_us; /* default 2s */
	uint64_t delayed_ack_us; /* extension: longest an ACK waits for data to ride on, 0 = none (40ms) */
	uint8_t disable_ack;     /* dperf: a response's ACK always waits for the next request */
	char http_host[128];   /* default: the server address */
	char http_path[256];   /* default "/" */
	struct dp_ip change_dip; /* flood: destinations change_dip + k * step, k < num */
	uint32_t change_dip_step;
	uint32_t change_dip_num;  /* 0 = not set */
	struct dp_vxlan vxlans[DP_MAX_PORTS]; /* vxlans[i] for ports[i] */
	uint32_t n_vxlans;     /* 0, or n_ports */
	uint8_t clear_screen;  /* clear the terminal before each second's figures */
	uint8_t simd512;       /* accepted for dperf's files; no effect here */
	uint8_t client_hop;    /* client: each launch changes address and port together */
	uint8_t neigh_ignore;  /* ARP requests and NDP solicitations go unanswered */
	char warnings[DP_WARN_LEN]; /* "FILE:LINE: keyword: ..." lines, or "" */
	/* payload_file: the payload's bytes come from this file (absolute
	 * path; "" = none), payload_file_size of them, read again when the
	 * messages are composed (primary/http/messages.c). payload_size is
	 * then the message it makes: the file, plus the 85-byte HTTP head
	 * over TCP. */
	char payload_file[DP_DEV_LEN];
	uint32_t payload_file_size;
	uint8_t flow_isolate;  /* rte_flow isolated mode on every port, with our rules */
	/* TLS (protocol https and tls, extensions): paths kept absolute;
	 * strings "" when not given. tls_version 0: 1.2 and 1.3, else 12 or 13. */
	uint8_t tls_version;
	uint8_t tls_resume;    /* enum dp_tls_resume */
	uint8_t tls_verify;    /* client: check the server's certificate against tls_ca */
	char tls_cert[DP_DEV_LEN];
	char tls_key[DP_DEV_LEN];
	char tls_ca[DP_DEV_LEN];
	char tls_ciphers[256];
	char tls_groups[128];
	char tls_sni[256];
	char tls_alpn[128];
	/* Traffic mixes (above): n_kinds 0 is one kind, dperf's request. */
	struct dp_kind kinds[DP_MAX_KINDS];
	uint32_t n_kinds;
	uint32_t kind_seed;    /* the pick's seed; worker i's generator starts from it and i */
	struct dp_object objects[DP_MAX_OBJECTS];
	uint32_t n_objects;
	/* A protocol https server that also serves plain HTTP on its listen
	 * ports (dperf-live extension, for a client mixing http and https
	 * kinds): a connection whose first byte is not a TLS handshake
	 * record (0x16) is served as protocol http. */
	uint8_t plain_http;
};

/* Fill with dperf's defaults. */
void dp_config_defaults(struct dp_config *cfg);

/* Parse a config file. Returns 0, or -1 with err set to one line
 * "FILE:LINE: keyword: what is wrong (expected ...)". cfg is fully
 * validated (cross-field rules included) when 0 is returned. */
int dp_config_load(const char *path, struct dp_config *cfg, char *err, size_t errlen);

/* Same, from text in memory; name is used in messages in place of FILE. */
int dp_config_parse(const char *name, const char *text, struct dp_config *cfg,
		    char *err, size_t errlen);

/* Render the effective configuration, one keyword per line, in a form
 * dp_config_parse accepts. Returns the length written (truncated at len-1). */
size_t dp_config_dump(const struct dp_config *cfg, char *buf, size_t len);

/* Every keyword with its arguments, range and default, then the dperf
 * keywords this version refuses and why: one entry per keyword, for
 * "dperf -k". Returns the length written (truncated at len-1). */
size_t dp_config_keywords(char *buf, size_t len);

/* "198.18.0.1" or an IPv6 address. Returns 0 or -1. */
int dp_parse_ip(const char *s, struct dp_ip *ip);

/* Format an address into buf (at least 46 bytes). Returns buf. */
const char *dp_ip_str(const struct dp_ip *ip, char *buf, size_t len);

/* Helpers for the engine: the i-th address of a range (last bytes incremented). */
struct dp_ip dp_range_addr(const struct dp_range *r, uint32_t i);

/* Seconds before the full rate: a client's wait + slow_start (dperf's
 * run is wait, slow start, then duration); 0 on a server. */
uint32_t dp_config_lead_s(const struct dp_config *cfg);

/* The line keyword was first given on in cfg's file, 0 when it was not. */
uint32_t dp_config_line(const struct dp_config *cfg, const char *keyword);

/* The ethdev name EAL gives a device string (a PCI address or a vdev with
 * arguments, n bytes of it): "0000:bb:dd.f" or the vdev's name before its
 * first comma. */
void dp_dev_name(const char *dev, size_t n, char *out, size_t len);

/* The ethdev name of port i: its device's, or "net_bondingI" for a bond
 * (dperf's name). */
void dp_port_name(const struct dp_config *cfg, uint32_t i, char *out, size_t len);

/* Parse dperf's bond syntax "bondMODE:POLICY(DEV0,DEV1,...)" into pc (dev
 * is copied). A member is a PCI address or a vdev, whose "key=value"
 * arguments follow it after commas: "bond0:2(net_af_packet0,iface=a,
 * net_af_packet1,iface=b)". Returns 0, or -1 with why set to "what is
 * wrong (expected ...)". */
int dp_bond_parse(const char *s, struct dp_port_cfg *pc, char *why, size_t whylen);

/* "0000:01:00.0" or "01:00.0" (n bytes of s). */
int dp_is_pci_addr(const char *s, size_t n);

/* Total number of client connection slots per worker (tuples). */
uint64_t dp_config_tuple_space(const struct dp_config *cfg);

#endif
