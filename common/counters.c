/* SPDX-License-Identifier: BSD-3-Clause */
#include "counters.h"
#include "shm.h"

const char *const dp_counter_names[DP_C__COUNT] = {
#define DP_X_NAME(id, name, kind) [DP_C_##id] = name,
	DP_COUNTER_LIST(DP_X_NAME)
#undef DP_X_NAME
};

const char *const dp_port_counter_names[DP_PC__COUNT] = {
#define DP_X_NAME(id, name) [DP_PC_##id] = name,
	DP_PORT_COUNTER_LIST(DP_X_NAME)
#undef DP_X_NAME
};

const char *const dp_state_names[DP_ST__COUNT] = {
	[DP_ST_INIT] = "init",
	[DP_ST_WAIT] = "wait",
	[DP_ST_SLOW_START] = "slow-start",
	[DP_ST_RUNNING] = "running",
	[DP_ST_PAUSED] = "paused",
	[DP_ST_LINK_DOWN] = "link-down",
	[DP_ST_STOPPING] = "stopping",
	[DP_ST_DONE] = "done",
};
