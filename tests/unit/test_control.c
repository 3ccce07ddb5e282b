/* SPDX-License-Identifier: BSD-3-Clause
 * Unit tests of primary/control/control.c (the rules for changing a running test)
 * and of dp_ctl_decode (common/ctl_msg.c).
 */
// links: primary/control/control.c primary/state/mix.c
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "ctl_msg.h"
#include "shm.h"
#include "control/control.h"

#define HZ 1000000000ULL  /* 1 GHz: 1000 ticks per microsecond */
#define START 5000000000ULL
#define SEC(s) ((uint64_t)(s) * HZ)
#define US(s) ((int64_t)(s) * 1000000LL)

struct fixture {
	struct dp_shm *shm;
	struct control ctl;
};

/* The primary keeps its configuration beside the memzone, not in it: a
 * test's memzone and configuration are allocated together, CFG(s) the
 * configuration of memzone s. */
struct shm_cfg {
	struct dp_shm shm;
	struct dp_config cfg;
};
#define CFG(s) (((struct shm_cfg *)(s))->cfg)

static struct dp_shm *
new_shm(enum dp_mode mode)
{
	struct dp_shm *s = aligned_alloc(DP_CACHE_LINE, sizeof(struct shm_cfg));

	assert_non_null(s);
	memset(s, 0, sizeof(struct shm_cfg));
	s->hdr.mode = mode;
	s->hdr.tsc_hz = HZ;
	s->hdr.start_tsc = START;
	s->hdr.state = DP_ST_RUNNING;
	dp_config_defaults(&CFG(s));
	CFG(s).mode = mode;
	CFG(s).n_cpus = 1;
	CFG(s).cpus[0] = 1;
	CFG(s).cps = 1000;
	CFG(s).n_clients = 1;
	CFG(s).clients[0].num = 10;
	CFG(s).n_servers = 1;
	CFG(s).servers[0].num = 1;
	s->ctl.target_cps = CFG(s).cps;
	CFG(s).duration_us = 100000000; /* not the default: the tests below count from 100 s */
	s->ctl.duration_us = CFG(s).duration_us;
	return s;
}

static int
setup_client(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (f == NULL)
		return -1;
	f->shm = new_shm(DP_MODE_CLIENT);
	control_init(&f->ctl, f->shm, &CFG(f->shm));
	*state = f;
	return 0;
}

static int
setup_client_cc(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (f == NULL)
		return -1;
	f->shm = new_shm(DP_MODE_CLIENT);
	CFG(f->shm).cc = 1000;
	CFG(f->shm).keepalive = 1;
	f->shm->ctl.target_cc = 1000;
	control_init(&f->ctl, f->shm, &CFG(f->shm));
	*state = f;
	return 0;
}

static int
setup_server(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (f == NULL)
		return -1;
	f->shm = new_shm(DP_MODE_SERVER);
	control_init(&f->ctl, f->shm, &CFG(f->shm));
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	struct fixture *f = *state;

	free(f->shm);
	free(f);
	return 0;
}

static struct dp_ctl_rep
req(struct fixture *f, uint32_t op, int64_t value, uint64_t now)
{
	struct dp_ctl_req r = { .version = DP_CTL_VERSION, .op = op, .value = value };
	struct dp_ctl_rep rep;

	memset(&rep, 0xa5, sizeof(rep));
	control_apply(&f->ctl, &r, &rep, now);
	assert_int_equal(rep.version, DP_CTL_VERSION);
	assert_non_null(memchr(rep.msg, '\0', sizeof(rep.msg)));
	return rep;
}

#define assert_refused(rep, text)                                                   \
	do {                                                                        \
		struct dp_ctl_rep r_ = (rep);                                       \
		assert_int_equal(r_.status, DP_CTL_REFUSED);                        \
		if (strstr(r_.msg, (text)) == NULL)                                 \
			fail_msg("refusal \"%s\" does not mention \"%s\"", r_.msg, (text)); \
	} while (0)

/* Nothing changed: generation and audit trail as before. */
static void
assert_unchanged(const struct dp_shm *s, uint64_t gen, uint32_t n_changes)
{
	assert_int_equal(s->ctl.generation, gen);
	assert_int_equal(s->ctl.n_changes, n_changes);
}

static void
test_limits(void **state)
{
	struct fixture *f = *state;
	struct control_limits lim;
	struct dp_config c = CFG(f->shm);

	(void)state;
	/* 10 clients x 65535 ports x 1 listen port x 1 worker. */
	assert_int_equal(f->ctl.lim.tuples, 655350);
	assert_int_equal(f->ctl.lim.max_cps, 655350 / DP_TUPLE_REUSE_S);
	assert_int_equal(f->ctl.lim.max_cc, 655350);
	assert_int_equal(f->ctl.lim.n_workers, 1);

	/* Huge tuple space: the per-core bound applies. */
	c.clients[0].num = 1000000;
	c.n_cpus = 2;
	control_limits_init(&lim, &c);
	assert_int_equal(lim.max_cps, 2 * DP_MAX_CPS_PER_CORE);
	/* UDP: no tuple reuse bound; flood: no bound at all but the device's. */
	c.clients[0].num = 1;
	c.protocol = DP_PROTO_UDP;
	control_limits_init(&lim, &c);
	assert_int_equal(lim.max_cps, 2 * DP_MAX_CPS_PER_CORE);
	c.flood = 1;
	control_limits_init(&lim, &c);
	assert_true(lim.max_cps == UINT64_MAX);
	/* Server: no client limits. */
	c.mode = DP_MODE_SERVER;
	control_limits_init(&lim, &c);
	assert_int_equal(lim.max_cps, 0);
	assert_int_equal(lim.n_workers, 2);
}

