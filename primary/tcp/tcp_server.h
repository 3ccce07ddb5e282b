/* SPDX-License-Identifier: BSD-3-Clause
 * The server's steps a layer over TCP reuses (TLS: tls/tls_server.c): a
 * SYN accepted, the requests in received bytes counted by method, the
 * answer to each, and the queue of requests waiting behind an answer over
 * several segments.
 */
#ifndef DPERF_TCP_SERVER_H
#define DPERF_TCP_SERVER_H

#include <stdint.h>

#include <rte_branch_prediction.h>
#include <rte_common.h>

#include "net/l4.h"
#include "net/netw.h"
#include "state/sock.h"
#include "tcp/tcp.h"
#include "tcp/tcp_send.h"

/* A SYN opening connection idx (or our SYN+ACK again for a retransmitted
 * one): SYN_RCVD, the SYN+ACK sent, on the retransmission timer. */
void tcp_server_accept(struct netw *nw, struct sock *sk, uint32_t idx, const struct seg *s,
		       const struct tuple *t);

/* The role's open step (tcp_input.h), plain and TLS servers alike: a SYN
 * is a new connection (a SYN+ACK is not for a server, nor any SYN while
 * stopping). */
static inline void
tcp_server_open(struct netw *nw, struct sock *sk, uint32_t idx, const struct seg *s,
		const struct tuple *t)
{
	if ((s->flags & TH_ACK) || nw->stopping) {
		CNT(&nw->cnt, TCP_DROP);
		return;
	}
	tcp_server_accept(nw, sk, idx, s, t);
}

/* The complete requests in data[0..dlen), received in order, counted by
 * the application (tcp_app.h's requests; HTTP: httpGet counts GET and
 * HEAD, httpPost POST, httpErr anything else; raw TCP: tcpReq) into r
 * (r->n and r->total zeroed by the caller); a request asking to close
 * sets SKF_CLOSE. */
static inline void
tcp_server_count(struct netw *nw, struct sock *sk, const uint8_t *data, uint32_t dlen,
		 struct req_runs *r)
{
	nw->tcp->app.requests(nw, sk, data, dlen, r);
}

/* The answer to a request of this kind (DP_REQ_NONE: raw TCP; with object
 * lines, its key: stream_scan.h). */
const struct msg *tcp_server_answer(const struct netw *nw, const struct sock *sk, uint8_t kind);

/* An answer to a request of this key (stream_scan.h) begun, m its
 * message: counted by the application (http2XX or tcpRsp) unless a 400
 * or a 404, and with object lines as its object's (http2XX, and m's
 * bytes in goodTx, once per answer: state/cnt.h's struct ocnt). The one
 * count of both answer loops below. */
static __rte_always_inline void
tcp_server_answered(struct netw *nw, uint8_t key, const struct msg *m)
{
	if (!DP_REQ_ANSWERED(key))
		return;
	nw->cnt.c[nw->tcp->app.answered]++;
	if (unlikely(nw->tcp->oc != NULL)) {
		uint64_t *c = nw->tcp->oc->c[DP_REQ_OBJ(key)];

		c[DP_OC_HTTP_2XX]++;
		c[DP_OC_GOOD_TX] += (uint64_t)m->len * 8;
	}
}

/* The answers to the requests of r, in order, for http and https alike:
 * emit(ctx, m, last) sends each (plain TCP: a segment; TLS: records;
 * last: the last of r), then it is counted (the application's answered:
 * http2XX or tcpRsp; a 400 is not), and sk->last_kind is each run's.
 * Returns -1 when emit failed (what follows is not sent), else 0. Inline
 * with emit a constant: the compiler calls it directly. */
static __rte_always_inline int
tcp_server_answers(struct netw *nw, struct sock *sk, const struct req_runs *r,
		   int (*emit)(void *ctx, const struct msg *m, int last), void *ctx)
{
	uint32_t left = r->total;

	for (uint32_t k = 0; k < r->n; k++) {
		const struct msg *m = tcp_server_answer(nw, sk, r->kind[k]);

		for (uint32_t i = 0; i < r->count[k]; i++) {
			if (emit(ctx, m, --left == 0) < 0)
				return -1;
			tcp_server_answered(nw, r->kind[k], m); /* not a 400, not a 404 */
		}
		sk->last_kind = r->kind[k];
	}
	return 0;
}

/* ---- requests waiting behind an answer over several segments ----
 *
 * A worker whose answers take several segments answers one request at a
 * time: the next once the one before is all acknowledged (the sender
 * starts a message from an acknowledged stream). Requests that arrive
 * meanwhile (a pipelining client) wait in the socket, in order: sk->pend_n
 * counts them, bit k of sk->pend_head is set when the k-th is a HEAD (the
 * one method answered 200 with other bytes; GET and POST get the same
 * answer), and SKF_PEND_BAD in sk->flags marks a bad request last (400,
 * then close: nothing after it is read). No byte is added to the socket;
 * the room is TCP_PEND_MAX requests, a request beyond it is pipeFull and
 * the caller resets the connection. The same queue for http (tcp_server.c:
 * each answer a segment or the sender's message) and https
 * (tls/tls_server.c: each answer records), as tcp_server_answers is one
 * answer loop: `begin` says how an answer goes out. */
