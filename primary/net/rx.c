/* SPDX-License-Identifier: BSD-3-Clause */
#include <string.h>

#include <rte_arp.h>
#include <rte_byteorder.h>
#include <rte_ether.h>
#include <rte_icmp.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_tcp.h>
#include <rte_udp.h>

#include "net/pkt.h"
#include "net/cksum.h"
#include "net/pkt_hdr.h"
#include "net/rx.h"
#include "tcp/tcp.h"
#include "udp/udp.h"

/* 1 when ip (network order) is one of this worker's port addresses. */
static inline int
is_local(const struct worker *w, uint32_t ip)
{
	const struct netport *np = w->np;
	uint32_t h = rte_be_to_cpu_32(ip);

	if (ip == np->local_ip)
		return 1;
	if (!w->is_client)
		return h - np->srv_ip_h < np->n_srv;
	return h - np->cli_ip_h < np->n_cli;
}

static void
set_gw_mac(struct netport *np, const struct rte_ether_addr *mac)
{
	rte_ether_addr_copy(mac, &np->gw_mac);
	rte_smp_wmb();
	np->gw_ok = 1;
}

static void
learn_gw(struct worker *w, uint32_t sip, const struct rte_ether_addr *mac)
{
	struct netport *np = w->np;

	if (sip != np->gw_ip || np->gw_ok)
		return;
	set_gw_mac(np, mac);
}

/* ff02::1:ffXX:XXXX and 33:33:ff:XX:XX:XX for a target address. */
static void
solicited_node(const uint8_t *target, uint8_t *ip, struct rte_ether_addr *mac)
{
	static const uint8_t pfx[13] = { 0xff, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0xff };

	memcpy(ip, pfx, 13);
	memcpy(ip + 13, target + 13, 3);
	mac->addr_bytes[0] = 0x33;
	mac->addr_bytes[1] = 0x33;
	memcpy(mac->addr_bytes + 2, ip + 12, 4);
}

void
rx_arp_request_gw(struct worker *w)
{
	if (w->np->v6) {
		uint8_t dst[16];
		struct rte_ether_addr mac;

		solicited_node(w->np->gw_ip6, dst, &mac);
		pkt_ndp(w, 135, w->np->local_ip6, dst, &mac, w->np->gw_ip6);
		CNT(w, ARP_TX);
		return;
	}
	pkt_arp(w, RTE_ARP_OP_REQUEST, w->np->local_ip, w->np->gw_ip, NULL);
}

static void
arp_input(struct worker *w, const uint8_t *p, uint32_t len)
{
	const struct rte_arp_hdr *a = (const struct rte_arp_hdr *)p;
	struct rte_ether_addr sha;
	uint32_t sip, tip;

	if (len < sizeof(*a) || a->arp_hardware != rte_cpu_to_be_16(RTE_ARP_HRD_ETHER) ||
	    a->arp_protocol != rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4) || a->arp_hlen != 6 ||
	    a->arp_plen != 4) {
		CNT(w, BAD_RX);
		return;
	}
	CNT(w, ARP_RX);
	sha = a->arp_data.arp_sha;
	sip = a->arp_data.arp_sip;
	tip = a->arp_data.arp_tip;
	learn_gw(w, sip, &sha);
	if (a->arp_opcode == rte_cpu_to_be_16(RTE_ARP_OP_REQUEST) && is_local(w, tip))
		pkt_arp(w, RTE_ARP_OP_REPLY, tip, sip, &sha);
	else if (a->arp_opcode != rte_cpu_to_be_16(RTE_ARP_OP_REPLY))
		CNT(w, ARP_DROP); /* a request for an address we do not own */
}

/* Echo reply built in place; consumes m. */
static void
icmp_input(struct worker *w, struct rte_mbuf *m, struct rte_ether_hdr *eth,
	   struct rte_ipv4_hdr *ip, uint32_t l4len)
{
	struct rte_icmp_hdr *ic = (struct rte_icmp_hdr *)((uint8_t *)ip + rte_ipv4_hdr_len(ip));
	uint32_t tmp;

