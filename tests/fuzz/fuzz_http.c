/* SPDX-License-Identifier: BSD-3-Clause
 * libFuzzer harness: the HTTP parsers the engine runs on received data.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../primary/http.h"

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
	free(p);
	return 0;
}
