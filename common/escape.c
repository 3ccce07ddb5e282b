/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdio.h>

#include "escape.h"

/* Bytes, starting at s, of an invisible or control sequence; 0 if none. */
static size_t
hidden(const unsigned char *s)
{
	if (s[0] < 0x20 || s[0] == 0x7f)
		return 1;
	if (s[0] == 0xc2 && s[1] >= 0x80 && s[1] <= 0x9f) /* C1 controls */
		return 2;
	if (s[0] == 0xef && s[1] == 0xbb && s[2] == 0xbf) /* U+FEFF, the BOM */
		return 3;
	if (s[0] == 0xe2 && s[1] == 0x80 && s[2] >= 0x8b && s[2] <= 0x8f) /* zero-width, marks */
		return 3;
	return 0;
}

char *
dp_escape(char *dst, size_t dstlen, const char *src)
{
	const unsigned char *s = (const unsigned char *)src;
	size_t o = 0;

	if (dstlen == 0)
		return dst;
	while (*s != '\0' && o + 1 < dstlen) {
		size_t n = hidden(s);

		if (n == 0) {
			dst[o++] = (char)*s++;
			continue;
		}
		for (; n > 0 && *s != '\0'; n--, s++) {
			if (o + 5 > dstlen)
				goto out;
			o += (size_t)snprintf(dst + o, dstlen - o, "\\x%02x", *s);
		}
	}
out:
	dst[o] = '\0';
	return dst;
}
