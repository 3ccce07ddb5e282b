/* SPDX-License-Identifier: BSD-3-Clause */
#include <string.h>

#include <rte_arp.h>
#include <rte_byteorder.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_udp.h>

#include "net/l4.h"
#include "net/pkt.h"
#include "net/pkt_hdr.h"
#include "net/vxlan.h"

uint32_t
pkt_sum(const void *buf, uint32_t len)
{
	return __rte_raw_cksum(buf, len, 0);
}

/* A received packet is done with: back to the stash when there is room
 * (an mbuf just read is hot in cache, and this skips a pool put and get),
 * else to its pool. */
void
pkt_free(struct netw *nw, struct rte_mbuf *m)
{
	if (nw->io.n_stash < DP_STASH && m->pool == nw->io.mp && RTE_MBUF_DIRECT(m) && m->nb_segs == 1 &&
	    rte_mbuf_refcnt_read(m) == 1) {
		rte_pktmbuf_reset(m);
		nw->io.stash[nw->io.n_stash++] = m;
		return;
	}
	rte_pktmbuf_free(m);
}

void *
pkt_hold(struct netw *nw, const struct seg *s, uint16_t *off)
{
	struct rte_mbuf *m = s->pkt;

	(void)nw;
	if (m == NULL)
		return NULL;
	/* The receive path frees its own reference when it is done (pkt_free
	 * sees two and only drops one): this one is ours until pkt_unhold. */
	rte_mbuf_refcnt_update(m, 1);
	*off = (uint16_t)(s->data - (const uint8_t *)m->buf_addr);
	return m;
}

const uint8_t *
pkt_held(const void *h, uint16_t off)
{
	return (const uint8_t *)((const struct rte_mbuf *)h)->buf_addr + off;
}

void
pkt_unhold(struct netw *nw, void *h)
{
	(void)nw;
	rte_pktmbuf_free(h);
}

void
pkt_release(struct netw *nw)
{
	rte_pktmbuf_free_bulk(nw->io.stash, nw->io.n_stash);
	nw->io.n_stash = 0;
}

static __rte_always_inline void
udp_fill(struct netw *nw, struct rte_mbuf *m, const struct tuple *t, const struct msg *msg)
{
	struct rte_udp_hdr *uh;
	uint32_t l2, l3;
	uint16_t ulen = (uint16_t)(sizeof(*uh) + msg->len);
	uint8_t *p = rte_pktmbuf_mtod(m, uint8_t *);

	l2 = l2_write(&nw->io, p, rte_cpu_to_be_16(nw->v6 ? RTE_ETHER_TYPE_IPV6 : RTE_ETHER_TYPE_IPV4),
		      &nw->io.np->gw_mac);
	l3 = nw->v6 ? sizeof(struct rte_ipv6_hdr) : sizeof(struct rte_ipv4_hdr);
	uh = (struct rte_udp_hdr *)(p + l2 + l3);
	uh->src_port = t->lport;
	uh->dst_port = t->rport;
	uh->dgram_len = rte_cpu_to_be_16(ulen);
	uh->dgram_cksum = 0;
	rte_memcpy(uh + 1, msg->data, msg->len);
	m->data_len = m->pkt_len = l2 + l3 + ulen;
	if (nw->v6) {
		struct rte_ipv6_hdr *ip6 = (struct rte_ipv6_hdr *)(p + l2);
		ip6_write(&nw->io, ip6, t, IPPROTO_UDP, ulen);
		uh->dgram_cksum = l4_cksum6(&nw->io, m, ip6, uh, sizeof(*uh), msg->sum, l2, 1);
	} else {
		struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(p + l2);
		uint32_t isum = ip_write(&nw->io, ip, t, IPPROTO_UDP, ulen);
		uint32_t hsum = (uint32_t)t->lport + t->rport + rte_cpu_to_be_16(ulen);
		uh->dgram_cksum = l4_cksum(&nw->io, m, ip, t, isum, hsum, msg->sum, ulen, l2, 1);
	}
}

void
pkt_udp_fill(struct netw *nw, struct rte_mbuf *m, const struct tuple *t, const struct msg *msg)
{
	udp_fill(nw, m, t, msg);
}

