/* SPDX-License-Identifier: BSD-3-Clause
 * A hugetlbfs of the instance's own, as large as its EAL asks for, given to
 * EAL as --huge-dir. Legacy memory maps every free page of its hugetlbfs at
 * start (0.4 ms a warm page, 5 ms one a VM touches first): on the box's
 * mount, a primary's start grew with the pages free (8,192: 3.3 s), on its
 * own one it maps what it needs. The mount goes when the instance ends;
 * one whose primary died (its lock file unlocked) goes at the next start.
 */
#ifndef DPERF_HUGEDIR_H
#define DPERF_HUGEDIR_H

#include <stddef.h>

#include "boot/reclaim.h"

#define DP_HUGEDIR_BASE "/run/dperf/hugepages"

/* Mounts DP_HUGEDIR_BASE/name (hugetlbfs, 2 MB pages, mb MB and a few
 * more) and writes its path into dir; returns -1 and leaves dir "" when it
 * cannot (no privilege, no hugetlbfs, or a mount namespace of its own, as
 * under `ip netns exec`, where no secondary outside would see it: EAL then
 * uses the box's mount, as before). The instance's lock file beside it is held until exit. */
int hugedir_mount(const char *name, unsigned long mb, char *dir, size_t len);
/* Our own mount (if any) detached and removed: the pages go back once no
 * process maps them (ours at exit, a secondary's when it goes). */
void hugedir_unmount(void);
/* The mounts of dead primaries (their lock file unlocked), detached and
 * removed; their pages counted into r->hugepage_mb, unless dry_run. */
void hugedir_reclaim_dead(int dry_run, struct reclaimed *r);

#endif
