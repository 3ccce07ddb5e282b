/* SPDX-License-Identifier: BSD-3-Clause
 * Unit tests of primary/http/rsp_scan.c: the client's response scanner,
 * fed whole, split at every byte, at every pair of bytes, a byte at a
 * time; chunked bodies; malformed and hostile input.
 */
// links: primary/http/rsp_scan.c primary/http/http_response.c
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "http/http.h"
#include "http/rsp_scan.h"

/* Scan p[0..len) cut at cuts[0..n) (ascending), each piece an exact heap
 * copy so ASan sees any overread. Returns the first result other than
 * DP_RSP_MORE (or MORE when the bytes ran out) and in *end the offset
 * where that response ended. */
static int
scan_cut(const char *msg, uint32_t len, const uint32_t *cuts, int n, uint32_t *end)
{
	struct dp_rsp_scan r;
	uint32_t from = 0;

	memset(&r, 0, sizeof(r));
	for (int k = 0; k <= n; k++) {
		uint32_t to = k < n ? cuts[k] : len, used = 0;
		uint8_t *b;
		int rc;

		if (to <= from)
			continue;
		b = malloc(to - from);
		assert_non_null(b);
		memcpy(b, msg + from, to - from);
		rc = dp_rsp_scan(&r, b, to - from, &used);
		free(b);
		if (rc != DP_RSP_MORE) {
			if (rc != DP_RSP_BAD) {
				assert_true(used > 0 && used <= to - from);
				*end = from + used;
				assert_true(dp_rsp_scan_idle(&r));
			}
			return rc;
		}
		assert_int_equal(used, to - from);
		if (memcmp(msg, "HTTP/1.1 1", 10) != 0) /* after an interim response it is idle */
			assert_false(dp_rsp_scan_idle(&r));
		from = to;
	}
	*end = len;
	return DP_RSP_MORE;
}

static int
scan_whole(const char *msg, uint32_t *end)
{
	return scan_cut(msg, (uint32_t)strlen(msg), NULL, 0, end);
}

/* Whole, at every single cut, a byte at a time: the same result and end. */
static void
check_splits(const char *msg, int want, uint32_t want_end)
{
	uint32_t len = (uint32_t)strlen(msg), end = 0, cuts[8192];

	assert_int_equal(scan_whole(msg, &end), want);
	if (want != DP_RSP_BAD)
		assert_int_equal(end, want_end);
	for (uint32_t i = 1; i < len; i++) {
		end = 0;
		assert_int_equal(scan_cut(msg, len, &i, 1, &end), want);
		if (want != DP_RSP_BAD)
			assert_int_equal(end, want_end);
	}
	assert_true(len <= 8192);
	for (uint32_t i = 0; i < len; i++)
		cuts[i] = i + 1;
	end = 0;
	assert_int_equal(scan_cut(msg, len, cuts, (int)len, &end), want);
	if (want != DP_RSP_BAD)
		assert_int_equal(end, want_end);
}

static char big[6000];

static void
test_content_length(void **state)
{
	static const char *head = "HTTP/1.1 200 OK\r\nServer: nginx\r\nContent-Length: 5000\r\n"
				  "Content-Type: text/plain\r\nConnection: keep-alive\r\n\r\n";
	uint32_t hl = (uint32_t)strlen(head);

	(void)state;
	memset(big, 'x', sizeof(big) - 1);
	memcpy(big, head, hl);
	big[hl + 5000] = '\0';
	/* a head split anywhere: inside "HTTP/1.1 200", inside
	 * "Content-Length:", inside its value, inside the CRLFCRLF */
	check_splits(big, DP_RSP_2XX, hl + 5000);
	/* the next response's first bytes are not consumed */
	memcpy(big + hl + 5000, "HTTP/1.1", 9);
	check_splits(big, DP_RSP_2XX, hl + 5000);
	/* the body one byte short: the response goes on */
	big[hl + 4999] = '\0';
	check_splits(big, DP_RSP_MORE, hl + 4999);
}

