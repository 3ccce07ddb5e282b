/* SPDX-License-Identifier: BSD-3-Clause */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "control/control.h"

void
control_limits_init(struct control_limits *lim, const struct dp_config *cfg)
{
	uint64_t by_tuples;

	memset(lim, 0, sizeof(*lim));
	lim->n_workers = cfg->n_cpus;
	if (cfg->mode != DP_MODE_CLIENT)
		return;
	lim->tuples = dp_config_tuple_space(cfg) * cfg->n_cpus;
	/* Closed connections' tuples rest DP_TUPLE_REUSE_S before reuse; a
	 * flood, UDP, or a cc test (connections held, cc <= tuples) reuses
	 * none at the launch rate. */
	by_tuples = cfg->flood || cfg->protocol == DP_PROTO_UDP || cfg->cc
			    ? UINT64_MAX
			    : lim->tuples / DP_TUPLE_REUSE_S;
	/* A flood is bounded by the device alone (the bench's flood sends
	 * over 40M frames a second from one core). */
	lim->max_cps = cfg->flood ? UINT64_MAX : DP_MAX_CPS_PER_CORE * cfg->n_cpus;
	if (by_tuples < lim->max_cps)
		lim->max_cps = by_tuples;
	lim->max_cc = lim->tuples;
}

int
control_limit_check(const struct control_limits *lim, uint32_t op, uint64_t v, char *why,
		    size_t len)
{
	if (op == DP_OP_SET_CPS && v > lim->max_cps) {
		snprintf(why, len,
			 "%lu: beyond what %u cores and %lu client tuples sustain (expected at most %lu: a tuple rests %d s; add addresses, ports or cores)",
			 (unsigned long)v, lim->n_workers, (unsigned long)lim->tuples,
			 (unsigned long)lim->max_cps, DP_TUPLE_REUSE_S);
		return -1;
	}
	if (op == DP_OP_SET_CC && v > lim->max_cc) {
		snprintf(why, len,
			 "%lu exceeds the %lu client tuples (addresses x ports x listen ports x cores; add addresses or ports)",
			 (unsigned long)v, (unsigned long)lim->max_cc);
		return -1;
	}
	return 0;
}

/* Called after the new value is stored: the generation, bumped last with
 * release order, publishes it (control_read is the other half). */
static void
record(struct dp_control *c, uint32_t op, int64_t old, int64_t val, uint64_t tsc)
{
	struct dp_change *ch = &c->changes[c->n_changes % DP_CHANGES_LEN];

	ch->tsc = tsc;
	ch->what = op;
	ch->old_value = old;
	ch->new_value = val;
	c->request_tsc = tsc;
	__atomic_store_n(&c->n_changes, c->n_changes + 1, __ATOMIC_RELEASE);
	__atomic_add_fetch(&c->generation, 1, __ATOMIC_RELEASE);
}

#define REFUSE(...)                                                    \
	do {                                                           \
		rep->status = DP_CTL_REFUSED;                          \
		snprintf(rep->msg, sizeof(rep->msg), __VA_ARGS__);     \
		return;                                                \
	} while (0)

/* set cps and set cc, once their own checks passed: the value (at least
 * 1) within the limits (control_limit_check), then the client's target
 * set, the change recorded and said. Returns 0, or -1 with the refusal
 * in rep. */
static int
set_target(struct dp_control *c, const struct control_limits *lim, const struct dp_ctl_req *req,
	   struct dp_ctl_rep *rep, volatile uint64_t *target, const char *name, uint64_t now)
{
	char why[sizeof(rep->msg) - 16];
	int64_t v = req->value, old;

	if (control_limit_check(lim, req->op, (uint64_t)v, why, sizeof(why)) != 0) {
		rep->status = DP_CTL_REFUSED;
		snprintf(rep->msg, sizeof(rep->msg), "set %s %s", name, why);
		return -1;
	}
	old = (int64_t)*target;
	*target = (uint64_t)v;
	record(c, req->op, old, v, now);
	snprintf(rep->msg, sizeof(rep->msg), "%s %ld", name, (long)v);
	return 0;
}