#define TCP_PEND_MAX 16u /* the bits of sk->pend_head */
/* With object lines each request waiting has its key (stream_scan.h: its
 * method and object), a byte of sk->pend_head instead of a bit: two wait
 * at most (a client that pipelines behind answers over several segments;
 * ours does not: its pipeline is for answers of one segment). */
#define TCP_PEND_MAX_OBJ 2u

static inline uint32_t
tcp_server_pend_max(const struct netw *nw)
{
	return unlikely(nw->msg.n_obj != 0) ? TCP_PEND_MAX_OBJ : TCP_PEND_MAX;
}

/* Whether requests wait: some counted in pend_n, or a bad one. One test
 * of both. */
static inline int
tcp_server_pend_waiting(const struct sock *sk)
{
	return (sk->pend_n | (sk->flags & SKF_PEND_BAD)) != 0;
}

/* Whether the connection closes after the answer in progress: no request
 * waits behind it, and the client or we close. */
static inline int
tcp_server_closing(const struct netw *nw, const struct sock *sk)
{
	return !tcp_server_pend_waiting(sk) &&
	       (!nw->keepalive || (sk->flags & (SKF_CLOSE | SKF_FIN_RCVD)) || nw->stopping);
}

/* The kind of the first request waiting (DP_REQ_NONE: none). */
static inline uint8_t
tcp_server_pend_first(const struct netw *nw, const struct sock *sk)
{
	if (sk->pend_n > 0 && unlikely(nw->msg.n_obj != 0))
		return (uint8_t)sk->pend_head;
	if (sk->pend_n > 0)
		return (sk->pend_head & 1) ? DP_REQ_HEAD : nw->tcp->app.plain_kind;
	return (sk->flags & SKF_PEND_BAD) ? DP_REQ_BAD : DP_REQ_NONE;
}

static inline void
tcp_server_pend_pop(const struct netw *nw, struct sock *sk)
{
	if (sk->pend_n > 0) {
		sk->pend_head >>= unlikely(nw->msg.n_obj != 0) ? 8 : 1;
		sk->pend_n--;
	} else {
		sk->flags &= (uint8_t)~SKF_PEND_BAD;
	}
}

/* An answer's way out: begin(ctx, m, close) starts answer m (close: our
 * close follows it); -1 when it failed (nothing more is answered). */
typedef int tcp_answer_begin_fn(void *ctx, const struct msg *m, int close);

/* Answer the requests waiting, in order, while no answer is in progress
 * (the sender's, snd_active); an answer over several segments waits until
 * the bytes before it are acknowledged. Each answer is counted (the
 * application's answered; a 400 not) and sets sk->last_kind. Returns 1
 * when something was sent (it carries our ACK), -1 when begin failed.
 * Inline with begin a constant, as tcp_server_answers. */
static __rte_always_inline int
tcp_server_answer_waiting(struct netw *nw, struct sock *sk, tcp_answer_begin_fn *begin, void *ctx)
{
	int sent = 0;

	while (tcp_server_pend_waiting(sk) && sk->state == SK_ESTABLISHED &&
	       !snd_active(nw, sk)) {
		uint8_t kind = tcp_server_pend_first(nw, sk);
		const struct msg *m = tcp_server_answer(nw, sk, kind);
		int bad = kind == DP_REQ_BAD;

		if (m->seg_sum != NULL && sk->snd_una != sk->snd_nxt)
			break; /* after the answers before it are acknowledged */
		tcp_server_pend_pop(nw, sk);
		sk->last_kind = kind;
		if (begin(ctx, m, bad || tcp_server_closing(nw, sk)) < 0)
			return -1;
		tcp_server_answered(nw, kind, m); /* not a 400, not a 404 */
		sent = 1;
	}
	return sent;
}

/* The requests of r join the queue, in order; when it is full, the first
 * waiting may be answered now (all of one segment or record arrived at
 * once, nothing in progress). Returns 0, or 1 when an answer was begun to
 * make room; -1 when they do not fit: those that do not are pipeFull, and
 * the caller resets the connection; -2 when begin failed. */
static __rte_always_inline int
tcp_server_pend_add(struct netw *nw, struct sock *sk, const struct req_runs *r,
		    tcp_answer_begin_fn *begin, void *ctx)
{
	uint32_t left = r->total, max = tcp_server_pend_max(nw);
	int sent = 0;

	for (uint32_t k = 0; k < r->n; k++) {
		if (r->kind[k] == DP_REQ_BAD) {
			sk->flags |= SKF_PEND_BAD;
			return sent;
		}
		for (uint32_t i = 0; i < r->count[k]; i++, left--) {
			uint32_t n = sk->pend_n;

			if (n == max) {
				int a = tcp_server_answer_waiting(nw, sk, begin, ctx);

				if (a < 0)
					return -2;
				sent |= a;
				n = sk->pend_n;
			}
			if (n == max) {
				CNT_ADD(&nw->cnt, PIPE_FULL, left);
				return -1;
			}
			if (unlikely(nw->msg.n_obj != 0))
				sk->pend_head |= (uint16_t)(r->kind[k] << (8 * n));
			else if (r->kind[k] == DP_REQ_HEAD)
				sk->pend_head |= (uint16_t)(1u << n);
			sk->pend_n++;
		}
	}
	return sent;
}

#endif
