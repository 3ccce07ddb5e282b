/* SPDX-License-Identifier: BSD-3-Clause */
#include <string.h>

#include <rte_arp.h>
#include <rte_byteorder.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_tcp.h>
#include <rte_udp.h>

#include "pkt.h"

#define TCP_OPT_MSS_LEN 4

uint32_t
pkt_sum(const void *buf, uint32_t len)
{
	return __rte_raw_cksum(buf, len, 0);
}

/* mbufs come DP_STASH at a time: one pool access (and one lcore-id TLS
 * lookup) per batch instead of per packet. */
static __rte_noinline struct rte_mbuf *
alloc_refill(struct worker *w)
{
	struct rte_mbuf *m;

	if (rte_pktmbuf_alloc_bulk(w->mp, w->stash, DP_STASH) == 0) {
		w->n_stash = DP_STASH - 1;
		return w->stash[DP_STASH - 1];
	}
	m = rte_pktmbuf_alloc(w->mp); /* the pool is nearly empty */
	if (unlikely(m == NULL))
		CNT(w, DROP_TX);
	return m;
}

static inline struct rte_mbuf *
alloc(struct worker *w)
{
	if (likely(w->n_stash))
		return w->stash[--w->n_stash];
	return alloc_refill(w);
}

/* A received packet is done with: back to the stash when there is room
 * (an mbuf just read is hot in cache, and this skips a pool put and get),
 * else to its pool. */
void
pkt_free(struct worker *w, struct rte_mbuf *m)
{
	if (w->n_stash < DP_STASH && m->pool == w->mp && RTE_MBUF_DIRECT(m) && m->nb_segs == 1 &&
	    rte_mbuf_refcnt_read(m) == 1) {
		rte_pktmbuf_reset(m);
		w->stash[w->n_stash++] = m;
		return;
	}
	rte_pktmbuf_free(m);
}

void
pkt_release(struct worker *w)
{
	rte_pktmbuf_free_bulk(w->stash, w->n_stash);
	w->n_stash = 0;
}

/* Ethernet (+ VLAN) header towards the gateway. Returns its length. */
static inline uint32_t
l2_write(const struct worker *w, uint8_t *p, uint16_t type_be, const struct rte_ether_addr *dst)
{
	struct rte_ether_hdr *eth = (struct rte_ether_hdr *)p;

	rte_ether_addr_copy(dst, &eth->dst_addr);
	rte_ether_addr_copy(&w->np->mac, &eth->src_addr);
	if (w->np->vlan_tci_be) {
		struct rte_vlan_hdr *vh = (struct rte_vlan_hdr *)(eth + 1);
		eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_VLAN);
		vh->vlan_tci = w->np->vlan_tci_be;
		vh->eth_proto = type_be;
		return sizeof(*eth) + sizeof(*vh);
	}
	eth->ether_type = type_be;
	return sizeof(*eth);
}

/* Checksums are summed from the values being written, never by reading
 * back a header just stored: those loads stall on store forwarding (perf
 * put 23% of the UDP flood's cycles on one). The sums below are of 16-bit
 * words as a little-endian load sees them, as rte_raw_cksum sums them. */
#if RTE_BYTE_ORDER != RTE_LITTLE_ENDIAN
#error "checksum sums assume a little-endian host"
#endif

static inline uint32_t
sum32(uint32_t v)
{
	return (v & 0xffff) + (v >> 16);
}

static inline uint16_t
fold(uint32_t s)
{
	s = (s & 0xffff) + (s >> 16);
	s = (s & 0xffff) + (s >> 16);
	return (uint16_t)s;
}