static void
test_ping(void **state)
{
	struct fixture *f = *state;
	struct dp_ctl_rep rep;

	rep = req(f, DP_OP_PING, 0, START + SEC(1));
	assert_int_equal(rep.status, DP_CTL_OK);
	assert_unchanged(f->shm, 0, 0);
	/* Even while stopping. */
	f->shm->ctl.stop = 1;
	rep = req(f, DP_OP_PING, 0, START + SEC(1));
	assert_int_equal(rep.status, DP_CTL_OK);
	f->shm->ctl.stop = 0;
	f->shm->hdr.state = DP_ST_DONE;
	rep = req(f, DP_OP_PING, 0, START + SEC(1));
	assert_int_equal(rep.status, DP_CTL_OK);
}

static void
test_server_refuses_client_ops(void **state)
{
	struct fixture *f = *state;

	assert_refused(req(f, DP_OP_SET_CPS, 100, START + SEC(1)), "server");
	assert_refused(req(f, DP_OP_SET_CC, 100, START + SEC(1)), "server");
	assert_refused(req(f, DP_OP_PAUSE, 0, START + SEC(1)), "server");
	assert_unchanged(f->shm, 0, 0);
	assert_int_equal(f->shm->ctl.target_cps, 1000);
	assert_int_equal(f->shm->ctl.paused, 0);
	/* A server's duration can change. */
	assert_int_equal(req(f, DP_OP_ADD_DURATION, US(5), START + SEC(1)).status, DP_CTL_OK);
	assert_int_equal(f->shm->ctl.duration_us, US(105));
}

static void
test_set_cps(void **state)
{
	struct fixture *f = *state;
	struct dp_shm *s = f->shm;
	struct dp_ctl_rep rep;
	int64_t max = (int64_t)f->ctl.lim.max_cps;

	assert_refused(req(f, DP_OP_SET_CPS, 0, START + SEC(1)), "at least 1");
	assert_refused(req(f, DP_OP_SET_CPS, -5, START + SEC(1)), "at least 1");
	assert_refused(req(f, DP_OP_SET_CPS, max + 1, START + SEC(1)), "beyond");
	assert_refused(req(f, DP_OP_SET_CPS, INT64_MAX, START + SEC(1)), "beyond");
	assert_unchanged(s, 0, 0);
	assert_int_equal(s->ctl.target_cps, 1000);

	rep = req(f, DP_OP_SET_CPS, 2500, START + SEC(2));
	assert_int_equal(rep.status, DP_CTL_OK);
	assert_int_equal(rep.applied, 2500);
	assert_int_equal(rep.generation, 1);
	assert_int_equal(s->ctl.target_cps, 2500);
	assert_int_equal(s->ctl.generation, 1);
	assert_int_equal(s->ctl.n_changes, 1);
	assert_int_equal(s->ctl.changes[0].what, DP_OP_SET_CPS);
	assert_int_equal(s->ctl.changes[0].old_value, 1000);
	assert_int_equal(s->ctl.changes[0].new_value, 2500);
	assert_int_equal(s->ctl.changes[0].tsc, START + SEC(2));
	assert_int_equal(s->ctl.request_tsc, START + SEC(2));

	/* The maximum itself is accepted. */
	rep = req(f, DP_OP_SET_CPS, max, START + SEC(3));
	assert_int_equal(rep.status, DP_CTL_OK);
	assert_int_equal(s->ctl.target_cps, max);
	assert_int_equal(s->ctl.n_changes, 2);
	assert_int_equal(s->ctl.changes[1].old_value, 2500);
	assert_int_equal(s->ctl.changes[1].new_value, max);
	assert_int_equal(rep.generation, 2);
}

static void
test_changes_ring(void **state)
{
	struct fixture *f = *state;
	struct dp_shm *s = f->shm;

	for (int i = 1; i <= DP_CHANGES_LEN + 5; i++)
		assert_int_equal(req(f, DP_OP_SET_CPS, 100 + i, START + SEC(1)).status, DP_CTL_OK);
	assert_int_equal(s->ctl.n_changes, DP_CHANGES_LEN + 5);
	assert_int_equal(s->ctl.generation, DP_CHANGES_LEN + 5);
	/* The newest entry overwrote slot (n - 1) % LEN. */
	struct dp_change *last = &s->ctl.changes[(DP_CHANGES_LEN + 4) % DP_CHANGES_LEN];
	assert_int_equal(last->new_value, 100 + DP_CHANGES_LEN + 5);
	assert_int_equal(last->old_value, 100 + DP_CHANGES_LEN + 4);
}

static void
test_set_cc_without_cc(void **state)
{
	struct fixture *f = *state;

	assert_refused(req(f, DP_OP_SET_CC, 100, START + SEC(1)), "without cc");
	assert_unchanged(f->shm, 0, 0);
	assert_int_equal(f->shm->ctl.target_cc, 0);
}

static void
test_set_cc(void **state)
{
	struct fixture *f = *state;
	struct dp_shm *s = f->shm;
	struct dp_ctl_rep rep;

	assert_refused(req(f, DP_OP_SET_CC, 0, START + SEC(1)), "at least 1");
	assert_refused(req(f, DP_OP_SET_CC, (int64_t)f->ctl.lim.max_cc + 1, START + SEC(1)), "exceeds the");
	assert_unchanged(s, 0, 0);
	rep = req(f, DP_OP_SET_CC, 5000, START + SEC(1));
	assert_int_equal(rep.status, DP_CTL_OK);
	assert_int_equal(rep.applied, 5000);
	assert_int_equal(s->ctl.target_cc, 5000);
	assert_int_equal(s->ctl.changes[0].what, DP_OP_SET_CC);
	assert_int_equal(s->ctl.changes[0].old_value, 1000);
	assert_int_equal(s->ctl.changes[0].new_value, 5000);
	assert_int_equal(s->ctl.generation, 1);
}

