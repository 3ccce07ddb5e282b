/* SPDX-License-Identifier: BSD-3-Clause
 * VXLAN encapsulation and decapsulation (see vxlan.h).
 */
#include <stdio.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_malloc.h>
#include <rte_udp.h>

#include "net/cksum.h"
#include "net/vxlan.h"

#define VXLAN_FLAG_I 0x08 /* the VNI is valid (RFC 7348) */
#define UDP_VX_LEN (8 + 8) /* UDP and VXLAN headers */

static void
copy_addr(uint8_t *to, const struct dp_ip *ip)
{
	memcpy(to, ip->family == 6 ? ip->v6 : (const uint8_t *)&ip->v4, ip->family == 6 ? 16 : 4);
}

/* The outer headers as far as they are the same for every packet. */
static void
build_template(struct vxlan *vx, const uint8_t *dst, uint16_t sport)
{
	uint8_t *p = vx->hdr;
	struct rte_udp_hdr *uh;
	uint8_t *vxh;

	memset(vx->hdr, 0, sizeof(vx->hdr));
	if (vx->v6) {
		struct rte_ipv6_hdr *ip = (struct rte_ipv6_hdr *)(p + RTE_ETHER_HDR_LEN);

		((struct rte_ether_hdr *)p)->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV6);
		ip->vtc_flow = rte_cpu_to_be_32(6u << 28);
		ip->proto = IPPROTO_UDP;
		ip->hop_limits = 64;
		memcpy(ip->src_addr, vx->vtep, 16);
		memcpy(ip->dst_addr, dst, 16);
		uh = (struct rte_udp_hdr *)(ip + 1);
	} else {
		struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(p + RTE_ETHER_HDR_LEN);

		((struct rte_ether_hdr *)p)->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
		ip->version_ihl = RTE_IPV4_VHL_DEF;
		ip->fragment_offset = rte_cpu_to_be_16(RTE_IPV4_HDR_DF_FLAG); /* id 0 with DF: RFC 6864 */
		ip->time_to_live = 64;
		ip->next_proto_id = IPPROTO_UDP;
		memcpy(&ip->src_addr, vx->vtep, 4);
		memcpy(&ip->dst_addr, dst, 4);
		uh = (struct rte_udp_hdr *)(ip + 1);
	}
	uh->src_port = rte_cpu_to_be_16(sport);
	uh->dst_port = rte_cpu_to_be_16(DP_VXLAN_PORT);
	vxh = (uint8_t *)(uh + 1);
	vxh[0] = VXLAN_FLAG_I;
	memcpy(vxh + 4, vx->vni, 3);
	vx->hdr_len = (uint8_t)((uint8_t *)(vxh + 8) - p);
	if (vx->v6) /* pseudo-header addresses and next header, UDP ports, VXLAN header */
		vx->hdr_sum = __rte_raw_cksum(p + RTE_ETHER_HDR_LEN + 8, 32, 0) +
			      rte_cpu_to_be_16(IPPROTO_UDP) + __rte_raw_cksum(uh, UDP_VX_LEN, 0);
	else
		vx->hdr_sum = __rte_raw_cksum(p + RTE_ETHER_HDR_LEN, sizeof(struct rte_ipv4_hdr), 0);
}

void
vxlan_init(struct vxlan *vx, const struct dp_config *cfg, uint32_t port_idx, uint16_t queue,
	   uint32_t id, int inner6)
{
	const struct dp_vxlan *c = &cfg->vxlans[port_idx];
	struct dp_ip local, remote, port = cfg->ports[port_idx].local;
	uint32_t vni_be = rte_cpu_to_be_32(c->vni << 8);
	uint8_t dst[16];

	memset(vx, 0, sizeof(*vx));
	/* dperf: the queue's own local VTEP; the queue's remote VTEP when
	 * there is one per queue, else the one */
	local = dp_range_addr(&c->vtep_local, queue);
	remote = dp_range_addr(&c->vtep_remote, c->vtep_remote.num > 1 ? queue : 0);
	vx->v6 = local.family == 6;
	vx->inner_type_be = rte_cpu_to_be_16(inner6 ? RTE_ETHER_TYPE_IPV6 : RTE_ETHER_TYPE_IPV4);
	memcpy(vx->inner_smac.addr_bytes, c->inner_smac, 6);
	memcpy(vx->inner_dmac.addr_bytes, c->inner_dmac, 6);
	memcpy(vx->vni, (const uint8_t *)&vni_be, 3);
	copy_addr(vx->vtep, &local);
	copy_addr(vx->port_ip, &port);
	copy_addr(dst, &remote);
	vx->locals = c->vtep_local;
	build_template(vx, dst, (uint16_t)(VXLAN_SPORT + id));
}

