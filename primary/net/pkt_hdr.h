/* SPDX-License-Identifier: BSD-3-Clause
 * Inline pieces of frame building shared by net/pkt.c, net/pkt_flood.c and
 * tcp/tcp_out.c (the TCP segment writer, above them): mbuf allocation from
 * the worker's stash (pkt_alloc.h), and header writers (on the worker's
 * pkt_io) that return the ones'-complement sums of what they wrote.
 */
#ifndef DPERF_PKT_HDR_H
#define DPERF_PKT_HDR_H

#include <string.h>

#include <rte_byteorder.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_mbuf.h>

#include "net/cksum.h"
#include "net/netw.h"
#include "net/pkt_alloc.h"


/* Ethernet (+ VLAN) header towards the gateway. Returns its length. */
static inline uint32_t
l2_write(const struct pkt_io *io, uint8_t *p, uint16_t type_be, const struct rte_ether_addr *dst)
{
	struct rte_ether_hdr *eth = (struct rte_ether_hdr *)p;

	rte_ether_addr_copy(dst, &eth->dst_addr);
	rte_ether_addr_copy(&io->np->mac, &eth->src_addr);
	if (io->np->vlan_tci_be) {
		struct rte_vlan_hdr *vh = (struct rte_vlan_hdr *)(eth + 1);
		eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_VLAN);
		vh->vlan_tci = io->np->vlan_tci_be;
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

/* The sum of the words of the IPv4 header ip_write writes (tl, id in
 * network order). */
static inline uint32_t
ip_sum(const struct pkt_io *io, const struct tuple *t, uint8_t proto, uint16_t tl, uint16_t id)
{
	return (uint32_t)(RTE_IPV4_VHL_DEF | io->tos << 8) + tl + id +
	       rte_cpu_to_be_16(RTE_IPV4_HDR_DF_FLAG) + (uint32_t)(64 | proto << 8) +
	       sum32(t->lip) + sum32(t->rip);
}

/* Writes an IPv4 header (checksum 0); returns the sum of its words. */
static inline uint32_t
ip_write(struct pkt_io *io, struct rte_ipv4_hdr *ip, const struct tuple *t, uint8_t proto,
	 uint16_t l4len)
{
	uint16_t tl = rte_cpu_to_be_16((uint16_t)(sizeof(*ip) + l4len));
	uint16_t id = rte_cpu_to_be_16((uint16_t)io->ip_id++);
	uint16_t df = rte_cpu_to_be_16(RTE_IPV4_HDR_DF_FLAG);

	ip->version_ihl = RTE_IPV4_VHL_DEF;
	ip->type_of_service = io->tos;
	ip->total_length = tl;
	ip->packet_id = id;
	ip->fragment_offset = df;
	ip->time_to_live = 64;
	ip->next_proto_id = proto;
	ip->hdr_checksum = 0;
	ip->src_addr = t->lip;
	ip->dst_addr = t->rip;
	return ip_sum(io, t, proto, tl, id);
}

static inline void
ip6_write(const struct pkt_io *io, struct rte_ipv6_hdr *ip, const struct tuple *t, uint8_t proto,
	  uint16_t l4len)
{
	ip->vtc_flow = rte_cpu_to_be_32(6u << 28 | (uint32_t)io->tos << RTE_IPV6_HDR_TC_SHIFT);
	ip->payload_len = rte_cpu_to_be_16(l4len);
	ip->proto = proto;
	ip->hop_limits = 64;
	memcpy(ip->src_addr, io->lpfx, 12);
	memcpy(ip->src_addr + 12, &t->lip, 4);
	memcpy(ip->dst_addr, io->rpfx, 12);
	memcpy(ip->dst_addr + 12, &t->rip, 4);
}

static inline uint16_t
l4_cksum6(const struct pkt_io *io, struct rte_mbuf *m, const struct rte_ipv6_hdr *ip, const void *l4,
	  uint32_t l4hdr_len, uint32_t data_sum, uint32_t l2len, int is_udp)
{
	uint32_t s;
	uint16_t c;

	if (io->np->tx_cksum) {
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
l4_cksum(const struct pkt_io *io, struct rte_mbuf *m, struct rte_ipv4_hdr *ip, const struct tuple *t,
	 uint32_t ip_sum, uint32_t hdr_sum, uint32_t data_sum, uint16_t l4len, uint32_t l2len,
	 int is_udp)
{
	uint32_t phdr = sum32(t->lip) + sum32(t->rip) +
			((uint32_t)(is_udp ? IPPROTO_UDP : IPPROTO_TCP) << 8) + rte_cpu_to_be_16(l4len);
	uint16_t c;

	if (io->np->tx_cksum) {
		m->l2_len = l2len;
		m->l3_len = sizeof(*ip);
		m->ol_flags |= RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IP_CKSUM |
			       (is_udp ? RTE_MBUF_F_TX_UDP_CKSUM : RTE_MBUF_F_TX_TCP_CKSUM);
		return dp_cksum_fold(phdr); /* the pseudo-header sum the device expects */
	}
	ip->hdr_checksum = (uint16_t)~dp_cksum_fold(ip_sum);
	c = (uint16_t)~dp_cksum_fold(phdr + hdr_sum + sum32(data_sum));
	if (is_udp && c == 0)
		c = 0xffff;
	return c;
}

#endif
