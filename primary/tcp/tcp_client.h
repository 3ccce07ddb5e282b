/* SPDX-License-Identifier: BSD-3-Clause
 * The client's steps a layer over TCP reuses (TLS: tls/tls_client.c):
 * the SYN+ACK taken, a request's bookkeeping, responses read, the
 * decision to close; and the end of a response, which the client's
 * application (tcp_app.h) reports.
 */
#ifndef DPERF_TCP_CLIENT_H
#define DPERF_TCP_CLIENT_H

#include <stdint.h>

#include "net/l4.h"
#include "net/lat.h"
#include "net/netw.h"
#include "state/cnt.h"
#include "state/sock.h"
#include "tcp/tcp.h"

/* SYN_SENT: a SYN+ACK acknowledging our SYN opens the connection
 * (ESTABLISHED, the peer's MSS, SACK, the sender, connect latency):
 * returns 1; anything else is dropped (tcpDrop): 0. */
int tcp_client_opened(struct netw *nw, struct sock *sk, const struct seg *s);

/* A request (pipeline of them) has been sent: in flight, its time
 * started, counted (httpGet, httpPost or tcpReq). */
void tcp_client_asked(struct netw *nw, struct sock *sk);

/* Response bytes in order (time to first byte on the first): responses
 * ended are counted (http2XX, httpErr, tcpRsp) and sk->inflight goes
 * down. Returns -1 on a malformed or unasked-for response. */
int tcp_client_response(struct netw *nw, struct sock *sk, const uint8_t *p, uint32_t len);

/* Whether the connection closes now that its responses are all in. */
int tcp_client_closing(const struct netw *nw, const struct sock *sk);

/* The connection ends with a response unfinished (reset, retries out, a
 * malformed response): the application counts it (HTTP: httpErr). */
void tcp_client_unfinished(struct netw *nw, const struct sock *sk);

/* The connection fails (a malformed response; over TLS, a record or
 * handshake that failed too): counted (skErr, an unfinished response)
 * and reset. */
void tcp_client_fail(struct netw *nw, struct sock *sk, const struct tuple *t);

/* The connection's request: its kind's (sock.h; kind 0 without kind
 * lines, the one request). */
static inline const struct msg *
tcp_client_req(const struct netw *nw, const struct sock *sk)
{
	return &nw->msg.kreq[sk->kind];
}

/* The role's resent step (tcp_input.h): only a FIN alone is resent
 * outside a message of the sender, and the request template says which
 * (plain and TLS clients alike). */
static inline const struct msg *
tcp_client_resent(const struct netw *nw, const struct sock *sk)
{
	return tcp_client_req(nw, sk);
}

/* A count of the connection's kind (state/cnt.h), with two kinds or more. */
static inline void
tcp_client_kind_count(struct netw *nw, const struct sock *sk, enum dp_kind_counter c, uint64_t n)
{
	if (unlikely(nw->tcp->kc != NULL))
		nw->tcp->kc->c[sk->kind][c] += n;
}

/* A response has ended (its last byte arrived in order), counted in c.
 * The latency of a pipelined batch is its last response's. */
static inline void
tcp_client_response_end(struct netw *nw, struct sock *sk, enum dp_counter c)
{
	sk->inflight--;
	sk->req_done++;
	if (sk->inflight == 0)
		lat_add_kind(nw, DP_LAT_RESPONSE, sk->kind, nw->now - sk->t_start);
	nw->cnt.c[c]++;
	tcp_client_kind_count(nw, sk, c == DP_C_HTTP_2XX ? DP_KC_HTTP_2XX : DP_KC_HTTP_ERR, 1);
}

#endif
