/* SPDX-License-Identifier: BSD-3-Clause
 * One TCP input path and one retransmission-timer path for both roles.
 *
 * tcp_input() and tcp_timer_rt() are written once and inlined into two
 * thin wrappers each (tcp_client.c, tcp_server.c) with the role a
 * `static const struct tcp_role`: the compiler folds its side and calls
 * its steps directly, so the per-packet path has no branch on the role.
 * The role's own steps are what differ: how a connection opens (the
 * client's SYN_SENT, the server's SYN), what an established connection
 * does with data (read a response, answer a request), and which message
 * the sender resends.
 *
 * Shared, in this order (RFC 9293 3.10.7): lookup, RST, the opening
 * step, a segment on a closed socket, a SYN on a synchronized one, the
 * ACK, the sender's windows, SYN_RCVD's end, in-order data and FIN, then
 * the state's step.
 */
#ifndef DPERF_TCP_INPUT_H
#define DPERF_TCP_INPUT_H

#include <rte_branch_prediction.h>
#include <rte_common.h>

#include "tcp/tcp_common.h"
#include "tcp/tcp_send.h"

enum tcp_side { TCP_CLIENT, TCP_SERVER };

/* RFC 5961 5.2's MAX.SND.WND: an ACK this far below snd_una is too old
 * to be a reordered duplicate. We do not keep the largest window each
 * peer offered (a socket is 64 bytes); the unscaled window field's
 * largest value stands for it. */
#define TCP_MAX_SND_WND 65535u

struct tcp_role {
	/* The side also says how FIN_WAIT_2 waits for the peer's FIN
	 * (role_fin_wait below). */
	enum tcp_side side;
	/* A segment that may open the connection (server: any SYN; client:
	 * anything in SYN_SENT): the role takes it whole. */
	void (*open)(struct netw *nw, struct sock *sk, uint32_t idx, const struct seg *s,
		     const struct tuple *t);
	/* ESTABLISHED, an acceptable segment whose data and FIN (if any)
	 * rcv_nxt and SKF_FIN_RCVD already count. */
	void (*established)(struct netw *nw, struct sock *sk, uint32_t idx, const struct tuple *t,
			    const struct seg *s);
	/* Data that arrives after our FIN. Returns nonzero when it ended the
	 * connection. NULL: acknowledged, not read. */
	int (*late_data)(struct netw *nw, struct sock *sk, const struct tuple *t, const struct seg *s);
	/* Whether a message over several segments is in progress (tcp_send.h);
	 * if so, its source and whether our FIN goes with its last byte. */
	int (*sending)(const struct netw *nw, const struct sock *sk, struct snd_src *src, int *fin);
	/* The message a retransmission sends again from snd_una. */
	const struct msg *(*resent)(const struct netw *nw, const struct sock *sk);
	/* A connection ends (reset, retries out): count what it leaves
	 * unfinished beside skErr (client: the response). NULL: nothing. */
	void (*unfinished)(struct netw *nw, const struct sock *sk);
};

/* How FIN_WAIT_2 waits for the peer's FIN: a client on the
 * retransmission timer, which retries it; a server on the idle timeout. */
static __rte_always_inline enum sk_list
role_fin_wait(const struct tcp_role *role)
{
	return role->side == TCP_CLIENT ? TL_RT : TL_IDLE;
}

/* An RST (RFC 9293 3.10.7.4 first, RFC 5961 3.2: only the exact next
 * sequence number is acceptable; in SYN_SENT, the one acknowledging our
 * SYN). A reset with a request unanswered, or before the connection
 * opened, is a client's error; a server's client may reset when done
 * (fast_close). */
static __rte_always_inline void
tcp_rst_input(struct netw *nw, struct sock *sk, const struct seg *s, const struct tcp_role *role)
{
	int ok;

	CNT(&nw->cnt, RST_RX);
	if (role->side == TCP_CLIENT && sk->state == SK_SYN_SENT)
		ok = (s->flags & TH_ACK) && s->ack == sk->snd_nxt;
	else
		ok = sk->state != SK_CLOSED && s->seq == sk->rcv_nxt;
	if (!ok) {
		CNT(&nw->cnt, TCP_DROP);
		return;
	}
	if (role->side == TCP_CLIENT && (sk->inflight > 0 || sk->state == SK_SYN_SENT))
		CNT(&nw->cnt, SK_ERR);
	if (role->unfinished)
		role->unfinished(nw, sk);
	sk_closed(nw, sk);
}

/* The ACK field (RFC 9293 3.10.7.4 fifth, RFC 5961 5.2), the same for
 * both roles:
 *   no ACK bit: dropped;
 *   above snd_nxt (acknowledges what we never sent): our ACK, dropped;
 *   below snd_una - MAX.SND.WND (too old to be a reordered duplicate):
 *     our ACK, dropped;
 *   below snd_una: a duplicate, ignored; its data still counts;
 *   snd_una to snd_nxt: acceptable, moves snd_una (and the sender).
 * Returns nonzero when the segment is done with. */
