/* SPDX-License-Identifier: BSD-3-Clause
 * The sender of messages over several segments (tcp_send.h).
 */
#include "tcp/tcp_common.h"
#include "tcp/tcp_send.h"

/* sk_tx.recovery */
#define TX_NEWRENO 1 /* fast recovery, one hole per partial ACK */
#define TX_GO_BACK 2 /* ...and the peer keeps nothing out of order: went back once */
#define TX_SACK    3 /* RFC 6675 recovery: the scoreboard says what goes */

/* cwnd never grows past this (a 1 GiB message is the largest). */
#define TX_CWND_MAX (1u << 30)

/* RFC 6298's bounds, in timer ticks: 2.4's minimum, 1 s (or
 * retransmit_timeout when that is shorter: a test that asks for a short
 * timeout gets it); 2.5's maximum, 60 s. Not Linux's 200 ms: on this
 * project's shared 2-core box a worker loses its core for hundreds of
 * milliseconds, and 200 ms fired spurious timeouts (test_memif_large's
 * 64 KB answers without loss: pushRt 623). */
#define TX_RTO_MIN (1000u * TL_PER_MS)
#define TX_RTO_MAX (60000u * TL_PER_MS)

static inline void
rtt_cfg_of(const struct worker *w, struct rtt_cfg *c)
{
	c->rto_init = w->tl[TL_RT].timeout;
	c->rto_min = c->rto_init < TX_RTO_MIN ? c->rto_init : TX_RTO_MIN;
	c->rto_max = TX_RTO_MAX;
	c->g = 1; /* a tick */
}

static void
src_msg_seg(const struct tx_src *src, uint32_t k, uint32_t mss, struct msg *out)
{
	msg_segment(src->ctx, mss, k, out);
}

