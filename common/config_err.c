/* SPDX-License-Identifier: BSD-3-Clause
 * The config parser's errors and warnings (config_err.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "config_err.h"
#include "config_int.h"
#include "escape.h"

int
err_at(struct pctx *p, uint32_t line, const char *kw, const char *fmt, ...)
{
	char msg[DP_ERR_LEN], all[2 * DP_ERR_LEN];
	va_list ap;

	if (p->err == NULL || p->errlen == 0)
		return -1;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (line != 0)
		snprintf(all, sizeof(all), "%s:%u: %s: %s", p->name, line, kw, msg);
	else
		snprintf(all, sizeof(all), "%s: %s: %s", p->name, kw, msg);
	dp_escape(p->err, p->errlen, all); /* the values quoted come from the file */
	return -1;
}

/* Appended to cfg->warnings, one line each (a warning that does not fit
 * is cut, never the ones before it). */
void
warn_at(struct pctx *p, uint32_t line, const char *kw, const char *fmt, ...)
{
	char *w = p->cfg->warnings;
	size_t used = strlen(w), room = sizeof(p->cfg->warnings) - used;
	char msg[DP_ERR_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (room > 1)
		snprintf(w + used, room, "%s:%u: %s: %s\n", p->name, line, kw, msg);
}
