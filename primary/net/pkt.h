/* SPDX-License-Identifier: BSD-3-Clause
 * Building the engine's packets: Ethernet (+VLAN), IPv4, TCP, UDP, ARP.
 * Headers are written field by field into fresh mbufs; message bytes are
 * copied from prebuilt buffers whose checksum sums are precomputed, so a
 * segment's TCP checksum only sums its 20-24 header bytes.
 */
#ifndef DPERF_PKT_H
#define DPERF_PKT_H

#include <stdint.h>

#include <rte_branch_prediction.h>

#include "net/netw.h"
#include "net/vxlan.h"

/* Queue a frame the engine built (an inner frame on a VXLAN port: the
 * tunnel's headers go in front first). */
static inline void
pkt_send(struct netw *w, struct rte_mbuf *m)
{
	if (unlikely(w->io.vx != NULL) && vxlan_encap(w, m) != 0) {
		tx_drop_one(&w->txq, m);
		return;
	}
	tx_enqueue(&w->txq, m, w->now);
}

/* Queue a TCP segment on w's TX batch, its window field win (pkt_win).
 * m may be NULL (no payload). Returns 0, or -1 when no mbuf was
 * available (dropTx counted). A SYN's window is pkt_win(w, 0) whatever
 * win says. */
int pkt_tcp(struct netw *w, const struct tuple *t, uint32_t seq, uint32_t ack,
	    uint8_t flags, uint16_t win, const struct msg *m);

#define PKT_WS_MAX 14 /* RFC 7323 2.3: the largest window scale shift */

/* Our receive window and its scale (RFC 7323). Our receiver consumes
 * in-order data at once: what it cannot take is data past a gap beyond
 * what the connection's share of the out-of-order queue holds (oooDrop),
 * so the window we advertise is that share in bytes (boot/worker_setup.c:
 * DP_OOO_PER_CONN segments of mss). A peer with all of it in flight and
 * its first segment lost then has every later one held, none dropped.
 * Above 65535 bytes (64 segments of 1460: 93,440) the window needs a
 * scale: the shift we offer is the least that puts it in the 16-bit
 * field (1 there; 0 for an mss up to 1023). It is offered in every SYN
 * and in a SYN+ACK answering a SYN that offered one, which is also what
 * lets us scale the peer's window (a kernel offers 7). The shift is the
 * worker's, so a socket keeps one flag (SKF_WS), not its shift, and stays
 * 64 bytes. The window also bounds what a peer has in flight to us: 200
 * connections of 1 MB answers over memif with 256 KiB each (shift 2) had
 * up to 36,000 segments in flight before delayed ACKs (tcp/tcp_dack.h)
 * stretched the ACKs under back-pressure, and their ACKs overflowed the
 * ring back to the server (dropTx); 93,440 bytes is 12,800 segments. */
static inline void
pkt_rcv_window(struct netw *w, uint32_t bytes)
{
	uint8_t ws = 0;

	if (bytes > (uint32_t)UINT16_MAX << PKT_WS_MAX)
		bytes = (uint32_t)UINT16_MAX << PKT_WS_MAX;
	while ((bytes >> ws) > UINT16_MAX)
		ws++;
	w->rcv_wnd = bytes;
	w->rcv_ws = ws;
}

/* The window field of a segment we send: scaled by our shift on a
 * connection whose SYNs both offered scaling (scaled), else (and in
 * every SYN, RFC 7323 2.2) the window up to 65535. */
static inline uint16_t
pkt_win(const struct netw *w, int scaled)
{
	if (scaled)
		return (uint16_t)(w->rcv_wnd >> w->rcv_ws);
	return w->rcv_wnd > UINT16_MAX ? UINT16_MAX : (uint16_t)w->rcv_wnd;
}

/* A SYN's options beside MSS: pkt_tcp's bare SYN offers both (window
 * scale and SACK); a SYN+ACK answers what the peer's SYN offered
 * (synopt). */
#define PKT_SYN_WS   1 /* our window scale option (netw.rcv_ws) */
#define PKT_SYN_SACK 2 /* SACK-permitted (RFC 2018 2) */
#define PKT_SYN_OURS (PKT_SYN_WS | PKT_SYN_SACK) /* what our bare SYN offers */

/* A SYN+ACK with the options in synopt (PKT_SYN_*). */
int pkt_tcp_synack(struct netw *w, const struct tuple *t, uint32_t seq, uint32_t ack, int synopt);

/* A segment (not a SYN) carrying option bytes opt[0..optlen), a multiple
 * of 4 and at most 40, written by the transport (an ACK's SACK blocks). */
int pkt_tcp_opt(struct netw *w, const struct tuple *t, uint32_t seq, uint32_t ack, uint8_t flags,
		uint16_t win, const struct msg *msg, const uint8_t *opt, uint32_t optlen);

/* Queue a UDP datagram carrying m. */
int pkt_udp(struct netw *w, const struct tuple *t, const struct msg *m);

/* Queue an ARP packet: op 1 request (target_mac ignored), op 2 reply. */
int pkt_arp(struct netw *w, uint16_t op, uint32_t sip, uint32_t tip,
	    const struct rte_ether_addr *tmac);

/* An IPv6 neighbour solicitation (type 135) or advertisement (136) for
 * target, from src to dst (16-byte addresses), to dmac. */
int pkt_ndp(struct netw *w, uint8_t type, const uint8_t *src, const uint8_t *dst,
	    const struct rte_ether_addr *dmac, const uint8_t *target);

/* Fill m with a TCP segment or UDP datagram (what pkt_tcp and pkt_udp
 * queue after allocating). */
void pkt_tcp_fill(struct netw *w, struct rte_mbuf *m, const struct tuple *t, uint32_t seq,
		  uint32_t ack, uint8_t flags, const struct msg *msg);
void pkt_udp_fill(struct netw *w, struct rte_mbuf *m, const struct tuple *t,
		  const struct msg *msg);

/* pkt_flood.c: a flooding client's request datagram, or SYN, in an mbuf
 * it keeps and reuses. Same returns as pkt_udp. */
int pkt_flood_udp(struct netw *w, const struct tuple *t);
int pkt_flood_syn(struct netw *w, const struct tuple *t, uint32_t seq);
/* After a device fault: let go of the ring (what the device still holds
 * is lost with the forgotten TX batch). */
void pkt_flood_forget(struct netw *w);
/* At the end: drop the ring's references. */
void pkt_flood_release(struct netw *w);

/* The out-of-order queue (tcp/tcp_ooo.h) keeps a received segment past
 * its burst: pkt_hold takes a reference to the mbuf holding s's data and
 * says where that data starts in it (*off); pkt_held gives the bytes
 * back; pkt_unhold drops the reference. The unit tests' packet layer
 * keeps a copy instead. Returns NULL when s has no mbuf. */
struct seg;
void *pkt_hold(struct netw *w, const struct seg *s, uint16_t *off);
const uint8_t *pkt_held(const void *h, uint16_t off);
void pkt_unhold(struct netw *w, void *h);

/* Free a received mbuf (to the stash when it has room). */
void pkt_free(struct netw *w, struct rte_mbuf *m);
/* Return the worker's unused preallocated mbufs to the pool. */
void pkt_release(struct netw *w);

/* Ones'-complement sum of a buffer, for struct msg.sum. */
uint32_t pkt_sum(const void *buf, uint32_t len);

#endif
