/* SPDX-License-Identifier: BSD-3-Clause */
#define _GNU_SOURCE /* memmem */
#include <stdio.h>
#include <string.h>

#include "http/messages.h"

const char msg_bad_request[] =
	"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
_Static_assert(sizeof(msg_bad_request) - 1 == MSG_BAD_REQUEST_LEN, "MSG_BAD_REQUEST_LEN");

/* The length of a response's head, its blank line included. */
static uint32_t
head_len(const uint8_t *p, uint32_t len)
{
	const uint8_t *e = memmem(p, len, "\r\n\r\n", 4);

	return e ? (uint32_t)(e + 4 - p) : len;
}

/* The keyword a message that does not fit is blamed on: pipeline when
 * given (its copies are what overflow), else the size, else mss. */
static const char *
blame(const struct dp_config *cfg)
{
	if (cfg->pipeline > 1)
		return "pipeline";
	if (dp_config_line(cfg, "payload_size") != 0 || dp_config_line(cfg, "mss") == 0)
		return "payload_size";
	return "mss";
}

void
msg_layout(const struct dp_config *cfg, struct msg_layout *l)
{
	size_t cap = DP_MSG_MAX;

	if (cfg->payload_size + (size_t)DP_MSG_MAX > cap)
		cap = cfg->payload_size + (size_t)DP_MSG_MAX; /* the body, and any head */
	l->rsp_cap = cap;
	l->ka = DP_MSG_MAX;
	l->close = l->ka + cap;
	l->sums = (l->close + cap + 3) & ~(size_t)3;
	/* a sum per segment of each response; 536, the least mss */
	l->len = l->sums + 2 * (cap / 536 + 1) * sizeof(uint32_t);
}

int
msg_compose(const struct dp_config *cfg, const struct dp_ip *srv, uint8_t *buf,
	    struct msg_lens *out, const char **kw, char *err, size_t errlen)
{
	uint32_t pipe = cfg->pipeline ? cfg->pipeline : 1, size = cfg->payload_size;
	struct msg_layout l;
	uint8_t *req = buf, *ka, *cl;
	char host[64];

	msg_layout(cfg, &l);
	ka = buf + l.ka;
	cl = buf + l.close;

	memset(out, 0, sizeof(*out));
	out->is_http = (uint8_t)dp_msg_is_http(cfg);
	if (out->is_http) {
		dp_ip_str(srv, host, sizeof(host));
		/* A GET of more than mss: its plain head (the size is the
		 * response's: a request is one segment). */
		out->one = dp_http_request_sized(cfg, cfg->http_host[0] ? NULL : host,
						 size > cfg->mss && cfg->http_method == DP_HTTP_GET ? 0 : size,
						 req, DP_MSG_MAX);
		out->rsp_ka = dp_http_response(cfg, 1, ka, l.rsp_cap);
		out->rsp_close = dp_http_response(cfg, 0, cl, l.rsp_cap);
		out->head_ka = head_len(ka, out->rsp_ka);
		out->head_close = head_len(cl, out->rsp_close);
	} else {
		out->one = dp_raw_message(size, cfg->payload_random, req, DP_MSG_MAX);
		out->rsp_ka = dp_raw_message(size, cfg->payload_random, ka, l.rsp_cap);
		out->rsp_close = out->rsp_ka;
	}
	*kw = blame(cfg);
	if (out->one == 0 || out->one * pipe > DP_MSG_MAX || out->rsp_ka == 0) {
		snprintf(err, errlen, "%u requests of %u bytes do not fit one message (expected at most %d bytes)",
			 pipe, out->one, DP_MSG_MAX);
		return -1;
	}
	for (uint32_t i = 1; i < pipe; i++)
		memcpy(req + i * out->one, req, out->one);
	out->req = out->one * pipe;
	if (out->req > cfg->mss || (out->rsp_ka > cfg->mss && (!out->is_http || pipe > 1 || cfg->protocol == DP_PROTO_UDP))) {
		snprintf(err, errlen,
			 "messages of %u (request%s) and %u (response) bytes exceed mss %u (expected payload_size x pipeline <= mss: a request, a raw TCP or UDP message, and pipelined responses are one segment each)",
			 out->req, pipe > 1 ? "s" : "", out->rsp_ka, cfg->mss);
		return -1;
	}
	if (out->rsp_ka > DP_RSP_MAX) {
		snprintf(err, errlen, "responses of %u bytes (expected at most %u)", out->rsp_ka,
			 DP_RSP_MAX);
		return -1;
	}
	return 0;
}
