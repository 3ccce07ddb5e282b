/* SPDX-License-Identifier: BSD-3-Clause
 * The primary's own output: dperf-style per-second blocks, the record of
 * applied control changes, and the final summary.
 */
#ifndef DPERF_REPORT_H
#define DPERF_REPORT_H

#include <stdio.h>

#include "rates.h"
#include "shm.h"

/* One second: the change of every counter between prev and cur. */
void report_second(FILE *f, const struct dp_shm *shm, const struct dp_config *cfg,
		   const struct dp_snapshot *prev, const struct dp_snapshot *cur, uint64_t sec);
/* Print changes applied since *printed (updated). */
void report_changes(FILE *f, const struct dp_shm *shm, uint32_t *printed);
/* Totals over the whole test. */
void report_summary(FILE *f, const struct dp_shm *shm, const struct dp_snapshot *first,
		    const struct dp_snapshot *last);

#endif
