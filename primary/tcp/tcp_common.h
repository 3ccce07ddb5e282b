/* SPDX-License-Identifier: BSD-3-Clause
 * Pieces shared by the TCP client and server: sequence arithmetic, opening
 * and closing sockets, and sending segments from a socket's state.
 */
#ifndef DPERF_TCP_COMMON_H
#define DPERF_TCP_COMMON_H

#include <rte_tcp.h>

#include "net/pkt.h"
#include "tcp/tcp_out.h"
#include "state/sock_table.h"
#include "tcp/tcp.h"
#include "tcp/tcp_ooo.h"
#include "tcp/tcp_seq.h"
#include "tcp/tlist.h"
#include "net/netw.h"

#define TH_SYN RTE_TCP_SYN_FLAG
#define TH_ACK RTE_TCP_ACK_FLAG
#define TH_FIN RTE_TCP_FIN_FLAG
#define TH_RST RTE_TCP_RST_FLAG
#define TH_PSH RTE_TCP_PSH_FLAG


static inline uint32_t
tcp_iss(const struct netw *nw, uint64_t idx)
{
	return (uint32_t)(nw->now >> 8) ^ (uint32_t)(idx * 2654435761u);
}

static inline void
sk_opened(struct netw *nw, struct sock *sk)
{
	sk->flags = 0;
	sk->retries = 0;
	memset(&sk->rq, 0, sizeof(sk->rq)); /* and sk->rs: the same 8 bytes */
	sk->last_kind = DP_REQ_NONE; /* and a client's kind 0 (sock.h) */
	sk->inflight = 0;
	sk->pend_head = 0;
	sk->raw_got = 0;
	sk->ack_bytes = 0;
	sk->req_done = 0;
	sk->snd_mss = nw->mss; /* until the peer's SYN says (sk_set_mss) */
	sk->t_start = nw->now;
	CNT(&nw->cnt, SK_OPEN);
	nw->cnt.sk_cur++;
}

/* The segments a connection holds out of order go back when it ends
 * (counted: they were never delivered). */
static inline void
sk_release_held(struct netw *nw, struct sock *sk)
{
	if (unlikely(sk->ooo != 0))
		CNT_ADD(&nw->cnt, OOO_REL, ooo_release_all(nw->tcp->ooo, &sk->ooo));
}

static inline void
sk_closed(struct netw *nw, struct sock *sk)
{
	sk_release_held(nw, sk);
	if (unlikely(nw->tcp->over_closed != NULL))
		nw->tcp->over_closed(nw, sk); /* its TLS state freed */
	tl_remove(nw, sk);
	sk->state = SK_CLOSED;
	CNT(&nw->cnt, SK_CLOSE);
	nw->cnt.sk_cur--;
}

/* The least MSS we take from a peer: an option of 0 or 1 would have us
 * send a segment per byte (Linux's TCP_MIN_MSS, 88, for the same
 * reason). RFC 9293 3.7.1: a SYN without the option means 536 (IPv4) or
 * 1220 (IPv6). */
#define TCP_MIN_MSS 88
#define TCP_DEFAULT_MSS_V4 536
#define TCP_DEFAULT_MSS_V6 1220

/* The peer's SYN (or SYN+ACK): the most data we send in one segment,
 * the least of ours (mss) and its MSS option, bounded below. */
static inline void
sk_set_mss(const struct netw *nw, struct sock *sk, const struct seg *syn)
{
	uint32_t peer = syn->mss ? syn->mss : nw->v6 ? TCP_DEFAULT_MSS_V6 : TCP_DEFAULT_MSS_V4;

	if (peer < TCP_MIN_MSS)
		peer = TCP_MIN_MSS;
	sk->snd_mss = (uint16_t)(peer < nw->mss ? peer : nw->mss);
}

/* Our window field on sk's segments (tcp/tcp_out.h: scaled when both SYNs
 * offered scaling). */
static inline uint16_t
sk_win(const struct netw *nw, const struct sock *sk)
{
	return tcp_out_win(nw, (sk->flags & SKF_WS) != 0);
}

/* A segment carrying our ACK of everything received has been sent: no
 * delayed ACK is owed (tcp_dack.h). */
static inline void
sk_ack_sent(struct sock *sk)
{
	sk->flags &= (uint8_t)~(SKF_ACK_OWED | SKF_ACK_QUEUED);
	sk->ack_bytes = 0;
}

/* Our FIN has just gone out for the first time: it takes a sequence
 * number, and the connection waits for its ACK, in LAST_ACK when the
 * peer's FIN came first (RFC 9293 3.6), else in FIN_WAIT_1. */
