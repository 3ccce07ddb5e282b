/* SPDX-License-Identifier: BSD-3-Clause
 * The receive path (rx.h): Ethernet, VLAN, IPv4 and IPv6, checked against
 * the mbuf's real length and checksums; ARP/NDP and ICMP go to neigh.c and
 * icmp.c, TCP and UDP to the transports (l4.h). On a VXLAN port the outer
 * headers are checked first (vxlan.c) and the inner frame takes the same
 * path, with tun set: what it answers goes back through the tunnel.
 */
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_prefetch.h>
#include <rte_tcp.h>
#include <rte_udp.h>

#include "net/cksum.h"
#include "net/icmp.h"
#include "net/l4.h"
#include "net/neigh.h"
#include "net/pkt.h"
#include "net/pkt_hdr.h"
#include "net/rx.h"
#include "net/vxlan.h"

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
l4_cksum_ok(const struct netw *nw, const struct rte_mbuf *m, const struct rte_ipv4_hdr *ip,
	    const void *l4)
{
	uint64_t f = m->ol_flags & RTE_MBUF_F_RX_L4_CKSUM_MASK;

	if (nw->io.np->rx_cksum && f == RTE_MBUF_F_RX_L4_CKSUM_GOOD)
		return 1;
	if (f == RTE_MBUF_F_RX_L4_CKSUM_BAD)
		return 0;
	return ipv4_l4_sum_ok(ip, l4);
}

/* A SYN's options: window scale (RFC 7323 2.2: its shift, at most 14, or
 * SEG_NO_WS), MSS (0: none) and SACK-permitted (RFC 2018 2). Options are
 * walked within the header's length (thl was checked against the segment). */
static void
syn_options(const struct rte_tcp_hdr *th, uint32_t thl, struct seg *s)
{
	const uint8_t *o = (const uint8_t *)(th + 1), *end = (const uint8_t *)th + thl;

	s->ws = SEG_NO_WS;
	s->mss = 0;
	s->sack_ok = 0;
	while (o < end) {
		if (o[0] == 0) /* end of options */
			break;
		if (o[0] == 1) { /* no-operation */
			o++;
			continue;
		}
		if (end - o < 2 || o[1] < 2 || o[1] > end - o)
			break;
		if (o[0] == 3 && o[1] == 3)
			s->ws = o[2] > 14 ? 14 : o[2];
		else if (o[0] == 2 && o[1] == 4)
			s->mss = (uint16_t)(o[2] << 8 | o[3]);
		else if (o[0] == 4 && o[1] == 2)
			s->sack_ok = 1;
		o += o[1];
	}
}

/* TCP and UDP after the IP layer (v4 or v6): sip/dip are the addresses'
 * last 32 bits, l4 is within the packet for l4len bytes, sum_ok says
 * whether the checksum verified. */
static void
tcp_rx(struct netw *nw, struct rte_mbuf *m, uint32_t sip, uint32_t dip, const uint8_t *l4,
	uint32_t l4len, int sum_ok)
{
	const struct rte_tcp_hdr *th = (const struct rte_tcp_hdr *)l4;
	struct seg s;
	uint32_t thl;

	if (l4len < sizeof(*th)) {
		CNT(&nw->cnt, BAD_RX);
		return;
	}
	thl = (uint32_t)(th->data_off >> 4) * 4;
	if (thl < sizeof(*th) || thl > l4len || !sum_ok) {
		CNT(&nw->cnt, BAD_RX);
		return;
	}
	/* A UDP run's seg_in counts the segment as tcpDrop, and the knob
	 * below is 0 there (worker_setup.c): every segment that passed the
	 * checks above is tcpDrop, never testDrop, as when the run was
	 * tested here. */
	/* test_rx_drop: a lossy link, for the tests of recovery */
	if (unlikely(nw->rx_drop.every) && l4len > thl && ++nw->rx_drop.n >= nw->rx_drop.every) {
		nw->rx_drop.n = 0;
		CNT(&nw->cnt, TEST_DROP);
		return;
	}
	s.sip = sip;
	s.dip = dip;
	s.sport = th->src_port;
	s.dport = th->dst_port;
	s.seq = rte_be_to_cpu_32(th->sent_seq);
	s.ack = rte_be_to_cpu_32(th->recv_ack);
	s.flags = th->tcp_flags;
	s.win = rte_be_to_cpu_16(th->rx_win);
	if (unlikely(s.flags & RTE_TCP_SYN_FLAG)) {
		syn_options(th, thl, &s);
	} else {
		s.ws = SEG_NO_WS;
		s.mss = 0;
		s.sack_ok = 0;
	}
	s.data = l4 + thl;
	s.dlen = l4len - thl;
	s.opt = (const uint8_t *)(th + 1);
	s.optlen = (uint8_t)(thl - sizeof(*th));
	s.pkt = m;
	nw->seg_in(nw, &s);
}