/* Writes an IPv4 header (checksum 0); returns the sum of its words. */
static inline uint32_t
ip_write(struct worker *w, struct rte_ipv4_hdr *ip, const struct tuple *t, uint8_t proto,
	 uint16_t l4len)
{
	uint16_t tl = rte_cpu_to_be_16((uint16_t)(sizeof(*ip) + l4len));
	uint16_t id = rte_cpu_to_be_16((uint16_t)w->ip_id++);
	uint16_t df = rte_cpu_to_be_16(RTE_IPV4_HDR_DF_FLAG);

	ip->version_ihl = RTE_IPV4_VHL_DEF;
	ip->type_of_service = w->tos;
	ip->total_length = tl;
	ip->packet_id = id;
	ip->fragment_offset = df;
	ip->time_to_live = 64;
	ip->next_proto_id = proto;
	ip->hdr_checksum = 0;
	ip->src_addr = t->lip;
	ip->dst_addr = t->rip;
	return (uint32_t)(RTE_IPV4_VHL_DEF | w->tos << 8) + tl + id + df + (uint32_t)(64 | proto << 8) +
	       sum32(t->lip) + sum32(t->rip);
}

static inline void
ip6_write(struct worker *w, struct rte_ipv6_hdr *ip, const struct tuple *t, uint8_t proto,
	  uint16_t l4len)
{
	ip->vtc_flow = rte_cpu_to_be_32(6u << 28 | (uint32_t)w->tos << RTE_IPV6_HDR_TC_SHIFT);
	ip->payload_len = rte_cpu_to_be_16(l4len);
	ip->proto = proto;
	ip->hop_limits = 64;
	memcpy(ip->src_addr, w->lpfx, 12);
	memcpy(ip->src_addr + 12, &t->lip, 4);
	memcpy(ip->dst_addr, w->rpfx, 12);
	memcpy(ip->dst_addr + 12, &t->rip, 4);
}

static inline uint16_t
l4_cksum6(struct worker *w, struct rte_mbuf *m, const struct rte_ipv6_hdr *ip, const void *l4,
	  uint32_t l4hdr_len, uint32_t data_sum, uint32_t l2len, int is_udp)
{
	uint32_t s;
	uint16_t c;

	if (w->np->tx_cksum) {
		m->l2_len = l2len;
		m->l3_len = sizeof(*ip);
		m->ol_flags |= RTE_MBUF_F_TX_IPV6 | (is_udp ? RTE_MBUF_F_TX_UDP_CKSUM : RTE_MBUF_F_TX_TCP_CKSUM);
		return rte_ipv6_phdr_cksum(ip, m->ol_flags);
	}
	s = rte_ipv6_phdr_cksum(ip, 0);
	s += __rte_raw_cksum(l4, l4hdr_len, 0) + (data_sum & 0xffff) + (data_sum >> 16);
	c = (uint16_t)~__rte_raw_cksum_reduce(s);
	return is_udp && c == 0 ? 0xffff : c;
}

/* IPv4 checksums, in software or by the device, from the sums of the IP
 * header (ip_sum), the L4 header (hdr_sum) and the payload (data_sum).
 * Returns the L4 checksum field. */
static inline uint16_t
l4_cksum(struct worker *w, struct rte_mbuf *m, struct rte_ipv4_hdr *ip, const struct tuple *t,
	 uint32_t ip_sum, uint32_t hdr_sum, uint32_t data_sum, uint16_t l4len, uint32_t l2len,
	 int is_udp)
{
	uint32_t phdr = sum32(t->lip) + sum32(t->rip) +
			((uint32_t)(is_udp ? IPPROTO_UDP : IPPROTO_TCP) << 8) + rte_cpu_to_be_16(l4len);
	uint16_t c;

	if (w->np->tx_cksum) {
		m->l2_len = l2len;
		m->l3_len = sizeof(*ip);
		m->ol_flags |= RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IP_CKSUM |
			       (is_udp ? RTE_MBUF_F_TX_UDP_CKSUM : RTE_MBUF_F_TX_TCP_CKSUM);
		return fold(phdr); /* the pseudo-header sum the device expects */
	}
	ip->hdr_checksum = (uint16_t)~fold(ip_sum);
	c = (uint16_t)~fold(phdr + hdr_sum + sum32(data_sum));
	if (is_udp && c == 0)
		c = 0xffff;
	return c;
}

