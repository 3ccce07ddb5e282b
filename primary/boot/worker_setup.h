/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef DPERF_WORKER_SETUP_H
#define DPERF_WORKER_SETUP_H

#include <stddef.h>

#include "state/worker.h"

struct worker_params {
	const struct dp_config *cfg;
	struct dp_shm *shm;
	struct netport *np;
	struct rte_mempool *mp;
	uint32_t id;       /* worker index, 0-based */
	uint32_t port_idx; /* index into cfg->ports */
	uint16_t queue;    /* queue on that port, also the server address offset */
};

extern volatile int dp_workers_quit;

/* Returns 0, or -1 with a one-line reason in err. */
int worker_setup(struct worker *w, const struct worker_params *wp, char *err, size_t errlen);
void worker_teardown(struct worker *w);

#endif