/* seg_in of a UDP run and dgram_in of a TCP run: the other protocol's
 * packets, counted after the checks every packet passes (BAD_RX). */
static void
seg_drop(struct netw *nw, const struct seg *s)
{
	(void)s;
	CNT(&nw->cnt, TCP_DROP);
}

static void
dgram_drop(struct netw *nw, const struct udp_dgram *d)
{
	(void)d;
	CNT(&nw->cnt, UDP_DROP);
}

static void
udp_rx(struct netw *nw, uint32_t sip, uint32_t dip, const uint8_t *l4, uint32_t l4len, int sum_ok)
{
	const struct rte_udp_hdr *uh = (const struct rte_udp_hdr *)l4;

	if (l4len < sizeof(*uh) || rte_be_to_cpu_16(uh->dgram_len) != l4len || !sum_ok) {
		CNT(&nw->cnt, BAD_RX);
		return;
	}
	nw->dgram_in(nw, &(struct udp_dgram){.sip = sip, .dip = dip, .sport = uh->src_port,
					      .dport = uh->dst_port, .dlen = l4len - sizeof(*uh)});
}

/* Returns 1 when m was consumed (ICMP reply reuses it). tun: an inner
 * frame of a VXLAN port. */
static __rte_always_inline int
ipv4_input(struct netw *nw, struct rte_mbuf *m, struct rte_ether_hdr *eth, uint8_t *p,
	   uint32_t len, int tun)
{
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)p;
	uint32_t ihl, tot;

	if (len < sizeof(*ip) || (ip->version_ihl >> 4) != 4) {
		CNT(&nw->cnt, BAD_RX);
		return 0;
	}
	ihl = rte_ipv4_hdr_len(ip);
	tot = rte_be_to_cpu_16(ip->total_length);
	if (ihl < sizeof(*ip) || tot < ihl || tot > len) {
		CNT(&nw->cnt, BAD_RX);
		return 0;
	}
	if (!(nw->io.np->rx_cksum && (m->ol_flags & RTE_MBUF_F_RX_IP_CKSUM_MASK) == RTE_MBUF_F_RX_IP_CKSUM_GOOD) &&
	    rte_raw_cksum(ip, ihl) != 0xffff) {
		CNT(&nw->cnt, BAD_RX);
		return 0;
	}
	if (ip->fragment_offset & rte_cpu_to_be_16(RTE_IPV4_HDR_MF_FLAG | RTE_IPV4_HDR_OFFSET_MASK)) { /* no reassembly: counted, dropped */
		CNT(&nw->cnt, BAD_RX);
		return 0;
	}
	if (!net_is_local(nw, ip->dst_addr)) {
		CNT(&nw->cnt, OTHER_RX);
		return 0;
	}
	/* The role's test stays per packet: it is one with gw_ok, which
	 * changes while the worker runs, so binding would not remove it. */
	if (!nw->is_client && !nw->io.np->gw_ok) /* no ARP seen yet: answer the sender */
		neigh_learn_gw(nw, nw->io.np->gw_ip, &eth->src_addr);
	switch (ip->next_proto_id) {
	case IPPROTO_TCP:
		tcp_rx(nw, m, ip->src_addr, ip->dst_addr, (const uint8_t *)ip + ihl, tot - ihl,
			  l4_cksum_ok(nw, m, ip, (const uint8_t *)ip + ihl));
		return 0;
	case IPPROTO_UDP: {
		const struct rte_udp_hdr *uh = (const struct rte_udp_hdr *)((const uint8_t *)ip + ihl);
		/* A zero UDP checksum means "none" in IPv4. */
		int ok = tot - ihl >= sizeof(*uh) && (uh->dgram_cksum == 0 || l4_cksum_ok(nw, m, ip, uh));
		udp_rx(nw, ip->src_addr, ip->dst_addr, (const uint8_t *)uh, tot - ihl, ok);
		return 0;
	}
	case IPPROTO_ICMP:
		icmp_input(nw, m, eth, ip, tot - ihl, tun);
		return 1;
	default:
		CNT(&nw->cnt, OTHER_RX);
		return 0;
	}
}

