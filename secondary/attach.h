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
enum { DP_EXIT_OK = 0, DP_EXIT_REFUSED = 1, DP_EXIT_USAGE = 2, DP_EXIT_NOPRIMARY = 3, DP_EXIT_NOANSWER = 4 };

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

/* Release EAL (rte_eal_cleanup). */
void dp_detach(void);

#endif
