/* SPDX-License-Identifier: BSD-3-Clause
 * A worker's TX queue: packets wait in w->tx[] until a burst is full or
 * tx_hold has passed, then go to the device in one call (tx_flush, the
 * only device call, in dev/tx.c). Everything that sends (net/, tcp/, udp/)
 * queues here; nothing here knows the worker loop.
 */
#ifndef DPERF_TXQ_H
#define DPERF_TXQ_H

#include <string.h>

#include <rte_mbuf.h>

#include "state/worker.h"

/* dev/tx.c: hand the batch to the device (the only device call; the
 * fuzz harness replaces it at link time). Returns the packets it took. */
uint16_t tx_flush(struct worker *w);

static inline void
tx_drop_one(struct worker *w, struct rte_mbuf *m)
{
	CNT(&w->cnt, DROP_TX);
	rte_pktmbuf_free(m);
}

/* Packets queued for the device and not yet taken. */
static inline uint16_t
tx_pending(const struct worker *w)
{
	return (uint16_t)(w->n_tx - w->tx_head);
}

/* Drop whatever is still queued (the device would not take it). */
static inline void
tx_discard_all(struct worker *w)
{
	CNT_ADD(&w->cnt, DROP_TX, tx_pending(w));
	rte_pktmbuf_free_bulk(w->tx + w->tx_head, tx_pending(w));
	w->n_tx = w->tx_head = 0;
}

/* The device has stopped taking packets for a while (its ring is full):
 * work that creates packets on its own (timers, launches, closes at stop)
 * waits for the next tick instead of overflowing the batch into dropTx. */
static inline int
tx_congested(const struct worker *w)
{
	/* (a batch merely held for tx_hold is not congestion) */
	return !w->tx_dead && tx_pending(w) >= RTE_MAX(DP_TX_CONGESTED, (int)w->tx_burst);
}

/* The array is full up to its end: one more try at the device, then move
 * what is left to the front. */
static inline void
tx_make_room(struct worker *w)
{
	tx_flush(w);
	if (w->tx_head) {
		memmove(w->tx, w->tx + w->tx_head, (size_t)tx_pending(w) * sizeof(w->tx[0]));
		w->n_tx = tx_pending(w);
		w->tx_head = 0;
	}
}

/*
 * Queue a packet; a full burst goes to the device at once, unless the
 * device refused part of the last one: then the worker loop retries once
 * per iteration. (Retrying on every packet, and shifting the queue after
 * each partial send, made a backlog cost several times more per packet
 * than a drained link, so a short stall of the peer turned into a lasting
 * overload.)
 */
static inline void
tx_enqueue(struct worker *w, struct rte_mbuf *m)
{
	if (unlikely(w->n_tx == DP_TX_CAP)) {
		tx_make_room(w);
		if (w->n_tx == DP_TX_CAP) {
			tx_drop_one(w, m);
			return;
		}
	}
	if (w->n_tx == 0)
		w->tx_due = w->now + w->tx_hold;
	w->tx[w->n_tx++] = m;
	if (tx_pending(w) >= w->tx_burst && !w->tx_blocked)
		tx_flush(w);
}

#endif
