/* SPDX-License-Identifier: BSD-3-Clause
 * The messages we send: requests and responses of dperf's sizes, raw
 * payloads (see http.h). The parsers are http_response.c (client) and
 * http_request.c (server).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "http/http.h"

int
dp_msg_is_http(const struct dp_config *cfg)
{
	if (cfg->protocol == DP_PROTO_HTTP || cfg->protocol == DP_PROTO_HTTPS)
		return 1;
	if (cfg->protocol == DP_PROTO_TLS) /* records of payload_size, whatever the size */
		return 0;
	if (cfg->protocol == DP_PROTO_UDP) /* a file's bytes are the whole datagram */
		return cfg->payload_file[0] == '\0'
		       && (cfg->payload_size == 0 || cfg->payload_size >= DP_HTTP_MIN_SIZE);
	return cfg->payload_size == 0 || cfg->payload_size >= DP_HTTP_MIN_SIZE;
}

static void
fill(uint8_t *p, uint32_t n, int random)
{
	static const char alnum[] = "abcdefghijklmnopqrstuvwxyz0123456789";

	for (uint32_t i = 0; i < n; i++)
		p[i] = random ? (uint8_t)alnum[(unsigned)rand() % 36] : 'a';
}

uint32_t
dp_raw_message(uint32_t n, int random, uint8_t *buf, size_t cap)
{
	if (n > cap)
		return 0;
	fill(buf, n, random);
	return n;
}

/* Write head + pad header so that head is exactly `want` bytes when want
 * is non-zero. Returns head length or 0 when it cannot fit. */
static uint32_t
padded_head(char *out, size_t cap, const char *head, uint32_t want, int random)
{
	size_t hl = strlen(head);
	uint32_t pad;

	if (want == 0) {
		if (hl + 2 >= cap)
			return 0;
		memcpy(out, head, hl);
		memcpy(out + hl, "\r\n", 2);
		return (uint32_t)hl + 2;
	}
	/* "X-Pad: " + n + "\r\n" + final "\r\n" */
	if (hl + 11 > want || want > cap)
		return 0;
	pad = want - (uint32_t)hl - 11;
	memcpy(out, head, hl);
	memcpy(out + hl, "X-Pad: ", 7);
	fill((uint8_t *)out + hl + 7, pad, random);
	memcpy(out + hl + 7 + pad, "\r\n\r\n", 4);
	return want;
}

uint32_t
dp_http_request(const struct dp_config *cfg, const char *host, uint8_t *buf, size_t cap)
{
	return dp_http_request_sized(cfg, host, cfg->payload_size, buf, cap);
}

uint32_t
dp_http_request_sized(const struct dp_config *cfg, const char *host, uint32_t size, uint8_t *buf,
		      size_t cap)
{
	return dp_http_request_path(cfg, host, cfg->http_path[0] ? cfg->http_path : "/", size, buf,
				    cap);
}

uint32_t
dp_http_request_path(const struct dp_config *cfg, const char *host, const char *path,
		     uint32_t size, uint8_t *buf, size_t cap)
{
	char head[512];
	uint32_t n;

	if (host == NULL)
		host = cfg->http_host[0] ? cfg->http_host : "dperf";
	if (cfg->http_method == DP_HTTP_POST) {
		/* The whole message is payload_size: head of 85 bytes, then body. */
		uint32_t body = size >= DP_HTTP_MIN_SIZE ? size - DP_HTTP_MIN_SIZE : 16;
		snprintf(head, sizeof(head),
			 "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Length: %u\r\n", path, host,
			 body);
		n = padded_head((char *)buf, cap, head, DP_HTTP_MIN_SIZE, cfg->payload_random);
		if (n == 0) /* long host/path: no padding possible, plain head */
			n = padded_head((char *)buf, cap, head, 0, 0);
		if (n == 0 || n + body > cap)
			return 0;
		fill(buf + n, body, cfg->payload_random);
		return n + body;
	}
	snprintf(head, sizeof(head), "GET %s HTTP/1.1\r\nUser-Agent: dperf\r\nHost: %s\r\n", path,
		 host);
	n = padded_head((char *)buf, cap, head, size >= DP_HTTP_MIN_SIZE ? size : 0,
			cfg->payload_random);
	if (n == 0 && size <= cap) /* long host/path: the head alone exceeds payload_size */
		n = padded_head((char *)buf, cap, head, 0, 0);
	return n;
}

uint32_t
dp_http_response(const struct dp_config *cfg, int keepalive, uint8_t *buf, size_t cap)
{
	uint32_t n = dp_http_response_prefix(cfg, keepalive, buf, cap);

	return n > cap ? 0 : n;
}

uint32_t
dp_http_response_prefix(const struct dp_config *cfg, int keepalive, uint8_t *buf, size_t cap)
{
	char head[256];
	uint32_t size = cfg->payload_size, body, n;
	const char *conn = keepalive ? "keep-alive" : "close";

	if (size >= DP_HTTP_MIN_SIZE) {
		body = size - DP_HTTP_MIN_SIZE;
		snprintf(head, sizeof(head), "HTTP/1.1 200 OK\r\nContent-Length: %u\r\nConnection: %s\r\n",
			 body, conn);
		n = padded_head((char *)buf, cap, head, DP_HTTP_MIN_SIZE, cfg->payload_random);
	} else {
		body = 11;
		snprintf(head, sizeof(head),
			 "HTTP/1.1 200 OK\r\nServer: dperf\r\nContent-Length: %u\r\nConnection: %s\r\n",
			 body, conn);
		n = padded_head((char *)buf, cap, head, 0, 0);
	}
	if (n == 0 || (size < DP_HTTP_MIN_SIZE && n + body > cap))
		return 0;
	if (size >= DP_HTTP_MIN_SIZE) /* what fits: the rest repeats (messages.h) */
		fill(buf + n, n + body > cap ? (uint32_t)(cap - n) : body, cfg->payload_random);
	else
		memcpy(buf + n, "hello dperf", body);
	return n + body;
}

