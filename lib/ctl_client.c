/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>

#include "ctl_client.h"

int
dp_ctl_send(uint32_t op, int64_t value, struct dp_ctl_rep *rep, int timeout_ms)
{
	return dp_ctl_send_kind(op, value, NULL, rep, timeout_ms);
}

int
dp_ctl_send_kind(uint32_t op, int64_t value, const char *kind, struct dp_ctl_rep *rep, int timeout_ms)
{
	struct rte_mp_msg msg;
	struct rte_mp_reply reply = { 0 };
	struct timespec ts = { .tv_sec = timeout_ms / 1000,
			       .tv_nsec = (long)(timeout_ms % 1000) * 1000000L };
	struct dp_ctl_req req = { .version = DP_CTL_VERSION, .op = op, .value = value };
	int rc = -1;

	memset(rep, 0, sizeof(*rep));
	memset(&msg, 0, sizeof(msg));
	snprintf(msg.name, sizeof(msg.name), "%s", DP_CTL_ACTION);
	if (kind != NULL)
		snprintf(req.kind, sizeof(req.kind), "%s", kind);
	req.send_tsc = rte_rdtsc();
	memcpy(msg.param, &req, sizeof(req));
	msg.len_param = sizeof(req);
	if (rte_mp_request_sync(&msg, &reply, &ts) != 0 || reply.nb_received != 1) {
		snprintf(rep->msg, sizeof(rep->msg), "no answer from the primary (%s)",
			 rte_errno ? rte_strerror(rte_errno) : "timeout");
		goto out;
	}
	if ((size_t)reply.msgs[0].len_param < sizeof(*rep)) {
		snprintf(rep->msg, sizeof(rep->msg), "malformed answer from the primary");
		goto out;
	}
	memcpy(rep, reply.msgs[0].param, sizeof(*rep));
	rep->msg[sizeof(rep->msg) - 1] = '\0';
	rc = 0;
out:
	free(reply.msgs);
	return rc;
}
