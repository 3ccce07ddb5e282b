/* SPDX-License-Identifier: BSD-3-Clause
 * ARP and IPv6 neighbour discovery (see neigh.h).
 */
#include <string.h>

#include <rte_arp.h>
#include <rte_byteorder.h>
#include <rte_ether.h>
#include <rte_ip.h>

#include "net/neigh.h"
#include "net/pkt.h"
#include "net/vxlan.h"

static void
set_gw_mac(struct netport *np, const struct rte_ether_addr *mac)
{
	rte_ether_addr_copy(mac, &np->gw_mac);
	rte_smp_wmb();
	np->gw_ok = 1;
}

void
neigh_learn_gw(struct netw *nw, uint32_t sip, const struct rte_ether_addr *mac)
{
	struct netport *np = nw->io.np;

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
neigh_request_gw(struct netw *nw)
{
	if (nw->io.np->v6) {
		uint8_t dst[16];
		struct rte_ether_addr mac;

		solicited_node(nw->io.np->gw_ip6, dst, &mac);
		pkt_ndp(nw, 135, nw->io.np->local_ip6, dst, &mac, nw->io.np->gw_ip6);
		CNT(&nw->cnt, ARP_TX);
		return;
	}
	pkt_arp(nw, RTE_ARP_OP_REQUEST, nw->io.np->local_ip, nw->io.np->gw_ip, NULL);
}

void
neigh_arp_input(struct netw *nw, const uint8_t *p, uint32_t len)
{
	const struct rte_arp_hdr *a = (const struct rte_arp_hdr *)p;
	struct rte_ether_addr sha;
	uint32_t sip, tip;

	if (len < sizeof(*a) || a->arp_hardware != rte_cpu_to_be_16(RTE_ARP_HRD_ETHER) ||
	    a->arp_protocol != rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4) || a->arp_hlen != 6 ||
	    a->arp_plen != 4) {
		CNT(&nw->cnt, BAD_RX);
		return;
	}
	CNT(&nw->cnt, ARP_RX);
	sha = a->arp_data.arp_sha;
	sip = a->arp_data.arp_sip;
	tip = a->arp_data.arp_tip;
	neigh_learn_gw(nw, sip, &sha);
	/* on a VXLAN port, each worker's local VTEP too */
	if (a->arp_opcode == rte_cpu_to_be_16(RTE_ARP_OP_REQUEST) && !nw->io.np->neigh_ignore &&
	    (net_is_local(nw, tip) || (nw->io.vx != NULL && vxlan_is_local(nw->io.vx, 4, (const uint8_t *)&tip))))
		pkt_arp(nw, RTE_ARP_OP_REPLY, tip, sip, &sha);
	else if (a->arp_opcode != rte_cpu_to_be_16(RTE_ARP_OP_REPLY))
		CNT(&nw->cnt, ARP_DROP); /* for an address we do not own, or neigh_ignore */
}

void
neigh_ndp_input(struct netw *nw, const struct rte_ether_hdr *eth, const struct rte_ipv6_hdr *ip,
		const uint8_t *ic, uint32_t len)
{
	struct netport *np = nw->io.np;

	(void)len;
	CNT(&nw->cnt, ARP_RX);
	if (ic[0] == 135) { /* solicitation */
		if (memcmp(ip->src_addr, np->gw_ip6, 16) == 0 && !np->gw_ok)
			set_gw_mac(np, &eth->src_addr);
		if (!np->neigh_ignore &&
		    (net_is_local6(nw, ic + 8) || (nw->io.vx != NULL && vxlan_is_local(nw->io.vx, 6, ic + 8)))) {
			pkt_ndp(nw, 136, ic + 8, ip->src_addr, &eth->src_addr, ic + 8);
			CNT(&nw->cnt, ARP_TX);
		} else {
			CNT(&nw->cnt, ARP_DROP);
		}
		return;
	}
	/* advertisement */
	if (memcmp(ic + 8, np->gw_ip6, 16) == 0 && !np->gw_ok)
		set_gw_mac(np, &eth->src_addr);
}
