/* SPDX-License-Identifier: BSD-3-Clause
 * The server side: accept on every server address and listen port, answer
 * each request with the prebuilt response, close as the client or the
 * configuration asks.
 */
#include <rte_branch_prediction.h>
#include <rte_cycles.h>

#include "net/lat.h"
#include "tcp/tcp.h"
#include "tcp/tcp_common.h"
#include "tcp/tcp_dack.h"
#include "tcp/tcp_input.h"
#include "tcp/tcp_send.h"
#include "tcp/tcp_server.h"

/* The answer to a request of this kind (DP_REQ_NONE: raw TCP), its key
 * with object lines (stream_scan.h). A HEAD
 * gets the head of a GET's answer without its body (RFC 9110 9.3.2: a
 * keep-alive client would read the body as the next response); a request
 * that is not GET, HEAD or POST HTTP gets 400 and the connection closes
 * (it was answered 200 and counted in httpGet: a load-test server must
 * not hide a client that sends something else). */
/* With object lines: the answer of the key's object (stream_scan.h), or
 * the 404 of a path no object has. */
static const struct msg *
obj_answer(const struct netw *nw, uint8_t key, int ka)
{
	uint8_t m = DP_REQ_METHOD(key), o = DP_REQ_OBJ(key);

	if (m == DP_REQ_BAD)
		return &nw->msg.rsp_bad;
	if (o >= nw->msg.n_obj) /* DP_OBJ_MISS */
		return &nw->msg.obj[4 * nw->msg.n_obj + !ka];
	return &nw->msg.obj[4 * o + (m == DP_REQ_HEAD ? 2 : 0) + !ka];
}

const struct msg *
tcp_server_answer(const struct netw *nw, const struct sock *sk, uint8_t kind)
{
	int ka = nw->keepalive && !(sk->flags & SKF_CLOSE);

	if (unlikely(nw->msg.n_obj != 0))
		return obj_answer(nw, kind, ka);
	if (kind == DP_REQ_BAD)
		return &nw->msg.rsp_bad;
	if (kind == DP_REQ_HEAD)
		return ka ? &nw->msg.rsp_head_ka : &nw->msg.rsp_head_close;
	return ka ? &nw->msg.rsp_ka : &nw->msg.rsp_close;
}

/* What a retransmission sends again: the last answer. */
static inline const struct msg *
response(const struct netw *nw, const struct sock *sk)
{
	return tcp_server_answer(nw, sk, sk->last_kind);
}

/* An answer longer than mss goes out through the sender (tcp_send.h),
 * cut from the response template: its source. */
static inline int
big_answer(const struct netw *nw, const struct sock *sk)
{
	return nw->tcp->snd != NULL && response(nw, sk)->seg_sum != NULL;
}

static inline void
answer_src(const struct netw *nw, const struct sock *sk, struct snd_src *src)
{
	snd_src_msg(src, response(nw, sk));
}

/* An answer over several segments still being sent or acknowledged. */
static inline int
big_busy(const struct netw *nw, const struct sock *sk)
{
	return big_answer(nw, sk) && sk->state != SK_SYN_RCVD && snd_active(nw, sk);
}

void
tcp_server_accept(struct netw *nw, struct sock *sk, uint32_t idx, const struct seg *s,
		  const struct tuple *t)
{
	if (sk->state == SK_SYN_RCVD && s->seq + 1 == sk->rcv_nxt) {
		/* The client retransmitted its SYN: our SYN+ACK was lost. */
		tcp_out_synack(nw, t, sk->snd_una, sk->rcv_nxt, sk_synopt(sk));
		CNT(&nw->cnt, SYN_RT);
		CNT(&nw->cnt, SYN_TX);
		return;
	}
	if (sk->state != SK_CLOSED) /* the tuple is reused: forget the old one */
		sk_closed(nw, sk);
	sk_opened(nw, sk);
	sk->rcv_nxt = s->seq + 1;
	sk->snd_una = tcp_iss(nw, idx);
	sk->snd_nxt = sk->snd_una + 1;
	sk->state = SK_SYN_RCVD;
	sk_set_mss(nw, sk, s);
	if (s->ws != SEG_NO_WS)
		sk->flags |= SKF_WS;
	if (s->sack_ok)
		sk->flags |= SKF_SACK;
	if (nw->tcp->snd)
		snd_open(nw, sk, &nw->tcp->snd[idx], s, 1);
	tcp_out_synack(nw, t, sk->snd_una, sk->rcv_nxt, sk_synopt(sk));
	CNT(&nw->cnt, SYN_TX);
	tl_add(nw, sk, (uint32_t)idx, TL_RT);
}

