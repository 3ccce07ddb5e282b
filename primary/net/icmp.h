/* SPDX-License-Identifier: BSD-3-Clause
 * ICMP: echo requests to our addresses are answered in place (the mbuf is
 * turned around); ICMPv6 also carries neighbour discovery (neigh.h).
 */
#ifndef DPERF_ICMP_H
#define DPERF_ICMP_H

#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_mbuf.h>

#include "net/netw.h"

/* IPv4: l4len bytes of ICMP after ip; consumes m. tun: m is an inner
 * frame of a VXLAN port, answered through the tunnel. */
void icmp_input(struct netw *nw, struct rte_mbuf *m, struct rte_ether_hdr *eth,
		struct rte_ipv4_hdr *ip, uint32_t l4len, int tun);
/* IPv6: returns 1 when m was consumed. Neighbour discovery is answered
 * outside tunnels only (inside, the MACs are configured). */
int icmp6_input(struct netw *nw, struct rte_mbuf *m, struct rte_ether_hdr *eth,
		struct rte_ipv6_hdr *ip, uint8_t *ic, uint32_t len, int tun);

#endif
