/* SPDX-License-Identifier: BSD-3-Clause */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>

#include "control/control.h"
#include "control/ctl_server.h"

#define DP_CONTROL_NICE (-5) /* as the workers (worker.c) */

/* rte_mp calls its action with no context pointer: the one control the
 * IPC server serves (set by ctl_server_start, NULL when not serving). */
static struct control *served;
/* Set by ctl_server_stop: from then on every request is refused. The
 * action stays registered until rte_eal_cleanup closes EAL's IPC, because
 * a request that reaches a primary with no action gets no reply at all: a
 * dperf-ctl that attached just before the end waited its whole timeout
 * and exited 4 ("no answer") instead of hearing that the test was over. */
static int closing;

/* Runs on EAL's IPC thread: never blocks, always replies. */
static int
on_request(const struct rte_mp_msg *msg, const void *peer)
{
	struct rte_mp_msg out;
	struct dp_ctl_req req;
	struct dp_ctl_rep rep;
	const char *why = NULL;

	if (dp_ctl_decode(msg->param, (size_t)msg->len_param, &req, &why) != 0) {
		memset(&rep, 0, sizeof(rep));
		rep.version = DP_CTL_VERSION;
		rep.status = DP_CTL_BADMSG;
		snprintf(rep.msg, sizeof(rep.msg), "%s", why);
	} else if (__atomic_load_n(&closing, __ATOMIC_ACQUIRE)) {
		memset(&rep, 0, sizeof(rep));
		rep.version = DP_CTL_VERSION;
		rep.status = DP_CTL_REFUSED;
		snprintf(rep.msg, sizeof(rep.msg), "%s: the test has ended and the primary is exiting",
			 dp_ctl_op_name(req.op));
	} else {
		control_apply(served, &req, &rep, rte_rdtsc());
	}
	memset(&out, 0, sizeof(out));
	snprintf(out.name, sizeof(out.name), "%s", DP_CTL_ACTION);
	memcpy(out.param, &rep, sizeof(rep));
	out.len_param = sizeof(rep);
	return rte_mp_reply(&out, peer);
}

/* EAL's IPC thread answers control requests: give it the workers' weight
 * so busy workers on a shared core do not delay the answers. */
static void
raise_ipc_thread(void)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;

	if (d == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		char path[300], comm[32] = "";
		FILE *f;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/comm", e->d_name);
		f = fopen(path, "r");
		if (f == NULL)
			continue;
		if (fgets(comm, sizeof(comm), f) != NULL && strncmp(comm, "rte_mp_handle", 13) == 0)
			(void)setpriority(PRIO_PROCESS, (id_t)atoi(e->d_name), DP_CONTROL_NICE);
		fclose(f);
	}
	closedir(d);
}

int
ctl_server_start(struct control *c, char *err, size_t errlen)
{
	served = c;
	__atomic_store_n(&closing, 0, __ATOMIC_RELEASE);
	if (rte_mp_action_register(DP_CTL_ACTION, on_request) != 0) {
		snprintf(err, errlen, "cannot register IPC action %s: %s", DP_CTL_ACTION,
			 rte_strerror(rte_errno));
		served = NULL;
		return -1;
	}
	raise_ipc_thread();
	return 0;
}

void
ctl_server_stop(void)
{
	__atomic_store_n(&closing, 1, __ATOMIC_RELEASE);
}
