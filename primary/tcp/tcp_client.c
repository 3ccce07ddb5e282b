/* SPDX-License-Identifier: BSD-3-Clause
 * The client side: open connections, send requests, read responses, close.
 *
 * Life of a connection (no keepalive, dperf's CPS test):
 *   SYN ->  <- SYN+ACK   ACK+request ->   <- response(+FIN)
 *   FIN+ACK ->  <- ACK   (no TIME_WAIT: the tuple is reused much later)
 */
#include <rte_branch_prediction.h>

#include "http/http.h"
#include "tcp/tcp.h"
#include "tcp/tcp_common.h"
#include "tcp/tcp_dack.h"
#include "tcp/tcp_input.h"
#include "tcp/tcp_send.h"

#define SKF_FIRST_BYTE 0x10 /* a request sent, no byte of its answer yet (time to first byte) */

static void
send_request(struct worker *w, struct sock *sk, uint32_t idx, const struct tuple *t)
{
	uint32_t n = w->cfg->pipeline ? w->cfg->pipeline : 1;

	if (unlikely(w->sktx != NULL)) { /* a POST body over several segments */
		struct tx_src src;

		tx_src_msg(&src, &w->req);
		tx_begin(w, sk, t, &src, 0);
	} else {
		pkt_tcp(w, t, sk->snd_nxt, sk->rcv_nxt, TH_ACK | TH_PSH, &w->req);
		sk_ack_sent(sk); /* the request carries the ACK of the last response */
		sk->snd_nxt += w->req.len;
		CNT_ADD(w, GOOD_TX, (uint64_t)w->req.len * 8);
	}
	sk->inflight = (uint8_t)n;
	sk->retries = 0;
	sk->t_start = w->now;
	sk->flags |= SKF_FIRST_BYTE;
	if (w->is_http && w->cfg->http_method == DP_HTTP_POST)
		CNT_ADD(w, HTTP_POST, n);
	else if (w->is_http)
		CNT_ADD(w, HTTP_GET, n);
	else
		CNT_ADD(w, TCP_REQ, n);
	tx_arm_rt(w, sk, idx);
}

/* Close from our side: FIN (or RST with fast_close). */
static void
active_close(struct worker *w, struct sock *sk, uint32_t idx, const struct tuple *t)
{
	if (w->fast_close) {
		sk_ctl(w, t, sk, TH_RST | TH_ACK);
		sk_closed(w, sk);
		return;
	}
	sk_ctl(w, t, sk, TH_FIN | TH_ACK);
	sk->snd_nxt++;
	sk->state = (sk->flags & SKF_FIN_RCVD) ? SK_LAST_ACK : SK_FIN_WAIT_1;
	sk->retries = 0;
	tl_add(w, sk, idx, TL_RT);
}

static void
fail(struct worker *w, struct sock *sk, const struct tuple *t)
{
	CNT(w, SK_ERR);
	sk_ctl(w, t, sk, TH_RST | TH_ACK);
	sk_closed(w, sk);
}

/* A response has ended (its last byte arrived in order). The latency of
 * a pipelined batch is its last response's. */
static void
response_end(struct worker *w, struct sock *sk, enum dp_counter c)
{
	sk->inflight--;
	sk->req_done++;
	if (w->lat && sk->inflight == 0)
		dp_hist_add(&w->lat->response, w->now - sk->t_start);
	w->st->c[c]++;
}