static inline void
sk_fin_sent(struct sock *sk)
{
	sk->snd_nxt++;
	sk->state = (sk->flags & SKF_FIN_RCVD) ? SK_LAST_ACK : SK_FIN_WAIT_1;
}

/* tcp_common.c: a control segment carrying SACK blocks of what the
 * connection holds out of order (RFC 2018 4). */
void sk_ctl_sack(struct netw *nw, const struct tuple *t, struct sock *sk, uint32_t seq, uint8_t flags);

/* Pure ACK (or other control) from the socket's state. A RST carries the
 * oldest unacknowledged sequence number: the one the peer expects even
 * when what we sent after it was lost. Any of them acknowledges all we
 * received (no delayed ACK is owed after it); while segments are held
 * out of order, with SACK blocks when the peer's SYN permitted them. */
static inline void
sk_ctl(struct netw *nw, const struct tuple *t, struct sock *sk, uint8_t flags)
{
	uint32_t seq = (flags & TH_RST) ? sk->snd_una : sk->snd_nxt;

	if (unlikely(sk->ooo != 0) && (sk->flags & SKF_SACK) && !(flags & TH_RST))
		sk_ctl_sack(nw, t, sk, seq, flags);
	else
		tcp_out(nw, t, seq, sk->rcv_nxt, flags, sk_win(nw, sk), NULL);
	sk_ack_sent(sk);
	if (flags & TH_RST)
		CNT(&nw->cnt, RST_TX);
	if (flags & TH_FIN)
		CNT(&nw->cnt, FIN_TX);
}

/* Reset answering a segment that matches no connection (RFC 793 rules). */
static inline void
tcp_reply_rst(struct netw *nw, const struct tuple *t, uint32_t seq, uint32_t ack,
	      uint8_t in_flags, uint32_t dlen)
{
	if (in_flags & TH_RST)
		return;
	if (in_flags & TH_ACK)
		tcp_out(nw, t, ack, 0, TH_RST, tcp_out_win(nw, 0), NULL);
	else
		tcp_out(nw, t, 0, seq + dlen + ((in_flags & TH_SYN) ? 1 : 0) + ((in_flags & TH_FIN) ? 1 : 0),
			TH_RST | TH_ACK, tcp_out_win(nw, 0), NULL);
	CNT(&nw->cnt, RST_TX);
}

/* Our tuple for a received segment (addresses swapped). */
static inline void
seg_tuple(const struct seg *s, struct tuple *t)
{
	t->lip = s->dip;
	t->rip = s->sip;
	t->lport = s->dport;
	t->rport = s->sport;
}

/* A segment for no socket of ours (or a closed one): counted, and
 * answered with RST unless tcp_rst 0. */
static inline void
tcp_unknown(struct netw *nw, const struct tuple *t, const struct seg *s)
{
	CNT(&nw->cnt, TCP_DROP);
	if (nw->cfg->tcp_rst)
		tcp_reply_rst(nw, t, s->seq, s->ack, s->flags, s->dlen);
}

/* A segment in FIN_WAIT_1/2 or LAST_ACK (ours sent first, or theirs):
 * the peer's FIN ends it, the ACK of ours moves to FIN_WAIT_2, whose
 * wait for the peer's FIN is on `list`. */
static inline void
sk_closing_input(struct netw *nw, struct sock *sk, uint32_t idx, const struct tuple *t,
		 enum sk_list list)
{
	if (sk->state == SK_LAST_ACK) {
		if (sk->snd_una == sk->snd_nxt)
			sk_closed(nw, sk);
	} else if (sk->flags & SKF_FIN_RCVD) {
		sk_ctl(nw, t, sk, TH_ACK);
		sk_closed(nw, sk);
	} else if (sk->snd_una == sk->snd_nxt) {
		sk->state = SK_FIN_WAIT_2;
		tl_add(nw, sk, idx, list);
	}
}

/* tcp_common.c: data ahead of rcv_nxt held in the worker's out-of-order
 * queue (tcpOoo), or not (oooDrop: no room, or a FIN; tcpDrop: all of it
 * held already). */
void sk_rcv_hold(struct netw *nw, struct sock *sk, const struct seg *s);

/* Data or a FIN not at rcv_nxt: our ACK of rcv_nxt goes at once. Ahead
 * of rcv_nxt (a gap before it), the data is held (tcp_ooo.h) and
 * delivered when the gap fills; the duplicate ACK, with SACK blocks when
 * negotiated, tells the peer what is missing (three make it retransmit
 * fast, RFC 5681 3.2). Behind rcv_nxt (all or part already received: a
 * retransmission whose ACK was lost) is tcpDrop. */
