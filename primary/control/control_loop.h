/* SPDX-License-Identifier: BSD-3-Clause
 * The main lcore while workers run: state, duration, signals, the
 * per-second output and history ring, the graceful stop.
 */
#ifndef DPERF_CONTROL_LOOP_H
#define DPERF_CONTROL_LOOP_H

#include <stdio.h>

#include "control/control.h"
#include "dev/port.h"
#include "rates.h"
#include "run_log.h"
#include "shm.h"

/* The main lcore's loop over one test: its state from begin to finish.
 * The snapshots are large (per-worker counters, latency histograms): the
 * struct lives in static storage with the rest of the primary's state. */
struct control_loop {
	struct dp_shm *shm;
	struct control *ctl;      /* stops go through it like any change */
	struct port_set *ps;
	FILE *out;                /* the per-second output and summary: stdout */
	FILE *summary;            /* -o: the summary as JSON, or NULL */
	const char *summary_path;
	struct dp_run_log log;    /* -o: every second and change, for the summary */
	struct dp_snapshot first; /* at start, for the summary */
	struct dp_snapshot prev, cur, last;
	uint32_t seen_up;         /* ports whose link has been up */
	int ready;                /* every link up and gateway resolved, once */
	const char *failed;       /* why the test failed (non-zero exit), or NULL */
	char not_ready[512];      /* check_ready's reason, which failed may point at */
};

void control_loop_signals(void);
/* The summary's baseline, taken before the workers are launched: every
 * frame they send counts, the first ARP/NDP of a link coming up included
 * (a baseline taken after the launch hid it). Set l->summary and
 * l->summary_path after it for -o. */
void control_loop_begin(struct control_loop *l, struct control *ctl, struct port_set *ps);
/* Runs until the test ends; control_loop_finish then prints the summary
 * (and writes it as one JSON object to l->summary when not NULL). */
void control_loop_run(struct control_loop *l);
/* After the workers stopped: the final totals, state done. Returns -1
 * when the JSON summary could not be written. */
int control_loop_finish(struct control_loop *l);

#endif