static void
test_pause_resume(void **state)
{
	struct fixture *f = *state;
	struct dp_shm *s = f->shm;

	assert_refused(req(f, DP_OP_RESUME, 0, START + SEC(1)), "not paused");
	assert_unchanged(s, 0, 0);

	assert_int_equal(req(f, DP_OP_PAUSE, 0, START + SEC(1)).status, DP_CTL_OK);
	assert_int_equal(s->ctl.paused, 1);
	assert_int_equal(s->ctl.generation, 1);
	assert_int_equal(s->ctl.changes[0].what, DP_OP_PAUSE);
	assert_int_equal(s->ctl.changes[0].old_value, 0);
	assert_int_equal(s->ctl.changes[0].new_value, 1);

	assert_refused(req(f, DP_OP_PAUSE, 0, START + SEC(2)), "already paused");
	assert_unchanged(s, 1, 1);
	assert_int_equal(s->ctl.paused, 1);

	assert_int_equal(req(f, DP_OP_RESUME, 0, START + SEC(3)).status, DP_CTL_OK);
	assert_int_equal(s->ctl.paused, 0);
	assert_int_equal(s->ctl.changes[1].what, DP_OP_RESUME);
	assert_int_equal(s->ctl.changes[1].old_value, 1);
	assert_int_equal(s->ctl.changes[1].new_value, 0);
	assert_refused(req(f, DP_OP_RESUME, 0, START + SEC(4)), "not paused");
	assert_unchanged(s, 2, 2);
}

static void
test_duration(void **state)
{
	struct fixture *f = *state;
	struct dp_shm *s = f->shm;
	struct dp_ctl_rep rep;

	/* 30 s have run: ending at 20 s or exactly now is in the past. */
	assert_refused(req(f, DP_OP_SET_DURATION, US(20), START + SEC(30)), "past");
	assert_refused(req(f, DP_OP_SET_DURATION, US(30), START + SEC(30)), "past");
	assert_refused(req(f, DP_OP_SET_DURATION, -1, START + SEC(30)), "past");
	assert_unchanged(s, 0, 0);
	assert_int_equal(s->ctl.duration_us, US(100));

	/* +5 s: the end moves by 5 s. */
	rep = req(f, DP_OP_ADD_DURATION, US(5), START + SEC(30));
	assert_int_equal(rep.status, DP_CTL_OK);
	assert_int_equal(s->ctl.duration_us, 105000000ULL);
	assert_int_equal(rep.applied, US(105));
	assert_int_equal(s->ctl.changes[0].what, DP_OP_SET_DURATION);
	assert_int_equal(s->ctl.changes[0].old_value, US(100));
	assert_int_equal(s->ctl.changes[0].new_value, US(105));
	assert_int_equal(s->ctl.generation, 1);

	/* -T: shortens, unless it would end in the past. */
	rep = req(f, DP_OP_ADD_DURATION, -US(60), START + SEC(30));
	assert_int_equal(rep.status, DP_CTL_OK);
	assert_int_equal(s->ctl.duration_us, US(45));
	assert_refused(req(f, DP_OP_ADD_DURATION, -US(15), START + SEC(30)), "past");
	assert_refused(req(f, DP_OP_ADD_DURATION, -US(100), START + SEC(30)), "past");
	assert_unchanged(s, 2, 2);
	assert_int_equal(s->ctl.duration_us, US(45));

	/* Absolute: from the start. */
	rep = req(f, DP_OP_SET_DURATION, US(200), START + SEC(30));
	assert_int_equal(rep.status, DP_CTL_OK);
	assert_int_equal(s->ctl.duration_us, US(200));
	assert_int_equal(s->ctl.changes[2].old_value, US(45));
	/* Before the start (now < start_tsc): nothing has run yet. */
	rep = req(f, DP_OP_SET_DURATION, 1, START - SEC(1));
	assert_int_equal(rep.status, DP_CTL_OK);
	assert_int_equal(s->ctl.duration_us, 1);
}

/* dperf's clock: duration counts from the end of the lead (a client's
 * wait + slow start), so the run ends at lead + duration. */
static void
test_duration_after_lead(void **state)
{
	struct fixture *f = *state;
	struct dp_shm *s = f->shm;
	struct dp_ctl_rep rep;

	s->ctl.lead_s = 11; /* wait 1 + slow_start 10 */
	assert_int_equal(dp_run_end_us(&s->ctl), US(111));
	/* At 14 s, "set duration 5s" ends at 16 s: in the future. */
	rep = req(f, DP_OP_SET_DURATION, US(5), START + SEC(14));
	assert_int_equal(rep.status, DP_CTL_OK);
	assert_int_equal(s->ctl.duration_us, US(5));
	assert_int_equal(dp_run_end_us(&s->ctl), US(16));
	assert_non_null(strstr(rep.msg, "after 11 s of wait and slow start (2.0 s left)"));
	/* At 14 s, 2 s after the lead ends at 13 s: in the past. */
	assert_refused(req(f, DP_OP_SET_DURATION, US(2), START + SEC(14)), "ends in the past");
	assert_refused(req(f, DP_OP_ADD_DURATION, -US(3), START + SEC(14)), "ends in the past");
	assert_refused(req(f, DP_OP_ADD_DURATION, -US(2), START + SEC(14)), "ends in the past");
	rep = req(f, DP_OP_ADD_DURATION, -US(1), START + SEC(14));
	assert_int_equal(rep.status, DP_CTL_OK);
	assert_int_equal(dp_run_end_us(&s->ctl), US(15));
}

/* Issue 31 item 5: a duration and a sum of durations stay within
 * duration's range (DP_DURATION_MAX_US): refused beyond it, never wrapped
 * (duration 2^64-1 us, then "+10s", used to answer "duration 10.0 s"). */
