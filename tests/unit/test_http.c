/* SPDX-License-Identifier: BSD-3-Clause
 * Unit tests of primary/http/http.c: dperf's message sizes and the small parsers
 * the TCP engine relies on.
 */
// links: primary/http/http.c primary/http/http_response.c primary/http/rsp_scan.c primary/http/http_request.c
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "http/http.h"

static struct dp_config
cfg_with(enum dp_mode mode, enum dp_proto proto, uint32_t size)
{
	struct dp_config c;

	dp_config_defaults(&c);
	c.mode = mode;
	c.protocol = proto;
	c.payload_size = size;
	return c;
}

/* Length of the head (up to and including the blank line), 0 if none. */
static uint32_t
head_len(const uint8_t *p, uint32_t len)
{
	for (uint32_t i = 0; i + 4 <= len; i++)
		if (memcmp(p + i, "\r\n\r\n", 4) == 0)
			return i + 4;
	return 0;
}

/* The value of header name (with colon) in the head, -1 when absent. */
static long
header_num(const uint8_t *p, uint32_t len, const char *name)
{
	char tmp[DP_MSG_MAX + 1];
	const char *h;

	assert_true(len <= DP_MSG_MAX);
	memcpy(tmp, p, len);
	tmp[len] = '\0';
	h = strstr(tmp, name);
	if (h == NULL)
		return -1;
	return strtol(h + strlen(name), NULL, 10);
}

static int
contains(const uint8_t *p, uint32_t len, const char *s)
{
	size_t n = strlen(s);

	for (uint32_t i = 0; i + n <= len; i++)
		if (memcmp(p + i, s, n) == 0)
			return 1;
	return 0;
}

/* Parse through an exactly-sized heap copy so ASan sees any overread. */
static int
parse_exact(const void *msg, uint32_t len, int *status, uint32_t *total)
{
	uint8_t *b = malloc(len ? len : 1);
	int rc;

	assert_non_null(b);
	memcpy(b, msg, len);
	rc = dp_http_parse_response(b, len, status, total);
	free(b);
	return rc;
}

static int
parse_str(const char *s, int *status, uint32_t *total)
{
	return parse_exact(s, (uint32_t)strlen(s), status, total);
}

static int
wants_close_str(const char *s)
{
	uint32_t len = (uint32_t)strlen(s);
	uint8_t *b = malloc(len ? len : 1);
	int rc;

	assert_non_null(b);
	memcpy(b, s, len);
	rc = dp_http_wants_close(b, len);
	free(b);
	return rc;
}

static void
test_default_get(void **state)
{
	struct dp_config c = cfg_with(DP_MODE_CLIENT, DP_PROTO_TCP, 0);
	uint8_t buf[DP_MSG_MAX];
	uint32_t n;

	(void)state;
	n = dp_http_request(&c, NULL, buf, sizeof(buf));
	assert_true(n > 0 && n < DP_HTTP_MIN_SIZE + 20);
	assert_memory_equal(buf, "GET / HTTP/1.1\r\n", 16);
	assert_int_equal(head_len(buf, n), n); /* ends with the blank line */
	assert_true(contains(buf, n, "\r\nHost: dperf\r\n"));

	/* Explicit host and the config's host/path. */
	n = dp_http_request(&c, "198.18.2.1", buf, sizeof(buf));
	assert_true(contains(buf, n, "\r\nHost: 198.18.2.1\r\n"));
	snprintf(c.http_host, sizeof(c.http_host), "example.com");
	snprintf(c.http_path, sizeof(c.http_path), "/index.html");
	n = dp_http_request(&c, NULL, buf, sizeof(buf));
	assert_memory_equal(buf, "GET /index.html HTTP/1.1\r\n", 26);
	assert_true(contains(buf, n, "\r\nHost: example.com\r\n"));

	/* Does not fit: 0. */
	assert_int_equal(dp_http_request(&c, NULL, buf, 10), 0);
}

static void
test_default_response(void **state)
{
	struct dp_config c = cfg_with(DP_MODE_SERVER, DP_PROTO_TCP, 0);
	uint8_t buf[DP_MSG_MAX];
	uint32_t n, h, total;
	int status;

	(void)state;
	n = dp_http_response(&c, 1, buf, sizeof(buf));
	assert_true(n > 0);
	assert_memory_equal(buf, "HTTP/1.1 200 OK\r\n", 17);
	h = head_len(buf, n);
	assert_true(h > 0);
	assert_int_equal(header_num(buf, n, "Content-Length:"), n - h);
	assert_int_equal(parse_exact(buf, n, &status, &total), 0);
	assert_int_equal(status, 200);
	assert_int_equal(total, n);
	/* Too small a buffer. */
	assert_int_equal(dp_http_response(&c, 1, buf, 20), 0);
	assert_int_equal(dp_http_response(&c, 1, buf, n - 1), 0);
	assert_int_equal(dp_http_response(&c, 1, buf, n), n);
}

