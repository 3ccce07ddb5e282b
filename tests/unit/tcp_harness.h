/* SPDX-License-Identifier: BSD-3-Clause
 * The harness of the TCP unit tests (tests/unit/test_tcp_*.c, tcp_harness.c):
 * two in-memory workers, one client and one server, with the packet layer
 * (tcp_out) replaced at link time by a recorder, exchange the recorded
 * segments; a test moves them, moves the clocks and checks the counters.
 */
#ifndef DP_TEST_TCP_HARNESS_H
#define DP_TEST_TCP_HARNESS_H

#define _GNU_SOURCE /* memmem */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <stdlib.h>
#include <cmocka.h>

#include <stdio.h>

#include "config.h"
#include "http/http.h"
#include "tcp/tcp.h"
#include "tcp/tcp_common.h"
#include "tcp/tcp_dack.h"
#include "tcp/tcp_send.h"
#include "engine/timers.h"
#include "boot/worker_msgs.h"
#include "http/messages.h"
#include "boot/worker_setup.h"
#include "net/rx.h"

/* ------------------------------------------------------------------ */
/* A worker with its outbox                                            */

struct rec {
	struct tuple t;
	uint32_t seq, ack;
	uint8_t flags;
	uint16_t win;    /* the window field (tcp_out_win) */
	uint8_t ws;      /* a SYN's window scale option, else SEG_NO_WS */
	uint32_t len;
	uint8_t *data; /* malloc'd copy, NULL when len == 0 */
	uint8_t sack_ok; /* a SYN that offered SACK (our bare SYN does; a SYN+ACK when asked) */
	uint8_t optlen;  /* option bytes beside a SYN's (SACK blocks) */
	uint8_t opt[40];
};

#define HIST_MAX 64

struct node {
	struct worker wk; /* first: tcp_out finds the node from the worker */
	struct dp_config cfg;
	struct dp_worker_stats *st;
	struct netport np;
	struct rec *out;
	size_t n_out, cap_out;
	uint64_t sent;               /* segments recorded, ever */
	uint8_t hist[HIST_MAX];      /* flags of the first segments */
	uint32_t hlen[HIST_MAX];     /* and their payload lengths */
	uint16_t peer_win;           /* the window its peer's segments advertise (0: 65535) */
	uint8_t peer_win_shut;       /* its peer's segments advertise a zero window */
	uint8_t peer_ws;             /* the window scale its peer's SYNs offer (SEG_NO_WS: none) */
	uint16_t peer_mss;           /* the MSS option its peer's SYNs carry (0: 1460, as tcp_out.c's) */
	uint8_t wire_win;            /* deliver() gives it the window fields its peer wrote (not peer_win, peer_ws) */
	int synack_ws;               /* the last SYN+ACK it sent offered window scaling */
	int synack_sack;             /* ... and SACK */
	uint8_t peer_sack;           /* the SYNs that inject() delivers offer SACK */
	uint64_t held;               /* segments the out-of-order queue holds (pkt_hold) */
	uint64_t bad_sums;           /* segments whose sum was not their bytes' */
	uint8_t *msgbuf; /* msg_layout's length */
};

#define PEER_NO_MSS UINT16_MAX /* node.peer_mss: the peer's SYNs carry no MSS option */
#define MAX_NODES 4
#define TEST_DACK_RING 8

#define C(n, id) ((n)->wk.net.cnt.c[DP_C_##id])
#define HZ 2000000000ULL

static inline uint32_t
ip4(uint8_t a, uint8_t b, uint8_t c, uint8_t d)
{
	return ((uint32_t)a << 24) | ((uint32_t)b << 16) | ((uint32_t)c << 8) | d;
}

#define CLI_IP ip4(10, 0, 0, 1)
#define N_CLI 2
#define SRV_IP ip4(10, 0, 1, 1)
#define LPORT_MIN 10000
#define N_LPORT 600

void base_cfg(struct dp_config *c, enum dp_mode mode);
struct node *node_new(const struct dp_config *cfg);
void box_clear(struct node *n);
int free_nodes(void **state);
struct node *new_client(void (*tweak)(struct dp_config *));
struct node *new_server(void (*tweak)(struct dp_config *));
void input(struct node *to, const struct seg *s);
void inject(struct node *to, const struct tuple *t, uint32_t seq, uint32_t ack, uint8_t flags,
       const uint8_t *data, uint32_t len);
void inject_opt(struct node *to, const struct tuple *t, uint32_t seq, uint32_t ack, uint8_t flags,
		const uint8_t *data, uint32_t len, const uint8_t *opt, uint32_t optlen, int sack_ok);
size_t deliver(struct node *from, struct node *to);
void pump(struct node *a, struct node *b);
void open_and_ask(struct node *c, struct node *s);
void advance(struct node *n, uint32_t ms);
void advance_us(struct node *n, uint32_t us);
void run_timers(struct node *n);
void rt_expire(struct node *n);
uint64_t open_sockets(const struct node *n);
void assert_idle(const struct node *n);
void assert_clean(const struct node *n);
void client_tuple(const struct node *c, uint64_t idx, struct tuple *t);
struct sock *server_sock(struct node *s, const struct tuple *ct);
struct sock *client_sock(struct node *c, const struct tuple *ct);
void reverse(const struct tuple *t, struct tuple *r);
void ka3_now(struct dp_config *c);
void ka_server(struct dp_config *c);
void big_server(struct dp_config *c);
void big_client(struct dp_config *c);
void post_client(struct dp_config *c); /* big_client's, with POST bodies of 64000 bytes */

#endif