/* pause, resume and stop, once their own checks passed: the flag set to
 * `to` from the other value, the change recorded and said. Returns to
 * (the value applied). */
static int64_t
set_flag(struct dp_control *c, uint32_t op, volatile uint32_t *flag, uint32_t to, struct dp_ctl_rep *rep,
	 const char *said, uint64_t now)
{
	*flag = to;
	record(c, op, !to, to, now);
	snprintf(rep->msg, sizeof(rep->msg), "%s", said);
	return to;
}

static void
apply_locked(struct dp_shm *shm, const struct dp_config *cfg, const struct control_limits *lim,
	     const struct dp_ctl_req *req, struct dp_ctl_rep *rep, uint64_t now)
{
	struct dp_control *c = &shm->ctl;
	int client = shm->hdr.mode == DP_MODE_CLIENT;
	uint64_t hz = shm->hdr.tsc_hz, elapsed_us;
	int64_t v = req->value, target, old, lead_us;

	elapsed_us = now > shm->hdr.start_tsc && hz
			     ? (uint64_t)((unsigned __int128)(now - shm->hdr.start_tsc) * 1000000 / hz)
			     : 0;
	if (req->op == DP_OP_PING) {
		snprintf(rep->msg, sizeof(rep->msg), "alive");
		return;
	}
	/* Its sender has given up (or will, before this answer arrives). */
	if (req->send_tsc != 0 && hz != 0 && now > req->send_tsc &&
	    now - req->send_tsc > hz / 1000 * DP_CTL_MAX_AGE_MS)
		REFUSE("%s: sent %.1f s ago, more than %d s: not applied (the primary was stopped or too busy to answer)",
		       dp_ctl_op_name(req->op), (double)(now - req->send_tsc) / (double)hz,
		       DP_CTL_MAX_AGE_MS / 1000);
	if (c->stop || shm->hdr.state >= DP_ST_STOPPING)
		REFUSE("%s: the test is stopping", dp_ctl_op_name(req->op));
	switch (req->op) {
	case DP_OP_SET_CPS:
		if (!client)
			REFUSE("set cps: this primary is a server; only a client launches connections");
		if (cfg->protocol == DP_PROTO_UDP && cfg->cc != 0)
			REFUSE("set cps: in UDP packets-per-second mode the rate is cc / keepalive interval (expected set cc)");
		if (v <= 0)
			REFUSE("set cps %ld: the rate must be at least 1", (long)v);
		if (set_target(c, lim, req, rep, &c->target_cps, "cps", now) != 0)
			return;
		break;
	case DP_OP_SET_CC:
		if (!client)
			REFUSE("set cc: this primary is a server; only a client opens connections");
		if (v <= 0)
			REFUSE("set cc %ld: must be at least 1", (long)v);
		if (cfg->cc == 0)
			REFUSE("set cc: the test was started without cc (connections are not kept open)");
		if (set_target(c, lim, req, rep, &c->target_cc, "cc", now) != 0)
			return;
		break;
	case DP_OP_SET_DURATION:
	case DP_OP_ADD_DURATION:
		/* T is dperf's duration: the time at full rate, counted from the
		 * end of the lead (a client's wait + slow start). +T / -T move the
		 * end of the test by T. */
		lead_us = (int64_t)c->lead_s * 1000000;
		/* The sum is checked before it is made: duration_us is unsigned
		 * and a sum past DP_DURATION_MAX_US would wrap (the run's end,
		 * or the workers' millisecond clock). */
		if (req->op == DP_OP_ADD_DURATION && v > 0
		    && (c->duration_us > DP_DURATION_MAX_US
			|| (uint64_t)v > DP_DURATION_MAX_US - c->duration_us))
			REFUSE("set duration +%.1f s: the sum is beyond the longest duration, %.0f days",
			       (double)v / 1e6, (double)DP_DURATION_MAX_US / 86400e6);
		target = req->op == DP_OP_SET_DURATION ? v : (int64_t)c->duration_us + v;
		if (target > (int64_t)DP_DURATION_MAX_US)
			REFUSE("set duration: %.1f s is beyond the longest duration, %.0f days",
			       (double)target / 1e6, (double)DP_DURATION_MAX_US / 86400e6);
		if (lead_us + target <= (int64_t)elapsed_us)
			REFUSE("set duration: %.1f s after the %u s of wait and slow start ends in the past (%.1f s have run)",
			       (double)target / 1e6, c->lead_s, (double)elapsed_us / 1e6);
		old = (int64_t)c->duration_us;
		c->duration_us = (uint64_t)target;
		record(c, DP_OP_SET_DURATION, old, target, now);
		snprintf(rep->msg, sizeof(rep->msg), "duration %.1f s at full rate, after %u s of wait and slow start (%.1f s left)",
			 (double)target / 1e6, c->lead_s, (double)(lead_us + target - (int64_t)elapsed_us) / 1e6);
		v = target;
		break;
	case DP_OP_PAUSE:
		if (!client)
			REFUSE("pause: this primary is a server; it launches nothing");
		if (c->paused)
			REFUSE("pause: already paused");
		v = set_flag(c, req->op, &c->paused, 1, rep, "paused: no new connections", now);
		break;
	case DP_OP_RESUME:
		if (!c->paused)
			REFUSE("resume: not paused");
		v = set_flag(c, req->op, &c->paused, 0, rep, "resumed", now);
		break;
	case DP_OP_STOP:
		v = set_flag(c, req->op, &c->stop, 1, rep, "stopping", now);
		break;
	default:
		REFUSE("unknown request %u", req->op);
	}
	rep->applied = v;
}