static const uint32_t sizes[] = { 85, 86, 100, 128, 512, 1000, 1460, 1500, 4096, 9000 };

static void
test_sized_response(void **state)
{
	uint8_t buf[DP_MSG_MAX];

	(void)state;
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		for (int ka = 0; ka < 2; ka++) {
			for (int rnd = 0; rnd < 2; rnd++) {
				struct dp_config c = cfg_with(DP_MODE_SERVER, DP_PROTO_TCP, sizes[i]);
				uint32_t n, total;
				int status;

				c.payload_random = (uint8_t)rnd;
				n = dp_http_response(&c, ka, buf, sizeof(buf));
				assert_int_equal(n, sizes[i]);
				assert_int_equal(head_len(buf, n), DP_HTTP_MIN_SIZE);
				assert_int_equal(header_num(buf, n, "Content-Length: "),
						 sizes[i] - DP_HTTP_MIN_SIZE);
				assert_int_equal(parse_exact(buf, n, &status, &total), 0);
				assert_int_equal(status, 200);
				assert_int_equal(total, sizes[i]);
				assert_true(contains(buf, DP_HTTP_MIN_SIZE,
						     ka ? "\r\nConnection: keep-alive\r\n"
							: "\r\nConnection: close\r\n"));
				assert_false(contains(buf, DP_HTTP_MIN_SIZE,
						      ka ? "Connection: close" : "Connection: keep-alive"));
			}
		}
	}
	/* Larger than the buffer: 0, never an overflow. */
	struct dp_config c = cfg_with(DP_MODE_SERVER, DP_PROTO_TCP, 1000);
	assert_int_equal(dp_http_response(&c, 1, buf, 999), 0);
}

static void
test_default_keepalive_header(void **state)
{
	struct dp_config c = cfg_with(DP_MODE_SERVER, DP_PROTO_TCP, 0);
	uint8_t buf[DP_MSG_MAX];
	uint32_t n;

	(void)state;
	n = dp_http_response(&c, 1, buf, sizeof(buf));
	assert_true(contains(buf, n, "\r\nConnection: keep-alive\r\n"));
	assert_false(contains(buf, n, "close"));
	n = dp_http_response(&c, 0, buf, sizeof(buf));
	assert_true(contains(buf, n, "\r\nConnection: close\r\n"));
	assert_false(contains(buf, n, "keep-alive"));
}

static void
test_sized_get(void **state)
{
	uint8_t buf[DP_MSG_MAX];

	(void)state;
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		for (int rnd = 0; rnd < 2; rnd++) {
			struct dp_config c = cfg_with(DP_MODE_CLIENT, DP_PROTO_TCP, sizes[i]);
			uint32_t n;
			uint8_t st = 0;

			c.payload_random = (uint8_t)rnd;
			n = dp_http_request(&c, NULL, buf, sizeof(buf));
			assert_int_equal(n, sizes[i]);
			assert_memory_equal(buf, "GET / HTTP/1.1\r\n", 16);
			/* One request, whose end is the end of the message. */
			assert_int_equal(head_len(buf, n), n);
			assert_int_equal(dp_http_count_requests(buf, n, &st), 1);
			assert_int_equal(st, 0);
			assert_int_equal(dp_http_wants_close(buf, n), 0);
		}
	}
	struct dp_config c = cfg_with(DP_MODE_CLIENT, DP_PROTO_TCP, 1000);
	assert_int_equal(dp_http_request(&c, NULL, buf, 999), 0);

	/* A long host (an IPv6 server address) still gives exactly N bytes. */
	for (uint32_t size = 100; size <= 1500; size += 100) {
		uint32_t n;

		c.payload_size = size;
		n = dp_http_request(&c, "2001:db8:aaaa:bbbb:cccc:dddd:eeee:ffff", buf, sizeof(buf));
		assert_int_equal(n, size);
		assert_true(contains(buf, n, "\r\nHost: 2001:db8:aaaa:bbbb:cccc:dddd:eeee:ffff\r\n"));
	}
}

