/* SPDX-License-Identifier: BSD-3-Clause
 * A worker's TX queue: packets wait in pkts[] until a burst is full or
 * hold has passed, then go to the device in one call (tx_flush, the only
 * device call, in state/txq.c). Everything that sends (net/, tcp/, udp/)
 * queues here; nothing here knows the worker loop.
 */
#ifndef DPERF_TXQ_H
#define DPERF_TXQ_H

#include <string.h>

#include <rte_common.h>
#include <rte_mbuf.h>

#include "state/cnt.h"

#define DP_TX_CAP 2048 /* packets queued for TX; beyond, dropTx */
/* Queued packets from which the device counts as refusing: new work waits. */
#define DP_TX_CONGESTED 256
/* A device that has taken nothing this long has lost its peer (a memif
 * server killed, a link down): congestion no longer holds the timers back,
 * or connections would never time out. Far above any real back-pressure. */
#define DP_TX_DEAD_MS 500

struct txq {
	uint16_t port_id;
	uint16_t queue;
	uint16_t n;          /* pkts[head..n) wait for the device */
	uint16_t head;
	uint16_t burst;
	uint8_t blocked;     /* the last flush left packets behind */
	uint8_t dead;        /* the device took nothing for DP_TX_DEAD_MS (worker_tick) */
	uint8_t took;        /* the device took packets since the last tick */
	uint8_t quiesced;    /* its port is being restarted: no device call (dev/port.c) */
	volatile uint8_t in_tx; /* inside the device's TX burst (dev/dev_fault.c) */
	uint32_t taken_ms;   /* last tick the device took packets, or had none queued */
	uint64_t due;        /* TSC by which a partial batch goes out */
	uint64_t hold;       /* TSC ticks a partial batch may wait for more */
	struct wcnt *cnt;    /* the worker's: pktTx, bitsTx, dropTx */
	struct rte_mbuf *pkts[DP_TX_CAP];
};

/* txq.c: hand the batch to the device (the only device call; the
 * fuzz harness replaces it at link time). Returns the packets it took. */
uint16_t tx_flush(struct txq *q);

static inline void
tx_drop_one(struct txq *q, struct rte_mbuf *m)
{
	CNT(q->cnt, DROP_TX);
	rte_pktmbuf_free(m);
}

/* Packets queued for the device and not yet taken. */
static inline uint16_t
tx_pending(const struct txq *q)
{
	return (uint16_t)(q->n - q->head);
}

/* Drop whatever is still queued (the device would not take it). */
static inline void
tx_discard_all(struct txq *q)
{
	CNT_ADD(q->cnt, DROP_TX, tx_pending(q));
	rte_pktmbuf_free_bulk(q->pkts + q->head, tx_pending(q));
	q->n = q->head = 0;
}

/* The device has stopped taking packets for a while (its ring is full):
 * work that creates packets on its own (timers, launches, closes at stop)
 * waits for the next tick instead of overflowing the batch into dropTx. */
static inline int
tx_congested(const struct txq *q)
{
	/* (a batch merely held for hold is not congestion) */
	return !q->dead && tx_pending(q) >= RTE_MAX(DP_TX_CONGESTED, (int)q->burst);
}

/* The array is full up to its end: one more try at the device, then move
 * what is left to the front. */
static inline void
tx_make_room(struct txq *q)
{
	tx_flush(q);
	if (q->head) {
		memmove(q->pkts, q->pkts + q->head, (size_t)tx_pending(q) * sizeof(q->pkts[0]));
		q->n = tx_pending(q);
		q->head = 0;
	}
}

/*
 * Queue a packet (now: the worker's clock); a full burst goes to the
 * device at once, unless the device refused part of the last one: then
 * the worker loop retries once per iteration. (Retrying on every packet,
 * and shifting the queue after each partial send, made a backlog cost
 * several times more per packet than a drained link, so a short stall of
 * the peer turned into a lasting overload.)
 */
static inline void
tx_enqueue(struct txq *q, struct rte_mbuf *m, uint64_t now)
{
	if (unlikely(q->n == DP_TX_CAP)) {
		tx_make_room(q);
		if (q->n == DP_TX_CAP) {
			tx_drop_one(q, m);
			return;
		}
	}
	if (q->n == 0)
		q->due = now + q->hold;
	q->pkts[q->n++] = m;
	if (tx_pending(q) >= q->burst && !q->blocked)
		tx_flush(q);
}

/* Once per millisecond (now_ms): whether the device has taken nothing
 * for DP_TX_DEAD_MS. */
static inline void
tx_tick(struct txq *q, uint32_t now_ms)
{
	if (q->took || tx_pending(q) == 0)
		q->taken_ms = now_ms;
	q->took = 0;
	q->dead = now_ms - q->taken_ms >= DP_TX_DEAD_MS;
}

#endif
