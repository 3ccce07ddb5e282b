/* SPDX-License-Identifier: BSD-3-Clause */
#include "counters.h"

const char *const dp_counter_names[DP_C__COUNT] = {
#define DP_X_NAME(id, name, kind) [DP_C_##id] = name,
	DP_COUNTER_LIST(DP_X_NAME)
#undef DP_X_NAME
};

const char *const dp_kind_counter_names[DP_KC__COUNT] = {
#define DP_X_NAME(id, name) [DP_KC_##id] = name,
	DP_KIND_COUNTER_LIST(DP_X_NAME)
#undef DP_X_NAME
};

const char *const dp_object_counter_names[DP_OC__COUNT] = {
#define DP_X_NAME(id, name) [DP_OC_##id] = name,
	DP_OBJECT_COUNTER_LIST(DP_X_NAME)
#undef DP_X_NAME
};

const char *const dp_port_counter_names[DP_PC__COUNT] = {
#define DP_X_NAME(id, name) [DP_PC_##id] = name,
	DP_PORT_COUNTER_LIST(DP_X_NAME)
#undef DP_X_NAME
};