static void
test_sized_post(void **state)
{
	uint8_t buf[DP_MSG_MAX];

	(void)state;
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		struct dp_config c = cfg_with(DP_MODE_CLIENT, DP_PROTO_HTTP, sizes[i]);
		uint32_t n, h;

		c.http_method = DP_HTTP_POST;
		n = dp_http_request(&c, NULL, buf, sizeof(buf));
		assert_int_equal(n, sizes[i]);
		assert_memory_equal(buf, "POST / HTTP/1.1\r\n", 17);
		h = head_len(buf, n);
		assert_true(h > 0);
		assert_int_equal(header_num(buf, h, "Content-Length: "), n - h);
	}
	/* Unset size: still a well-formed POST with a body. */
	struct dp_config c = cfg_with(DP_MODE_CLIENT, DP_PROTO_HTTP, 0);
	uint32_t n, h;

	c.http_method = DP_HTTP_POST;
	n = dp_http_request(&c, NULL, buf, sizeof(buf));
	h = head_len(buf, n);
	assert_true(h > 0 && n > h);
	assert_int_equal(header_num(buf, h, "Content-Length: "), n - h);
}

static void
test_msg_is_http(void **state)
{
	struct dp_config c;

	(void)state;
	c = cfg_with(DP_MODE_CLIENT, DP_PROTO_TCP, 0);
	assert_int_equal(dp_msg_is_http(&c), 1); /* unset: HTTP */
	c = cfg_with(DP_MODE_CLIENT, DP_PROTO_TCP, 1);
	assert_int_equal(dp_msg_is_http(&c), 0);
	c = cfg_with(DP_MODE_CLIENT, DP_PROTO_TCP, 84);
	assert_int_equal(dp_msg_is_http(&c), 0);
	c = cfg_with(DP_MODE_CLIENT, DP_PROTO_TCP, 85);
	assert_int_equal(dp_msg_is_http(&c), 1);
	c = cfg_with(DP_MODE_CLIENT, DP_PROTO_TCP, 1000);
	assert_int_equal(dp_msg_is_http(&c), 1);
	c = cfg_with(DP_MODE_CLIENT, DP_PROTO_HTTP, 0);
	assert_int_equal(dp_msg_is_http(&c), 1);
	c = cfg_with(DP_MODE_CLIENT, DP_PROTO_HTTP, 10);
	assert_int_equal(dp_msg_is_http(&c), 1);
	c = cfg_with(DP_MODE_SERVER, DP_PROTO_HTTP, 84);
	assert_int_equal(dp_msg_is_http(&c), 1);
}

static void
test_raw_message(void **state)
{
	uint8_t buf[64];

	(void)state;
	memset(buf, 0, sizeof(buf));
	assert_int_equal(dp_raw_message(10, 0, buf, sizeof(buf)), 10);
	for (int i = 0; i < 10; i++)
		assert_int_equal(buf[i], 'a');
	assert_int_equal(buf[10], 0); /* nothing beyond n */

	memset(buf, 0, sizeof(buf));
	assert_int_equal(dp_raw_message(64, 1, buf, sizeof(buf)), 64);
	for (int i = 0; i < 64; i++)
		assert_non_null(strchr("abcdefghijklmnopqrstuvwxyz0123456789", buf[i]));
	assert_int_equal(dp_raw_message(0, 0, buf, sizeof(buf)), 0);
	assert_int_equal(dp_raw_message(65, 0, buf, sizeof(buf)), 0); /* too big */
}

static const char nginx_resp[] = "HTTP/1.1 200 OK\r\n"
				 "Server: nginx/1.22.1\r\n"
				 "Date: Mon, 01 Jan 2024 00:00:00 GMT\r\n"
				 "Content-Type: text/html\r\n"
				 "Content-Length: 615\r\n"
				 "Last-Modified: Tue, 11 Apr 2023 01:45:34 GMT\r\n"
				 "Connection: keep-alive\r\n"
				 "ETag: \"6434bbbe-267\"\r\n"
				 "Accept-Ranges: bytes\r\n"
				 "\r\n";

