/* SPDX-License-Identifier: BSD-3-Clause
 * Unit tests of VXLAN (primary/net/vxlan.c): what a client's worker
 * encapsulates, its server's worker decapsulates to the same inner frame
 * (IPv4 and IPv6 outer headers, every field and checksum checked); each
 * queue has its own VTEP and UDP source port; and a received frame that is
 * not VXLAN of our VNI to our VTEP gets the verdict its counter needs:
 * malformed outer headers or invalid VXLAN to our VTEP VX_BAD (badRx);
 * frames not for the tunnel, another VNI or inner family VX_OTHER
 * (otherRx, as a port without VXLAN counts what is not for it); every
 * truncation VX_BAD without reading past the frame (ASan: make unit-asan).
 *
 * mbufs are plain structs over a static buffer: prepend only moves data_off.
 */
// links: primary/net/vxlan.c
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_udp.h>

#include "config.h"
#include "shm.h"
#include "net/vxlan.h"

#define SMAC "02:00:00:00:00:0a"
#define DMAC "02:00:00:00:00:0b"
#define INNER_LEN 60

/* A client and its server (the server's own address, .9, is outside its
 * VTEP range, .10-.11, to tell them apart). */
static const char cli4[] =
	"mode client\ncpu 0 1\ncps 1k\nport net_memif0 198.18.0.2 198.18.0.1\n"
	"vxlan 77 " SMAC " " DMAC " 198.18.0.2 2 198.18.0.10 2\n"
	"client 198.18.1.2 4\nserver 198.18.2.1 2\n";
static const char srv4[] =
	"mode server\ncpu 0 1\nport net_memif0 198.18.0.9 198.18.0.1\n"
	"vxlan 77 " DMAC " " SMAC " 198.18.0.10 2 198.18.0.2 2\n"
	"client 198.18.1.2 4\nserver 198.18.2.1 2\n";
/* IPv6 outside, IPv6 inside; one remote VTEP for both queues */
static const char cli6[] =
	"mode client\ncpu 0 1\ncps 1k\nport net_memif0 2001:db8::2 2001:db8::1\n"
	"vxlan 16777215 " SMAC " " DMAC " 2001:db8::2 2 2001:db8::10 1\n"
	"client 2001:db8:1::2 4\nserver 2001:db8:2::1 2\n";
static const char srv6[] =
	"mode server\ncpu 0\nport net_memif0 2001:db8::10 2001:db8::1\n"
	"vxlan 16777215 " DMAC " " SMAC " 2001:db8::10 1 2001:db8::2 1\n"
	"client 2001:db8:1::2 4\nserver 2001:db8:2::1 1\n";

static struct dp_config ccfg, scfg;
static struct vxlan cvx, svx;
static struct netport np;
static struct netw nw;
static struct rte_mbuf mb;
static uint8_t buf[2048];
static uint8_t inner[INNER_LEN];

static void
parse(const char *text, struct dp_config *cfg)
{
	char err[DP_ERR_LEN];

	if (dp_config_parse("t.conf", text, cfg, err, sizeof(err)) != 0)
		fail_msg("%s", err);
}

/* Client queue q (worker id = q) and server queue sq, over cli/srv. */
static void
pair(const char *cli, const char *srv, uint16_t q, uint16_t sq)
{
	parse(cli, &ccfg);
	parse(srv, &scfg);
	int inner6 = ccfg.servers[0].start.family == 6;
	vxlan_init(&cvx, &ccfg, 0, q, q, inner6);
	vxlan_init(&svx, &scfg, 0, sq, sq, inner6);
	memset(&np, 0, sizeof(np));
	for (int i = 0; i < 6; i++) {
		np.mac.addr_bytes[i] = (uint8_t)(0x10 + i);
		np.gw_mac.addr_bytes[i] = (uint8_t)(0x20 + i);
	}
	memset(&nw, 0, sizeof(nw));
	nw.io.np = &np;
	nw.io.vx = &cvx;
}

