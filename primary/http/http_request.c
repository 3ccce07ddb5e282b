/* SPDX-License-Identifier: BSD-3-Clause
 * The server's side: requests counted and scanned a byte at a time, as
 * they may be split across segments anywhere (http.h).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "http/http.h"

/* Finds the first request end ("\r\n\r\n") in p, the match state carried
 * across segments in *state (0..3). Returns 1 with *used the bytes up to
 * and including it, or 0 with *used = len. */
static int
head_end(const uint8_t *p, uint32_t len, uint8_t *state, uint32_t *used)
{
	static const uint8_t pat[4] = { '\r', '\n', '\r', '\n' };
	const uint8_t *q = p, *end = p + len;
	uint8_t s = *state;

	while (q < end) {
		if (s == 0) { /* skip to the next CR in one memchr */
			q = memchr(q, '\r', (size_t)(end - q));
			if (q == NULL)
				break;
		}
		if (*q == pat[s]) {
			if (++s == 4) {
				*state = 0;
				*used = (uint32_t)(q + 1 - p);
				return 1;
			}
		} else {
			s = *q == '\r' ? 1 : 0;
		}
		q++;
	}
	*state = s;
	*used = len;
	return 0;
}

uint32_t
dp_http_count_requests(const uint8_t *p, uint32_t len, uint8_t *state)
{
	uint32_t n = 0, off = 0, used;

	while (off < len && head_end(p + off, len - off, state, &used)) {
		off += used;
		n++;
	}
	return n;
}

/* ---- the server's requests ---- */

static const char *const method_name[] = {
	[DP_REQ_GET] = "GET ", [DP_REQ_HEAD] = "HEAD ", [DP_REQ_POST] = "POST ",
};

/* head_end on the scanner's matcher, the 2 low bits of crlf (the path's
 * object code is above them). */
static inline int
head_end_rq(struct dp_req_scan *r, const uint8_t *p, uint32_t len, uint32_t *used)
{
	uint8_t s = r->crlf & 3;
	int rc = head_end(p, len, &s, used);

	r->crlf = (uint8_t)((r->crlf & ~3u) | s);
	return rc;
}

/* The path, a byte at a time, up to the space after it (not the end of
 * the line: "GET /x\r\n" has a path too, and its CR is the head's): the
 * objects whose path still matches are bits of r->left, r->pos the path's
 * bytes so far. At its end the object whose path has exactly that length
 * (paths are distinct: at most one), or DP_OBJ_MISS, goes into crlf's
 * high bits; left is 0 again (a POST's Content-Length). */
static uint32_t
scan_path(struct dp_req_scan *r, const struct dp_obj_paths *op, const uint8_t *p, uint32_t len)
{
	uint32_t i, m = r->left;

	for (i = 0; i < len; i++) {
		uint8_t c = p[i], code = DP_OBJ_MISS;

		if (c == ' ' || c == '\r' || c == '\n') {
			for (uint32_t j = 0; m != 0 && j < op->n; j++)
				if ((m >> j & 1) && op->len[j] == r->pos)
					code = (uint8_t)j;
			r->crlf = (uint8_t)(code << 2);
			r->left = 0;
			r->pos = 0;
			r->phase = DP_RQ_HEAD;
			return i + (c == ' ');
		}
		for (uint32_t mm = m; mm != 0; mm &= mm - 1) {
			uint32_t j = (uint32_t)__builtin_ctz(mm);

			if (r->pos >= op->len[j] || (uint8_t)op->path[j][r->pos] != c)
				m &= ~(1u << j);
		}
		if (r->pos < UINT8_MAX)
			r->pos++;
	}
	r->left = m;
	return len;
}

/* The method, a byte at a time (a request may be split anywhere): the
 * first byte picks the candidate, the others must follow it, up to its
 * space. */
static uint32_t
scan_method(struct dp_req_scan *r, const uint8_t *p, uint32_t len)
{
	uint32_t i = 0;

	if (r->pos == 0 && len > 0) {
		r->kind = p[0] == 'G' ? DP_REQ_GET : p[0] == 'H' ? DP_REQ_HEAD
			  : p[0] == 'P' ? DP_REQ_POST : DP_REQ_BAD;
		if (r->kind == DP_REQ_BAD)
			return 0;
		r->pos = 1;
		i = 1;
	}
	for (; i < len; i++) {
		const char *m = method_name[r->kind];
		if ((uint8_t)m[r->pos] != p[i]) {
			r->kind = DP_REQ_BAD;
			return i;
		}
		if (m[++r->pos] == '\0') {
			r->phase = DP_RQ_HEAD;
			r->pos = 0;
			return i + 1;
		}
	}
	return len;
}

/* A POST's head, a byte at a time: the end of the head and its
 * Content-Length ("\ncontent-length:" matched in any case, then digits). */
