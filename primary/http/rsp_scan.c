/* SPDX-License-Identifier: BSD-3-Clause
 * The client's response scanner (rsp_scan.h): one state machine over the
 * bytes as they arrive, lines ending in CRLF (a bare LF is malformed, as
 * in the one-segment parse of http_response.c).
 *
 * An interim response (1xx, e.g. 100 Continue) is read and skipped: the
 * final one follows for the same request (RFC 9110 15.2).
 *
 * Framing (RFC 9112 6.3): 1xx, 204 and 304 have no body; else
 * Transfer-Encoding: chunked (which wins over a Content-Length); else
 * Content-Length; else the body goes on until the server closes (item 8:
 * HTTP/1.0 servers, error pages): RS_CLOSE takes every byte, and the
 * connection's end says how it ended (dp_rsp_scan_close: a FIN ends it,
 * a reset or a timeout leaves it unfinished). Transfer codings other
 * than chunked are not read (dperf asks for none). A second Content-Length is malformed (RFC 9112 6.3 item 5
 * allows equal ones; no server we test against sends two).
 */
#include <string.h>

#include "http/rsp_scan.h"

enum dp_rs_phase {
	RS_STATUS = 0, /* pos: bytes of "HTTP/1.x NNN" matched; 13: past its space, the reason phrase */
	RS_LINE,       /* the start of a header line */
	RS_NAME_CL,    /* pos: bytes of "content-length:" matched */
	RS_NAME_TE,    /* pos: bytes of "transfer-encoding:" matched */
	RS_SKIP,       /* the rest of a header line we do not read */
	RS_CL_VAL,     /* pos 0: before the digits, 1: in them, 2: after */
	RS_TE_VAL,     /* pos 0: before "chunked", 1..7: in it, 8: after */
	RS_BODY,       /* val: Content-Length body bytes left */
	RS_CSIZE,      /* pos 0: before the hex digits, 1: in them, 2: after */
	RS_CEXT,       /* a chunk extension, up to the end of the size line */
	RS_CDATA,      /* val: chunk data bytes left */
	RS_CEND,       /* the CRLF after a chunk's data */
	RS_TRAILER,    /* the start of a trailer line (or the final empty line) */
	RS_TSKIP,      /* the rest of a trailer line */
	RS_CLOSE,      /* a body delimited by the server's close: every byte to the FIN */
};

#define RSF_2XX     0x01 /* the status is 2xx */
#define RSF_NOBODY  0x02 /* 1xx, 204 or 304: no body whatever the head says */
#define RSF_CL      0x04 /* Content-Length seen */
#define RSF_CHUNKED 0x08 /* Transfer-Encoding: chunked seen */
#define RSF_CR      0x10 /* the last byte was the CR ending a line */
#define RSF_INTERIM 0x20 /* 1xx: the final response is still to come */

static const char status_pat[] = "HTTP/1.";
static const char cl_name[] = "content-length:";
static const char te_name[] = "transfer-encoding:";
static const char chunked[] = "chunked";

static inline uint8_t
lower(uint8_t c)
{
	return c >= 'A' && c <= 'Z' ? (uint8_t)(c | 0x20) : c;
}

static inline int
is_ows(uint8_t c)
{
	return c == ' ' || c == '\t';
}

