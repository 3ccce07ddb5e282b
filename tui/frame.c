/* SPDX-License-Identifier: BSD-3-Clause
 * One frame: the header (instance, mode, state, time and progress), the
 * current view, the key hints, the status line and the help overlay.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "attach.h"
#include "curses.h"
#include "top.h"

void
top_status(struct top *t, enum top_msg kind, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(t->status, sizeof(t->status), fmt, ap);
	va_end(ap);
	t->status_kind = kind;
}

static void
header(const struct top *t)
{
	const struct dp_shm *s = t->shm;
	char right[64];
	int x;

	attron(ui_attr(AT_HEAD));
	mvhline(0, 0, ' ', COLS);
	attroff(ui_attr(AT_HEAD));
	x = ui_put(0, 0, AT_HEAD, " dperf-top  %.48s  %s  ", s->hdr.name, dp_mode_name(s->hdr.mode));
	x = ui_put(0, x, AT_HEAD, "%s", dp_state_name(s->hdr.state));
	if (t->stopped)
		x = ui_put(0, x, AT_HEAD, t->end == DP_END_DIED ? " (engine died)" : " (engine stopped)");
	snprintf(right, sizeof(right), "pid %d  refresh %.2gs ", (int)s->hdr.pid, t->interval_s);
	if (COLS - (int)strlen(right) > x + 1)
		ui_put(0, COLS - (int)strlen(right), AT_HEAD, "%s", right);
}

static void
progress(const struct top *t)
{
	struct top_figs f;
	char el[16], du[16], left[16], tail[48];
	int x, bar, fill;
	double frac;

	top_figures(t, &f);
	x = ui_put(1, 0, AT_NONE, " elapsed %s", top_fmt_hms(f.elapsed_s, el, sizeof(el)));
	if (f.duration_s <= 0)
		return;
	x = ui_put(1, x, AT_NONE, " / %s ", top_fmt_hms(f.duration_s, du, sizeof(du)));
	frac = f.elapsed_s / f.duration_s;
	frac = frac < 0 ? 0 : frac > 1 ? 1 : frac;
	snprintf(tail, sizeof(tail), " %3.0f%%  remaining %s", frac * 100,
		 top_fmt_hms(f.duration_s - f.elapsed_s, left, sizeof(left)));
	bar = COLS - x - (int)strlen(tail) - 3;
	if (bar > 60)
		bar = 60;
	if (bar >= 5) {
		fill = (int)(frac * bar + 0.5);
		x = ui_put(1, x, AT_NONE, "[");
		attron(ui_attr(AT_GRAPH));
		mvhline(1, x, '#', fill);
		attroff(ui_attr(AT_GRAPH));
		mvhline(1, x + fill, '.', bar - fill);
		x = ui_put(1, x + bar, AT_NONE, "]");
	}
	ui_put(1, x, AT_NONE, "%s", tail);
}

static void
bottom(const struct top *t)
{
	static const char *const prompts[] = {
		[PROMPT_CPS] = "CPS (e.g. 200k, Esc cancels): ",
		[PROMPT_DURATION] = "duration: +5s/-5s adds, 2m sets (Esc cancels): ",
		[PROMPT_STOP] = "Stop the test? (y/n) ",
	};
	enum ui_attr a = t->status_kind == MSG_OK ? AT_OK
			  : t->status_kind == MSG_ERR ? AT_BAD : AT_NONE;
	int x;

	if (t->stopped)
		ui_put(LINES - 2, 0, AT_DIM, " press any key to exit");
	else
		ui_put(LINES - 2, 0, AT_DIM,
			" q quit  p pause  +/- cps  c set cps  d duration  s stop  Tab view  h help");
	if (t->prompt != PROMPT_NONE) {
		x = ui_put(LINES - 1, 0, AT_BOLD, " %s", prompts[t->prompt]);
		x = ui_put(LINES - 1, x, AT_NONE, "%.*s", (int)t->input_len, t->input);
		if (t->prompt != PROMPT_STOP)
			ui_put(LINES - 1, x, AT_HEAD, " ");
		return;
	}
	ui_put(LINES - 1, 0, a, " %s", t->status);
}

void
top_draw(struct top *t)
{
	erase();
	if (LINES < 8 || COLS < 40) {
		ui_put(0, 0, AT_BAD, "terminal too small (%dx%d)", COLS, LINES);
		wnoutrefresh(stdscr);
		doupdate();
		return;
	}
	header(t);
	progress(t);
	switch (t->view) {
	case VIEW_WORKERS:
		view_workers(t, 2, LINES - 2);
		break;
	case VIEW_PORTS:
		view_ports(t, 2, LINES - 2);
		break;
	case VIEW_KINDS:
		view_kinds(t, 2, LINES - 2);
		break;
	default:
		view_overview(t, 2, LINES - 2);
		break;
	}
	bottom(t);
	wnoutrefresh(stdscr);
	if (t->help)
		view_help();
	doupdate();
}
