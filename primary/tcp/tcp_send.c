/* SPDX-License-Identifier: BSD-3-Clause
 * The sender of messages over several segments (tcp_send.h).
 */
#include "net/lat.h"
#include "tcp/tcp_common.h"
#include "tcp/tcp_send.h"
#include "tcp/tcp_send_int.h"

static void
src_msg_seg(const struct snd_src *src, uint32_t k, uint32_t mss, struct msg *out)
{
	msg_segment(src->ctx, mss, k, out);
}

void
snd_src_msg(struct snd_src *src, const struct msg *m)
{
	src->len = m->len;
	src->seg = src_msg_seg;
	src->ctx = m;
}

void
snd_open(const struct netw *nw, const struct sock *sk, struct sk_snd *snd, const struct seg *syn,
	int ws_ok)
{
	memset(snd, 0, sizeof(*snd));
	/* RFC 7323 2.2: scaling only when both SYNs carried the option */
	snd->shift = ws_ok && syn->ws != SEG_NO_WS ? syn->ws : 0;
	snd->wnd = syn->win; /* a SYN's window is never scaled */
	/* RFC 6928: min(10 mss, max(2 mss, 14600)), ten segments of 1460 */
	snd->cwnd = min_u32(10u * nw->mss, max_u32(2u * nw->mss, 14600));
	snd->ssthresh = UINT32_MAX; /* RFC 5681 3.1: arbitrarily high */
	snd->recover = sk->snd_una;
	snd->nxt = sk->snd_nxt;
	snd->base = sk->snd_nxt;
	{
		struct rtt_cfg c;

		rtt_cfg_of(nw, &c);
		rtt_init(&snd->rtt, &c);
	}
}

static inline uint32_t
fin_sent(const struct sock *sk, const struct sk_snd *snd, const struct snd_src *src)
{
	return sk->snd_nxt - snd->base == src->len + 1;
}

/* Send the message's bytes [seq, seq + len), within one segment of the
 * source (again or for the first time); the last byte carries the FIN
 * when it was sent before or fin asks for it now. A whole segment has its
 * sum precomputed; a part of one (a window smaller than a segment, or
 * the rest of a segment after such a part) is summed here. */
static void
send_part(struct netw *nw, struct sock *sk, struct sk_snd *snd, const struct tuple *t,
	  const struct snd_src *src, uint32_t seq, uint32_t len, int fin)
{
	uint32_t k = seg_of(nw, snd, seq), off = seq - snd->base - k * nw->mss, end = seq + len;
	struct msg seg;
	uint8_t f = TH_ACK;

	src->seg(src, k, nw->mss, &seg);
	if (off != 0 || len != seg.len) {
		seg.data += off;
		seg.len = len;
		if (!seg.sum_on_copy)
			seg.sum = pkt_sum(seg.data, len);
	}
	if (end - snd->base == src->len) {
		f |= TH_PSH;
		if (fin_sent(sk, snd, src) || fin)
			f |= TH_FIN;
	}
	/* test_tx_drop: a lossy path toward a peer we cannot make lossy */
	if (__builtin_expect(nw->tcp->snd_drop.every != 0, 0) && ++nw->tcp->snd_drop.n >= nw->tcp->snd_drop.every)
{
		nw->tcp->snd_drop.n = 0;
		CNT(&nw->cnt, TEST_DROP);
	} else
		tcp_out(nw, t, seq, sk->rcv_nxt, f, sk_win(nw, sk), &seg);
	sk_ack_sent(sk);
	if (seq_lt(seq, sk->snd_nxt)) {
		CNT(&nw->cnt, PUSH_RT);
		rtt_resent(&snd->rtt); /* Karn: no sample from what went twice */
	}
	if (end - snd->base == src->len)
		snd->sent_all = 1;
	if (seq_gt(end, sk->snd_nxt)) { /* new bytes */
		CNT_ADD(&nw->cnt, GOOD_TX, (uint64_t)(end - sk->snd_nxt) * 8);
		sk->snd_nxt = end;
		rtt_sent(&snd->rtt, end, nw->now_t);
	}
	if (seq_gt(end, snd->nxt))
		snd->nxt = end;
	if ((f & TH_FIN) && sk->snd_nxt == end) { /* the FIN for the first time */
		sk_fin_sent(sk);
		snd->nxt = sk->snd_nxt;
		CNT(&nw->cnt, FIN_TX);
	} else if (f & TH_FIN) {
		CNT(&nw->cnt, FIN_RT);
		snd->nxt = end + 1;
	}
}


