/* SPDX-License-Identifier: BSD-3-Clause
 * Traffic mixes (issue 37), dperf-live's extension to dperf's files:
 *
 *   kind NAME WEIGHT PATH [size N] [keepalive N] [http|https] [server A.B.C.D N]
 *                                                               (client, 1..16 lines)
 *   kind_seed N                                                 (client, with kind lines)
 *   object PATH SIZE | object PATH file:FILE                    (server, 1..31 lines)
 *   plain_http                                                  (server, protocol https)
 *
 * A kind is a request a client sends on a new connection, picked by
 * weight (primary/state/mix.h); an object is what a server answers for a
 * path, any other path getting a 404. A file without these lines is one
 * kind (dperf's http_path, every connection) and a server answering every
 * path alike, as dperf. A protocol https client may mark kinds http:
 * those connections go plain, to the same server ports; a protocol https
 * server with plain_http serves them (the first byte of a connection
 * says which: tls/tls_tcp.c). The lines' rules that need the whole file (mode,
 * protocol, keepalive) are mix_check's, run with the other cross-keyword
 * rules (config_check.c).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config_err.h"
#include "config_int.h"

/* A name as the outputs show it: a column, a label value, a JSON key. */
static int
name_ok(const char *s)
{
	size_t n = strlen(s);

	return n > 0 && n < DP_KIND_NAME_LEN
	       && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") == n;
}

/* A request line's path: '/' first, printable, no more than the limit. */
static int
arg_path(struct pctx *p, const char *s, char *dst)
{
	size_t n = strlen(s);

	if (s[0] != '/')
		return kw_err(p, "bad path \"%s\" (expected a path starting with '/')", s);
	for (size_t i = 0; i < n; i++)
		if (s[i] <= ' ' || s[i] > '~')
			return kw_err(p, "bad path \"%s\" (expected printable characters, no spaces)", s);
	if (n >= DP_KIND_PATH_LEN)
		return kw_err(p, "path too long, %zu characters (expected at most %d)", n,
			      DP_KIND_PATH_LEN - 1);
	memcpy(dst, s, n + 1);
	return 0;
}

/* "server A.B.C.D N" of a kind line: its own server pool, N consecutive
 * addresses (the last byte varies), as the server line's. */
static int
kind_pool(struct pctx *p, char **argv, struct dp_kind *k)
{
	char buf[64];

	if (arg_ip(p, "server", argv[0], &k->srv.start) < 0
	    || arg_u32(p, "server count", argv[1], 1, 254, &k->srv.num) < 0)
		return -1;
	if (last_byte(&k->srv.start) + k->srv.num - 1 > 255) {
		struct dp_ip end = dp_range_addr(&k->srv, k->srv.num - 1);

		return kw_err(p, "%s: server %s + %u addresses ends at %s (expected the pool to "
			      "vary the last byte only, up to .255)", k->name, argv[0], k->srv.num,
			      dp_ip_str(&end, buf, sizeof(buf)));
	}
	k->srv.line = p->line;
	k->has_srv = 1;
	return 0;
}