int
vxlan_setup(struct netw *nw, const struct dp_config *cfg, uint32_t port_idx, char *err,
	    size_t errlen)
{
	struct vxlan *vx;

	nw->io.vx = NULL;
	if (port_idx >= cfg->n_vxlans)
		return 0;
	vx = rte_zmalloc("dp_vxlan", sizeof(*vx), 64);
	if (vx == NULL) {
		snprintf(err, errlen, "out of hugepage memory for the VXLAN headers");
		return -1;
	}
	vxlan_init(vx, cfg, port_idx, nw->txq.queue, nw->id, nw->v6);
	nw->io.vx = vx;
	return 0;
}

void
vxlan_teardown(struct netw *nw)
{
	rte_free(nw->io.vx);
	nw->io.vx = NULL;
}

int
vxlan_encap(const struct netw *nw, struct rte_mbuf *m)
{
	const struct vxlan *vx = nw->io.vx;
	uint32_t inner = rte_pktmbuf_data_len(m), l3 = RTE_ETHER_HDR_LEN;
	struct rte_ether_hdr *ie = rte_pktmbuf_mtod(m, struct rte_ether_hdr *), *oe;
	uint16_t ulen = rte_cpu_to_be_16((uint16_t)(UDP_VX_LEN + inner));
	struct rte_udp_hdr *uh;
	uint8_t *p;

	rte_ether_addr_copy(&vx->inner_dmac, &ie->dst_addr);
	rte_ether_addr_copy(&vx->inner_smac, &ie->src_addr);
	p = (uint8_t *)rte_pktmbuf_prepend(m, vx->hdr_len);
	if (unlikely(p == NULL))
		return -1;
	memcpy(p, vx->hdr, vx->hdr_len);
	oe = (struct rte_ether_hdr *)p;
	rte_ether_addr_copy(&nw->io.np->gw_mac, &oe->dst_addr);
	rte_ether_addr_copy(&nw->io.np->mac, &oe->src_addr);
	if (vx->v6) {
		struct rte_ipv6_hdr *ip = (struct rte_ipv6_hdr *)(p + l3);
		uint32_t s;
		uint16_t c;

		uh = (struct rte_udp_hdr *)(ip + 1);
		ip->payload_len = ulen;
		uh->dgram_len = ulen;
		/* IPv6 needs the UDP checksum (RFC 8200; a Linux VTEP drops
		 * zero ones unless told otherwise): over the inner frame too. */
		s = vx->hdr_sum + 2u * ulen + dp_cksum(ie, inner, 0);
		c = (uint16_t)~__rte_raw_cksum_reduce(s);
		uh->dgram_cksum = c == 0 ? 0xffff : c;
	} else {
		struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(p + l3);
		uint16_t tl = rte_cpu_to_be_16((uint16_t)(sizeof(*ip) + UDP_VX_LEN + inner));

		ip->total_length = tl;
		ip->hdr_checksum = (uint16_t)~dp_cksum_fold(vx->hdr_sum + tl);
		uh = (struct rte_udp_hdr *)(ip + 1);
		uh->dgram_len = ulen; /* checksum 0: RFC 7348's choice for IPv4 */
	}
	/* the inner frame's checksums were written in software (port.c
	 * turns TX checksum offload off on a VXLAN port) */
	m->ol_flags = 0;
	return 0;
}

int
vxlan_is_local(const struct vxlan *vx, int family, const uint8_t *addr)
{
	uint32_t n = vx->v6 ? 16 : 4, low, first;

	if (family != (vx->v6 ? 6 : 4))
		return 0;
	if (memcmp(addr, vx->port_ip, n) == 0)
		return 1;
	/* the range varies in its last byte only (config_net.c) */
	if (memcmp(addr, vx->locals.start.family == 6 ? vx->locals.start.v6 :
		   (const uint8_t *)&vx->locals.start.v4, n - 1) != 0)
		return 0;
	low = addr[n - 1];
	first = vx->locals.start.family == 6 ? vx->locals.start.v6[15] :
		((const uint8_t *)&vx->locals.start.v4)[3];
	return low - first < vx->locals.num;
}

/* UDP to our VTEP's port 4789, then the VXLAN header; u is the UDP
 * header, ulen the bytes from it to the end of the IP packet. The inner
 * frame is what the UDP length leaves after the VXLAN header: bytes past
 * the outer packet are the outer frame's padding, never inner data. */
static enum vxlan_verdict
vxlan_udp(const struct vxlan *vx, const uint8_t *p, const uint8_t *u, uint32_t ulen, uint32_t *off,
	  uint32_t *n)
{
	const struct rte_udp_hdr *uh = (const struct rte_udp_hdr *)u;
	const uint8_t *vxh = u + sizeof(*uh);
	const struct rte_ether_hdr *ie;

	if (uh->dst_port != rte_cpu_to_be_16(DP_VXLAN_PORT))
		return VX_OTHER;
	if (ulen < UDP_VX_LEN + RTE_ETHER_HDR_LEN || rte_be_to_cpu_16(uh->dgram_len) != ulen ||
	    !(vxh[0] & VXLAN_FLAG_I))
		return VX_BAD;
	if (memcmp(vxh + 4, vx->vni, 3) != 0)
		return VX_OTHER;
	ie = (const struct rte_ether_hdr *)(vxh + 8);
	if (ie->ether_type != vx->inner_type_be)
		return VX_OTHER;
	*off = (uint32_t)((const uint8_t *)ie - p);
	*n = ulen - UDP_VX_LEN;
	return VX_INNER;
}