static const char chunked_rsp[] =
	"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
	"5;name=value;x=\"q\"\r\nhello\r\n"
	"A \r\n0123456789\r\n"
	"0\r\nX-Trailer: 1\r\n\r\n";

static void
test_chunked(void **state)
{
	uint32_t len = (uint32_t)strlen(chunked_rsp), end = 0, cut[2];

	(void)state;
	check_splits(chunked_rsp, DP_RSP_2XX, len);
	/* every pair of cut positions */
	for (cut[0] = 1; cut[0] < len; cut[0]++)
		for (cut[1] = cut[0] + 1; cut[1] < len; cut[1]++) {
			assert_int_equal(scan_cut(chunked_rsp, len, cut, 2, &end), DP_RSP_2XX);
			assert_int_equal(end, len);
		}
	/* no trailers, upper-case hex and names, leading zeros, a 0x10000 chunk */
	check_splits("HTTP/1.1 200 OK\r\nTRANSFER-ENCODING:chunked\r\n\r\n0000\r\n\r\n", DP_RSP_2XX, 54);
	{
		static char c[0x10000 + 200];
		int n = snprintf(c, sizeof(c), "HTTP/1.0 201 Created\r\ntransfer-encoding: Chunked  \r\n\r\n"
					       "0010000\r\n");
		memset(c + n, 'y', 0x10000);
		strcpy(c + n + 0x10000, "\r\n0\r\n\r\n");
		assert_int_equal(scan_whole(c, &end), DP_RSP_2XX);
		assert_int_equal(end, (uint32_t)strlen(c));
	}
	/* chunked wins over a Content-Length */
	check_splits("HTTP/1.1 200 OK\r\nContent-Length: 100\r\nTransfer-Encoding: chunked\r\n\r\n"
		     "1\r\nz\r\n0\r\n\r\n", DP_RSP_2XX, 79);
}

static void
test_status(void **state)
{
	uint32_t end;
	const char *nf = "HTTP/1.1 404 Not Found\r\nContent-Length: 3\r\n\r\nabc";

	(void)state;
	check_splits(nf, DP_RSP_OTHER, (uint32_t)strlen(nf));
	/* no body whatever the head says; no reason phrase */
	check_splits("HTTP/1.1 204\r\n\r\nHTTP", DP_RSP_2XX, 16);
	check_splits("HTTP/1.1 304 Not Modified\r\nContent-Length: 10\r\n\r\n", DP_RSP_OTHER, 49);
	/* interim responses are skipped: the final one ends the exchange */
	check_splits("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: x\r\n\r\n"
		     "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok", DP_RSP_2XX, 102);
	check_splits("HTTP/1.1 100 Continue\r\n\r\n", DP_RSP_MORE, 25);
	/* headers that look like ours but are not */
	check_splits("HTTP/1.1 200 OK\r\nContent-Type: x\r\nContent-Length2: 9\r\nC\r\nT\r\n"
		     "Transfer: gzip\r\nContent-Length: 1\r\n\r\n!", DP_RSP_2XX, 98);
	/* two responses in one buffer: the first ends where it ends */
	assert_int_equal(scan_whole("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\nHTTP/1.1 500 x\r\n", &end),
			 DP_RSP_2XX);
	assert_int_equal(end, 38);
}