int
pkt_tcp(struct worker *w, const struct tuple *t, uint32_t seq, uint32_t ack, uint8_t flags,
	const struct msg *msg)
{
	struct rte_mbuf *m = alloc(w);
	uint32_t l2, l3, optlen = (flags & RTE_TCP_SYN_FLAG) ? TCP_OPT_MSS_LEN : 0;
	uint32_t dlen = msg ? msg->len : 0, thl = sizeof(struct rte_tcp_hdr) + optlen;
	struct rte_tcp_hdr *th;
	uint32_t hsum;
	uint8_t *p;

	if (unlikely(m == NULL))
		return -1;
	p = rte_pktmbuf_mtod(m, uint8_t *);
	l2 = l2_write(w, p, rte_cpu_to_be_16(w->v6 ? RTE_ETHER_TYPE_IPV6 : RTE_ETHER_TYPE_IPV4),
		      &w->np->gw_mac);
	l3 = w->v6 ? sizeof(struct rte_ipv6_hdr) : sizeof(struct rte_ipv4_hdr);
	th = (struct rte_tcp_hdr *)(p + l2 + l3);
	seq = rte_cpu_to_be_32(seq);
	ack = rte_cpu_to_be_32(ack);
	th->src_port = t->lport;
	th->dst_port = t->rport;
	th->sent_seq = seq;
	th->recv_ack = ack;
	th->data_off = (uint8_t)((thl / 4) << 4);
	th->tcp_flags = flags;
	th->rx_win = 0xffff; /* 65535 */
	th->cksum = 0;
	th->tcp_urp = 0;
	hsum = (uint32_t)t->lport + t->rport + sum32(seq) + sum32(ack) +
	       (uint32_t)(((thl / 4) << 4) | (uint32_t)flags << 8) + 0xffff;
	if (optlen) {
		uint8_t *o = (uint8_t *)(th + 1);
		uint16_t mss = rte_cpu_to_be_16(w->mss);
		o[0] = 2; /* MSS */
		o[1] = 4;
		memcpy(o + 2, &mss, 2);
		hsum += (2 | 4 << 8) + (uint32_t)mss;
	}
	if (dlen)
		rte_memcpy((uint8_t *)th + thl, msg->data, dlen);
	m->data_len = m->pkt_len = l2 + l3 + thl + dlen;
	if (w->v6) {
		struct rte_ipv6_hdr *ip6 = (struct rte_ipv6_hdr *)(p + l2);
		ip6_write(w, ip6, t, IPPROTO_TCP, (uint16_t)(thl + dlen));
		th->cksum = l4_cksum6(w, m, ip6, th, thl, msg ? msg->sum : 0, l2, 0);
	} else {
		struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(p + l2);
		uint16_t l4len = (uint16_t)(thl + dlen);
		uint32_t isum = ip_write(w, ip, t, IPPROTO_TCP, l4len);
		th->cksum = l4_cksum(w, m, ip, t, isum, hsum, msg ? msg->sum : 0, l4len, l2, 0);
	}
	tx_enqueue(w, m);
	return 0;
}

