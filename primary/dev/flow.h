/* SPDX-License-Identifier: BSD-3-Clause
 * dperf's flow_isolate: every port in rte_flow isolated mode, so that only
 * what our rules match reaches its queues (the rest stays with the
 * kernel on a bifurcated driver, or is dropped), and the rules dperf
 * creates: a worker's own traffic to its own queue.
 */
#ifndef DPERF_FLOW_H
#define DPERF_FLOW_H

#include <stddef.h>
#include <stdint.h>

#include "config.h"

/* Before any port is configured: isolated mode on every port, or -1 with
 * one line naming the first port whose device cannot (nothing of any
 * port is configured or started yet then). */
int flow_isolate_ports(const struct dp_config *cfg, char *err, size_t errlen);

/* Port i (device pid, nq queues, configured): the rules. ARP (IPv4) or
 * neighbour solicitations to a solicited-node address (IPv6), and the
 * port's own address, to queue 0; the traffic of the ranges to the worker
 * that owns it: a server's address q, or the replies from a client's
 * server address q, to queue q (one queue: the whole range; rss: spread
 * by the device's hash over all queues); with vxlan, the local VTEP of
 * queue q to queue q. Returns 0, or -1 with one line in err. */
int flow_rules(const struct dp_config *cfg, uint32_t i, uint16_t pid, uint32_t nq, char *err,
	       size_t errlen);

#endif