/* "kind NAME WEIGHT PATH [size N] [keepalive N] [http|https] [server A N]" */
int
h_kind(struct pctx *p, int argc, char **argv)
{
	struct dp_config *cfg = p->cfg;
	struct dp_kind *k;
	uint64_t v = 0;

	if (cfg->n_kinds == DP_MAX_KINDS)
		return kw_err(p, "too many kinds (expected at most %d \"kind\" lines)", DP_MAX_KINDS);
	if (!name_ok(argv[0]))
		return kw_err(p, "bad name \"%s\" (expected 1..%d letters, digits, '_', '.' or '-')",
			      argv[0], DP_KIND_NAME_LEN - 1);
	if (strcmp(argv[0], "total") == 0)
		return kw_err(p, "bad name \"total\" (expected another name: the outputs' sum of "
			      "the kinds is called total)");
	for (uint32_t i = 0; i < cfg->n_kinds; i++)
		if (strcmp(cfg->kinds[i].name, argv[0]) == 0)
			return kw_err(p, "name \"%s\" given twice, first on line %u (expected one "
				      "line per kind)", argv[0], cfg->kinds[i].line);
	k = &cfg->kinds[cfg->n_kinds];
	memset(k, 0, sizeof(*k));
	snprintf(k->name, sizeof(k->name), "%s", argv[0]);
	k->line = p->line;
	if (arg_num(p, "weight", argv[1], 0, DP_KIND_WEIGHT_MAX, &v) < 0)
		return -1;
	k->weight = (uint32_t)v;
	if (arg_path(p, argv[2], k->path) < 0)
		return -1;
	for (int i = 3; i < argc; i++) {
		const char *o = argv[i];
		int dup;

		if (strcmp(o, "http") == 0 || strcmp(o, "https") == 0) {
			dup = k->has_proto;
			k->has_proto = 1;
			k->proto = o[4] == 's' ? DP_PROTO_HTTPS : DP_PROTO_HTTP;
		} else if (strcmp(o, "size") == 0 || strcmp(o, "keepalive") == 0) {
			int size = o[0] == 's';

			if (i + 1 == argc)
				return kw_err(p, "%s without its number (expected \"%s N\")", o, o);
			dup = size ? k->has_size : k->has_keepalive;
			if (size && arg_num(p, "size", argv[i + 1], 0,
					    DP_PAYLOAD_MAX - DP_HTTP_MIN_SIZE, &v) < 0)
				return -1;
			if (!size && arg_num(p, "keepalive", argv[i + 1], 0, 1000000000, &v) < 0)
				return -1;
			if (size) {
				k->has_size = 1;
				k->size = (uint32_t)v;
			} else {
				k->has_keepalive = 1;
				k->keepalive_num = (uint32_t)v;
			}
			i++;
		} else if (strcmp(o, "server") == 0) {
			if (i + 2 >= argc)
				return kw_err(p, "server without its address and count (expected "
					      "\"server A.B.C.D N\")");
			dup = k->has_srv;
			if (!dup && kind_pool(p, argv + i + 1, k) < 0)
				return -1;
			i += 2;
		} else {
			return kw_err(p, "bad option \"%s\" (expected size N, keepalive N, http, "
				      "https or server A.B.C.D N)", o);
		}
		if (dup)
			return kw_err(p, "option %s given twice (expected each option once)", o);
	}
	for (uint32_t i = 0; i < cfg->n_kinds; i++)
		if (strcmp(cfg->kinds[i].path, k->path) == 0 && cfg->kinds[i].proto == k->proto)
			kw_warn(p, "kind %s asks for the same path as kind %s on line %u (its counts "
				"are still its own)", k->name, cfg->kinds[i].name, cfg->kinds[i].line);
	cfg->n_kinds++;
	return 0;
}

/* "file:FILE": the file's bytes are the body. Kept absolute, checked now
 * (a regular readable file, 1 byte up to what is kept in memory). */
static int
object_file(struct pctx *p, const char *s, struct dp_object *o)
{
	char cwd[DP_DEV_LEN];
	struct stat st;
	int n;

	if (s[0] == '\0')
		return kw_err(p, "file: without a file name (expected file:PATH)");
	if (s[0] == '/')
		n = snprintf(o->file, sizeof(o->file), "%s", s);
	else if (getcwd(cwd, sizeof(cwd)) == NULL)
		return kw_err(p, "%s: cannot resolve a relative path: %s (expected an absolute path)",
			      s, strerror(errno));
	else
		n = snprintf(o->file, sizeof(o->file), "%s/%s", cwd, s);
	if (n < 0 || (size_t)n >= sizeof(o->file))
		return kw_err(p, "file path too long (expected at most %d characters, absolute)",
			      DP_DEV_LEN - 1);
	if (stat(o->file, &st) != 0 || access(o->file, R_OK) != 0)
		return kw_err(p, "%s: cannot read: %s (expected a readable file)", o->file,
			      strerror(errno));
	if (!S_ISREG(st.st_mode))
		return kw_err(p, "%s: not a regular file (expected a file whose bytes are the body)",
			      o->file);
	if (st.st_size == 0)
		return kw_err(p, "%s: empty (expected at least 1 byte, or \"object %s 0\")", o->file,
			      o->path);
	if ((uint64_t)st.st_size > DP_PAYLOAD_STORED - DP_HTTP_MIN_SIZE)
		return kw_err(p, "%s: %llu bytes, too large (expected at most %u, the body of one "
			      "HTTP message kept in memory)", o->file, (unsigned long long)st.st_size,
			      DP_PAYLOAD_STORED - DP_HTTP_MIN_SIZE);
	o->size = (uint32_t)st.st_size;
	return 0;
}