static void
test_duration_bounds(void **state)
{
	struct fixture *f = *state;
	struct dp_shm *s = f->shm;
	struct dp_ctl_rep rep;

	assert_refused(req(f, DP_OP_SET_DURATION, (int64_t)DP_DURATION_MAX_US + 1, START + SEC(30)),
		       "beyond");
	assert_refused(req(f, DP_OP_ADD_DURATION, (int64_t)DP_DURATION_MAX_US, START + SEC(30)),
		       "beyond");
	assert_refused(req(f, DP_OP_ADD_DURATION, INT64_MAX, START + SEC(30)), "beyond");
	assert_int_equal(s->ctl.duration_us, US(100));
	rep = req(f, DP_OP_SET_DURATION, (int64_t)DP_DURATION_MAX_US, START + SEC(30));
	assert_int_equal(rep.status, DP_CTL_OK);
	assert_refused(req(f, DP_OP_ADD_DURATION, US(10), START + SEC(30)), "beyond");
	assert_int_equal(s->ctl.duration_us, DP_DURATION_MAX_US);
	assert_int_equal(dp_run_end_us(&s->ctl), DP_DURATION_MAX_US);
	/* a duration the parse used to accept: the sum is refused, not wrapped */
	s->ctl.lead_s = 12;
	s->ctl.duration_us = UINT64_MAX;
	assert_refused(req(f, DP_OP_ADD_DURATION, US(10), START + SEC(30)), "beyond");
	assert_int_equal(s->ctl.duration_us, UINT64_MAX);
}

/* UDP with cc: dperf's packets-per-second mode, where the rate is cc /
 * interval: set cps would change nothing, so it is refused; set cc works. */
static void
test_pps_mode(void **state)
{
	struct fixture *f = *state;
	struct dp_shm *s = f->shm;

	CFG(s).protocol = DP_PROTO_UDP;
	assert_refused(req(f, DP_OP_SET_CPS, 2000, START + SEC(1)), "packets-per-second mode");
	assert_unchanged(s, 0, 0);
	assert_int_equal(req(f, DP_OP_SET_CC, 2000, START + SEC(1)).status, DP_CTL_OK);
	assert_int_equal(s->ctl.target_cc, 2000);
}

/* What a stop waits for starts only once every worker has applied it:
 * before, a worker may still open a connection (a CI run's client exited
 * with one in SYN_SENT, seen by the primary's memzone as none open). */
static void
test_stop_applied(void **state)
{
	struct fixture *f = *state;
	struct dp_shm *s = f->shm;
	uint64_t gen;

	s->hdr.n_workers = 3;
	assert_int_equal(control_stop_applied(&f->ctl), 0); /* no stop */
	assert_int_equal(req(f, DP_OP_SET_CPS, 2000, START + SEC(1)).status, DP_CTL_OK);
	for (int w = 0; w < 3; w++)
		s->workers[w].applied_gen = s->ctl.generation;
	assert_int_equal(control_stop_applied(&f->ctl), 0); /* all applied, but no stop */
	assert_int_equal(req(f, DP_OP_STOP, 0, START + SEC(2)).status, DP_CTL_OK);
	gen = s->ctl.generation;
	assert_int_equal(control_stop_applied(&f->ctl), 0); /* none has seen it */
	s->workers[0].applied_gen = gen;
	s->workers[2].applied_gen = gen;
	assert_int_equal(control_stop_applied(&f->ctl), 0); /* worker 1 has not */
	s->workers[1].applied_gen = gen;
	assert_int_equal(control_stop_applied(&f->ctl), 1);
	s->hdr.n_workers = 4; /* a fourth that applied nothing yet */
	assert_int_equal(control_stop_applied(&f->ctl), 0);
}

static void
test_stop(void **state)
{
	struct fixture *f = *state;
	struct dp_shm *s = f->shm;

	assert_int_equal(req(f, DP_OP_STOP, 0, START + SEC(1)).status, DP_CTL_OK);
	assert_int_equal(s->ctl.stop, 1);
	assert_int_equal(s->ctl.changes[0].what, DP_OP_STOP);
	assert_unchanged(s, 1, 1);

	assert_refused(req(f, DP_OP_SET_CPS, 10, START + SEC(2)), "stopping");
	assert_refused(req(f, DP_OP_SET_CC, 10, START + SEC(2)), "stopping");
	assert_refused(req(f, DP_OP_ADD_DURATION, US(5), START + SEC(2)), "stopping");
	assert_refused(req(f, DP_OP_SET_DURATION, US(500), START + SEC(2)), "stopping");
	assert_refused(req(f, DP_OP_PAUSE, 0, START + SEC(2)), "stopping");
	assert_refused(req(f, DP_OP_RESUME, 0, START + SEC(2)), "stopping");
	assert_refused(req(f, DP_OP_STOP, 0, START + SEC(2)), "stopping");
	assert_unchanged(s, 1, 1);
	assert_int_equal(s->ctl.target_cps, 1000);
	assert_int_equal(req(f, DP_OP_PING, 0, START + SEC(2)).status, DP_CTL_OK);
}

static void
test_state_stopping(void **state)
{
	struct fixture *f = *state;

	/* The main lcore is stopping (duration over, signal): refused too. */
	f->shm->hdr.state = DP_ST_STOPPING;
	assert_refused(req(f, DP_OP_SET_CPS, 10, START + SEC(2)), "stopping");
	f->shm->hdr.state = DP_ST_DONE;
	assert_refused(req(f, DP_OP_ADD_DURATION, US(5), START + SEC(2)), "stopping");
	assert_unchanged(f->shm, 0, 0);
	/* Paused state is not stopping. */
	f->shm->hdr.state = DP_ST_PAUSED;
	assert_int_equal(req(f, DP_OP_SET_CPS, 10, START + SEC(2)).status, DP_CTL_OK);
}

/* A request older than DP_CTL_MAX_AGE_MS when it is handled (the primary
 * was stopped meanwhile) is refused, whatever it asks; a fresh one, or a
 * local one (send_tsc 0), is applied. */
