/* SPDX-License-Identifier: BSD-3-Clause
 * The client's side: a response head's status, length and end, and the
 * cache that skips re-parsing a head identical to the last one (http.h).
 *
 * The head is read by the response scanner's own rules (rsp_scan.h,
 * dp_rsp_scan_head): a head in one segment gets the verdict it gets split
 * over several, as there is one parser. (A parser of its own here once
 * took two Content-Lengths, "Content-Length: 5 6" and a four-digit status
 * that the scanner refused: issue 31.)
 */
#include <stdint.h>
#include <string.h>

#include "http/http.h"
#include "http/rsp_scan.h"

/* The head at p, and a total (head + body) that fits the 32 bits the
 * client counts it down in; a body longer than that is the scanner's to
 * count (it keeps the body's length alone). */
static int
parse_head(const uint8_t *p, uint32_t len, int *status, uint32_t *head, uint32_t *body)
{
	if (dp_rsp_scan_head(p, len, status, head, body) != 0 || *body > UINT32_MAX - *head)
		return -1;
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