static void
test_malformed(void **state)
{
	static const char *bad[] = {
		"HTTP/2.0 200 OK\r\n",
		"http/1.1 200 OK\r\n",
		"HTTP/1.1 20 OK\r\n",
		"HTTP/1.1 2x0 OK\r\n",
		"HTTP/1.1  200 OK\r\n",
		"HTTP/1.1 200 OK\n",                          /* bare LF */
		"HTTP/1.1 200 OK\r\nServer: x\n\r\n",         /* bare LF */
		"HTTP/1.1 200 OK\r\nServer: x\r\r\n",         /* CR not before LF */
		"HTTP/1.1 200 OK\r\nContent-Length: \r\n\r\n",
		"HTTP/1.1 200 OK\r\nContent-Length: 1 2\r\n\r\n",
		"HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n",
		"HTTP/1.1 200 OK\r\nContent-Length: 0x10\r\n\r\n",
		"HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 1\r\n\r\n",
		"HTTP/1.1 200 OK\r\nContent-Length: 4294967296\r\n\r\n", /* 4 GiB */
		"HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999\r\n\r\n",
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n",
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunkedx\r\n\r\n",
		"HTTP/1.1 200 OK\r\nTransfer-Encoding:\r\n\r\n",
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n\r\n",       /* no size */
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\ng\r\n",     /* not hex */
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n;x\r\n",    /* ext, no size */
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1 1\r\n",   /* two sizes */
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n100000000\r\n", /* 4 GiB */
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nab\r\n", /* data past its size */
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\na\n",
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nX: 1\n",
	};
	uint32_t end;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		check_splits(bad[i], DP_RSP_BAD, 0);
	}
	/* garbage never ends a response */
	assert_int_equal(scan_whole("X\x01\x02", &end), DP_RSP_BAD);
}

/* The scanner fed msg whole, then the server's close: what the client
 * counts at its FIN. */
static int
scan_then_close(const char *msg)
{
	struct dp_rsp_scan r;
	uint32_t used;
	int rc;

	memset(&r, 0, sizeof(r));
	rc = dp_rsp_scan(&r, (const uint8_t *)msg, (uint32_t)strlen(msg), &used);
	if (rc != DP_RSP_MORE)
		return 100 + rc; /* ended (or failed) before the close */
	rc = dp_rsp_scan_close(&r);
	if (rc != DP_RSP_BAD)
		assert_true(dp_rsp_scan_idle(&r));
	return rc;
}

/* A response with neither Content-Length nor chunked goes on until the
 * server closes (RFC 9112 6.3 item 8): every byte after the head is
 * body, however split, and only the close ends it, as its status says;
 * a close anywhere else (in a head, in a body with a length, in chunk
 * framing, before any byte) leaves the response unfinished. */
static void
test_close_delimited(void **state)
{
	static const char rsp[] = "HTTP/1.0 200 OK\r\nServer: SimpleHTTP/0.6\r\n\r\n"
				  "HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabc"; /* all body */

	(void)state;
	check_splits(rsp, DP_RSP_MORE, sizeof(rsp) - 1);
	check_splits("HTTP/1.1 200 OK\r\n\r\n", DP_RSP_MORE, 19);
	assert_int_equal(scan_then_close(rsp), DP_RSP_2XX);
	assert_int_equal(scan_then_close("HTTP/1.1 200 OK\r\n\r\n"), DP_RSP_2XX); /* empty body */
	assert_int_equal(scan_then_close("HTTP/1.1 502 Bad Gateway\r\nX: y\r\n\r\n<html>"),
			 DP_RSP_OTHER);
	/* unfinished at the close */
	assert_int_equal(scan_then_close(""), DP_RSP_BAD);
	assert_int_equal(scan_then_close("HTTP/1.1 200 OK\r\nServer: x\r\n"), DP_RSP_BAD);
	assert_int_equal(scan_then_close("HTTP/1.1 200 OK\r\n\r"), DP_RSP_BAD);
	assert_int_equal(scan_then_close("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nab"),
			 DP_RSP_BAD);
	assert_int_equal(scan_then_close("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab"),
			 DP_RSP_BAD);
	assert_int_equal(scan_then_close("HTTP/1.1 100 Continue\r\n\r\n"), DP_RSP_BAD);
	/* 204 and 304 have no body whatever follows: ended before the close */
	assert_int_equal(scan_then_close("HTTP/1.1 204 No Content\r\n\r\n"), 100 + DP_RSP_2XX);
	/* a malformed head is malformed before any close */
	assert_int_equal(scan_then_close("HTTP/1.1 200 OK\r\nServer: x\n\r\n"), 100 + DP_RSP_BAD);
}

