/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>

#include "ctl_client.h"
#include "numbers.h"

/* How often a caller waiting for an answer looks whether the primary can
 * still give one. */
#define GONE_POLL_MS 50

/*
 * The request goes out asynchronously and the caller waits in slices,
 * looking between them whether the primary can still answer. With
 * rte_mp_request_sync a request that reached the primary's IPC socket
 * just before the primary closed it (rte_eal_cleanup cancels EAL's IPC
 * thread, then removes the socket) waited out its whole timeout, 10 s, for
 * an answer that could not come: a CI run's dperf-ctl racing a stop took
 * 11.9 s to say that the primary had ended.
 *
 * Several threads may wait at once (the HTTP API's): each waiter is on a
 * list, found by its request's send TSC when EAL's thread calls back.
 */
struct waiter {
	struct waiter *next;
	uint64_t send_tsc;
	int done, ok;
	struct dp_ctl_rep rep;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static struct waiter *waiters;

/* Runs on EAL's IPC or alarm thread, once per request: with the answer,
 * or with none at the timeout. A waiter that gave up is no longer listed. */
static int
on_reply(const struct rte_mp_msg *request, const struct rte_mp_reply *reply)
{
	struct dp_ctl_req req;
	struct waiter *w;

	memcpy(&req, request->param, sizeof(req));
	pthread_mutex_lock(&lock);
	for (w = waiters; w != NULL && w->send_tsc != req.send_tsc; w = w->next)
		;
	if (w != NULL) {
		if (reply->nb_received != 1)
			snprintf(w->rep.msg, sizeof(w->rep.msg), "no answer from the primary (timeout)");
		else if ((size_t)reply->msgs[0].len_param < sizeof(w->rep))
			snprintf(w->rep.msg, sizeof(w->rep.msg), "malformed answer from the primary");
		else {
			memcpy(&w->rep, reply->msgs[0].param, sizeof(w->rep));
			w->rep.msg[sizeof(w->rep.msg) - 1] = '\0';
			w->ok = 1;
		}
		w->done = 1;
		pthread_cond_broadcast(&cond);
	}
	pthread_mutex_unlock(&lock);
	return 0;
}

/* The primary can no longer answer: it exited, or it closed its IPC
 * socket (the last thing rte_eal_cleanup does to IPC, after it stopped
 * the thread that answers). */
static int
primary_gone(void)
{
	char path[PATH_MAX];

	if (!rte_eal_primary_proc_alive(NULL))
		return 1;
	snprintf(path, sizeof(path), "%s/mp_socket", rte_eal_get_runtime_dir());
	return access(path, F_OK) != 0 && errno == ENOENT;
}

static void
unlist(struct waiter *me)
{
	struct waiter **p;

	for (p = &waiters; *p != NULL; p = &(*p)->next)
		if (*p == me) {
			*p = me->next;
			break;
		}
}

int
dp_ctl_timeout_ms(void)
{
	unsigned int s = dp_env_seconds("DPERF_CTL_TIMEOUT_S", DP_CTL_TIMEOUT_MS / 1000);

	return s * 1000 > DP_CTL_MAX_AGE_MS ? (int)s * 1000 : DP_CTL_TIMEOUT_MS;
}

int
dp_ctl_send(uint32_t op, int64_t value, struct dp_ctl_rep *rep, int timeout_ms)
{
	return dp_ctl_send_kind(op, value, NULL, rep, timeout_ms);
}

int
dp_ctl_send_kind(uint32_t op, int64_t value, const char *kind, struct dp_ctl_rep *rep, int timeout_ms)
{
	struct rte_mp_msg msg;
	struct timespec ts = { .tv_sec = timeout_ms / 1000,
			       .tv_nsec = (long)(timeout_ms % 1000) * 1000000L };
	struct dp_ctl_req req = { .version = DP_CTL_VERSION, .op = op, .value = value };
	struct waiter me;
	struct timespec now, end;
	int rc = -1;

	memset(rep, 0, sizeof(*rep));
	memset(&msg, 0, sizeof(msg));
	memset(&me, 0, sizeof(me));
	snprintf(msg.name, sizeof(msg.name), "%s", DP_CTL_ACTION);
	if (kind != NULL)
		snprintf(req.kind, sizeof(req.kind), "%s", kind);
	pthread_mutex_lock(&lock);
	/* Unique among the waiters (two threads may read the same TSC). */
	req.send_tsc = rte_rdtsc();
again:
	for (struct waiter *w = waiters; w != NULL; w = w->next)
		if (w->send_tsc == req.send_tsc) {
			req.send_tsc++;
			goto again;
		}
	me.send_tsc = req.send_tsc;
	me.next = waiters;
	waiters = &me;
	pthread_mutex_unlock(&lock);
	memcpy(msg.param, &req, sizeof(req));
	msg.len_param = sizeof(req);
	/* A little past the caller's bound: our own deadline decides. */
	ts.tv_sec += 1;
	if (rte_mp_request_async(&msg, &ts, on_reply) != 0) {
		snprintf(rep->msg, sizeof(rep->msg), "no answer from the primary (%s)",
			 rte_errno ? rte_strerror(rte_errno) : "cannot send");
		pthread_mutex_lock(&lock);
		unlist(&me);
		pthread_mutex_unlock(&lock);
		return -1;
	}
	clock_gettime(CLOCK_REALTIME, &end);
	end.tv_sec += timeout_ms / 1000;
	end.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
	if (end.tv_nsec >= 1000000000L) {
		end.tv_sec++;
		end.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&lock);
	for (;;) {
		struct timespec slice;

		if (me.done)
			break;
		clock_gettime(CLOCK_REALTIME, &now);
		if (now.tv_sec > end.tv_sec || (now.tv_sec == end.tv_sec && now.tv_nsec >= end.tv_nsec)) {
			snprintf(me.rep.msg, sizeof(me.rep.msg), "no answer from the primary (timeout)");
			break;
		}
		slice = now;
		slice.tv_nsec += GONE_POLL_MS * 1000000L;
		if (slice.tv_nsec >= 1000000000L) {
			slice.tv_sec++;
			slice.tv_nsec -= 1000000000L;
		}
		if (slice.tv_sec > end.tv_sec || (slice.tv_sec == end.tv_sec && slice.tv_nsec > end.tv_nsec))
			slice = end;
		if (pthread_cond_timedwait(&cond, &lock, &slice) == ETIMEDOUT && !me.done) {
			int gone;

			pthread_mutex_unlock(&lock);
			gone = primary_gone();
			pthread_mutex_lock(&lock);
			if (gone && !me.done) {
				snprintf(me.rep.msg, sizeof(me.rep.msg),
					 "no answer from the primary (it closed its IPC channel)");
				break;
			}
		}
	}
	unlist(&me);
	pthread_mutex_unlock(&lock);
	memcpy(rep, &me.rep, sizeof(*rep));
	if (me.ok)
		rc = 0;
	return rc;
}
