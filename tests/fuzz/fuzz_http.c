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
	int status;
	uint32_t total;

	if (p == NULL)
		return 0;
	memcpy(p, data, size);
	if (dp_http_parse_response(p, (uint32_t)size, &status, &total) == 0 &&
	    (status < 0 || status > 999 || total < 4))
		abort();
	(void)dp_http_count_requests(p, (uint32_t)size, &st);
	if (st > 3)
		abort();
	(void)dp_http_wants_close(p, (uint32_t)size);
	free(p);
	return 0;
}
