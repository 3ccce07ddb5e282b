/* SPDX-License-Identifier: BSD-3-Clause
 * TX batching. What the device does not take now stays queued for the
 * next loop iteration (back-pressure, not loss); only a packet that finds
 * the queue still full after a flush is dropped and counted in dropTx.
 */
#include <string.h>

#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "state/txq.h"

uint16_t
tx_flush(struct txq *q)
{
	uint16_t n = tx_pending(q), sent;
	uint64_t bytes = 0;

	if (n == 0 || unlikely(q->quiesced)) /* its port is being restarted */
		return 0;
	/* The bytes are read before the burst: a device may free what it
	 * takes inside it (memif in copy mode, net_null, tap), and another
	 * lcore reuse those mbufs at once. What it did not take is still
	 * ours to read, and is taken back out. */
	for (uint16_t i = 0; i < n; i++)
		bytes += q->pkts[q->head + i]->pkt_len;
	q->in_tx = 1; /* for dev_fault.c */
	sent = rte_eth_tx_burst(q->port_id, q->queue, q->pkts + q->head, n);
	q->in_tx = 0;
	for (uint16_t i = sent; i < n; i++)
		bytes -= q->pkts[q->head + i]->pkt_len;
	q->head += sent;
	if (q->head == q->n)
		q->head = q->n = 0;
	q->blocked = sent < n;
	if (sent)
		q->took = 1;
	CNT_ADD(q->cnt, PKT_TX, sent);
	CNT_ADD(q->cnt, BITS_TX, bytes * 8);
	return sent;
}
