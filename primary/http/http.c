/* SPDX-License-Identifier: BSD-3-Clause */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "http/http.h"

int
dp_msg_is_http(const struct dp_config *cfg)
{
	if (cfg->protocol == DP_PROTO_HTTP)
		return 1;
	if (cfg->protocol == DP_PROTO_UDP)
		return cfg->payload_size == 0 || cfg->payload_size >= DP_HTTP_MIN_SIZE;
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
	char head[512];
	const char *path = cfg->http_path[0] ? cfg->http_path : "/";
	uint32_t size = cfg->payload_size, n;

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
	if (n == 0 || n + body > cap)
		return 0;
	if (size >= DP_HTTP_MIN_SIZE)
		fill(buf + n, body, cfg->payload_random);
	else
		memcpy(buf + n, "hello dperf", body);
	return n + body;
}

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
	}
	if (clen < 0) {
		if (*status >= 200 && *status != 204 && *status != 304)
			return -1; /* no length: chunked or close-delimited, not supported */
		clen = 0;
	}
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
		if (head_end(p + i, 1, &r->crlf, &n)) {
			r->phase = DP_RQ_BODY;
			return i + 1;
		}
		if (c == '\n' && r->pos == sizeof(name))
			r->pos = 1; /* a new header line may follow */
	}
	return len;
}

uint32_t
dp_http_scan_request(struct dp_req_scan *r, const uint8_t *p, uint32_t len, int *done)
{
	uint32_t off = 0, n;

	*done = 0;
	if (r->phase == DP_RQ_START) {
		off = scan_method(r, p, len);
		if (r->kind == DP_REQ_BAD) {
			*done = 1;
			r->pos = 0; /* (a further call starts a new request) */
			return len; /* the connection ends: the rest does not matter */
		}
	}
	if (r->phase == DP_RQ_HEAD && off < len) {
		if (r->kind == DP_REQ_POST) {
			off += scan_post_head(r, p + off, len - off);
		} else {
			if (head_end(p + off, len - off, &r->crlf, &n))
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
			r->phase = DP_RQ_START;
			r->pos = 0;
			r->crlf = 0;
		}
	}
	return off;
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
