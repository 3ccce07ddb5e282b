/* SPDX-License-Identifier: BSD-3-Clause
 * The interface between TCP and the connection's application: what TCP
 * tells the application of a connection, one table a worker, bound once
 * when the worker is set up (boot/worker_msgs.c: app/app.h's app_of, by
 * role and protocol), so that the per-packet path calls the application
 * through one pointer and never branches on HTTP or raw TCP. TCP
 * includes no application's header: the applications (app/: HTTP, raw
 * TCP payload) sit above it and below the worker's setup.
 *
 *   rcv       client: in-order bytes received (response bytes); -1 when
 *             they are malformed, and TCP fails the connection
 *   requests  server: the requests ending in in-order bytes received, as
 *             runs of one kind (struct req_runs), counted
 *   fin       client: the peer's FIN with a response unfinished: 1 when
 *             the FIN ends it (counted), 0 when it stays unfinished
 *   unfinished  a reset or a timeout with a response unfinished (client)
 *   asked, answered, plain_kind  what TCP counts for the application
 *             when it sends a request or an answer (data, not calls)
 *
 * The bytes to send go the other way: the sender asks for the next bytes
 * from an offset through struct snd_src (tcp_send.h), which the role's
 * `sending` and `resent` steps fill (tcp_input.h); the bytes acknowledged
 * and the room to send are the sender's (snd_ack, snd_active).
 *
 * Bytes acknowledged, room to send: no entry here, since nothing above
 * TCP sends on its own. A server's next answer waits in TCP's queue
 * (tcp_server.h: pend_n), and the role's established step, which runs
 * after the sender's ACK step on every acceptable segment (tcp_input.h:
 * tcp_ack_input, then tcp_state_input), begins it once the answer before
 * is acknowledged (tcp_server_answer_waiting: nothing in progress, and
 * snd_una == snd_nxt for an answer over several segments): plain TCP's
 * server_established and TLS's tls_srv_established alike, each with its
 * own way out (`begin`, a constant, inlined). An `acked` entry would be
 * that same function for HTTP and raw TCP, called through a pointer with
 * `begin` no longer a constant, so it is not one. A client's next request
 * follows its response (at once, or on the keepalive timer), not an
 * acknowledgement.
 */
#ifndef DPERF_TCP_APP_H
#define DPERF_TCP_APP_H

#include <stdint.h>

#include "net/netw.h"
#include "state/sock.h"

/* The requests of some received bytes, as runs of one method (DP_REQ_*).
 * More changes of method in one segment than this end the connection as
 * a bad request. */
#define MAX_RUNS 16
struct req_runs {
	uint32_t n;      /* runs */
	uint32_t total;  /* requests */
	uint8_t kind[MAX_RUNS];
	uint32_t count[MAX_RUNS];
};

struct tcp_app {
	int (*rcv)(struct netw *nw, struct sock *sk, const uint8_t *p, uint32_t len);
	void (*requests)(struct netw *nw, struct sock *sk, const uint8_t *data, uint32_t dlen,
			 struct req_runs *r);
	int (*fin)(struct netw *nw, struct sock *sk);
	void (*unfinished)(struct netw *nw, const struct sock *sk);
	uint16_t asked;     /* client: the counter of a request sent (httpGet, httpPost; tcpReq) */
	uint16_t answered;  /* server: the counter of an answer sent, a 400 not (http2XX; tcpRsp) */
	uint8_t plain_kind; /* server: a request waiting that is not a HEAD (DP_REQ_GET; raw: DP_REQ_NONE) */
};

#endif
