/* SPDX-License-Identifier: BSD-3-Clause
 * The memory this box has free for us.
 */
#ifndef DPERF_MEMINFO_H
#define DPERF_MEMINFO_H

/* MemAvailable from /proc/meminfo, in MB (0 when unknown). */
unsigned long mem_available_mb(void);

#endif
