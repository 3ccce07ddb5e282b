/* SPDX-License-Identifier: BSD-3-Clause
 * The server side: accept on every server address and listen port, answer
 * each request with the prebuilt response, close as the client or the
 * configuration asks.
 */
#include <rte_branch_prediction.h>
#include <rte_cycles.h>

#include "http/http.h"
#include "tcp/tcp.h"
#include "tcp/tcp_common.h"
#include "tcp/tcp_dack.h"

#define SKF_WANT_CLOSE SKF_CLOSE

/* The answer to a request of this kind (DP_REQ_NONE: raw TCP). A HEAD
 * gets the head of a GET's answer without its body (RFC 9110 9.3.2: a
 * keep-alive client would read the body as the next response); a request
 * that is not GET, HEAD or POST HTTP gets 400 and the connection closes
 * (it was answered 200 and counted in httpGet: a load-test server must
 * not hide a client that sends something else). */
static inline const struct msg *
answer(const struct worker *w, const struct sock *sk, uint8_t kind)
{
	int ka = w->keepalive && !(sk->flags & SKF_WANT_CLOSE);

	if (kind == DP_REQ_BAD)
		return &w->rsp_bad;
	if (kind == DP_REQ_HEAD)
		return ka ? &w->rsp_head_ka : &w->rsp_head_close;
	return ka ? &w->rsp_ka : &w->rsp_close;
}

/* What a retransmission sends again: the last answer. */
static inline const struct msg *
response(const struct worker *w, const struct sock *sk)
{
	return answer(w, sk, sk->last_kind);
}

/* Whether the connection closes after the answer in progress. */
static inline int
closing(const struct worker *w, const struct sock *sk)
{
	return !w->keepalive || (sk->flags & (SKF_WANT_CLOSE | SKF_FIN_RCVD)) || w->stopping;
}

/* An answer longer than mss goes out a segment at a time, as many as fit
 * in the window: send_window segments (dperf's, default 4), at most what
 * the peer advertises. rsp_left says how much of it is not sent yet;
 * segments start at multiples of mss in the message (their sums are
 * precomputed), so a retransmission is cut from the same template and a
 * socket keeps its 64 bytes. The last segment carries the FIN when the
 * connection closes. force: send one segment whatever the window (a
 * retransmission, or a probe of a zero window). Returns segments sent. */
static uint32_t
send_more(struct worker *w, struct sock *sk, const struct tuple *t, const struct msg *m, int force)
{
	uint32_t n = 0;

	while (sk->rsp_left) {
		uint32_t off = m->len - sk->rsp_left, wnd = w->send_wnd, inflight;
		struct msg seg;
		uint8_t f = TH_ACK;

		msg_segment(m, w->mss, off / w->mss, &seg);
		if (sk->snd_wnd < wnd)
			wnd = sk->snd_wnd;
		inflight = sk->snd_nxt - sk->snd_una;
		if (!(force && n == 0) && inflight + seg.len > wnd)
			break;
		/* The device is not keeping up: the rest waits for the next
		 * ACK (something is in flight, so one will come) rather than
		 * overflow the TX queue into dropTx and retransmissions. */
		if (inflight && tx_congested(w))
			break;
		if (seg.len == sk->rsp_left) {
			f |= TH_PSH;
			if (closing(w, sk))
				f |= TH_FIN;
		}
		pkt_tcp(w, t, sk->snd_nxt, sk->rcv_nxt, f, &seg);
		sk->snd_nxt += seg.len;
		sk->rsp_left -= seg.len;
		sk_ack_sent(sk);
		n++;
		if (f & TH_FIN) {
			sk->snd_nxt++;
			CNT(w, FIN_TX);
			sk->state = (sk->flags & SKF_FIN_RCVD) ? SK_LAST_ACK : SK_FIN_WAIT_1;
		}
	}
	return n;
}

/* The retransmission timer of an answer over several segments: back to
 * the segment that holds snd_una (go-back-N from the template), sent
 * whatever the window, then as many as the window allows. A FIN already
 * sent goes again with the last segment. */
static void
resend_answer(struct worker *w, struct sock *sk, const struct tuple *t, const struct msg *m)
{
	int fin = sk->state == SK_FIN_WAIT_1 || sk->state == SK_LAST_ACK;
	uint32_t unacked = sk->snd_nxt - sk->snd_una - (fin && sk->snd_nxt != sk->snd_una);
	uint32_t off_una = m->len - sk->rsp_left - unacked;
	uint32_t k = off_una / w->mss, back = off_una - k * w->mss, old_nxt = sk->snd_nxt, n;

	if (fin) { /* not sent yet, again */
		sk->state = SK_ESTABLISHED;
		old_nxt--;
	}
	sk->rsp_left = m->len - k * w->mss;
	sk->snd_nxt = sk->snd_una - back;
	n = send_more(w, sk, t, m, 1);
	/* segments below the old snd_nxt were sent before */
	for (uint32_t i = 0, seq = sk->snd_una - back; i < n && seq_lt(seq, old_nxt); i++) {
		CNT(w, PUSH_RT);
		seq += w->mss;
	}
}

