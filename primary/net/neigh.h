/* SPDX-License-Identifier: BSD-3-Clause
 * Neighbours: which addresses are ours, ARP and IPv6 neighbour discovery
 * (answering for our addresses, resolving the gateway), and the gateway's
 * MAC, which workers learn into their shared netport (first answer wins).
 * With dperf's neigh_ignore no request or solicitation is answered (the
 * peer has static entries for our addresses); the gateway is still
 * resolved and learned.
 */
#ifndef DPERF_NEIGH_H
#define DPERF_NEIGH_H

#include <stdint.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ether.h>
#include <rte_ip.h>

#include "net/netw.h"

/* A server's further pools (issue 37): h, host order, in one of them? */
static inline int
net_in_pools(const struct netport *np, uint32_t h)
{
	for (uint32_t j = 0; j < np->n_pools; j++)
		if (h - np->pool_h[j] < np->n_srv)
			return 1;
	return 0;
}

/* 1 when ip (network order) is one of this worker's port addresses. */
static inline int
net_is_local(const struct netw *nw, uint32_t ip)
{
	const struct netport *np = nw->io.np;
	uint32_t h = rte_be_to_cpu_32(ip);

	if (ip == np->local_ip)
		return 1;
	if (!nw->is_client)
		return h - np->srv_ip_h < np->n_srv || unlikely(net_in_pools(np, h));
	return h - np->cli_ip_h < np->n_cli;
}

/* IPv6: one of our addresses? (prefix of our ranges + low 32 bits) */
static inline int
net_is_local6(const struct netw *nw, const uint8_t *a)
{
	const struct netport *np = nw->io.np;
	uint32_t h;

	if (memcmp(a, np->local_ip6, 16) == 0)
		return 1;
	if (memcmp(a, nw->io.lpfx, 12) != 0)
		return 0;
	memcpy(&h, a + 12, 4);
	h = rte_be_to_cpu_32(h);
	return nw->is_client ? h - np->cli_ip_h < np->n_cli
			     : h - np->srv_ip_h < np->n_srv || unlikely(net_in_pools(np, h));
}

/* Ask for the gateway's MAC (ARP request, or IPv6 neighbour solicitation). */
void neigh_request_gw(struct netw *nw);
/* A received ARP packet (p: its ARP header, len bytes). */
void neigh_arp_input(struct netw *nw, const uint8_t *p, uint32_t len);
/* A received neighbour solicitation (type 135) or advertisement (136),
 * checksum verified, len >= 24. */
void neigh_ndp_input(struct netw *nw, const struct rte_ether_hdr *eth,
		     const struct rte_ipv6_hdr *ip, const uint8_t *ic, uint32_t len);
/* A server that has seen no ARP from its gateway answers the first
 * sender instead (learns its MAC as the gateway's). */
void neigh_learn_gw(struct netw *nw, uint32_t sip, const struct rte_ether_addr *mac);

#endif