/* One answer of respond's, in one segment: the last carries our FIN when
 * we close. */
struct seg_answer {
	struct netw *nw;
	struct sock *sk;
	const struct tuple *t;
	int close;
};

static __rte_always_inline int
seg_answer(void *ctx, const struct msg *m, int last)
{
	struct seg_answer *a = ctx;
	uint8_t f = TH_ACK | TH_PSH;

	if (a->close && last)
		f |= TH_FIN;
	sk_send_msg(a->nw, a->t, a->sk, a->sk->snd_nxt, f, m);
	a->sk->snd_nxt += m->len;
	CNT_ADD(&a->nw->cnt, GOOD_TX, (uint64_t)m->len * 8);
	sk_ack_sent(a->sk); /* the answer carries the ACK of the request */
	return 0;
}

/* Answer the requests, each in one segment (a worker whose answers take
 * several goes through tcp_server.h's queue, below); the last answer carries our FIN
 * when we close (a bad request closes). */
static void
respond(struct netw *nw, struct sock *sk, uint32_t idx, const struct tuple *t,
	const struct req_runs *r)
{
	struct seg_answer a = {
		.nw = nw, .sk = sk, .t = t,
		.close = !nw->keepalive || (sk->flags & (SKF_CLOSE | SKF_FIN_RCVD)) || nw->stopping ||
			 r->kind[r->n - 1] == DP_REQ_BAD,
	};

	(void)tcp_server_answers(nw, sk, r, seg_answer, &a);
	if (a.close) {
		sk_fin_sent(sk);
		CNT(&nw->cnt, FIN_TX);
	}
	sk->retries = 0;
	tl_add(nw, sk, idx, TL_RT);
	if (nw->lat)
		lat_add(nw, DP_LAT_SERVER, rte_rdtsc() - nw->now);
}

/* ---- requests waiting behind an answer over several segments ----
 * (tcp_server.h's queue): each answer begun in one segment (a HEAD's, a
 * 400) or as the sender's message. */
struct seg_begin {
	struct netw *nw;
	struct sock *sk;
	uint32_t idx;
	const struct tuple *t;
};

static __rte_always_inline int
seg_begin(void *ctx, const struct msg *m, int close)
{
	struct seg_begin *b = ctx;
	struct netw *nw = b->nw;
	struct sock *sk = b->sk;

	if (m->seg_sum != NULL) {
		struct snd_src src;

		snd_src_msg(&src, m);
		snd_begin(nw, sk, b->t, &src, close);
		sk->retries = 0;
		snd_arm_rt(nw, sk, b->idx);
		return 0;
	}
	sk_send_msg(nw, b->t, sk, sk->snd_nxt, TH_ACK | TH_PSH | (close ? TH_FIN : 0), m);
	sk->snd_nxt += m->len;
	CNT_ADD(&nw->cnt, GOOD_TX, (uint64_t)m->len * 8);
	sk_ack_sent(sk);
	if (close) {
		sk_fin_sent(sk);
		CNT(&nw->cnt, FIN_TX);
	}
	sk->retries = 0;
	tl_add(nw, sk, b->idx, TL_RT);
	return 0;
}

/* Answer the requests waiting, in order, while nothing is in progress.
 * Returns 1 when something was sent (it carries our ACK). */
static int
answer_waiting(struct netw *nw, struct sock *sk, uint32_t idx, const struct tuple *t)
{
	struct seg_begin b = { nw, sk, idx, t };
	int sent = tcp_server_answer_waiting(nw, sk, seg_begin, &b);

	if (sent > 0 && nw->lat)
		lat_add(nw, DP_LAT_SERVER, rte_rdtsc() - nw->now);
	return sent > 0;
}

