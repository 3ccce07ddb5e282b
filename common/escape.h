/* SPDX-License-Identifier: BSD-3-Clause
 * Text from a user's file or command line, made safe to print: control
 * characters would move the cursor or recolour the terminal, invisible
 * ones (a BOM, zero-width spaces) would hide what an error is about.
 */
#ifndef DPERF_ESCAPE_H
#define DPERF_ESCAPE_H

#include <stddef.h>

/* Copies src to dst (always NUL-terminated, cut to dstlen), writing every
 * C0/C1 control character, DEL, U+FEFF and U+200B..U+200F as \xNN per
 * byte. Printable text, valid UTF-8 and backslashes pass unchanged, so
 * escaping twice changes nothing. Returns dst. */
char *dp_escape(char *dst, size_t dstlen, const char *src);

#endif
