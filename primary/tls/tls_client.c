/* SPDX-License-Identifier: BSD-3-Clause
 * The TLS client (protocol https and tls): tcp_input.h's one path with
 * its own role. The SYN+ACK opens the connection and our ClientHello
 * goes with its ACK; once the handshake completes the request is written
 * as records; the plaintext read is the plain client's responses
 * (tcp/tcp_client.h), and after the last one the connection asks again
 * (keepalive) or closes: close_notify, then our FIN.
 */
#include <rte_branch_prediction.h>

#include "tcp/tcp_client.h"
#include "tcp/tcp_common.h"
#include "tcp/tcp_dack.h"
#include "tcp/tcp_input.h"
#include "tcp/tcp_send.h"
#include "tls/tls_src.h"
#include "tls/tls_tcp.h"

/* The request written as records (sent by tls_flush). Returns -1 when
 * the write failed (counted: tlsErr). */
static int
ask(struct netw *nw, struct sock *sk, struct tls_conn *c)
{
	uint32_t n = nw->cfg->pipeline ? nw->cfg->pipeline : 1;

	for (uint32_t i = 0; i < n; i++)
		if (tls_write_msg(nw, c, tcp_client_req(nw, sk)) < 0) {
			tls_failed(nw, c, TLS_UP);
			return -1;
		}
	tcp_client_asked(nw, sk);
	return 0;
}

struct plain_ctx {
	struct netw *nw;
	struct sock *sk;
	int bad;
};

static void
cli_on_plain(void *arg, const uint8_t *data, uint32_t len)
{
	struct plain_ctx *p = arg;

	if (!p->bad && tcp_client_response(p->nw, p->sk, data, len) != 0)
		p->bad = 1;
}

/* The connection's next step once its responses are all in: close, ask
 * now, or on the keepalive timer. */
static int
next(struct netw *nw, struct sock *sk, uint32_t idx, struct tls_conn *c)
{
	if (tcp_client_closing(nw, sk) || c->state != TLS_UP)
		tls_close_after(sk, c);
	else if (nw->tcp->tl[TL_KA].timeout == 0)
		return ask(nw, sk, c);
	else
		tl_add(nw, sk, idx, TL_KA);
	return 0;
}

static void
tls_cli_established(struct netw *nw, struct sock *sk, uint32_t idx, const struct tuple *t,
		    const struct seg *s)
{
	struct tls_conn *c = tls_conn_of(nw, sk);
	uint32_t nxt = sk->snd_nxt, done = sk->req_done;
	struct plain_ctx p = { nw, sk, 0 };

	tls_settle(nw, sk, c);
	if (s->dlen > 0 && !(sk->flags & SKF_CLOSE)) {
		uint8_t was = c->state;
		int r = tls_input(c, s->data, s->dlen, cli_on_plain, &p);

		if (r < 0 || p.bad) {
			if (r < 0 && was == TLS_HS && SSL_is_init_finished(c->ssl)) {
				tls_hs_done(nw, sk, c);
				was = TLS_UP;
			}
			tls_failed(nw, c, was);
			tcp_client_fail(nw, sk, t);
			return;
		}
		if ((r & TLS_EV_DONE)) {
			tls_hs_done(nw, sk, c);
			if (ask(nw, sk, c) < 0) {
				tcp_client_fail(nw, sk, t);
				return;
			}
		}
		/* TLS_EV_CLOSE, the server's close_notify: its FIN follows,
		 * and ends the connection below */
	}
	if (sk->flags & SKF_FIN_RCVD) {
		uint8_t was = c->state;

		if (tls_eof(c) < 0) { /* mid-handshake */
			tls_failed(nw, c, was);
			tcp_client_fail(nw, sk, t);
			return;
		}
		if (sk->inflight > 0) { /* the server closed mid-response */
			tcp_client_fail(nw, sk, t);
			return;
		}
		tls_close_after(sk, c);
	} else if (sk->req_done != done && sk->inflight == 0 && !(sk->flags & SKF_CLOSE) &&
		   next(nw, sk, idx, c) < 0) {
		tcp_client_fail(nw, sk, t);
		return;
	}
	tls_flush(nw, sk, idx, t, c);
	if (sk->snd_nxt != nxt || sk->state != SK_ESTABLISHED)
		return; /* what went carries our ACK */
	if (s->dlen > 0)
		sk_ack_partial(nw, sk, idx, t, s->dlen);
}

/* SYN_SENT: the SYN+ACK; our ClientHello goes with its ACK. */
static void
tls_cli_open(struct netw *nw, struct sock *sk, uint32_t idx, const struct seg *s, const struct tuple *t)
{
	struct tls_conn *c = tls_conn_of(nw, sk);

	if (!tcp_client_opened(nw, sk, s))
		return;
	CNT(&nw->cnt, TLS_HS);
	tls_part_opened(nw->tls, c);
	if (tls_open(c, &nw->tls->side) < 0) {
		tls_failed(nw, c, TLS_HS);
		tcp_client_fail(nw, sk, t);
		return;
	}
	tls_flush(nw, sk, idx, t, c);
}

static inline int
tls_cli_sending(const struct netw *nw, const struct sock *sk, struct snd_src *src, int *fin)
{
	return tls_sending(nw, sk, tls_conn_of(nw, sk), src, fin, (sk->flags & SKF_CLOSE) != 0);
}

static void
tls_cli_unfinished(struct netw *nw, const struct sock *sk)
{
	tls_unfinished(nw, sk);
	tcp_client_unfinished(nw, sk);
}

static const struct tcp_role tls_client_role = {
	.side = TCP_CLIENT,
	.open = tls_cli_open,
	.established = tls_cli_established,
	/* .late_data: none, the server's close_notify after our FIN is not read */
	.sending = tls_cli_sending,
	.resent = tcp_client_resent, /* only a FIN alone: tls_server.c says why */
	.unfinished = tls_cli_unfinished,
};

void
tls_client_timer(struct netw *nw, uint32_t idx, int which)
{
	struct sock *sk = &nw->skt.sk[idx];
	struct tls_conn *c;
	struct tuple t;

	if (unlikely(tls_plain_kind(nw, sk))) { /* a kind marked http: plain */
		nw->tls->under_timer(nw, idx, which);
		return;
	}
	if (which != TL_KA) {
		tcp_timer_rt(nw, idx, &tls_client_role);
		return;
	}
	c = tls_conn_of(nw, sk);
	sk_tuple(&nw->skt, idx, &t);
	tls_settle(nw, sk, c);
	if (nw->stopping || c->state != TLS_UP) {
		tls_close_after(sk, c);
	} else if (ask(nw, sk, c) < 0) {
		tcp_client_fail(nw, sk, &t);
		return;
	}
	tls_flush(nw, sk, idx, &t, c);
}

void
tls_client_input(struct netw *nw, const struct seg *s)
{
	if (unlikely(nw->tls->plain_kinds != 0)) { /* a mix of http and https kinds */
		uint64_t idx = sk_index_client(&nw->skt, s->dip, s->dport, s->sport);

		if (idx != SK_NONE && tls_plain_kind(nw, &nw->skt.sk[idx])) {
			nw->tls->under_input(nw, s); /* the plain client's (tcp_client_input) */
			return;
		}
	}
	tcp_input(nw, s, &tls_client_role);
}
