/* SPDX-License-Identifier: BSD-3-Clause
 * What primaries that died without cleaning up (SIGKILL, a crash, a power
 * cut) left behind: hugepage files and runtime directories.
 */
#ifndef DPERF_RECLAIM_H
#define DPERF_RECLAIM_H

struct reclaimed {
	unsigned long hugepage_mb; /* hugepage files no live process holds */
	unsigned int dirs;         /* runtime directories of dead primaries */
};

/* Finds, and unless dry_run removes, what dead DPDK primaries left,
 * whatever their file prefix: a hugepage file is dead when nobody holds
 * EAL's lock on it, a runtime directory when nobody holds the lock on its
 * config file (what EAL itself uses to tell a live primary). */
void reclaim_dead(int dry_run, struct reclaimed *r);

/* One hugetlbfs directory's part of it, added to *r: only under the
 * directory's lock, which EAL holds while a primary maps its pages. */
void reclaim_hugedir(const char *dir, int dry_run, struct reclaimed *r);

#endif
