/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "control/config_rules.h"
#include "control/control.h"
#include "http/messages.h"
#include "tls/tls_plan.h"

static int __attribute__((format(printf, 6, 7)))
rules_err(const struct dp_config *cfg, uint32_t line, const char *kw, char *err, size_t errlen,
	  const char *fmt, ...)
{
	char msg[DP_ERR_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (line)
		snprintf(err, errlen, "%s:%u: %s: %s", cfg->file, line, kw, msg);
	else
		snprintf(err, errlen, "%s: %s: %s", cfg->file, kw, msg);
	return -1;
}

/* What the workers can launch and hold: control_limits_init, the function
 * dperf-ctl's requests are judged by. */
static int
rule_limits(const struct dp_config *cfg, char *err, size_t errlen)
{
	struct control_limits lim;
	char why[256];

	control_limits_init(&lim, cfg);
	if (cfg->mode != DP_MODE_CLIENT)
		return 0;
	if (control_limit_check(&lim, DP_OP_SET_CPS, cfg->cps, why, sizeof(why)) != 0)
		return rules_err(cfg, dp_config_line(cfg, "cps"), "cps", err, errlen, "%s", why);
	if (cfg->cc && control_limit_check(&lim, DP_OP_SET_CC, cfg->cc, why, sizeof(why)) != 0)
		return rules_err(cfg, dp_config_line(cfg, "cc"), "cc", err, errlen, "%s", why);
	return 0;
}

/* Over TLS a message's records are held whole until the peer acknowledges
 * them (tls/tls_plan.h): a message whose records may be more than
 * TLS_OUT_MAX is refused here, not failed at its first write (issue 38).
 * what: "an answer", "a request". */
static int
tls_fits(const struct dp_config *cfg, uint32_t len, const char *what, char *why, size_t whylen)
{
	if (!DP_PROTO_IS_TLS(cfg->protocol) || tls_msg_hold_max(len) <= TLS_OUT_MAX)
		return 0;
	snprintf(why, whylen, "%s of %u bytes over TLS takes up to %llu bytes of records, more than "
		 "a TLS connection holds unacknowledged (TLS_OUT_MAX, %u bytes) (expected messages of at "
		 "most %u bytes over TLS)", what, len, (unsigned long long)tls_msg_hold_max(len),
		 TLS_OUT_MAX, tls_msg_max());
	return -1;
}

/* Every worker's messages fit one segment (each worker names its own
 * server address in the HTTP Host header, so each is composed). */
static int
rule_messages(const struct dp_config *cfg, char *err, size_t errlen)
{
	uint32_t per_port = cfg->n_ports ? cfg->n_cpus / cfg->n_ports : 0;
	struct msg_layout l;
	uint8_t *buf;
	char why[DP_ERR_LEN];
	struct msg_lens ml;
	const char *kw;
	int rc = 0;

	msg_layout(cfg, &l);
	buf = malloc(l.len);
	if (buf == NULL)
		return rules_err(cfg, 0, "payload_size", err, errlen, "out of memory");
	for (uint32_t j = 0; j < cfg->n_objects && rc == 0; j++) {
		uint32_t lens[4];

		if (msg_compose_object(cfg, j, buf, lens, why, sizeof(why)) != 0)
			rc = rules_err(cfg, cfg->objects[j].line, "object", err, errlen, "%s", why);
		else if (tls_fits(cfg, lens[0] > lens[1] ? lens[0] : lens[1], "an answer", why, sizeof(why)) != 0)
			rc = rules_err(cfg, cfg->objects[j].line, "object", err, errlen, "%s: %s",
				       cfg->objects[j].path, why);
	}
	for (uint32_t p = 0; p < cfg->n_servers && rc == 0; p++)
		for (uint32_t q = 0; q < per_port && rc == 0; q++) {
			struct dp_ip srv = dp_range_addr(&cfg->servers[p], q);
			if (msg_compose(cfg, &srv, buf, &ml, &kw, why, sizeof(why)) != 0)
				rc = rules_err(cfg, dp_config_line(cfg, kw), kw, err, errlen, "%s", why);
			else if (cfg->mode == DP_MODE_CLIENT ? tls_fits(cfg, ml.req, "a request", why, sizeof(why))
							     : tls_fits(cfg, ml.rsp_ka > ml.rsp_close ? ml.rsp_ka : ml.rsp_close,
									"an answer", why, sizeof(why)))
				rc = rules_err(cfg, dp_config_line(cfg, "payload_size"), "payload_size", err, errlen,
					       "%s", why);
			for (uint32_t k = 0; k < cfg->n_kinds && rc == 0; k++) {
				/* as worker_kind_msgs: a kind's own pool names its Host */
				struct dp_ip ks = cfg->kinds[k].has_srv
							  ? dp_range_addr(&cfg->kinds[k].srv, q) : srv;

				if (msg_compose_kind(cfg, &ks, k, buf, why, sizeof(why)) == 0)
					rc = rules_err(cfg, cfg->kinds[k].line, "kind", err, errlen, "%s",
						       why);
			}
		}
	free(buf);
	return rc;
}

/* IPv6 tuples carry the last 4 bytes of each address; the first 12 are
 * one prefix per side. */
static int
rule_v6_prefix(const struct dp_config *cfg, char *err, size_t errlen)
{
	if (cfg->n_clients == 0 || cfg->clients[0].start.family != 6)
		return 0;
	for (uint32_t k = 1; k < cfg->n_clients; k++)
		if (memcmp(cfg->clients[k].start.v6, cfg->clients[0].start.v6, 12) != 0)
			return rules_err(cfg, cfg->clients[k].line, "client", err, errlen,
					"IPv6 client ranges must share their first 12 bytes (expected the same /96 prefix as line %u)",
					cfg->clients[0].line);
	return 0;
}

int
config_rules_check(const struct dp_config *cfg, char *err, size_t errlen)
{
	if (rule_v6_prefix(cfg, err, errlen) != 0 || rule_messages(cfg, err, errlen) != 0)
		return -1;
	return rule_limits(cfg, err, errlen);
}
