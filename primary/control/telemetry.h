/* SPDX-License-Identifier: BSD-3-Clause
 * DPDK's own tools against our primary: telemetry commands (/dperf/stats,
 * /dperf/state, /dperf/control for dpdk-telemetry.py) and pdump (for
 * dpdk-dumpcap / dpdk-pdump).
 */
#ifndef DPERF_TELEMETRY_H
#define DPERF_TELEMETRY_H

#include "shm.h"

/* Register the commands and start pdump. Failures are reported as
 * warnings: the test itself does not need them. */
void telemetry_start(const struct dp_shm *shm);
void telemetry_stop(void);

#endif