static __rte_always_inline int
tcp_ack_input(struct netw *nw, struct sock *sk, uint32_t idx, const struct seg *s,
	      const struct tuple *t, const struct tcp_role *role)
{
	struct snd_src src;
	int fin = 0;

	if (unlikely(!(s->flags & TH_ACK))) {
		CNT(&nw->cnt, TCP_DROP);
		return 1;
	}
	if (unlikely(seq_gt(s->ack, sk->snd_nxt) || seq_lt(s->ack, sk->snd_una - TCP_MAX_SND_WND))) {
		sk_ctl(nw, t, sk, TH_ACK);
		CNT(&nw->cnt, TCP_DROP);
		return 1;
	}
	if (unlikely(seq_lt(s->ack, sk->snd_una)))
		return 0; /* an old duplicate: ignored */
	if (unlikely(role->sending(nw, sk, &src, &fin))) {
		uint32_t una = sk->snd_una;

		if (snd_ack(nw, sk, t, s, &src, fin))
			return 1; /* a duplicate ACK (RFC 5681 2: it carries no data) */
		if (sk->snd_una != una || snd_active(nw, sk))
			snd_arm_rt(nw, sk, idx); /* RFC 6298 5.3: restart */
	} else if (seq_gt(s->ack, sk->snd_una)) {
		sk->snd_una = s->ack;
		sk->retries = 0; /* the peer makes progress */
	}
	return 0;
}

/* What the state does with an acceptable segment whose data and FIN (if
 * any) rcv_nxt and SKF_FIN_RCVD already count. */
static __rte_always_inline void
tcp_state_input(struct netw *nw, struct sock *sk, uint32_t idx, const struct tuple *t,
		const struct seg *s, const struct tcp_role *role)
{
	switch (sk->state) {
	case SK_ESTABLISHED:
		role->established(nw, sk, idx, t, s);
		break;
	case SK_FIN_WAIT_1:
	case SK_FIN_WAIT_2:
	case SK_LAST_ACK:
		if (role->late_data && s->dlen > 0 && role->late_data(nw, sk, t, s))
			break;
		sk_closing_input(nw, sk, idx, t, role_fin_wait(role));
		break;
	default:
		break;
	}
}

/* The connection holds segments out of order (tcp_ooo.h): those that now
 * continue the stream go through the state as if they arrived in order,
 * then our ACK goes at once (RFC 5681 4.2: a segment that fills a gap),
 * with SACK blocks if segments are still held. After the peer's FIN
 * nothing held can continue the stream: all of it goes back. */
static __rte_noinline void
tcp_held_input(struct netw *nw, struct sock *sk, uint32_t idx, const struct tuple *t,
	       const struct seg *s, const struct tcp_role *role)
{
	struct seg h = *s;
	struct ooo_out o;
	int filled = 0;

	if (sk->flags & SKF_FIN_RCVD) {
		sk_release_held(nw, sk);
		return;
	}
	h.flags = TH_ACK;
	h.opt = NULL;
	h.optlen = 0;
	h.pkt = NULL;
	while (sk->ooo != 0 && ooo_pop(nw->tcp->ooo, &sk->ooo, sk->rcv_nxt, &o)) {
		h.seq = o.seq;
		h.data = pkt_held(o.seg, o.off);
		h.dlen = o.len;
		sk->rcv_nxt += o.len;
		CNT_ADD(&nw->cnt, GOOD_RX, (uint64_t)o.len * 8);
		tcp_state_input(nw, sk, idx, t, &h, role); /* may end the connection (and the queue) */
		pkt_unhold(nw, o.seg);
		filled = 1;
	}
	if ((filled || sk->ooo != 0) && (sk->flags & SKF_ACK_OWED) && sk->state != SK_CLOSED)
		sk_ctl(nw, t, sk, TH_ACK);
}

