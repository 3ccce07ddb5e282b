/* SPDX-License-Identifier: BSD-3-Clause
 * A flooding client's packets (config keyword flood): it sends nothing but
 * its own, as fast as it can, and each is the last one with a few fields
 * changed. The pool's get, reset and put per packet, and the device's free
 * into the pool (a TLS lookup per packet in a PMD built as a shared
 * library), were a third of its cycles; writing every header field and
 * copying the payload, most of the rest.
 *
 * So it keeps its mbufs in a ring. Each goes to the device holding a
 * second reference; when the device frees it, only that reference goes
 * (refcnt back to 1), and the packet is still in it: a UDP datagram gets
 * its addresses, ports, IP id and checksums rewritten, nothing else. The
 * oldest is reused first, and the ring grows only while the device still
 * holds it, so it stays as small as the device lets it (about a burst with
 * net_null or memif, which free as they send) and hot in cache. With a
 * ring full of mbufs the device still holds (a hardware TX ring larger
 * than DP_FLOOD_RING) packets come from the pool as before.
 *
 * A worker floods UDP or TCP, never both, and only pkt_flood_udp and
 * tcp/tcp_out.c's tcp_flood_syn put mbufs in the ring (pkt_flood.h): a reused mbuf holds the kind of packet it is about to
 * be rewritten into. On a VXLAN port the ring stays empty (fring.cap 0): a
 * sent mbuf starts at its outer headers, and every packet is built whole.
 */
#include <rte_byteorder.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_udp.h>

#include "net/pkt.h"
#include "net/pkt_flood.h"
#include "net/pkt_hdr.h"
#include "net/vxlan.h"

/* Rewrites the fields of an IPv4 UDP datagram that differ from one packet
 * to the next, and its checksums (pkt_hdr.h's, as when it was filled). */
static inline void
udp4_patch(struct netw *nw, struct rte_mbuf *m, const struct tuple *t, const struct msg *msg)
{
	uint32_t l2 = nw->io.np->vlan_tci_be ? RTE_ETHER_HDR_LEN + 4 : RTE_ETHER_HDR_LEN;
	struct rte_ipv4_hdr *ip = rte_pktmbuf_mtod_offset(m, struct rte_ipv4_hdr *, l2);
	struct rte_udp_hdr *uh = (struct rte_udp_hdr *)(ip + 1);
	uint16_t ulen = (uint16_t)(sizeof(*uh) + msg->len);
	uint16_t id = rte_cpu_to_be_16((uint16_t)nw->io.ip_id++);
	uint32_t isum = ip_sum(&nw->io, t, IPPROTO_UDP, rte_cpu_to_be_16((uint16_t)(sizeof(*ip) + ulen)), id);
	uint32_t hsum = (uint32_t)t->lport + t->rport + rte_cpu_to_be_16(ulen);

	ip->packet_id = id;
	ip->src_addr = t->lip;
	ip->dst_addr = t->rip;
	ip->hdr_checksum = 0; /* with offload, a device may have written it in place */
	uh->src_port = t->lport;
	uh->dst_port = t->rport;
	uh->dgram_cksum = l4_cksum(&nw->io, m, ip, t, isum, hsum, msg->sum, ulen, l2, 1);
}

int
pkt_flood_udp(struct netw *nw, const struct tuple *t)
{
	struct rte_mbuf *m = ring_reuse(nw);

	if (likely(m != NULL) && !nw->v6) {
		udp4_patch(nw, m, t, &nw->msg.req);
	} else {
		if (m == NULL && (m = ring_grow(nw)) == NULL)
			return -1;
		pkt_udp_fill(nw, m, t, &nw->msg.req);
	}
	pkt_send(nw, m);
	return 0;
}

void
pkt_flood_forget(struct netw *nw)
{
	for (uint16_t i = 0; i < nw->fring.count; i++) {
		struct rte_mbuf *m = nw->fring.m[(nw->fring.head + i) & FR_MASK];

		/* one still held elsewhere is in the forgotten TX batch */
		if (rte_mbuf_refcnt_read(m) == 1)
			rte_pktmbuf_free(m);
	}
	nw->fring.head = nw->fring.count = 0;
}

void
pkt_flood_release(struct netw *nw)
{
	/* our references; a device still holding one frees it later */
	for (uint16_t i = 0; i < nw->fring.count; i++)
		rte_pktmbuf_free(nw->fring.m[(nw->fring.head + i) & FR_MASK]);
	nw->fring.head = nw->fring.count = 0;
}
