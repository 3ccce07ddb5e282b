/* SPDX-License-Identifier: BSD-3-Clause
 * What the sender's two files share (tcp_send.c: the windows, ACKs and
 * recovery; tcp_timeout.c: the tail loss probe and the retransmission
 * timeout). Not for other modules: tcp_send.h is the sender's interface.
 */
#ifndef DPERF_TCP_SEND_INT_H
#define DPERF_TCP_SEND_INT_H

#include "tcp/tcp_common.h"
#include "tcp/tcp_send.h"

/* sk_snd.recovery */
#define SND_NEWRENO 1 /* fast recovery, one hole per partial ACK */
#define SND_GO_BACK 2 /* ...and the peer keeps nothing out of order: went back once */
#define SND_SACK    3 /* RFC 6675 recovery: the scoreboard says what goes */

#define SND_CWND_MAX (1u << 30) /* cwnd's bound: a 1 GiB message is the largest */

/* RFC 6298's bounds in timer ticks: 1 s minimum (retransmit_timeout if
 * shorter: a test asking for it gets it), 60 s maximum. Not Linux's 200
 * ms: a worker of a shared box loses its core for hundreds of ms, and
 * 200 ms fired spurious timeouts (64 KB answers without loss: pushRt 623). */
#define SND_RTO_MIN (1000u * TL_PER_MS)
#define SND_RTO_MAX (60000u * TL_PER_MS)

static inline void
rtt_cfg_of(const struct netw *nw, struct rtt_cfg *c)
{
	c->rto_init = nw->tcp->tl[TL_RT].timeout;
	c->rto_min = c->rto_init < SND_RTO_MIN ? c->rto_init : SND_RTO_MIN;
	c->rto_max = SND_RTO_MAX;
	c->g = 1; /* a tick */
}

static inline uint32_t
max_u32(uint32_t a, uint32_t b)
{
	return a > b ? a : b;
}

static inline uint32_t
min_u32(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

/* ssthresh after a loss (RFC 5681 eq. 4, RFC 6675 5 step 4, RFC 6582):
 * half of FlightSize, at least two segments. Toward a message's end the
 * flight is what was left to send (application-limited, RFC 7661), not
 * what the path holds: half of it left the next messages of a keepalive
 * connection in congestion avoidance from two segments, where any loss
 * was a timeout (a fifth of the 1 MB answers of the bench's loss
 * scenario). So half the congestion window (at most the peer's window)
 * when that is more, as Linux's Reno does. */
static inline uint32_t
snd_half(const struct netw *nw, const struct sock *sk, const struct sk_snd *snd)
{
	return max_u32(max_u32(sk->snd_nxt - sk->snd_una, min_u32(snd->cwnd, snd->wnd)) / 2, 2u * nw->mss);
}

/* The segment holding sequence number seq. */
static inline uint32_t
seg_of(const struct netw *nw, const struct sk_snd *snd, uint32_t seq)
{
	return (seq - snd->base) / nw->mss;
}

/* Send from seq (a hole the scoreboard names, or new data) to the end
 * of its source segment, at most the peer's MSS. Returns that end. */
uint32_t snd_send_from(struct netw *nw, struct sock *sk, struct sk_snd *snd, const struct tuple *t,
		       const struct snd_src *src, uint32_t seq, int fin);

#endif