/* The peer acknowledged bytes of a resent answer beyond snd_nxt: they
 * need not go again (and the FIN with them, when it came that far). */
static void
skip_acked(struct worker *w, struct sock *sk)
{
	uint32_t skip = sk->snd_una - sk->snd_nxt;

	(void)w;
	sk->snd_nxt = sk->snd_una;
	if (skip <= sk->rsp_left) {
		sk->rsp_left -= skip;
		return;
	}
	sk->rsp_left = 0; /* the FIN too */
	sk->state = (sk->flags & SKF_FIN_RCVD) ? SK_LAST_ACK : SK_FIN_WAIT_1;
}

/* The requests of one segment, as runs of one method. More changes of
 * method in one segment than this end the connection as a bad request. */
#define MAX_RUNS 16
struct req_runs {
	uint32_t n;      /* runs */
	uint32_t total;  /* requests */
	uint8_t kind[MAX_RUNS];
	uint32_t count[MAX_RUNS];
};

static void
runs_add(struct req_runs *r, uint8_t kind)
{
	if (r->n > 0 && r->kind[r->n - 1] == kind) {
		r->count[r->n - 1]++;
	} else {
		if (r->n == MAX_RUNS - 1)
			kind = DP_REQ_BAD; /* the last run: 400, then close */
		r->kind[r->n] = kind;
		r->count[r->n++] = 1;
	}
	r->total++;
}

static void
accept_syn(struct worker *w, struct sock *sk, uint64_t idx, const struct seg *s,
	   const struct tuple *t)
{
	if (sk->state == SK_SYN_RCVD && s->seq + 1 == sk->rcv_nxt) {
		/* The client retransmitted its SYN: our SYN+ACK was lost. */
		pkt_tcp(w, t, sk->snd_una, sk->rcv_nxt, TH_SYN | TH_ACK, NULL);
		CNT(w, SYN_RT);
		CNT(w, SYN_TX);
		return;
	}
	if (sk->state != SK_CLOSED) /* the tuple is reused: forget the old one */
		sk_closed(w, sk);
	sk_opened(w, sk);
	sk->rcv_nxt = s->seq + 1;
	sk->snd_wnd = s->win;
	sk->snd_una = tcp_iss(w, idx);
	sk->snd_nxt = sk->snd_una + 1;
	sk->state = SK_SYN_RCVD;
	pkt_tcp(w, t, sk->snd_una, sk->rcv_nxt, TH_SYN | TH_ACK, NULL);
	CNT(w, SYN_TX);
	tl_add(w, sk, (uint32_t)idx, TL_RT);
}

/* The complete requests in a segment, counted by method (httpGet counts
 * GET and HEAD, httpPost POST, httpErr anything else; raw TCP: tcpReq). */
static void
count_requests(struct worker *w, struct sock *sk, const struct seg *s, struct req_runs *r)
{
	uint32_t off = 0, n;
	int done;

	if (!w->is_http) {
		n = (sk->raw_got + s->dlen) / w->req_size;
		sk->raw_got = (uint16_t)((sk->raw_got + s->dlen) % w->req_size);
		CNT_ADD(w, TCP_REQ, n);
		if (n > 0) {
			r->n = 1;
			r->kind[0] = DP_REQ_NONE;
			r->count[0] = r->total = n;
		}
		return;
	}
	while (off < s->dlen) {
		off += dp_http_scan_request(&sk->rq, s->data + off, s->dlen - off, &done);
		if (!done)
			break;
		runs_add(r, sk->rq.kind);
		if (r->kind[r->n - 1] == DP_REQ_BAD)
			break;
	}
	for (uint32_t i = 0; i < r->n; i++) {
		if (r->kind[i] == DP_REQ_POST)
			CNT_ADD(w, HTTP_POST, r->count[i]);
		else if (r->kind[i] == DP_REQ_BAD)
			CNT_ADD(w, HTTP_ERR, r->count[i]);
		else
			CNT_ADD(w, HTTP_GET, r->count[i]);
	}
	if (w->keepalive && r->total > 0 && dp_http_wants_close(s->data, s->dlen))
		sk->flags |= SKF_WANT_CLOSE;
}

