/* SPDX-License-Identifier: BSD-3-Clause */
#include <string.h>

#include "ctl_msg.h"

static const char *const op_names[DP_OP__COUNT] = {
	[DP_OP_NONE] = "none",
	[DP_OP_SET_CPS] = "set cps",
	[DP_OP_SET_CC] = "set cc",
	[DP_OP_SET_DURATION] = "set duration",
	[DP_OP_ADD_DURATION] = "add duration",
	[DP_OP_PAUSE] = "pause",
	[DP_OP_RESUME] = "resume",
	[DP_OP_STOP] = "stop",
	[DP_OP_PING] = "ping",
	[DP_OP_SET_WEIGHT] = "set weight",
};

const char *
dp_ctl_op_name(uint32_t op)
{
	static const char *const link[DP_EV_LINK_PORTS] = { "port0 link", "port1 link",
							   "port2 link", "port3 link" };

	if (op >= DP_EV_LINK0 && op < DP_EV_LINK0 + DP_EV_LINK_PORTS)
		return link[op - DP_EV_LINK0];
	return op < DP_OP__COUNT ? op_names[op] : "unknown";
}

int
dp_ctl_decode(const void *buf, size_t len, struct dp_ctl_req *req, const char **why)
{
	uint32_t version;

	/* The version first: a request of another build (shorter, or laid
	 * out otherwise) is told that, not that it is short. */
	if (buf == NULL || len < sizeof(version)) {
		*why = "request too short";
		return -1;
	}
	memcpy(&version, buf, sizeof(version));
	if (version != DP_CTL_VERSION) {
		*why = "request version mismatch (dperf-ctl and dperf are from different builds)";
		return -1;
	}
	if (len < sizeof(*req)) {
		*why = "request too short";
		return -1;
	}
	memcpy(req, buf, sizeof(*req));
	if (req->op == DP_OP_NONE || req->op >= DP_OP__COUNT) {
		*why = "unknown request";
		return -1;
	}
	if (memchr(req->kind, '\0', sizeof(req->kind)) == NULL) {
		*why = "request's kind name not terminated";
		return -1;
	}
	return 0;
}
