/* SPDX-License-Identifier: BSD-3-Clause
 * The instance's identity and files: its name (the EAL file prefix), the
 * checks made before EAL starts, the marker secondaries look for, and the
 * removal of runtime and hugepage files at exit.
 */
#ifndef DPERF_INSTANCE_H
#define DPERF_INSTANCE_H

#include <stddef.h>

#include "config.h"

/* Default name: the config file's base name without extension. */
void instance_default_name(const char *path, char *out, size_t len);
/* 0 when name is usable as a file prefix, else -1 with err. */
int instance_check_name(const char *name, char *err, size_t errlen);
/* Checks before EAL, on this host: root, cores that exist and are allowed,
 * the -o path (NULL: none) writable, hugepages sufficient; at a real start
 * also the name free and memif dirs created (check_only: dperf -t, which
 * changes nothing). Returns 0, or -1 with a one-line err. */
int instance_preflight(const struct dp_config *cfg, const char *name, const char *out_path,
		       int check_only, char *err, size_t errlen);
/* Write the marker into EAL's runtime dir and make the dir owner-only. */
int instance_mark(const char *runtime_dir);
/* After a failed rte_eal_init: remove what EAL created for name, unless
 * another live primary holds it (then the failure was that). */
void instance_cleanup_failed(const char *name);
/* Hugepage memory (MB) the instance's EAL gets: socket_mem's sum, else
 * eal_mem_needed_mb. */
unsigned long instance_hugepage_mb(const struct dp_config *cfg);
/* After rte_eal_cleanup: remove runtime dir and our hugepage files. */
void instance_cleanup(const char *runtime_dir, const char *name);

#endif
