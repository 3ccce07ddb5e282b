/* SPDX-License-Identifier: BSD-3-Clause
 * libFuzzer harness: the HTTP parsers the engine runs on received data.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "http/http.h"
#include "http/rsp_scan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* An exact-size copy: ASan catches any read past the segment. */
	uint8_t *p = malloc(size ? size : 1), st = 0;
	/* kept across inputs: one may start with a head an earlier one left */
	static struct dp_http_head_cache hc;
	int status, cstatus, rc, crc;
	uint32_t total, ctotal;

	if (p == NULL)
		return 0;
	memcpy(p, data, size);
	rc = dp_http_parse_response(p, (uint32_t)size, &status, &total);
	if (rc == 0 && (status < 0 || status > 999 || total < 4))
		abort();
	/* the cached parse agrees with the plain one, hit or miss */
	crc = dp_http_parse_response_cached(&hc, p, (uint32_t)size, &cstatus, &ctotal);
	if (crc != rc || (rc == 0 && (cstatus != status || ctotal != total)))
		abort();
	(void)dp_http_count_requests(p, (uint32_t)size, &st);
	if (st > 3)
		abort();
	(void)dp_http_wants_close(p, (uint32_t)size);
	/* The server's scanner: whole, then in two pieces cut at the first
	 * byte's value, it consumes everything and ends the same requests. */
	{
		struct dp_req_scan r1 = {0}, r2 = {0};
		uint32_t n1 = 0, n2 = 0, off = 0, cut = size ? p[0] % (uint32_t)size : 0;
		int done;

		while (off < size) {
			uint32_t used = dp_http_scan_request(&r1, p + off, (uint32_t)size - off, &done);
			if (used == 0 || used > size - off)
				abort();
			off += used;
			n1 += (uint32_t)done;
			if (done && r1.kind == DP_REQ_BAD)
				break;
		}
		off = 0;
		for (int piece = 0, bad = 0; piece < 2 && !bad; piece++) {
			uint32_t to = piece == 0 ? cut : (uint32_t)size;
			while (off < to && !bad) {
				off += dp_http_scan_request(&r2, p + off, to - off, &done);
				n2 += (uint32_t)done;
				bad = done && r2.kind == DP_REQ_BAD;
			}
		}
		if (n1 != n2 || r1.kind != r2.kind)
			abort();
	}
	/* With object paths (issue 37): whole and in two pieces, the same
	 * requests end with the same keys, each method the one the scanner
	 * without paths gives, each object a table's index or the miss. */
	{
		static const char *const paths[] = { "/", "/a", "/ab", "/b/c?d" };
		struct dp_obj_paths op = { .n = 4 };
		struct dp_req_scan r[3] = { {0}, {0}, {0} };
		uint8_t keys[2][64], meth[64];
		uint32_t n[3] = { 0, 0, 0 }, cut = size > 2 ? p[2] % (uint32_t)size : 0;

		for (uint32_t j = 0; j < op.n; j++) {
			op.path[j] = paths[j];
			op.len[j] = (uint8_t)strlen(paths[j]);
		}
		for (int way = 0; way < 3; way++) {
			uint32_t off = 0;
			int done, bad = 0;

			while (off < size && !bad) {
				uint32_t to = way == 1 && off < cut ? cut : (uint32_t)size, used;

				used = way == 2 ? dp_http_scan_request(&r[2], p + off, to - off, &done)
						: dp_http_scan_request_paths(&r[way], &op, p + off, to - off, &done);
				if (used == 0 || used > to - off)
					abort();
				off += used;
				if (!done)
					continue;
				if (n[way] < 64) {
					if (way == 2)
						meth[n[way]] = r[2].kind;
					else
						keys[way][n[way]] = r[way].kind;
				}
				n[way]++;
				bad = DP_REQ_METHOD(r[way].kind) == DP_REQ_BAD;
			}
		}
		if (n[0] != n[1] || n[0] != n[2])
			abort();
		for (uint32_t i = 0; i < n[0] && i < 64; i++) {
			uint8_t o = DP_REQ_OBJ(keys[0][i]);

			if (keys[0][i] != keys[1][i] || DP_REQ_METHOD(keys[0][i]) != meth[i])
				abort();
			if (meth[i] == DP_REQ_BAD ? o != 0 : (o >= op.n && o != DP_OBJ_MISS))
				abort();
		}
	}
	/* The client's scanner: whole, then in two pieces cut at the second
	 * byte's value, it ends the same responses at the same offsets; the
	 * first agrees with the one-segment parse when both read it. */
	{
		uint32_t ends[2][64], cut = size > 1 ? p[1] % (uint32_t)size : 0;
		int n[2] = { 0, 0 }, last[2], closed[2];

		for (int way = 0; way < 2; way++) {
			struct dp_rsp_scan r = {0};
			uint32_t off = 0;
			int sr = DP_RSP_MORE;

			while (off < size && n[way] < 64) {
				uint32_t to = way == 1 && off < cut ? cut : (uint32_t)size, used = 0;

				sr = dp_rsp_scan(&r, p + off, to - off, &used);
				if (sr == DP_RSP_BAD)
					break;
				if (used > to - off || (sr == DP_RSP_MORE && used != to - off))
					abort();
				off += used;
				if (sr != DP_RSP_MORE) {
					if (used == 0 || !dp_rsp_scan_idle(&r))
						abort();
					ends[way][n[way]++] = off | (sr == DP_RSP_2XX ? 0x80000000u : 0);
				}
			}
			last[way] = sr;
			/* the server's close after the bytes: what it ends (a
			 * body to the close) leaves the scanner idle */
			closed[way] = sr == DP_RSP_MORE ? dp_rsp_scan_close(&r) : sr;
			if (sr == DP_RSP_MORE && closed[way] != DP_RSP_BAD && !dp_rsp_scan_idle(&r))
				abort();
		}
		if (n[0] != n[1] || last[0] != last[1] || closed[0] != closed[1] ||
		    memcmp(ends[0], ends[1], sizeof(ends[0][0]) * (size_t)n[0]))
			abort();
		if (rc == 0 && n[0] > 0 &&
		    ((ends[0][0] & 0x7fffffffu) != total || !(ends[0][0] >> 31) != !(status / 100 == 2)))
			abort();
		/* a head the parse read is one the scanner reads: the
		 * response ends where the parse says, or goes on past size */
		if (rc == 0 && n[0] == 0 && (last[0] != DP_RSP_MORE || total <= size))
			abort();
	}
	free(p);
	return 0;
}