static void
test_stale(void **state)
{
	struct fixture *f = *state;
	uint64_t now = START + SEC(20), age = SEC(DP_CTL_MAX_AGE_MS / 1000);
	struct dp_ctl_req r = { .version = DP_CTL_VERSION, .op = DP_OP_SET_CPS, .value = 7000 };
	struct dp_ctl_rep rep;

	r.send_tsc = now - age - HZ / 100;
	control_apply(&f->ctl, &r, &rep, now);
	assert_refused(rep, "not applied");
	r.op = DP_OP_STOP;
	control_apply(&f->ctl, &r, &rep, now);
	assert_refused(rep, "not applied");
	assert_unchanged(f->shm, 0, 0);
	assert_int_equal(f->shm->ctl.target_cps, 1000);
	assert_int_equal(f->shm->ctl.stop, 0);

	r.op = DP_OP_SET_CPS;
	r.send_tsc = now - age + HZ / 100;
	control_apply(&f->ctl, &r, &rep, now);
	assert_int_equal(rep.status, DP_CTL_OK);
	r.send_tsc = 0;
	r.value = 8000;
	control_apply(&f->ctl, &r, &rep, now);
	assert_int_equal(rep.status, DP_CTL_OK);
	assert_int_equal(f->shm->ctl.target_cps, 8000);
}

static void
test_unknown_op(void **state)
{
	struct fixture *f = *state;

	assert_refused(req(f, DP_OP_NONE, 0, START + SEC(1)), "unknown");
	assert_refused(req(f, DP_OP__COUNT + 7, 0, START + SEC(1)), "unknown");
	assert_unchanged(f->shm, 0, 0);
}

/* set weight (issue 37): the kinds a, b, c at 70/20/10, two workers. */
static int
setup_client_kinds(void **state)
{
	static const char *const names[] = { "a", "b", "c" };
	static const uint32_t w[] = { 70, 20, 10 };
	struct fixture *f = calloc(1, sizeof(*f));

	if (f == NULL)
		return -1;
	f->shm = new_shm(DP_MODE_CLIENT);
	CFG(f->shm).n_kinds = 3;
	for (int k = 0; k < 3; k++) {
		snprintf(CFG(f->shm).kinds[k].name, DP_KIND_NAME_LEN, "%s", names[k]);
		CFG(f->shm).kinds[k].weight = w[k];
	}
	f->shm->kinds.n = 3;
	for (int k = 0; k < 3; k++)
		snprintf(f->shm->kinds.name[k], DP_KIND_NAME_LEN, "%s", names[k]);
	control_init(&f->ctl, f->shm, &CFG(f->shm));
	*state = f;
	return 0;
}

static struct dp_ctl_rep
weight(struct fixture *f, const char *kind, int64_t value)
{
	struct dp_ctl_req r = { .version = DP_CTL_VERSION, .op = DP_OP_SET_WEIGHT, .value = value };
	struct dp_ctl_rep rep;

	snprintf(r.kind, sizeof(r.kind), "%s", kind);
	memset(&rep, 0xa5, sizeof(rep));
	control_apply(&f->ctl, &r, &rep, START + SEC(3));
	assert_int_equal(rep.version, DP_CTL_VERSION);
	assert_non_null(memchr(rep.msg, '\0', sizeof(rep.msg)));
	return rep;
}

static void
assert_weights(const struct dp_shm *s, uint32_t a, uint32_t b, uint32_t c)
{
	assert_int_equal(s->kinds.weight[0], a);
	assert_int_equal(s->kinds.weight[1], b);
	assert_int_equal(s->kinds.weight[2], c);
}

/* The rules, each refusal one line that says which, and nothing changed:
 * no generation, no change logged, the weights and the table in force as
 * they were. */
static void
test_weight_rules(void **state)
{
	struct fixture *f = *state;
	struct dp_shm *s = f->shm;
	struct dp_ctl_rep rep;

	assert_weights(s, 70, 20, 10); /* the file's, shown from the start */
	assert_refused(weight(f, "d", 5), "set weight d: no such kind (expected one of a, b, c)");
	assert_refused(weight(f, "", 5), "no such kind");
	assert_refused(weight(f, "a", -1), "set weight a -1: out of range (expected 0 to 1000000)");
	assert_refused(weight(f, "a", DP_KIND_WEIGHT_MAX + 1), "out of range");
	assert_refused(weight(f, "a", INT64_MIN), "out of range");
	assert_unchanged(s, 0, 0);
	assert_weights(s, 70, 20, 10);
	assert_int_equal(f->ctl.mix.cur, 0);

	/* The bounds themselves are weights. */
	rep = weight(f, "a", DP_KIND_WEIGHT_MAX);
	assert_int_equal(rep.status, DP_CTL_OK);
	assert_int_equal(rep.applied, DP_KIND_WEIGHT_MAX);
	rep = weight(f, "a", 0);
	assert_int_equal(rep.status, DP_CTL_OK);
	assert_string_equal(rep.msg, "weight a 0 (0.0% of new connections)");
	rep = weight(f, "b", 0);
	assert_int_equal(rep.status, DP_CTL_OK);
	assert_weights(s, 0, 0, 10);
	assert_unchanged(s, 3, 3);
	/* the last one above 0 stays */
	assert_refused(weight(f, "c", 0), "set weight c 0: every kind's weight would be 0");
	assert_unchanged(s, 3, 3);
	assert_weights(s, 0, 0, 10);
	rep = weight(f, "c", 30);
	assert_int_equal(rep.status, DP_CTL_OK);
	assert_string_equal(rep.msg, "weight c 30 (100.0% of new connections)");

	/* Each accepted change is logged with its kind, old and new. */
	assert_int_equal(s->ctl.changes[0].what, DP_OP_SET_WEIGHT);
	assert_int_equal(s->ctl.changes[0].kind, 0);
	assert_int_equal(s->ctl.changes[0].old_value, 70);
	assert_int_equal(s->ctl.changes[0].new_value, DP_KIND_WEIGHT_MAX);
	assert_int_equal(s->ctl.changes[2].kind, 1);
	assert_int_equal(s->ctl.changes[2].old_value, 20);
	assert_int_equal(s->ctl.changes[2].new_value, 0);
	assert_int_equal(s->ctl.changes[3].kind, 2);
	assert_int_equal(s->ctl.changes[3].new_value, 30);
	assert_int_equal(s->ctl.changes[3].old_value, 10);

	/* Stopping: refused like every change. */
	assert_int_equal(req(f, DP_OP_STOP, 0, START + SEC(3)).status, DP_CTL_OK);
	assert_refused(weight(f, "a", 5), "stopping");
}

