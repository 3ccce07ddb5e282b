/* SPDX-License-Identifier: BSD-3-Clause
 * Delayed ACKs (RFC 1122 4.2.3.2, RFC 5681 4.2). In-order data that needs
 * an ACK is not acknowledged at once: the ACK rides on the next segment
 * the socket sends (a request, a response, a FIN) if that leaves within
 * `delayed_ack`; otherwise a bare ACK goes when that time is up. An ACK
 * goes at once for out-of-order data and for a FIN (tcp_client.c,
 * tcp_server.c), when more than mss bytes are unacknowledged (every
 * second full-sized segment, and well before our advertised window could
 * make the peer wait), and for a short segment that leaves a message
 * incomplete (sk_ack_partial: the peer's Nagle algorithm may be waiting).
 * When our next segment is known to leave later than the delay (a
 * keepalive client's interval is longer), the ACK goes at once: the same
 * one packet, sooner, and no timer.
 *
 * The timer is one FIFO ring of (socket, due) per worker, not one of the
 * socket's timer lists: the socket stays on its own list (retransmit,
 * keepalive, idle) while it owes an ACK, and one delay for all makes the
 * ring ordered by due time. A socket that owes nothing costs nothing.
 * When the ACK has ridden on data first, the ring's entry is stale: the
 * socket's ack_due names its live entry (SKF_ACK_QUEUED says it has one),
 * and a stale one is skipped. A full ring means an ACK at once, never a
 * lost one.
 *
 * Where the socket's next segment is known to leave within the delay
 * (a keepalive client's next request, its interval at most delayed_ack)
 * no entry is queued at all: the keepalive timer is the ACK's timer.
 */
#ifndef DPERF_TCP_DACK_H
#define DPERF_TCP_DACK_H

#include <stddef.h>
#include <stdint.h>

#include "state/sock.h"
#include "tcp/tcp_common.h"

#define DACK_RING_SIZE 65536 /* entries per worker (512 KB): one 40 ms delay at 1.6M ACKs/s */

struct dack_ent {
	uint32_t idx; /* socket index */
	uint32_t due; /* timer ticks (tcp.h: TL_PER_MS) */
};

struct dack_ring {
	uint32_t mask;       /* entries - 1 (a power of two) */
	uint32_t head, tail; /* free-running; head == tail: empty */
	struct dack_ent e[];
};

static inline size_t
dack_ring_bytes(uint32_t entries)
{
	return sizeof(struct dack_ring) + (size_t)entries * sizeof(struct dack_ent);
}

/* Adds dlen to what sk owes an ACK for. Returns nonzero when the ACK must
 * go now: more than one full-sized segment unacknowledged (as Linux does;
 * a second segment of mss - 40 bytes counts), or delayed ACKs off. */
static inline int
sk_ack_count(const struct netw *nw, struct sock *sk, uint32_t dlen)
{
	uint32_t owed = sk->ack_bytes + dlen;

	sk->ack_bytes = (uint16_t)(owed > UINT16_MAX ? UINT16_MAX : owed);
	return nw->tcp->dack == NULL || owed > nw->mss;
}

/* In-order data received whose ACK may wait for our next segment. */
static inline void
sk_ack_later(struct netw *nw, struct sock *sk, uint32_t idx, const struct tuple *t, uint32_t dlen)
{
	struct dack_ring *r = nw->tcp->dack;
	int now = sk_ack_count(nw, sk, dlen);

	/* Our device is backed up (the peer is not draining the link, or
	 * its data outruns our ACKs): a bare ACK now would only overflow
	 * into dropTx, and a request behind it with it. It waits for the
	 * delay or our next segment instead, and covers everything received
	 * by then (a stretch ACK, as GRO makes in a kernel): fewer ACKs is
	 * what slows the sender's window. */
	if (now && r != NULL && tx_congested(&nw->txq))
		now = 0;
	if (now || r->tail - r->head > r->mask) {
		sk_ctl(nw, t, sk, TH_ACK);
		return;
	}
	sk->flags |= SKF_ACK_OWED;
	if (sk->flags & SKF_ACK_QUEUED)
		return; /* its live entry keeps the first data's deadline */
	sk->flags |= SKF_ACK_QUEUED;
	sk->ack_due = nw->now_t + nw->tcp->dack_t;
	r->e[r->tail++ & r->mask] = (struct dack_ent){ .idx = idx, .due = sk->ack_due };
}

/* Part of a message received: the peer has more to send. A segment
 * shorter than a full one may be the last that the peer's Nagle algorithm
 * (RFC 896) lets out before our ACK: holding the ACK would hold the rest
 * of the message for the whole delay (seen: a Python server's head, then
 * its body 40 ms later, and a response time of 61 ms instead of 20). So
 * only full-sized segments wait; "full" leaves 40 bytes for a peer whose
 * segments carry IP or TCP options, or whose MTU is a little smaller. */
static inline void
sk_ack_partial(struct netw *nw, struct sock *sk, uint32_t idx, const struct tuple *t, uint32_t dlen)
{
	if (dlen + 40 < nw->mss) {
		sk_ctl(nw, t, sk, TH_ACK);
		return;
	}
	sk_ack_later(nw, sk, idx, t, dlen);
}

/* In-order data received whose ACK rides on a segment the socket will
 * send within the delay whatever happens (its keepalive timer), or that
 * the configuration says waits for it (disable_ack): no entry. */
static inline void
sk_ack_with_next(struct netw *nw, struct sock *sk, const struct tuple *t, uint32_t dlen)
{
	if (sk_ack_count(nw, sk, dlen) && !nw->tcp->disable_ack) {
		sk_ctl(nw, t, sk, TH_ACK);
		return;
	}
	/* An entry queued for earlier data stays live: that data's ACK is
	 * not held past its own delay. */
	sk->flags |= SKF_ACK_OWED;
}

#endif
