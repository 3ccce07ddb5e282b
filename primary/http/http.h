/* SPDX-License-Identifier: BSD-3-Clause
 * HTTP/1.1 messages as dperf sizes them, and the small parsers the TCP
 * engine needs. Pure code: no EAL, no mbufs.
 *
 * Sizes: payload_size is the whole message in the TCP payload, headers
 * included. From DP_HTTP_MIN_SIZE (85) up, a response is exactly
 * payload_size bytes with Content-Length payload_size - 85, and a request
 * is padded to payload_size. Unset (0): short default messages.
 */
#ifndef DPERF_HTTP_H
#define DPERF_HTTP_H

#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "state/stream_scan.h"

#define DP_MSG_MAX 9216

/* Build the client's request into buf. Returns its length, or 0 when it
 * does not fit in cap. host may be NULL (then cfg->http_host or "dperf"). */
uint32_t dp_http_request(const struct dp_config *cfg, const char *host, uint8_t *buf, size_t cap);
/* The same for a given size instead of payload_size (0: the plain head). */
uint32_t dp_http_request_sized(const struct dp_config *cfg, const char *host, uint32_t size,
			       uint8_t *buf, size_t cap);
/* The same for the path given (a kind's, config.h's struct dp_kind). */
uint32_t dp_http_request_path(const struct dp_config *cfg, const char *host, const char *path,
			      uint32_t size, uint8_t *buf, size_t cap);

/* Build the server's response. keepalive selects the Connection header.
 * Returns its length, or 0 when it does not fit in cap. */
uint32_t dp_http_response(const struct dp_config *cfg, int keepalive, uint8_t *buf, size_t cap);
/* The same, but a response longer than cap has its first cap bytes
 * written and its whole length returned (0: not even its head fits). */
uint32_t dp_http_response_prefix(const struct dp_config *cfg, int keepalive, uint8_t *buf, size_t cap);

/* Raw (non-HTTP) message of n bytes: printable filler, random when asked. */
uint32_t dp_raw_message(uint32_t n, int random, uint8_t *buf, size_t cap);

/* 1 when messages are HTTP for this config, 0 for raw TCP payloads. */
int dp_msg_is_http(const struct dp_config *cfg);

/* Parse the head of a response at p[0..len). Returns 0 and sets *status and
 * *total (head + Content-Length) when the status line, Content-Length and
 * the blank line are all present; -1 otherwise: malformed, split across
 * segments, or chunked (rsp_scan.h reads those a byte at a time). */
int dp_http_parse_response(const uint8_t *p, uint32_t len, int *status, uint32_t *total);

/* The last head dp_http_parse_response_cached parsed. A server under test
 * sends the same head every time; the parse's result depends only on the
 * head's bytes, so a response starting with the same bytes gets the same
 * result, for a memcmp instead of a walk over its lines. */
#define DP_HTTP_HEAD_CACHE 256
struct dp_http_head_cache {
	uint16_t len; /* 0: empty */
	uint16_t status;
	uint32_t clen;
	uint8_t head[DP_HTTP_HEAD_CACHE];
};

/* dp_http_parse_response, remembering a head up to DP_HTTP_HEAD_CACHE
 * bytes in c (zeroed before first use). */
int dp_http_parse_response_cached(struct dp_http_head_cache *c, const uint8_t *p, uint32_t len,
				  int *status, uint32_t *total);

/* Count request ends ("\r\n\r\n") in p[0..len), carrying the match state
 * (0..3) across segments in *state. */
uint32_t dp_http_count_requests(const uint8_t *p, uint32_t len, uint8_t *state);

/* The server's view of one connection's request stream, struct
 * dp_req_scan, and the kinds of request (enum dp_req_kind) are
 * state/stream_scan.h's: the socket keeps it. */

/* Consume p[0..len) up to the end of the current request at most (a head,
 * and for a POST its Content-Length body). Returns the bytes consumed;
 * sets *done when a request ended, r->kind saying which method it had:
 * GET, HEAD, POST, or BAD (any other method, or not HTTP: the rest of the
 * segment is consumed, the connection is to end). A request may be split
 * anywhere across calls. */
uint32_t dp_http_scan_request(struct dp_req_scan *r, const uint8_t *p, uint32_t len, int *done);

/* A server's object paths (config.h's object lines), as the scanner
 * matches them: n of them, each of len[i] bytes. */
struct dp_obj_paths {
	uint32_t n; /* 1..DP_MAX_OBJECTS */
	uint8_t len[DP_MAX_OBJECTS];
	const char *path[DP_MAX_OBJECTS];
};

/* dp_http_scan_request, reading each request's path too (paths NULL: not,
 * as dp_http_scan_request): a request that ends has its key in r->kind
 * (stream_scan.h: its method, and the index of the object whose path is
 * exactly the request line's, up to its space, or DP_OBJ_MISS). The path
 * may be split anywhere, as the rest: the objects still matching are a
 * mask, narrowed a byte at a time. */
uint32_t dp_http_scan_request_paths(struct dp_req_scan *r, const struct dp_obj_paths *paths,
				    const uint8_t *p, uint32_t len, int *done);

/* 1 when a request asks the server to close: HTTP/1.0 without
 * "Connection: keep-alive", or any "Connection: close". */
int dp_http_wants_close(const uint8_t *p, uint32_t len);

#endif