/* Answer the requests; the last answer carries our FIN when we close (a
 * bad request closes). */
static void
respond(struct worker *w, struct sock *sk, uint32_t idx, const struct tuple *t,
	const struct req_runs *r)
{
	int close = !w->keepalive || (sk->flags & (SKF_WANT_CLOSE | SKF_FIN_RCVD)) || w->stopping ||
		    r->kind[r->n - 1] == DP_REQ_BAD;
	uint32_t left = r->total;

	if (unlikely(answer(w, sk, r->kind[0])->seg_sum != NULL)) {
		/* An answer over several segments: one request at a time
		 * (the config refuses pipeline with it); more requests in
		 * this segment than one are not answered (see Known limits). */
		sk->last_kind = r->kind[0];
		sk->rsp_left = answer(w, sk, r->kind[0])->len;
		CNT(w, HTTP_2XX);
		send_more(w, sk, t, answer(w, sk, r->kind[0]), 1);
		sk->retries = 0;
		tl_add(w, sk, idx, TL_RT);
		if (w->lat)
			dp_hist_add(&w->lat->server, rte_rdtsc() - w->now);
		return;
	}
	for (uint32_t k = 0; k < r->n; k++) {
		const struct msg *m = answer(w, sk, r->kind[k]);
		for (uint32_t i = 0; i < r->count[k]; i++) {
			uint8_t f = TH_ACK | TH_PSH;
			if (close && --left == 0)
				f |= TH_FIN;
			pkt_tcp(w, t, sk->snd_nxt, sk->rcv_nxt, f, m);
			sk->snd_nxt += m->len;
			sk_ack_sent(sk); /* the answer carries the ACK of the request */
			if (!w->is_http)
				CNT(w, TCP_RSP);
			else if (r->kind[k] != DP_REQ_BAD)
				CNT(w, HTTP_2XX);
		}
		sk->last_kind = r->kind[k];
	}
	if (close) {
		sk->snd_nxt++;
		CNT(w, FIN_TX);
		sk->state = (sk->flags & SKF_FIN_RCVD) ? SK_LAST_ACK : SK_FIN_WAIT_1;
	}
	sk->retries = 0;
	tl_add(w, sk, idx, TL_RT);
	if (w->lat)
		dp_hist_add(&w->lat->server, rte_rdtsc() - w->now);
}

