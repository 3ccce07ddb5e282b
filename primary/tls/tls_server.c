/* SPDX-License-Identifier: BSD-3-Clause
 * The TLS server (protocol https and tls): tcp_input.h's one path with
 * its own role. A connection's first bytes start its handshake; the
 * plaintext after it is read as the plain server reads a segment
 * (tcp_server.h: the requests counted by method, or raw messages of
 * payload_size; answers over several segments through the same queue,
 * one at a time) and each answer written as records; the records go out
 * through the TCP sender from the connection's buffer (tls_tcp.h). Our
 * close_notify goes before our FIN on every close after the handshake.
 */
#include <rte_branch_prediction.h>
#include <rte_cycles.h>

#include "net/lat.h"
#include "tcp/tcp_common.h"
#include "tcp/tcp_dack.h"
#include "tcp/tcp_input.h"
#include "tcp/tcp_send.h"
#include "tcp/tcp_server.h"
#include "tls/tls_src.h"
#include "tls/tls_tcp.h"


struct plain_ctx {
	struct netw *nw;
	struct sock *sk;
	struct tls_conn *c;
	uint32_t idx;
	const struct tuple *t;
	uint32_t answered; /* answers begun (the server's latency) */
	int reset;         /* pipeFull: the connection is reset once the records are read */
};

/* Our FIN after what is written: when we close (SKF_CLOSE) and no request
 * waits (a request asking to close sets SKF_CLOSE as it is counted: the
 * answers queued before it go first), as the plain server's closing. */
static inline int
srv_fin(const struct sock *sk)
{
	return (sk->flags & SKF_CLOSE) != 0 && !tcp_server_pend_waiting(sk);
}

/* The requests waiting are not answered (the connection failed, or the
 * peer's close_notify: ours goes at once, RFC 8446 6.1, RFC 5246 7.2.1). */
static inline void
srv_drop_waiting(struct sock *sk)
{
	sk->pend_n = 0;
	sk->pend_head = 0;
	sk->flags &= (uint8_t)~SKF_PEND_BAD;
}

/* One answer of answer_at_once's, as records. */
static __rte_always_inline int
record_answer(void *ctx, const struct msg *m, int last)
{
	struct plain_ctx *p = ctx;

	(void)last;
	if (tls_write_msg(p->nw, p->c, m) < 0)
		return -1; /* failed: counted by the caller */
	p->answered++;
	return 0;
}

/* Plaintext received, every answer in one segment: its requests counted
 * and answered at once, as the plain server does with a segment
 * (tcp_server.h: the same counting, the same answers). A bad request is
 * answered 400 and closes. */
static __rte_always_inline void
answer_at_once(struct plain_ctx *p, const struct req_runs *r)
{
	struct netw *nw = p->nw;
	struct sock *sk = p->sk;
	int bad = 0;

	if (tcp_server_answers(nw, sk, r, record_answer, p) < 0)
		return;
	for (uint32_t k = 0; k < r->n; k++)
		bad |= r->kind[k] == DP_REQ_BAD;
	if (r->total > 0 && (!nw->keepalive || nw->stopping || bad || (sk->flags & SKF_CLOSE)))
		tls_close_after(sk, p->c); /* SKF_CLOSE: the request asked for it */
}

/* One answer of the queue's (tcp_server.h), as records, sent at once:
 * the sender's message, so the next waits for its ACK. */
static __rte_always_inline int
record_begin(void *ctx, const struct msg *m, int close)
{
	struct plain_ctx *p = ctx;

	if (tls_write_msg(p->nw, p->c, m) < 0)
		return -1; /* failed: counted by the caller */
	if (close)
		tls_close_after(p->sk, p->c);
	tls_send(p->nw, p->sk, p->idx, p->t, p->c, srv_fin(p->sk));
	p->answered++;
	return 0;
}

/* Plaintext received, answers over several segments: its requests
 * queued behind the answer in progress, as the plain server does with a
 * segment (tcp_server.c's server_established: the same queue, the same
 * answers, pipeFull beyond TCP_PEND_MAX waiting). */
static __rte_always_inline void
answer_queued(struct plain_ctx *p, const struct req_runs *r)
{
	int k = tcp_server_pend_add(p->nw, p->sk, r, record_begin, p);

	if (k == -1)
		p->reset = 1; /* after tls_input: the SSL object is in use */
	else if (k >= 0)
		(void)tcp_server_answer_waiting(p->nw, p->sk, record_begin, p); /* < 0: c failed */
}

/* The server's plaintext step, one path for both ways of answering
 * (queued, a constant: tls_server_plain binds one of the two below):
 * the requests counted, unless the connection is closing (answered at
 * once: SKF_CLOSE; queued: reset, a bad request waiting, our FIN due) or
 * its TLS failed, when what follows is not read. */
