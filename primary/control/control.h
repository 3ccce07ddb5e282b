/* SPDX-License-Identifier: BSD-3-Clause
 * Changing a running test: validate a request against the rules, apply it
 * to the memzone's control block, record it. Called from the IPC thread
 * (dperf-ctl, dperf-top) and from the main lcore (signals, duration);
 * a mutex orders the two. Workers only read the control block.
 */
#ifndef DPERF_CONTROL_H
#define DPERF_CONTROL_H

#include <pthread.h>
#include <stdint.h>

#include "ctl_msg.h"
#include "shm.h"
#include "state/mix.h"

struct control_limits {
	uint64_t max_cps;   /* beyond this the tuple space or cores cannot follow */
	uint64_t max_cc;
	uint64_t tuples;    /* client tuples, all workers */
	uint32_t n_workers;
};

/* Compute the limits for a configuration. */
void control_limits_init(struct control_limits *lim, const struct dp_config *cfg);

/* Whether v is within what lim sustains for op (DP_OP_SET_CPS or
 * DP_OP_SET_CC): 0, or -1 with why = "V: reason (expected ...)". The one
 * rule for both the config check (config_rules.c) and dperf-ctl's set. */
int control_limit_check(const struct control_limits *lim, uint32_t op, uint64_t v, char *why,
			size_t len);

/* The control plane's state, passed to whoever changes the test: the
 * memzone whose control block it writes, this configuration's limits, and
 * the lock that orders the IPC thread's requests with the main lcore's
 * own (signals, the end of the duration). */
struct control {
	struct dp_shm *shm;
	const struct dp_config *cfg; /* the primary's, not in the memzone */
	struct control_limits lim;
	pthread_mutex_t lock;
	/* A client's pick of kinds, with two kinds or more (set weight):
	 * the tables the workers take (mix_take), and the control
	 * generation that published the one in force. */
	struct mix_pub mix;
	uint64_t mix_gen;
};

void control_init(struct control *c, struct dp_shm *shm, const struct dp_config *cfg);
/* The one place a change is published: validate req, store the values,
 * then the generation (release), record it. Fills rep (status, message,
 * generation). */
void control_apply(struct control *c, const struct dp_ctl_req *req, struct dp_ctl_rep *rep,
		   uint64_t now_tsc);
/* A request of the primary's own (signals, duration), through the same
 * validation as one that came over IPC. */
void control_local(struct control *c, uint32_t op, int64_t value, uint64_t now_tsc);
/* An event of the primary's (DP_EV_*) into the change log, beside the
 * changes: it changes no value and publishes no generation. */
void control_note(struct control *c, uint32_t what, int64_t old, int64_t val, uint64_t now_tsc);
/* 1 once a stop is in and every worker has applied it: from then on no
 * worker opens a connection, and the open ones the memzone shows are all
 * there will be (what a stop waits for: control_loop.c). */
int control_stop_applied(struct control *c);
/* Whether every worker has applied control generation gen (or a later
 * one): the one reading of the workers' acknowledgements (a stop, the
 * weights' tables). */
int control_workers_applied(const struct dp_shm *shm, uint64_t gen);

/* What a worker applies: one generation and the values published with it
 * (or newer ones: a change published meanwhile is applied on the next poll,
 * as its generation differs from the one returned here). */
struct control_view {
	uint64_t gen;
	uint64_t target_cps;
	uint64_t target_cc;
	uint32_t paused;
	uint32_t stop;
};

/* The worker's side of the publication order: control_apply stores the
 * values, then the generation with release order; reading the generation
 * with acquire order first guarantees the values read after it are at
 * least those of that generation. Returns the generation read. */
static inline uint64_t
control_read(const struct dp_control *c, struct control_view *v)
{
	v->gen = __atomic_load_n(&c->generation, __ATOMIC_ACQUIRE);
	v->target_cps = c->target_cps;
	v->target_cc = c->target_cc;
	v->paused = c->paused;
	v->stop = c->stop;
	return v->gen;
}

/* Seconds a client tuple must stay unused before reuse (max_cps rule). */
#define DP_TUPLE_REUSE_S 2
/* What one worker core can launch at most, a sanity bound. */
#define DP_MAX_CPS_PER_CORE 20000000ULL

#endif
