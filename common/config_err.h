/* SPDX-License-Identifier: BSD-3-Clause
 * The config parser's errors and warnings, reported by every phase
 * (config_int.h lists them): one line, "FILE:LINE: keyword: what is
 * wrong (expected ...)", or "FILE: keyword: ..." when no line applies.
 * A module of its own so that the phases call it and it calls none of
 * them (config_parse.c called config_check.c, which called back).
 */
#ifndef DPERF_CONFIG_ERR_H
#define DPERF_CONFIG_ERR_H

#include <stdint.h>

struct pctx;

int err_at(struct pctx *p, uint32_t line, const char *kw, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void warn_at(struct pctx *p, uint32_t line, const char *kw, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* An error (a warning) on the current line, about the current keyword. */
#define kw_err(p, ...) err_at((p), (p)->line, (p)->kw->name, __VA_ARGS__)
#define kw_warn(p, ...) warn_at((p), (p)->line, (p)->kw->name, __VA_ARGS__)

#endif