static inline int
hex_value(uint8_t c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = lower(c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

static int
ended(struct dp_rsp_scan *r)
{
	int rc = (r->flags & RSF_2XX) ? DP_RSP_2XX : DP_RSP_OTHER;

	memset(r, 0, sizeof(*r));
	return rc;
}

static inline void
go(struct dp_rsp_scan *r, uint8_t phase)
{
	r->phase = phase;
	r->pos = 0;
}

/* The LF after a CR: the line of the current phase is over. Returns 1
 * when that ends the response, -1 when the line was incomplete. */
static int
end_of_line(struct dp_rsp_scan *r)
{
	switch (r->phase) {
	case RS_STATUS: /* complete: cr_ok checked it */
		r->val = 0;
		go(r, RS_LINE);
		return 0;
	case RS_SKIP:
	case RS_CL_VAL:
	case RS_TE_VAL:
		go(r, RS_LINE); /* the value's own checks ran at the CR */
		return 0;
	case RS_LINE: /* the blank line: the head is over */
		if (r->flags & RSF_INTERIM) {
			memset(r, 0, sizeof(*r)); /* the next status line */
			return 0;
		}
		if (r->flags & RSF_NOBODY)
			return 1;
		if (r->flags & RSF_CHUNKED) {
			r->val = 0;
			go(r, RS_CSIZE);
			return 0;
		}
		if (!(r->flags & RSF_CL)) {
			go(r, RS_CLOSE);
			return 0;
		}
		if (r->val == 0)
			return 1;
		go(r, RS_BODY);
		return 0;
	case RS_CSIZE:
	case RS_CEXT:
		go(r, r->val ? RS_CDATA : RS_TRAILER);
		return 0;
	case RS_CEND:
		r->val = 0;
		go(r, RS_CSIZE);
		return 0;
	case RS_TRAILER:
		return 1;
	case RS_TSKIP:
		go(r, RS_TRAILER);
		return 0;
	default:
		return -1;
	}
}

/* One byte of a line (not the LF ending it). Returns -1 when malformed. */
static int
line_byte(struct dp_rsp_scan *r, uint8_t c)
{
	int h;

again:
	switch (r->phase) {
	case RS_STATUS:
		if (r->pos < 7) {
			if (c != (uint8_t)status_pat[r->pos])
				return -1;
		} else if (r->pos == 13) {
			break; /* the reason phrase, up to the CR */
		} else if (r->pos == 12) {
			if (c != ' ')
				return -1; /* a fourth digit, or no space before the phrase */
		} else if (r->pos == 7 || r->pos >= 9) {
			if (c < '0' || c > '9')
				return -1;
			if (r->pos >= 9)
				r->val = r->val * 10 + (uint32_t)(c - '0');
			if (r->pos == 11) {
				if (r->val >= 200 && r->val < 300)
					r->flags |= RSF_2XX;
				if (r->val < 200 || r->val == 204 || r->val == 304)
					r->flags |= RSF_NOBODY;
				if (r->val < 200)
					r->flags |= RSF_INTERIM;
			}
		} else if (c != ' ') { /* pos 8 */
			return -1;
		}
		r->pos++;
		break;
	case RS_LINE:
		c = lower(c);
		if (c == 'c')
			go(r, RS_NAME_CL);
		else if (c == 't')
			go(r, RS_NAME_TE);
		else
			go(r, RS_SKIP);
		goto again;
	case RS_NAME_CL:
	case RS_NAME_TE: {
		const char *name = r->phase == RS_NAME_CL ? cl_name : te_name;

		if (lower(c) != (uint8_t)name[r->pos]) {
			go(r, RS_SKIP);
			goto again;
		}
		if (name[++r->pos] != '\0')
			break;
		if (r->phase == RS_NAME_CL) {
			if (r->flags & RSF_CL)
				return -1;
			r->flags |= RSF_CL;
			r->val = 0;
			go(r, RS_CL_VAL);
		} else {
			go(r, RS_TE_VAL);
		}
		break;
	}
	case RS_SKIP:
	case RS_TSKIP:
	case RS_CEXT:
		break;
	case RS_CL_VAL:
		if (c >= '0' && c <= '9' && r->pos <= 1) {
			uint32_t d = (uint32_t)(c - '0');

			if (r->val > (UINT32_MAX - d) / 10)
				return -1; /* more than 4 GiB - 1 */
			r->val = r->val * 10 + d;
			r->pos = 1;
		} else if (is_ows(c)) {
			if (r->pos == 1)
				r->pos = 2;
		} else {
			return -1;
		}
		break;
	case RS_TE_VAL:
		if (is_ows(c) && (r->pos == 0 || r->pos == 8))
			break;
		if (r->pos >= 7 || lower(c) != (uint8_t)chunked[r->pos])
			return -1; /* a coding other than chunked alone */
		if (++r->pos == 7) {
			r->flags |= RSF_CHUNKED;
			r->pos = 8;
		}
		break;
	case RS_CSIZE:
		h = hex_value(c);
		if (h >= 0 && r->pos <= 1) {
			if (r->val > 0x0fffffffu)
				return -1; /* more than 4 GiB - 1 */
			r->val = (r->val << 4) | (uint32_t)h;
			r->pos = 1;
		} else if (r->pos >= 1 && c == ';') {
			go(r, RS_CEXT);
		} else if (r->pos >= 1 && is_ows(c)) {
			r->pos = 2;
		} else {
			return -1;
		}
		break;
	case RS_CEND:
		return -1; /* data where the CRLF after a chunk belongs */
	case RS_TRAILER:
		go(r, RS_TSKIP);
		break;
	default:
		return -1;
	}
	return 0;
}

/* The CR ending a line: whether the line may end here. */
static int
cr_ok(const struct dp_rsp_scan *r)
{
	switch (r->phase) {
	case RS_STATUS:
		return r->pos >= 12; /* the code, then the phrase or nothing */
	case RS_CL_VAL:
	case RS_CSIZE:
		return r->pos >= 1;
	case RS_TE_VAL:
		return r->pos == 8;
	case RS_NAME_CL:
	case RS_NAME_TE:
		return 1; /* a line that is not the header: skipped */
	default:
		return 1;
	}
}

/* One byte of a line or its end, outside a body. Returns -1 when
 * malformed, 1 when it ended the response, else 0. */
static int
head_byte(struct dp_rsp_scan *r, uint8_t c)
{
	if (r->flags & RSF_CR) {
		if (c != '\n')
			return -1;
		r->flags &= (uint8_t)~RSF_CR;
		return end_of_line(r);
	}
	if (c == '\r') {
		if (!cr_ok(r))
			return -1;
		if (r->phase == RS_NAME_CL || r->phase == RS_NAME_TE)
			r->phase = RS_SKIP;
		r->flags |= RSF_CR;
		return 0;
	}
	if (c == '\n')
		return -1;
	return line_byte(r, c);
}

/* Where the line being skipped (a header or trailer we do not read, a
 * chunk extension, a reason phrase) may end, from p[i] on: line_byte
 * takes any other byte there, so a loop this tight is the same verdict. */
static inline uint32_t
skip_line(const struct dp_rsp_scan *r, const uint8_t *p, uint32_t i, uint32_t len)
{
	if ((r->phase == RS_SKIP || r->phase == RS_TSKIP || r->phase == RS_CEXT ||
	     (r->phase == RS_STATUS && r->pos == 13)) && !(r->flags & RSF_CR))
		while (i < len && p[i] != '\r' && p[i] != '\n')
			i++;
	return i;
}

int
dp_rsp_scan_head(const uint8_t *p, uint32_t len, int *status, uint32_t *head, uint32_t *body)
{
	struct dp_rsp_scan r;
	uint32_t i = 0;

	memset(&r, 0, sizeof(r));
	while (i < len) {
		int e;

		i = skip_line(&r, p, i, len);
		if (i == len)
			break;
		e = head_byte(&r, p[i++]);
		if (e < 0 || (r.flags & RSF_INTERIM) || r.phase == RS_CSIZE || r.phase == RS_CLOSE)
			return -1; /* malformed; interim, chunked or close-delimited: the scanner's */
		if (r.phase == RS_STATUS)
			*status = (int)r.val; /* the code, once its three digits are in */
		if (e > 0 || r.phase == RS_BODY) {
			*head = i;
			*body = e > 0 ? 0 : r.val;
			return 0;
		}
	}
	return -1; /* the head goes on past len */
}

int
dp_rsp_scan(struct dp_rsp_scan *r, const uint8_t *p, uint32_t len, uint32_t *used)
{
	uint32_t i = 0;

	while (i < len) {
		int e;

		if (r->phase == RS_CLOSE)
			break; /* the rest of the segment is body */
		if (r->phase == RS_BODY || r->phase == RS_CDATA) {
			uint32_t n = len - i < r->val ? len - i : r->val;

			i += n;
			r->val -= n;
			if (r->val)
				break;
			if (r->phase == RS_BODY) {
				*used = i;
				return ended(r);
			}
			go(r, RS_CEND);
			continue;
		}
		i = skip_line(r, p, i, len);
		if (i == len)
			break;
		e = head_byte(r, p[i++]);
		if (e < 0)
			return DP_RSP_BAD;
		if (e > 0) {
			*used = i;
			return ended(r);
		}
	}
	*used = len;
	return DP_RSP_MORE;
}

void
dp_rsp_scan_body(struct dp_rsp_scan *r, uint32_t body, int is_2xx)
{
	memset(r, 0, sizeof(*r));
	if (body == 0)
		return; /* callers count a response without a body as ended */
	r->phase = RS_BODY;
	r->val = body;
	r->flags = is_2xx ? RSF_2XX : 0;
}

int
dp_rsp_scan_in_data(const struct dp_rsp_scan *r)
{
	return r->phase == RS_BODY || r->phase == RS_CDATA || r->phase == RS_CLOSE;
}

int
dp_rsp_scan_close(struct dp_rsp_scan *r)
{
	if (r->phase != RS_CLOSE)
		return DP_RSP_BAD;
	return ended(r);
}