/* snd_output, the congestion window raised by extra bytes (limited
 * transmit, snd_ack). */
static uint32_t
output_over(struct netw *nw, struct sock *sk, const struct tuple *t, const struct snd_src *src, int fin,
	    uint32_t extra)
{
	struct sk_snd *snd = sk_snd_of(nw, sk);
	uint32_t n = 0, limit = min_u32(min_u32(snd->cwnd + extra, snd->wnd), nw->tcp->send_wnd);

	if (seq_lt(snd->nxt, sk->snd_una))
		snd->nxt = sk->snd_una;
	while (snd->nxt - snd->base < src->len) {
		uint32_t k = seg_of(nw, snd, snd->nxt);
		uint32_t end = snd->base + min_u32((k + 1) * nw->mss, src->len);
		uint32_t used = snd->nxt - sk->snd_una, len = min_u32(end - snd->nxt, sk->snd_mss);

		/* After a timeout: what the peer holds is not sent again */
		if (unlikely(snd->sb.n != 0) && seq_lt(snd->nxt, sk->snd_nxt) &&
		    sb_sacked(&snd->sb, snd->nxt, end)) {
			snd->nxt = end;
			continue;
		}
		if (used + len > limit) {
			/* The rest of the segment does not fit. The peer's window
			 * the limit: send what it allows when that is at least
			 * half its window, or anything with nothing in flight
			 * (RFC 9293 3.8.6.2.1, the sender's SWS avoidance).
			 * Nothing in flight and a smaller send_window: the
			 * segment whole rather than wait forever. Else (a zero
			 * window: the persist timer's) wait for an ACK. */
			uint32_t room = limit > used ? limit - used : 0;

			if (snd->wnd == limit && room != 0 && (used == 0 || room >= snd->wnd / 2))
				len = room;
			else if (used != 0 || snd->wnd == 0)
				break;
		}
		/* The device is not keeping up: the rest waits for the next
		 * ACK (something is in flight, so one will come) rather than
		 * overflow the TX queue into dropTx and retransmissions. */
		if (used != 0 && tx_congested(&nw->txq))
			break;
		send_part(nw, sk, snd, t, src, snd->nxt, len, fin);
		n++;
	}
	return n;
}

uint32_t
snd_output(struct netw *nw, struct sock *sk, const struct tuple *t, const struct snd_src *src, int fin)
{
	return output_over(nw, sk, t, src, fin, 0);
}

uint32_t
snd_begin(struct netw *nw, struct sock *sk, const struct tuple *t, const struct snd_src *src, int fin)
{
	struct sk_snd *snd = sk_snd_of(nw, sk);

	snd->base = snd->nxt = sk->snd_nxt;
	snd->dupacks = 0;
	snd->active = 1;
	snd->sent_all = 0;
	sb_reset(&snd->sb, sk->snd_nxt);
	return snd_output(nw, sk, t, src, fin);
}

/* The end of the hole at snd_una that resend_hole sends: to the end of
 * its source segment, at most the peer's MSS. */
static inline uint32_t
hole_end(const struct netw *nw, const struct sock *sk, const struct sk_snd *snd,
	 const struct snd_src *src)
{
	uint32_t seg_end = snd->base + min_u32((seg_of(nw, snd, sk->snd_una) + 1) * nw->mss, src->len);

	return sk->snd_una + min_u32(seg_end - sk->snd_una, sk->snd_mss);
}

