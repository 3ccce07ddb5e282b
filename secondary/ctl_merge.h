/* SPDX-License-Identifier: BSD-3-Clause
 * dperf-ctl merge: several instances' -o summaries as one (ctl_merge.c).
 */
#ifndef DPERF_CTL_MERGE_H
#define DPERF_CTL_MERGE_H

#include <stdio.h>

/* Read the n summaries at paths, write the merged one to out (one JSON
 * object, one line). Returns 0 or an exit code after one line on err. */
int ctl_merge(FILE *out, FILE *err, int n, char **paths);

#endif
