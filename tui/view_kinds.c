/* SPDX-License-Identifier: BSD-3-Clause
 * A client's traffic kinds (issue 37's kind lines): a row per kind over
 * the refresh window, its weight, share of the requests, requests and
 * 2xx answers per second, errors since start, goodput and response
 * latency (the --once frame prints the same rows: top_kind_line).
 */
#include <stdio.h>

#include "curses.h"
#include "top.h"

void
view_kinds(const struct top *t, int y0, int y1)
{
	static struct top_kind rows[DP_MAX_KINDS];
	uint32_t n = top_kinds(t, rows), shown = n;
	char line[160];
	int y = y0 + 1;

	ui_put(y++, 0, AT_TITLE, " KINDS (%u)", n);
	if (n == 0) {
		ui_put(y, 1, AT_DIM, "no traffic kinds in this test (a client's kind lines, two or more)");
		return;
	}
	ui_put(y++, 1, AT_BOLD, "%s", top_kind_head(line, sizeof(line)));
	if ((int)n > y1 - y)
		shown = y1 - y - 1 > 0 ? (uint32_t)(y1 - y - 1) : 0;
	for (uint32_t k = 0; k < shown; k++)
		ui_put(y++, 1, rows[k].err ? AT_BAD : AT_NONE, "%s", top_kind_line(&rows[k], line, sizeof(line)));
	if (shown < n)
		ui_put(y, 0, AT_DIM, " ... %u more (enlarge the terminal)", n - shown);
}
