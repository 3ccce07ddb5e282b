/* SPDX-License-Identifier: BSD-3-Clause
 * The TCP segment writer: a segment's TCP header and options, on the
 * frame net/ builds below it (pkt_hdr.h: Ethernet, IPv4/IPv6 and the
 * checksums; pkt.h: pkt_send, VXLAN). Message bytes are copied from
 * prebuilt buffers whose checksum sums are precomputed, so a segment's
 * TCP checksum only sums its 20-24 header bytes.
 */
#ifndef DPERF_TCP_OUT_H
#define DPERF_TCP_OUT_H

#include <stdint.h>

#include "net/l4.h"
#include "net/netw.h"

/* Queue a TCP segment on nw's TX batch, its window field win (tcp_out_win).
 * m may be NULL (no payload). Returns 0, or -1 when no mbuf was
 * available (dropTx counted). A SYN's window is tcp_out_win(nw, 0) whatever
 * win says. */
int tcp_out(struct netw *nw, const struct tuple *t, uint32_t seq, uint32_t ack,
	    uint8_t flags, uint16_t win, const struct msg *m);

#define TCP_WS_MAX 14 /* RFC 7323 2.3: the largest window scale shift */

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
tcp_rcv_window(struct netw *nw, uint32_t bytes)
{
	uint8_t ws = 0;

	if (bytes > (uint32_t)UINT16_MAX << TCP_WS_MAX)
		bytes = (uint32_t)UINT16_MAX << TCP_WS_MAX;
	while ((bytes >> ws) > UINT16_MAX)
		ws++;
	nw->rcv_wnd = bytes;
	nw->rcv_ws = ws;
}

/* The window field of a segment we send: scaled by our shift on a
 * connection whose SYNs both offered scaling (scaled), else (and in
 * every SYN, RFC 7323 2.2) the window up to 65535. */
static inline uint16_t
tcp_out_win(const struct netw *nw, int scaled)
{
	if (scaled)
		return (uint16_t)(nw->rcv_wnd >> nw->rcv_ws);
	return nw->rcv_wnd > UINT16_MAX ? UINT16_MAX : (uint16_t)nw->rcv_wnd;
}

/* A SYN's options beside MSS: tcp_out's bare SYN offers both (window
 * scale and SACK); a SYN+ACK answers what the peer's SYN offered
 * (synopt). */
#define TCP_SYN_WS   1 /* our window scale option (netw.rcv_ws) */
#define TCP_SYN_SACK 2 /* SACK-permitted (RFC 2018 2) */
#define TCP_SYN_OURS (TCP_SYN_WS | TCP_SYN_SACK) /* what our bare SYN offers */

/* A SYN+ACK with the options in synopt (PKT_SYN_*). */
int tcp_out_synack(struct netw *nw, const struct tuple *t, uint32_t seq, uint32_t ack, int synopt);

/* A segment (not a SYN) carrying option bytes opt[0..optlen), a multiple
 * of 4 and at most 40, written by the transport (an ACK's SACK blocks). */
int tcp_out_opt(struct netw *nw, const struct tuple *t, uint32_t seq, uint32_t ack, uint8_t flags,
		uint16_t win, const struct msg *msg, const uint8_t *opt, uint32_t optlen);

/* Fill m with a TCP segment (what tcp_out queues after allocating). */
void tcp_out_fill(struct netw *nw, struct rte_mbuf *m, const struct tuple *t, uint32_t seq,
		  uint32_t ack, uint8_t flags, const struct msg *msg);

/* A flooding client's SYN, in an mbuf of net/pkt_flood.h's ring. Same
 * returns as tcp_out. */
int tcp_flood_syn(struct netw *nw, const struct tuple *t, uint32_t seq);

#endif
