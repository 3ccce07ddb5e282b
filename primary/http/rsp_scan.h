/* SPDX-License-Identifier: BSD-3-Clause
 * The client's view of one connection's response stream, a byte at a
 * time: a head split across segments anywhere (even inside "HTTP/1.1" or
 * the blank line), a Content-Length body, a chunked one (RFC 9112 7.1:
 * hex sizes, extensions, the last chunk, trailers), or one that ends when
 * the server closes (neither: RFC 9112 6.3 item 8). No buffer: the state
 * is 8 bytes, so it lives in the 64-byte socket (sock.h, in a union with
 * the server's request scanner).
 *
 * The whole head in one segment, identical to the last one, skips this
 * byte walk: the client's cached parse (http.h) sets the scanner straight
 * to the body (dp_rsp_scan_body).
 */
#ifndef DPERF_RSP_SCAN_H
#define DPERF_RSP_SCAN_H

#include <stdint.h>

#include "state/stream_scan.h" /* struct dp_rsp_scan: the socket keeps it */

/* What dp_rsp_scan returns. */
enum {
	DP_RSP_BAD = -1,  /* malformed, or a framing we do not read (a coding other than chunked) */
	DP_RSP_MORE = 0,  /* all bytes consumed; the response goes on */
	DP_RSP_2XX = 1,   /* a response ended, status 2xx; the scanner is reset */
	DP_RSP_OTHER = 2, /* a response ended, any other status */
};

/* Consume p[0..len) up to the end of the current response at most. Sets
 * *used to the bytes consumed (all of len unless a response ended). After
 * DP_RSP_BAD the state is undefined: the connection is to end. */
int dp_rsp_scan(struct dp_rsp_scan *r, const uint8_t *p, uint32_t len, uint32_t *used);

/* A response's head whole at p[0..len), read by the same rules as
 * dp_rsp_scan: returns 0 with its status, its length through the blank
 * line in *head and its body's in *body (Content-Length; 0 for 204, 304
 * and a zero length); -1 when the head is malformed, goes on past len,
 * is an interim (1xx) one or frames its body otherwise (chunked): a fresh
 * dp_rsp_scan reads those. The one-segment parse (http.h) is this. */
int dp_rsp_scan_head(const uint8_t *p, uint32_t len, int *status, uint32_t *head, uint32_t *body);

/* The head was read elsewhere (the cached parse): the body of body bytes
 * follows; is_2xx says what it ends as. */
void dp_rsp_scan_body(struct dp_rsp_scan *r, uint32_t body, int is_2xx);

/* The server closed the connection (its FIN, in order): a response whose
 * body ends at the close ends here, DP_RSP_2XX or DP_RSP_OTHER as its
 * status says, the scanner reset; any other (a head, a body with a
 * length, idle) is unfinished: DP_RSP_BAD, the state left as it was. */
int dp_rsp_scan_close(struct dp_rsp_scan *r);

/* 1 while the scanner is in content bytes (a Content-Length body, a
 * chunk's data, a body to the close), 0 in a head, chunk framing or trailers: the client
 * bounds how many bytes of those may come in a row (tcp_client.c). */
int dp_rsp_scan_in_data(const struct dp_rsp_scan *r);

/* 1 while no byte of a response has been read (between responses, or
 * after an interim 1xx one). */
static inline int
dp_rsp_scan_idle(const struct dp_rsp_scan *r)
{
	return r->phase == 0 && r->pos == 0;
}

#endif
