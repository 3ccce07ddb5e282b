/* SPDX-License-Identifier: BSD-3-Clause
 * Send one control request to the attached primary and wait for its answer.
 */
#ifndef DPERF_CTL_CLIENT_H
#define DPERF_CTL_CLIENT_H

#include <stdint.h>

#include "ctl_msg.h"

/* Returns 0 when a reply arrived (rep filled; rep->status says accepted or
 * refused), -1 when none did (rep->msg says why). timeout_ms bounds the wait. */
int dp_ctl_send(uint32_t op, int64_t value, struct dp_ctl_rep *rep, int timeout_ms);

#endif