/* Send again the hole at snd_una, whatever the windows. */
static void
resend_hole(struct netw *nw, struct sock *sk, const struct tuple *t, const struct snd_src *src)
{
	struct sk_snd *snd = sk_snd_of(nw, sk);

	if (sk->snd_una - snd->base < src->len)
		send_part(nw, sk, snd, t, src, sk->snd_una, hole_end(nw, sk, snd, src) - sk->snd_una, 0);
}

/* Send from seq (a hole the scoreboard names, or new data) to the end
 * of its source segment, at most the peer's MSS. Returns that end. */
uint32_t
snd_send_from(struct netw *nw, struct sock *sk, struct sk_snd *snd, const struct tuple *t,
	      const struct snd_src *src, uint32_t seq, int fin)
{
	uint32_t seg_end = snd->base + min_u32((seg_of(nw, snd, seq) + 1) * nw->mss, src->len);
	uint32_t end = seq + min_u32(seg_end - seq, sk->snd_mss);

	send_part(nw, sk, snd, t, src, seq, end - seq, fin);
	return end;
}

/* RFC 6675 5 (steps 4 and C): while cwnd leaves a segment's room above
 * what is in the network (pipe), send the next lost hole, else new data
 * the peer's window takes, else a hole not yet known lost (NextSeg's
 * rules 1, 2, 3). Each pass adds what it sent to pipe, so it ends. */
static void
sack_output(struct netw *nw, struct sock *sk, const struct tuple *t, const struct snd_src *src, int fin)
{
	struct sk_snd *snd = sk_snd_of(nw, sk);
	struct sb_msg m = { snd->base, nw->mss, src->len };
	uint32_t wnd = min_u32(snd->wnd, nw->tcp->send_wnd), seq;

	while (sb_pipe(&snd->sb, &m, sk->snd_una, sk->snd_nxt) + nw->mss <= snd->cwnd &&
	       !tx_congested(&nw->txq)) {
		if (sb_next_seg(&snd->sb, &m, sk->snd_una, 1, &seq)) {
			; /* rule 1: a lost hole */
		} else if (snd->nxt - snd->base < src->len && seq_ge(snd->nxt, sk->snd_nxt) &&
			   snd->base + min_u32((seg_of(nw, snd, snd->nxt) + 1) * nw->mss, src->len) -
					   sk->snd_una <= wnd) {
			snd_send_from(nw, sk, snd, t, src, snd->nxt, fin); /* rule 2: new data */
			continue;
		} else if (!sb_next_seg(&snd->sb, &m, sk->snd_una, 0, &seq)) {
			break;
		}
		sb_resent(&snd->sb, snd_send_from(nw, sk, snd, t, src, seq, fin));
		snd->sb.rxt_fence = sk->snd_nxt;
	}
}

/* RFC 6675 5 step 4: the recovery begins (cwnd = ssthresh), then what
 * the scoreboard says, the first hole first. */
static void
sack_enter(struct netw *nw, struct sock *sk, struct sk_snd *snd, const struct tuple *t,
	   const struct snd_src *src, int fin)
{
	snd->recover = sk->snd_nxt;
	snd->ssthresh = snd_half(nw, sk, snd);
	snd->cwnd = snd->ssthresh;
	snd->sb.high_rxt = sk->snd_una;
	snd->sb.rxt_acked = 0;
	snd->recovery = SND_SACK;
	snd->lossy = 1;
	sack_output(nw, sk, t, src, fin);
}

/* Whether the hole at snd_una is lost: RFC 6675's IsLost (DupThresh
 * segments SACKed above it), or RFC 5827's early retransmit at a
 * message's tail, where with nothing new to send and fewer than four
 * segments out DupThresh never comes: all but one of them SACKed. (955
 * of the 997 timeouts of a bench run of the loss scenario had at most
 * three segments out.) */
static int
sack_hole_lost(const struct netw *nw, const struct sock *sk, const struct sk_snd *snd,
	       const struct snd_src *src)
{
	uint32_t end = snd->base + src->len, out, sacked = 0;

	if (sb_is_lost(&snd->sb, sk->snd_una, nw->mss))
		return 1;
	if (seq_lt(sk->snd_nxt, end) || !seq_lt(sk->snd_una, end))
		return 0; /* new data to send, or only the FIN out */
	out = (end - sk->snd_una + nw->mss - 1) / nw->mss;
	for (uint32_t i = 0; i < snd->sb.n; i++)
		sacked += (snd->sb.r[i].end - snd->sb.r[i].start + nw->mss - 1) / nw->mss;
	return out < SACK_DUPTHRESH + 1 && out >= 2 && sacked >= out - 1;
}