static void
test_parse_good(void **state)
{
	uint32_t total = 0;
	int status = 0;

	(void)state;
	assert_int_equal(parse_str(nginx_resp, &status, &total), 0);
	assert_int_equal(status, 200);
	assert_int_equal(total, strlen(nginx_resp) + 615);

	/* With part of the body: still the same total. */
	char with_body[sizeof(nginx_resp) + 32];
	snprintf(with_body, sizeof(with_body), "%s<html>", nginx_resp);
	assert_int_equal(parse_str(with_body, &status, &total), 0);
	assert_int_equal(total, strlen(nginx_resp) + 615);

	/* Case-insensitive header name, no space, HTTP/1.0. */
	assert_int_equal(parse_str("HTTP/1.0 404 Not Found\r\ncontent-length:5\r\n\r\nnope!",
				   &status, &total),
			 0);
	assert_int_equal(status, 404);
	assert_int_equal(total, 44 + 5);
	assert_int_equal(parse_str("HTTP/1.1 200 OK\r\nCONTENT-LENGTH: 0\r\n\r\n", &status, &total),
			 0);
	assert_int_equal(total, 38);
	assert_int_equal(parse_str("HTTP/1.1 200 OK\r\nContent-Length: \t12 \r\n\r\n", &status,
				   &total),
			 0);
	assert_int_equal(total, 41 + 12);
	assert_int_equal(parse_str("HTTP/1.1 200 OK\r\ncOnTeNt-lEnGtH: 2\r\n\r\nok", &status, &total),
			 0);
	assert_int_equal(total, 38 + 2);
	/* Near misses are other headers: a 200 without a length is refused.
	 * (Folding case with 0x20 must not turn CR into '-', ';' or '\x1a'
	 * into ':', or a control byte into a letter.) */
	assert_int_equal(parse_str("HTTP/1.1 200 OK\r\nContent\rLength: 2\r\n\r\nok", &status, &total), -1);
	assert_int_equal(parse_str("HTTP/1.1 200 OK\r\nContent-Length; 2\r\n\r\nok", &status, &total), -1);
	assert_int_equal(parse_str("HTTP/1.1 200 OK\r\nContent-Length\x1a 2\r\n\r\nok", &status, &total), -1);
	assert_int_equal(parse_str("HTTP/1.1 200 OK\r\nContent-Len\x07th: 2\r\n\r\nok", &status, &total), -1);
	assert_int_equal(parse_str("HTTP/1.1 200 OK\r\nContent-Lengths: 2\r\n\r\nok", &status, &total), -1);

	/* 204 and 304 need no length. */
	assert_int_equal(parse_str("HTTP/1.1 204 No Content\r\nServer: x\r\n\r\n", &status, &total),
			 0);
	assert_int_equal(status, 204);
	assert_int_equal(total, 38);
	assert_int_equal(parse_str("HTTP/1.1 304 Not Modified\r\n\r\n", &status, &total), 0);
	assert_int_equal(status, 304);
	assert_int_equal(total, 29);

	/* Content-Length as the scanner takes it, up to a total (head and
	 * body) that fits 32 bits; beyond, the scanner counts the body down. */
	assert_int_equal(parse_str("HTTP/1.1 200 OK\r\nContent-Length: 999999999\r\n\r\n", &status,
				   &total),
			 0);
	assert_int_equal(total, 46 + 999999999u);
	assert_int_equal(parse_str("HTTP/1.1 200 OK\r\nContent-Length: 4294967248\r\n\r\n", &status,
				   &total),
			 0);
	assert_int_equal(total, UINT32_MAX);
	assert_int_equal(parse_str("HTTP/1.1 200 OK\r\nContent-Length: 4294967249\r\n\r\n", &status,
				   &total),
			 -1);
}

/* The cached parse through an exact-size copy, checked against the plain
 * parse of the same bytes. */
static int
parse_cached_str(struct dp_http_head_cache *hc, const char *s, uint32_t len, int *status,
		 uint32_t *total)
{
	uint8_t *b = malloc(len ? len : 1);
	int rc, prc, pstatus = -1;
	uint32_t ptotal = 0;

	assert_non_null(b);
	memcpy(b, s, len);
	rc = dp_http_parse_response_cached(hc, b, len, status, total);
	prc = dp_http_parse_response(b, len, &pstatus, &ptotal);
	free(b);
	assert_int_equal(rc, prc);
	if (rc == 0) {
		assert_int_equal(*status, pstatus);
		assert_int_equal(*total, ptotal);
	}
	return rc;
}

static void
test_parse_cached(void **state)
{
	static const char ok1[] = "HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nA";
	static const char ok2[] = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nAB";
	static const char err[] = "HTTP/1.1 503 Busy\r\nContent-Length: 0\r\n\r\n";
	struct dp_http_head_cache hc;
	char big[600];
	int status;
	uint32_t total, n;

	(void)state;
	memset(&hc, 0, sizeof(hc));
	/* First: parsed and remembered; again: the same answer from the cache. */
	assert_int_equal(parse_cached_str(&hc, ok1, sizeof(ok1) - 1, &status, &total), 0);
	assert_int_equal(hc.len, sizeof(ok1) - 2);
	assert_int_equal(status, 200);
	assert_int_equal(total, sizeof(ok1) - 1);
	assert_int_equal(parse_cached_str(&hc, ok1, sizeof(ok1) - 1, &status, &total), 0);
	assert_int_equal(total, sizeof(ok1) - 1);
	/* Same first bytes, another Content-Length: parsed, and remembered. */
	assert_int_equal(parse_cached_str(&hc, ok2, sizeof(ok2) - 1, &status, &total), 0);
	assert_int_equal(total, sizeof(ok2) - 1);
	assert_int_equal(hc.clen, 2);
	/* Another status. */
	assert_int_equal(parse_cached_str(&hc, err, sizeof(err) - 1, &status, &total), 0);
	assert_int_equal(status, 503);
	assert_int_equal(hc.status, 503);
	/* Shorter than the cached head (split), or the head cut short: -1,
	 * and the cache keeps what it had. */
	assert_int_equal(parse_cached_str(&hc, err, 20, &status, &total), -1);
	assert_int_equal(parse_cached_str(&hc, ok1, 20, &status, &total), -1);
	assert_int_equal(hc.status, 503);
	/* A cached head followed by more bytes than its body: the same total
	 * (the rest is the next response's). */
	assert_int_equal(parse_cached_str(&hc, "HTTP/1.1 503 Busy\r\nContent-Length: 0\r\n\r\nHTTP/1.1",
					  sizeof(err) - 1 + 8, &status, &total), 0);
	assert_int_equal(total, sizeof(err) - 1);
	/* A head longer than the cache: parsed right, not remembered. */
	n = (uint32_t)snprintf(big, sizeof(big), "HTTP/1.1 200 OK\r\nX-Pad: %0400d\r\nContent-Length: 3\r\n\r\nxyz", 7);
	assert_int_equal(parse_cached_str(&hc, big, n, &status, &total), 0);
	assert_int_equal(total, n);
	assert_int_equal(hc.status, 503);
	/* A byte changed inside the cached head: parsed again, not matched. */
	assert_int_equal(parse_cached_str(&hc, "HTTP/1.1 503 Busy\r\nContent-Length: x\r\n\r\n",
					  sizeof(err) - 1, &status, &total), -1);
}

