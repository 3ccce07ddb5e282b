/* SPDX-License-Identifier: BSD-3-Clause
 * The main lcore while workers run: state, duration, signals, the
 * per-second output and history ring, the graceful stop.
 */
#ifndef DPERF_CONTROL_LOOP_H
#define DPERF_CONTROL_LOOP_H

#include "port.h"
#include "shm.h"

void control_loop_signals(void);
void control_loop_run(struct dp_shm *shm, struct port_set *ps);

#endif
