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
enum { DP_RQ_START, DP_RQ_HEAD, DP_RQ_BODY, DP_RQ_PATH };
struct dp_req_scan {
	uint8_t phase; /* DP_RQ_* */
	uint8_t kind;  /* enum dp_req_kind of the current request; once it ends, its key (below) */
	uint8_t pos;   /* bytes of the method, the path, or of "\ncontent-length:", matched */
	uint8_t crlf;  /* request-end matcher (dp_http_count_requests' state, 0..3); above
			* its 2 bits, the path's object code once the path is read */
	uint32_t left; /* the path: the objects still matching (a bit each); POST: Content-Length
			* while in the head, body bytes left after */
};

/* A server with an object table (config.h's object lines, issue 37) reads
 * each request's path (DP_RQ_PATH) and a request that ends has a key: its
 * method in the low 3 bits, its object's code above (the object's index,
 * or DP_OBJ_MISS: no object has that path, answered 404). Without a table
 * the code is 0 and the key is the method, as before. The key is what
 * runs of requests, the answer queue and sock.h's last_kind hold. */
#define DP_REQ_METHOD(key) ((uint8_t)((key) & 7))
#define DP_REQ_OBJ(key) ((uint8_t)((key) >> 3))
#define DP_REQ_KEY(method, obj) ((uint8_t)((method) | ((obj) << 3)))
#define DP_OBJ_MISS 31 /* the code of a path no object has: 31 objects at most */
/* An answer that counts as answered (http2XX, tcpRsp): not a 400, not a 404. */
#define DP_REQ_ANSWERED(key) (DP_REQ_METHOD(key) != DP_REQ_BAD && DP_REQ_OBJ(key) != DP_OBJ_MISS)

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
