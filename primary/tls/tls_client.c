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

/* The connection fails: counted (skErr, an unfinished response) and
 * reset, as the plain client does with a malformed response. */
static void
cli_fail(struct netw *w, struct sock *sk, const struct tuple *t)
{
	CNT(&w->cnt, SK_ERR);
	tcp_client_unfinished(w, sk);
	sk_ctl(w, t, sk, TH_RST | TH_ACK);
	sk_closed(w, sk);
}

/* The request written as records (sent by tls_flush). Returns -1 when
 * the write failed (counted: tlsErr). */
static int
ask(struct netw *w, struct sock *sk, struct tls_conn *c)
{
	uint32_t n = w->cfg->pipeline ? w->cfg->pipeline : 1;

	for (uint32_t i = 0; i < n; i++)
		if (tls_write_msg(w, c, &w->msg.req) < 0) {
			tls_failed(w, c, TLS_UP);
			return -1;
		}
	tcp_client_asked(w, sk);
	return 0;
}

struct plain_ctx {
	struct netw *w;
	struct sock *sk;
	int bad;
};

static void
on_plain(void *arg, const uint8_t *data, uint32_t len)
{
	struct plain_ctx *p = arg;

	if (!p->bad && tcp_client_response(p->w, p->sk, data, len) != 0)
		p->bad = 1;
}

/* The connection's next step once its responses are all in: close, ask
 * now, or on the keepalive timer. */
static int
next(struct netw *w, struct sock *sk, uint32_t idx, struct tls_conn *c)
{
	if (tcp_client_closing(w, sk) || c->state != TLS_UP)
		tls_close_after(sk, c);
	else if (w->tcp->tl[TL_KA].timeout == 0)
		return ask(w, sk, c);
	else
		tl_add(w, sk, idx, TL_KA);
	return 0;
}

static void
tls_cli_established(struct netw *w, struct sock *sk, uint32_t idx, const struct tuple *t,
		    const struct seg *s)
{
	struct tls_conn *c = tls_conn_of(w, sk);
	uint32_t nxt = sk->snd_nxt, done = sk->req_done;
	struct plain_ctx p = { w, sk, 0 };

	tls_settle(w, sk, c);
	if (s->dlen > 0 && !(sk->flags & SKF_CLOSE)) {
		uint8_t was = c->state;
		int r = tls_input(c, s->data, s->dlen, on_plain, &p);

		if (r < 0 || p.bad) {
			if (r < 0 && was == TLS_HS && SSL_is_init_finished(c->ssl)) {
				tls_hs_done(w, sk, c);
				was = TLS_UP;
			}
			tls_failed(w, c, was);
			cli_fail(w, sk, t);
			return;
		}
		if ((r & TLS_EV_DONE)) {
			tls_hs_done(w, sk, c);
			if (ask(w, sk, c) < 0) {
				cli_fail(w, sk, t);
				return;
			}
		}
		/* TLS_EV_CLOSE, the server's close_notify: its FIN follows,
		 * and ends the connection below */
	}
	if (sk->flags & SKF_FIN_RCVD) {
		uint8_t was = c->state;

		if (tls_eof(c) < 0) { /* mid-handshake */
			tls_failed(w, c, was);
			cli_fail(w, sk, t);
			return;
		}
		if (sk->inflight > 0) { /* the server closed mid-response */
			cli_fail(w, sk, t);
			return;
		}
		tls_close_after(sk, c);
	} else if (sk->req_done != done && sk->inflight == 0 && !(sk->flags & SKF_CLOSE) &&
		   next(w, sk, idx, c) < 0) {
		cli_fail(w, sk, t);
		return;
	}
	tls_flush(w, sk, idx, t, c);
	if (sk->snd_nxt != nxt || sk->state != SK_ESTABLISHED)
		return; /* what went carries our ACK */
	if (s->dlen > 0)
		sk_ack_partial(w, sk, idx, t, s->dlen);
}

/* SYN_SENT: the SYN+ACK; our ClientHello goes with its ACK. */
static void
tls_cli_open(struct netw *w, struct sock *sk, uint32_t idx, const struct seg *s, const struct tuple *t)
{
	struct tls_conn *c = tls_conn_of(w, sk);

	if (!tcp_client_opened(w, sk, s))
		return;
	CNT(&w->cnt, TLS_HS);
	if (tls_open(c, &w->tls->side) < 0) {
		tls_failed(w, c, TLS_HS);
		cli_fail(w, sk, t);
		return;
	}
	tls_flush(w, sk, idx, t, c);
}

static inline int
tls_cli_sending(const struct netw *w, const struct sock *sk, struct snd_src *src, int *fin)
{
	if (!snd_active(w, sk))
		return 0;
	tls_src(src, tls_conn_of(w, sk));
	*fin = (sk->flags & SKF_CLOSE) != 0;
	return 1;
}

/* Only a FIN alone is resent outside a message (tls_server.c says why). */
static inline const struct msg *
tls_cli_resent(const struct netw *w, const struct sock *sk)
{
	(void)sk;
	return &w->msg.req;
}

static void
tls_cli_unfinished(struct netw *w, const struct sock *sk)
{
	tls_unfinished(w, sk);
	tcp_client_unfinished(w, sk);
}

static const struct tcp_role tls_client_role = {
	.side = TCP_CLIENT,
	.fin_wait = TL_RT,
	.open = tls_cli_open,
	.established = tls_cli_established,
	/* .late_data: none, the server's close_notify after our FIN is not read */
	.sending = tls_cli_sending,
	.resent = tls_cli_resent,
	.unfinished = tls_cli_unfinished,
};

void
tls_client_timer(struct netw *w, uint32_t idx, int which)
{
	struct sock *sk = &w->skt.sk[idx];
	struct tls_conn *c;
	struct tuple t;

	if (which != TL_KA) {
		tcp_timer_rt(w, idx, &tls_client_role);
		return;
	}
	c = tls_conn_of(w, sk);
	sk_tuple(&w->skt, idx, &t);
	tls_settle(w, sk, c);
	if (w->stopping || c->state != TLS_UP) {
		tls_close_after(sk, c);
	} else if (ask(w, sk, c) < 0) {
		cli_fail(w, sk, &t);
		return;
	}
	tls_flush(w, sk, idx, &t, c);
}

void
tls_client_input(struct netw *w, const struct seg *s)
{
	tcp_input(w, s, &tls_client_role);
}