/* An inner frame in mb: any MACs, the inner family's EtherType, a pattern. */
static void
fill_inner(int inner6)
{
	for (int i = 0; i < INNER_LEN; i++)
		inner[i] = (uint8_t)(i * 7 + 1);
	inner[12] = inner6 ? 0x86 : 0x08;
	inner[13] = inner6 ? 0xdd : 0x00;
	memset(&mb, 0, sizeof(mb));
	mb.buf_addr = buf;
	mb.buf_len = sizeof(buf);
	mb.data_off = RTE_PKTMBUF_HEADROOM;
	mb.nb_segs = 1;
	rte_mbuf_refcnt_set(&mb, 1);
	memcpy(buf + mb.data_off, inner, INNER_LEN);
	mb.data_len = INNER_LEN;
	mb.pkt_len = INNER_LEN;
	mb.ol_flags = RTE_MBUF_F_TX_IPV4; /* must be cleared: no offload inside */
}

static uint8_t *
frame(void)
{
	return rte_pktmbuf_mtod(&mb, uint8_t *);
}

/* The inner frame after the outer headers: the pattern, with the
 * configured MACs. */
static void
check_inner(const uint8_t *p)
{
	static const uint8_t sm[6] = { 2, 0, 0, 0, 0, 0x0a }, dm[6] = { 2, 0, 0, 0, 0, 0x0b };

	assert_memory_equal(p, dm, 6);
	assert_memory_equal(p + 6, sm, 6);
	assert_memory_equal(p + 12, inner + 12, INNER_LEN - 12);
}

static void
check_outer_eth(const uint8_t *p, uint16_t type)
{
	assert_memory_equal(p, np.gw_mac.addr_bytes, 6);
	assert_memory_equal(p + 6, np.mac.addr_bytes, 6);
	assert_int_equal(p[12] << 8 | p[13], type);
}

static void
check_udp_vxlan(const uint8_t *u, uint16_t sport, uint32_t vni)
{
	const struct rte_udp_hdr *uh = (const struct rte_udp_hdr *)u;

	assert_int_equal(rte_be_to_cpu_16(uh->src_port), sport);
	assert_int_equal(rte_be_to_cpu_16(uh->dst_port), 4789);
	assert_int_equal(rte_be_to_cpu_16(uh->dgram_len), 16 + INNER_LEN);
	assert_int_equal(u[8], 0x08); /* I flag */
	assert_int_equal(u[9] | u[10] | u[11] | u[15], 0);
	assert_int_equal((uint32_t)(u[12] << 16 | u[13] << 8 | u[14]), vni);
}

static void
test_encap_decap4(void **state)
{
	uint32_t off = 0, n = 0;
	uint8_t *p;
	const struct rte_ipv4_hdr *ip;

	(void)state;
	pair(cli4, srv4, 1, 1);
	fill_inner(0);
	assert_int_equal(vxlan_encap(&nw, &mb), 0);
	assert_int_equal(mb.data_len, 50 + INNER_LEN);
	assert_int_equal(mb.pkt_len, 50 + INNER_LEN);
	assert_int_equal(mb.ol_flags, 0);
	p = frame();
	check_outer_eth(p, 0x0800);
	ip = (const struct rte_ipv4_hdr *)(p + 14);
	assert_int_equal(ip->version_ihl, 0x45);
	assert_int_equal(rte_be_to_cpu_16(ip->total_length), 20 + 16 + INNER_LEN);
	assert_int_equal(rte_be_to_cpu_16(ip->fragment_offset), RTE_IPV4_HDR_DF_FLAG);
	assert_int_equal(ip->time_to_live, 64);
	assert_int_equal(ip->next_proto_id, IPPROTO_UDP);
	assert_int_equal(rte_raw_cksum(ip, 20), 0xffff);
	/* queue 1: its own local VTEP (.3) to the remote of queue 1 (.11) */
	assert_int_equal(rte_be_to_cpu_32(ip->src_addr), 0xc6120003);
	assert_int_equal(rte_be_to_cpu_32(ip->dst_addr), 0xc612000b);
	check_udp_vxlan(p + 34, 6666 + 1, 77);
	assert_int_equal(((const struct rte_udp_hdr *)(p + 34))->dgram_cksum, 0);
	check_inner(p + 50);

	/* the server's queue 1 takes it */
	assert_int_equal(vxlan_rx(&svx, p, mb.data_len, &off, &n), VX_INNER);
	assert_int_equal(off, 50);
	assert_int_equal(n, INNER_LEN);
	/* its queue 0 does not: another worker's VTEP is not its own */
	pair(cli4, srv4, 1, 0);
	assert_int_equal(vxlan_rx(&svx, p, mb.data_len, &off, &n), VX_OTHER);
}