	CNT(w, ICMP_RX);
	if (l4len < sizeof(*ic) || ic->icmp_type != RTE_IP_ICMP_ECHO_REQUEST || ic->icmp_code != 0 ||
	    rte_raw_cksum(ic, l4len) != 0xffff) {
		CNT(w, OTHER_RX);
		rte_pktmbuf_free(m);
		return;
	}
	rte_ether_addr_copy(&eth->src_addr, &eth->dst_addr);
	rte_ether_addr_copy(&w->np->mac, &eth->src_addr);
	tmp = ip->src_addr;
	ip->src_addr = ip->dst_addr;
	ip->dst_addr = tmp;
	ip->time_to_live = 64;
	ip->hdr_checksum = 0;
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	ic->icmp_type = RTE_IP_ICMP_ECHO_REPLY;
	ic->icmp_cksum = 0;
	ic->icmp_cksum = (uint16_t)~rte_raw_cksum(ic, l4len);
	m->ol_flags = 0;
	CNT(w, ICMP_TX);
	tx_enqueue(w, m);
}

/* Software check: pseudo-header + segment must sum to 0xffff. The
 * pseudo-header is summed from the IP header's fields, not built on the
 * stack as rte_ipv4_phdr_cksum does: its bytes, stored one by one and
 * read back two at a time, stalled on store forwarding (a third of this
 * function's time under load). */
static int
ipv4_l4_sum_ok(const struct rte_ipv4_hdr *ip, const void *l4)
{
	uint32_t l4len = (uint32_t)rte_be_to_cpu_16(ip->total_length) - rte_ipv4_hdr_len(ip);
	uint32_t s = sum32(ip->src_addr) + sum32(ip->dst_addr) + ((uint32_t)ip->next_proto_id << 8) +
		     rte_cpu_to_be_16((uint16_t)l4len);

	s = dp_cksum(l4, l4len, s);
	return __rte_raw_cksum_reduce(s) == 0xffff;
}

static int
l4_cksum_ok(const struct worker *w, const struct rte_mbuf *m, const struct rte_ipv4_hdr *ip,
	    const void *l4)
{
	uint64_t f = m->ol_flags & RTE_MBUF_F_RX_L4_CKSUM_MASK;

	if (w->np->rx_cksum && f == RTE_MBUF_F_RX_L4_CKSUM_GOOD)
		return 1;
	if (f == RTE_MBUF_F_RX_L4_CKSUM_BAD)
		return 0;
	return ipv4_l4_sum_ok(ip, l4);
}

/* TCP and UDP after the IP layer (v4 or v6): sip/dip are the addresses'
 * last 32 bits, l4 is within the packet for l4len bytes, sum_ok says
 * whether the checksum verified. */
static void
tcp_input(struct worker *w, uint32_t sip, uint32_t dip, const uint8_t *l4, uint32_t l4len,
	  int sum_ok)
{
	const struct rte_tcp_hdr *th = (const struct rte_tcp_hdr *)l4;
	struct seg s;
	uint32_t thl;

	if (l4len < sizeof(*th)) {
		CNT(w, BAD_RX);
		return;
	}
	thl = (uint32_t)(th->data_off >> 4) * 4;
	if (thl < sizeof(*th) || thl > l4len || !sum_ok) {
		CNT(w, BAD_RX);
		return;
	}
	if (w->is_udp) {
		CNT(w, TCP_DROP);
		return;
	}
	s.sip = sip;
	s.dip = dip;
	s.sport = th->src_port;
	s.dport = th->dst_port;
	s.seq = rte_be_to_cpu_32(th->sent_seq);
	s.ack = rte_be_to_cpu_32(th->recv_ack);
	s.flags = th->tcp_flags;
	s.data = l4 + thl;
	s.dlen = l4len - thl;
	if (w->is_client)
		tcp_client_input(w, &s);
	else
		tcp_server_input(w, &s);
}

static void
udp_rx(struct worker *w, uint32_t sip, uint32_t dip, const uint8_t *l4, uint32_t l4len, int sum_ok)
{
	const struct rte_udp_hdr *uh = (const struct rte_udp_hdr *)l4;
	struct udp_dgram d;

	if (l4len < sizeof(*uh) || rte_be_to_cpu_16(uh->dgram_len) != l4len || !sum_ok) {
		CNT(w, BAD_RX);
		return;
	}
	if (!w->is_udp) {
		CNT(w, UDP_DROP);
		return;
	}
	d.sip = sip;
	d.dip = dip;
	d.sport = uh->src_port;
	d.dport = uh->dst_port;
	d.dlen = l4len - sizeof(*uh);
	udp_input(w, &d);
}

