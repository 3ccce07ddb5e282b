/* SPDX-License-Identifier: BSD-3-Clause
 * VXLAN (RFC 7348), dperf's "vxlan" line: on such a port every frame the
 * engine builds is an inner frame, sent inside outer Ethernet, IPv4 or
 * IPv6, UDP to port 4789 and the VXLAN header with the port's VNI; every
 * frame received is checked and decapsulated before the normal receive
 * path sees its inner frame. ARP, neighbour discovery and ICMP echo of the
 * outer addresses (the VTEPs, their gateway) stay outside the tunnel, as
 * on a port without VXLAN.
 *
 * As dperf: each worker has its own local VTEP address (the port's range,
 * in queue order) and sends to the remote VTEP of its queue (or the one
 * remote VTEP); the outer UDP source port is 6666 + the worker's id, so
 * the workers' flows differ; the inner MACs come from the configuration
 * (no ARP or NDP inside the tunnel).
 *
 * A port without VXLAN pays one predictable branch per packet sent
 * (pkt_send, net/pkt.h) and one per packet received (rx_packet).
 */
#ifndef DPERF_VXLAN_H
#define DPERF_VXLAN_H

#include <stdint.h>

#include <rte_ether.h>
#include <rte_mbuf.h>

#include "config.h"
#include "net/netw.h"

#define VXLAN_SPORT 6666 /* dperf's: + the worker's id */
#define VXLAN_HDR_MAX (14 + 40 + 8 + 8)

/* A worker's tunnel: written by vxlan_setup before launch, then read only. */
struct vxlan {
	/* TX: outer Ethernet type, IP, UDP and VXLAN headers with lengths
	 * and checksums 0 (the MACs are the port's, written per packet: the
	 * gateway's is learned at run time). */
	uint8_t hdr[VXLAN_HDR_MAX];
	uint8_t hdr_len;          /* 50 (IPv4) or 70 (IPv6) */
	uint8_t v6;               /* outer family */
	uint16_t inner_type_be;   /* the inner frames' EtherType */
	uint32_t hdr_sum;         /* IPv4: the IP header's sum; IPv6: the UDP pseudo-header,
				     ports and VXLAN header (lengths excluded) */
	struct rte_ether_addr inner_smac, inner_dmac;
	/* RX */
	uint8_t vni[3];           /* as on the wire */
	uint8_t vtep[16];         /* this worker's local VTEP (IPv4: first 4 bytes) */
	uint8_t port_ip[16];      /* the port's own address */
	struct dp_range locals;   /* every local VTEP of the port (ARP, NDP, echo) */
};

/* What vxlan_rx found in a received frame. */
enum vxlan_verdict {
	VX_INNER,  /* VXLAN of our VNI to our VTEP: the inner frame at *off, *n bytes
		      (the outer UDP length's, less the VXLAN header) */
	VX_ARP,    /* outer ARP: its header at *off */
	VX_ICMP,   /* outer ICMP or ICMPv6 to one of our outer addresses: the IP header at *off */
	/* badRx: malformed outer headers (lengths, checksums, fragments), or
	 * UDP to our VTEP's port 4789 that is not valid VXLAN (I flag clear) */
	VX_BAD,
	/* otherRx, as on a port without VXLAN: a frame not for the tunnel
	 * (another family, address, protocol or UDP port: a kernel peer's
	 * IPv6 chatter, LLDP), valid VXLAN of another VNI, or an inner frame
	 * not of the inner family */
	VX_OTHER,
};

/* Fill vx for the worker of queue `queue` (worker id `id`) of port
 * port_idx of cfg, whose inner addresses are IPv6 when inner6. */
void vxlan_init(struct vxlan *vx, const struct dp_config *cfg, uint32_t port_idx, uint16_t queue,
		uint32_t id, int inner6);

/* Prepare worker nw's tunnel for port port_idx of cfg (nw->id, nw->txq.queue and
 * nw->v6 set). Returns 0, or -1 with err (out of memory). nw->io.vx stays NULL
 * when the port has no vxlan line. */
int vxlan_setup(struct netw *nw, const struct dp_config *cfg, uint32_t port_idx, char *err,
		size_t errlen);
void vxlan_teardown(struct netw *nw);

/* Put the outer headers in front of inner frame m (its MACs become the
 * configured inner ones). Returns 0, or -1 when m has no headroom. */
int vxlan_encap(const struct netw *nw, struct rte_mbuf *m);

/* Classify the len bytes at p, a frame received on a VXLAN port; *off
 * and *n (the bytes from *off on that belong to it) as the verdict says.
 * Pure: nothing is counted or changed. */
enum vxlan_verdict vxlan_rx(const struct vxlan *vx, const uint8_t *p, uint32_t len,
			    uint32_t *off, uint32_t *n);

/* 1 when addr (family 4: 4 bytes, 6: 16) is one of the port's outer
 * addresses: its own or a local VTEP (0 when the outer family differs). */
int vxlan_is_local(const struct vxlan *vx, int family, const uint8_t *addr);

#endif
