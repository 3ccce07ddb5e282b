/* SPDX-License-Identifier: BSD-3-Clause
 * EAL's command line, built from the configuration. Pure code.
 */
#ifndef DPERF_EAL_ARGS_H
#define DPERF_EAL_ARGS_H

#include <stddef.h>
#include <stdint.h>

#include "config.h"

#define EAL_MAX_ARGS 64

#define EAL_MAX_CPU 1024

struct eal_args {
	int argc;
	char *argv[EAL_MAX_ARGS + 1];
	char buf[8192];
	size_t used;
	/* Set by the caller, kept by eal_args_build (keep these last): the
	 * CPUs this process may run on (bit c of allowed[c / 64]), when
	 * affinity_known; else all of 0..ncpu-1. */
	int affinity_known;
	uint64_t allowed[EAL_MAX_CPU / 64];
	/* The instance's own hugetlbfs (boot/hugedir.h; "": EAL's choice). */
	char huge_dir[256];
};

/* Hugepage memory (MB) a configuration needs: mbuf pools plus room for
 * EAL, the memzone and the heap. */
unsigned long eal_mem_needed_mb(const struct dp_config *cfg);

/* Build argv for rte_eal_init: the program name, the instance's file
 * prefix, lcores (lcore 0 = main, unpinned over ncpu CPUs; lcore i+1 =
 * worker i on cpu[i]), devices, memory (in huge_dir when set), log level, then the user's extra
 * arguments. Returns 0, or -1 when it does not fit. */
int eal_args_build(struct eal_args *a, const char *prog, const struct dp_config *cfg,
		   const char *name, long ncpu, int n_extra, char **extra);

#endif
