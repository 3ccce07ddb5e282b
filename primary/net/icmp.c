/* SPDX-License-Identifier: BSD-3-Clause
 * ICMP and ICMPv6 echo (see icmp.h).
 */
#include <string.h>

#include <rte_byteorder.h>
#include <rte_icmp.h>

#include "net/cksum.h"
#include "net/icmp.h"
#include "net/neigh.h"
#include "net/pkt.h"
#include "net/vxlan.h"

/* Echo reply built in place; consumes m. */
/* An echo reply built in place goes back the way the request came:
 * through the tunnel when it came through one (tun), else as it is. */
static void
icmp_send(struct netw *nw, struct rte_mbuf *m, int tun)
{
	m->ol_flags = 0;
	CNT(&nw->cnt, ICMP_TX);
	if (tun)
		pkt_send(nw, m);
	else
		tx_enqueue(&nw->txq, m, nw->now);
}

void
icmp_input(struct netw *nw, struct rte_mbuf *m, struct rte_ether_hdr *eth,
	   struct rte_ipv4_hdr *ip, uint32_t l4len, int tun)
{
	struct rte_icmp_hdr *ic = (struct rte_icmp_hdr *)((uint8_t *)ip + rte_ipv4_hdr_len(ip));
	uint32_t tmp;

	CNT(&nw->cnt, ICMP_RX);
	if (l4len < sizeof(*ic) || ic->icmp_type != RTE_IP_ICMP_ECHO_REQUEST || ic->icmp_code != 0 ||
	    rte_raw_cksum(ic, l4len) != 0xffff) {
		CNT(&nw->cnt, OTHER_RX);
		rte_pktmbuf_free(m);
		return;
	}
	rte_ether_addr_copy(&eth->src_addr, &eth->dst_addr);
	rte_ether_addr_copy(&nw->io.np->mac, &eth->src_addr);
	tmp = ip->src_addr;
	ip->src_addr = ip->dst_addr;
	ip->dst_addr = tmp;
	ip->time_to_live = 64;
	ip->hdr_checksum = 0;
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	ic->icmp_type = RTE_IP_ICMP_ECHO_REPLY;
	ic->icmp_cksum = 0;
	ic->icmp_cksum = (uint16_t)~rte_raw_cksum(ic, l4len);
	icmp_send(nw, m, tun);
}

/* IPv6: neighbour discovery goes to neigh.c; an echo request to one of
 * our addresses is answered in place. Returns 1 when m was consumed. */
int
icmp6_input(struct netw *nw, struct rte_mbuf *m, struct rte_ether_hdr *eth,
	    struct rte_ipv6_hdr *ip, uint8_t *ic, uint32_t len, int tun)
{
	struct netport *np = nw->io.np;

	if (len < 8 || !net_l4_sum6_ok(ip, ic, len)) {
		CNT(&nw->cnt, BAD_RX);
		return 0;
	}
	if ((ic[0] == 135 || ic[0] == 136) && len >= 24 && !tun) {
		neigh_ndp_input(nw, eth, ip, ic, len);
		return 0;
	}
	if (ic[0] == 128 && net_is_local6(nw, ip->dst_addr)) { /* echo request */
		uint8_t tmp[16];
		uint32_t s;
		uint16_t c;

		CNT(&nw->cnt, ICMP_RX);
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
		icmp_send(nw, m, tun);
		return 1;
	}
	CNT(&nw->cnt, OTHER_RX); /* router/multicast-listener messages and the like */
	return 0;
}