/* A worker may be copying the table in force until it acknowledges the
 * generation that published it: the next table (built in the other slot,
 * the one it copied before) waits for every worker. */
static void
test_weight_waits_for_workers(void **state)
{
	struct fixture *f = *state;
	struct dp_shm *s = f->shm;
	uint64_t gen;

	s->hdr.n_workers = 2;
	assert_int_equal(weight(f, "a", 10).status, DP_CTL_OK);
	gen = s->ctl.generation;
	assert_refused(weight(f, "b", 10), "the previous weight change is not yet applied by every worker");
	assert_unchanged(s, gen, 1);
	s->workers[0].applied_gen = gen;
	assert_refused(weight(f, "b", 10), "not yet applied");
	s->workers[1].applied_gen = gen;
	assert_int_equal(weight(f, "b", 10).status, DP_CTL_OK);
	assert_weights(s, 10, 10, 10);
	/* other changes do not wait on it */
	assert_int_equal(req(f, DP_OP_SET_CPS, 2000, START + SEC(3)).status, DP_CTL_OK);
}

static void
test_weight_refused_without_kinds(void **state)
{
	struct fixture *f = *state;

	assert_refused(weight(f, "a", 5), "set weight: the test was started without kind lines");
	CFG(f->shm).n_kinds = 1;
	snprintf(CFG(f->shm).kinds[0].name, DP_KIND_NAME_LEN, "only");
	assert_refused(weight(f, "only", 5), "set weight: the test has one kind, only");
	assert_unchanged(f->shm, 0, 0);
}

static void
test_weight_refused_on_server(void **state)
{
	struct fixture *f = *state;

	assert_refused(weight(f, "a", 5), "set weight: this primary is a server");
	assert_unchanged(f->shm, 0, 0);
}

/* After a swap the workers' pick follows the new weights (each share
 * within 1% over 100,000 picks), a kind set to 0 is never picked, and a
 * worker that already has the table in force keeps its own copy. */
#define PICKS 100000
static void
test_weight_swap(void **state)
{
	struct fixture *f = *state;
	uint32_t count[3] = { 0 };
	struct mix m;

	mix_init(&m, 1, 0, &f->ctl.mix.slot[f->ctl.mix.cur]);
	mix_take(&m, &f->ctl.mix); /* the same table: nothing to take */
	for (int i = 0; i < PICKS; i++)
		count[mix_pick(&m)]++;
	assert_true(count[0] > PICKS * 69 / 100 && count[0] < PICKS * 71 / 100);
	assert_int_equal(weight(f, "a", 0).status, DP_CTL_OK);
	assert_int_equal(weight(f, "c", 60).status, DP_CTL_OK); /* a 0, b 20, c 60 */
	mix_take(&m, &f->ctl.mix);
	memset(count, 0, sizeof(count));
	for (int i = 0; i < PICKS; i++)
		count[mix_pick(&m)]++;
	print_message("after the swap: a %u b %u c %u of %d\n", count[0], count[1], count[2], PICKS);
	assert_int_equal(count[0], 0);
	assert_true(count[1] > PICKS * 24 / 100 && count[1] < PICKS * 26 / 100);
	assert_true(count[2] > PICKS * 74 / 100 && count[2] < PICKS * 76 / 100);
}

/*
 * The tables' double buffer, raced for real: one thread sets kind a's
 * weight to 1, 2, 3, ... (change k publishes table k, of weights k, 20,
 * 10), retrying while refused; another plays the workers: at each new
 * generation it takes the table in force (mix_take) and acknowledges the
 * generation. Every table it took must be whole: the one built from its
 * own number's weights, never half of one and half of the next.
 */
#define WEIGHT_RACE_CHANGES 20000

struct wrace {
	struct fixture f;
	volatile int done;
	uint64_t torn, takes;
};

static void *
wrace_worker(void *arg)
{
	struct wrace *r = arg;
	struct dp_shm *s = r->f.shm;
	struct control_view v = { 0 };
	struct mix m;
	uint64_t seen = 0;
	uint32_t last = 0;

	mix_init(&m, 1, 0, &r->f.ctl.mix.slot[0]);
	for (;;) {
		int done = __atomic_load_n(&r->done, __ATOMIC_ACQUIRE);

		if (s->ctl.generation != seen) {
			uint32_t w[3] = { 0, 20, 10 };
			struct mix_table want = { 0 };

			seen = control_read(&s->ctl, &v);
			mix_take(&m, &r->f.ctl.mix);
			if (m.t.gen != last) {
				r->takes++;
				last = m.t.gen;
				w[0] = m.t.gen;
				if (mix_table_build(&want, w, 3) != 0 ||
				    memcmp(want.prob, m.t.prob, sizeof(want.prob)) != 0 ||
				    memcmp(want.alias, m.t.alias, sizeof(want.alias)) != 0)
					r->torn++;
			}
			__atomic_store_n(&s->workers[0].applied_gen, seen, __ATOMIC_RELEASE);
		} else if (done) {
			break;
		}
	}
	return NULL;
}