/* The requests of r join the queue; -1 when they do not fit (pipeFull):
 * the connection is reset. */
static int
pend_add(struct netw *nw, struct sock *sk, uint32_t idx, const struct tuple *t,
	 const struct req_runs *r)
{
	struct seg_begin b = { nw, sk, idx, t };
	int k = tcp_server_pend_add(nw, sk, r, seg_begin, &b);

	if (k >= 0) {
		if (k > 0 && nw->lat) /* an answer begun to make room */
			lat_add(nw, DP_LAT_SERVER, rte_rdtsc() - nw->now);
		return 0;
	}
	sk_ctl(nw, t, sk, TH_RST | TH_ACK);
	sk_closed(nw, sk);
	return -1;
}

/* The server's established step: count and answer the requests, or
 * finish an answer in progress, or close after the client's FIN. */
static void
server_established(struct netw *nw, struct sock *sk, uint32_t idx, const struct tuple *t,
		   const struct seg *s)
{
	struct req_runs r;

	r.n = r.total = 0;
	if (s->dlen > 0 && !(sk->flags & SKF_PEND_BAD))
		tcp_server_count(nw, sk, s->data, s->dlen, &r);
	if (unlikely(nw->tcp->snd != NULL) && (r.total > 0 || tcp_server_pend_waiting(sk))) {
		if (pend_add(nw, sk, idx, t, &r) != 0 || answer_waiting(nw, sk, idx, t))
			return; /* reset, or the answer carries our ACK */
		r.total = 0; /* waiting */
	}
	if (r.total > 0) {
		respond(nw, sk, idx, t, &r);
	} else if (snd_active(nw, sk) || tcp_server_pend_waiting(sk)) {
		/* an answer in progress (snd_ack sent what it could), or
		 * answers waiting for the ACK of those before them */
		if (s->dlen > 0 && (sk->flags & SKF_ACK_OWED))
			sk_ctl(nw, t, sk, TH_ACK);
	} else if (sk->flags & SKF_FIN_RCVD) {
		sk_ctl(nw, t, sk, TH_FIN | TH_ACK);
		sk->snd_nxt++;
		sk->state = SK_LAST_ACK;
		sk->retries = 0;
		tl_add(nw, sk, idx, TL_RT);
	} else if (s->dlen > 0) { /* part of a request: the response may carry the ACK */
		sk_ack_partial(nw, sk, idx, t, s->dlen);
	} else if (sk->snd_una == sk->snd_nxt && sk->list != TL_IDLE) {
		tl_add(nw, sk, idx, TL_IDLE); /* all answered */
	}
}

static inline int
server_sending(const struct netw *nw, const struct sock *sk, struct snd_src *src, int *fin)
{
	if (likely(!big_busy(nw, sk)))
		return 0;
	answer_src(nw, sk, src);
	*fin = tcp_server_closing(nw, sk);
	return 1;
}

static const struct tcp_role server_role = {
	.side = TCP_SERVER,
	.open = tcp_server_open,
	.established = server_established,
	.sending = server_sending,
	.resent = response,
	/* .late_data: none, a request after our last answer is not answered */
};

void
tcp_server_timer(struct netw *nw, uint32_t idx, int which)
{
	if (which == TL_IDLE) {
		struct sock *sk = &nw->skt.sk[idx];
		struct tuple t;

		if (sk->state != SK_ESTABLISHED) {
			sk_closed(nw, sk);
			return;
		}
		/* an idle keepalive connection */
		sk_tuple(&nw->skt, idx, &t);
		CNT(&nw->cnt, IDLE_CLOSE);
		sk_ctl(nw, &t, sk, TH_FIN | TH_ACK);
		sk->snd_nxt++;
		sk->state = SK_FIN_WAIT_1;
		sk->retries = 0;
		tl_add(nw, sk, idx, TL_RT);
		return;
	}
	tcp_timer_rt(nw, idx, &server_role);
}

/* The server's segments, bound as the client's are (tcp_client.c). */
void
tcp_server_input(struct netw *nw, const struct seg *s)
{
	tcp_input(nw, s, &server_role);
}