/* Returns 1 when m was consumed (ICMP reply reuses it). */
static int
ipv4_input(struct worker *w, struct rte_mbuf *m, struct rte_ether_hdr *eth, uint8_t *p,
	   uint32_t len)
{
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)p;
	uint32_t ihl, tot;

	if (len < sizeof(*ip) || (ip->version_ihl >> 4) != 4) {
		CNT(w, BAD_RX);
		return 0;
	}
	ihl = rte_ipv4_hdr_len(ip);
	tot = rte_be_to_cpu_16(ip->total_length);
	if (ihl < sizeof(*ip) || tot < ihl || tot > len) {
		CNT(w, BAD_RX);
		return 0;
	}
	if (!(w->np->rx_cksum && (m->ol_flags & RTE_MBUF_F_RX_IP_CKSUM_MASK) == RTE_MBUF_F_RX_IP_CKSUM_GOOD) &&
	    rte_raw_cksum(ip, ihl) != 0xffff) {
		CNT(w, BAD_RX);
		return 0;
	}
	if (ip->fragment_offset & rte_cpu_to_be_16(RTE_IPV4_HDR_MF_FLAG | RTE_IPV4_HDR_OFFSET_MASK)) { /* no reassembly: counted, dropped */
		CNT(w, BAD_RX);
		return 0;
	}
	if (!is_local(w, ip->dst_addr)) {
		CNT(w, OTHER_RX);
		return 0;
	}
	if (!w->is_client && !w->np->gw_ok) /* no ARP seen yet: answer the sender */
		learn_gw(w, w->np->gw_ip, &eth->src_addr);
	switch (ip->next_proto_id) {
	case IPPROTO_TCP:
		tcp_input(w, ip->src_addr, ip->dst_addr, (const uint8_t *)ip + ihl, tot - ihl,
			  l4_cksum_ok(w, m, ip, (const uint8_t *)ip + ihl));
		return 0;
	case IPPROTO_UDP: {
		const struct rte_udp_hdr *uh = (const struct rte_udp_hdr *)((const uint8_t *)ip + ihl);
		/* A zero UDP checksum means "none" in IPv4. */
		int ok = tot - ihl >= sizeof(*uh) && (uh->dgram_cksum == 0 || l4_cksum_ok(w, m, ip, uh));
		udp_rx(w, ip->src_addr, ip->dst_addr, (const uint8_t *)uh, tot - ihl, ok);
		return 0;
	}
	case IPPROTO_ICMP:
		icmp_input(w, m, eth, ip, tot - ihl);
		return 1;
	default:
		CNT(w, OTHER_RX);
		return 0;
	}
}

/* IPv6: one of our addresses? (prefix of our ranges + low 32 bits) */
static int
is_local6(const struct worker *w, const uint8_t *a)
{
	const struct netport *np = w->np;
	uint32_t h;

	if (memcmp(a, np->local_ip6, 16) == 0)
		return 1;
	if (memcmp(a, w->lpfx, 12) != 0)
		return 0;
	memcpy(&h, a + 12, 4);
	h = rte_be_to_cpu_32(h);
	return w->is_client ? h - np->cli_ip_h < np->n_cli : h - np->srv_ip_h < np->n_srv;
}

static int
l4_sum6_ok(const struct rte_ipv6_hdr *ip, const void *l4, uint32_t l4len)
{
	uint32_t s = rte_ipv6_phdr_cksum(ip, 0);

	s = dp_cksum(l4, l4len, s);
	return __rte_raw_cksum_reduce(s) == 0xffff;
}

/* Neighbour discovery and echo. Returns 1 when m was consumed. */
static int
icmp6_input(struct worker *w, struct rte_mbuf *m, struct rte_ether_hdr *eth,
	    struct rte_ipv6_hdr *ip, uint8_t *ic, uint32_t len)
{
	struct netport *np = w->np;

