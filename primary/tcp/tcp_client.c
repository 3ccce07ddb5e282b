/* SPDX-License-Identifier: BSD-3-Clause
 * The client side: open connections, send requests, read responses, close.
 *
 * Life of a connection (no keepalive, dperf's CPS test):
 *   SYN ->  <- SYN+ACK   ACK+request ->   <- response(+FIN)
 *   FIN+ACK ->  <- ACK   (no TIME_WAIT: the tuple is reused much later)
 */
#include <rte_branch_prediction.h>

#include "net/lat.h"
#include "state/mix.h"
#include "tcp/tcp.h"
#include "tcp/tcp_common.h"
#include "tcp/tcp_dack.h"
#include "tcp/tcp_input.h"
#include "tcp/tcp_send.h"
#include "tcp/tcp_client.h"

static void
send_request(struct netw *nw, struct sock *sk, uint32_t idx, const struct tuple *t)
{
	const struct msg *req = tcp_client_req(nw, sk);

	/* a POST body over several segments (a worker with a sender may
	 * also send requests of one segment: the http kinds of a mix with
	 * https ones, whose records take the sender) */
	if (unlikely(nw->tcp->snd != NULL) && req->seg_sum != NULL) {
		struct snd_src src;

		snd_src_msg(&src, req);
		snd_begin(nw, sk, t, &src, 0);
	} else {
		sk_send_msg(nw, t, sk, sk->snd_nxt, TH_ACK | TH_PSH, req);
		sk_ack_sent(sk); /* the request carries the ACK of the last response */
		sk->snd_nxt += req->len;
		CNT_ADD(&nw->cnt, GOOD_TX, (uint64_t)req->len * 8);
	}
	tcp_client_asked(nw, sk);
	snd_arm_rt(nw, sk, idx);
}

void
tcp_client_asked(struct netw *nw, struct sock *sk)
{
	uint32_t n = nw->cfg->pipeline ? nw->cfg->pipeline : 1;

	sk->inflight = (uint8_t)n;
	sk->retries = 0;
	sk->t_start = nw->now;
	sk->flags |= SKF_FIRST_BYTE;
	nw->cnt.c[nw->tcp->app.asked] += n; /* httpGet, httpPost or tcpReq */
	tcp_client_kind_count(nw, sk, DP_KC_REQ, n);
}

/* Close from our side: FIN (or RST with fast_close). */
static void
active_close(struct netw *nw, struct sock *sk, uint32_t idx, const struct tuple *t)
{
	if (nw->fast_close) {
		sk_ctl(nw, t, sk, TH_RST | TH_ACK);
		sk_closed(nw, sk);
		return;
	}
	sk_ctl(nw, t, sk, TH_FIN | TH_ACK);
	sk_fin_sent(sk);
	sk->retries = 0;
	tl_add(nw, sk, idx, TL_RT);
}

/* A connection that ends with a response unfinished (a request sent,
 * its answer not all read), whatever ended it: the response is an error
 * (httpErr, beside the connection's skErr). */
void
tcp_client_unfinished(struct netw *nw, const struct sock *sk)
{
	nw->tcp->app.unfinished(nw, sk);
	if (sk->inflight > 0) /* as HTTP's httpErr */
		tcp_client_kind_count(nw, sk, DP_KC_HTTP_ERR, 1);
}

void
tcp_client_fail(struct netw *nw, struct sock *sk, const struct tuple *t)
{
	CNT(&nw->cnt, SK_ERR);
	tcp_client_unfinished(nw, sk);
	sk_ctl(nw, t, sk, TH_RST | TH_ACK);
	sk_closed(nw, sk);
}

/* The server's FIN may end a response whose body ends at the close (the
 * application says: app.fin); one it leaves unfinished next_step fails.
 * A reset or retries running out leave that one unfinished too
 * (tcp_client_unfinished): only the FIN tells its end from a failure. */
static inline void
fin_ends_response(struct netw *nw, struct sock *sk)
{
	(void)nw->tcp->app.fin(nw, sk);
}