/* "object PATH SIZE" or "object PATH file:FILE" */
int
h_object(struct pctx *p, int argc, char **argv)
{
	struct dp_config *cfg = p->cfg;
	struct dp_object *o;
	uint64_t v = 0;

	(void)argc;
	if (cfg->n_objects == DP_MAX_OBJECTS)
		return kw_err(p, "too many objects (expected at most %d \"object\" lines)",
			      DP_MAX_OBJECTS);
	o = &cfg->objects[cfg->n_objects];
	memset(o, 0, sizeof(*o));
	o->line = p->line;
	if (arg_path(p, argv[0], o->path) < 0)
		return -1;
	for (uint32_t i = 0; i < cfg->n_objects; i++)
		if (strcmp(cfg->objects[i].path, o->path) == 0)
			return kw_err(p, "path %s given twice, first on line %u (expected one object "
				      "per path)", o->path, cfg->objects[i].line);
	if (strncmp(argv[1], "file:", 5) == 0) {
		if (object_file(p, argv[1] + 5, o) < 0)
			return -1;
	} else if (arg_num(p, "size", argv[1], 0, DP_PAYLOAD_MAX - DP_HTTP_MIN_SIZE, &v) < 0) {
		return -1;
	} else {
		o->size = (uint32_t)v;
	}
	cfg->n_objects++;
	return 0;
}

void
dump_kinds(struct out *o, const struct dp_config *cfg)
{
	if (cfg->n_kinds == 0)
		return;
	put(o, "kind_seed %u\n", cfg->kind_seed);
	for (uint32_t i = 0; i < cfg->n_kinds; i++) {
		const struct dp_kind *k = &cfg->kinds[i];

		put(o, "kind %s %u %s", k->name, k->weight, k->path);
		if (k->has_size)
			put(o, " size %u", k->size);
		if (k->has_keepalive)
			put(o, " keepalive %u", k->keepalive_num);
		if (k->has_proto)
			put(o, " %s", k->proto == DP_PROTO_HTTPS ? "https" : "http");
		if (k->has_srv) {
			char buf[64];

			put(o, " server %s %u", dp_ip_str(&k->srv.start, buf, sizeof(buf)),
			    k->srv.num);
		}
		put(o, "\n");
	}
}

void
dump_objects(struct out *o, const struct dp_config *cfg)
{
	for (uint32_t i = 0; i < cfg->n_objects; i++) {
		const struct dp_object *ob = &cfg->objects[i];

		if (ob->file[0] != '\0')
			put(o, "object %s file:%s\n", ob->path, ob->file);
		else
			put(o, "object %s %u\n", ob->path, ob->size);
	}
}

/* HTTP messages: what a kind asks for and an object answers. Mirrors
 * dp_msg_is_http (primary/http/http.c) for the protocols a mix allows. */
static int
mix_http(const struct dp_config *cfg)
{
	if (cfg->protocol == DP_PROTO_HTTP || cfg->protocol == DP_PROTO_HTTPS)
		return 1;
	return cfg->protocol == DP_PROTO_TCP
	       && (cfg->payload_size == 0 || cfg->payload_size >= DP_HTTP_MIN_SIZE);
}

