/* SPDX-License-Identifier: BSD-3-Clause
 * The config parser's inside, shared by its phases (not for the engine):
 *
 *   config_table.c  the keyword table: one row per keyword (kind, range,
 *                   default, help, dump), and the handlers of the keywords
 *                   a kind cannot say (config_net.c: devices and addresses)
 *   config_parse.c  the kinds (parse, range check, store), lines, defaults
 *   config_check.c  cross-keyword rules, once every line is read
 *   config_dump.c   the effective configuration and dperf -k, from the rows
 *   config_err.c    the errors and warnings every phase reports (config_err.h)
 *   config_file.c   reading the file, and the phases in order (dp_config_parse)
 *
 * Every error is one line: "FILE:LINE: keyword: what is wrong (expected
 * ...)", or "FILE: keyword: ..." when no line applies (a missing keyword).
 */
#ifndef DPERF_CONFIG_INT_H
#define DPERF_CONFIG_INT_H

#include <stddef.h>
#include <stdint.h>

#include "config.h"

#define CFG_MAX_TOKENS 40
#define US_PER_SEC 1000000ULL
#define MSS_STD 1460
#define MSS_JUMBO 9000

struct pctx;
struct out;
typedef int (*kw_fn)(struct pctx *p, int argc, char **argv);
typedef void (*kw_dump_fn)(struct out *o, const struct dp_config *cfg);

/* What a keyword's value is. A kind is parsed, range-checked, defaulted,
 * described (dperf -k) and dumped by the table alone; K_FN keywords have a
 * handler (and a dump function), which may still store a value of its
 * row's kind (kw_store). */
enum kw_kind {
	K_FN,    /* the handler does everything */
	K_FLAG,  /* no argument: sets a uint8_t to 1 */
	K_ENUM,  /* one of the syntax's words "a|b|c": min + its index, into an enum or uint8_t */
	K_STR,   /* printable text, into a char array (.slash: a path starting with '/') */
	K_NUM,   /* dperf's numbers (100, 2k, 1.5m) into a uint32_t or uint64_t */
	K_TIME,  /* times (100s, 10ms, 3.5m, 100us) in microseconds, a uint64_t */
	K_SECS,  /* whole seconds, given as a number or a time, into a uint32_t */
};
#define K_IS_NUMBER(k) ((k) >= K_NUM)

/* When the dump writes a kind's keyword (a K_FN row: its dump_fn, or nothing). */
enum kw_dump { D_ALWAYS, D_NONZERO, D_NEVER };

struct keyword {
	const char *name;
	kw_fn fn;             /* NULL: the kind parses it */
	kw_dump_fn dump_fn;   /* a handler's keyword: writes its lines; NULL: not dumped */
	uint8_t kind;         /* enum kw_kind */
	uint8_t dump;         /* enum kw_dump, for the kinds */
	uint8_t min_args;
	uint8_t max_args;
	uint8_t multi;        /* may be given on several lines */
	uint8_t zero_ok;      /* K_SECS: 0 allowed below min ("0 to disable") */
	uint8_t nocase;       /* K_ENUM: the words in any case */
	uint8_t slash;        /* K_STR: must start with '/' */
	uint16_t size;        /* the field's bytes */
	size_t off;           /* the dp_config field */
	uint64_t min, max;    /* numbers: the range (us for times, s for K_SECS); K_ENUM: min */
	const char *def;      /* the default as a file writes it, applied by
			       * dp_config_defaults (a handler's too); NULL: zero */
	const char *def_text; /* dperf -k's default in words, when def alone would mislead */
	const char *noun;     /* "bad NOUN ..." in a kind's messages; default "value" */
	const char *syntax;   /* the arguments, shown in "(expected ...)" */
	const char *help;     /* dperf -k (and the man page's line says it at length) */
};

extern const struct keyword dp_keywords[];
extern const size_t dp_n_keywords;

/* dperf keywords this version refuses, each with its reason. */
struct refused_kw {
	const char *name;
	const char *why;
};
extern const struct refused_kw dp_refused[];
extern const size_t dp_n_refused;