static void
test_encap_decap6(void **state)
{
	uint32_t off = 0, n = 0, s;
	uint8_t *p;
	const struct rte_ipv6_hdr *ip;
	static const uint8_t src[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 3 };
	static const uint8_t dst[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 0x10 };

	(void)state;
	pair(cli6, srv6, 1, 0);
	fill_inner(1);
	assert_int_equal(vxlan_encap(&nw, &mb), 0);
	assert_int_equal(mb.data_len, 70 + INNER_LEN);
	p = frame();
	check_outer_eth(p, 0x86dd);
	ip = (const struct rte_ipv6_hdr *)(p + 14);
	assert_int_equal(p[14] >> 4, 6);
	assert_int_equal(rte_be_to_cpu_16(ip->payload_len), 16 + INNER_LEN);
	assert_int_equal(ip->proto, IPPROTO_UDP);
	assert_int_equal(ip->hop_limits, 64);
	assert_memory_equal(ip->src_addr, src, 16); /* queue 1's VTEP: ::3 */
	assert_memory_equal(ip->dst_addr, dst, 16); /* the one remote VTEP */
	check_udp_vxlan(p + 54, 6666 + 1, 0xffffff);
	/* the UDP checksum covers the pseudo-header and the inner frame */
	assert_int_not_equal(((const struct rte_udp_hdr *)(p + 54))->dgram_cksum, 0);
	s = rte_ipv6_phdr_cksum(ip, 0);
	s = __rte_raw_cksum(p + 54, 16 + INNER_LEN, s);
	assert_int_equal(__rte_raw_cksum_reduce(s), 0xffff);
	check_inner(p + 70);
	assert_int_equal(vxlan_rx(&svx, p, mb.data_len, &off, &n), VX_INNER);
	assert_int_equal(off, 70);
	assert_int_equal(n, INNER_LEN);
	/* one inner byte changed: the checksum no longer holds */
	p[70 + 30] ^= 1;
	assert_int_equal(vxlan_rx(&svx, p, mb.data_len, &off, &n), VX_BAD);
	p[70 + 30] ^= 1;
	/* IPv4 outer on an IPv6 tunnel is not ours */
	p[12] = 0x08;
	p[13] = 0x00;
	assert_int_equal(vxlan_rx(&svx, p, mb.data_len, &off, &n), VX_OTHER);
}

/* Each worker of a port: its own VTEP, its own source port; with one
 * remote VTEP every queue sends to it. */
static void
test_queues(void **state)
{
	uint8_t *p;

	(void)state;
	for (uint16_t q = 0; q < 2; q++) {
		pair(cli4, srv4, q, q);
		fill_inner(0);
		assert_int_equal(vxlan_encap(&nw, &mb), 0);
		p = frame();
		assert_int_equal(p[14 + 15], 2 + q);  /* source .2, .3 */
		assert_int_equal(p[14 + 19], 10 + q); /* destination .10, .11 */
		assert_int_equal(p[34] << 8 | p[35], 6666 + q);
	}
	parse(cli4, &ccfg);
	ccfg.vxlans[0].vtep_remote.num = 1;
	vxlan_init(&cvx, &ccfg, 0, 1, 1, 0);
	fill_inner(0);
	assert_int_equal(vxlan_encap(&nw, &mb), 0);
	assert_int_equal(frame()[14 + 19], 10);
}

/* The verdict on the len bytes at p; *inner_len: the inner frame's
 * length when VX_INNER. */