/* A retransmission lost in its turn. RFC 6675 sends each hole once per
 * recovery, so a lost resend waited for the timer: a quarter of the
 * 1 MB answers through test_rx_drop 100 did (1 s each, the RTO's floor),
 * 266 of the 1,190 timeouts of one bench run. The order of transmission
 * says it sooner (RFC 8985's idea, without a time per segment): the
 * peer's SACKs of DupThresh segments sent after the last retransmission
 * (above rxt_fence) say that every resend before it has had the time to
 * arrive, so a hole below high_rxt still missing is lost again, and
 * NextSeg may send it once more. Reordering makes it a needless resend
 * at worst, which the peer's D-SACK reports (spurRt). */
static void
sack_rxt_lost(const struct netw *nw, const struct sock *sk, struct sk_snd *snd)
{
	if (seq_gt(snd->sb.high_rxt, sk->snd_una) && sb_is_lost(&snd->sb, snd->sb.rxt_fence, nw->mss))
		snd->sb.high_rxt = sk->snd_una;
}

/* The rest of the message unSACKed after a partial ACK of a
 * retransmission (the hole's resend arrived, nothing above it did):
 * RFC 6675 never calls it lost, as nothing above it is SACKed, and it
 * waited for the RTO (the last segment of an answer lost with one
 * before it: 80 of the 1,048 timeouts of a loss-scenario run). RFC 8985
 * 6.2 does: it was sent before that retransmission, which was
 * delivered (in a recovery, with no reordering seen, its reordering
 * window is 0): from the first partial ACK of a retransmission on
 * (sb.rxt_acked), once nothing above snd_una is SACKed, its first
 * segment goes again, if the congestion window has room once it is out
 * of the pipe; the next partial ACK says the same of the next. */
static void
sack_rack_tail(struct netw *nw, struct sock *sk, struct sk_snd *snd, const struct tuple *t,
	       const struct snd_src *src, int fin)
{
	struct sb_msg m = { snd->base, nw->mss, src->len };
	uint32_t end = snd->base + src->len, pipe;

	if (snd->sb.n != 0 || !seq_lt(sk->snd_una, snd->recover) || !seq_lt(sk->snd_una, end) ||
	    seq_gt(snd->sb.high_rxt, sk->snd_una))
		return; /* SACKed data above (RFC 6675's), only the FIN, or resent already */
	pipe = sb_pipe(&snd->sb, &m, sk->snd_una, sk->snd_nxt);
	if (pipe - min_u32(pipe, hole_end(nw, sk, snd, src) - sk->snd_una) + nw->mss > snd->cwnd)
		return;
	sb_resent(&snd->sb, snd_send_from(nw, sk, snd, t, src, sk->snd_una, fin));
	snd->sb.rxt_fence = sk->snd_nxt;
}

/* An ACK's SACK blocks into the scoreboard; a first block below the ACK
 * (or inside the second) says the peer got something twice (RFC 2883):
 * a retransmission that was not needed. */
static void
sack_input(struct netw *nw, struct sock *sk, struct sk_snd *snd, const struct seg *s)
{
	struct sack_opts o;

	sack_parse(s->opt, s->optlen, &o);
	if (o.n == 0) {
		/* An ACK without blocks still takes what is below it off the
		 * board: a range left below snd_una counted as in flight
		 * (sb_pipe from its end), so a SACK recovery whose last
		 * partial ACK had no blocks sent nothing and waited for the
		 * RTO (80 of the 1,048 timeouts of a loss-scenario run) */
		sb_update(&snd->sb, s->ack, sk->snd_nxt, NULL, 0);
		return;
	}
	CNT_ADD(&nw->cnt, SACK_RX, o.n);
	if (sack_is_dsack(&o, s->ack))
		CNT(&nw->cnt, SPUR_RT);
	sb_update(&snd->sb, s->ack, sk->snd_nxt, o.b, o.n);
}