struct pctx {
	const char *name;
	uint32_t line;
	const struct keyword *kw;
	struct dp_config *cfg;
	char *err;
	size_t errlen;
	uint32_t kw_line[DP_CFG_MAX_KEYWORDS]; /* first line each keyword was given on */
	uint32_t packet_size;                  /* dperf's deprecated size: turned into payload_size */
};

/* Errors and warnings: config_err.h. */

/* A number in min..max (what names it in the message), or an error. */
int arg_num(struct pctx *p, const char *what, const char *s, uint64_t min, uint64_t max,
	    uint64_t *out);
int arg_u32(struct pctx *p, const char *what, const char *s, uint64_t min, uint64_t max,
	    uint32_t *out);
int arg_ip(struct pctx *p, const char *what, const char *s, struct dp_ip *ip);
int parse_mac(const char *s, uint8_t mac[6]);
uint32_t last_byte(const struct dp_ip *ip);
/* 1 when two ranges share an address. */
int ranges_overlap(const struct dp_range *a, const struct dp_range *b);

/* Parse s as kw's kind, check it, store it in kw's field. */
int kw_store(struct pctx *p, const struct keyword *kw, const char *s);
uint64_t kw_get(const struct dp_config *cfg, const struct keyword *kw);
const struct keyword *find_keyword(const char *name);
/* The line keyword name was first given on in this parse, 0 when not. */
uint32_t line_of(const struct pctx *p, const char *name);

/* A time as the parser reads it back: whole days, hours, s, ms or us. */
const char *fmt_span(uint64_t us, char *buf, size_t len);
/* A number kind's range as its messages and dperf -k say it. */
const char *kw_range(const struct keyword *kw, char *buf, size_t len);

/* Cross-keyword rules (config_check.c); 0 or -1 with the error set. */
int config_check(struct pctx *p);
/* One line of the file, len bytes at start (config_parse.c); 0 or -1 with
 * the error set. */
int parse_line(struct pctx *p, const char *start, size_t len);

/* The dump's output (config_dump.c), and what the handlers' rows write. */
struct out {
	char *buf;
	size_t len;
	size_t pos; /* as if unlimited */
};
void put(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void dump_cpu(struct out *o, const struct dp_config *cfg);
void dump_socket_mem(struct out *o, const struct dp_config *cfg);
void dump_ports(struct out *o, const struct dp_config *cfg);
void dump_clients(struct out *o, const struct dp_config *cfg);
void dump_servers(struct out *o, const struct dp_config *cfg);
void dump_listen(struct out *o, const struct dp_config *cfg);
void dump_payload_size(struct out *o, const struct dp_config *cfg);
void dump_payload_file(struct out *o, const struct dp_config *cfg);
void dump_keepalive(struct out *o, const struct dp_config *cfg);
void dump_keepalive_interval(struct out *o, const struct dp_config *cfg);
void dump_tos(struct out *o, const struct dp_config *cfg);
void dump_vxlans(struct out *o, const struct dp_config *cfg);
void dump_jumbo(struct out *o, const struct dp_config *cfg);
void dump_rss(struct out *o, const struct dp_config *cfg);
void dump_client_port_range(struct out *o, const struct dp_config *cfg);
void dump_simd512(struct out *o, const struct dp_config *cfg);
void dump_change_dip(struct out *o, const struct dp_config *cfg);
void dump_log_level(struct out *o, const struct dp_config *cfg);
void dump_kinds(struct out *o, const struct dp_config *cfg);
void dump_objects(struct out *o, const struct dp_config *cfg);

/* The handlers of config_net.c: cores, devices, address ranges, tunnels. */
int h_cpu(struct pctx *p, int argc, char **argv);
int h_port(struct pctx *p, int argc, char **argv);
int h_client(struct pctx *p, int argc, char **argv);
int h_server(struct pctx *p, int argc, char **argv);
int h_change_dip(struct pctx *p, int argc, char **argv);
int h_vxlan(struct pctx *p, int argc, char **argv);
int h_rss(struct pctx *p, int argc, char **argv);
int h_jumbo(struct pctx *p, int argc, char **argv);

/* Traffic mixes (config_mix.c): kind and object lines, and their rules
 * once every line is read (called by config_check). */
int h_kind(struct pctx *p, int argc, char **argv);
int h_object(struct pctx *p, int argc, char **argv);
int mix_check(struct pctx *p);

#endif
