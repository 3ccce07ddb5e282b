/* SPDX-License-Identifier: BSD-3-Clause
 * Where a connection's byte stream is, as the socket keeps it (sock.h, 8
 * bytes for either side): the server's request scanner and the client's
 * response scanner, and the kinds of request. Only their state: http/
 * reads and writes them (http.h: dp_http_scan_request; rsp_scan.h), TCP
 * and TLS read the kinds. Here, below http/, so that the socket needs
 * no header of the application's.
 */
#ifndef DPERF_STREAM_SCAN_H
#define DPERF_STREAM_SCAN_H

#include <stdint.h>

/* The server's view of one connection's request stream (8 bytes, kept in
 * the socket): where the current request is, its method, what is left. */
enum dp_req_kind { DP_REQ_NONE, DP_REQ_GET, DP_REQ_HEAD, DP_REQ_POST, DP_REQ_BAD };
/* sock.h: sk_opened's DP_REQ_NONE is also a client's traffic kind 0 */
_Static_assert(DP_REQ_NONE == 0, "DP_REQ_NONE must be 0");
enum { DP_RQ_START, DP_RQ_HEAD, DP_RQ_BODY };
struct dp_req_scan {
	uint8_t phase; /* DP_RQ_* */
	uint8_t kind;  /* enum dp_req_kind of the current request */
	uint8_t pos;   /* bytes of the method, or of "\ncontent-length:", matched */
	uint8_t crlf;  /* request-end matcher (dp_http_count_requests' state) */
	uint32_t left; /* POST: Content-Length while in the head, body bytes left after */
};

/* The client's response scanner (http/rsp_scan.h reads a byte at a time
 * into it). */
struct dp_rsp_scan {
	uint8_t phase; /* enum dp_rs_phase (rsp_scan.c); 0: before a response */
	uint8_t pos;   /* bytes matched in the current token (status line, name, value) */
	uint8_t flags; /* RSF_* (rsp_scan.c): status class, lengths seen, CR seen */
	uint8_t spare;
	uint32_t val;  /* status code, then Content-Length or chunk size as read, then bytes left */
};

_Static_assert(sizeof(struct dp_req_scan) == 8, "the request scanner lives in the socket");
_Static_assert(sizeof(struct dp_rsp_scan) == 8, "the response scanner lives in the socket");

#endif
