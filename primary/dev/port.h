/* SPDX-License-Identifier: BSD-3-Clause
 * Ports: find the device EAL created for each "port" line, configure one
 * RX/TX queue per worker, a mempool per port, offloads where the device
 * has them, and read its statistics.
 */
#ifndef DPERF_PORT_H
#define DPERF_PORT_H

#include <stddef.h>

#include <rte_mempool.h>

#include "config.h"
#include "shm.h"
#include "state/netport.h"

struct port_set {
	struct netport np[DP_MAX_PORTS];
	struct rte_mempool *mp[DP_MAX_PORTS];
	uint32_t n;
	uint32_t started;
	uint32_t link_up; /* bit per port, as last seen by ports_watch_links */
};

/* Configure and start every port. Returns 0, or -1 with err set. */
int ports_init(struct port_set *ps, const struct dp_config *cfg, uint32_t workers_per_port,
	       char *err, size_t errlen);
/* Copy device statistics into the memzone's port blocks. */
/* Record each pool's free mbufs once the ports have started, before the
 * workers run: the baseline that the final count must return to. */
void ports_mark_pools(const struct port_set *ps, struct dp_shm *shm);
void ports_read_stats(const struct port_set *ps, struct dp_shm *shm);
/* Main lcore, every tick: when a link comes up, fault in the memif
 * shared memory before traffic (memif_warm.c). */
void ports_watch_links(struct port_set *ps);
void ports_close(struct port_set *ps);

#endif