static void
test_weight_race(void **state)
{
	static struct wrace r;
	uint64_t refused = 0;
	pthread_t t;

	(void)state;
	memset(&r, 0, sizeof(r));
	{
		void *p = &r.f;

		assert_int_equal(setup_client_kinds(&p), 0);
		r.f = *(struct fixture *)p;
		free(p);
	}
	r.f.shm->hdr.n_workers = 1;
	control_init(&r.f.ctl, r.f.shm, &CFG(r.f.shm));
	assert_int_equal(pthread_create(&t, NULL, wrace_worker, &r), 0);
	for (int64_t k = 1; k <= WEIGHT_RACE_CHANGES;) {
		struct dp_ctl_req q = { .version = DP_CTL_VERSION, .op = DP_OP_SET_WEIGHT, .value = k,
					.kind = "a" };
		struct dp_ctl_rep rep;

		control_apply(&r.f.ctl, &q, &rep, START);
		if (rep.status == DP_CTL_OK)
			k++;
		else
			refused++;
	}
	__atomic_store_n(&r.done, 1, __ATOMIC_RELEASE);
	assert_int_equal(pthread_join(t, NULL), 0);
	print_message("%d tables published, %lu taken, %lu torn, %lu requests refused while a worker was behind\n",
		      WEIGHT_RACE_CHANGES, (unsigned long)r.takes, (unsigned long)r.torn, (unsigned long)refused);
	assert_int_equal(r.torn, 0);
	assert_int_equal(r.f.shm->kinds.weight[0], WEIGHT_RACE_CHANGES);
	free(r.f.shm);
}

/* dp_ctl_decode */

static void
test_decode(void **state)
{
	struct dp_ctl_req in = { .version = DP_CTL_VERSION, .op = DP_OP_SET_CPS, .value = 1234,
				 .send_tsc = 99 };
	struct dp_ctl_req out;
	uint8_t raw[sizeof(in) + 8];
	const char *why = NULL;

	(void)state;
	memcpy(raw, &in, sizeof(in));
	assert_int_equal(dp_ctl_decode(raw, sizeof(in), &out, &why), 0);
	assert_int_equal(out.version, DP_CTL_VERSION);
	assert_int_equal(out.op, DP_OP_SET_CPS);
	assert_int_equal(out.value, 1234);
	assert_int_equal(out.send_tsc, 99);
	/* Longer than a request (rte_mp pads): the request part counts. */
	assert_int_equal(dp_ctl_decode(raw, sizeof(raw), &out, &why), 0);

	/* Short, empty, NULL. */
	why = NULL;
	assert_int_equal(dp_ctl_decode(raw, sizeof(in) - 1, &out, &why), -1);
	assert_non_null(why);
	assert_non_null(strstr(why, "short"));
	assert_int_equal(dp_ctl_decode(raw, 0, &out, &why), -1);
	assert_int_equal(dp_ctl_decode(NULL, sizeof(in), &out, &why), -1);

	/* Wrong version. */
	in.version = DP_CTL_VERSION + 1;
	memcpy(raw, &in, sizeof(in));
	why = NULL;
	assert_int_equal(dp_ctl_decode(raw, sizeof(in), &out, &why), -1);
	assert_non_null(strstr(why, "version"));
	in.version = 0;
	memcpy(raw, &in, sizeof(in));
	assert_int_equal(dp_ctl_decode(raw, sizeof(in), &out, &why), -1);

	/* Unknown ops. */
	in.version = DP_CTL_VERSION;
	uint32_t bad_ops[] = { DP_OP_NONE, DP_OP__COUNT, DP_OP__COUNT + 1, 0xffffffffu };
	for (size_t i = 0; i < sizeof(bad_ops) / sizeof(bad_ops[0]); i++) {
		in.op = bad_ops[i];
		memcpy(raw, &in, sizeof(in));
		why = NULL;
		assert_int_equal(dp_ctl_decode(raw, sizeof(in), &out, &why), -1);
		assert_non_null(strstr(why, "unknown"));
	}
	/* A request of another build, shorter than ours (version 1 had no
	 * kind): its version is what it is told about. */
	in.version = 1;
	memcpy(raw, &in, sizeof(in));
	why = NULL;
	assert_int_equal(dp_ctl_decode(raw, 24, &out, &why), -1);
	assert_non_null(strstr(why, "version"));
	why = NULL;
	assert_int_equal(dp_ctl_decode(raw, 3, &out, &why), -1);
	assert_non_null(strstr(why, "short"));

	/* Every known op decodes. */
	in.version = DP_CTL_VERSION;
	for (uint32_t op = DP_OP_NONE + 1; op < DP_OP__COUNT; op++) {
		in.op = op;
		memcpy(raw, &in, sizeof(in));
		assert_int_equal(dp_ctl_decode(raw, sizeof(in), &out, &why), 0);
		assert_int_equal(out.op, op);
	}
}

/* set weight's request, through the bytes rte_mp carries: the kind's
 * name and the weight arrive as sent; a name without its NUL does not. */
static void
test_decode_weight(void **state)
{
	struct dp_ctl_req in = { .version = DP_CTL_VERSION, .op = DP_OP_SET_WEIGHT, .value = 250000,
				 .send_tsc = 7, .kind = "big.1-x_y" };
	struct dp_ctl_req out;
	uint8_t raw[DP_CTL_MSG_MAX];
	const char *why = NULL;

	(void)state;
	memset(raw, 0, sizeof(raw));
	memcpy(raw, &in, sizeof(in));
	assert_int_equal(dp_ctl_decode(raw, sizeof(raw), &out, &why), 0);
	assert_int_equal(out.op, DP_OP_SET_WEIGHT);
	assert_int_equal(out.value, 250000);
	assert_int_equal(out.send_tsc, 7);
	assert_string_equal(out.kind, "big.1-x_y");
	assert_string_equal(dp_ctl_op_name(out.op), "set weight");
	/* the longest name fits */
	memset(in.kind, 'k', sizeof(in.kind) - 1);
	in.kind[sizeof(in.kind) - 1] = '\0';
	memcpy(raw, &in, sizeof(in));
	assert_int_equal(dp_ctl_decode(raw, sizeof(in), &out, &why), 0);
	assert_int_equal(strlen(out.kind), DP_KIND_NAME_LEN - 1);
	/* one more byte: no NUL, refused */
	memset(in.kind, 'k', sizeof(in.kind));
	memcpy(raw, &in, sizeof(in));
	why = NULL;
	assert_int_equal(dp_ctl_decode(raw, sizeof(in), &out, &why), -1);
	assert_non_null(strstr(why, "not terminated"));
	/* the request still fits rte_mp's message */
	assert_true(sizeof(struct dp_ctl_req) <= DP_CTL_MSG_MAX);
}

