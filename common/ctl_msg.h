/* SPDX-License-Identifier: BSD-3-Clause
 * Control requests from a secondary to the primary, carried by rte_mp IPC
 * (action DP_CTL_ACTION). Fixed-size, versioned, validated by the primary.
 * Pure C: encode/decode/validate are testable without EAL.
 */
#ifndef DPERF_CTL_MSG_H
#define DPERF_CTL_MSG_H

#include <stddef.h>
#include <stdint.h>

#define DP_CTL_ACTION "dperf_ctl"
/* 2: set weight, and the kind's name in every request */
#define DP_CTL_VERSION 2
#define DP_CTL_MSG_MAX 256 /* RTE_MP_MAX_PARAM_LEN */
/* The primary refuses a request sent longer ago than this (it was stopped,
 * or too busy to answer); dperf-ctl waits twice as long for an answer, so
 * a request it gave up on is never applied later. */
#define DP_CTL_MAX_AGE_MS 5000

enum dp_ctl_op {
	DP_OP_NONE = 0,
	DP_OP_SET_CPS,
	DP_OP_SET_CC,
	DP_OP_SET_DURATION,     /* value: absolute microseconds from start */
	DP_OP_ADD_DURATION,     /* value: signed microseconds added to the current end */
	DP_OP_PAUSE,
	DP_OP_RESUME,
	DP_OP_STOP,
	DP_OP_PING,
	DP_OP_SET_WEIGHT,       /* kind: a kind's name; value: its new weight */
	DP_OP__COUNT
};

/* Events the primary records in the same change log, never requests (the
 * decoder refuses them): port P's link went 1 -> 0 (down) or 0 -> 1 (up). */
#define DP_EV_LINK0 64
#define DP_EV_LINK_PORTS 4

/* A kind's name in a request, its NUL included (config.h's
 * DP_KIND_NAME_LEN, asserted where both are seen: control.c). */
#define DP_CTL_KIND_LEN 32

struct dp_ctl_req {
	uint32_t version;  /* first, in every version: a request of another build is told so */
	uint32_t op;
	int64_t value;
	uint64_t send_tsc; /* when the client sent it (rte_rdtsc; shared on one box) */
	char kind[DP_CTL_KIND_LEN]; /* set weight: the kind's name, NUL-terminated; else empty */
};

enum dp_ctl_status { DP_CTL_OK = 0, DP_CTL_REFUSED = 1, DP_CTL_BADMSG = 2 };

struct dp_ctl_rep {
	uint32_t version;
	int32_t status;       /* enum dp_ctl_status */
	uint64_t generation;  /* control generation after the request */
	int64_t applied;      /* the value now in force */
	char msg[200];        /* reason when refused, summary when accepted */
};

_Static_assert(sizeof(struct dp_ctl_req) <= DP_CTL_MSG_MAX, "request too big for rte_mp");
_Static_assert(sizeof(struct dp_ctl_rep) <= DP_CTL_MSG_MAX, "reply too big for rte_mp");

/* Decode a raw message into req. Returns 0, or -1 with why set. */
int dp_ctl_decode(const void *buf, size_t len, struct dp_ctl_req *req, const char **why);

const char *dp_ctl_op_name(uint32_t op);

#endif
