/* SPDX-License-Identifier: BSD-3-Clause */
#include <inttypes.h>
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
record_kind(struct dp_control *c, uint32_t op, uint32_t kind, int64_t old, int64_t val, uint64_t tsc)
{
	struct dp_change *ch = &c->changes[c->n_changes % DP_CHANGES_LEN];

	ch->tsc = tsc;
	ch->what = op;
	ch->kind = kind;
	ch->old_value = old;
	ch->new_value = val;
	c->request_tsc = tsc;
	__atomic_store_n(&c->n_changes, c->n_changes + 1, __ATOMIC_RELEASE);
	__atomic_add_fetch(&c->generation, 1, __ATOMIC_RELEASE);
}

static void
record(struct dp_control *c, uint32_t op, int64_t old, int64_t val, uint64_t tsc)
{
	record_kind(c, op, 0, old, val, tsc);
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

_Static_assert(DP_CTL_KIND_LEN == DP_KIND_NAME_LEN, "a request carries any kind's name");

/* set weight KIND N, once its general checks passed: the rules (a client
 * with two kinds or more, the kind named, the weight in range, not every
 * weight 0 after), then the new table built in the free slot and
 * published, the memzone's weights, the change recorded. Returns 0, or
 * -1 with the refusal in rep. */
static int
set_weight(struct control *ctl, const struct dp_ctl_req *req, struct dp_ctl_rep *rep, uint64_t now)
{
	struct dp_shm *shm = ctl->shm;
	const struct dp_config *cfg = ctl->cfg;
	uint32_t w[DP_MAX_KINDS], n = cfg->n_kinds, k;
	uint64_t sum = 0;
	int64_t v = req->value, old;
	size_t l;

	if (shm->hdr.mode != DP_MODE_CLIENT) {
		snprintf(rep->msg, sizeof(rep->msg), "set weight: this primary is a server; only a client picks the kind of its connections");
		goto refused;
	}
	if (n == 0) {
		snprintf(rep->msg, sizeof(rep->msg), "set weight: the test was started without kind lines (expected a configuration with two kinds or more)");
		goto refused;
	}
	if (n == 1) {
		snprintf(rep->msg, sizeof(rep->msg), "set weight: the test has one kind, %s, of every connection (expected two kind lines or more)",
			 cfg->kinds[0].name);
		goto refused;
	}
	for (k = 0; k < n; k++)
		if (strncmp(cfg->kinds[k].name, req->kind, sizeof(req->kind)) == 0)
			break;
	if (k == n) {
		l = (size_t)snprintf(rep->msg, sizeof(rep->msg), "set weight %.*s: no such kind (expected one of",
				     (int)sizeof(req->kind), req->kind);
		for (uint32_t i = 0; i < n && l < sizeof(rep->msg); i++)
			l += (size_t)snprintf(rep->msg + l, sizeof(rep->msg) - l, "%s %s", i ? "," : "",
					      cfg->kinds[i].name);
		if (l < sizeof(rep->msg))
			snprintf(rep->msg + l, sizeof(rep->msg) - l, ")");
		goto refused;
	}
	if (v < 0 || v > DP_KIND_WEIGHT_MAX) {
		snprintf(rep->msg, sizeof(rep->msg), "set weight %s %" PRId64 ": out of range (expected 0 to %d)",
			 cfg->kinds[k].name, v, DP_KIND_WEIGHT_MAX);
		goto refused;
	}
	for (uint32_t i = 0; i < n; i++) {
		w[i] = i == k ? (uint32_t)v : shm->kinds.weight[i];
		sum += w[i];
	}
	if (sum == 0) {
		snprintf(rep->msg, sizeof(rep->msg), "set weight %s 0: every kind's weight would be 0 (expected at least one kind with a weight above 0)",
			 cfg->kinds[k].name);
		goto refused;
	}
	/* A worker still on the generation before the last publication may
	 * be copying the slot the next table would be built in. */
	if (!control_workers_applied(shm, ctl->mix_gen)) {
		snprintf(rep->msg, sizeof(rep->msg), "set weight %s: the previous weight change is not yet applied by every worker (expected a retry in a moment)",
			 cfg->kinds[k].name);
		goto refused;
	}
	if (mix_table_build(mix_pub_next(&ctl->mix), w, n) != 0) { /* not reached: sum > 0 */
		snprintf(rep->msg, sizeof(rep->msg), "set weight %s: the table did not build", cfg->kinds[k].name);
		goto refused;
	}
	mix_pub_publish(&ctl->mix);
	old = shm->kinds.weight[k];
	shm->kinds.weight[k] = (uint32_t)v;
	record_kind(&shm->ctl, DP_OP_SET_WEIGHT, k, old, v, now);
	ctl->mix_gen = shm->ctl.generation;
	snprintf(rep->msg, sizeof(rep->msg), "weight %s %" PRId64 " (%.1f%% of new connections)", cfg->kinds[k].name, v,
		 100.0 * (double)v / (double)sum);
	return 0;
refused:
	rep->status = DP_CTL_REFUSED;
	return -1;
}

static void
apply_locked(struct control *ctl, const struct dp_ctl_req *req, struct dp_ctl_rep *rep, uint64_t now)
{
	struct dp_shm *shm = ctl->shm;
	const struct dp_config *cfg = ctl->cfg;
	const struct control_limits *lim = &ctl->lim;
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
	case DP_OP_SET_WEIGHT:
		if (set_weight(ctl, req, rep, now) != 0)
			return;
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
	memset(&c->mix, 0, sizeof(c->mix));
	c->mix_gen = 0;
	/* The file's weights (the parse refused all 0), in force and shown. */
	if (cfg->mode == DP_MODE_CLIENT && cfg->n_kinds > 1) {
		uint32_t w[DP_MAX_KINDS];
		struct mix_table t = { 0 };

		for (uint32_t k = 0; k < cfg->n_kinds; k++) {
			w[k] = cfg->kinds[k].weight;
			shm->kinds.weight[k] = w[k];
		}
		if (mix_table_build(&t, w, cfg->n_kinds) == 0)
			mix_pub_init(&c->mix, &t);
	}
}

void
control_apply(struct control *c, const struct dp_ctl_req *req, struct dp_ctl_rep *rep,
	      uint64_t now_tsc)
{
	memset(rep, 0, sizeof(*rep));
	rep->version = DP_CTL_VERSION;
	rep->status = DP_CTL_OK;
	pthread_mutex_lock(&c->lock);
	apply_locked(c, req, rep, now_tsc);
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
	return control_workers_applied(c->shm, gen);
}

int
control_workers_applied(const struct dp_shm *shm, uint64_t gen)
{
	uint32_t nw = dp_shm_n_workers(shm);

	for (uint32_t w = 0; w < nw; w++)
		if (__atomic_load_n(&shm->workers[w].applied_gen, __ATOMIC_ACQUIRE) < gen)
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
	ch->kind = 0;
	ch->old_value = old;
	ch->new_value = val;
	__atomic_store_n(&b->n_changes, b->n_changes + 1, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&c->lock);
}
