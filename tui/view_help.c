/* SPDX-License-Identifier: BSD-3-Clause
 * The help overlay, drawn in its own window over the current view.
 */
#include "curses.h"
#include "top.h"

static const char *const help_lines[] = {
	"q          quit (the test goes on)",
	"p          pause / resume the test",
	"+ / -      raise / lower the target CPS by 10%",
	"c          set the target CPS (e.g. 200k)",
	"d          duration: +5s / -5s adds, 2m sets",
	"s          stop the test (asks first)",
	"Tab / v    next view; 1 2 3 4: overview, workers, ports, kinds",
	"h / ?      this help",
	"",
	"Answers from the engine appear on the bottom line.",
	"Any key closes this help.",
};

void
view_help(void)
{
	int n = (int)(sizeof(help_lines) / sizeof(help_lines[0]));
	int h = n + 4, w = 58, y, x;
	WINDOW *win;

	if (h > LINES)
		h = LINES;
	if (w > COLS)
		w = COLS;
	y = (LINES - h) / 2;
	x = (COLS - w) / 2;
	win = newwin(h, w, y, x);
	if (win == NULL)
		return;
	werase(win);
	box(win, 0, 0);
	wattron(win, A_BOLD);
	mvwaddnstr(win, 0, 2, " dperf-top keys ", w - 4);
	wattroff(win, A_BOLD);
	for (int i = 0; i < n && i + 2 < h - 1; i++)
		mvwaddnstr(win, i + 2, 2, help_lines[i], w - 4);
	wnoutrefresh(win);
	delwin(win);
}
