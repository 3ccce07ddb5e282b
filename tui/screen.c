/* SPDX-License-Identifier: BSD-3-Clause
 * Curses setup and restore, colours, and clipped drawing helpers.
 * While curses owns the screen, stderr (DPDK's log) goes to a temporary
 * file, printed after the terminal is restored (as htop does).
 */
#include <langinfo.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "curses.h"
#include "top.h"

static int utf8, colours, up;
static FILE *err_tmp;
static int err_saved = -1;

static void
stderr_capture(void)
{
	fflush(stderr);
	err_tmp = tmpfile();
	if (err_tmp == NULL)
		return;
	err_saved = dup(STDERR_FILENO);
	if (err_saved < 0 || dup2(fileno(err_tmp), STDERR_FILENO) < 0) {
		fclose(err_tmp);
		err_tmp = NULL;
	}
}

static void
stderr_release(void)
{
	char buf[4096];
	size_t n;

	if (err_tmp == NULL)
		return;
	fflush(stderr);
	dup2(err_saved, STDERR_FILENO);
	close(err_saved);
	err_saved = -1;
	rewind(err_tmp);
	while ((n = fread(buf, 1, sizeof(buf), err_tmp)) > 0)
		fwrite(buf, 1, n, stderr);
	fclose(err_tmp);
	err_tmp = NULL;
}

int
ui_init(void)
{
	if (newterm(NULL, stdout, stdin) == NULL)
		return -1;
	up = 1;
	utf8 = strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	curs_set(0);
	set_escdelay(25);
	if (has_colors()) {
		start_color();
		use_default_colors();
		init_pair(1, COLOR_RED, -1);
		init_pair(2, COLOR_GREEN, -1);
		init_pair(3, COLOR_YELLOW, -1);
		init_pair(4, COLOR_CYAN, -1);
		colours = 1;
	}
	stderr_capture();
	return 0;
}

void
ui_end(void)
{
	if (!up)
		return;
	curs_set(1);
	endwin();
	up = 0;
	stderr_release();
}

int
ui_utf8(void)
{
	return utf8;
}

int
ui_attr(enum ui_attr a)
{
	switch (a) {
	case AT_BOLD:
	case AT_TITLE:
		return A_BOLD;
	case AT_DIM:
		return A_DIM;
	case AT_HEAD:
		return A_REVERSE;
	case AT_OK:
		return colours ? COLOR_PAIR(2) : A_NORMAL;
	case AT_BAD:
		return A_BOLD | (colours ? COLOR_PAIR(1) : A_STANDOUT);
	case AT_WARN:
		return A_BOLD | (colours ? COLOR_PAIR(3) : 0);
	case AT_GRAPH:
		return colours ? COLOR_PAIR(4) : A_NORMAL;
	default:
		return A_NORMAL;
	}
}

int
ui_put(int y, int x, enum ui_attr a, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n, room = COLS - x;

	if (y < 0 || y >= LINES || room <= 0)
		return x;
	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0)
		return x;
	if (n > (int)sizeof(buf) - 1)
		n = (int)sizeof(buf) - 1;
	if (n > room)
		n = room;
	attron(ui_attr(a));
	mvaddnstr(y, x, buf, n);
	attroff(ui_attr(a));
	return x + n;
}

int
ui_counter(int y, int x, const char *name, uint64_t v, enum ui_attr nonzero)
{
	char num[24];

	top_si((double)v, num, sizeof(num));
	/* A counter is shown whole or not at all: never "ierr". */
	if (x + (int)(strlen(name) + 1 + strlen(num)) > COLS)
		return COLS;
	x = ui_put(y, x, AT_NONE, "%s ", name);
	x = ui_put(y, x, v ? nonzero : AT_NONE, "%s", num);
	return ui_put(y, x, AT_NONE, "  ");
}

/* Level 0..8 of one cell. */
static const char *
cell(int level)
{
	static const char *const blocks[] = { " ", "\u2581", "\u2582", "\u2583", "\u2584",
					      "\u2585", "\u2586", "\u2587", "\u2588" };
	static const char *const ascii[] = { " ", "_", "_", ".", ".", "-", "-", "=", "#" };

	return utf8 ? blocks[level] : ascii[level];
}

void
ui_spark(int y, int x, int width, int rows, const double *v, int n)
{
	int e[DP_HISTORY_LEN];
	int off;

	if (width <= 0 || rows <= 0 || x + width > COLS)
		return;
	if (n > width)
		v += n - width, n = width;
	if (n > DP_HISTORY_LEN)
		n = DP_HISTORY_LEN;
	top_spark_scale(v, n, rows, e);
	off = width - n; /* newest on the right */
	attron(ui_attr(AT_GRAPH));
	for (int r = 0; r < rows; r++) {
		move(y + r, x + off);
		for (int i = 0; i < n; i++) {
			int lvl = e[i] - (rows - 1 - r) * 8;

			addstr(cell(lvl < 0 ? 0 : lvl > 8 ? 8 : lvl));
		}
	}
	attroff(ui_attr(AT_GRAPH));
}