int
tcp_client_closing(const struct netw *nw, const struct sock *sk)
{
	uint32_t ka_num = nw->tcp->ka_num[sk->kind];

	return (sk->flags & SKF_FIN_RCVD) || !nw->keepalive || nw->stopping ||
	       (ka_num && sk->req_done >= ka_num);
}

/* After response data (dlen bytes; 0 for a FIN alone): next request,
 * wait, or close. The ACK of the data rides on what we send next when
 * that leaves within the delayed-ACK time (tcp_dack.h). */
static void
next_step(struct netw *nw, struct sock *sk, uint32_t idx, const struct tuple *t, uint32_t dlen)
{
	if (sk->inflight > 0 && (sk->flags & SKF_FIN_RCVD))
		fin_ends_response(nw, sk);
	if (sk->inflight > 0) {
		if (sk->flags & SKF_FIN_RCVD) { /* peer closed mid-response */
			tcp_client_fail(nw, sk, t);
		} else if (dlen) {
			/* More of the response to come: the server makes
			 * progress, its retransmission timer starts again (a
			 * slow but steady answer is not a lost one). */
			sk->retries = 0;
			tl_add(nw, sk, idx, TL_RT);
			sk_ack_partial(nw, sk, idx, t, dlen);
		}
		return;
	}
	if (tcp_client_closing(nw, sk)) {
		active_close(nw, sk, idx, t);
		return;
	}
	if (nw->tcp->tl[TL_KA].timeout == 0) {
		send_request(nw, sk, idx, t);
		return;
	}
	/* The next request leaves when the keepalive timer fires: if that is
	 * within the delay (or disable_ack says wait for it), it carries the
	 * ACK; else nothing would, and the ACK goes now (tcp_dack.h). */
	if (dlen && (nw->tcp->disable_ack || (nw->tcp->dack && nw->tcp->tl[TL_KA].timeout <= nw->tcp->dack_t)))
		sk_ack_with_next(nw, sk, t, dlen);
	else if (dlen)
		sk_ctl(nw, t, sk, TH_ACK);
	tl_add(nw, sk, idx, TL_KA);
}

/* The first byte of an answer, then the bytes of responses. Returns
 * nonzero when a malformed (or unasked-for) response ended the
 * connection. */
int
tcp_client_response(struct netw *nw, struct sock *sk, const uint8_t *p, uint32_t len)
{
	if (sk->flags & SKF_FIRST_BYTE) {
		sk->flags &= (uint8_t)~SKF_FIRST_BYTE;
		lat_add_kind(nw, DP_LAT_FIRST_BYTE, sk->kind, nw->now - sk->t_start);
	}
	tcp_client_kind_count(nw, sk, DP_KC_GOOD_RX, (uint64_t)len * 8);
	return nw->tcp->app.rcv(nw, sk, p, len);
}

static int
client_read(struct netw *nw, struct sock *sk, const struct tuple *t, const struct seg *s)
{
	if (tcp_client_response(nw, sk, s->data, s->dlen) != 0) {
		tcp_client_fail(nw, sk, t);
		return 1;
	}
	return 0;
}

/* The client's established step: read the response, then the next. */
static void
client_established(struct netw *nw, struct sock *sk, uint32_t idx, const struct tuple *t,
		   const struct seg *s)
{
	if (s->dlen > 0 && client_read(nw, sk, t, s))
		return;
	if (s->dlen > 0 || (s->flags & TH_FIN))
		next_step(nw, sk, idx, t, s->dlen);
}

/* SYN_SENT: the SYN+ACK acknowledging our SYN opens the connection and
 * the request goes with our ACK; anything else is dropped. */
static void
client_open(struct netw *nw, struct sock *sk, uint32_t idx, const struct seg *s,
	    const struct tuple *t)
{
	if (!tcp_client_opened(nw, sk, s))
		return;
	send_request(nw, sk, idx, t);
}