static void
test_parse_prefixes(void **state)
{
	const char *msgs[] = {
		nginx_resp,
		"HTTP/1.1 204 No Content\r\n\r\n",
		"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello",
	};
	uint8_t buf[DP_MSG_MAX];
	struct dp_config c = cfg_with(DP_MODE_SERVER, DP_PROTO_TCP, 0);

	(void)state;
	for (size_t m = 0; m < sizeof(msgs) / sizeof(msgs[0]) + 2; m++) {
		const uint8_t *p;
		uint32_t len, h, full_total = 0, total;
		int status;

		if (m < sizeof(msgs) / sizeof(msgs[0])) {
			p = (const uint8_t *)msgs[m];
			len = (uint32_t)strlen(msgs[m]);
		} else { /* dperf's own responses, default and sized */
			c.payload_size = m == sizeof(msgs) / sizeof(msgs[0]) ? 0 : 300;
			len = dp_http_response(&c, 1, buf, sizeof(buf));
			p = buf;
		}
		h = head_len(p, len);
		assert_true(h > 0);
		assert_int_equal(parse_exact(p, len, &status, &full_total), 0);
		/* Any prefix shorter than the head: -1, no overread. */
		for (uint32_t k = 0; k < h; k++) {
			status = -7;
			total = 12345;
			assert_int_equal(parse_exact(p, k, &status, &total), -1);
			assert_int_equal(total, 12345);
		}
		/* The head and any part of the body: the full total. */
		for (uint32_t k = h; k <= len; k++) {
			assert_int_equal(parse_exact(p, k, &status, &total), 0);
			assert_int_equal(total, full_total);
		}
	}
}

static void
test_parse_bad(void **state)
{
	static const char *const bad[] = {
		"",
		"garbage garbage garbage\r\n\r\n",
		"GET / HTTP/1.1\r\nHost: x\r\n\r\n",
		"HTTP/2.0 200 OK\r\nContent-Length: 1\r\n\r\n",
		"HTTP/1.1200 OK\r\nContent-Length: 1\r\n\r\n",
		"HTTP/1.1 2x0 OK\r\nContent-Length: 1\r\n\r\n",
		"HTTP/1.1 -20 OK\r\nContent-Length: 1\r\n\r\n",
		"HTTP/1.1 20\r\nContent-Length: 1\r\n\r\n",
		"HTTP/1.1 abc OK\r\n\r\n",
		"HTTP/1.1 200 OK\r\nContent-Length: 4294967296\r\n\r\n",
		"HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999\r\n\r\n",
		"HTTP/1.1 200 OK\r\nContent-Length: \r\n\r\n",
		"HTTP/1.1 200 OK\r\nContent-Length: abc\r\n\r\n",
		"HTTP/1.1 200 OK\r\nContent-Length: 12abc\r\n\r\n",
		"HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n",
		"HTTP/1.1 200 OK\r\n\r\n",
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n",
		"HTTP/1.1 500 Internal Server Error\r\nServer: x\r\n\r\n",
		/* Content-Length only in the body does not count. */
		"HTTP/1.1 200 OK\r\nServer: x\r\n\r\n\r\nContent-Length: 5\r\n",
		"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n", /* no blank line */
		"HTTP/1.1 200 OK\nContent-Length: 5\n\nhello", /* bare LF line ends */
		"HTTP/1.1 200 OK\r\nContent-Length: 5\n\r\nhello",
		"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\n\r\nhello",
	};
	uint32_t total;
	int status;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int rc = parse_str(bad[i], &status, &total);
		if (rc != -1)
			fail_msg("accepted bad response #%zu: \"%s\"", i, bad[i]);
	}
	/* Binary junk with NUL bytes. */
	const uint8_t junk[] = { 'H', 'T', 'T', 'P', '/', '1', '.', '1', ' ', '2', 0, '0',
				 '\r', '\n', '\r', '\n' };
	assert_int_equal(parse_exact(junk, sizeof(junk), &status, &total), -1);
}