static enum vxlan_verdict
verdict_n(const uint8_t *p, uint32_t len, uint32_t *inner_len)
{
	uint32_t off = 0;
	/* a copy of exactly len bytes: ASan sees any read past it */
	uint8_t *c = malloc(len ? len : 1);
	enum vxlan_verdict v;

	memcpy(c, p, len);
	v = vxlan_rx(&svx, c, len, &off, inner_len);
	free(c);
	return v;
}

static enum vxlan_verdict
verdict(const uint8_t *p, uint32_t len)
{
	uint32_t n;

	return verdict_n(p, len, &n);
}

static void
fix_ip4(uint8_t *p)
{
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(p + 14);

	ip->hdr_checksum = 0;
	ip->hdr_checksum = rte_ipv4_cksum(ip);
}

static void
test_verdicts(void **state)
{
	uint8_t good[256], p[256];
	uint32_t len, n;

	(void)state;
	pair(cli4, srv4, 0, 0);
	fill_inner(0);
	assert_int_equal(vxlan_encap(&nw, &mb), 0);
	len = mb.data_len;
	memcpy(good, frame(), len);
	assert_int_equal(verdict(good, len), VX_INNER);
	/* Ethernet padding after the IP packet is allowed, and not inner data */
	memset(p, 0, sizeof(p));
	memcpy(p, good, len);
	assert_int_equal(verdict_n(p, len + 4, &n), VX_INNER);
	assert_int_equal(n, INNER_LEN);
	/* every truncation: bad, and nothing read past the end */
	for (uint32_t cut = 0; cut < len; cut++)
		if (verdict(good, cut) != VX_BAD)
			fail_msg("a frame cut to %u of %u bytes was not bad", cut, len);

#define CASE(edit, want)                                                       \
	do {                                                                   \
		memcpy(p, good, len);                                          \
		edit;                                                          \
		assert_int_equal(verdict(p, len), want);                       \
	} while (0)
	CASE(p[46] ^= 1, VX_OTHER);                         /* another VNI */
	CASE(p[42] = 0, VX_BAD);                            /* I flag clear */
	CASE(p[42] = 0x0c, VX_INNER);                       /* other flags ignored */
	CASE((p[36] = 0x12, p[37] = 0xb6), VX_OTHER);       /* UDP port 4790 */
	CASE((p[33] = 99, fix_ip4(p)), VX_OTHER);           /* not our VTEP */
	CASE(p[33] = 99, VX_BAD);                           /* IP checksum */
	CASE((p[20] = 0x20, fix_ip4(p)), VX_BAD);           /* more fragments */
	CASE((p[23] = 6, fix_ip4(p)), VX_OTHER);            /* TCP, not UDP */
	CASE((p[14] = 0x46, fix_ip4(p)), VX_OTHER);         /* options: no VXLAN behind */
	CASE((p[16] = 0x01, fix_ip4(p)), VX_BAD);           /* total length > frame */
	CASE(p[39] ^= 1, VX_BAD);                           /* UDP length */
	CASE(p[40] = 0x55, VX_BAD);                         /* a wrong UDP checksum */
	CASE((p[62] = 0x86, p[63] = 0xdd), VX_OTHER);       /* inner IPv6 on IPv4 inside */
	CASE((p[62] = 0x08, p[63] = 0x06), VX_OTHER);       /* inner ARP: not answered */
	CASE((p[12] = 0x12, p[13] = 0x34), VX_OTHER);       /* not IP (LLDP and the like) */
	CASE((p[12] = 0x08, p[13] = 0x06), VX_ARP);         /* outer ARP */
	CASE((p[23] = 1, fix_ip4(p)), VX_ICMP);             /* echo to our VTEP */
	CASE((p[23] = 1, p[33] = 9, fix_ip4(p)), VX_ICMP);  /* to the port's address */
	CASE((p[23] = 1, p[33] = 99, fix_ip4(p)), VX_OTHER); /* to another */
#undef CASE
	/* a correct non-zero UDP checksum is accepted */
	memcpy(p, good, len);
	{
		struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(p + 14);
		struct rte_udp_hdr *uh = (struct rte_udp_hdr *)(p + 34);

		uh->dgram_cksum = rte_ipv4_udptcp_cksum(ip, uh);
		assert_int_not_equal(uh->dgram_cksum, 0);
		assert_int_equal(verdict(p, len), VX_INNER);
	}
}

