/* SPDX-License-Identifier: BSD-3-Clause
 * The effective configuration, one keyword per line in the table's order,
 * in a form dp_config_parse reads back to the same struct (a kind's
 * keyword as its row says, a handler's by its row's dump function); and
 * dperf -k, every row's arguments, range, default and help.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "config_int.h"

void
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
put_mac(struct out *o, const uint8_t m[6])
{
	put(o, " %02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2], m[3], m[4], m[5]);
}

static void
put_ranges(struct out *o, const char *kw, const struct dp_range *r, uint32_t n)
{
	char a[64];

	for (uint32_t i = 0; i < n; i++)
		put(o, "%s %s %u\n", kw, dp_ip_str(&r[i].start, a, sizeof(a)), r[i].num);
}

/* ---- the handlers' keywords ---- */

void
dump_cpu(struct out *o, const struct dp_config *cfg)
{
	put(o, "cpu");
	for (uint32_t i = 0; i < cfg->n_cpus; i++)
		put(o, " %u", cfg->cpus[i]);
	put(o, "\n");
}

void
dump_socket_mem(struct out *o, const struct dp_config *cfg)
{
	if (cfg->socket_mem[0] != '\0')
		put(o, "socket_mem %s\n", cfg->socket_mem);
}

void
dump_ports(struct out *o, const struct dp_config *cfg)
{
	char a[64], b[64];

	for (uint32_t i = 0; i < cfg->n_ports; i++) {
		const struct dp_port_cfg *pc = &cfg->ports[i];
		put(o, "port %s %s %s", pc->dev, dp_ip_str(&pc->local, a, sizeof(a)),
		    dp_ip_str(&pc->gw, b, sizeof(b)));
		if (pc->has_gw_mac)
			put_mac(o, pc->gw_mac);
		put(o, "\n");
	}
}

void
dump_clients(struct out *o, const struct dp_config *cfg)
{
	put_ranges(o, "client", cfg->clients, cfg->n_clients);
}

void
dump_servers(struct out *o, const struct dp_config *cfg)
{
	put_ranges(o, "server", cfg->servers, cfg->n_servers);
}

void
dump_listen(struct out *o, const struct dp_config *cfg)
{
	put(o, "listen %u %u\n", cfg->listen_port, cfg->listen_num);
}

void
dump_vxlans(struct out *o, const struct dp_config *cfg)
{
	char a[64];

	for (uint32_t i = 0; i < cfg->n_vxlans; i++) {
		const struct dp_vxlan *vx = &cfg->vxlans[i];

		put(o, "vxlan %u", vx->vni);
		put_mac(o, vx->inner_smac);
		put_mac(o, vx->inner_dmac);
		put(o, " %s %u", dp_ip_str(&vx->vtep_local.start, a, sizeof(a)), vx->vtep_local.num);
		put(o, " %s %u\n", dp_ip_str(&vx->vtep_remote.start, a, sizeof(a)),
		    vx->vtep_remote.num);
	}
}

/* One size per core, or one size unless the file makes it (payload_file's
 * line writes the file; its size comes back with it). */
void
dump_payload_size(struct out *o, const struct dp_config *cfg)
{
	if (cfg->n_payload_sizes != 0) {
		put(o, "payload_size");
		for (uint32_t i = 0; i < cfg->n_payload_sizes; i++)
			put(o, " %u", cfg->payload_sizes[i]);
		put(o, "\n");
	} else if (cfg->payload_file[0] == '\0' && cfg->payload_size != 0) {
		put(o, "payload_size %u\n", cfg->payload_size);
	}
}

void
dump_payload_file(struct out *o, const struct dp_config *cfg)
{
	if (cfg->payload_file[0] != '\0')
		put(o, "payload_file %s\n", cfg->payload_file);
}

void
dump_keepalive(struct out *o, const struct dp_config *cfg)
{
	if (cfg->keepalive)
		put(o, "keepalive\n");
}

/* The interval line turns keepalive on: written only with keepalive. */
void
dump_keepalive_interval(struct out *o, const struct dp_config *cfg)
{
	char t[32];

	if (cfg->keepalive)
		put(o, "keepalive_request_interval %s\n",
		    fmt_span(cfg->keepalive_request_interval_us, t, sizeof(t)));
}

void
dump_tos(struct out *o, const struct dp_config *cfg)
{
	put(o, "tos 0x%02x\n", cfg->tos);
}

void
dump_jumbo(struct out *o, const struct dp_config *cfg)
{
	if (cfg->jumbo)
		put(o, "jumbo %u\n", cfg->jumbo_mtu);
}

void
dump_rss(struct out *o, const struct dp_config *cfg)
{
	if (cfg->rss)
		put(o, "rss\n");
}

