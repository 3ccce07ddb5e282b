/* SPDX-License-Identifier: BSD-3-Clause
 * The server's steps a layer over TCP reuses (TLS: tls/tls_server.c): a
 * SYN accepted, the requests in received bytes counted by method, the
 * answer to each.
 */
#ifndef DPERF_TCP_SERVER_H
#define DPERF_TCP_SERVER_H

#include <stdint.h>

#include <rte_common.h>

#include "net/l4.h"
#include "net/netw.h"
#include "state/sock.h"
#include "tcp/tcp.h"

/* A SYN opening connection idx (or our SYN+ACK again for a retransmitted
 * one): SYN_RCVD, the SYN+ACK sent, on the retransmission timer. */
void tcp_server_accept(struct netw *nw, struct sock *sk, uint32_t idx, const struct seg *s,
		       const struct tuple *t);

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

/* The answer to a request of this kind (DP_REQ_NONE: raw TCP). */
const struct msg *tcp_server_answer(const struct netw *nw, const struct sock *sk, uint8_t kind);

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
			if (r->kind[k] != DP_REQ_BAD)
				nw->cnt.c[nw->tcp->app.answered]++;
		}
		sk->last_kind = r->kind[k];
	}
	return 0;
}

#endif
