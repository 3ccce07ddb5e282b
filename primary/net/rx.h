/* SPDX-License-Identifier: BSD-3-Clause
 * The receive path: validate every layer against the mbuf's real length,
 * answer ARP and ICMP echo, hand TCP and UDP to the engine, and count
 * every packet dropped under one named counter.
 */
#ifndef DPERF_RX_H
#define DPERF_RX_H

#include <rte_mbuf.h>

#include "net/netw.h"

/* Bind the receive path's choices in nw (netw.h: burst_in, seg_in,
 * dgram_in) from what the worker is: its role, its protocol, its port's
 * tunnel (after vxlan_setup). A filter over TCP binds its seg_in after. */
void rx_bind(struct netw *nw);

/* Process a burst of received packets; consumes them. */
static inline void
rx_burst(struct netw *nw, struct rte_mbuf **m, uint16_t n)
{
	nw->burst_in(nw, m, n);
}

/* Process one received packet; consumes m. */
static inline void
rx_packet(struct netw *nw, struct rte_mbuf *m)
{
	nw->burst_in(nw, &m, 1);
}


#endif