int
tcp_client_opened(struct netw *nw, struct sock *sk, const struct seg *s)
{
	if ((s->flags & (TH_SYN | TH_ACK)) != (TH_SYN | TH_ACK) || s->ack != sk->snd_nxt) {
		CNT(&nw->cnt, TCP_DROP);
		return 0;
	}
	sk->snd_una = s->ack;
	sk->rcv_nxt = s->seq + 1;
	sk->state = SK_ESTABLISHED;
	sk_set_mss(nw, sk, s);
	if (s->sack_ok) /* ours offered it */
		sk->flags |= SKF_SACK;
	if (s->ws != SEG_NO_WS) /* ours offered it: our window is scaled from now on */
		sk->flags |= SKF_WS;
	if (nw->tcp->snd) /* our SYN offered window scaling */
		snd_open(nw, sk, sk_snd_of(nw, sk), s, 1);
	lat_add_kind(nw, DP_LAT_CONNECT, sk->kind, nw->now - sk->t_start);
	return 1;
}

/* A POST body over several segments on its way. */
static inline int
client_sending(const struct netw *nw, const struct sock *sk, struct snd_src *src, int *fin)
{
	if (likely(!snd_active(nw, sk)))
		return 0;
	snd_src_msg(src, tcp_client_req(nw, sk));
	*fin = 0;
	return 1;
}

static const struct tcp_role client_role = {
	.side = TCP_CLIENT,
	.open = client_open,
	.established = client_established,
	.late_data = client_read, /* nobody asked for it: an error */
	.sending = client_sending,
	.resent = tcp_client_resent,
	.unfinished = tcp_client_unfinished,
};

/* The client's segments (net/l4.h), bound once (net/rx.c: rx_bind);
 * under TLS the filter's input is bound instead, and calls tcp_input
 * with its own role. */
void
tcp_client_input(struct netw *nw, const struct seg *s)
{
	tcp_input(nw, s, &client_role);
}

int
tcp_client_launch(struct netw *nw)
{
	uint64_t idx;
	struct tuple t;
	struct sock *sk;

	/* The next free tuple; bounded so a full table costs little. A failed
	 * search resumes where it stopped. */
	for (int tries = 0; tries < 64; tries++) {
		sk = &nw->skt.sk[nw->cur.cursor];
		if (sk->state == SK_CLOSED || nw->flood)
			break;
		sk_cursor_step(&nw->cur, &nw->skt);
		sk = NULL;
	}
	if (sk == NULL) {
		CNT(&nw->cnt, LAUNCH_FULL);
		return -1;
	}
	idx = nw->cur.cursor;
	sk_cursor_tuple(&nw->cur, &nw->skt, &t);
	sk_cursor_step(&nw->cur, &nw->skt);
	CNT(&nw->cnt, SYN_TX);
	if (nw->flood) {
		if (nw->cur.dip_num)
			sk_cursor_dip(&nw->cur, &t);
		tcp_flood_syn(nw, &t, tcp_iss(nw, idx));
		return 0;
	}
	sk_opened(nw, sk); /* kind 0 */
	if (unlikely(nw->tcp->mix != NULL)) { /* kind lines: this connection's (state/mix.h) */
		sk->kind = (uint8_t)mix_pick(nw->tcp->mix);
		t.rip = sk_srv_ip(&nw->skt, sk); /* its own server pool's, or the server line's */
	}
	sk->snd_una = tcp_iss(nw, idx);
	sk->snd_nxt = sk->snd_una + 1;
	sk->rcv_nxt = 0;
	sk->state = SK_SYN_SENT;
	tcp_out(nw, &t, sk->snd_una, 0, TH_SYN, tcp_out_win(nw, 0), NULL);
	tl_add(nw, sk, (uint32_t)idx, TL_RT);
	return 0;
}

void
tcp_client_close_idle(struct netw *nw, uint32_t idx)
{
	/* Called while stopping (engine/worker.c), when the keepalive
	 * timer's step closes: the role's own close, as bound (plain TCP:
	 * active_close; TLS: close_notify, then FIN). */
	nw->tcp->timer(nw, idx, TL_KA);
}

void
tcp_client_timer(struct netw *nw, uint32_t idx, int which)
{
	if (which == TL_KA) {
		struct sock *sk = &nw->skt.sk[idx];
		struct tuple t;

		sk_tuple(&nw->skt, idx, &t);
		if (nw->stopping)
			active_close(nw, sk, idx, &t);
		else
			send_request(nw, sk, idx, &t);
		return;
	}
	tcp_timer_rt(nw, idx, &client_role);
}