void
tcp_server_input(struct worker *w, const struct seg *s)
{
	uint64_t idx = sk_index_server(w, s->sip, s->sport, s->dport);
	struct tuple t;
	struct sock *sk;
	struct req_runs r;

	r.n = r.total = 0;
	seg_tuple(s, &t);
	if (unlikely(idx == SK_NONE || s->dip != w->srv_ip)) {
		tcp_unknown(w, &t, s);
		return;
	}
	sk = &w->sk[idx];
	if (s->flags & TH_FIN)
		CNT(w, FIN_RX);
	if (unlikely(s->flags & TH_RST)) {
		CNT(w, RST_RX);
		if (sk->state == SK_CLOSED || s->seq != sk->rcv_nxt) {
			CNT(w, TCP_DROP);
			return;
		}
		sk_closed(w, sk);
		return;
	}
	if (s->flags & TH_SYN) {
		CNT(w, SYN_RX);
		if ((s->flags & TH_ACK) || w->stopping) {
			CNT(w, TCP_DROP);
			return;
		}
		accept_syn(w, sk, idx, s, &t);
		return;
	}
	if (unlikely(sk->state == SK_CLOSED)) {
		tcp_unknown(w, &t, s);
		return;
	}
	/* An answer resent from an earlier segment (resend_answer) may be
	 * acknowledged beyond snd_nxt, up to its end and FIN: what the peer
	 * had kept of the first sending. */
	if (!(s->flags & TH_ACK) ||
	    seq_gt(s->ack, sk->snd_nxt + sk->rsp_left + (sk->rsp_left && closing(w, sk))) ||
	    seq_le(s->ack, sk->snd_una - 1)) {
		CNT(w, TCP_DROP);
		return;
	}
	if (unlikely(s->ack == sk->snd_una && sk->snd_una != sk->snd_nxt && s->dlen == 0 &&
		     !(s->flags & TH_FIN) && s->win == sk->snd_wnd && response(w, sk)->seg_sum)) {
		/* A duplicate ACK: the peer got a segment after a hole. The
		 * third in a row sends again from the hole (fast retransmit,
		 * RFC 5681 3.2, without its congestion window: ours is
		 * send_window). */
		if (++sk->inflight == 3) {
			resend_answer(w, sk, &t, response(w, sk));
			tl_add(w, sk, (uint32_t)idx, TL_RT);
		}
		return;
	}
	sk->snd_wnd = s->win;
	if (seq_gt(s->ack, sk->snd_una)) {
		sk->snd_una = s->ack;
		sk->retries = 0; /* the peer makes progress */
		sk->inflight = 0;
		if (unlikely(seq_gt(sk->snd_una, sk->snd_nxt)))
			skip_acked(w, sk);
	}
	if (sk->state == SK_SYN_RCVD) {
		if (sk->snd_una != sk->snd_nxt) {
			CNT(w, TCP_DROP);
			return;
		}
		sk->state = SK_ESTABLISHED;
		/* Waiting for the request now: on the idle list, so a client
		 * that never sends it (or only part of it) does not hold the
		 * socket forever. Found by fuzz_rx. */
		tl_add(w, sk, (uint32_t)idx, TL_IDLE);
	}
	if (s->dlen > 0 || (s->flags & TH_FIN)) {
		if (s->seq != sk->rcv_nxt) { /* duplicate or out of order */
			CNT(w, TCP_DROP);
			sk_ctl(w, &t, sk, TH_ACK);
			return;
		}
		sk->rcv_nxt += s->dlen;
		CNT_ADD(w, GOOD_RX, (uint64_t)s->dlen * 8);
		if (s->dlen > 0 && (sk->state == SK_ESTABLISHED))
			count_requests(w, sk, s, &r);
		if (s->flags & TH_FIN) {
			sk->rcv_nxt++;
			sk->flags |= SKF_FIN_RCVD;
		}
	}
	switch (sk->state) {
	case SK_ESTABLISHED:
		if (r.total > 0 && sk->rsp_left == 0) {
			respond(w, sk, (uint32_t)idx, &t, &r);
		} else if (sk->rsp_left) { /* an answer in progress: the window moved */
			if (send_more(w, sk, &t, response(w, sk), 0))
				tl_add(w, sk, (uint32_t)idx, TL_RT);
			else if (s->dlen > 0)
				sk_ctl(w, &t, sk, TH_ACK);
		} else if (sk->flags & SKF_FIN_RCVD) {
			sk_ctl(w, &t, sk, TH_FIN | TH_ACK);
			sk->snd_nxt++;
			sk->state = SK_LAST_ACK;
			sk->retries = 0;
			tl_add(w, sk, (uint32_t)idx, TL_RT);
		} else if (s->dlen > 0) { /* part of a request: the response may carry the ACK */
			sk_ack_partial(w, sk, (uint32_t)idx, &t, s->dlen);
		} else if (sk->snd_una == sk->snd_nxt && sk->list != TL_IDLE) {
			tl_add(w, sk, (uint32_t)idx, TL_IDLE); /* all answered */
		}
		break;
	case SK_FIN_WAIT_1:
	case SK_FIN_WAIT_2:
	case SK_LAST_ACK: /* the server's wait for the FIN is the idle timeout */
		sk_closing_input(w, sk, (uint32_t)idx, &t, TL_IDLE);
		break;
	default:
		break;
	}
}

void
tcp_server_timer(struct worker *w, uint32_t idx, int which)
{
	struct sock *sk = &w->sk[idx];
	struct tuple t;

	sk_tuple(w, idx, &t);
	if (which == TL_IDLE) {
		if (sk->state == SK_ESTABLISHED) { /* idle keepalive connection */
			CNT(w, IDLE_CLOSE);
			sk_ctl(w, &t, sk, TH_FIN | TH_ACK);
			sk->snd_nxt++;
			sk->state = SK_FIN_WAIT_1;
			sk->retries = 0;
			tl_add(w, sk, idx, TL_RT);
		} else {
			sk_closed(w, sk);
		}
		return;
	}
	if (++sk->retries > DP_MAX_RETRIES) {
		CNT(w, SK_ERR);
		sk_ctl(w, &t, sk, TH_RST | TH_ACK);
		sk_closed(w, sk);
		return;
	}
	if (sk->state == SK_SYN_RCVD) {
		pkt_tcp(w, &t, sk->snd_una, sk->rcv_nxt, TH_SYN | TH_ACK, NULL);
		CNT(w, SYN_RT);
		CNT(w, SYN_TX);
	} else if (sk->rsp_left || (response(w, sk)->seg_sum && sk_unacked_data(sk))) {
		resend_answer(w, sk, &t, response(w, sk));
	} else if (sk->snd_una != sk->snd_nxt) {
		sk_retransmit(w, sk, &t, response(w, sk));
	} else if (sk->state == SK_ESTABLISHED) {
		tl_add(w, sk, idx, TL_IDLE);
		return;
	}
	tl_add(w, sk, idx, TL_RT);
}