static void
test_count_requests(void **state)
{
	uint8_t st = 0;
	const char *three = "GET / HTTP/1.1\r\nHost: a\r\n\r\n"
			    "GET /b HTTP/1.1\r\nHost: a\r\n\r\n"
			    "GET /c HTTP/1.1\r\n\r\n";

	(void)state;
	/* Split blank line: "\r\n" then "\r\n". */
	assert_int_equal(dp_http_count_requests((const uint8_t *)"GET / HTTP/1.1\r\n", 16, &st), 0);
	assert_int_equal(st, 2);
	assert_int_equal(dp_http_count_requests((const uint8_t *)"\r\n", 2, &st), 1);
	assert_int_equal(st, 0);

	/* Split in every possible place, byte at a time. */
	st = 0;
	uint32_t n = 0;
	for (size_t i = 0; i < strlen(three); i++)
		n += dp_http_count_requests((const uint8_t *)three + i, 1, &st);
	assert_int_equal(n, 3);
	assert_int_equal(st, 0);
	for (size_t cut = 0; cut <= strlen(three); cut++) {
		st = 0;
		n = dp_http_count_requests((const uint8_t *)three, (uint32_t)cut, &st);
		n += dp_http_count_requests((const uint8_t *)three + cut,
					    (uint32_t)(strlen(three) - cut), &st);
		assert_int_equal(n, 3);
		assert_int_equal(st, 0);
	}

	/* Pipelined in one buffer. */
	st = 0;
	assert_int_equal(dp_http_count_requests((const uint8_t *)three, (uint32_t)strlen(three), &st),
			 3);
	assert_int_equal(st, 0);

	/* "\r\r\n\r\n" is one end; "\r\n\r\r\n\r\n" too. */
	st = 0;
	assert_int_equal(dp_http_count_requests((const uint8_t *)"\r\r\n\r\n", 5, &st), 1);
	assert_int_equal(st, 0);
	st = 0;
	assert_int_equal(dp_http_count_requests((const uint8_t *)"\r\n\r\r\n\r\n", 7, &st), 1);
	st = 0;
	assert_int_equal(dp_http_count_requests((const uint8_t *)"\r\n\n\r\n", 5, &st), 0);
	assert_int_equal(st, 2);
	/* State 3 then a non-matching byte resets. */
	st = 0;
	assert_int_equal(dp_http_count_requests((const uint8_t *)"\r\n\r", 3, &st), 0);
	assert_int_equal(st, 3);
	assert_int_equal(dp_http_count_requests((const uint8_t *)"x\n", 2, &st), 0);
	assert_int_equal(st, 0);
	/* Empty segment keeps the state. */
	st = 3;
	assert_int_equal(dp_http_count_requests((const uint8_t *)"", 0, &st), 0);
	assert_int_equal(st, 3);
	assert_int_equal(dp_http_count_requests((const uint8_t *)"\n", 1, &st), 1);
}