void
control_init(struct control *c, struct dp_shm *shm, const struct dp_config *cfg)
{
	c->shm = shm;
	c->cfg = cfg;
	control_limits_init(&c->lim, cfg);
	pthread_mutex_init(&c->lock, NULL);
}

void
control_apply(struct control *c, const struct dp_ctl_req *req, struct dp_ctl_rep *rep,
	      uint64_t now_tsc)
{
	memset(rep, 0, sizeof(*rep));
	rep->version = DP_CTL_VERSION;
	rep->status = DP_CTL_OK;
	pthread_mutex_lock(&c->lock);
	apply_locked(c->shm, c->cfg, &c->lim, req, rep, now_tsc);
	rep->generation = c->shm->ctl.generation;
	pthread_mutex_unlock(&c->lock);
}

void
control_local(struct control *c, uint32_t op, int64_t value, uint64_t now_tsc)
{
	struct dp_ctl_req req = { .version = DP_CTL_VERSION, .op = op, .value = value };
	struct dp_ctl_rep rep;

	control_apply(c, &req, &rep, now_tsc);
}

int
control_stop_applied(struct control *c)
{
	uint32_t nw = dp_shm_n_workers(c->shm);
	uint64_t gen;
	int stop;

	/* Under the lock: the stop and its generation are stored together. */
	pthread_mutex_lock(&c->lock);
	stop = c->shm->ctl.stop;
	gen = c->shm->ctl.generation;
	pthread_mutex_unlock(&c->lock);
	if (!stop)
		return 0;
	/* A worker stores its applied generation (release) after it has
	 * published the counters of every earlier iteration, in one of which
	 * it may have opened a connection before it saw the stop. */
	for (uint32_t w = 0; w < nw; w++)
		if (__atomic_load_n(&c->shm->workers[w].applied_gen, __ATOMIC_ACQUIRE) < gen)
			return 0;
	return 1;
}

void
control_note(struct control *c, uint32_t what, int64_t old, int64_t val, uint64_t now_tsc)
{
	struct dp_control *b = &c->shm->ctl;
	struct dp_change *ch;

	pthread_mutex_lock(&c->lock);
	ch = &b->changes[b->n_changes % DP_CHANGES_LEN];
	ch->tsc = now_tsc;
	ch->what = what;
	ch->old_value = old;
	ch->new_value = val;
	__atomic_store_n(&b->n_changes, b->n_changes + 1, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&c->lock);
}