int
pkt_udp(struct netw *nw, const struct tuple *t, const struct msg *msg)
{
	struct rte_mbuf *m = pkt_alloc(nw);

	if (unlikely(m == NULL))
		return -1;
	udp_fill(nw, m, t, msg);
	pkt_send(nw, m);
	return 0;
}

int
pkt_arp(struct netw *nw, uint16_t op, uint32_t sip, uint32_t tip, const struct rte_ether_addr *tmac)
{
	static const struct rte_ether_addr bcast = { .addr_bytes = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff } };
	static const struct rte_ether_addr zero = { .addr_bytes = { 0 } };
	struct rte_mbuf *m = pkt_alloc(nw);
	struct rte_arp_hdr *a;
	uint32_t l2;
	uint8_t *p;

	if (unlikely(m == NULL))
		return -1;
	p = rte_pktmbuf_mtod(m, uint8_t *);
	l2 = l2_write(&nw->io, p, rte_cpu_to_be_16(RTE_ETHER_TYPE_ARP), op == 1 ? &bcast : tmac);
	a = (struct rte_arp_hdr *)(p + l2);
	a->arp_hardware = rte_cpu_to_be_16(RTE_ARP_HRD_ETHER);
	a->arp_protocol = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
	a->arp_hlen = RTE_ETHER_ADDR_LEN;
	a->arp_plen = 4;
	a->arp_opcode = rte_cpu_to_be_16(op);
	rte_ether_addr_copy(&nw->io.np->mac, &a->arp_data.arp_sha);
	a->arp_data.arp_sip = sip;
	rte_ether_addr_copy(op == 1 ? &zero : tmac, &a->arp_data.arp_tha);
	a->arp_data.arp_tip = tip;
	m->data_len = m->pkt_len = RTE_MAX(l2 + (uint32_t)sizeof(*a), (uint32_t)RTE_ETHER_MIN_LEN - RTE_ETHER_CRC_LEN);
	memset(p + l2 + sizeof(*a), 0, m->data_len - l2 - sizeof(*a));
	CNT(&nw->cnt, ARP_TX);
	tx_enqueue(&nw->txq, m, nw->now);
	return 0;
}

int
pkt_ndp(struct netw *nw, uint8_t type, const uint8_t *src, const uint8_t *dst,
	const struct rte_ether_addr *dmac, const uint8_t *target)
{
	struct rte_mbuf *m = pkt_alloc(nw);
	struct rte_ipv6_hdr *ip;
	uint8_t *p, *ic;
	uint32_t l2, s;
	uint16_t c;

	if (unlikely(m == NULL))
		return -1;
	p = rte_pktmbuf_mtod(m, uint8_t *);
	l2 = l2_write(&nw->io, p, rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV6), dmac);
	ip = (struct rte_ipv6_hdr *)(p + l2);
	ic = (uint8_t *)(ip + 1);
	ip->vtc_flow = rte_cpu_to_be_32(6u << 28);
	ip->payload_len = rte_cpu_to_be_16(32);
	ip->proto = IPPROTO_ICMPV6;
	ip->hop_limits = 255; /* RFC 4861: neighbour discovery is link-local only */
	memcpy(ip->src_addr, src, 16);
	memcpy(ip->dst_addr, dst, 16);
	memset(ic, 0, 32);
	ic[0] = type;                     /* 135 solicitation, 136 advertisement */
	if (type == 136)
		ic[4] = 0x60;             /* solicited, override */
	memcpy(ic + 8, target, 16);
	ic[24] = type == 135 ? 1 : 2;     /* source / target link-layer address */
	ic[25] = 1;
	memcpy(ic + 26, nw->io.np->mac.addr_bytes, 6);
	s = rte_ipv6_phdr_cksum(ip, 0);
	s = __rte_raw_cksum(ic, 32, s);
	c = (uint16_t)~__rte_raw_cksum_reduce(s);
	memcpy(ic + 2, &c, 2);
	m->data_len = m->pkt_len = l2 + sizeof(*ip) + 32;
	m->ol_flags = 0;
	tx_enqueue(&nw->txq, m, nw->now);
	return 0;
}
