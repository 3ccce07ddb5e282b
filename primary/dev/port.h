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
	uint32_t ever_up; /* bit per port: its link has been up */
	uint32_t memif_client; /* bit per port: a memif client (reconnected by restarting it) */
	uint32_t static_gw;    /* bit per port: the gateway's MAC was given (port line) */
	uint8_t client;        /* client mode: a link back up resolves its gateway again */
	uint64_t retry_us[DP_MAX_PORTS]; /* when a lost memif client port is restarted next */
	/* A bonded port's members (port ids), for their own counters. */
	uint16_t member_id[DP_MAX_PORTS][DP_BOND_MAX_MEMBERS];
	uint32_t n_members[DP_MAX_PORTS];
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
/* The links, every control loop tick (now_us since start): publishes each
 * port's state to its workers (netport.link_up) and returns the ports
 * whose link changed since the last call. A memif client whose server
 * went away is restarted once a second, so that it connects to a new
 * server on the same socket; a client's link back up resolves its gateway
 * again (the new peer may have another MAC). */
uint32_t ports_watch_links(struct port_set *ps, uint64_t now_us);
void ports_close(struct port_set *ps);

#endif