static const char *
proto_name(const struct dp_config *cfg)
{
	static const char *const names[] = { "tcp", "http", "udp", "https", "tls" };

	return names[cfg->protocol];
}

static int
same_range(const struct dp_range *a, const struct dp_range *b)
{
	struct dp_ip x = a->start, y = b->start;

	return a->num == b->num && x.family == y.family
	       && (x.family == 4 ? x.v4 == y.v4 : memcmp(x.v6, y.v6, 16) == 0);
}

/* A kind's own server pool: reached as the server line's (one port, its
 * family, its /96 with IPv6, worker q to address q: as many addresses),
 * and its addresses no one else's. A client worker's tuples differ from
 * the other workers' only by the server address q, so a pool that
 * overlaps another without being the same would send two workers'
 * connections to one server address, where their tuples can collide. */
static int
check_pool(struct pctx *p, const struct dp_kind *k)
{
	const struct dp_config *cfg = p->cfg;
	const struct dp_range *line = &cfg->servers[0];
	const struct dp_range local = { .start = cfg->ports[0].local, .num = 1 };
	char buf[64];

	if (cfg->n_ports != 1)
		return err_at(p, k->line, "kind", "%s: a server pool with %u ports (expected one "
			      "port: worker q sends to the pool's address q)", k->name, cfg->n_ports);
	if (cfg->n_vxlans != 0)
		return err_at(p, k->line, "kind", "%s: a server pool with vxlan (expected the "
			      "server line's addresses only inside VXLAN)", k->name);
	if (k->srv.start.family != line->start.family)
		return err_at(p, k->line, "kind", "%s: IPv%d server pool with an IPv%d server line "
			      "(expected the server line's family)", k->name, k->srv.start.family,
			      line->start.family);
	if (line->start.family == 6 && memcmp(k->srv.start.v6, line->start.v6, 12) != 0)
		return err_at(p, k->line, "kind", "%s: server pool outside the server range's /96 "
			      "(expected the first 12 bytes of line %u's address: tuples carry the "
			      "last 4)", k->name, line->line);
	if (k->srv.num != line->num)
		return err_at(p, k->line, "kind", "%s: server pool of %u addresses, the server line "
			      "on line %u has %u (expected as many: worker q sends to address q of "
			      "each)", k->name, k->srv.num, line->line, line->num);
	if (ranges_overlap(&k->srv, &local))
		return err_at(p, k->line, "kind", "%s: server pool holds the port's address %s "
			      "(expected the server's addresses)", k->name,
			      dp_ip_str(&local.start, buf, sizeof(buf)));
	for (uint32_t i = 0; i < cfg->n_clients; i++)
		if (ranges_overlap(&k->srv, &cfg->clients[i]))
			return err_at(p, k->line, "kind", "%s: server pool overlaps the client range "
				      "on line %u (expected the server's addresses, not ours)", k->name,
				      cfg->clients[i].line);
	if (ranges_overlap(&k->srv, line) && !same_range(&k->srv, line))
		return err_at(p, k->line, "kind", "%s: server pool overlaps the server line on line "
			      "%u (expected the same addresses or none of them: worker q's address "
			      "must be address q of both)", k->name, line->line);
	for (const struct dp_kind *o = cfg->kinds; o < k; o++)
		if (o->has_srv && ranges_overlap(&k->srv, &o->srv) && !same_range(&k->srv, &o->srv))
			return err_at(p, k->line, "kind", "%s: server pool overlaps kind %s's on line "
				      "%u (expected the same addresses or none of them)", k->name,
				      o->name, o->line);
	return 0;
}

