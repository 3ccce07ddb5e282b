/* SPDX-License-Identifier: BSD-3-Clause
 * The sender's timers (tcp_send.h): the tail loss probe and the
 * retransmission timeout of a message over several segments.
 */
#include "tcp/tcp_common.h"
#include "tcp/tcp_send.h"
#include "tcp/tcp_send_int.h"

/* The tail loss probe (RFC 8985 7): a lost last segment gets no
 * DupThresh nor early retransmit, and waited for the RTO (1 s at least
 * here). Once all of the message is sent, after PTO = 2 x SRTT, at least
 * TLP_MIN (+ the peer's delayed ACK with one segment out), the last
 * segment goes again; its ACK says what the peer had. So too with one
 * segment alone out before the end (a window under two segments, as
 * after a timeout): its loss left the connection silent until the
 * RTO, doubled after that timeout to the client's own 2 s, which then
 * resent its request (the bench's "client pushRt 1, server tcpDrop
 * 1"). Once per ACK of new data, not in a recovery nor after a
 * timeout, with SACK and an RTT sample, before the RTO; only on a
 * connection that lost a segment before (lossy). Here a round trip grows
 * past any PTO whenever a worker loses its core: probes on every ACK at
 * RFC 8985's 10 ms resent 2,977 segments needlessly in 9 s of the
 * lossless bench, tail-only ones at 200 ms 126 to 877 in its 64 KB CPS. */
#define TLP_MIN       (200u * TL_PER_MS)
#define TLP_ACK_DELAY (200u * TL_PER_MS) /* RFC 8985 7.2's WCDelAckT */

void
snd_arm_rt(struct netw *nw, struct sock *sk, uint32_t idx)
{
	struct sk_snd *snd;
	struct rtt_cfg c;
	uint32_t rto;

	if (!snd_active(nw, sk)) {
		if (nw->tcp->snd != NULL)
			sk_snd_of(nw, sk)->probe_due = 0;
		tl_add(nw, sk, idx, TL_RT);
		return;
	}
	snd = sk_snd_of(nw, sk);
	rtt_cfg_of(nw, &c);
	rto = rtt_rto(&snd->rtt, &c);
	snd->probe_due = 0;
	if ((sk->flags & SKF_SACK) && snd->lossy && !snd->recovery && !snd->probe_out &&
	    sk->retries == 0 && snd->wnd != 0 && rtt_srtt(&snd->rtt) != 0 &&
	    (snd->sent_all || sk->snd_nxt - sk->snd_una <= nw->mss)) {
		uint32_t pto = max_u32(2 * rtt_srtt(&snd->rtt), TLP_MIN);

		if (sk->snd_nxt - sk->snd_una <= nw->mss)
			pto += TLP_ACK_DELAY;
		if (pto < rto) {
			snd->probe_due = 1;
			rto = pto;
		}
	}
	tl_add_at(nw, sk, idx, TL_RT, nw->now_t + rto);
}

int
snd_probe(struct netw *nw, struct sock *sk, const struct tuple *t, const struct snd_src *src, int fin)
{
	struct sk_snd *snd = sk_snd_of(nw, sk);
	uint32_t end = snd->base + src->len, seq;

	if (!snd->probe_due)
		return 0;
	snd->probe_due = 0;
	snd->probe_out = 1;
	if (seq_lt(sk->snd_nxt, end))
		end = sk->snd_nxt; /* a lone segment out, the rest held by cwnd */
	if (!seq_lt(sk->snd_una, end))
		return 1; /* only our FIN is out: the RTO resends it */
	/* the last data sent, again (its FIN with it) */
	seq = end - min_u32(end - sk->snd_una, sk->snd_mss);
	if (seq_lt(seq, snd->base + seg_of(nw, snd, end - 1) * nw->mss))
		seq = snd->base + seg_of(nw, snd, end - 1) * nw->mss;
	if (seq_lt(seq, end))
		snd_send_from(nw, sk, snd, t, src, seq, fin);
	return 1;
}

int
snd_persist(const struct netw *nw, const struct sock *sk)
{
	return nw->tcp->snd != NULL && sk_snd_of(nw, sk)->wnd == 0;
}

void
snd_timer(struct netw *nw, struct sock *sk, const struct tuple *t, const struct snd_src *src, int fin)
{
	struct sk_snd *snd = sk_snd_of(nw, sk);

	if (snd->wnd == 0) {
		/* A zero window: probe with an old sequence number, which the
		 * peer answers with an ACK carrying its window (what Linux's
		 * tcp_xmit_probe_skb does; our segments cannot be cut to one
		 * byte, their sums are per whole segment). */
		tcp_out(nw, t, sk->snd_una - 1, sk->rcv_nxt, TH_ACK, sk_win(nw, sk), NULL);
		sk_ack_sent(sk);
		return;
	}
	{
		struct rtt_cfg c;

		rtt_cfg_of(nw, &c);
		rtt_backoff(&snd->rtt, &c); /* RFC 6298 5.5 */
	}
	snd->ssthresh = snd_half(nw, sk, snd);
	snd->cwnd = nw->mss;
	snd->recovery = 0;
	snd->lossy = 1;
	snd->dupacks = 0;
	snd->recover = sk->snd_nxt; /* RFC 6582 3.2 step 1 after a timeout */
	snd->nxt = sk->snd_una;
	/* what the peer SACKed is not sent again, unless this is the second
	 * timeout in a row: a peer may drop what it SACKed (RFC 2018 8) */
	if (sk->retries > 1)
		sb_reset(&snd->sb, sk->snd_una);
	snd->sb.high_rxt = sk->snd_una;
	snd_output(nw, sk, t, src, fin);
}
