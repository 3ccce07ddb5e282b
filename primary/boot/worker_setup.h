/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef DPERF_WORKER_SETUP_H
#define DPERF_WORKER_SETUP_H

#include <stddef.h>

#include "engine/worker.h"

struct worker_params {
	const struct dp_config *cfg;
	struct dp_shm *shm;
	const struct mix_pub *mixp; /* the control's tables of kinds (set weight) */
	struct netport *np;
	struct rte_mempool *mp;
	uint32_t id;       /* worker index, 0-based */
	uint32_t port_idx; /* index into cfg->ports */
	uint16_t queue;    /* queue on that port, also the server address offset */
};

extern volatile int dp_workers_quit;

/* The worker's fields that follow from its configuration and place alone
 * (flags, sizes, timer lengths, addresses): no EAL, no memory. wk->net.io.np must
 * be set (IPv6 prefixes). worker_setup calls it; so do the unit tests, to
 * build their workers as the engine does. */
void worker_fields(struct worker *wk, const struct dp_config *cfg, uint32_t id, uint16_t queue, uint32_t port_idx,
		  uint64_t hz);

/* Bytes of the sender's per-connection array (tcp/tcp_send.h) the worker
 * needs once its messages are built: 0 when every message it sends is one
 * segment (the 64-byte socket alone). */
/* The out-of-order queue's segments back to their pool, and the queue
 * freed (worker_teardown; a test's reset). */
void worker_free_ooo(struct worker *wk);
size_t worker_snd_bytes(const struct worker *wk);

/* Returns 0, or -1 with a one-line reason in err. */
int worker_setup(struct worker *wk, const struct worker_params *wp, char *err, size_t errlen);
void worker_teardown(struct worker *wk);

#endif