/* Consume response bytes. Returns -1 on a malformed response. */
static int
read_response(struct worker *w, struct sock *sk, const uint8_t *p, uint32_t len)
{
	if (!w->is_http) {
		uint32_t got = sk->raw_got + len;
		while (got >= w->rsp_size && sk->inflight > 0) {
			got -= w->rsp_size;
			response_end(w, sk, DP_C_TCP_RSP);
		}
		sk->raw_got = (uint16_t)got;
		return got >= w->rsp_size ? -1 : 0;
	}
	while (len > 0) {
		uint32_t used;
		int rc;

		if (dp_rsp_scan_idle(&sk->rs)) {
			int status;
			uint32_t total;

			if (sk->inflight == 0) { /* bytes nobody asked for */
				CNT(w, HTTP_ERR);
				return -1;
			}
			/* The common case: the whole head in this segment, the
			 * same as the last one (one memcmp). A response all in
			 * this segment ends here; else the scanner counts the
			 * rest down. Otherwise it reads the head a byte at a
			 * time (split, chunked, or new): tens of times the
			 * memcmp, so not for the CPS test's every response. */
			if (dp_http_parse_response_cached(&w->rsp_head, p, len, &status, &total) == 0) {
				enum dp_counter c = status >= 200 && status < 300 ? DP_C_HTTP_2XX : DP_C_HTTP_ERR;

				if (total <= len) {
					p += total;
					len -= total;
					response_end(w, sk, c);
					continue;
				}
				dp_rsp_scan_body(&sk->rs, total, c == DP_C_HTTP_2XX);
			}
		}
		rc = dp_rsp_scan(&sk->rs, p, len, &used);
		if (rc == DP_RSP_BAD) {
			CNT(w, HTTP_ERR);
			return -1;
		}
		p += used;
		len -= used;
		if (rc != DP_RSP_MORE)
			response_end(w, sk, rc == DP_RSP_2XX ? DP_C_HTTP_2XX : DP_C_HTTP_ERR);
	}
	return 0;
}

/* After response data (dlen bytes; 0 for a FIN alone): next request,
 * wait, or close. The ACK of the data rides on what we send next when
 * that leaves within the delayed-ACK time (tcp_dack.h). */
static void
next_step(struct worker *w, struct sock *sk, uint32_t idx, const struct tuple *t, uint32_t dlen)
{
	if (sk->inflight > 0) {
		if (sk->flags & SKF_FIN_RCVD) { /* peer closed mid-response */
			CNT(w, HTTP_ERR);
			fail(w, sk, t);
		} else if (dlen) {
			sk_ack_partial(w, sk, idx, t, dlen); /* more of the response to come */
		}
		return;
	}
	if ((sk->flags & SKF_FIN_RCVD) || !w->keepalive || w->stopping ||
	    (w->ka_num && sk->req_done >= w->ka_num)) {
		active_close(w, sk, idx, t);
		return;
	}
	if (w->tl[TL_KA].timeout == 0) {
		send_request(w, sk, idx, t);
		return;
	}
	/* The next request leaves when the keepalive timer fires: if that is
	 * within the delay (or disable_ack says wait for it), it carries the
	 * ACK; else nothing would, and the ACK goes now (tcp_dack.h). */
	if (dlen && (w->disable_ack || (w->dack && w->tl[TL_KA].timeout <= w->dack_t)))
		sk_ack_with_next(w, sk, t, dlen);
	else if (dlen)
		sk_ctl(w, t, sk, TH_ACK);
	tl_add(w, sk, idx, TL_KA);
}

/* The first byte of an answer, then the bytes of responses. Returns
 * nonzero when a malformed (or unasked-for) response ended the
 * connection. */
static int
client_read(struct worker *w, struct sock *sk, const struct tuple *t, const struct seg *s)
{
	if (sk->flags & SKF_FIRST_BYTE) {
		sk->flags &= (uint8_t)~SKF_FIRST_BYTE;
		if (w->lat)
			dp_hist_add(&w->lat->first_byte, w->now - sk->t_start);
	}
	if (read_response(w, sk, s->data, s->dlen) != 0) {
		fail(w, sk, t);
		return 1;
	}
	return 0;
}

/* The client's established step: read the response, then the next. */
static void
client_established(struct worker *w, struct sock *sk, uint32_t idx, const struct tuple *t,
		   const struct seg *s)
{
	if (s->dlen > 0 && client_read(w, sk, t, s))
		return;
	if (s->dlen > 0 || (s->flags & TH_FIN))
		next_step(w, sk, idx, t, s->dlen);
}

