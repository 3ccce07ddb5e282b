/* SPDX-License-Identifier: BSD-3-Clause
 * Building the engine's frames: Ethernet (+VLAN), IPv4/IPv6, UDP, ARP, NDP
 * (a TCP segment is tcp/tcp_out.h's, on pkt_hdr.h's headers and pkt_send).
 * Headers are written field by field into fresh mbufs; message bytes are
 * copied from prebuilt buffers whose checksum sums are precomputed, so a
 * segment's TCP checksum only sums its 20-24 header bytes.
 */
#ifndef DPERF_PKT_H
#define DPERF_PKT_H

#include <stdint.h>

#include <rte_branch_prediction.h>

#include "net/netw.h"
#include "net/vxlan.h"

/* Queue a frame the engine built (an inner frame on a VXLAN port: the
 * tunnel's headers go in front first). */
static inline void
pkt_send(struct netw *nw, struct rte_mbuf *m)
{
	if (unlikely(nw->io.vx != NULL) && vxlan_encap(nw, m) != 0) {
		tx_drop_one(&nw->txq, m);
		return;
	}
	tx_enqueue(&nw->txq, m, nw->now);
}

/* Queue a UDP datagram carrying m. */
int pkt_udp(struct netw *nw, const struct tuple *t, const struct msg *m);

/* Queue an ARP packet: op 1 request (target_mac ignored), op 2 reply. */
int pkt_arp(struct netw *nw, uint16_t op, uint32_t sip, uint32_t tip,
	    const struct rte_ether_addr *tmac);

/* An IPv6 neighbour solicitation (type 135) or advertisement (136) for
 * target, from src to dst (16-byte addresses), to dmac. */
int pkt_ndp(struct netw *nw, uint8_t type, const uint8_t *src, const uint8_t *dst,
	    const struct rte_ether_addr *dmac, const uint8_t *target);

/* Fill m with a UDP datagram (what pkt_udp queues after allocating). */
void pkt_udp_fill(struct netw *nw, struct rte_mbuf *m, const struct tuple *t,
		  const struct msg *msg);

/* pkt_flood.c: a flooding client's request datagram in an mbuf it keeps
 * and reuses (its SYN: tcp/tcp_out.h). Same returns as pkt_udp. */
int pkt_flood_udp(struct netw *nw, const struct tuple *t);
/* After a device fault: let go of the ring (what the device still holds
 * is lost with the forgotten TX batch). */
void pkt_flood_forget(struct netw *nw);
/* At the end: drop the ring's references. */
void pkt_flood_release(struct netw *nw);

/* The out-of-order queue (tcp/tcp_ooo.h) keeps a received segment past
 * its burst: pkt_hold takes a reference to the mbuf holding s's data and
 * says where that data starts in it (*off); pkt_held gives the bytes
 * back; pkt_unhold drops the reference. The unit tests' packet layer
 * keeps a copy instead. Returns NULL when s has no mbuf. */
struct seg;
void *pkt_hold(struct netw *nw, const struct seg *s, uint16_t *off);
const uint8_t *pkt_held(const void *h, uint16_t off);
void pkt_unhold(struct netw *nw, void *h);

/* Free a received mbuf (to the stash when it has room). */
void pkt_free(struct netw *nw, struct rte_mbuf *m);
/* Return the worker's unused preallocated mbufs to the pool. */
void pkt_release(struct netw *nw);

/* Ones'-complement sum of a buffer, for struct msg.sum. */
uint32_t pkt_sum(const void *buf, uint32_t len);

#endif
