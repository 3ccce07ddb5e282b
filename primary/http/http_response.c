/* SPDX-License-Identifier: BSD-3-Clause
 * The client's side: a response head's status, length and end, and the
 * cache that skips re-parsing a head identical to the last one (http.h).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "http/http.h"

/* Whether the 15 bytes at q are "Content-Length:" in any case: two 8-byte
 * loads, letters folded to lower case with 0x20 (which maps a byte to a
 * given lower-case letter only from that letter or its capital), '-' and
 * ':' compared exactly. (strncasecmp, a libc call per header line, was 2%
 * of a client core at 1M connections/s.) */
#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "is_content_length assumes a little-endian host"
#endif
static inline int
is_content_length(const uint8_t *q)
{
	uint64_t a, b, pa, pb;

	memcpy(&a, q, 8);      /* "Content-" */
	memcpy(&b, q + 7, 8);  /* "-Length:" */
	memcpy(&pa, "content-", 8);
	memcpy(&pb, "-length:", 8);
	/* little-endian: byte i of the string is bits 8i..8i+7 */
	return (a | 0x0020202020202020ull) == pa && (b | 0x0020202020202000ull) == pb;
}

/* The value of a Content-Length header whose name ends at v; line_end is
 * its '\n'. Returns -1 unless 1-9 digits, then CR or space. */
static int64_t
content_length(const uint8_t *v, const uint8_t *line_end)
{
	uint32_t clen = 0;
	int digits = 0;

	while (v < line_end && (*v == ' ' || *v == '\t'))
		v++;
	while (v < line_end && isdigit(*v) && digits < 10) {
		clen = clen * 10 + (uint32_t)(*v - '0');
		v++;
		digits++;
	}
	if (digits == 0 || digits == 10 || (*v != '\r' && *v != ' '))
		return -1;
	return clen;
}

/*
 * One pass over the header lines (a memchr per line): the client parses
 * every response, so no search of the whole head per header (perf had
 * memmem and strncasecmp at 7% of a client core at 1M connections/s).
 * Gives the head's length (through the blank line) in *head and the
 * body's in *body; the result depends on nothing past the head.
 */
static int
parse_head(const uint8_t *p, uint32_t len, int *status, uint32_t *head, uint32_t *body)
{
	const uint8_t *end = p + len, *q = p, *nl;
	int64_t clen = -1;

	if (len < 12 || memcmp(p, "HTTP/1.", 7) != 0 || p[8] != ' ')
		return -1;
	if (!isdigit(p[9]) || !isdigit(p[10]) || !isdigit(p[11]))
		return -1;
	*status = (p[9] - '0') * 100 + (p[10] - '0') * 10 + (p[11] - '0');
	if (*status < 200)
		return -1; /* interim: the scanner skips it (rsp_scan.c) */
	for (;;) {
		nl = memchr(q, '\n', (size_t)(end - q));
		if (nl == NULL || nl == q || nl[-1] != '\r')
			return -1; /* incomplete, or a line not ending in CRLF */
		q = nl + 1;
		if (end - q >= 2 && q[0] == '\r' && q[1] == '\n')
			break; /* the empty line: end of the head */
		if (end - q > 15 && (q[0] | 0x20) == 'c' && is_content_length(q) && clen < 0) {
			const uint8_t *le = memchr(q, '\n', (size_t)(end - q));
			clen = content_length(q + 15, le ? le : end - 1);
			if (clen < 0)
				return -1;
		}
		/* chunked: the byte-at-a-time scanner reads it (rsp_scan.h) */
		if (end - q > 18 && (q[0] | 0x20) == 't' && strncasecmp((const char *)q, "transfer-encoding:", 18) == 0)
			return -1;
	}
	if (*status == 204 || *status == 304)
		clen = 0; /* no body whatever the head says (RFC 9112 6.3) */
	else if (clen < 0)
		return -1; /* close-delimited: not read (rsp_scan.c) */
	*head = (uint32_t)(q + 2 - p);
	*body = (uint32_t)clen;
	return 0;
}

int
dp_http_parse_response(const uint8_t *p, uint32_t len, int *status, uint32_t *total)
{
	uint32_t head, body;

	if (parse_head(p, len, status, &head, &body) != 0)
		return -1;
	*total = head + body;
	return 0;
}

int
dp_http_parse_response_cached(struct dp_http_head_cache *c, const uint8_t *p, uint32_t len,
			      int *status, uint32_t *total)
{
	uint32_t head, body;

	if (c->len && len >= c->len && memcmp(p, c->head, c->len) == 0) {
		*status = c->status;
		*total = c->len + c->clen;
		return 0;
	}
	if (parse_head(p, len, status, &head, &body) != 0)
		return -1;
	*total = head + body;
	if (head <= sizeof(c->head)) {
		memcpy(c->head, p, head);
		c->len = (uint16_t)head;
		c->status = (uint16_t)*status;
		c->clen = body;
	}
	return 0;
}