static __rte_always_inline void
srv_plain(struct plain_ctx *p, const uint8_t *data, uint32_t len, const int queued)
{
	struct sock *sk = p->sk;
	struct req_runs r;
	int closing = queued ? p->reset || (sk->flags & SKF_PEND_BAD) || srv_fin(sk)
			     : (sk->flags & SKF_CLOSE) != 0;

	if (closing || p->c->state == TLS_FAILED)
		return;
	r.n = r.total = 0;
	tcp_server_count(p->nw, sk, data, len, &r);
	if (queued)
		answer_queued(p, &r);
	else
		answer_at_once(p, &r);
}

static void
srv_on_plain(void *arg, const uint8_t *data, uint32_t len)
{
	srv_plain(arg, data, len, 0);
}

static void
srv_on_plain_queued(void *arg, const uint8_t *data, uint32_t len)
{
	srv_plain(arg, data, len, 1);
}

tls_plain_fn *
tls_server_plain(const struct netw *nw)
{
	return nw->msg.rsp_ka.seg_sum != NULL || nw->msg.rsp_close.seg_sum != NULL ? srv_on_plain_queued
										    : srv_on_plain;
}

/* Ciphertext in order: the handshake's next step, or records. */
static void
read_records(struct netw *nw, struct sock *sk, uint32_t idx, const struct tuple *t,
	     struct tls_conn *c, const struct seg *s)
{
	struct plain_ctx p = { nw, sk, c, idx, t, 0, 0 };
	uint8_t was = c->state;
	int r;

	if (c->state == TLS_IDLE) {
		CNT(&nw->cnt, TLS_HS);
		tls_part_opened(nw->tls, c);
		if (tls_open(c, &nw->tls->side) < 0) {
			tls_failed(nw, c, TLS_HS);
			sk->flags |= SKF_CLOSE;
			return;
		}
		was = TLS_HS;
	}
	r = tls_input(c, s->data, s->dlen, nw->tls->on_plain, &p);
	if (p.reset) { /* pipeFull (counted): reset, as the plain server does */
		if (r >= 0 && (r & TLS_EV_DONE)) /* the Finished rode with the requests */
			tls_hs_done(nw, sk, c);
		sk_ctl(nw, t, sk, TH_RST | TH_ACK);
		sk_closed(nw, sk);
		return;
	}
	if (r >= 0 && c->state == TLS_FAILED) /* a write of an answer failed */
		r = -(int)c->fail;
	if (r < 0) {
		if (was == TLS_HS && SSL_is_init_finished(c->ssl)) {
			/* completed, then a record of the same segment failed */
			tls_hs_done(nw, sk, c);
			was = TLS_UP;
		}
		tls_failed(nw, c, was);
		srv_drop_waiting(sk);
		sk->flags |= SKF_CLOSE; /* with our alert, if OpenSSL wrote one */
		return;
	}
	if (r & TLS_EV_DONE)
		tls_hs_done(nw, sk, c);
	if (r & TLS_EV_CLOSE) {
		srv_drop_waiting(sk);
		tls_close_after(sk, c); /* the peer's close_notify: ours */
	}
	if (p.answered)
		lat_add(nw, DP_LAT_SERVER, rte_rdtsc() - nw->now);
}

/* The answers waiting, once the one before is acknowledged (the ACK of
 * this segment: tcp_input.h's sender step before this one). */
static void
answer_waiting(struct netw *nw, struct sock *sk, uint32_t idx, const struct tuple *t, struct tls_conn *c)
{
	struct plain_ctx p = { nw, sk, c, idx, t, 0, 0 };

	if (tcp_server_answer_waiting(nw, sk, record_begin, &p) < 0) {
		tls_failed(nw, c, TLS_UP); /* a write of an answer failed */
		srv_drop_waiting(sk);
		sk->flags |= SKF_CLOSE;
	} else if (p.answered) {
		lat_add(nw, DP_LAT_SERVER, rte_rdtsc() - nw->now);
	}
}

