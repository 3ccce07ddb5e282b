/* SPDX-License-Identifier: BSD-3-Clause
 * Changing a running test: validate a request against the rules, apply it
 * to the memzone's control block, record it. Called from the IPC thread
 * (dperf-ctl, dperf-top) and from the main lcore (signals, duration);
 * a mutex orders the two. Workers only read the control block.
 */
#ifndef DPERF_CONTROL_H
#define DPERF_CONTROL_H

#include <stdint.h>

#include "ctl_msg.h"
#include "shm.h"

struct control_limits {
	uint64_t max_cps;   /* beyond this the tuple space or cores cannot follow */
	uint64_t max_cc;
	uint64_t tuples;    /* client tuples, all workers */
	uint32_t n_workers;
};

/* Compute the limits for a configuration. */
void control_limits_init(struct control_limits *lim, const struct dp_config *cfg);

/* Validate and apply req. Fills rep (status, message, generation). */
void control_apply(struct dp_shm *shm, const struct control_limits *lim,
		   const struct dp_ctl_req *req, struct dp_ctl_rep *rep, uint64_t now_tsc);

/* Seconds a client tuple must stay unused before reuse (max_cps rule). */
#define DP_TUPLE_REUSE_S 2
/* What one worker core can launch at most, a sanity bound. */
#define DP_MAX_CPS_PER_CORE 20000000ULL

#endif