/* Returns 1 when m was consumed. */
static __rte_always_inline int
ipv6_input(struct netw *nw, struct rte_mbuf *m, struct rte_ether_hdr *eth, uint8_t *p,
	   uint32_t len, int tun)
{
	struct rte_ipv6_hdr *ip = (struct rte_ipv6_hdr *)p;
	uint8_t *l4 = p + sizeof(*ip);
	uint32_t plen;

	if (len < sizeof(*ip) || (p[0] >> 4) != 6) {
		CNT(&nw->cnt, BAD_RX);
		return 0;
	}
	plen = rte_be_to_cpu_16(ip->payload_len);
	if (plen > len - sizeof(*ip)) {
		CNT(&nw->cnt, BAD_RX);
		return 0;
	}
	if (!nw->v6) { /* the inner family: the port's, except inside VXLAN */
		CNT(&nw->cnt, OTHER_RX);
		return 0;
	}
	if (ip->proto == IPPROTO_ICMPV6)
		return icmp6_input(nw, m, eth, ip, l4, plen, tun);
	if (!net_is_local6(nw, ip->dst_addr) || memcmp(ip->src_addr, nw->io.rpfx, 12) != 0) {
		CNT(&nw->cnt, OTHER_RX);
		return 0;
	}
	if (ip->proto == IPPROTO_TCP || ip->proto == IPPROTO_UDP) {
		uint32_t sip, dip;
		int ok = net_l4_sum6_ok(ip, l4, plen);

		memcpy(&sip, ip->src_addr + 12, 4);
		memcpy(&dip, ip->dst_addr + 12, 4);
		if (ip->proto == IPPROTO_TCP)
			tcp_rx(nw, m, sip, dip, l4, plen, ok);
		else
			udp_rx(nw, sip, dip, l4, plen, ok);
		return 0;
	}
	CNT(&nw->cnt, OTHER_RX); /* extension headers are not followed */
	return 0;
}

/* A frame of len bytes at eth, Ethernet header included; consumes m. */
static __rte_always_inline void
rx_frame(struct netw *nw, struct rte_mbuf *m, struct rte_ether_hdr *eth, uint32_t len, int tun)
{
	uint32_t off = sizeof(struct rte_ether_hdr);
	uint16_t type = eth->ether_type;

	if (type == rte_cpu_to_be_16(RTE_ETHER_TYPE_VLAN)) {
		const struct rte_vlan_hdr *vh = (const struct rte_vlan_hdr *)(eth + 1);
		if (len < off + sizeof(*vh)) {
			CNT(&nw->cnt, BAD_RX);
			goto drop;
		}
		type = vh->eth_proto;
		off += sizeof(*vh);
	}
	if (type == rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4)) {
		if (ipv4_input(nw, m, eth, (uint8_t *)eth + off, len - off, tun))
			return;
	} else if (type == rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV6)) {
		if (ipv6_input(nw, m, eth, (uint8_t *)eth + off, len - off, tun))
			return;
	} else if (type == rte_cpu_to_be_16(RTE_ETHER_TYPE_ARP)) {
		neigh_arp_input(nw, (uint8_t *)eth + off, len - off);
	} else {
		CNT(&nw->cnt, OTHER_RX);
	}