/* SYN_SENT: the SYN+ACK acknowledging our SYN opens the connection and
 * the request goes with our ACK; anything else is dropped. */
static void
client_open(struct worker *w, struct sock *sk, uint32_t idx, const struct seg *s,
	    const struct tuple *t)
{
	if ((s->flags & (TH_SYN | TH_ACK)) != (TH_SYN | TH_ACK) || s->ack != sk->snd_nxt) {
		CNT(w, TCP_DROP);
		return;
	}
	sk->snd_una = s->ack;
	sk->rcv_nxt = s->seq + 1;
	sk->state = SK_ESTABLISHED;
	if (s->sack_ok) /* ours offered it */
		sk->flags |= SKF_SACK;
	if (w->sktx) /* our SYN offered window scaling */
		tx_open(w, sk, sk_tx_of(w, sk), s, 1);
	if (w->lat)
		dp_hist_add(&w->lat->connect, w->now - sk->t_start);
	send_request(w, sk, idx, t);
}

/* A POST body over several segments on its way. */
static inline int
client_sending(const struct worker *w, const struct sock *sk, struct tx_src *src, int *fin)
{
	if (likely(!tx_active(w, sk)))
		return 0;
	tx_src_msg(src, &w->req);
	*fin = 0;
	return 1;
}

static inline const struct msg *
client_resent(const struct worker *w, const struct sock *sk)
{
	(void)sk;
	return &w->req;
}

static const struct tcp_role client_role = {
	.side = TCP_CLIENT,
	.fin_wait = TL_RT,
	.open = client_open,
	.established = client_established,
	.late_data = client_read, /* nobody asked for it: an error */
	.sending = client_sending,
	.resent = client_resent,
};

void
tcp_client_input(struct worker *w, const struct seg *s)
{
	tcp_input(w, s, &client_role);
}

int
tcp_client_launch(struct worker *w)
{
	uint64_t idx;
	struct tuple t;
	struct sock *sk;

	/* The next free tuple; bounded so a full table costs little. A failed
	 * search resumes where it stopped. */
	for (int tries = 0; tries < 64; tries++) {
		sk = &w->sk[w->cursor];
		if (sk->state == SK_CLOSED || w->flood)
			break;
		sk_cursor_step(w);
		sk = NULL;
	}
	if (sk == NULL)
		return -1;
	idx = w->cursor;
	sk_cursor_tuple(w, &t);
	sk_cursor_step(w);
	CNT(w, SYN_TX);
	if (w->flood) {
		if (w->dip_num)
			sk_cursor_dip(w, &t);
		pkt_flood_syn(w, &t, tcp_iss(w, idx));
		return 0;
	}
	sk_opened(w, sk);
	sk->snd_una = tcp_iss(w, idx);
	sk->snd_nxt = sk->snd_una + 1;
	sk->rcv_nxt = 0;
	sk->state = SK_SYN_SENT;
	pkt_tcp(w, &t, sk->snd_una, 0, TH_SYN, NULL);
	tl_add(w, sk, (uint32_t)idx, TL_RT);
	return 0;
}

void
tcp_client_close_idle(struct worker *w, uint32_t idx)
{
	struct sock *sk = &w->sk[idx];
	struct tuple t;

	sk_tuple(w, idx, &t);
	active_close(w, sk, idx, &t);
}

void
tcp_client_timer(struct worker *w, uint32_t idx, int which)
{
	if (which == TL_KA) {
		struct sock *sk = &w->sk[idx];
		struct tuple t;

		sk_tuple(w, idx, &t);
		if (w->stopping)
			active_close(w, sk, idx, &t);
		else
			send_request(w, sk, idx, &t);
		return;
	}
	tcp_timer_rt(w, idx, &client_role);
}
