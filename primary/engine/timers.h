/* SPDX-License-Identifier: BSD-3-Clause
 * Expiring a worker's timer lists (retransmit, keepalive, idle) and its
 * delayed ACKs. Pure code: the TCP unit tests run it as the worker does.
 */
#ifndef DPERF_TIMERS_H
#define DPERF_TIMERS_H

#include "engine/worker.h"

/* Expires what is due, at most DP_TIMER_BUDGET per list, none while the
 * device is congested. Returns nonzero when due entries are left for the
 * next loop iteration. */
int timers_run(struct worker *wk);

#endif