drop:
	pkt_free(nw, m);
}

/* A frame received on a VXLAN port: the outer headers' part is done here,
 * the inner frame goes to rx_frame. Consumes m. */
static __rte_noinline void
rx_vxlan(struct netw *nw, struct rte_mbuf *m, struct rte_ether_hdr *eth, uint32_t len)
{
	uint32_t off = 0, n = 0;

	switch (vxlan_rx(nw->io.vx, (const uint8_t *)eth, len, &off, &n)) {
	case VX_INNER:
		if (!nw->is_client && !nw->io.np->gw_ok) /* no ARP seen yet: answer the sender */
			neigh_learn_gw(nw, nw->io.np->gw_ip, &eth->src_addr);
		/* the device's checksum flags were about the outer packet */
		m->ol_flags = 0;
		rte_pktmbuf_adj(m, (uint16_t)off);
		/* n: the inner frame alone; what follows it is outer padding */
		rx_frame(nw, m, rte_pktmbuf_mtod(m, struct rte_ether_hdr *), n, 1);
		return;
	case VX_ARP:
		neigh_arp_input(nw, (uint8_t *)eth + off, n);
		break;
	case VX_ICMP:
		m->ol_flags = 0;
		if (eth->ether_type == rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4)) {
			struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)((uint8_t *)eth + off);
			icmp_input(nw, m, eth, ip, rte_be_to_cpu_16(ip->total_length) - rte_ipv4_hdr_len(ip), 0);
			return;
		} else {
			struct rte_ipv6_hdr *ip = (struct rte_ipv6_hdr *)((uint8_t *)eth + off);
			if (icmp6_input(nw, m, eth, ip, (uint8_t *)(ip + 1), rte_be_to_cpu_16(ip->payload_len), 0))
				return;
		}
		break;
	case VX_OTHER:
		CNT(&nw->cnt, OTHER_RX);
		break;
	default:
		CNT(&nw->cnt, BAD_RX);
	}
	pkt_free(nw, m);
}

/* One received packet; consumes m. vx: the port has a tunnel (a
 * constant: rx_bind binds a loop for each). */
static __rte_always_inline void
rx_one(struct netw *nw, struct rte_mbuf *m, const int vx)
{
	uint32_t len = rte_pktmbuf_data_len(m);
	struct rte_ether_hdr *eth = rte_pktmbuf_mtod(m, struct rte_ether_hdr *);

	CNT(&nw->cnt, PKT_RX);
	CNT_ADD(&nw->cnt, BITS_RX, (uint64_t)rte_pktmbuf_pkt_len(m) * 8);
	if (unlikely(m->nb_segs != 1 || len < sizeof(*eth))) {
		CNT(&nw->cnt, BAD_RX);
		pkt_free(nw, m);
		return;
	}
	if (vx)
		rx_vxlan(nw, m, eth, len);
	else
		rx_frame(nw, m, eth, len, 0);
}

/* A burst, each packet's header prefetched while the one before is
 * handled. */
static __rte_always_inline void
rx_loop(struct netw *nw, struct rte_mbuf **m, uint16_t n, const int vx)
{
	for (uint16_t i = 0; i < n; i++) {
		if (i + 1 < n)
			rte_prefetch0(rte_pktmbuf_mtod(m[i + 1], void *));
		rx_one(nw, m[i], vx);
	}
}

static void
rx_plain(struct netw *nw, struct rte_mbuf **m, uint16_t n)
{
	rx_loop(nw, m, n, 0);
}

static void
rx_tunnel(struct netw *nw, struct rte_mbuf **m, uint16_t n)
{
	rx_loop(nw, m, n, 1);
}

void
rx_bind(struct netw *nw)
{
	nw->burst_in = nw->io.vx != NULL ? rx_tunnel : rx_plain;
	if (nw->is_udp) {
		nw->seg_in = seg_drop;
		nw->dgram_in = nw->is_client ? udp_client_input : udp_server_input;
	} else {
		nw->seg_in = nw->is_client ? tcp_client_input : tcp_server_input;
		nw->dgram_in = dgram_drop;
	}
}
