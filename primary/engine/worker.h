/* SPDX-License-Identifier: BSD-3-Clause
 * The worker loop (worker.c): what boot/ launches on each worker lcore.
 */
#ifndef DPERF_ENGINE_WORKER_H
#define DPERF_ENGINE_WORKER_H

#include "state/worker.h"

/* The loop: runs until the control block says stop and the drain is over. */
int worker_main(void *arg);
/* Timers, ARP retries and rate updates, once per millisecond (w->now_ms);
 * the timers also run at every timer tick between (worker_loop). */
void worker_tick(struct worker *w);

#endif
