/* SPDX-License-Identifier: BSD-3-Clause
 * ARP and IPv6 neighbour discovery (primary/net/neigh.c), the real code,
 * with the packet layer replaced at link time by a recorder: which
 * requests are answered, with and without dperf's neigh_ignore, and that
 * the gateway is resolved and learned either way.
 */
// links: primary/net/neigh.c primary/net/vxlan.c
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include <rte_arp.h>

#include "shm.h"
#include "net/neigh.h"
#include "net/pkt.h"

/* ------------------------------------------------------------------ */
/* The packet layer, substituted: what neigh.c asked to send           */

static struct {
	int n_arp, n_ndp;
	uint16_t arp_op;
	uint32_t arp_sip, arp_tip;
	uint8_t ndp_type;
	uint8_t ndp_target[16];
} sent;

int
pkt_arp(struct netw *nw, uint16_t op, uint32_t sip, uint32_t tip, const struct rte_ether_addr *tmac)
{
	(void)nw;
	(void)tmac;
	sent.n_arp++;
	sent.arp_op = op;
	sent.arp_sip = sip;
	sent.arp_tip = tip;
	return 0;
}

int
pkt_ndp(struct netw *nw, uint8_t type, const uint8_t *src, const uint8_t *dst,
	const struct rte_ether_addr *dmac, const uint8_t *target)
{
	(void)nw;
	(void)src;
	(void)dst;
	(void)dmac;
	sent.n_ndp++;
	sent.ndp_type = type;
	memcpy(sent.ndp_target, target, 16);
	return 0;
}

/* ------------------------------------------------------------------ */

#define IP4(a, b, c, d) rte_cpu_to_be_32(((uint32_t)(a) << 24) | ((b) << 16) | ((c) << 8) | (d))
#define LOCAL IP4(198, 18, 0, 2)
#define GW IP4(198, 18, 0, 1)
#define SRV0 IP4(198, 18, 2, 1)   /* the server range: 198.18.2.1 x 2 */
#define STRANGER IP4(198, 18, 9, 9)

static struct netw nw;
static struct netport np;

static int
setup(void **state)
{
	(void)state;
	memset(&nw, 0, sizeof(nw));
	memset(&np, 0, sizeof(np));
	memset(&sent, 0, sizeof(sent));
	nw.io.np = &np;
	np.local_ip = LOCAL;
	np.gw_ip = GW;
	np.srv_ip_h = rte_be_to_cpu_32(SRV0);
	np.n_srv = 2;
	return 0;
}

/* An ARP packet from (sip, smac) asking for or answering about tip. */
static void
arp_in(uint16_t op, uint32_t sip, uint8_t mac_last, uint32_t tip)
{
	struct rte_arp_hdr a;

	memset(&a, 0, sizeof(a));
	a.arp_hardware = rte_cpu_to_be_16(RTE_ARP_HRD_ETHER);
	a.arp_protocol = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
	a.arp_hlen = 6;
	a.arp_plen = 4;
	a.arp_opcode = rte_cpu_to_be_16(op);
	a.arp_data.arp_sha.addr_bytes[0] = 0x02;
	a.arp_data.arp_sha.addr_bytes[5] = mac_last;
	a.arp_data.arp_sip = sip;
	a.arp_data.arp_tip = tip;
	neigh_arp_input(&nw, (const uint8_t *)&a, sizeof(a));
}

/* Without neigh_ignore: requests for the port's address and the server
 * range are answered, others counted in arpDrop. */
static void
test_arp_answers(void **state)
{
	(void)state;
	nw.is_client = 0;
	arp_in(RTE_ARP_OP_REQUEST, GW, 1, LOCAL);
	assert_int_equal(sent.n_arp, 1);
	assert_int_equal(sent.arp_op, RTE_ARP_OP_REPLY);
	assert_int_equal(sent.arp_sip, LOCAL);
	assert_int_equal(sent.arp_tip, GW);
	arp_in(RTE_ARP_OP_REQUEST, GW, 1, IP4(198, 18, 2, 2));
	assert_int_equal(sent.n_arp, 2);
	assert_int_equal(sent.arp_sip, IP4(198, 18, 2, 2));
	arp_in(RTE_ARP_OP_REQUEST, GW, 1, STRANGER);
	assert_int_equal(sent.n_arp, 2);
	assert_int_equal(nw.cnt.c[DP_C_ARP_DROP], 1);
	assert_int_equal(nw.cnt.c[DP_C_ARP_RX], 3);
	/* the gateway's request taught us its MAC */
	assert_int_equal(np.gw_ok, 1);
	assert_int_equal(np.gw_mac.addr_bytes[5], 1);
}

