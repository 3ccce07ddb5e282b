/* SPDX-License-Identifier: BSD-3-Clause
 * libFuzzer harness: the config parser on arbitrary text. Every input must
 * either parse or yield one error line; never crash or overrun.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct dp_config cfg;
	char err[DP_ERR_LEN], *text = malloc(size + 1);

	if (text == NULL)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (dp_config_parse("fuzz.conf", text, &cfg, err, sizeof(err)) != 0) {
		if (strchr(err, '\n') != NULL)
			abort(); /* errors are one line */
	} else {
		char dump[32768]; /* the memzone's config_text */
		struct dp_config again;
		/* What parses must dump to text that parses again. */
		dp_config_dump(&cfg, dump, sizeof(dump));
		if (dp_config_parse("dump", dump, &again, err, sizeof(err)) != 0)
			abort();
	}
	free(text);
	return 0;
}
