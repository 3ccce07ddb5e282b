/* SPDX-License-Identifier: BSD-3-Clause
 * The primary's end of rte_mp IPC: decode, validate, apply, always reply.
 */
#ifndef DPERF_CTL_SERVER_H
#define DPERF_CTL_SERVER_H

#include <stddef.h>

#include <stdint.h>

#include "control/control.h"

/* Answer dperf-ctl and dperf-top's requests (EAL's IPC thread) with c. */
int ctl_server_start(struct control *c, char *err, size_t errlen);
/* From now on refuse every request ("the test has ended"); the answers go
 * on until rte_eal_cleanup closes the IPC channel. c must outlive that. */
void ctl_server_stop(void);

#endif