/* A server's further pools (issue 37): its addresses too, for ARP and
 * for the packets it takes (net_is_local); a client's are not. */
static void
test_pools(void **state)
{
	(void)state;
	nw.is_client = 0;
	np.pool_h[0] = 0xc6120301; /* 198.18.3.1 x 2 */
	np.pool_h[1] = 0xc6120401;
	np.n_pools = 2;
	assert_true(net_is_local(&nw, IP4(198, 18, 3, 2)));
	assert_true(net_is_local(&nw, IP4(198, 18, 4, 1)));
	assert_false(net_is_local(&nw, IP4(198, 18, 3, 3)));
	assert_false(net_is_local(&nw, STRANGER));
	arp_in(RTE_ARP_OP_REQUEST, GW, 1, IP4(198, 18, 4, 2));
	assert_int_equal(sent.n_arp, 1);
	assert_int_equal(sent.arp_sip, IP4(198, 18, 4, 2));
	nw.is_client = 1;
	assert_false(net_is_local(&nw, IP4(198, 18, 3, 2)));
}

/* neigh_ignore: no request is answered, each counted in arpDrop; the
 * gateway is still learned from its request and from a reply, and our own
 * request for it still goes out. */
static void
test_arp_neigh_ignore(void **state)
{
	(void)state;
	np.neigh_ignore = 1;
	arp_in(RTE_ARP_OP_REQUEST, GW, 7, LOCAL);
	arp_in(RTE_ARP_OP_REQUEST, GW, 7, SRV0);
	arp_in(RTE_ARP_OP_REQUEST, GW, 7, STRANGER);
	assert_int_equal(sent.n_arp, 0);
	assert_int_equal(nw.cnt.c[DP_C_ARP_DROP], 3);
	assert_int_equal(nw.cnt.c[DP_C_ARP_RX], 3);
	assert_int_equal(np.gw_ok, 1);
	assert_int_equal(np.gw_mac.addr_bytes[5], 7);

	np.gw_ok = 0;
	neigh_request_gw(&nw);
	assert_int_equal(sent.n_arp, 1);
	assert_int_equal(sent.arp_op, RTE_ARP_OP_REQUEST);
	assert_int_equal(sent.arp_tip, GW);
	arp_in(RTE_ARP_OP_REPLY, GW, 9, LOCAL);
	assert_int_equal(sent.n_arp, 1);
	assert_int_equal(np.gw_ok, 1);
	assert_int_equal(np.gw_mac.addr_bytes[5], 9);
	assert_int_equal(nw.cnt.c[DP_C_ARP_DROP], 3); /* a reply is not a drop */
}

/* IPv6: a solicitation for our address, with and without neigh_ignore. */
static void
ns_in(const uint8_t *src, const uint8_t *target)
{
	struct rte_ether_hdr eth;
	struct rte_ipv6_hdr ip;
	uint8_t ic[24];

	memset(&eth, 0, sizeof(eth));
	memset(&ip, 0, sizeof(ip));
	memset(ic, 0, sizeof(ic));
	eth.src_addr.addr_bytes[5] = 0x33;
	memcpy(ip.src_addr, src, 16);
	ic[0] = 135;
	memcpy(ic + 8, target, 16);
	neigh_ndp_input(&nw, &eth, &ip, ic, sizeof(ic));
}

static void
test_ndp(void **state)
{
	static const uint8_t local[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 2 };
	static const uint8_t gw[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 };

	(void)state;
	np.v6 = 1;
	memcpy(np.local_ip6, local, 16);
	memcpy(np.gw_ip6, gw, 16);
	ns_in(gw, local);
	assert_int_equal(sent.n_ndp, 1);
	assert_int_equal(sent.ndp_type, 136);
	assert_memory_equal(sent.ndp_target, local, 16);
	assert_int_equal(np.gw_ok, 1);

	np.neigh_ignore = 1;
	np.gw_ok = 0;
	ns_in(gw, local);
	assert_int_equal(sent.n_ndp, 1);
	assert_int_equal(nw.cnt.c[DP_C_ARP_DROP], 1);
	assert_int_equal(np.gw_ok, 1); /* learned all the same */
	neigh_request_gw(&nw);
	assert_int_equal(sent.n_ndp, 2);
	assert_int_equal(sent.ndp_type, 135);
	assert_memory_equal(sent.ndp_target, gw, 16);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_arp_answers, setup),
		cmocka_unit_test_setup(test_arp_neigh_ignore, setup),
		cmocka_unit_test_setup(test_pools, setup),
		cmocka_unit_test_setup(test_ndp, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
