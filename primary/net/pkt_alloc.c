/* SPDX-License-Identifier: BSD-3-Clause
 * The stash's refill (pkt_alloc.h).
 */
#include <rte_mbuf.h>

#include "net/pkt_alloc.h"

/* mbufs come DP_STASH at a time: one pool access (and one lcore-id TLS
 * lookup) per batch instead of per packet. */
__rte_noinline struct rte_mbuf *
pkt_alloc_refill(struct netw *nw)
{
	struct rte_mbuf *m;

	if (rte_pktmbuf_alloc_bulk(nw->io.mp, nw->io.stash, DP_STASH) == 0) {
		nw->io.n_stash = DP_STASH - 1;
		return nw->io.stash[DP_STASH - 1];
	}
	m = rte_pktmbuf_alloc(nw->io.mp); /* the pool is nearly empty */
	if (unlikely(m == NULL))
		CNT(&nw->cnt, DROP_TX);
	return m;
}
