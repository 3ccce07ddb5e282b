/* SPDX-License-Identifier: BSD-3-Clause
 * A fresh mbuf for a frame the engine builds: from the worker's stash
 * (pkt_free puts received ones back), else DP_STASH from the pool.
 */
#ifndef DPERF_PKT_ALLOC_H
#define DPERF_PKT_ALLOC_H

#include <rte_branch_prediction.h>
#include <rte_mbuf.h>

#include "net/netw.h"

struct rte_mbuf *pkt_alloc_refill(struct netw *nw);

static inline struct rte_mbuf *
pkt_alloc(struct netw *nw)
{
	if (likely(nw->io.n_stash))
		return nw->io.stash[--nw->io.n_stash];
	return pkt_alloc_refill(nw);
}

#endif
