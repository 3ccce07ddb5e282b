/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef DPERF_CTL_OUTPUT_H
#define DPERF_CTL_OUTPUT_H

#include <stdio.h>

#include "rates.h"
#include "shm.h"

/* "key: value" lines, or one JSON object when json is non-zero; now is
 * the reader's TSC. */
void ctl_print_status(FILE *f, const struct dp_shm *s, uint64_t now, int json);
void ctl_print_stats_text(FILE *f, const struct dp_shm *s, const struct dp_snapshot *a,
			  const struct dp_snapshot *b);

#endif