/* The TLS server's established step. */
static void
tls_srv_established(struct netw *nw, struct sock *sk, uint32_t idx, const struct tuple *t,
		    const struct seg *s)
{
	struct tls_conn *c = tls_conn_of(nw, sk);
	uint32_t nxt = sk->snd_nxt;

	tls_settle(nw, sk, c);
	/* (records are read after a request asking to close while requests
	 * wait before it, as the plain server reads its segments) */
	if (s->dlen > 0 && (!(sk->flags & SKF_CLOSE) || tcp_server_pend_waiting(sk))) {
		read_records(nw, sk, idx, t, c, s);
		if (sk->state == SK_CLOSED)
			return; /* reset: pipeFull */
	}
	if (unlikely(tcp_server_pend_waiting(sk)))
		answer_waiting(nw, sk, idx, t, c);
	if ((sk->flags & SKF_FIN_RCVD) && !(sk->flags & SKF_CLOSE) && !tcp_server_pend_waiting(sk)) {
		/* (requests waiting: the last one's answer closes) */
		uint8_t was = c->state;

		if (tls_eof(c) < 0) /* mid-handshake */
			tls_failed(nw, c, was);
		tls_close_after(sk, c);
	}
	tls_send(nw, sk, idx, t, c, srv_fin(sk));
	if (sk->snd_nxt != nxt || sk->state != SK_ESTABLISHED)
		return; /* what went carries our ACK */
	if (s->dlen > 0)
		sk_ack_partial(nw, sk, idx, t, s->dlen); /* a part of a record or a flight */
	else if (!snd_active(nw, sk) && sk->snd_una == sk->snd_nxt && sk->list != TL_IDLE)
		tl_add(nw, sk, idx, TL_IDLE); /* all answered: waiting for the next request */
}

static inline int
tls_srv_sending(const struct netw *nw, const struct sock *sk, struct snd_src *src, int *fin)
{
	return tls_sending(nw, sk, tls_conn_of(nw, sk), src, fin, srv_fin(sk));
}

/* Only a FIN alone is resent outside a message (tcp_input.h: the data
 * of a message is the sender's); any template of ours says so. */
static inline const struct msg *
tls_srv_resent(const struct netw *nw, const struct sock *sk)
{
	(void)sk;
	return &nw->msg.rsp_ka;
}

static const struct tcp_role tls_server_role = {
	.side = TCP_SERVER,
	.open = tcp_server_open,
	.established = tls_srv_established,
	.sending = tls_srv_sending,
	.resent = tls_srv_resent,
	.unfinished = tls_unfinished,
};

void
tls_server_timer(struct netw *nw, uint32_t idx, int which)
{
	struct sock *sk = &nw->skt.sk[idx];
	struct tls_conn *c;
	struct tuple t;

	if (unlikely(nw->tls->conn[idx].state == TLS_PLAIN)) { /* plain_http */
		nw->tls->under_timer(nw, idx, which);
		return;
	}
	if (which != TL_IDLE) {
		tcp_timer_rt(nw, idx, &tls_server_role);
		return;
	}
	if (sk->state != SK_ESTABLISHED) {
		sk_closed(nw, sk);
		return;
	}
	c = tls_conn_of(nw, sk);
	tls_settle(nw, sk, c);
	if (c->state == TLS_HS) { /* the handshake stalled */
		tls_timeout(c);
		tls_failed(nw, c, TLS_HS);
	} else if (c->state == TLS_UP) {
		CNT(&nw->cnt, IDLE_CLOSE); /* an idle keepalive connection */
	}
	srv_drop_waiting(sk);
	tls_close_after(sk, c);
	sk_tuple(&nw->skt, idx, &t);
	tls_send(nw, sk, idx, &t, c, srv_fin(sk));
}

/* plain_http: whether s belongs to a plain connection, served by the
 * plain server's steps. A connection is plain from its first byte of
 * data, in order, when that is not a TLS handshake record's (0x16, RFC
 * 8446 5.1; an HTTP request's first byte is a method's letter); its conn
 * stays TLS_PLAIN until the socket closes (part_closed). */
static inline int
srv_plain_conn(struct netw *nw, const struct seg *s)
{
	uint64_t idx = sk_index_server(&nw->skt, s->dip, s->sip, s->sport, s->dport);
	struct tls_conn *c;
	const struct sock *sk;

	if (idx == SK_NONE)
		return 0;
	c = &nw->tls->conn[idx];
	if (c->state == TLS_PLAIN)
		return 1;
	sk = &nw->skt.sk[idx];
	if (c->state != TLS_IDLE || s->dlen == 0 || s->seq != sk->rcv_nxt || s->data[0] == 0x16 ||
	    (sk->state != SK_ESTABLISHED && sk->state != SK_SYN_RCVD) || (s->flags & TH_SYN))
		return 0;
	c->state = TLS_PLAIN;
	return 1;
}

void
tls_server_input(struct netw *nw, const struct seg *s)
{
	if (unlikely(nw->tls->sniff) && srv_plain_conn(nw, s)) {
		nw->tls->under_input(nw, s); /* the plain server's (tcp_server_input) */
		return;
	}
	tcp_input(nw, s, &tls_server_role);
}