void
tx_src_msg(struct tx_src *src, const struct msg *m)
{
	src->len = m->len;
	src->seg = src_msg_seg;
	src->ctx = m;
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

void
tx_open(const struct worker *w, const struct sock *sk, struct sk_tx *tx, const struct seg *syn,
	int ws_ok)
{
	memset(tx, 0, sizeof(*tx));
	/* RFC 7323 2.2: scaling only when both SYNs carried the option */
	tx->shift = ws_ok && syn->ws != SEG_NO_WS ? syn->ws : 0;
	tx->wnd = syn->win; /* a SYN's window is never scaled */
	/* RFC 6928: min(10 mss, max(2 mss, 14600)), ten segments of 1460 */
	tx->cwnd = min_u32(10u * w->mss, max_u32(2u * w->mss, 14600));
	tx->ssthresh = UINT32_MAX; /* RFC 5681 3.1: arbitrarily high */
	tx->recover = sk->snd_una;
	tx->nxt = sk->snd_nxt;
	tx->base = sk->snd_nxt;
	{
		struct rtt_cfg c;

		rtt_cfg_of(w, &c);
		rtt_init(&tx->rtt, &c);
	}
}

static inline uint32_t
fin_sent(const struct sock *sk, const struct sk_tx *tx, const struct tx_src *src)
{
	return sk->snd_nxt - tx->base == src->len + 1;
}

/* Send segment k (again or for the first time); the last one carries
 * the FIN when it was sent before or fin asks for it now. */
static void
send_seg(struct worker *w, struct sock *sk, struct sk_tx *tx, const struct tuple *t,
	 const struct tx_src *src, uint32_t k, int fin)
{
	uint32_t seq = tx->base + k * w->mss, end;
	struct msg seg;
	uint8_t f = TH_ACK;

	src->seg(src, k, w->mss, &seg);
	end = seq + seg.len;
	if (end - tx->base == src->len) {
		f |= TH_PSH;
		if (fin_sent(sk, tx, src) || fin)
			f |= TH_FIN;
	}
	/* test_tx_drop: a lossy path toward a peer we cannot make lossy */
	if (__builtin_expect(w->tx_drop_every != 0, 0) && ++w->tx_drop_n >= w->tx_drop_every) {
		w->tx_drop_n = 0;
		CNT(w, TEST_DROP);
	} else
		pkt_tcp(w, t, seq, sk->rcv_nxt, f, &seg);
	sk_ack_sent(sk);
	if (seq_lt(seq, sk->snd_nxt)) {
		CNT(w, PUSH_RT);
		rtt_resent(&tx->rtt); /* Karn: no sample from what went twice */
	}
	if (seq_gt(end, sk->snd_nxt)) { /* new bytes */
		CNT_ADD(w, GOOD_TX, (uint64_t)(end - sk->snd_nxt) * 8);
		sk->snd_nxt = end;
		rtt_sent(&tx->rtt, end, w->now_t);
	}
	if (seq_gt(end, tx->nxt))
		tx->nxt = end;
	if ((f & TH_FIN) && sk->snd_nxt == end) { /* the FIN for the first time */
		sk->snd_nxt++;
		tx->nxt = sk->snd_nxt;
		CNT(w, FIN_TX);
		sk->state = (sk->flags & SKF_FIN_RCVD) ? SK_LAST_ACK : SK_FIN_WAIT_1;
	} else if (f & TH_FIN) {
		CNT(w, FIN_RT);
		tx->nxt = end + 1;
	}
}

/* The segment holding sequence number seq. */
static inline uint32_t
seg_of(const struct worker *w, const struct sk_tx *tx, uint32_t seq)
{
	return (seq - tx->base) / w->mss;
}

uint32_t
tx_output(struct worker *w, struct sock *sk, const struct tuple *t, const struct tx_src *src, int fin)
{
	struct sk_tx *tx = sk_tx_of(w, sk);
	uint32_t n = 0, limit = min_u32(min_u32(tx->cwnd, tx->wnd), w->send_wnd);

	if (seq_lt(tx->nxt, sk->snd_una))
		tx->nxt = sk->snd_una;
	while (tx->nxt - tx->base < src->len) {
		uint32_t k = seg_of(w, tx, tx->nxt);
		uint32_t end = tx->base + min_u32((k + 1) * w->mss, src->len);
		uint32_t flight = end - sk->snd_una;

		/* After a timeout: what the peer holds is not sent again */
		if (unlikely(tx->sb.n != 0) && seq_lt(tx->nxt, sk->snd_nxt) &&
		    sb_sacked(&tx->sb, tx->base + k * w->mss, end)) {
			tx->nxt = end;
			continue;
		}

		/* Whole segments only (their sums are precomputed); with
		 * nothing in flight, one goes into a window smaller than a
		 * segment rather than wait forever (the peer keeps what fits).
		 * A zero window waits for the persist timer. */
		if (flight > limit && !(tx->nxt == sk->snd_una && tx->wnd > 0))
			break;
		/* The device is not keeping up: the rest waits for the next
		 * ACK (something is in flight, so one will come) rather than
		 * overflow the TX queue into dropTx and retransmissions. */
		if (tx->nxt != sk->snd_una && tx_congested(w))
			break;
		send_seg(w, sk, tx, t, src, k, fin);
		n++;
	}
	return n;
}

uint32_t
tx_begin(struct worker *w, struct sock *sk, const struct tuple *t, const struct tx_src *src, int fin)
{
	struct sk_tx *tx = sk_tx_of(w, sk);

	tx->base = tx->nxt = sk->snd_nxt;
	tx->dupacks = 0;
	tx->active = 1;
	sb_reset(&tx->sb, sk->snd_nxt);
	return tx_output(w, sk, t, src, fin);
}

/* Send again the segment at snd_una (a hole), whatever the windows. */
static void
resend_hole(struct worker *w, struct sock *sk, const struct tuple *t, const struct tx_src *src)
{
	struct sk_tx *tx = sk_tx_of(w, sk);

	if (sk->snd_una - tx->base < src->len)
		send_seg(w, sk, tx, t, src, seg_of(w, tx, sk->snd_una), 0);
}

/* RFC 6675 5 (steps 4 and C): while cwnd leaves a segment's room above
 * what is in the network (pipe), send the next lost hole, else new data
 * the peer's window takes, else a hole not yet known lost (NextSeg's
 * rules 1, 2, 3). Each pass adds what it sent to pipe, so it ends. */
static void
sack_output(struct worker *w, struct sock *sk, const struct tuple *t, const struct tx_src *src, int fin)
{
	struct sk_tx *tx = sk_tx_of(w, sk);
	struct sb_msg m = { tx->base, w->mss, src->len };
	uint32_t wnd = min_u32(tx->wnd, w->send_wnd), seq;

	while (sb_pipe(&tx->sb, &m, sk->snd_una, sk->snd_nxt) + w->mss <= tx->cwnd && !tx_congested(w)) {
		uint32_t k;

		if (sb_next_seg(&tx->sb, &m, sk->snd_una, 1, &seq)) {
			k = seg_of(w, tx, seq);
		} else if (tx->nxt - tx->base < src->len && seq_ge(tx->nxt, sk->snd_nxt) &&
			   tx->base + min_u32((seg_of(w, tx, tx->nxt) + 1) * w->mss, src->len) - sk->snd_una <= wnd) {
			send_seg(w, sk, tx, t, src, seg_of(w, tx, tx->nxt), fin);
			continue;
		} else if (sb_next_seg(&tx->sb, &m, sk->snd_una, 0, &seq)) {
			k = seg_of(w, tx, seq);
		} else {
			break;
		}
		send_seg(w, sk, tx, t, src, k, fin);
		sb_resent(&tx->sb, tx->base + min_u32((k + 1) * w->mss, src->len));
	}
}

/* An ACK's SACK blocks into the scoreboard; a first block below the ACK
 * (or inside the second) says the peer got something twice (RFC 2883):
 * a retransmission that was not needed. */
static void
sack_input(struct worker *w, struct sock *sk, struct sk_tx *tx, const struct seg *s)
{
	struct sack_opts o;

	sack_parse(s->opt, s->optlen, &o);
	if (o.n == 0)
		return;
	CNT_ADD(w, SACK_RX, o.n);
	if (sack_is_dsack(&o, s->ack))
		CNT(w, SPUR_RT);
	sb_update(&tx->sb, s->ack, sk->snd_nxt, o.b, o.n);
}

int
tx_ack(struct worker *w, struct sock *sk, const struct tuple *t, const struct seg *s,
       const struct tx_src *src, int fin)
{
	struct sk_tx *tx = sk_tx_of(w, sk);
	uint32_t wnd = (uint32_t)s->win << tx->shift, flight = sk->snd_nxt - sk->snd_una;
	int sack = (sk->flags & SKF_SACK) != 0;

	if (sack && s->optlen != 0)
		sack_input(w, sk, tx, s);

	if (s->ack == sk->snd_una) {
		/* RFC 5681 2: a duplicate ACK acknowledges nothing new with
		 * data outstanding, carries no data, no SYN/FIN, and the same
		 * window (else it is a window update). */
		if (flight && s->dlen == 0 && !(s->flags & (TH_SYN | TH_FIN)) && wnd == tx->wnd &&
		    wnd != 0) { /* a closed window is no sign of loss */
			if (tx->dupacks < UINT8_MAX)
				tx->dupacks++;
			if (tx->recovery == TX_SACK) {
				sack_output(w, sk, t, src, fin);
			} else if (!tx->recovery && sack && seq_gt(s->ack, tx->recover) &&
				   (tx->dupacks >= 3 || sb_is_lost(&tx->sb, sk->snd_una, w->mss))) {
				/* RFC 6675 5 step 4: cwnd = ssthresh, then what
				 * the scoreboard says, the first hole first */
				tx->recover = sk->snd_nxt;
				tx->ssthresh = max_u32(flight / 2, 2u * w->mss);
				tx->cwnd = tx->ssthresh;
				tx->sb.high_rxt = sk->snd_una;
				tx->recovery = TX_SACK;
				sack_output(w, sk, t, src, fin);
			} else if (tx->recovery) {
				/* RFC 6582 3.2 step 4: each further one
				 * inflates cwnd by what left the network */
				tx->cwnd = min_u32(tx->cwnd + w->mss, TX_CWND_MAX);
				tx_output(w, sk, t, src, fin);
			} else if (tx->dupacks == 3 && seq_gt(s->ack, tx->recover)) {
				/* steps 2 and 3: fast retransmit of the hole */
				tx->recover = sk->snd_nxt;
				tx->ssthresh = max_u32(flight / 2, 2u * w->mss);
				resend_hole(w, sk, t, src);
				tx->cwnd = tx->ssthresh + 3u * w->mss;
				tx->recovery = TX_NEWRENO;
			}
			return 1;
		}
		tx->wnd = wnd;
		tx_output(w, sk, t, src, fin);
		return 0;
	}
	/* new data acknowledged */
	{
		uint32_t acked = s->ack - sk->snd_una;
		struct rtt_cfg c;

		rtt_cfg_of(w, &c);
		rtt_ack(&tx->rtt, s->ack, w->now_t, &c);
		uint32_t hole_end = tx->base + min_u32((seg_of(w, tx, sk->snd_una) + 1) * w->mss, src->len);

		sk->snd_una = s->ack;
		sk->retries = 0; /* the peer makes progress */
		tx->dupacks = 0;
		if (!seq_lt(s->ack, tx->base + src->len))
			tx->active = 0; /* all of it acknowledged (its FIN aside) */
		tx->wnd = wnd;
		flight = sk->snd_nxt - sk->snd_una;
		if (tx->recovery) {
			if (seq_le(tx->recover, s->ack)) {
				/* step 3 (full ACK), option 1: deflate (after a
				 * SACK recovery cwnd is ssthresh already) */
				tx->cwnd = min_u32(tx->ssthresh, max_u32(flight, w->mss) + w->mss);
				tx->recovery = 0;
			} else if (tx->recovery == TX_SACK) {
				/* RFC 6675 5 step C: a partial ACK is one more
				 * chance to send what the scoreboard says */
				sack_output(w, sk, t, src, fin);
				return 0;
			} else {
				/* partial ACK: the next hole at once; deflate by
				 * what was acknowledged, add back one mss when
				 * that was at least one. A peer that acknowledges
				 * exactly the hole we resent kept nothing after
				 * it (our own client drops out-of-order data):
				 * resending one hole per round trip would leave
				 * all it dropped to the timer, so go back to
				 * snd_una and send in order from there. */
				if (tx->recovery == TX_GO_BACK)
					; /* in order from there already */
				else if (s->ack == hole_end) {
					tx->nxt = sk->snd_una;
					tx->recovery = TX_GO_BACK;
				} else
					resend_hole(w, sk, t, src);
				tx->cwnd = tx->cwnd > acked ? tx->cwnd - acked : 0;
				if (acked >= w->mss)
					tx->cwnd += w->mss;
				tx->cwnd = max_u32(tx->cwnd, w->mss);
			}
		} else if (tx->cwnd < tx->ssthresh) {
			/* slow start: RFC 5681 eq. 2 (at most one mss per ACK) */
			tx->cwnd = min_u32(tx->cwnd + min_u32(acked, w->mss), TX_CWND_MAX);
		} else {
			/* congestion avoidance: eq. 3, one mss per cwnd acknowledged */
			tx->cwnd = min_u32(tx->cwnd + max_u32(1, (uint32_t)w->mss * w->mss / tx->cwnd),
					   TX_CWND_MAX);
		}
	}
	tx_output(w, sk, t, src, fin);
	return 0;
}

void
tx_arm_rt(struct worker *w, struct sock *sk, uint32_t idx)
{
	struct rtt_cfg c;

	if (!tx_active(w, sk)) {
		tl_add(w, sk, idx, TL_RT);
		return;
	}
	rtt_cfg_of(w, &c);
	tl_add_at(w, sk, idx, TL_RT, w->now_t + rtt_rto(&sk_tx_of(w, sk)->rtt, &c));
}

int
tx_persist(const struct worker *w, const struct sock *sk)
{
	return w->sktx != NULL && sk_tx_of(w, sk)->wnd == 0;
}

void
tx_timer(struct worker *w, struct sock *sk, const struct tuple *t, const struct tx_src *src, int fin)
{
	struct sk_tx *tx = sk_tx_of(w, sk);
	uint32_t flight = sk->snd_nxt - sk->snd_una;

	if (tx->wnd == 0) {
		/* A zero window: probe with an old sequence number, which the
		 * peer answers with an ACK carrying its window (what Linux's
		 * tcp_xmit_probe_skb does; our segments cannot be cut to one
		 * byte, their sums are per whole segment). */
		pkt_tcp(w, t, sk->snd_una - 1, sk->rcv_nxt, TH_ACK, NULL);
		sk_ack_sent(sk);
		return;
	}
	{
		struct rtt_cfg c;

		rtt_cfg_of(w, &c);
		rtt_backoff(&tx->rtt, &c); /* RFC 6298 5.5 */
	}
	tx->ssthresh = max_u32(flight / 2, 2u * w->mss);
	tx->cwnd = w->mss;
	tx->recovery = 0;
	tx->dupacks = 0;
	tx->recover = sk->snd_nxt; /* RFC 6582 3.2 step 1 after a timeout */
	tx->nxt = sk->snd_una;
	/* what the peer SACKed is not sent again, unless this is the second
	 * timeout in a row: a peer may drop what it SACKed (RFC 2018 8) */
	if (sk->retries > 1)
		sb_reset(&tx->sb, sk->snd_una);
	tx->sb.high_rxt = sk->snd_una;
	tx_output(w, sk, t, src, fin);
}
