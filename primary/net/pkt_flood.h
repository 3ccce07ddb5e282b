/* SPDX-License-Identifier: BSD-3-Clause
 * A flooding client's ring of mbufs (pkt_flood.c says why): the oldest
 * reused once the device is done with it, else a fresh one kept in the
 * ring. Inline for the two flood senders, pkt_flood_udp (pkt_flood.c) and
 * tcp_flood_syn (tcp/tcp_out.c): one call per packet, as before.
 */
#ifndef DPERF_PKT_FLOOD_H
#define DPERF_PKT_FLOOD_H

#include <rte_branch_prediction.h>
#include <rte_mbuf.h>

#include "net/netw.h"
#include "net/pkt_alloc.h"

#define FR_MASK (DP_FLOOD_RING - 1)

/* The ring's oldest mbuf when the device is done with it, else NULL. */
static inline struct rte_mbuf *
ring_reuse(struct netw *nw)
{
	struct rte_mbuf *m;

	if (unlikely(nw->fring.count == 0))
		return NULL;
	m = nw->fring.m[nw->fring.head];
	if (unlikely(rte_mbuf_refcnt_read(m) != 1))
		return NULL;
	/* oldest to newest: the same mbuf moves from head to tail */
	nw->fring.m[(nw->fring.head + nw->fring.count) & FR_MASK] = m;
	nw->fring.head = (nw->fring.head + 1) & FR_MASK;
	rte_mbuf_refcnt_set(m, 2); /* ours, and the device's */
	return m;
}

/* A fresh mbuf from the pool, kept in the ring when it has room. */
static inline struct rte_mbuf *
ring_grow(struct netw *nw)
{
	struct rte_mbuf *m = pkt_alloc(nw);

	if (m != NULL && nw->fring.count < nw->fring.cap) {
		nw->fring.m[(nw->fring.head + nw->fring.count++) & FR_MASK] = m;
		rte_mbuf_refcnt_set(m, 2);
	}
	return m;
}

#endif