static void
test_wants_close(void **state)
{
	(void)state;
	assert_int_equal(wants_close_str("GET / HTTP/1.0\r\nHost: a\r\n\r\n"), 1);
	assert_int_equal(wants_close_str("GET / HTTP/1.0\r\n\r\n"), 1);
	assert_int_equal(wants_close_str("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n"), 0);
	assert_int_equal(wants_close_str("GET / HTTP/1.0\r\nHost: a\r\nConnection: Keep-Alive\r\n\r\n"),
			 0);
	assert_int_equal(wants_close_str("GET / HTTP/1.1\r\nHost: a\r\n\r\n"), 0);
	assert_int_equal(wants_close_str("GET / HTTP/1.1\r\nConnection: keep-alive\r\n\r\n"), 0);
	assert_int_equal(wants_close_str("GET / HTTP/1.1\r\nConnection: close\r\n\r\n"), 1);
	assert_int_equal(wants_close_str("GET / HTTP/1.1\r\nHost: a\r\nconnection: CLOSE\r\n\r\n"), 1);
	assert_int_equal(wants_close_str("GET / HTTP/1.1\r\nCONNECTION:Close\r\n\r\n"), 1);
	assert_int_equal(wants_close_str("GET / HTTP/1.0\r\nConnection: close\r\n\r\n"), 1);
	/* Header cut right after the name: no overread, falls back on version. */
	assert_int_equal(wants_close_str("GET / HTTP/1.1\r\nConnection: clo"), 0);
	assert_int_equal(wants_close_str("GET / HTTP/1.1\r\nConnection:"), 0);
	assert_int_equal(wants_close_str("GET / HTTP/1.0\r\nConnection: keep"), 1);
	/* No line end yet: not decided, 0. */
	assert_int_equal(wants_close_str("GET / HTTP/1.0"), 0);
	assert_int_equal(wants_close_str(""), 0);
	/* The request line ends at the first CRLF (a bare LF does not end it);
	 * a Connection header after the head's end does not count. */
	assert_int_equal(wants_close_str("GET\n/ HTTP/1.0\r\n\r\n"), 1);
	assert_int_equal(wants_close_str("\nGET / HTTP/1.0\r\n\r\n"), 1);
	assert_int_equal(wants_close_str("GET / HTTP/1.1\r\n\r\nConnection: close\r\n"), 0);
	assert_int_equal(wants_close_str("GET / HTTP/1.1\r\nHost: a\r\n\r\nConnection: close\r\n"), 0);
	/* The first Connection header decides. */
	assert_int_equal(wants_close_str("GET / HTTP/1.1\r\nConnection: upgrade\r\nConnection: close\r\n\r\n"), 0);
	assert_int_equal(wants_close_str("GET / HTTP/1.0\r\nConnection: upgrade\r\n\r\n"), 1);
}

/* The server's request scanner: feeds text cut at cut (and at every
 * byte when cut is 1) and returns the methods of the requests it ended
 * as letters: G GET, H HEAD, P POST, B bad. */
static void
scan_all(const char *text, size_t cut, char *out)
{
	struct dp_req_scan r;
	size_t len = strlen(text), at = 0;
	int o = 0;

	memset(&r, 0, sizeof(r));
	while (at < len) {
		size_t piece = cut && len - at > cut ? cut : len - at;
		uint32_t off = 0;
		while (off < piece) {
			int done;
			uint32_t used = dp_http_scan_request(&r, (const uint8_t *)text + at + off,
							     (uint32_t)(piece - off), &done);
			assert_true(used > 0 && used <= piece - off);
			off += used;
			if (done)
				out[o++] = "?GHPB"[r.kind];
			if (done && r.kind == DP_REQ_BAD)
				goto end;
		}
		at += piece;
	}
end:
	out[o] = '\0';
}

static void
test_scan_requests(void **state)
{
	static const struct {
		const char *text, *want;
	} cases[] = {
		{"GET / HTTP/1.1\r\nHost: a\r\n\r\n", "G"},
		{"HEAD / HTTP/1.1\r\n\r\nGET /x HTTP/1.1\r\n\r\n", "HG"},
		/* The body is skipped by its Content-Length, whatever it holds. */
		{"POST / HTTP/1.1\r\nContent-Length: 20\r\n\r\nGET / HTTP/1.1\r\n\r\n\r\nGET / HTTP/1.1\r\n\r\n", "PG"},
		{"POST / HTTP/1.1\r\nhost: a\r\ncOnTeNt-LeNgTh:7\r\n\r\nabcdefgHEAD / HTTP/1.0\r\n\r\n", "PH"},
		{"POST / HTTP/1.1\r\n\r\nGET / HTTP/1.1\r\n\r\n", "PG"}, /* no body */
		{"BREW / HTCPCP/1.0\r\n\r\n", "B"},
		{"GET / HTTP/1.1\r\n\r\nGETS / HTTP/1.1\r\n\r\nGET / HTTP/1.1\r\n\r\n", "GB"},
		{"get / HTTP/1.1\r\n\r\n", "B"},
		{"\r\n\r\n", "B"},
		{"GET / HTTP/1.1\r\n", ""}, /* not ended yet */
	};
	char got[64];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		for (size_t cut = 0; cut < strlen(cases[i].text); cut++) {
			scan_all(cases[i].text, cut, got);
			if (strcmp(got, cases[i].want) != 0)
				fail_msg("case %zu cut %zu: \"%s\", expected \"%s\"", i, cut, got,
					 cases[i].want);
		}
	}
}

/* The scanner with object paths (issue 37): each request's key, its
 * method letter then its object's index, or '-' for a path no object has
 * (DP_OBJ_MISS), the text cut at every place as above. */
