/* SPDX-License-Identifier: BSD-3-Clause
 * The one place dperf-top includes curses (ncursesw). No DPDK header may
 * be included next to it: see clock.c for the TSC.
 */
#ifndef DPERF_TUI_CURSES_H
#define DPERF_TUI_CURSES_H

#if defined(__has_include)
#if __has_include(<ncursesw/curses.h>)
#include <ncursesw/curses.h>
#else
#include <curses.h>
#endif
#else
#include <curses.h>
#endif

#endif