	if (len < 8 || !l4_sum6_ok(ip, ic, len)) {
		CNT(w, BAD_RX);
		return 0;
	}
	if (ic[0] == 135 && len >= 24) { /* solicitation */
		CNT(w, ARP_RX);
		if (memcmp(ip->src_addr, np->gw_ip6, 16) == 0 && !np->gw_ok)
			set_gw_mac(np, &eth->src_addr);
		if (is_local6(w, ic + 8)) {
			pkt_ndp(w, 136, ic + 8, ip->src_addr, &eth->src_addr, ic + 8);
			CNT(w, ARP_TX);
		} else {
			CNT(w, ARP_DROP);
		}
		return 0;
	}
	if (ic[0] == 136 && len >= 24) { /* advertisement */
		CNT(w, ARP_RX);
		if (memcmp(ic + 8, np->gw_ip6, 16) == 0 && !np->gw_ok)
			set_gw_mac(np, &eth->src_addr);
		return 0;
	}
	if (ic[0] == 128 && is_local6(w, ip->dst_addr)) { /* echo request */
		uint8_t tmp[16];
		uint32_t s;
		uint16_t c;

		CNT(w, ICMP_RX);
		rte_ether_addr_copy(&eth->src_addr, &eth->dst_addr);
		rte_ether_addr_copy(&np->mac, &eth->src_addr);
		memcpy(tmp, ip->src_addr, 16);
		memcpy(ip->src_addr, ip->dst_addr, 16);
		memcpy(ip->dst_addr, tmp, 16);
		ip->hop_limits = 64;
		ic[0] = 129;
		ic[2] = ic[3] = 0;
		s = rte_ipv6_phdr_cksum(ip, 0);
		s = __rte_raw_cksum(ic, len, s);
		c = (uint16_t)~__rte_raw_cksum_reduce(s);
		memcpy(ic + 2, &c, 2);
		m->ol_flags = 0;
		CNT(w, ICMP_TX);
		tx_enqueue(w, m);
		return 1;
	}
	CNT(w, OTHER_RX); /* router/multicast-listener messages and the like */
	return 0;
}

/* Returns 1 when m was consumed. */
static int
ipv6_input(struct worker *w, struct rte_mbuf *m, struct rte_ether_hdr *eth, uint8_t *p,
	   uint32_t len)
{
	struct rte_ipv6_hdr *ip = (struct rte_ipv6_hdr *)p;
	uint8_t *l4 = p + sizeof(*ip);
	uint32_t plen;

	if (len < sizeof(*ip) || (p[0] >> 4) != 6) {
		CNT(w, BAD_RX);
		return 0;
	}
	plen = rte_be_to_cpu_16(ip->payload_len);
	if (plen > len - sizeof(*ip)) {
		CNT(w, BAD_RX);
		return 0;
	}
	if (!w->np->v6) {
		CNT(w, OTHER_RX);
		return 0;
	}
	if (ip->proto == IPPROTO_ICMPV6)
		return icmp6_input(w, m, eth, ip, l4, plen);
	if (!is_local6(w, ip->dst_addr) || memcmp(ip->src_addr, w->rpfx, 12) != 0) {
		CNT(w, OTHER_RX);
		return 0;
	}
	if (ip->proto == IPPROTO_TCP || ip->proto == IPPROTO_UDP) {
		uint32_t sip, dip;
		int ok = l4_sum6_ok(ip, l4, plen);

		memcpy(&sip, ip->src_addr + 12, 4);
		memcpy(&dip, ip->dst_addr + 12, 4);
		if (ip->proto == IPPROTO_TCP)
			tcp_input(w, sip, dip, l4, plen, ok);
		else
			udp_rx(w, sip, dip, l4, plen, ok);
		return 0;
	}
	CNT(w, OTHER_RX); /* extension headers are not followed */
	return 0;
}

void
rx_packet(struct worker *w, struct rte_mbuf *m)
{
	uint32_t len = rte_pktmbuf_data_len(m), off = sizeof(struct rte_ether_hdr);
	struct rte_ether_hdr *eth = rte_pktmbuf_mtod(m, struct rte_ether_hdr *);
	uint16_t type;

	CNT(w, PKT_RX);
	CNT_ADD(w, BITS_RX, (uint64_t)rte_pktmbuf_pkt_len(m) * 8);
	if (unlikely(m->nb_segs != 1 || len < off)) {
		CNT(w, BAD_RX);
		goto drop;
	}
	type = eth->ether_type;
	if (type == rte_cpu_to_be_16(RTE_ETHER_TYPE_VLAN)) {
		const struct rte_vlan_hdr *vh = (const struct rte_vlan_hdr *)(eth + 1);
		if (len < off + sizeof(*vh)) {
			CNT(w, BAD_RX);
			goto drop;
		}
		type = vh->eth_proto;
		off += sizeof(*vh);
	}
	if (type == rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4)) {
		if (ipv4_input(w, m, eth, (uint8_t *)eth + off, len - off))
			return;
	} else if (type == rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV6)) {
		if (ipv6_input(w, m, eth, (uint8_t *)eth + off, len - off))
			return;
	} else if (type == rte_cpu_to_be_16(RTE_ETHER_TYPE_ARP)) {
		arp_input(w, (uint8_t *)eth + off, len - off);
	} else {
		CNT(w, OTHER_RX);
	}
drop:
	pkt_free(w, m);
}