static void
test_hostile_sizes(void **state)
{
	uint32_t end;

	(void)state;
	/* the largest sizes are taken: the response then goes on (and on) */
	check_splits("HTTP/1.1 200 OK\r\nContent-Length: 4294967295\r\n\r\nabc", DP_RSP_MORE, 50);
	check_splits("HTTP/1.1 200 OK\r\nContent-Length: 0004294967295\r\n\r\n", DP_RSP_MORE, 50);
	check_splits("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nffffffff\r\nab", DP_RSP_MORE, 59);
	check_splits("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n00000000000000001\r\nz\r\n0\r\n\r\n",
		     DP_RSP_2XX, 74);
	/* a head, extension or trailer that never ends holds no memory */
	assert_int_equal(scan_whole("HTTP/1.1 200 OK\r\nX: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", &end),
			 DP_RSP_MORE);
}

/* The cached one-segment parse and the scanner agree on what they both
 * read; the scanner then picks up the body (the client's fast path). */
static void
test_agrees_with_parse(void **state)
{
	static const char *ok[] = {
		"HTTP/1.1 200 OK\r\nContent-Length: 7\r\n\r\n1234567",
		"HTTP/1.1 404 Not Found\r\ncontent-length:0\r\n\r\n",
		"HTTP/1.1 204 No Content\r\n\r\n",
		"HTTP/1.1 304 Not Modified\r\nContent-Length: 10\r\n\r\n",
	};
	struct dp_rsp_scan r;
	uint32_t end, total, used;
	int status;

	(void)state;
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		int rc = scan_whole(ok[i], &end);

		assert_int_equal(dp_http_parse_response((const uint8_t *)ok[i], (uint32_t)strlen(ok[i]),
							&status, &total), 0);
		assert_int_equal(total, end);
		assert_int_equal(rc, status / 100 == 2 ? DP_RSP_2XX : DP_RSP_OTHER);
	}
	/* interim responses and chunked ones are left to the scanner */
	assert_int_equal(dp_http_parse_response((const uint8_t *)"HTTP/1.1 100 Continue\r\n\r\n", 25, &status, &total), -1);
	assert_int_equal(dp_http_parse_response((const uint8_t *)chunked_rsp, (uint32_t)strlen(chunked_rsp),
						&status, &total), -1);
	/* the body after a head read elsewhere */
	memset(&r, 0xff, sizeof(r));
	dp_rsp_scan_body(&r, 10, 0);
	assert_false(dp_rsp_scan_idle(&r));
	assert_int_equal(dp_rsp_scan(&r, (const uint8_t *)"0123456789HTTP", 14, &used), DP_RSP_OTHER);
	assert_int_equal(used, 10);
	assert_true(dp_rsp_scan_idle(&r));
	dp_rsp_scan_body(&r, 0, 1);
	assert_true(dp_rsp_scan_idle(&r));
}

/*
 * The client's verdict on a response whose bytes all came in one segment
 * (tcp_client.c: the one-segment parse when it reads the head, else the
 * scanner) against the scanner's on the same bytes cut at every byte:
 * they must agree, valid head or not (issue 31, item 2: the one-segment
 * parse took two disagreeing Content-Lengths, "Content-Length: 5 6" and
 * "HTTP/1.1 2000OK" as 200 where the scanner said malformed).
 */
static int
one_segment(const char *msg, uint32_t len, uint32_t *end)
{
	uint8_t *b = malloc(len ? len : 1);
	uint32_t total;
	int status, rc;

	assert_non_null(b);
	memcpy(b, msg, len);
	rc = dp_http_parse_response(b, len, &status, &total);
	free(b);
	if (rc != 0)
		return scan_cut(msg, len, NULL, 0, end);
	if (total > len) {
		*end = len;
		return DP_RSP_MORE;
	}
	*end = total;
	return status / 100 == 2 ? DP_RSP_2XX : DP_RSP_OTHER;
}

