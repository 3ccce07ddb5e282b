/* SPDX-License-Identifier: BSD-3-Clause
 * Faulting in the memif shared memory before traffic.
 *
 * DPDK's memif PMD maps its packet buffers (memfd "memif_region_N") without
 * touching them, so the first pass of each ring is a page fault per 4 KB
 * on the worker: about 4,400 faults per side for rsize=13, 2-9 us each on
 * this virtual machine (perf -e page-faults: all in the PMD's copy). At
 * 800k connections per second that stalls both workers for tens of ms
 * right as traffic starts, and the rings overflow. The main lcore faults
 * the regions in instead, when a memif link comes up (each process has its
 * own page tables, so both sides do it).
 */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "dev/memif_warm.h"

uint64_t
memif_warm_regions(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	uint64_t bytes = 0;

	if (f == NULL)
		return 0;
	while (fgets(line, sizeof(line), f) != NULL) {
		unsigned long lo, hi;

		if (strstr(line, "/memfd:memif_region_") == NULL ||
		    sscanf(line, "%lx-%lx", &lo, &hi) != 2 || hi <= lo)
			continue;
		/* Fails harmlessly (ENOMEM) if the PMD unmaps it meanwhile. */
		if (madvise((void *)lo, hi - lo, MADV_POPULATE_WRITE) == 0)
			bytes += hi - lo;
	}
	fclose(f);
	return bytes;
}
