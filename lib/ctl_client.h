/* SPDX-License-Identifier: BSD-3-Clause
 * Send one control request to the attached primary and wait for its answer.
 */
#ifndef DPERF_CTL_CLIENT_H
#define DPERF_CTL_CLIENT_H

#include <stdint.h>

#include "ctl_msg.h"

/* How long a tool waits for the primary's answer: twice the age past
 * which the primary refuses a request, so that a refusal still arrives. */
#define DP_CTL_TIMEOUT_MS (2 * DP_CTL_MAX_AGE_MS)

/* DP_CTL_TIMEOUT_MS, or DPERF_CTL_TIMEOUT_S (whole seconds, above the
 * primary's DP_CTL_MAX_AGE_MS and at most the default, so that a request
 * given up on is still one the primary refuses): for test_ctl_stale, which
 * makes the silence certain and would otherwise wait the whole 10 s. */
int dp_ctl_timeout_ms(void);

/* Returns 0 when a reply arrived (rep filled; rep->status says accepted or
 * refused), -1 when none did (rep->msg says why). timeout_ms bounds the wait. */
int dp_ctl_send(uint32_t op, int64_t value, struct dp_ctl_rep *rep, int timeout_ms);
/* The same with a kind's name (set weight; NULL: none), cut to
 * DP_CTL_KIND_LEN - 1 bytes: the caller checks its length first. */
int dp_ctl_send_kind(uint32_t op, int64_t value, const char *kind, struct dp_ctl_rep *rep, int timeout_ms);

#endif
