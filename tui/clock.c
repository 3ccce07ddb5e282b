/* SPDX-License-Identifier: BSD-3-Clause
 * The TSC, shared by every process on the box: the only DPDK include of
 * dperf-top's own files (DPDK and curses headers do not mix well).
 */
#include <rte_cycles.h>

#include "top.h"

uint64_t
top_tsc(void)
{
	return rte_rdtsc();
}

uint64_t
top_local_tsc_hz(void)
{
	return rte_get_tsc_hz();
}
