/* SPDX-License-Identifier: BSD-3-Clause
 * A port as its workers see it: addresses, gateway, offloads. The port
 * code (dev/port.c) fills it before launch; workers read it, and learn the
 * gateway's MAC into it (net/neigh.c).
 */
#ifndef DPERF_NETPORT_H
#define DPERF_NETPORT_H

#include <stdint.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ether.h>

#include "config.h"

/* A port as the workers see it. Written by the primary before launch;
 * afterwards only gw_mac/gw_ok change (first ARP reply wins). */
struct netport {
	uint16_t port_id;
	uint16_t n_workers;
	uint16_t vlan_tci_be;   /* 0 = untagged */
	uint8_t tx_cksum;       /* device computes IPv4/TCP/UDP checksums */
	uint8_t rx_cksum;       /* device validates them */
	uint8_t lacp;           /* an 802.3ad bond (engine/worker.c: worker_tick) */
	uint8_t neigh_ignore;   /* dperf's neigh_ignore: ARP/NDP requests go unanswered */
	struct rte_ether_addr mac;
	struct rte_ether_addr gw_mac;
	volatile uint32_t gw_ok;
	/* The link as the main lcore last saw it (dev/port.c): a client does
	 * not launch while it is down, and does not count the slots it misses
	 * then as launchSkip (the tester is not the limit). */
	volatile uint32_t link_up;
	/* A restart of the port (dev/port.c) parks its workers: while quiesce
	 * is set they make no device call, and each says so once, between two
	 * bursts, by counting itself in quiesce_acks (DPDK swaps the port's
	 * burst functions at stop and start: a burst meanwhile faults). */
	volatile uint32_t quiesce;
	volatile uint32_t quiesce_acks;
	uint32_t local_ip;      /* network order */
	uint32_t gw_ip;
	uint32_t srv_ip_h;      /* first server address, host order */
	/* a server's further pools (its server lines after the first, one
	 * port): their first addresses, host order, n_srv addresses each */
	uint32_t pool_h[DP_MAX_PORTS];
	uint32_t n_pools;
	uint32_t n_srv;
	uint32_t cli_ip_h;      /* client range (client mode) */
	uint32_t n_cli;
	/* IPv6: full addresses; ranges vary in their last bytes only, so the
	 * low 32 bits identify an address (the *_ip_h fields above hold them)
	 * and the first 12 bytes are a per-range prefix. */
	uint8_t v6;
	uint8_t local_ip6[16];
	uint8_t gw_ip6[16];
	uint8_t srv_pfx[12];
	uint8_t cli_pfx[12];
};

/* An address's last 32 bits in host order (all of an IPv4 address). */
static inline uint32_t
dp_ip_low32(const struct dp_ip *ip)
{
	uint32_t v;

	if (ip->family == 6)
		memcpy(&v, ip->v6 + 12, 4);
	else
		v = ip->v4;
	return rte_be_to_cpu_32(v);
}

#endif
