/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef DPERF_CTL_PROMETHEUS_H
#define DPERF_CTL_PROMETHEUS_H

#include <signal.h>
#include <stdio.h>

#include "shm.h"

/* The whole exposition for one scrape, read from the memzone now. Not
 * reentrant: one caller at a time. */
void ctl_prometheus_exposition(FILE *f, const struct dp_shm *s);

/* ctl_export.c: serve /metrics on addr ("ADDR:PORT", NULL =
 * 127.0.0.1:9470) until *stop is set or the engine stops. Returns an
 * exit code. */
int ctl_prometheus(const struct dp_shm *s, const char *addr, volatile sig_atomic_t *stop);

#endif