void
dump_client_port_range(struct out *o, const struct dp_config *cfg)
{
	put(o, "client_port_range %u %u\n", cfg->lport_min, cfg->lport_max);
}

void
dump_simd512(struct out *o, const struct dp_config *cfg)
{
	if (cfg->simd512)
		put(o, "simd512\n");
}

void
dump_change_dip(struct out *o, const struct dp_config *cfg)
{
	char a[64];

	if (cfg->change_dip_num != 0)
		put(o, "change_dip %s %u %u\n", dp_ip_str(&cfg->change_dip, a, sizeof(a)),
		    cfg->change_dip_step, cfg->change_dip_num);
}

void
dump_log_level(struct out *o, const struct dp_config *cfg)
{
	put(o, "log_level %u\n", cfg->log_level);
}

/* ---- the kinds ---- */

/* The word of a K_ENUM value, or NULL when v is none of them (mode unset). */
static int
enum_word(const struct keyword *kw, uint64_t v, const char **w, int *wl)
{
	const char *s = kw->syntax;

	for (uint64_t i = kw->min; *s != '\0'; i++) {
		size_t n = strcspn(s, "|");

		if (i == v) {
			*w = s;
			*wl = (int)n;
			return 0;
		}
		s += n + (s[n] != '\0');
	}
	return -1;
}

static void
dump_kind(struct out *o, const struct keyword *kw, const struct dp_config *cfg)
{
	const char *text = (const char *)cfg + kw->off, *w;
	uint64_t v = kw->kind == K_STR ? (text[0] != '\0') : kw_get(cfg, kw);
	char t[32];
	int wl;

	if (kw->dump == D_NEVER || (kw->dump == D_NONZERO && v == 0))
		return;
	switch (kw->kind) {
	case K_FLAG:
		if (v != 0)
			put(o, "%s\n", kw->name);
		break;
	case K_ENUM:
		if (enum_word(kw, v, &w, &wl) == 0)
			put(o, "%s %.*s\n", kw->name, wl, w);
		break;
	case K_STR:
		put(o, "%s %s\n", kw->name, text);
		break;
	case K_TIME:
		put(o, "%s %s\n", kw->name, fmt_span(v, t, sizeof(t)));
		break;
	default:
		put(o, "%s %llu\n", kw->name, (unsigned long long)v);
	}
}

size_t
dp_config_dump(const struct dp_config *cfg, char *buf, size_t len)
{
	struct out o = { buf, len, 0 };

	if (len > 0)
		buf[0] = '\0';
	for (size_t i = 0; i < dp_n_keywords; i++) {
		const struct keyword *kw = &dp_keywords[i];

		/* kind lines replace http_path (which the parse refuses with them) */
		if (cfg->n_kinds != 0 && kw->kind == K_STR
		    && kw->off == offsetof(struct dp_config, http_path))
			continue;
		/* a handler that stores its row's kind (h_path) dumps as the kind */
		if (kw->fn == NULL || (kw->dump_fn == NULL && kw->kind == K_STR))
			dump_kind(&o, kw, cfg);
		else if (kw->dump_fn != NULL)
			kw->dump_fn(&o, cfg);
	}
	if (len == 0)
		return 0;
	return o.pos < len ? o.pos : len - 1;
}

/* A row's default as -k says it: in words, or as a file writes it. */
static const char *
kw_default(const struct keyword *kw)
{
	if (kw->def_text != NULL)
		return kw->def_text;
	if (kw->def != NULL)
		return kw->def;
	return K_IS_NUMBER(kw->kind) ? "0" : NULL;
}

size_t
dp_config_keywords(char *buf, size_t len)
{
	struct out o = { buf, len, 0 };

	if (len > 0)
		buf[0] = '\0';
	for (size_t i = 0; i < dp_n_keywords; i++) {
		const struct keyword *kw = &dp_keywords[i];
		const char *def = kw_default(kw);
		char range[64];

		put(&o, "%s%s%s\n    ", kw->name, kw->syntax[0] ? " " : "", kw->syntax);
		if (K_IS_NUMBER(kw->kind)) /* range and default first, then what it does */
			put(&o, "%s; default %s%s%s", kw_range(kw, range, sizeof(range)), def,
			    kw->help[0] ? "; " : "", kw->help);
		else
			put(&o, "%s%s%s%s", kw->help, def && kw->help[0] ? "; " : "",
			    def ? "default " : "", def ? def : "");
		put(&o, "\n");
	}
	for (size_t i = 0; i < dp_n_refused; i++)
		put(&o, "%s\n    refused: %s\n", dp_refused[i].name, dp_refused[i].why);
	if (len == 0)
		return 0;
	return o.pos < len ? o.pos : len - 1;
}
