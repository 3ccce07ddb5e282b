/* SPDX-License-Identifier: BSD-3-Clause
 * TLS carried by our TCP: a worker's TLS part (its side and a connection
 * state per socket), and the steps the client and server roles share:
 * the records a connection wrote sent through the TCP sender, a
 * handshake completed or failed counted.
 *
 * The part takes the worker's segments in the receive path's seg_in
 * (net/netw.h) and its timers in tcp_part's timer (tcp/tcp.h), each bound
 * over the role's while it is set, and hears of every close through
 * tcp_part's over_closed.
 */
#ifndef DPERF_TLS_TCP_H
#define DPERF_TLS_TCP_H

#include <stddef.h>
#include <stdint.h>

#include "net/l4.h"
#include "net/netw.h"
#include "state/sock.h"
#include "tls/tls_conn.h"
#include "tls/tls_ctx.h"

struct tls_part {
	struct tls_side side;
	struct tls_conn *conn; /* n_conn, parallel to the sockets, in zero pages until used */
	uint64_t n_conn;
	/* conn[n_opened..] never opened (tls_part_opened): tls_part_fini
	 * scans below it only. A table of 13M sockets (200 addresses x
	 * 65535 ports) is 630 MB of zero pages: reading it all at exit took
	 * a TLS primary 2-4 s here. */
	uint64_t n_opened;
	int64_t conn_bytes;    /* one connection's bytes, measured at setup (tls_measure.h) */
	tls_plain_fn *on_plain; /* server: its plaintext's requests answered (tls_server_plain) */
	/* A mix of http and https (config.h's kind lines, plain_http): the
	 * connections that are not TLS go to the role's own steps below.
	 * Client: bit k set, kind k is plain HTTP (a kind marked http).
	 * Server: plain_http, a connection whose first byte is not a
	 * handshake record (0x16) is plain (its conn's state TLS_PLAIN). */
	uint32_t plain_kinds;
	uint8_t sniff;
	/* the worker's seg_in and timer step before the part took them (the
	 * role's), given back by tls_part_fini */
	void (*under_input)(struct netw *nw, const struct seg *s);
	void (*under_timer)(struct netw *nw, uint32_t idx, int which);
};

/* The worker's TLS part for its configuration's tls_* keywords, the
 * bytes per connection measured, and the worker's segments and timers
 * routed to it. After the worker's sockets are set up. Returns 0, or -1
 * with one line in err. */
int tls_part_init(struct tls_part *p, struct netw *nw, char *err, size_t errlen);

/* Every connection still open freed (OpenSSL's memory back), the part too. */
void tls_part_fini(struct tls_part *p, struct netw *nw);

/* Whether cfg's concurrent connections (cc) fit in avail_mb of memory at
 * bytes each; -1 with the reason in err when they do not. */
int tls_cc_check(const struct dp_config *cfg, int64_t bytes, uint64_t avail_mb, char *err,
		 size_t errlen);

static inline struct tls_conn *
tls_conn_of(const struct netw *nw, const struct sock *sk)
{
	return &nw->tls->conn[sk - nw->skt.sk];
}

/* c, just opened by tls_open: below n_opened from now on. */
static inline void
tls_part_opened(struct tls_part *p, const struct tls_conn *c)
{
	uint64_t above = (uint64_t)(c - p->conn) + 1;

	if (above > p->n_opened)
		p->n_opened = above;
}

/* A client's connection of a kind marked http (plain_kinds). */
static inline int
tls_plain_kind(const struct netw *nw, const struct sock *sk)
{
	return (nw->tls->plain_kinds >> sk->kind) & 1;
}

/* The one place a handshake completes (counted; its time, SYN sent or
 * received to Finished, is nw->now - sk->t_start). */
void tls_hs_done(struct netw *nw, const struct sock *sk, const struct tls_conn *c);

/* A call on c returned a failure while c was in state `was` (enum
 * tls_state): counted once, by kind during the handshake, as tlsErr
 * after it. */
void tls_failed(struct netw *nw, const struct tls_conn *c, uint8_t was);

/* The connection ends (RST, retries out) with its handshake unfinished:
 * a stall when the retransmissions ran out, else the peer's close. */
void tls_unfinished(struct netw *nw, const struct sock *sk);

/* The records of the last message all acknowledged: its buffer freed.
 * At the start of every step (each step ends with tls_flush, so every
 * byte held then belongs to a message begun). */
void tls_settle(const struct netw *nw, const struct sock *sk, struct tls_conn *c);

/* Sends what c holds beyond what was sent: a new message, or more of
 * the one in progress; with close, our FIN after its last byte (or
 * alone). On the retransmission timer when anything went. */
void tls_send(struct netw *nw, struct sock *sk, uint32_t idx, const struct tuple *t,
	      struct tls_conn *c, int close);

/* tls_send, our FIN when SKF_CLOSE says (the client; the server's FIN
 * also waits for the requests queued: tls_server.c). */
static inline void
tls_flush(struct netw *nw, struct sock *sk, uint32_t idx, const struct tuple *t, struct tls_conn *c)
{
	tls_send(nw, sk, idx, t, c, (sk->flags & SKF_CLOSE) != 0);
}

/* A message of ours (a request, an answer) as records: one of at most
 * 16 KB in one record, a longer one in records whose ciphertext ends on
 * segment boundaries (tls_plan.h: the first in one segment, then 16,038
 * bytes in 11 segments of 1460 with TLS 1.3), the last one whole. 0, or
 * -enum tls_fail. */
int tls_write_msg(const struct netw *nw, struct tls_conn *c, const struct msg *m);

/* Our close after what is written: close_notify after the handshake
 * (once), then our FIN (SKF_CLOSE, tls_flush). */
void tls_close_after(struct sock *sk, struct tls_conn *c);

/* The roles (tls_server.c, tls_client.c): the worker's segments and
 * timers while the part is set. */
void tls_server_input(struct netw *nw, const struct seg *s);
/* The server's plaintext step for the worker's answers, bound once
 * (tls_part_init): answered at once as records when each fits a segment,
 * else through the plain server's queue (tcp/tcp_server.h), one answer at
 * a time, as over http. */
tls_plain_fn *tls_server_plain(const struct netw *nw);
void tls_server_timer(struct netw *nw, uint32_t idx, int which);
void tls_client_input(struct netw *nw, const struct seg *s);
void tls_client_timer(struct netw *nw, uint32_t idx, int which);

#endif