int
pkt_udp(struct worker *w, const struct tuple *t, const struct msg *msg)
{
	struct rte_mbuf *m = alloc(w);
	struct rte_udp_hdr *uh;
	uint32_t l2, l3;
	uint16_t ulen = (uint16_t)(sizeof(*uh) + msg->len);
	uint8_t *p;

	if (unlikely(m == NULL))
		return -1;
	p = rte_pktmbuf_mtod(m, uint8_t *);
	l2 = l2_write(w, p, rte_cpu_to_be_16(w->v6 ? RTE_ETHER_TYPE_IPV6 : RTE_ETHER_TYPE_IPV4),
		      &w->np->gw_mac);
	l3 = w->v6 ? sizeof(struct rte_ipv6_hdr) : sizeof(struct rte_ipv4_hdr);
	uh = (struct rte_udp_hdr *)(p + l2 + l3);
	uh->src_port = t->lport;
	uh->dst_port = t->rport;
	uh->dgram_len = rte_cpu_to_be_16(ulen);
	uh->dgram_cksum = 0;
	rte_memcpy(uh + 1, msg->data, msg->len);
	m->data_len = m->pkt_len = l2 + l3 + ulen;
	if (w->v6) {
		struct rte_ipv6_hdr *ip6 = (struct rte_ipv6_hdr *)(p + l2);
		ip6_write(w, ip6, t, IPPROTO_UDP, ulen);
		uh->dgram_cksum = l4_cksum6(w, m, ip6, uh, sizeof(*uh), msg->sum, l2, 1);
	} else {
		struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(p + l2);
		uint32_t isum = ip_write(w, ip, t, IPPROTO_UDP, ulen);
		uint32_t hsum = (uint32_t)t->lport + t->rport + rte_cpu_to_be_16(ulen);
		uh->dgram_cksum = l4_cksum(w, m, ip, t, isum, hsum, msg->sum, ulen, l2, 1);
	}
	tx_enqueue(w, m);
	return 0;
}

int
pkt_arp(struct worker *w, uint16_t op, uint32_t sip, uint32_t tip, const struct rte_ether_addr *tmac)
{
	static const struct rte_ether_addr bcast = { .addr_bytes = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff } };
	static const struct rte_ether_addr zero = { .addr_bytes = { 0 } };
	struct rte_mbuf *m = alloc(w);
	struct rte_arp_hdr *a;
	uint32_t l2;
	uint8_t *p;

	if (unlikely(m == NULL))
		return -1;
	p = rte_pktmbuf_mtod(m, uint8_t *);
	l2 = l2_write(w, p, rte_cpu_to_be_16(RTE_ETHER_TYPE_ARP), op == 1 ? &bcast : tmac);
	a = (struct rte_arp_hdr *)(p + l2);
	a->arp_hardware = rte_cpu_to_be_16(RTE_ARP_HRD_ETHER);
	a->arp_protocol = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
	a->arp_hlen = RTE_ETHER_ADDR_LEN;
	a->arp_plen = 4;
	a->arp_opcode = rte_cpu_to_be_16(op);
	rte_ether_addr_copy(&w->np->mac, &a->arp_data.arp_sha);
	a->arp_data.arp_sip = sip;
	rte_ether_addr_copy(op == 1 ? &zero : tmac, &a->arp_data.arp_tha);
	a->arp_data.arp_tip = tip;
	m->data_len = m->pkt_len = RTE_MAX(l2 + (uint32_t)sizeof(*a), (uint32_t)RTE_ETHER_MIN_LEN - RTE_ETHER_CRC_LEN);
	memset(p + l2 + sizeof(*a), 0, m->data_len - l2 - sizeof(*a));
	CNT(w, ARP_TX);
	tx_enqueue(w, m);
	return 0;
}

int
pkt_ndp(struct worker *w, uint8_t type, const uint8_t *src, const uint8_t *dst,
	const struct rte_ether_addr *dmac, const uint8_t *target)
{
	struct rte_mbuf *m = alloc(w);
	struct rte_ipv6_hdr *ip;
	uint8_t *p, *ic;
	uint32_t l2, s;
	uint16_t c;

	if (unlikely(m == NULL))
		return -1;
	p = rte_pktmbuf_mtod(m, uint8_t *);
	l2 = l2_write(w, p, rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV6), dmac);
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
	memcpy(ic + 26, w->np->mac.addr_bytes, 6);
	s = rte_ipv6_phdr_cksum(ip, 0);
	s = __rte_raw_cksum(ic, 32, s);
	c = (uint16_t)~__rte_raw_cksum_reduce(s);
	memcpy(ic + 2, &c, 2);
	m->data_len = m->pkt_len = l2 + sizeof(*ip) + 32;
	m->ol_flags = 0;
	tx_enqueue(w, m);
	return 0;
}
