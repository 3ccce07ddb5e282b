/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef DPERF_CTL_PROMETHEUS_H
#define DPERF_CTL_PROMETHEUS_H

#include <stdio.h>

#include "shm.h"

/* The whole exposition for one scrape, read from the memzone now. Not
 * reentrant: one caller at a time. */
void ctl_prometheus_exposition(FILE *f, const struct dp_shm *s);

#endif
