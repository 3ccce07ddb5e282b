/* SPDX-License-Identifier: BSD-3-Clause
 * The primary's end of rte_mp IPC: decode, validate, apply, always reply.
 */
#ifndef DPERF_CTL_SERVER_H
#define DPERF_CTL_SERVER_H

#include <stddef.h>

#include <stdint.h>

#include "shm.h"

int ctl_server_start(struct dp_shm *shm, char *err, size_t errlen);
void ctl_server_stop(void);
/* For the main lcore (signals, duration): apply a request as if it came
 * over IPC, through the same validation. */
void ctl_server_local(uint32_t op, int64_t value);

#endif