static inline void
sk_rcv_not_next(struct netw *nw, struct sock *sk, const struct tuple *t, const struct seg *s)
{
	if (seq_gt(s->seq, sk->rcv_nxt))
		sk_rcv_hold(nw, sk, s);
	else
		CNT(&nw->cnt, TCP_DROP);
	sk_ctl(nw, t, sk, TH_ACK);
}

/* A SYN+ACK's options: what the peer's SYN offered of ours (tcp/tcp_out.h). */
static inline int
sk_synopt(const struct sock *sk)
{
	return ((sk->flags & SKF_WS) ? TCP_SYN_WS : 0) | ((sk->flags & SKF_SACK) ? TCP_SYN_SACK : 0);
}

/* Segment k of a message longer than mss: its bytes from k x mss and
 * their precomputed sum; beyond the stored prefix, the stored segment
 * with the same bytes (http/messages.h's content rule). */
static inline void
msg_segment(const struct msg *m, uint32_t mss, uint32_t k, struct msg *seg)
{
	uint32_t off = k * mss, len = m->len - off < mss ? m->len - off : mss;

	if (__builtin_expect(m->seg_stored != 0 && k >= m->seg_stored, 0)) {
		uint32_t s = m->seg_stored, half = s / 2, from = half + (k - s) % (s - half);

		seg->data = m->data + (size_t)from * mss;
		seg->sum = len < mss ? m->seg_sum[s] : m->seg_sum[from]; /* [s]: the cut last one */
	} else {
		seg->data = m->data + off;
		seg->sum = m->seg_sum[k];
	}
	seg->len = len;
	seg->seg_sum = NULL;
	seg->seg_stored = 0;
	seg->sum_on_copy = 0;
}

/* Bytes of data (not counting a FIN) sent and not yet acknowledged. */
static inline uint32_t
sk_unacked_data(const struct sock *sk)
{
	uint32_t n = sk->snd_nxt - sk->snd_una;
	int fin = sk->state == SK_FIN_WAIT_1 || sk->state == SK_LAST_ACK;

	return fin && n > 0 ? n - 1 : n;
}

/* Send message m (at most mss bytes) from seq with flags: one segment,
 * or, when the peer's MSS is smaller (sk->snd_mss), segments of that
 * size summed here, PSH and FIN on the last only. */
static inline void
sk_send_msg(struct netw *nw, const struct tuple *t, const struct sock *sk, uint32_t seq,
	    uint8_t flags, const struct msg *m)
{
	struct msg part = { .seg_sum = NULL, .seg_stored = 0, .sum_on_copy = 0 };
	uint32_t off = 0;

	if (__builtin_expect(m->len <= sk->snd_mss, 1)) {
		tcp_out(nw, t, seq, sk->rcv_nxt, flags, sk_win(nw, sk), m);
		return;
	}
	for (; m->len - off > sk->snd_mss; off += sk->snd_mss) {
		part.data = m->data + off;
		part.len = sk->snd_mss;
		part.sum = pkt_sum(part.data, part.len);
		tcp_out(nw, t, seq + off, sk->rcv_nxt, flags & (uint8_t)~(TH_PSH | TH_FIN), sk_win(nw, sk), &part);
	}
	part.data = m->data + off;
	part.len = m->len - off;
	part.sum = pkt_sum(part.data, part.len);
	tcp_out(nw, t, seq + off, sk->rcv_nxt, flags, sk_win(nw, sk), &part);
}

/* Retransmit what is unacknowledged: one message from snd_una (every
 * message a socket sends is the same bytes), or the FIN alone. */
static inline void
sk_retransmit(struct netw *nw, struct sock *sk, const struct tuple *t, const struct msg *m)
{
	uint32_t data = sk_unacked_data(sk);
	int fin = sk->state == SK_FIN_WAIT_1 || sk->state == SK_LAST_ACK;

	sk_ack_sent(sk); /* each branch below acknowledges rcv_nxt */
	if (data >= m->len) {
		uint8_t f = TH_ACK | TH_PSH | ((fin && data == m->len) ? TH_FIN : 0);
		sk_send_msg(nw, t, sk, sk->snd_una, f, m);
		CNT(&nw->cnt, PUSH_RT);
	} else if (fin && sk->snd_nxt != sk->snd_una) {
		tcp_out(nw, t, sk->snd_nxt - 1, sk->rcv_nxt, TH_FIN | TH_ACK, sk_win(nw, sk), NULL);
		CNT(&nw->cnt, FIN_RT);
		CNT(&nw->cnt, FIN_TX);
	} else {
		/* Only our ACK can be missing: send it again. */
		tcp_out(nw, t, sk->snd_nxt, sk->rcv_nxt, TH_ACK, sk_win(nw, sk), NULL);
		CNT(&nw->cnt, ACK_RT);
	}
}

#endif