/* The attack of issue 31 (4): outer lengths that cover only the VXLAN and
 * inner Ethernet headers, the inner IP packet after them as if it were
 * padding. The inner frame is the UDP length's 14 bytes: no IP packet
 * (badRx on the inner path), never the trailing bytes. */
static void
test_inner_beyond_outer(void **state)
{
	uint8_t p[256];
	uint32_t len, n = 0;

	(void)state;
	/* IPv4 outside: total length 20 + 8 + 8 + 14, UDP length 30 */
	pair(cli4, srv4, 0, 0);
	fill_inner(0);
	assert_int_equal(vxlan_encap(&nw, &mb), 0);
	len = mb.data_len;
	memcpy(p, frame(), len);
	p[16] = 0;
	p[17] = 20 + 16 + 14;
	p[38] = 0;
	p[39] = 16 + 14;
	fix_ip4(p);
	assert_int_equal(verdict_n(p, len, &n), VX_INNER);
	assert_int_equal(n, 14);
	/* the lengths a byte short of the inner frame's end: one byte less */
	memcpy(p, frame(), len);
	p[17] = (uint8_t)(p[17] - 1);
	p[39] = (uint8_t)(p[39] - 1);
	fix_ip4(p);
	assert_int_equal(verdict_n(p, len, &n), VX_INNER);
	assert_int_equal(n, INNER_LEN - 1);

	/* IPv6 outside: payload and UDP length 30, the checksum over them */
	pair(cli6, srv6, 1, 0);
	fill_inner(1);
	assert_int_equal(vxlan_encap(&nw, &mb), 0);
	len = mb.data_len;
	memcpy(p, frame(), len);
	{
		struct rte_ipv6_hdr *ip = (struct rte_ipv6_hdr *)(p + 14);
		struct rte_udp_hdr *uh = (struct rte_udp_hdr *)(p + 54);

		ip->payload_len = rte_cpu_to_be_16(16 + 14);
		uh->dgram_len = rte_cpu_to_be_16(16 + 14);
		uh->dgram_cksum = 0;
		uh->dgram_cksum = (uint16_t)~__rte_raw_cksum_reduce(
			__rte_raw_cksum(uh, 16 + 14, rte_ipv6_phdr_cksum(ip, 0)));
	}
	assert_int_equal(verdict_n(p, len, &n), VX_INNER);
	assert_int_equal(n, 14);
}

static void
test_is_local(void **state)
{
	static const uint8_t a2[4] = { 198, 18, 0, 10 }, a3[4] = { 198, 18, 0, 11 },
			     a4[4] = { 198, 18, 0, 12 }, gw[4] = { 198, 18, 0, 1 },
			     port[4] = { 198, 18, 0, 9 };
	uint8_t v6[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 0x10 };

	(void)state;
	pair(cli4, srv4, 0, 0);
	assert_true(vxlan_is_local(&svx, 4, a2));
	assert_true(vxlan_is_local(&svx, 4, port));
	assert_true(vxlan_is_local(&svx, 4, a3));  /* queue 1's VTEP: answered by any worker */
	assert_false(vxlan_is_local(&svx, 4, a4));
	assert_false(vxlan_is_local(&svx, 4, gw));
	assert_false(vxlan_is_local(&svx, 6, v6)); /* another family */
	pair(cli6, srv6, 0, 0);
	assert_true(vxlan_is_local(&svx, 6, v6));
	v6[15] = 0x11;
	assert_false(vxlan_is_local(&svx, 6, v6));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_encap_decap4), cmocka_unit_test(test_encap_decap6),
		cmocka_unit_test(test_queues),       cmocka_unit_test(test_verdicts),
		cmocka_unit_test(test_is_local),     cmocka_unit_test(test_inner_beyond_outer),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