int
snd_ack(struct netw *nw, struct sock *sk, const struct tuple *t, const struct seg *s,
       const struct snd_src *src, int fin)
{
	struct sk_snd *snd = sk_snd_of(nw, sk);
	uint32_t wnd = (uint32_t)s->win << snd->shift, flight = sk->snd_nxt - sk->snd_una;
	int sack = (sk->flags & SKF_SACK) != 0;

	uint32_t una = sk->snd_una, high_rxt = snd->sb.high_rxt;

	if (sack && (s->optlen != 0 || snd->sb.n != 0))
		sack_input(nw, sk, snd, s);

	if (s->ack == sk->snd_una) {
		/* RFC 5681 2: a duplicate ACK acknowledges nothing new with
		 * data outstanding, carries no data, no SYN/FIN, and the same
		 * window (else it is a window update). */
		if (flight && s->dlen == 0 && !(s->flags & (TH_SYN | TH_FIN)) && wnd == snd->wnd &&
		    wnd != 0) { /* a closed window is no sign of loss */
			if (snd->dupacks < UINT8_MAX)
				snd->dupacks++;
			if (snd->recovery == SND_SACK) {
				sack_rxt_lost(nw, sk, snd);
				sack_output(nw, sk, t, src, fin);
			} else if (!snd->recovery && sack && seq_ge(s->ack, snd->recover) &&
				   (snd->dupacks >= 3 || sack_hole_lost(nw, sk, snd, src))) {
				/* RFC 6675 5.1: a new recovery once HighACK is
				 * at least RecoveryPoint (not above it: a hole
				 * right at the last recovery's end, the first
				 * segment it sent, would wait for the timer) */
				sack_enter(nw, sk, snd, t, src, fin);
			} else if (snd->recovery) {
				/* RFC 6582 3.2 step 4: each further one
				 * inflates cwnd by what left the network, which
				 * is at most what was in flight when recovery
				 * began: more duplicate ACKs than that are not
				 * segments leaving (a peer that sends thousands
				 * would have a partial ACK then resend the
				 * whole answer from the inflated window). */
				snd->cwnd = min_u32(snd->cwnd + nw->mss,
						   snd->ssthresh + 3u * nw->mss + (snd->recover - sk->snd_una));
				snd_output(nw, sk, t, src, fin);
			} else if (snd->dupacks == 3 && seq_gt(s->ack, snd->recover)) {
				/* steps 2 and 3: fast retransmit of the hole */
				snd->recover = sk->snd_nxt;
				snd->ssthresh = snd_half(nw, sk, snd);
				resend_hole(nw, sk, t, src);
				snd->cwnd = snd->ssthresh + 3u * nw->mss;
				snd->recovery = SND_NEWRENO;
				snd->lossy = 1;
			} else if (!snd->recovery && snd->dupacks < 3) {
				/* RFC 3042 limited transmit: a new segment on
				 * each of the first two, up to cwnd + 2 mss out,
				 * so that a window of three or four segments
				 * still brings DupThresh SACKed segments past a
				 * hole: without it a loss there waited for the
				 * RTO (915 of the 1,048 timeouts of a
				 * loss-scenario run had at most 3 segments out).
				 * NewReno too: three duplicate ACKs need three
				 * segments past the hole, SACK or not. */
				output_over(nw, sk, t, src, fin, (uint32_t)snd->dupacks * nw->mss);
			}
			return 1;
		}
		snd->wnd = wnd;
		if (wnd == 0)
			sk->retries = 0; /* the peer answers a probe: alive, its window shut */
		snd_output(nw, sk, t, src, fin);
		return 0;
	}
	/* new data acknowledged */
	{
		uint32_t acked = s->ack - sk->snd_una;
		uint32_t hole = hole_end(nw, sk, snd, src);
		struct rtt_cfg c;

		rtt_cfg_of(nw, &c);
		/* The sRTT histogram takes the estimate at each sample (one
		 * per round trip): a keepalive connection shows in every
		 * second's figures, not once at its end (dperf-ctl(8)). */
		if (rtt_ack(&snd->rtt, s->ack, nw->now_t, &c))
			lat_add(nw, DP_LAT_SRTT, (uint64_t)rtt_srtt(&snd->rtt) * nw->tsc_per_ms / TL_PER_MS);

		sk->snd_una = s->ack;
		sk->retries = 0; /* the peer makes progress */
		snd->dupacks = 0;
		snd->probe_out = 0;
		if (!seq_lt(s->ack, snd->base + src->len))
			snd->active = 0; /* all of it acknowledged (its FIN aside) */
		snd->wnd = wnd;
		flight = sk->snd_nxt - sk->snd_una;
		if (snd->recovery) {
			if (seq_le(snd->recover, s->ack)) {
				/* The end of the recovery: RFC 6675's at
				 * ssthresh; NewReno's deflated to the flight
				 * (RFC 6582 3.2 step 3, option 1), which after a
				 * SACK recovery is often nothing: two segments,
				 * and the next loss a timeout. */
				if (snd->recovery != SND_SACK)
					snd->cwnd = min_u32(snd->ssthresh, max_u32(flight, nw->mss) + nw->mss);
				else
					snd->cwnd = snd->ssthresh;
				snd->recovery = 0;
			} else if (snd->recovery == SND_SACK) {
				/* RFC 6675 5 step C: a partial ACK is one more
				 * chance to send what the scoreboard says */
				sack_rxt_lost(nw, sk, snd);
				if (seq_lt(una, high_rxt))
					snd->sb.rxt_acked = 1;
				if (snd->sb.rxt_acked)
					sack_rack_tail(nw, sk, snd, t, src, fin);
				sack_output(nw, sk, t, src, fin);
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
				if (snd->recovery == SND_GO_BACK)
					; /* in order from there already */
				else if (s->ack == hole) {
					snd->nxt = sk->snd_una;
					snd->recovery = SND_GO_BACK;
				} else
					resend_hole(nw, sk, t, src);
				snd->cwnd = snd->cwnd > acked ? snd->cwnd - acked : 0;
				if (acked >= nw->mss)
					snd->cwnd += nw->mss;
				snd->cwnd = max_u32(snd->cwnd, nw->mss);
			}
		} else if (sack && flight != 0 && seq_ge(s->ack, snd->recover) &&
			   sack_hole_lost(nw, sk, snd, src)) {
			/* An ACK of new data whose SACK blocks already say the
			 * next hole is lost (a delayed ACK of the segments
			 * before the hole, then the peer's SACKs): a
			 * duplicate ACK would say it no better (RFC 6675 5
			 * asks for one; we do not wait for three more
			 * segments to arrive past the hole, nor, at the end
			 * of a message, for the timer). */
			sack_enter(nw, sk, snd, t, src, fin);
			return 0;
		} else if (snd->cwnd < snd->ssthresh) {
			/* slow start: RFC 5681 eq. 2 (at most one mss per ACK) */
			snd->cwnd = min_u32(snd->cwnd + min_u32(acked, nw->mss), SND_CWND_MAX);
		} else {
			/* congestion avoidance: one mss per cwnd acknowledged,
			 * by the bytes each ACK covers (RFC 5681 3.1's
			 * RECOMMENDED byte counting, as a share: no count
			 * kept). Eq. 3's mss x mss / cwnd per ACK grows half
			 * as fast against a peer that acknowledges every
			 * second segment, and under 1% loss left the window
			 * at Reno's sqrt(8 / 3bp), b = 2: about 12 segments,
			 * the lossy runs window-bound when the box stretches
			 * the round trip (docs/performance.md). */
			snd->cwnd = min_u32(snd->cwnd + max_u32(1, (uint32_t)((uint64_t)nw->mss *
									    min_u32(acked, snd->cwnd) /
									    snd->cwnd)),
					   SND_CWND_MAX);
		}
	}
	snd_output(nw, sk, t, src, fin);
	return 0;
}