static void
test_one_segment_agrees(void **state)
{
	static const struct {
		const char *msg;
		int want;
	} heads[] = {
		{ "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello", DP_RSP_2XX },
		{ "HTTP/1.0 404 Not Found\r\nServer: x\r\ncontent-length:3\r\n\r\nabc", DP_RSP_OTHER },
		{ "HTTP/1.1 200\r\nContent-Length: 2\r\n\r\nok", DP_RSP_2XX },
		{ "HTTP/1.1 200 OK\r\nContent-Length: 2\t \r\n\r\nok", DP_RSP_2XX },
		{ "HTTP/1.1 200 OK\r\nContent-Length:\t7\r\n\r\n123", DP_RSP_MORE },
		{ "HTTP/1.1 204 No Content\r\n\r\n", DP_RSP_2XX },
		{ "HTTP/1.1 304 Not Modified\r\nContent-Length: 9\r\n\r\n", DP_RSP_OTHER },
		{ "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", DP_RSP_2XX },
		{ "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nz\r\n0\r\n\r\n", DP_RSP_2XX },
		/* the attacks */
		{ "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 10\r\n\r\nhello", DP_RSP_BAD },
		{ "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\nhello", DP_RSP_BAD },
		{ "HTTP/1.1 200 OK\r\nContent-Length: 5 6\r\n\r\nhello", DP_RSP_BAD },
		{ "HTTP/1.1 2000OK\r\nContent-Length: 5\r\n\r\nhello", DP_RSP_BAD },
		{ "HTTP/1.1 200OK\r\nContent-Length: 5\r\n\r\nhello", DP_RSP_BAD },
		/* what else the one-segment parse read differently */
		{ "HTTP/1.1 200 OK\r\nServer: a\rb\r\nContent-Length: 5\r\n\r\nhello", DP_RSP_BAD },
		{ "HTTP/1.1 200 OK\r\nContent-Length: 5x\r\n\r\nhello", DP_RSP_BAD },
		{ "HTTP/1.1 200 OK\r\nContent-Length: 0000000005\r\n\r\nhello", DP_RSP_2XX },
		{ "HTTP/1.1 200 OK\r\nContent-Length: \r\n\r\n", DP_RSP_BAD },
		{ "HTTP/1.1 200 OK\r\n\r\nclose-delimited", DP_RSP_MORE }, /* to the close */
		{ "HTTP/1.1 200 OK\r\nContent-Length: 5\n\r\nhello", DP_RSP_BAD },
		{ "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\n", DP_RSP_BAD },
		{ "HTTP/1.1 20x OK\r\nContent-Length: 5\r\n\r\nhello", DP_RSP_BAD },
		{ "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r", DP_RSP_MORE },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(heads) / sizeof(heads[0]); i++) {
		const char *msg = heads[i].msg;
		uint32_t len = (uint32_t)strlen(msg), end = 0, split_end = 0;
		int whole = one_segment(msg, len, &end);

		if (whole != heads[i].want)
			fail_msg("head %zu in one segment: verdict %d, want %d", i, whole, heads[i].want);
		for (uint32_t cut = 1; cut < len; cut++) {
			int split = scan_cut(msg, len, &cut, 1, &split_end);

			if (split != whole || (whole != DP_RSP_BAD && split_end != end))
				fail_msg("head %zu cut at %u: verdict %d end %u, in one segment %d end %u", i,
					 cut, split, split_end, whole, end);
		}
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_content_length),
		cmocka_unit_test(test_chunked),
		cmocka_unit_test(test_status),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_hostile_sizes),
		cmocka_unit_test(test_close_delimited),
		cmocka_unit_test(test_agrees_with_parse),
		cmocka_unit_test(test_one_segment_agrees),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
