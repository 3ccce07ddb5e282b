/* SPDX-License-Identifier: BSD-3-Clause */
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "worker.h"

#define TX_RETRIES 4

void
tx_flush(struct worker *w)
{
	uint16_t sent = 0, n = w->n_tx;
	uint64_t bytes = 0, unsent_bytes = 0;

	for (uint16_t i = 0; i < n; i++)
		bytes += w->tx[i]->pkt_len;

	for (int i = 0; i < TX_RETRIES && sent < n; i++)
		sent += rte_eth_tx_burst(w->port_id, w->queue, w->tx + sent, n - sent);
	if (unlikely(sent < n)) {
		for (uint16_t i = sent; i < n; i++)
			unsent_bytes += w->tx[i]->pkt_len;
		CNT_ADD(w, DROP_TX, n - sent);
		rte_pktmbuf_free_bulk(w->tx + sent, n - sent);
	}
	CNT_ADD(w, PKT_TX, sent);
	CNT_ADD(w, BITS_TX, (bytes - unsent_bytes) * 8);
	w->n_tx = 0;
}
