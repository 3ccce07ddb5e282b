/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef DPERF_SHM_INIT_H
#define DPERF_SHM_INIT_H

#include <stddef.h>

#include "shm.h"

/* Reserve and fill the memzone (state DP_ST_INIT). NULL with err on failure. */
struct dp_shm *shm_create(const struct dp_config *cfg, const char *name, char *err, size_t errlen);

#endif
