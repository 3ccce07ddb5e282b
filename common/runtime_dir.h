/* SPDX-License-Identifier: BSD-3-Clause
 * Where DPDK keeps an instance's runtime files, and how to tell whether
 * the primary that owns them is alive, without starting EAL.
 */
#ifndef DPERF_RUNTIME_DIR_H
#define DPERF_RUNTIME_DIR_H

#include <stddef.h>

/* The marker file our primary writes into its runtime directory. */
#define DP_INSTANCE_MARKER "dperf.instance"

/* Base directory holding one directory per file prefix. */
const char *dp_runtime_base(char *buf, size_t len);

/* 1 when a live primary holds the EAL config lock of instance name. */
int dp_instance_alive(const char *name);

/* Names of live dperf instances, up to max. Returns the count. */
int dp_instances(char names[][64], int max);

/* Remove the files of dir whose names begin with prefix ("" for all). */
void dp_remove_prefixed(const char *dir, const char *prefix);

#endif
