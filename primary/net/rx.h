/* SPDX-License-Identifier: BSD-3-Clause
 * The receive path: validate every layer against the mbuf's real length,
 * answer ARP and ICMP echo, hand TCP and UDP to the engine, and count
 * every packet dropped under one named counter.
 */
#ifndef DPERF_RX_H
#define DPERF_RX_H

#include <rte_mbuf.h>

#include "net/netw.h"

/* Process one received packet; consumes m. */
void rx_packet(struct netw *nw, struct rte_mbuf *m);


#endif
