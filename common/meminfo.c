/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdio.h>

#include "meminfo.h"

unsigned long
mem_available_mb(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[128];
	unsigned long kb = 0;

	if (f == NULL)
		return 0;
	while (fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "MemAvailable: %lu kB", &kb) == 1)
			break;
	fclose(f);
	return kb / 1024;
}
