/* SPDX-License-Identifier: BSD-3-Clause
 * flow_isolate's rules, planned without EAL (flow.c gives them to the
 * device): what each rule matches and which queue it feeds.
 */
#ifndef DPERF_FLOW_PLAN_H
#define DPERF_FLOW_PLAN_H

#include <stdint.h>

#include "config.h"

/* ARP, the solicited-node prefix, the port's address, up to 2 x 31
 * prefixes for a range, or one rule per queue. */
#define DP_FLOW_RULES_MAX (4 + 2 * 32 * (1 + DP_MAX_PORTS) + DP_MAX_CPUS * (1 + DP_MAX_KINDS))

/* ARP, or IP packets whose source or destination address is in a
 * prefix, to a queue (or spread over all by the device's RSS hash). */
struct flow_rule {
	uint8_t arp;
	uint8_t v6;
	uint8_t match_src;  /* the source address, else the destination */
	uint8_t rss;
	uint8_t plen;       /* prefix length */
	uint8_t addr[16];   /* network order; IPv4 in the first 4 bytes */
	uint16_t queue;
	const char *what;   /* what it carries, for an error */
};

/* Port i's rules with nq queues (see flow.h) into out[0..max): returns
 * how many. ARP (IPv4) or ff02::1:ff00:0/104 (IPv6) to queue 0; the
 * traffic: with vxlan the local VTEP of queue q; with one queue or rss the
 * port's range (server or client) as the fewest aligned prefixes; else a
 * server's address q, or (client) the replies from server address q, to
 * queue q; then the port's own address to queue 0 unless a range rule
 * already covers it. */
uint32_t flow_plan(const struct dp_config *cfg, uint32_t i, uint32_t nq, struct flow_rule *out,
		   uint32_t max);

#endif
