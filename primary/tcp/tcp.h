/* SPDX-License-Identifier: BSD-3-Clause
 * The TCP engine: client and server state machines over the socket table.
 */
#ifndef DPERF_TCP_H
#define DPERF_TCP_H

#include <stdint.h>

#include <rte_tcp.h>

#include "net/l4.h"
#include "net/netw.h"
#include "tcp/tcp_app.h"

/* Retransmissions of a segment before the connection is given up. */
#define DP_MAX_RETRIES 5

/* A FIFO timer list: every entry has the same timeout, so appending keeps
 * it sorted and expiry only looks at the head. Links are index + 1.
 * Times are timer ticks, TL_PER_MS to the millisecond. */
#define TL_PER_MS 64
/* Timer expiries handled per list per loop iteration: the rest wait for
 * the next iteration, after the next RX burst. */
#define DP_TIMER_BUDGET 512

struct tlist {
	uint32_t head;
	uint32_t tail;
	uint32_t timeout;
	uint32_t count;
};

struct dack_ring;
struct ooo_pool;
struct sk_snd;
struct sock;

/* A worker's TCP part: its timer lists (tlist.h), delayed ACKs
 * (tcp_dack.h), the sender of messages over several segments
 * (tcp_send.h) and the out-of-order queue (tcp_ooo.h). netw.tcp points
 * to it. */
struct tcp_part {
	struct tlist tl[TL__COUNT];
	uint8_t timers_behind; /* due entries left after the last run */
	uint8_t timer_fired;   /* a timer expired in the last run (busy time) */
	uint8_t disable_ack;
	uint32_t dack_t;       /* the delay, in timer ticks */
	struct dack_ring *dack; /* delayed ACKs (tcp_dack.h); NULL: ACK at once */
	struct sk_snd *snd;    /* tcp_send.h, parallel to sk; NULL: no message over several segments */
	struct ooo_pool *ooo;  /* tcp_ooo.h: held out-of-order segments; NULL: none kept (UDP) */
	uint32_t send_wnd;     /* a message over several segments: bytes in flight at most (send_window x mss; UINT32_MAX: unset) */
	/* Requests per connection of kind k (sock.h's kind), 0 = unlimited:
	 * keepalive_request_num, or the kind's own keepalive N. */
	uint32_t ka_num[DP_MAX_KINDS];
	/* A client's pick of each new connection's kind (state/mix.h), with
	 * two kinds or more; NULL: every connection is kind 0. */
	struct mix *mix;
	/* With that pick, the counts per kind (state/cnt.h); NULL without. */
	struct kcnt *kc;
	/* A server with object lines: its counts per object (state/cnt.h);
	 * NULL without. */
	struct ocnt *oc;
	struct drop_knob snd_drop; /* test_tx_drop: sent segments of a long message */
	struct tcp_app app;    /* the connections' application (tcp_app.h), bound at setup */
	/* A socket's timer expired (engine/timers.c): the role's step, bound
	 * once at setup (boot/worker_setup.c: tcp_client_timer or
	 * tcp_server_timer), so that no expiry tests the role or the layer;
	 * a layer over TCP (TLS: tls/tls_tcp.h) binds its own over it, as it
	 * does its input in net/netw.h's seg_in. */
	void (*timer)(struct netw *nw, uint32_t idx, int which);
	/* That layer is told when a connection ends, whatever ended it, with
	 * its own role over tcp_input.h's one path. NULL: plain TCP (one
	 * predicted branch a close). */
	void (*over_closed)(struct netw *nw, struct sock *sk);
};

/* Open one client connection (or, with flood, send one SYN). Returns 0, or
 * -1 when no free socket was found. */
int tcp_client_launch(struct netw *nw);
/* Handle the expiry of socket idx's timer on list `which`. */
void tcp_client_timer(struct netw *nw, uint32_t idx, int which);
void tcp_server_timer(struct netw *nw, uint32_t idx, int which);
/* Graceful stop: close one idle keepalive connection (client), while
 * nw->stopping. */
void tcp_client_close_idle(struct netw *nw, uint32_t idx);

/* Bare ACKs whose delay is up (tcp_dack.c). Returns nonzero when due
 * entries are left (budget spent, or the device is full). */
int tcp_dack_run(struct netw *nw);

#endif