static int
check_kinds(struct pctx *p)
{
	const struct dp_config *cfg = p->cfg;
	uint32_t first = cfg->kinds[0].line;
	uint64_t sum = 0;

	if (cfg->mode != DP_MODE_CLIENT)
		return err_at(p, first, "kind", "only for mode client (expected \"object\" lines "
			      "on a server: what it answers for each path)");
	if (cfg->flood)
		return err_at(p, first, "kind", "given with flood on line %u (expected one of them: "
			      "a flood sends no requests)", line_of(p, "flood"));
	if (!mix_http(cfg))
		return err_at(p, first, "kind", "with protocol %s%s (expected HTTP requests: "
			      "protocol http, https, or tcp with a payload_size of at least %d)",
			      proto_name(cfg), cfg->protocol == DP_PROTO_TCP ? " and raw payloads" : "",
			      DP_HTTP_MIN_SIZE);
	if (line_of(p, "http_path") != 0)
		return err_at(p, line_of(p, "http_path"), "http_path", "given with kind lines "
			      "(expected each kind's PATH: http_path is the path of a file without "
			      "kinds)");
	for (uint32_t i = 0; i < cfg->n_kinds; i++) {
		const struct dp_kind *k = &cfg->kinds[i];
		int https = cfg->protocol == DP_PROTO_HTTPS;

		sum += k->weight;
		if (k->has_keepalive && !cfg->keepalive)
			return err_at(p, k->line, "kind", "%s: keepalive %u without keepalive (expected "
				      "a \"keepalive\" line: a kind's keepalive is its requests per "
				      "connection)", k->name, k->keepalive_num);
		/* protocol https: its kinds marked http go plain (a mix of
		 * both); an https kind needs the file's TLS (its tls_* lines) */
		if (k->has_proto && k->proto == DP_PROTO_HTTPS && !https)
			return err_at(p, k->line, "kind", "%s: https with protocol %s (expected "
				      "\"protocol https\" in a file with https kinds: its tls_* lines "
				      "are theirs, and its kinds marked http go plain)", k->name,
				      proto_name(cfg));
		if (k->has_srv && check_pool(p, k) < 0)
			return -1;
	}
	if (sum == 0)
		return err_at(p, first, "kind", "all weights 0 (expected at least one kind with a "
			      "weight above 0)");
	return 0;
}

static int
check_objects(struct pctx *p)
{
	const struct dp_config *cfg = p->cfg;
	uint32_t first = cfg->objects[0].line;
	static const char *const other[] = { "payload_size", "payload_file", "packet_size" };

	if (cfg->mode != DP_MODE_SERVER)
		return err_at(p, first, "object", "only for mode server (expected \"kind\" lines on "
			      "a client: what it asks for)");
	for (size_t i = 0; i < sizeof(other) / sizeof(other[0]); i++)
		if (line_of(p, other[i]) != 0)
			return err_at(p, line_of(p, other[i]), other[i], "given with object lines "
				      "(expected one of them: with objects each path is answered with "
				      "its object, any other with 404)");
	if (!mix_http(cfg))
		return err_at(p, first, "object", "with protocol %s (expected HTTP answers: "
			      "protocol http, https or tcp)", proto_name(cfg));
	return 0;
}

int
mix_check(struct pctx *p)
{
	const struct dp_config *cfg = p->cfg;

	if (cfg->n_kinds == 0 && line_of(p, "kind_seed") != 0)
		return err_at(p, line_of(p, "kind_seed"), "kind_seed", "without kind lines "
			      "(expected \"kind\" lines, whose pick it seeds)");
	if (cfg->n_kinds != 0 && check_kinds(p) < 0)
		return -1;
	if (cfg->n_objects != 0 && check_objects(p) < 0)
		return -1;
	if (cfg->plain_http && cfg->mode != DP_MODE_SERVER)
		return err_at(p, line_of(p, "plain_http"), "plain_http", "only for mode server "
			      "(expected kinds marked http on a client: those go plain)");
	if (cfg->plain_http && cfg->protocol != DP_PROTO_HTTPS)
		return err_at(p, line_of(p, "plain_http"), "plain_http", "with protocol %s "
			      "(expected \"protocol https\": plain_http is the plain HTTP an HTTPS "
			      "server also serves)", proto_name(cfg));
	return 0;
}