static __rte_always_inline void
tcp_input(struct netw *nw, const struct seg *s, const struct tcp_role *role)
{
	/* a server's index holds its address (one of its pools'); a client
	 * socket's server is its kind's (sock_table.h) */
	uint64_t idx = role->side == TCP_CLIENT ? sk_index_client(&nw->skt, s->dip, s->dport, s->sport)
						: sk_index_server(&nw->skt, s->dip, s->sip, s->sport, s->dport);
	uint8_t flags = s->flags;
	struct tuple t;
	struct sock *sk;

	seg_tuple(s, &t);
	if (unlikely(idx == SK_NONE)
	    || (role->side == TCP_CLIENT && unlikely(s->sip != sk_srv_ip(&nw->skt, &nw->skt.sk[idx])))) {
		tcp_unknown(nw, &t, s);
		return;
	}
	sk = &nw->skt.sk[idx];
	if (flags & TH_SYN)
		CNT(&nw->cnt, SYN_RX);
	if (flags & TH_FIN)
		CNT(&nw->cnt, FIN_RX);
	if (unlikely(flags & TH_RST)) {
		tcp_rst_input(nw, sk, s, role);
		return;
	}
	if (role->side == TCP_SERVER ? (flags & TH_SYN) != 0 : sk->state == SK_SYN_SENT) {
		role->open(nw, sk, (uint32_t)idx, s, &t);
		return;
	}
	if (unlikely(sk->state == SK_CLOSED)) {
		tcp_unknown(nw, &t, s);
		return;
	}
	if (unlikely(flags & TH_SYN)) {
		/* A SYN on a synchronized connection: the same one again means
		 * our ACK of it was lost. */
		if (s->seq + 1 == sk->rcv_nxt)
			sk_ctl(nw, &t, sk, TH_ACK);
		CNT(&nw->cnt, TCP_DROP);
		return;
	}
	if (tcp_ack_input(nw, sk, (uint32_t)idx, s, &t, role))
		return;
	if (role->side == TCP_SERVER && sk->state == SK_SYN_RCVD) {
		if (sk->snd_una != sk->snd_nxt) { /* not the ACK of our SYN */
			CNT(&nw->cnt, TCP_DROP);
			return;
		}
		sk->state = SK_ESTABLISHED;
		/* Waiting for the request now: on the idle list, so a client
		 * that never sends it (or only part of it) does not hold the
		 * socket forever. Found by fuzz_rx. */
		tl_add(nw, sk, (uint32_t)idx, TL_IDLE);
	}
	if (s->dlen > 0 || (flags & TH_FIN)) {
		if (s->seq != sk->rcv_nxt) {
			sk_rcv_not_next(nw, sk, &t, s);
			return;
		}
		sk->rcv_nxt += s->dlen;
		CNT_ADD(&nw->cnt, GOOD_RX, (uint64_t)s->dlen * 8);
		if (flags & TH_FIN) {
			sk->rcv_nxt++;
			sk->flags |= SKF_FIN_RCVD;
		}
	}
	tcp_state_input(nw, sk, (uint32_t)idx, &t, s, role);
	if (unlikely(sk->ooo != 0) && s->dlen > 0)
		tcp_held_input(nw, sk, (uint32_t)idx, &t, s, role);
}

/* The retransmission timer (list TL_RT) of socket idx: up to
 * DP_MAX_RETRIES times, a zero-window probe (not a loss: tcp_send.h) or a
 * retry of what is unacknowledged (the SYN, the SYN+ACK, the
 * message or the FIN). A server whose answer is all acknowledged waits
 * for the next request on the idle list. */
static __rte_always_inline void
tcp_timer_rt(struct netw *nw, uint32_t idx, const struct tcp_role *role)
{
	struct sock *sk = &nw->skt.sk[idx];
	struct snd_src src;
	struct tuple t;
	int fin = 0, sending = role->sending(nw, sk, &src, &fin);

	sk_tuple(&nw->skt, idx, &t);
	if (sending && snd_probe(nw, sk, &t, &src, fin)) { /* a tail loss probe: no retry */
		snd_arm_rt(nw, sk, idx);
		return;
	}
	/* A zero-window probe counts as a retry too: a peer that answers
	 * one is alive and starts the count again (snd_ack), one that has
	 * vanished is given up on like any other. */
	if (++sk->retries > DP_MAX_RETRIES) {
		if (sk->state == SK_FIN_WAIT_2) { /* the peer never sent its FIN */
			sk_closed(nw, sk);
			return;
		}
		CNT(&nw->cnt, SK_ERR);
		if (role->unfinished)
			role->unfinished(nw, sk);
		sk_ctl(nw, &t, sk, TH_RST | TH_ACK);
		sk_closed(nw, sk);
		return;
	}
	if (sending && snd_persist(nw, sk)) {
		snd_timer(nw, sk, &t, &src, fin);
		tl_add(nw, sk, idx, TL_RT);
		return;
	}
	/* rto: a timeout that resends (not a probe, nor a wait) */
	switch (sk->state) {
	case SK_SYN_SENT:
		CNT(&nw->cnt, RTO);
		tcp_out(nw, &t, sk->snd_una, 0, TH_SYN, tcp_out_win(nw, 0), NULL);
		CNT(&nw->cnt, SYN_RT);
		CNT(&nw->cnt, SYN_TX);
		break;
	case SK_SYN_RCVD:
		CNT(&nw->cnt, RTO);
		tcp_out_synack(nw, &t, sk->snd_una, sk->rcv_nxt, sk_synopt(sk));
		CNT(&nw->cnt, SYN_RT);
		CNT(&nw->cnt, SYN_TX);
		break;
	case SK_FIN_WAIT_2:
		break; /* waiting for the peer's FIN */
	default:
		if (sending) {
			CNT(&nw->cnt, RTO);
			snd_timer(nw, sk, &t, &src, fin);
		} else if (sk->snd_una != sk->snd_nxt) {
			CNT(&nw->cnt, RTO);
			sk_retransmit(nw, sk, &t, role->resent(nw, sk));
		} else if (role->side == TCP_SERVER && sk->state == SK_ESTABLISHED) {
			tl_add(nw, sk, idx, TL_IDLE);
			return;
		}
		break; /* else (client): request acknowledged, the response is slow */
	}
	snd_arm_rt(nw, sk, idx);
}

#endif