static void
test_op_names(void **state)
{
	(void)state;
	for (uint32_t op = 0; op < DP_OP__COUNT; op++)
		assert_non_null(dp_ctl_op_name(op));
	assert_string_equal(dp_ctl_op_name(DP_OP_SET_CPS), "set cps");
	assert_string_equal(dp_ctl_op_name(DP_OP__COUNT), "unknown");
	assert_string_equal(dp_ctl_op_name(0xffffffffu), "unknown");
}

/*
 * The publication order, raced for real: one thread applies set cps and
 * set cc requests through control_apply (as the IPC thread does), another
 * polls the generation and reads the block through control_read (as each
 * worker does). Request k sets cps to k and cc to k, so the values a reader
 * gets with generation g must be at least g: a smaller one is a value older
 * than its generation, which a worker would keep until the next change.
 */
#define RACE_CHANGES 400000

struct race {
	struct dp_shm *shm;
	struct control ctl;
	volatile int done;
	uint64_t stale, reads, last_cps, last_cc, last_gen;
};

static void *
race_worker(void *arg)
{
	struct race *r = arg;
	struct control_view v = {0};
	uint64_t seen = 0;

	for (;;) {
		int done = __atomic_load_n(&r->done, __ATOMIC_ACQUIRE);

		if (r->shm->ctl.generation != seen) {
			seen = control_read(&r->shm->ctl, &v);
			r->reads++;
			if (v.target_cps < (v.gen + 1) / 2 || v.target_cc < v.gen / 2)
				r->stale++;
		} else if (done) {
			break;
		}
	}
	r->last_cps = v.target_cps;
	r->last_cc = v.target_cc;
	r->last_gen = v.gen;
	return NULL;
}

static void
test_publication_race(void **state)
{
	struct race r = {0};
	pthread_t t;

	(void)state;
	r.shm = new_shm(DP_MODE_CLIENT);
	CFG(r.shm).cc = 1;
	r.shm->ctl.target_cps = 0;
	r.shm->ctl.target_cc = 0;
	control_init(&r.ctl, r.shm, &CFG(r.shm));
	r.ctl.lim.max_cps = r.ctl.lim.max_cc = UINT64_MAX;
	r.ctl.lim.n_workers = 1;
	assert_int_equal(pthread_create(&t, NULL, race_worker, &r), 0);
	/* Generation 2k-1 sets cps k, generation 2k sets cc k. */
	for (int64_t k = 1; k <= RACE_CHANGES / 2; k++) {
		struct dp_ctl_req req = {.version = DP_CTL_VERSION, .op = DP_OP_SET_CPS, .value = k};
		struct dp_ctl_rep rep;

		control_apply(&r.ctl, &req, &rep, START);
		assert_int_equal(rep.status, DP_CTL_OK);
		req.op = DP_OP_SET_CC;
		control_apply(&r.ctl, &req, &rep, START);
		assert_int_equal(rep.status, DP_CTL_OK);
	}
	__atomic_store_n(&r.done, 1, __ATOMIC_RELEASE);
	assert_int_equal(pthread_join(t, NULL), 0);
	print_message("%lu reads of %d changes, %lu stale\n", (unsigned long)r.reads,
		      RACE_CHANGES, (unsigned long)r.stale);
	assert_int_equal(r.stale, 0);
	/* The last change was read with its own values. */
	assert_int_equal(r.last_gen, RACE_CHANGES);
	assert_int_equal(r.last_cps, RACE_CHANGES / 2);
	assert_int_equal(r.last_cc, RACE_CHANGES / 2);
	free(r.shm);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_limits, setup_client, teardown),
		cmocka_unit_test_setup_teardown(test_ping, setup_client, teardown),
		cmocka_unit_test_setup_teardown(test_server_refuses_client_ops, setup_server, teardown),
		cmocka_unit_test_setup_teardown(test_set_cps, setup_client, teardown),
		cmocka_unit_test_setup_teardown(test_changes_ring, setup_client, teardown),
		cmocka_unit_test_setup_teardown(test_set_cc_without_cc, setup_client, teardown),
		cmocka_unit_test_setup_teardown(test_set_cc, setup_client_cc, teardown),
		cmocka_unit_test_setup_teardown(test_pps_mode, setup_client_cc, teardown),
		cmocka_unit_test_setup_teardown(test_pause_resume, setup_client, teardown),
		cmocka_unit_test_setup_teardown(test_duration, setup_client, teardown),
		cmocka_unit_test_setup_teardown(test_duration_after_lead, setup_client, teardown),
		cmocka_unit_test_setup_teardown(test_duration_bounds, setup_client, teardown),
		cmocka_unit_test_setup_teardown(test_stop, setup_client, teardown),
		cmocka_unit_test_setup_teardown(test_stop_applied, setup_client, teardown),
		cmocka_unit_test_setup_teardown(test_state_stopping, setup_client, teardown),
		cmocka_unit_test_setup_teardown(test_stale, setup_client, teardown),
		cmocka_unit_test_setup_teardown(test_unknown_op, setup_client, teardown),
		cmocka_unit_test_setup_teardown(test_weight_rules, setup_client_kinds, teardown),
		cmocka_unit_test_setup_teardown(test_weight_waits_for_workers, setup_client_kinds, teardown),
		cmocka_unit_test_setup_teardown(test_weight_refused_without_kinds, setup_client, teardown),
		cmocka_unit_test_setup_teardown(test_weight_refused_on_server, setup_server, teardown),
		cmocka_unit_test_setup_teardown(test_weight_swap, setup_client_kinds, teardown),
		cmocka_unit_test(test_weight_race),
		cmocka_unit_test(test_decode),
		cmocka_unit_test(test_decode_weight),
		cmocka_unit_test(test_op_names),
		cmocka_unit_test(test_publication_race),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
