/* SPDX-License-Identifier: BSD-3-Clause
 * The messages a worker sends, composed from the configuration: the
 * request (pipeline copies of one), the keep-alive response and the
 * closing response, and the rule that they fit one segment. Pure code:
 * the config check (config_rules.c) composes them before EAL starts, and
 * worker_setup.c composes the ones it sends.
 */
#ifndef DPERF_MESSAGES_H
#define DPERF_MESSAGES_H

#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "http/http.h"

/* buf for msg_compose: the request, then the two responses. */
#define MSG_BUF_LEN (3 * DP_MSG_MAX)

struct msg_lens {
	uint32_t one;       /* one request */
	uint32_t req;       /* the pipelined requests, as sent */
	uint32_t rsp_ka;    /* response on a kept-alive connection */
	uint32_t rsp_close; /* response that closes (HTTP only; raw: rsp_ka) */
	uint32_t head_ka;   /* HTTP: the head of rsp_ka (a HEAD's answer) */
	uint32_t head_close;
	uint8_t is_http;
};

/* The answer to a request that is not HTTP (or not GET, HEAD, POST). */
extern const char msg_bad_request[];
#define MSG_BAD_REQUEST_LEN 66

/* Compose, for the server address srv (an HTTP request names it as Host
 * unless http_host is set), into buf (MSG_BUF_LEN bytes): the request at
 * buf, the keep-alive response at buf + DP_MSG_MAX, the closing one at
 * buf + 2 * DP_MSG_MAX. Returns 0, or -1 with *kw the keyword to blame
 * and err the reason (without the keyword). */
int msg_compose(const struct dp_config *cfg, const struct dp_ip *srv, uint8_t *buf,
		struct msg_lens *out, const char **kw, char *err, size_t errlen);

#endif
