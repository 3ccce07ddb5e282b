/* SPDX-License-Identifier: BSD-3-Clause
 * The main lcore while workers run: state, duration, signals, the
 * per-second output and history ring, the graceful stop.
 */
#ifndef DPERF_CONTROL_LOOP_H
#define DPERF_CONTROL_LOOP_H

#include <stdio.h>

#include "dev/port.h"
#include "shm.h"

void control_loop_signals(void);
/* The summary's baseline, taken before the workers are launched: every
 * frame they send counts, the first ARP/NDP of a link coming up included
 * (a baseline taken after the launch hid it). */
void control_loop_begin(struct dp_shm *shm);
/* Runs until the test ends; control_loop_finish then prints the summary
 * (and writes it as one JSON object to summary_json when not NULL). */
void control_loop_run(struct dp_shm *shm, struct port_set *ps, FILE *summary_json);
/* After the workers stopped: the final totals, state done. Returns -1
 * when the JSON summary could not be written to summary_path. */
int control_loop_finish(struct dp_shm *shm, struct port_set *ps, const char *summary_path);

#endif
