/* SPDX-License-Identifier: BSD-3-Clause
 * Raw TCP payload (protocol tcp): every request and response is a
 * message of payload_size bytes (msg.req_size, msg.rsp_size), counted
 * as it completes (tcpReq, tcpRsp).
 */
#include "app/app.h"
#include "tcp/tcp_client.h"

/* Response bytes: each whole message ends one request asked; more bytes
 * than were asked for are a malformed response. */
static int
raw_client_rcv(struct netw *nw, struct sock *sk, const uint8_t *p, uint32_t len)
{
	uint32_t got = sk->raw_got + len;

	(void)p;
	while (got >= nw->msg.rsp_size && sk->inflight > 0) {
		got -= nw->msg.rsp_size;
		tcp_client_response_end(nw, sk, DP_C_TCP_RSP);
	}
	sk->raw_got = (uint16_t)got;
	return got >= nw->msg.rsp_size ? -1 : 0;
}

/* A FIN ends no raw response: what is unfinished stays so. */
static int
raw_client_fin(struct netw *nw, struct sock *sk)
{
	(void)nw;
	(void)sk;
	return 0;
}

/* Nothing beside skErr. */
static void
raw_unfinished(struct netw *nw, const struct sock *sk)
{
	(void)nw;
	(void)sk;
}

/* Request bytes: each whole message is one request (tcpReq). */
static void
raw_server_requests(struct netw *nw, struct sock *sk, const uint8_t *data, uint32_t dlen,
		    struct req_runs *r)
{
	uint32_t n = (sk->raw_got + dlen) / nw->msg.req_size;

	(void)data;
	sk->raw_got = (uint16_t)((sk->raw_got + dlen) % nw->msg.req_size);
	CNT_ADD(&nw->cnt, TCP_REQ, n);
	if (n > 0) {
		r->n = 1;
		r->kind[0] = DP_REQ_NONE;
		r->count[0] = r->total = n;
	}
}

const struct tcp_app raw_client_app = {
	.rcv = raw_client_rcv,
	.fin = raw_client_fin,
	.unfinished = raw_unfinished,
	.asked = DP_C_TCP_REQ,
};

/* No .unfinished: a client's (http_app.c says why). */
const struct tcp_app raw_server_app = {
	.requests = raw_server_requests,
	.answered = DP_C_TCP_RSP,
	.plain_kind = DP_REQ_NONE,
};
