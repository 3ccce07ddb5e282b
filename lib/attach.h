/* SPDX-License-Identifier: BSD-3-Clause
 * What every secondary shares: finding the running primaries, starting
 * EAL as a secondary of one of them, checking the memzone's magic, ABI
 * and size, and sending control requests.
 */
#ifndef DPERF_ATTACH_H
#define DPERF_ATTACH_H

#include <stddef.h>

#include "shm.h"

/* Exit codes shared by dperf-ctl and dperf-top. */
enum {
	DP_EXIT_OK = 0,
	DP_EXIT_REFUSED = 1,
	DP_EXIT_USAGE = 2,
	DP_EXIT_NOPRIMARY = 3,
	DP_EXIT_NOANSWER = 4, /* the primary did not answer a request */
	DP_EXIT_DIED = 5,     /* the primary died under a reader */
	DP_EXIT_OUTPUT = 6,   /* a reader could not write its output */
};

/* Attach to instance `name` (NULL: the only running one). On success returns
 * 0 and sets *shm. On failure prints one line to stderr and returns the exit
 * code to use (DP_EXIT_NOPRIMARY, DP_EXIT_USAGE when several run and none
 * was named, DP_EXIT_REFUSED on ABI mismatch). prog is argv[0]. */
int dp_attach(const char *prog, const char *name, const struct dp_shm **shm);

/* For long-running readers (dperf-top, stats --watch): lower every
 * thread to nice 19 so a shared core stays the worker's. */
void dp_background(void);

/* True while the primary is alive. Cheap enough to call once per refresh. */
int dp_primary_alive(void);

enum dp_end { DP_END_RUNNING = 0, DP_END_DONE, DP_END_DIED };

/* Whether the primary still runs, finished its test (it reached state
 * done, which it sets before its summary), or died before (SIGKILL, a
 * crash: gone without reaching done). */
enum dp_end dp_primary_end(const struct dp_shm *s);

/* For a reader that saw the primary end: one line on stderr when it died
 * (with its pid), nothing when it finished. Returns the reader's exit
 * code: DP_EXIT_OK or DP_EXIT_DIED. */
int dp_report_end(const char *prog, const struct dp_shm *s, enum dp_end how);

/* Release EAL (rte_eal_cleanup). */
void dp_detach(void);

#endif