static void
scan_paths(const struct dp_obj_paths *op, const char *text, size_t cut, char *out)
{
	struct dp_req_scan r;
	size_t len = strlen(text), at = 0;
	int o = 0;

	memset(&r, 0, sizeof(r));
	while (at < len) {
		size_t piece = cut && len - at > cut ? cut : len - at;
		uint32_t off = 0;

		while (off < piece) {
			int done;
			uint32_t used = dp_http_scan_request_paths(&r, op, (const uint8_t *)text + at + off,
								   (uint32_t)(piece - off), &done);

			assert_true(used > 0 && used <= piece - off);
			off += used;
			if (!done)
				continue;
			out[o++] = "?GHPB"[DP_REQ_METHOD(r.kind)];
			if (DP_REQ_METHOD(r.kind) == DP_REQ_BAD)
				goto end;
			out[o++] = DP_REQ_OBJ(r.kind) == DP_OBJ_MISS ? '-' : (char)('0' + DP_REQ_OBJ(r.kind));
		}
		at += piece;
	}
end:
	out[o] = '\0';
}

static void
test_scan_paths(void **state)
{
	static const char *const paths[] = { "/a", "/bb", "/b/c?d=e", "/" };
	static const struct {
		const char *text, *want;
	} cases[] = {
		{"GET /a HTTP/1.1\r\nHost: a\r\n\r\n", "G0"},
		{"GET /bb HTTP/1.1\r\n\r\nHEAD /b/c?d=e HTTP/1.1\r\n\r\n", "G1H2"},
		{"GET / HTTP/1.1\r\n\r\n", "G3"},
		/* a prefix, a longer path, another case, a query not in the table */
		{"GET /b HTTP/1.1\r\n\r\nGET /bbb HTTP/1.1\r\n\r\nGET /A HTTP/1.1\r\n\r\n"
		 "GET /a?x HTTP/1.1\r\n\r\n", "G-G-G-G-"},
		/* the body skipped by its Content-Length, read after the path */
		{"POST /bb HTTP/1.1\r\nContent-Length: 19\r\n\r\nGET /a HTTP/1.1\r\n\r\n"
		 "GET /a HTTP/1.1\r\n\r\n", "P1G0"},
		/* a request line without a version: the path ends at its CR */
		{"GET /a\r\n\r\nGET /zz\r\n\r\n", "G0G-"},
		{"GET  HTTP/1.1\r\n\r\n", "G-"}, /* an empty path */
		{"BREW /a HTCPCP/1.0\r\n\r\n", "B"},
		{"GET /a HTTP/1.1\r\n\r\nGETS /a HTTP/1.1\r\n\r\n", "G0B"},
	};
	struct dp_obj_paths op = { .n = 4 };
	char got[64];

	(void)state;
	for (uint32_t j = 0; j < op.n; j++) {
		op.path[j] = paths[j];
		op.len[j] = (uint8_t)strlen(paths[j]);
	}
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		for (size_t cut = 0; cut < strlen(cases[i].text); cut++) {
			scan_paths(&op, cases[i].text, cut, got);
			if (strcmp(got, cases[i].want) != 0)
				fail_msg("case %zu cut %zu: \"%s\", expected \"%s\"", i, cut, got,
					 cases[i].want);
		}
	/* 31 objects (every code but DP_OBJ_MISS), the last one found */
	{
		static char names[DP_MAX_OBJECTS][8];
		struct dp_obj_paths all = { .n = DP_MAX_OBJECTS };

		for (uint32_t j = 0; j < all.n; j++) {
			all.len[j] = (uint8_t)snprintf(names[j], sizeof(names[j]), "/o%u", j);
			all.path[j] = names[j];
		}
		scan_paths(&all, "GET /o30 HTTP/1.1\r\n\r\nGET /o3 HTTP/1.1\r\n\r\nGET /o31 "
			   "HTTP/1.1\r\n\r\n", 0, got);
		assert_int_equal(got[0], 'G');
		assert_int_equal(got[1], '0' + 30);
		assert_string_equal(got + 2, "G3G-");
	}
	/* without paths the key is the method, as before */
	scan_all("GET /a HTTP/1.1\r\n\r\n", 0, got);
	assert_string_equal(got, "G");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_get),
		cmocka_unit_test(test_default_response),
		cmocka_unit_test(test_default_keepalive_header),
		cmocka_unit_test(test_sized_response),
		cmocka_unit_test(test_sized_get),
		cmocka_unit_test(test_sized_post),
		cmocka_unit_test(test_msg_is_http),
		cmocka_unit_test(test_raw_message),
		cmocka_unit_test(test_parse_good),
		cmocka_unit_test(test_parse_prefixes),
		cmocka_unit_test(test_parse_cached),
		cmocka_unit_test(test_parse_bad),
		cmocka_unit_test(test_count_requests),
		cmocka_unit_test(test_scan_requests),
		cmocka_unit_test(test_scan_paths),
		cmocka_unit_test(test_wants_close),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
