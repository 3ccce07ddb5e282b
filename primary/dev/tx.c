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
tx_flush(struct worker *w)
{
	uint16_t n = tx_pending(w), sent;
	uint64_t bytes = 0;

	if (n == 0 || unlikely(w->quiesced)) /* its port is being restarted */
		return 0;
	/* The bytes are read before the burst: a device may free what it
	 * takes inside it (memif in copy mode, net_null, tap), and another
	 * lcore reuse those mbufs at once. What it did not take is still
	 * ours to read, and is taken back out. */
	for (uint16_t i = 0; i < n; i++)
		bytes += w->tx[w->tx_head + i]->pkt_len;
	w->in_tx = 1; /* for dev_fault.c */
	sent = rte_eth_tx_burst(w->port_id, w->queue, w->tx + w->tx_head, n);
	w->in_tx = 0;
	for (uint16_t i = sent; i < n; i++)
		bytes -= w->tx[w->tx_head + i]->pkt_len;
	w->tx_head += sent;
	if (w->tx_head == w->n_tx)
		w->tx_head = w->n_tx = 0;
	w->tx_blocked = sent < n;
	if (sent)
		w->tx_taken_ms = w->now_ms;
	CNT_ADD(&w->cnt, PKT_TX, sent);
	CNT_ADD(&w->cnt, BITS_TX, bytes * 8);
	return sent;
}