static enum vxlan_verdict
rx4(const struct vxlan *vx, const uint8_t *p, uint32_t len, uint32_t *off, uint32_t *n)
{
	const struct rte_ipv4_hdr *ip = (const struct rte_ipv4_hdr *)(p + RTE_ETHER_HDR_LEN);
	uint32_t ihl, tot, avail = len - RTE_ETHER_HDR_LEN;
	const uint8_t *l4;

	if (vx->v6)
		return VX_OTHER;
	if (avail < sizeof(*ip) || (ip->version_ihl >> 4) != 4)
		return VX_BAD;
	ihl = rte_ipv4_hdr_len(ip);
	tot = rte_be_to_cpu_16(ip->total_length);
	if (ihl < sizeof(*ip) || tot < ihl || tot > avail || rte_raw_cksum(ip, ihl) != 0xffff ||
	    (ip->fragment_offset & rte_cpu_to_be_16(RTE_IPV4_HDR_MF_FLAG | RTE_IPV4_HDR_OFFSET_MASK)))
		return VX_BAD;
	l4 = (const uint8_t *)ip + ihl;
	if (ip->next_proto_id == IPPROTO_ICMP) {
		*off = RTE_ETHER_HDR_LEN;
		return vxlan_is_local(vx, 4, (const uint8_t *)&ip->dst_addr) ? VX_ICMP : VX_OTHER;
	}
	if (ip->next_proto_id != IPPROTO_UDP || memcmp(&ip->dst_addr, vx->vtep, 4) != 0)
		return VX_OTHER;
	if (tot - ihl < sizeof(struct rte_udp_hdr))
		return VX_BAD;
	/* A zero checksum is "none"; a Linux VTEP sends zero by default. */
	if (((const struct rte_udp_hdr *)l4)->dgram_cksum != 0 &&
	    __rte_raw_cksum_reduce(dp_cksum(l4, tot - ihl, rte_ipv4_phdr_cksum(ip, 0))) != 0xffff)
		return VX_BAD;
	return vxlan_udp(vx, p, l4, tot - ihl, off, n);
}

static enum vxlan_verdict
rx6(const struct vxlan *vx, const uint8_t *p, uint32_t len, uint32_t *off, uint32_t *n)
{
	const struct rte_ipv6_hdr *ip = (const struct rte_ipv6_hdr *)(p + RTE_ETHER_HDR_LEN);
	const uint8_t *l4 = (const uint8_t *)(ip + 1);
	uint32_t plen;

	if (!vx->v6)
		return VX_OTHER;
	if (len - RTE_ETHER_HDR_LEN < sizeof(*ip) || (((const uint8_t *)ip)[0] >> 4) != 6)
		return VX_BAD;
	plen = rte_be_to_cpu_16(ip->payload_len);
	if (plen > len - RTE_ETHER_HDR_LEN - sizeof(*ip))
		return VX_BAD;
	if (ip->proto == IPPROTO_ICMPV6) { /* neighbour discovery, echo: icmp6_input checks them */
		*off = RTE_ETHER_HDR_LEN;
		return VX_ICMP;
	}
	if (ip->proto != IPPROTO_UDP || memcmp(ip->dst_addr, vx->vtep, 16) != 0)
		return VX_OTHER;
	if (plen < sizeof(struct rte_udp_hdr))
		return VX_BAD;
	/* Zero is accepted as for IPv4 (RFC 6935 lets tunnels skip it). */
	if (((const struct rte_udp_hdr *)l4)->dgram_cksum != 0 && !net_l4_sum6_ok(ip, l4, plen))
		return VX_BAD;
	return vxlan_udp(vx, p, l4, plen, off, n);
}

enum vxlan_verdict
vxlan_rx(const struct vxlan *vx, const uint8_t *p, uint32_t len, uint32_t *off, uint32_t *n)
{
	enum vxlan_verdict v = VX_OTHER;
	uint16_t type;

	if (len < RTE_ETHER_HDR_LEN)
		return VX_BAD;
	*off = RTE_ETHER_HDR_LEN;
	type = ((const struct rte_ether_hdr *)p)->ether_type;
	if (type == rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4))
		v = rx4(vx, p, len, off, n);
	else if (type == rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV6))
		v = rx6(vx, p, len, off, n);
	else if (type == rte_cpu_to_be_16(RTE_ETHER_TYPE_ARP))
		v = VX_ARP;
	if (v != VX_INNER)
		*n = len - *off; /* ARP, ICMP: their own lengths say the rest */
	return v;
}