static uint32_t
scan_post_head(struct dp_req_scan *r, const uint8_t *p, uint32_t len)
{
	static const char name[] = "\ncontent-length:";
	uint32_t n;

	for (uint32_t i = 0; i < len; i++) {
		uint8_t c = p[i];

		if (r->pos == sizeof(name) - 1) { /* in the value */
			if (c >= '0' && c <= '9' && r->left < 100000000u)
				r->left = r->left * 10 + (c - '0');
			else if (c != ' ' || r->left != 0)
				r->pos = sizeof(name); /* value done */
		} else if (r->pos < sizeof(name) - 1) {
			uint8_t want = (uint8_t)name[r->pos];
			r->pos = (uint8_t)((c | (want >= 'a' ? 0x20 : 0)) == want ? r->pos + 1
										  : c == '\n');
		}
		if (head_end_rq(r, p + i, 1, &n)) {
			r->phase = DP_RQ_BODY;
			return i + 1;
		}
		if (c == '\n' && r->pos == sizeof(name))
			r->pos = 1; /* a new header line may follow */
	}
	return len;
}

static inline uint32_t
scan_request(struct dp_req_scan *r, const struct dp_obj_paths *op, const uint8_t *p, uint32_t len,
	     int *done)
{
	uint32_t off = 0, n;

	*done = 0;
	if (r->phase == DP_RQ_START) {
		off = scan_method(r, p, len);
		if (r->kind == DP_REQ_BAD) {
			*done = 1;
			r->pos = 0; /* (a further call starts a new request) */
			r->crlf = 0;
			return len; /* the connection ends: the rest does not matter */
		}
		if (op != NULL && r->phase == DP_RQ_HEAD) { /* the method read: its path next */
			r->phase = DP_RQ_PATH;
			r->left = op->n == 32 ? UINT32_MAX : (1u << op->n) - 1;
		}
	}
	if (r->phase == DP_RQ_PATH && off < len)
		off += scan_path(r, op, p + off, len - off);
	if (r->phase == DP_RQ_HEAD && off < len) {
		if (r->kind == DP_REQ_POST) {
			off += scan_post_head(r, p + off, len - off);
		} else {
			if (head_end_rq(r, p + off, len - off, &n))
				r->phase = DP_RQ_BODY; /* GET, HEAD: Content-Length ignored, left 0 */
			off += n;
		}
	}
	if (r->phase == DP_RQ_BODY) {
		n = r->left < len - off ? r->left : len - off;
		r->left -= n;
		off += n;
		if (r->left == 0) {
			*done = 1;
			r->kind = DP_REQ_KEY(r->kind, r->crlf >> 2); /* the method alone without paths */
			r->phase = DP_RQ_START;
			r->pos = 0;
			r->crlf = 0;
		}
	}
	return off;
}

uint32_t
dp_http_scan_request(struct dp_req_scan *r, const uint8_t *p, uint32_t len, int *done)
{
	return scan_request(r, NULL, p, len, done);
}

uint32_t
dp_http_scan_request_paths(struct dp_req_scan *r, const struct dp_obj_paths *paths,
			   const uint8_t *p, uint32_t len, int *done)
{
	return scan_request(r, paths, p, len, done);
}

/*
 * One pass over the head's lines, a memchr per line. (Two memmem calls for
 * the first CRLF and the end of the head were 11% of a server core
 * answering 1.5M keepalive requests a second.)
 */
int
dp_http_wants_close(const uint8_t *p, uint32_t len)
{
	const uint8_t *end = p + len, *eol, *q;

	/* the request line's end: the first LF after a CR */
	for (eol = memchr(p, '\n', len); eol != NULL && (eol == p || eol[-1] != '\r');
	     eol = memchr(eol + 1, '\n', (size_t)(end - eol - 1)))
		;
	if (eol == NULL)
		return 0;
	for (q = eol + 1; end - q >= 2 && !(q[0] == '\r' && q[1] == '\n');) {
		if (end - q >= 11 && (q[0] | 0x20) == 'c' &&
		    strncasecmp((const char *)q, "Connection:", 11) == 0) {
			uint32_t left;

			q += 11;
			while (q < end && *q == ' ')
				q++;
			left = (uint32_t)(end - q);
			if (left >= 5 && strncasecmp((const char *)q, "close", 5) == 0)
				return 1;
			if (left >= 10 && strncasecmp((const char *)q, "keep-alive", 10) == 0)
				return 0;
			break; /* the first Connection header decides, as before */
		}
		q = memchr(q, '\n', (size_t)(end - q));
		if (q == NULL)
			break;
		q++;
	}
	/* Request line ends with the version: "... HTTP/1.0\r\n". */
	return eol - 1 - p >= 8 && memcmp(eol - 9, "HTTP/1.0", 8) == 0;
}
