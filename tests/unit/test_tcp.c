/* SPDX-License-Identifier: BSD-3-Clause
 * Unit tests of the TCP engine (primary/tcp/tcp_client.c, primary/tcp/tcp_server.c)
 * without EAL: the packet layer (pkt_tcp) is replaced at link time by a
 * recorder, and two in-memory workers, one client and one server, exchange
 * the recorded segments.
 */
// links: primary/boot/worker_setup.c primary/net/vxlan.c primary/tcp/tcp_client.c primary/tcp/tcp_server.c primary/tcp/tcp_send.c primary/tcp/tcp_dack.c primary/http/http.c primary/http/http_response.c primary/http/rsp_scan.c primary/http/http_request.c primary/http/messages.c primary/boot/worker_msgs.c primary/engine/timers.c
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

/* ------------------------------------------------------------------ */
/* A worker with its outbox                                            */

struct rec {
	struct tuple t;
	uint32_t seq, ack;
	uint8_t flags;
	uint32_t len;
	uint8_t *data; /* malloc'd copy, NULL when len == 0 */
};

#define HIST_MAX 64

struct node {
	struct worker w; /* first: pkt_tcp finds the node from the worker */
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
	int synack_ws;               /* the last SYN+ACK it sent offered window scaling */
	uint64_t bad_sums;           /* segments whose sum was not their bytes' */
	uint8_t *msgbuf; /* msg_layout's length */
};

#define MAX_NODES 4
#define TEST_DACK_RING 8
static struct node *nodes[MAX_NODES];

#define C(n, id) ((n)->w.st->c[DP_C_##id])
#define HZ 2000000000ULL

static uint32_t
ip4(uint8_t a, uint8_t b, uint8_t c, uint8_t d)
{
	return ((uint32_t)a << 24) | ((uint32_t)b << 16) | ((uint32_t)c << 8) | d;
}

#define CLI_IP ip4(10, 0, 0, 1)
#define N_CLI 2
#define SRV_IP ip4(10, 0, 1, 1)
#define LPORT_MIN 10000
#define N_LPORT 600

/* ------------------------------------------------------------------ */
/* The packet layer, substituted                                       */

uint32_t
pkt_sum(const void *buf, uint32_t len)
{
	const uint8_t *p = buf;
	uint32_t s = 0;

	for (uint32_t i = 0; i + 1 < len; i += 2)
		s += (uint32_t)(p[i] << 8 | p[i + 1]);
	if (len & 1)
		s += (uint32_t)p[len - 1] << 8;
	return s;
}

int
pkt_tcp(struct worker *w, const struct tuple *t, uint32_t seq, uint32_t ack, uint8_t flags,
	const struct msg *m)
{
	struct node *n = (struct node *)w;
	struct rec *r;

	if (n->n_out == n->cap_out) {
		n->cap_out = n->cap_out ? n->cap_out * 2 : 64;
		n->out = realloc(n->out, n->cap_out * sizeof(*n->out));
		assert_non_null(n->out);
	}
	r = &n->out[n->n_out++];
	r->t = *t;
	r->seq = seq;
	r->ack = ack;
	r->flags = flags;
	r->len = m ? m->len : 0;
	r->data = NULL;
	if (r->len && m->sum != pkt_sum(m->data, m->len))
		n->bad_sums++; /* a precomputed sum that is not the bytes' */
	if (r->len) {
		r->data = malloc(r->len);
		assert_non_null(r->data);
		memcpy(r->data, m->data, r->len);
	}
	if (n->sent < HIST_MAX) {
		n->hist[n->sent] = flags;
		n->hlen[n->sent] = r->len;
	}
	n->sent++;
	return 0;
}

/* A SYN+ACK: recorded as any other segment, with whether it offered
 * window scaling. */
int
pkt_tcp_synack(struct worker *w, const struct tuple *t, uint32_t seq, uint32_t ack, int ws)
{
	struct node *n = (struct node *)w;

	n->synack_ws = ws;
	return pkt_tcp(w, t, seq, ack, TH_SYN | TH_ACK, NULL);
}

/* A flooding client's SYN: recorded as any other segment. */
int
pkt_flood_syn(struct worker *w, const struct tuple *t, uint32_t seq)
{
	return pkt_tcp(w, t, seq, 0, TH_SYN, NULL);
}

uint16_t
tx_flush(struct worker *w)
{
	uint16_t n = w->n_tx;

	w->n_tx = 0;
	return n;
}

/* ------------------------------------------------------------------ */
/* Building workers (with primary/boot/worker_setup.c's worker_fields)    */

static void
base_cfg(struct dp_config *c, enum dp_mode mode)
{
	dp_config_defaults(c);
	c->mode = mode;
	c->protocol = DP_PROTO_HTTP;
	c->clients[0].start.family = 4;
	c->clients[0].start.v4 = rte_cpu_to_be_32(CLI_IP);
	c->clients[0].num = N_CLI;
	c->n_clients = 1;
	c->servers[0].start.family = 4;
	c->servers[0].start.v4 = rte_cpu_to_be_32(SRV_IP);
	c->servers[0].num = 1;
	c->n_servers = 1;
	c->lport_min = LPORT_MIN;
	c->lport_max = LPORT_MIN + N_LPORT - 1;
	c->cps = 1000;
	/* Every ACK at once unless a test turns delayed ACKs on: the tests
	 * before section 9 count segments as they were without them. */
	c->delayed_ack_us = 0;
}

static struct node *
node_new(const struct dp_config *cfg)
{
	struct node *n = calloc(1, sizeof(*n));
	struct worker *w;
	char err[DP_ERR_LEN];
	struct msg_layout layout;
	int slot;

	assert_non_null(n);
	for (slot = 0; slot < MAX_NODES && nodes[slot]; slot++)
		;
	assert_true(slot < MAX_NODES);
	nodes[slot] = n;
	n->cfg = *cfg;
	n->peer_ws = SEG_NO_WS;
	cfg = &n->cfg;
	w = &n->w;
	n->st = aligned_alloc(64, sizeof(*n->st));
	assert_non_null(n->st);
	memset(n->st, 0, sizeof(*n->st));

	n->np.n_workers = 1;
	n->np.gw_ok = 1;
	n->np.srv_ip_h = rte_be_to_cpu_32(cfg->servers[0].start.v4);
	n->np.n_srv = 1;
	n->np.cli_ip_h = rte_be_to_cpu_32(cfg->clients[0].start.v4);
	n->np.n_cli = cfg->clients[0].num;

	/* The engine's own setup of the worker's fields (primary/boot/
	 * worker_setup.c); memory and messages below, as worker_setup does
	 * them but out of plain heap memory. */
	w->st = n->st;
	w->np = &n->np;
	worker_fields(w, cfg, 0, 0, 0, HZ);
	/* The test's clock. */
	w->start_tsc = 1000000;
	w->now = w->start_tsc;
	w->now_ms = 0;
	w->now_t = 0;
	/* alloc_dack, with a small ring so that a test can fill it */
	if (cfg->delayed_ack_us) {
		w->dack = calloc(1, dack_ring_bytes(TEST_DACK_RING));
		assert_non_null(w->dack);
		w->dack->mask = TEST_DACK_RING - 1;
	}

	/* The engine's own message composition (primary/boot/worker_msgs.c). */
	msg_layout(cfg, &layout);
	n->msgbuf = calloc(1, layout.len);
	assert_non_null(n->msgbuf);
	if (worker_msgs(w, cfg, &cfg->servers[0].start, n->msgbuf, err, sizeof(err)) != 0)
		fail_msg("worker_msgs: %s", err);

	/* alloc_sockets */
	w->n_sk = sk_table_init(w);
	assert_true(w->n_sk > 0 && w->n_sk < UINT32_MAX);
	w->sk = aligned_alloc(64, w->n_sk * sizeof(struct sock));
	assert_non_null(w->sk);
	memset(w->sk, 0, w->n_sk * sizeof(struct sock));
	/* alloc_tx: the sender's state, when messages span segments */
	if (worker_tx_bytes(w)) {
		w->sktx = calloc(1, worker_tx_bytes(w));
		assert_non_null(w->sktx);
	}
	return n;
}

static void
box_clear(struct node *n)
{
	for (size_t i = 0; i < n->n_out; i++)
		free(n->out[i].data);
	n->n_out = 0;
}

static int
free_nodes(void **state)
{
	(void)state;
	for (int i = 0; i < MAX_NODES; i++) {
		struct node *n = nodes[i];
		if (n == NULL)
			continue;
		box_clear(n);
		free(n->out);
		free(n->w.sk);
		free(n->w.sktx);
		free(n->w.dack);
		free(n->st);
		free(n->msgbuf);
		free(n);
		nodes[i] = NULL;
	}
	return 0;
}

static struct node *
new_client(void (*tweak)(struct dp_config *))
{
	struct dp_config c;

	base_cfg(&c, DP_MODE_CLIENT);
	if (tweak)
		tweak(&c);
	return node_new(&c);
}

static struct node *
new_server(void (*tweak)(struct dp_config *))
{
	struct dp_config c;

	base_cfg(&c, DP_MODE_SERVER);
	if (tweak)
		tweak(&c);
	return node_new(&c);
}

/* ------------------------------------------------------------------ */
/* Moving segments                                                     */

static void
input(struct node *to, const struct seg *s)
{
	if (to->w.is_client)
		tcp_client_input(&to->w, s);
	else
		tcp_server_input(&to->w, s);
}

/* Deliver a segment sent on tuple t (sender's view) to `to`. */
static void
inject(struct node *to, const struct tuple *t, uint32_t seq, uint32_t ack, uint8_t flags,
       const uint8_t *data, uint32_t len)
{
	struct seg s;
	uint8_t *copy = NULL;

	if (len) {
		copy = malloc(len);
		assert_non_null(copy);
		memcpy(copy, data, len);
	}
	s.sip = t->lip;
	s.dip = t->rip;
	s.sport = t->lport;
	s.dport = t->rport;
	s.seq = seq;
	s.ack = ack;
	s.flags = flags;
	s.win = to->peer_win_shut ? 0 : to->peer_win ? to->peer_win : 0xffff; /* what pkt_tcp advertises */
	s.ws = (flags & TH_SYN) ? to->peer_ws : SEG_NO_WS;
	s.data = copy;
	s.dlen = len;
	input(to, &s);
	free(copy);
}

/* Deliver everything `from` has queued to `to`. Returns the count. */
static size_t
deliver(struct node *from, struct node *to)
{
	struct rec *batch = from->out;
	size_t n = from->n_out;

	from->out = NULL;
	from->n_out = from->cap_out = 0;
	for (size_t i = 0; i < n; i++) {
		struct rec *r = &batch[i];
		inject(to, &r->t, r->seq, r->ack, r->flags, r->data, r->len);
		free(r->data);
	}
	free(batch);
	return n;
}

static void
pump(struct node *a, struct node *b)
{
	for (int i = 0; i < 1000 && (a->n_out || b->n_out); i++) {
		deliver(a, b);
		deliver(b, a);
	}
	assert_int_equal(a->n_out, 0);
	assert_int_equal(b->n_out, 0);
}

/* ------------------------------------------------------------------ */
/* Time                                                                */

/* A client's connection opened and its first request delivered: SYN,
 * SYN+ACK, then the ACK with the request. What the server sends back is
 * left in its box. */
static void
open_and_ask(struct node *c, struct node *s)
{
	assert_int_equal(tcp_client_launch(&c->w), 0);
	deliver(c, s); /* SYN */
	deliver(s, c); /* SYN+ACK */
	deliver(c, s); /* ACK + request */
}

static void
advance(struct node *n, uint32_t ms)
{
	n->w.now_ms += ms;
	n->w.now_t += ms * TL_PER_MS;
	n->w.now += (uint64_t)ms * n->w.tsc_per_ms;
}

/* Microseconds on the timer clock alone (the millisecond clock as the
 * worker keeps it: whole milliseconds since start). */
static void
advance_us(struct node *n, uint32_t us)
{
	n->w.now += (uint64_t)us * n->w.tsc_per_ms / 1000;
	n->w.now_t = (uint32_t)((n->w.now - n->w.start_tsc) / n->w.tsc_per_t);
	n->w.now_ms = (uint32_t)((n->w.now - n->w.start_tsc) / n->w.tsc_per_ms);
}

/* The worker's own timer code (primary/engine/timers.c). */
static void
run_timers(struct node *n)
{
	(void)timers_run(&n->w);
}

/* Let the RT timeout pass on n and run its timers. */
static void
rt_expire(struct node *n)
{
	advance(n, n->w.tl[TL_RT].timeout / TL_PER_MS);
	run_timers(n);
}

/* ------------------------------------------------------------------ */
/* Checks                                                              */

static uint64_t
open_sockets(const struct node *n)
{
	uint64_t k = 0;

	for (uint64_t i = 0; i < n->w.n_sk; i++)
		k += n->w.sk[i].state != SK_CLOSED;
	return k;
}

/* Nothing open, nothing on a timer list, sk_cur agrees. */
static void
assert_idle(const struct node *n)
{
	assert_int_equal(n->w.st->sk_cur, 0);
	assert_int_equal(open_sockets(n), 0);
	for (int l = 0; l < TL__COUNT; l++) {
		assert_int_equal(n->w.tl[l].count, 0);
		assert_int_equal(n->w.tl[l].head, 0);
		assert_int_equal(n->w.tl[l].tail, 0);
	}
	assert_int_equal(C(n, SK_OPEN), C(n, SK_CLOSE));
}

static void
assert_clean(const struct node *n)
{
	assert_int_equal(C(n, TCP_DROP), 0);
	assert_int_equal(C(n, SK_ERR), 0);
	assert_int_equal(C(n, RST_TX), 0);
	assert_int_equal(C(n, RST_RX), 0);
	assert_int_equal(C(n, HTTP_ERR), 0);
	assert_int_equal(C(n, DROP_TX), 0);
}

static void
client_tuple(const struct node *c, uint64_t idx, struct tuple *t)
{
	sk_tuple(&c->w, idx, t);
}

/* The server's socket for a client tuple. */
static struct sock *
server_sock(struct node *s, const struct tuple *ct)
{
	uint64_t idx = sk_index_server(&s->w, ct->lip, ct->lport, ct->rport);

	assert_true(idx != SK_NONE);
	return &s->w.sk[idx];
}

static struct sock *
client_sock(struct node *c, const struct tuple *ct)
{
	uint64_t idx = sk_index_client(&c->w, ct->lip, ct->lport, ct->rport);

	assert_true(idx != SK_NONE);
	return &c->w.sk[idx];
}

/* The tuple as the server sees it (its lip is the server). */
static void
reverse(const struct tuple *t, struct tuple *r)
{
	r->lip = t->rip;
	r->rip = t->lip;
	r->lport = t->rport;
	r->rport = t->lport;
}

/* ------------------------------------------------------------------ */
/* 1. CPS flow                                                         */

static void
test_cps_one(void **state)
{
	struct node *c = new_client(NULL), *s = new_server(NULL);
	struct tuple t;

	(void)state;
	assert_int_equal(c->w.is_http, 1);
	assert_int_equal(c->w.keepalive, 0);
	assert_int_equal(tcp_client_launch(&c->w), 0);
	assert_int_equal(c->n_out, 1);
	assert_int_equal(c->out[0].flags, TH_SYN);
	client_tuple(c, 0, &t);
	assert_memory_equal(&c->out[0].t, &t, sizeof(t));
	assert_int_equal(rte_be_to_cpu_32(t.lip), CLI_IP);
	assert_int_equal(rte_be_to_cpu_32(t.rip), SRV_IP);
	assert_int_equal(rte_be_to_cpu_16(t.lport), LPORT_MIN);
	assert_int_equal(rte_be_to_cpu_16(t.rport), 80);
	assert_int_equal(c->w.st->sk_cur, 1);
	assert_int_equal(c->w.sk[0].state, SK_SYN_SENT);
	assert_int_equal(c->w.tl[TL_RT].count, 1);

	deliver(c, s);
	assert_int_equal(s->w.st->sk_cur, 1);
	assert_int_equal(server_sock(s, &t)->state, SK_SYN_RCVD);
	pump(c, s);

	/* client */
	assert_int_equal(C(c, SK_OPEN), 1);
	assert_int_equal(C(c, SK_CLOSE), 1);
	assert_int_equal(C(c, HTTP_GET), 1);
	assert_int_equal(C(c, HTTP_2XX), 1);
	assert_int_equal(C(c, SYN_TX), 1);
	assert_int_equal(C(c, SYN_RX), 1);
	assert_int_equal(C(c, FIN_TX), 1);
	assert_int_equal(C(c, FIN_RX), 1);
	assert_clean(c);
	assert_idle(c);
	assert_int_equal(c->sent, 3);
	assert_int_equal(c->hist[0], TH_SYN);
	assert_int_equal(c->hlen[0], 0);
	assert_int_equal(c->hist[1], TH_ACK | TH_PSH);
	assert_int_equal(c->hlen[1], c->w.req.len);
	assert_int_equal(c->hist[2], TH_FIN | TH_ACK);
	assert_int_equal(c->hlen[2], 0);

	/* server */
	assert_int_equal(C(s, SK_OPEN), 1);
	assert_int_equal(C(s, SK_CLOSE), 1);
	assert_int_equal(C(s, HTTP_GET), 1);
	assert_int_equal(C(s, HTTP_2XX), 1);
	/* goodTx: one request and one answer, single segments */
	assert_int_equal(C(c, GOOD_TX), (uint64_t)c->w.req.len * 8);
	assert_int_equal(C(s, GOOD_TX), (uint64_t)s->w.rsp_close.len * 8);
	assert_int_equal(C(s, SYN_RX), 1);
	assert_int_equal(C(s, SYN_TX), 1);
	assert_int_equal(C(s, FIN_TX), 1);
	assert_int_equal(C(s, FIN_RX), 1);
	assert_clean(s);
	assert_idle(s);
	assert_int_equal(s->sent, 3);
	assert_int_equal(s->hist[0], TH_SYN | TH_ACK);
	assert_int_equal(s->hist[1], TH_ACK | TH_PSH | TH_FIN);
	assert_int_equal(s->hlen[1], s->w.rsp_close.len);
	assert_int_equal(s->hist[2], TH_ACK);
	assert_int_equal(s->hlen[2], 0);
}

/* ------------------------------------------------------------------ */
/* 2. Many connections                                                 */

static void
test_cps_many(void **state)
{
	static uint8_t seen[N_CLI][65536];
	struct node *c = new_client(NULL), *s = new_server(NULL);
	uint32_t launched = 0;

	(void)state;
	memset(seen, 0, sizeof(seen));
	assert_int_equal(c->w.n_sk, (uint64_t)N_CLI * N_LPORT);
	while (launched < 1000) {
		uint32_t batch = 1 + launched % 37;

		for (uint32_t i = 0; i < batch && launched < 1000; i++, launched++) {
			const struct rec *r;

			c->w.now += 977; /* different ISS per launch */
			assert_int_equal(tcp_client_launch(&c->w), 0);
			r = &c->out[c->n_out - 1];
			assert_int_equal(r->flags, TH_SYN);
			uint32_t ci = rte_be_to_cpu_32(r->t.lip) - CLI_IP;
			assert_true(ci < N_CLI);
			assert_int_equal(r->t.rip, c->w.srv_ip);
			assert_int_equal(rte_be_to_cpu_16(r->t.rport), 80);
			assert_int_equal(seen[ci][rte_be_to_cpu_16(r->t.lport)], 0);
			seen[ci][rte_be_to_cpu_16(r->t.lport)] = 1;
		}
		assert_int_equal(c->w.st->sk_cur, open_sockets(c));
		/* Half the time leave the SYNs in flight across the next batch. */
		if (launched % 2)
			pump(c, s);
		else
			deliver(c, s);
	}
	pump(c, s);
	assert_int_equal(C(c, SK_OPEN), 1000);
	assert_int_equal(C(c, SK_CLOSE), 1000);
	assert_int_equal(C(c, SYN_TX), 1000);
	assert_int_equal(C(c, HTTP_GET), 1000);
	assert_int_equal(C(c, HTTP_2XX), 1000);
	assert_int_equal(C(s, SK_OPEN), 1000);
	assert_int_equal(C(s, SK_CLOSE), 1000);
	assert_int_equal(C(s, HTTP_GET), 1000);
	assert_int_equal(C(s, HTTP_2XX), 1000);
	assert_int_equal(c->sent, 3000);
	assert_int_equal(s->sent, 3000);
	assert_clean(c);
	assert_clean(s);
	assert_idle(c);
	assert_idle(s);
}

static void
tiny_table(struct dp_config *c)
{
	c->lport_max = c->lport_min + 1; /* 2 ports x 2 addresses = 4 tuples */
}

static void
test_launch_table_full(void **state)
{
	struct node *c = new_client(tiny_table), *s = new_server(NULL);

	(void)state;
	assert_int_equal(c->w.n_sk, 4);
	for (int i = 0; i < 4; i++)
		assert_int_equal(tcp_client_launch(&c->w), 0);
	assert_int_equal(tcp_client_launch(&c->w), -1);
	assert_int_equal(C(c, SYN_TX), 4);
	assert_int_equal(c->w.st->sk_cur, 4);
	pump(c, s);
	assert_idle(c);
	/* the tuples are free again */
	for (int i = 0; i < 4; i++)
		assert_int_equal(tcp_client_launch(&c->w), 0);
	pump(c, s);
	assert_int_equal(C(c, HTTP_2XX), 8);
	assert_int_equal(C(s, HTTP_2XX), 8);
	assert_clean(c);
	assert_clean(s);
	assert_idle(c);
	assert_idle(s);
}

/* ------------------------------------------------------------------ */
/* 3. Keepalive                                                        */

static void
ka3_now(struct dp_config *c)
{
	c->keepalive = 1;
	c->keepalive_request_num = 3;
	c->keepalive_request_interval_us = 0;
}

static void
ka_server(struct dp_config *c)
{
	c->keepalive = 1;
}

static void
test_keepalive_immediate(void **state)
{
	struct node *c = new_client(ka3_now), *s = new_server(ka_server);

	(void)state;
	assert_int_equal(c->w.keepalive, 1);
	assert_int_equal(c->w.tl[TL_KA].timeout, 0);
	assert_int_equal(tcp_client_launch(&c->w), 0);
	pump(c, s);
	assert_int_equal(C(c, SK_OPEN), 1);
	assert_int_equal(C(c, SK_CLOSE), 1);
	assert_int_equal(C(c, HTTP_GET), 3);
	assert_int_equal(C(c, HTTP_2XX), 3);
	assert_int_equal(C(s, SK_OPEN), 1);
	assert_int_equal(C(s, SK_CLOSE), 1);
	assert_int_equal(C(s, HTTP_GET), 3);
	assert_int_equal(C(s, HTTP_2XX), 3);
	/* client: SYN, 3 requests, FIN, last ACK; server: SYN+ACK, 3 responses, FIN */
	assert_int_equal(c->sent, 6);
	assert_int_equal(s->sent, 5);
	for (int i = 1; i <= 3; i++) {
		assert_int_equal(c->hist[i], TH_ACK | TH_PSH);
		assert_int_equal(s->hist[i], TH_ACK | TH_PSH);
		assert_int_equal(s->hlen[i], s->w.rsp_ka.len);
	}
	assert_int_equal(c->hist[4], TH_FIN | TH_ACK);
	assert_int_equal(c->hist[5], TH_ACK);
	assert_int_equal(s->hist[4], TH_FIN | TH_ACK);
	assert_clean(c);
	assert_clean(s);
	assert_idle(c);
	assert_idle(s);
}

static void
ka3_1s(struct dp_config *c)
{
	c->keepalive = 1;
	c->keepalive_request_num = 3;
	c->keepalive_request_interval_us = 1000 * 1000;
}

static void
test_keepalive_interval(void **state)
{
	struct node *c = new_client(ka3_1s), *s = new_server(ka_server);
	struct tuple t;

	(void)state;
	assert_int_equal(tcp_client_launch(&c->w), 0);
	client_tuple(c, 0, &t);
	pump(c, s);
	assert_int_equal(C(c, HTTP_2XX), 1);
	assert_int_equal(c->w.sk[0].state, SK_ESTABLISHED);
	assert_int_equal(c->w.sk[0].list, TL_KA);
	assert_int_equal(server_sock(s, &t)->state, SK_ESTABLISHED);
	assert_int_equal(server_sock(s, &t)->list, TL_IDLE);
	for (int i = 2; i <= 3; i++) {
		advance(c, 999);
		run_timers(c);
		assert_int_equal(c->n_out, 0);
		advance(c, 1);
		run_timers(c);
		assert_int_equal(c->n_out, 1);
		pump(c, s);
		assert_int_equal(C(c, HTTP_2XX), (uint64_t)i);
	}
	assert_int_equal(C(s, HTTP_GET), 3);
	assert_int_equal(C(s, HTTP_2XX), 3);
	assert_clean(c);
	assert_clean(s);
	assert_idle(c);
	assert_idle(s);
}

/* The server closes a keepalive connection the client leaves idle. */
static void
ka_forever(struct dp_config *c)
{
	c->keepalive = 1;
}

static void
test_server_idle_close(void **state)
{
	struct node *c = new_client(ka_forever), *s = new_server(ka_server);

	(void)state;
	assert_int_equal(tcp_client_launch(&c->w), 0);
	pump(c, s);
	assert_int_equal(C(c, HTTP_2XX), 1);
	assert_int_equal(s->w.st->sk_cur, 1);
	advance(s, s->w.tl[TL_IDLE].timeout / TL_PER_MS - 1);
	run_timers(s);
	assert_int_equal(s->n_out, 0);
	advance(s, 1);
	run_timers(s);
	assert_int_equal(s->n_out, 1);
	assert_int_equal(s->out[0].flags, TH_FIN | TH_ACK);
	pump(c, s);
	assert_int_equal(C(s, FIN_TX), 1);
	assert_int_equal(C(c, FIN_TX), 1);
	assert_clean(c);
	assert_clean(s);
	assert_idle(c);
	assert_idle(s);
}

static void
pipeline2(struct dp_config *c)
{
	c->pipeline = 2;
}

static void
test_pipeline(void **state)
{
	struct node *c = new_client(pipeline2), *s = new_server(NULL);

	(void)state;
	assert_int_equal(tcp_client_launch(&c->w), 0);
	pump(c, s);
	assert_int_equal(C(c, HTTP_GET), 2);
	assert_int_equal(C(c, HTTP_2XX), 2);
	assert_int_equal(C(s, HTTP_GET), 2);
	assert_int_equal(C(s, HTTP_2XX), 2);
	/* server: SYN+ACK, response, response+FIN, ACK */
	assert_int_equal(s->sent, 4);
	assert_int_equal(s->hist[1], TH_ACK | TH_PSH);
	assert_int_equal(s->hist[2], TH_ACK | TH_PSH | TH_FIN);
	assert_clean(c);
	assert_clean(s);
	assert_idle(c);
	assert_idle(s);
}

/* ------------------------------------------------------------------ */
/* 4. fast_close                                                       */

static void
fast_close(struct dp_config *c)
{
	c->fast_close = 1;
}

static void
test_fast_close(void **state)
{
	struct node *c = new_client(fast_close), *s = new_server(NULL);

	(void)state;
	assert_int_equal(tcp_client_launch(&c->w), 0);
	pump(c, s);
	assert_int_equal(C(c, HTTP_2XX), 1);
	assert_int_equal(C(c, SK_CLOSE), 1);
	assert_int_equal(C(c, RST_TX), 1);
	assert_int_equal(C(c, FIN_TX), 0);
	assert_int_equal(C(c, SK_ERR), 0);
	assert_int_equal(c->hist[2], TH_RST | TH_ACK);
	assert_int_equal(C(s, RST_RX), 1);
	assert_int_equal(C(s, SK_CLOSE), 1);
	assert_int_equal(C(s, SK_ERR), 0);
	assert_int_equal(C(s, TCP_DROP), 0);
	assert_int_equal(C(s, HTTP_2XX), 1);
	assert_int_equal(s->sent, 2); /* SYN+ACK, response+FIN */
	assert_idle(c);
	assert_idle(s);
}

/* ------------------------------------------------------------------ */
/* 5. Losses                                                           */

static void
test_lost_syn(void **state)
{
	struct node *c = new_client(NULL), *s = new_server(NULL);

	(void)state;
	assert_int_equal(tcp_client_launch(&c->w), 0);
	box_clear(c);
	advance(c, c->w.tl[TL_RT].timeout / TL_PER_MS - 1);
	run_timers(c);
	assert_int_equal(c->n_out, 0);
	advance(c, 1);
	run_timers(c);
	assert_int_equal(c->n_out, 1);
	assert_int_equal(c->out[0].flags, TH_SYN);
	assert_int_equal(c->out[0].seq, c->w.sk[0].snd_una);
	assert_int_equal(C(c, SYN_RT), 1);
	assert_int_equal(C(c, SYN_TX), 2);
	pump(c, s);
	assert_int_equal(C(c, HTTP_2XX), 1);
	assert_int_equal(C(s, HTTP_2XX), 1);
	assert_clean(c);
	assert_clean(s);
	assert_idle(c);
	assert_idle(s);
}

/* A congested device holds the timers back (they would only add to the
 * queue): the worker's timers_run, not a copy without that check. */
static void
test_timers_wait_for_congestion(void **state)
{
	struct node *c = new_client(NULL);

	(void)state;
	assert_int_equal(tcp_client_launch(&c->w), 0);
	box_clear(c);
	advance(c, c->w.tl[TL_RT].timeout / TL_PER_MS);
	c->w.n_tx = DP_TX_CONGESTED; /* queued, as if the device took nothing */
	c->w.tx_head = 0;
	assert_int_not_equal(timers_run(&c->w), 0);
	assert_int_equal(c->n_out, 0);
	assert_int_equal(C(c, SYN_RT), 0);
	c->w.n_tx = 0;
	assert_int_equal(timers_run(&c->w), 0);
	assert_int_equal(c->n_out, 1);
	assert_int_equal(C(c, SYN_RT), 1);
}

static void
test_lost_synack(void **state)
{
	struct node *c = new_client(NULL), *s = new_server(NULL);

	(void)state;
	assert_int_equal(tcp_client_launch(&c->w), 0);
	deliver(c, s);
	assert_int_equal(s->n_out, 1);
	box_clear(s);
	rt_expire(c);
	assert_int_equal(C(c, SYN_RT), 1);
	deliver(c, s); /* the duplicate SYN */
	assert_int_equal(C(s, SYN_RT), 1);
	assert_int_equal(C(s, SYN_TX), 2);
	assert_int_equal(C(s, SK_OPEN), 1);
	assert_int_equal(s->n_out, 1);
	assert_int_equal(s->out[0].flags, TH_SYN | TH_ACK);
	pump(c, s);
	assert_int_equal(C(c, HTTP_2XX), 1);
	assert_int_equal(C(s, HTTP_2XX), 1);
	assert_int_equal(C(s, SK_OPEN), 1);
	assert_clean(c);
	assert_clean(s);
	assert_idle(c);
	assert_idle(s);
}

static void
test_lost_request(void **state)
{
	struct node *c = new_client(NULL), *s = new_server(NULL);

	(void)state;
	assert_int_equal(tcp_client_launch(&c->w), 0);
	deliver(c, s);
	deliver(s, c);
	assert_int_equal(c->n_out, 1);
	assert_int_equal(c->out[0].len, c->w.req.len);
	box_clear(c);
	rt_expire(c);
	assert_int_equal(C(c, PUSH_RT), 1);
	assert_int_equal(c->n_out, 1);
	assert_int_equal(c->out[0].flags, TH_ACK | TH_PSH);
	assert_int_equal(c->out[0].len, c->w.req.len);
	pump(c, s);
	assert_int_equal(C(c, HTTP_GET), 1);
	assert_int_equal(C(c, HTTP_2XX), 1);
	assert_int_equal(C(s, HTTP_GET), 1);
	assert_int_equal(C(s, HTTP_2XX), 1);
	assert_clean(c);
	assert_clean(s);
	assert_idle(c);
	assert_idle(s);
}

/* Request lost, and the server's SYN+ACK retransmission comes first: the
 * client (ESTABLISHED) answers the duplicate SYN+ACK with an ACK. */
static void
test_lost_request_server_rt_first(void **state)
{
	struct node *c = new_client(NULL), *s = new_server(NULL);
	struct tuple t;

	(void)state;
	assert_int_equal(tcp_client_launch(&c->w), 0);
	client_tuple(c, 0, &t);
	deliver(c, s);
	deliver(s, c);
	box_clear(c); /* the ACK+request */
	rt_expire(s);
	assert_int_equal(C(s, SYN_RT), 1);
	assert_int_equal(s->n_out, 1);
	assert_int_equal(s->out[0].flags, TH_SYN | TH_ACK);
	deliver(s, c);
	assert_int_equal(C(c, TCP_DROP), 1);
	assert_int_equal(c->n_out, 1);
	assert_int_equal(c->out[0].flags, TH_ACK);
	assert_int_equal(c->out[0].len, 0);
	deliver(c, s);
	assert_int_equal(server_sock(s, &t)->state, SK_ESTABLISHED);
	assert_int_equal(s->n_out, 0);
	rt_expire(c);
	assert_int_equal(C(c, PUSH_RT), 1);
	pump(c, s);
	assert_int_equal(C(c, HTTP_2XX), 1);
	assert_int_equal(C(s, HTTP_2XX), 1);
	assert_int_equal(C(c, TCP_DROP), 1);
	assert_int_equal(C(c, SK_ERR), 0);
	assert_clean(s);
	assert_idle(c);
	assert_idle(s);
}

static void
test_lost_response(void **state)
{
	struct node *c = new_client(NULL), *s = new_server(NULL);

	(void)state;
	open_and_ask(c, s);
	assert_int_equal(s->n_out, 1);
	assert_int_equal(s->out[0].flags, TH_ACK | TH_PSH | TH_FIN);
	box_clear(s);
	rt_expire(s);
	assert_int_equal(C(s, PUSH_RT), 1);
	assert_int_equal(s->n_out, 1);
	assert_int_equal(s->out[0].flags, TH_ACK | TH_PSH | TH_FIN);
	assert_int_equal(s->out[0].len, s->w.rsp_close.len);
	pump(c, s);
	assert_int_equal(C(c, HTTP_2XX), 1);
	assert_int_equal(C(s, HTTP_2XX), 1);
	assert_int_equal(C(s, HTTP_GET), 1);
	assert_clean(c);
	assert_clean(s);
	assert_idle(c);
	assert_idle(s);
}

/* The client's FIN is lost: it retransmits the FIN alone. */
static void
test_lost_client_fin(void **state)
{
	struct node *c = new_client(NULL), *s = new_server(NULL);

	(void)state;
	open_and_ask(c, s);
	deliver(s, c);
	assert_int_equal(c->n_out, 1);
	assert_int_equal(c->out[0].flags, TH_FIN | TH_ACK);
	assert_int_equal(c->w.sk[0].state, SK_LAST_ACK);
	box_clear(c);
	rt_expire(c);
	assert_int_equal(C(c, FIN_RT), 1);
	assert_int_equal(C(c, FIN_TX), 2);
	assert_int_equal(c->n_out, 1);
	assert_int_equal(c->out[0].flags, TH_FIN | TH_ACK);
	assert_int_equal(c->out[0].seq, c->w.sk[0].snd_nxt - 1);
	pump(c, s);
	assert_clean(c);
	assert_clean(s);
	assert_idle(c);
	assert_idle(s);
}

/* The server's last ACK is lost. The server keeps no TIME_WAIT: the
 * retransmitted FIN finds no socket and is answered with a RST, which
 * closes the client's LAST_ACK socket without an error. */
static void
test_lost_last_ack(void **state)
{
	struct node *c = new_client(NULL), *s = new_server(NULL);

	(void)state;
	open_and_ask(c, s);
	deliver(s, c);
	deliver(c, s);
	assert_int_equal(s->n_out, 1);
	assert_int_equal(s->out[0].flags, TH_ACK);
	box_clear(s);
	assert_idle(s);
	rt_expire(c);
	assert_int_equal(C(c, FIN_RT), 1);
	pump(c, s);
	assert_int_equal(C(s, TCP_DROP), 1);
	assert_int_equal(C(s, RST_TX), 1);
	assert_int_equal(C(c, RST_RX), 1);
	assert_int_equal(C(c, SK_ERR), 0);
	assert_int_equal(C(c, SK_CLOSE), 1);
	assert_int_equal(C(c, HTTP_2XX), 1);
	assert_idle(c);
	assert_idle(s);
}

/* Keepalive: the server's FIN+ACK (LAST_ACK) is lost, the server resends its FIN. */
static void
ka1_now(struct dp_config *c)
{
	c->keepalive = 1;
	c->keepalive_request_num = 1;
	c->keepalive_request_interval_us = 0;
}

static void
test_lost_server_fin(void **state)
{
	struct node *c = new_client(ka1_now), *s = new_server(ka_server);
	struct tuple t;

	(void)state;
	assert_int_equal(tcp_client_launch(&c->w), 0);
	client_tuple(c, 0, &t);
	deliver(c, s);
	deliver(s, c);
	deliver(c, s);
	deliver(s, c);
	assert_int_equal(c->n_out, 1);
	assert_int_equal(c->out[0].flags, TH_FIN | TH_ACK);
	deliver(c, s);
	assert_int_equal(server_sock(s, &t)->state, SK_LAST_ACK);
	assert_int_equal(s->n_out, 1);
	box_clear(s);
	rt_expire(s);
	assert_int_equal(C(s, FIN_RT), 1);
	assert_int_equal(C(s, FIN_TX), 2);
	assert_int_equal(s->n_out, 1);
	assert_int_equal(s->out[0].flags, TH_FIN | TH_ACK);
	pump(c, s);
	assert_int_equal(C(c, HTTP_2XX), 1);
	assert_clean(c);
	assert_clean(s);
	assert_idle(c);
	assert_idle(s);
}

/* ------------------------------------------------------------------ */
/* 6. Retries exhausted                                                */

static void
test_client_retries_exhausted(void **state)
{
	struct node *c = new_client(NULL);

	(void)state;
	assert_int_equal(tcp_client_launch(&c->w), 0);
	for (int i = 1; i <= DP_MAX_RETRIES; i++) {
		box_clear(c);
		rt_expire(c);
		assert_int_equal(C(c, SYN_RT), (uint64_t)i);
		assert_int_equal(c->w.sk[0].state, SK_SYN_SENT);
		assert_int_equal(c->w.st->sk_cur, 1);
	}
	box_clear(c);
	rt_expire(c);
	assert_int_equal(C(c, SYN_RT), DP_MAX_RETRIES);
	assert_int_equal(C(c, SK_ERR), 1);
	assert_int_equal(C(c, SK_CLOSE), 1);
	assert_int_equal(C(c, RST_TX), 1);
	assert_int_equal(c->n_out, 1);
	assert_int_equal(c->out[0].flags, TH_RST | TH_ACK);
	box_clear(c);
	assert_idle(c);
}

/* The request is never answered nor acknowledged. */
static void
test_client_request_retries_exhausted(void **state)
{
	struct node *c = new_client(NULL), *s = new_server(NULL);

	(void)state;
	assert_int_equal(tcp_client_launch(&c->w), 0);
	deliver(c, s);
	deliver(s, c);
	for (int i = 0; i <= DP_MAX_RETRIES; i++) {
		box_clear(c);
		rt_expire(c);
	}
	assert_int_equal(C(c, PUSH_RT), DP_MAX_RETRIES);
	assert_int_equal(C(c, SK_ERR), 1);
	assert_int_equal(C(c, HTTP_GET), 1);
	assert_int_equal(C(c, HTTP_2XX), 0);
	box_clear(c);
	assert_idle(c);
}

static void
test_server_retries_exhausted(void **state)
{
	struct node *c = new_client(NULL), *s = new_server(NULL);

	(void)state;
	assert_int_equal(tcp_client_launch(&c->w), 0);
	deliver(c, s);
	box_clear(c);
	for (int i = 0; i <= DP_MAX_RETRIES; i++) {
		box_clear(s);
		rt_expire(s);
	}
	assert_int_equal(C(s, SYN_RT), DP_MAX_RETRIES);
	assert_int_equal(C(s, SK_ERR), 1);
	assert_int_equal(C(s, RST_TX), 1);
	box_clear(s);
	assert_idle(s);
}

/* ------------------------------------------------------------------ */
/* 7. Hostile segments                                                 */

static void
test_server_no_socket(void **state)
{
	struct node *c = new_client(NULL), *s = new_server(NULL);
	struct tuple t;
	static const uint8_t junk[5] = "hello";

	(void)state;
	client_tuple(c, 3, &t);
	inject(s, &t, 1000, 2000, TH_ACK, NULL, 0);
	assert_int_equal(C(s, TCP_DROP), 1);
	assert_int_equal(C(s, RST_TX), 1);
	assert_int_equal(s->n_out, 1);
	assert_int_equal(s->out[0].flags, TH_RST);
	assert_int_equal(s->out[0].seq, 2000);
	assert_int_equal(s->out[0].t.rip, t.lip);
	assert_int_equal(s->out[0].t.rport, t.lport);
	box_clear(s);

	inject(s, &t, 1000, 0, TH_PSH, junk, sizeof(junk));
	assert_int_equal(C(s, TCP_DROP), 2);
	assert_int_equal(s->n_out, 1);
	assert_int_equal(s->out[0].flags, TH_RST | TH_ACK);
	assert_int_equal(s->out[0].ack, 1005);
	box_clear(s);

	/* a RST is never answered */
	inject(s, &t, 1000, 0, TH_RST, NULL, 0);
	assert_int_equal(C(s, TCP_DROP), 3);
	assert_int_equal(C(s, RST_RX), 1);
	assert_int_equal(s->n_out, 0);

	s->cfg.tcp_rst = 0;
	inject(s, &t, 1000, 2000, TH_ACK, NULL, 0);
	inject(s, &t, 1000, 2000, TH_FIN | TH_ACK, NULL, 0);
	assert_int_equal(C(s, TCP_DROP), 5);
	assert_int_equal(C(s, RST_TX), 2);
	assert_int_equal(s->n_out, 0);
	assert_int_equal(C(s, SK_OPEN), 0);
	assert_idle(s);
}

/* A client completes the handshake with part of a request in the ACK,
 * then goes quiet: the server's socket must still be on a timer list, and
 * the idle timeout must close it (found by fuzz_rx: it sat on none). */
static void
test_server_partial_request_idle(void **state)
{
	struct node *c = new_client(NULL), *s = new_server(NULL);
	static const uint8_t part[] = "GET / HTTP/1.1\r\nHost: x\r\n";
	struct tuple t;
	struct sock *sk;
	uint32_t iss;

	(void)state;
	client_tuple(c, 3, &t);
	inject(s, &t, 1000, 0, TH_SYN, NULL, 0);
	assert_int_equal(s->n_out, 1);
	assert_int_equal(s->out[0].flags, TH_SYN | TH_ACK);
	iss = s->out[0].seq;
	box_clear(s);
	inject(s, &t, 1001, iss + 1, TH_ACK | TH_PSH, part, sizeof(part) - 1);
	sk = server_sock(s, &t);
	assert_int_equal(sk->state, SK_ESTABLISHED);
	assert_int_equal(sk->list, TL_IDLE);
	assert_int_equal(C(s, HTTP_GET), 0);
	box_clear(s);
	for (int i = 0; i < 2 + DP_MAX_RETRIES; i++) {
		advance(s, s->w.tl[TL_IDLE].timeout / TL_PER_MS);
		run_timers(s);
		box_clear(s);
	}
	assert_idle(s);
}

/* One keep-alive connection to the server; returns its ISS. */
static uint32_t
server_connect(struct node *s, const struct tuple *t)
{
	uint32_t iss;

	inject(s, t, 1000, 0, TH_SYN, NULL, 0);
	assert_int_equal(s->out[0].flags, TH_SYN | TH_ACK);
	iss = s->out[0].seq;
	box_clear(s);
	inject(s, t, 1001, iss + 1, TH_ACK, NULL, 0);
	return iss;
}

/* HEAD is answered with the GET answer's head alone; a POST's body is
 * skipped by its Content-Length; each method is counted. */
/* ------------------------------------------------------------------ */
/* Answers over several segments (payload_size above mss)              */

static void
big_server(struct dp_config *c)
{
	c->keepalive = 1;
	c->payload_size = 64000; /* 44 segments of 1460 */
}

static void
big_client(struct dp_config *c)
{
	c->keepalive = 1;
	c->keepalive_request_interval_us = 0;
	c->keepalive_request_num = 2;
	c->payload_size = 64000;
}

/* Data bytes the server sent in segments recorded since the last clear,
 * and the highest end (seq + len) among them. */
static uint32_t
sent_bytes(const struct node *n, uint32_t *end)
{
	uint32_t b = 0;

	for (size_t i = 0; i < n->n_out; i++) {
		b += n->out[i].len;
		if (end && n->out[i].len && seq_gt(n->out[i].seq + n->out[i].len, *end))
			*end = n->out[i].seq + n->out[i].len;
	}
	return b;
}

static void
big_server_w4(struct dp_config *c)
{
	big_server(c);
	c->send_window = 4;
}

/* The first flight is the initial window (RFC 6928: 10 segments of
 * 1460), the whole answer arrives, twice on one connection. */
static void
test_big_answer_window(void **state)
{
	struct node *c = new_client(big_client), *s = new_server(big_server);
	uint32_t len = s->w.rsp_ka.len, segs = (len + 1459) / 1460, rounds = 0;

	(void)state;
	assert_true(s->w.rsp_ka.seg_sum != NULL);
	assert_non_null(s->w.sktx);
	open_and_ask(c, s);
	assert_int_equal(s->n_out, 10);
	assert_int_equal(sent_bytes(s, NULL), 10 * 1460);
	while ((s->n_out || c->n_out) && rounds++ < 1000) {
		deliver(s, c);
		deliver(c, s);
	}
	assert_int_equal(C(c, HTTP_2XX), 2);
	assert_int_equal(C(s, HTTP_2XX), 2);
	assert_int_equal(C(s, PUSH_RT), 0);
	/* goodput: each answer's bytes once, each request's once */
	assert_int_equal(C(c, GOOD_RX), 2ULL * len * 8);
	assert_int_equal(C(s, GOOD_RX), 2ULL * c->w.req.len * 8);
	/* goodTx: what each side sent for the first time */
	assert_int_equal(C(s, GOOD_TX), 2ULL * len * 8);
	assert_int_equal(C(c, GOOD_TX), 2ULL * c->w.req.len * 8);
	assert_true(s->sent >= 2 * segs);
	assert_clean(c);
	assert_clean(s);
}

/* send_window, when set, bounds the segments in flight: 4 here, below
 * the initial window. */
static void
test_big_answer_send_window(void **state)
{
	struct node *c = new_client(big_client), *s = new_server(big_server_w4);
	uint32_t rounds = 0;

	(void)state;
	open_and_ask(c, s);
	assert_int_equal(s->n_out, 4);
	while ((s->n_out || c->n_out) && rounds++ < 1000) {
		assert_true(sent_bytes(s, NULL) <= 4 * 1460);
		deliver(s, c);
		deliver(c, s);
	}
	assert_int_equal(C(c, HTTP_2XX), 2);
	assert_clean(s);
}

/* A segment of the answer is lost: the retransmission timer sends the
 * answer again from that segment, and it completes. */
static void
test_big_answer_loss(void **state)
{
	struct node *c = new_client(big_client), *s = new_server(big_server);
	int dropped = 0, rounds = 0;

	(void)state;
	open_and_ask(c, s);
	while (rounds++ < 2000 && C(c, HTTP_2XX) < 2) {
		if (!dropped && s->n_out == 10) { /* lose the second of the first flight */
			free(s->out[1].data);
			memmove(&s->out[1], &s->out[2], 8 * sizeof(s->out[0]));
			s->n_out--;
			dropped = 1;
		}
		if (s->n_out == 0 && c->n_out == 0) {
			rt_expire(s); /* the client waits: only the timer moves on */
			advance(c, s->w.tl[TL_RT].timeout / TL_PER_MS);
		}
		deliver(s, c);
		deliver(c, s);
	}
	assert_int_equal(dropped, 1);
	assert_int_equal(C(c, HTTP_2XX), 2);
	assert_true(C(s, PUSH_RT) >= 1);
	/* what came twice counts once in the goodput, sent or received */
	assert_int_equal(C(c, GOOD_RX), 2ULL * s->w.rsp_ka.len * 8);
	assert_int_equal(C(s, GOOD_TX), 2ULL * s->w.rsp_ka.len * 8);
	pump(c, s);
	/* the client drops what follows the hole (no out-of-order queue:
	 * counted in tcpOoo, each answered with a duplicate ACK at once)
	 * and nothing else goes wrong */
	assert_true(C(c, TCP_OOO) >= 1 && C(c, TCP_OOO) <= (s->w.rsp_ka.len + 1459) / 1460);
	assert_int_equal(C(c, TCP_DROP), 0);
	assert_int_equal(C(c, SK_ERR), 0);
	assert_int_equal(C(c, HTTP_ERR), 0);
	assert_clean(s);
}

static void
big_server_w8(struct dp_config *c)
{
	big_server(c);
	c->send_window = 8;
}

/* A segment lost early in a flight of 8: the segments after it bring
 * duplicate ACKs, and the third sends the hole at once; our client kept
 * nothing after the hole, so its ACK of exactly that segment sends the
 * rest again in order (tcp_send.c): no timer runs. */
static void
test_big_answer_fast_retransmit(void **state)
{
	struct node *c = new_client(big_client), *s = new_server(big_server_w8);
	int rounds = 0;

	(void)state;
	open_and_ask(c, s);
	assert_int_equal(s->n_out, 8);
	free(s->out[1].data); /* lose the second */
	memmove(&s->out[1], &s->out[2], 6 * sizeof(s->out[0]));
	s->n_out--;
	while ((s->n_out || c->n_out) && rounds++ < 2000) {
		deliver(s, c);
		deliver(c, s);
	}
	assert_int_equal(C(c, HTTP_2XX), 2);
	assert_true(C(s, PUSH_RT) >= 1);
	assert_int_equal(C(c, SK_ERR), 0);
	assert_clean(s);
}

/* ------------------------------------------------------------------ */
/* The sender (tcp_send.c) against a scripted peer: each ACK written    */
/* here, the RFC's arithmetic checked after it                          */

static const char get_req[] = "GET / HTTP/1.1\r\nHost: x\r\n\r\n";
#define GET_END (1001 + (uint32_t)sizeof(get_req) - 1)

/* A connection from a scripted peer whose SYN offers window field
 * syn_win and window scale ws (SEG_NO_WS: none), and its GET: the
 * server's first flight is in s->out. Returns the answer's first byte. */
static uint32_t
tx_start(struct node *s, struct tuple *t, uint16_t syn_win, uint8_t ws)
{
	struct node *c = new_client(NULL);
	uint32_t iss;

	client_tuple(c, 3, t);
	s->peer_win = syn_win;
	s->peer_ws = ws;
	inject(s, t, 1000, 0, TH_SYN, NULL, 0);
	assert_int_equal(s->out[0].flags, TH_SYN | TH_ACK);
	iss = s->out[0].seq;
	box_clear(s);
	inject(s, t, 1001, iss + 1, TH_ACK, NULL, 0);
	inject(s, t, 1001, iss + 1, TH_ACK | TH_PSH, (const uint8_t *)get_req, sizeof(get_req) - 1);
	return iss + 1;
}

/* The peer acknowledges up to ack with window field win. */
static void
peer_ack(struct node *s, const struct tuple *t, uint32_t ack, uint16_t win)
{
	s->peer_win = win;
	s->peer_win_shut = win == 0;
	inject(s, t, GET_END, ack, TH_ACK, NULL, 0);
}

static struct sk_tx *
tx_state(struct node *s, const struct tuple *t)
{
	return sk_tx_of(&s->w, server_sock(s, t));
}

#define MSS 1460u

/* Slow start: the initial window is 10 segments (RFC 6928); each ACK of
 * one segment grows cwnd by one mss (RFC 5681 eq. 2), so two go out. */
static void
test_tx_slow_start(void **state)
{
	struct node *s = new_server(big_server);
	struct tuple t;
	uint32_t base = tx_start(s, &t, 0xffff, SEG_NO_WS);
	struct sk_tx *tx = tx_state(s, &t);

	(void)state;
	assert_int_equal(s->n_out, 10);
	for (uint32_t i = 0; i < 10; i++) {
		assert_int_equal(s->out[i].seq, base + i * MSS);
		assert_int_equal(s->out[i].len, MSS);
	}
	assert_int_equal(tx->cwnd, 10 * MSS);
	assert_int_equal(tx->ssthresh, UINT32_MAX);
	box_clear(s);
	for (uint32_t i = 1; i <= 3; i++) {
		peer_ack(s, &t, base + i * MSS, 0xffff);
		assert_int_equal(tx->cwnd, (10 + i) * MSS);
		assert_int_equal(s->n_out, 2);
		assert_int_equal(s->out[1].seq, base + (10 + 2 * i - 1) * MSS);
		box_clear(s);
	}
	/* an ACK of two segments at once grows it by one mss only */
	peer_ack(s, &t, base + 5 * MSS, 0xffff);
	assert_int_equal(tx->cwnd, 14 * MSS);
	assert_int_equal(s->n_out, 3);
	assert_int_equal(C(s, PUSH_RT), 0);
}

/* Congestion avoidance: above ssthresh, cwnd grows by mss x mss / cwnd
 * per ACK (RFC 5681 eq. 3): one mss per window acknowledged. */
static void
test_tx_congestion_avoidance(void **state)
{
	struct node *s = new_server(big_server);
	struct tuple t;
	uint32_t base = tx_start(s, &t, 0xffff, SEG_NO_WS);
	struct sk_tx *tx = tx_state(s, &t);

	(void)state;
	tx->ssthresh = tx->cwnd; /* as after a loss */
	box_clear(s);
	peer_ack(s, &t, base + MSS, 0xffff);
	assert_int_equal(tx->cwnd, 10 * MSS + MSS * MSS / (10 * MSS));
	assert_int_equal(s->n_out, 1); /* the window slid by one; cwnd grew by less than one */
	box_clear(s);
	peer_ack(s, &t, base + 2 * MSS, 0xffff);
	assert_int_equal(tx->cwnd, 14746 + MSS * MSS / 14746);
}

/* Three duplicate ACKs: the hole alone is resent, ssthresh = flight / 2,
 * cwnd = ssthresh + 3 mss (RFC 6582 3.2 steps 2-3); each further one
 * inflates cwnd by one mss; a partial ACK resends the next hole and
 * deflates; the full ACK sets cwnd to min(ssthresh, flight + mss). */
static void
test_tx_fast_recovery(void **state)
{
	struct node *s = new_server(big_server);
	struct tuple t;
	uint32_t base = tx_start(s, &t, 0xffff, SEG_NO_WS), recover;
	struct sk_tx *tx = tx_state(s, &t);

	(void)state;
	box_clear(s);
	peer_ack(s, &t, base + MSS, 0xffff); /* segment 0; 1 is lost */
	assert_int_equal(s->n_out, 2);       /* slow start: 10 and 11 */
	box_clear(s);
	recover = base + 12 * MSS;
	peer_ack(s, &t, base + MSS, 0xffff);
	peer_ack(s, &t, base + MSS, 0xffff);
	assert_int_equal(s->n_out, 0);
	assert_int_equal(tx->dupacks, 2);
	peer_ack(s, &t, base + MSS, 0xffff); /* the third */
	assert_int_equal(s->n_out, 1);
	assert_int_equal(s->out[0].seq, base + MSS);
	assert_int_equal(s->out[0].len, MSS);
	assert_int_equal(C(s, PUSH_RT), 1);
	assert_int_equal(tx->recovery, 1);
	assert_int_equal(tx->recover, recover);
	assert_int_equal(tx->ssthresh, 11 * MSS / 2);
	assert_int_equal(tx->cwnd, 11 * MSS / 2 + 3 * MSS);
	box_clear(s);
	/* a fourth: cwnd + 1 mss, still below the flight of 11: nothing */
	peer_ack(s, &t, base + MSS, 0xffff);
	assert_int_equal(tx->cwnd, 11 * MSS / 2 + 4 * MSS);
	assert_int_equal(s->n_out, 0);
	/* a partial ACK beyond the resent hole (the peer kept 2; 3 was lost
	 * too): 3 at once, and nothing else resent; cwnd deflated */
	peer_ack(s, &t, base + 3 * MSS, 0xffff);
	assert_int_equal(s->n_out, 1);
	assert_int_equal(s->out[0].seq, base + 3 * MSS);
	assert_int_equal(tx->recovery, 1);
	assert_int_equal(tx->cwnd, 11 * MSS / 2 + 4 * MSS - 2 * MSS + MSS);
	assert_int_equal(C(s, PUSH_RT), 2);
	box_clear(s);
	/* the full ACK ends the recovery */
	peer_ack(s, &t, recover, 0xffff);
	assert_int_equal(tx->recovery, 0);
	assert_int_equal(tx->cwnd, 2 * MSS); /* min(ssthresh, max(0, mss) + mss) */
	assert_int_equal(s->n_out, 2);
	assert_int_equal(s->out[0].seq, recover);
	assert_int_equal(C(s, PUSH_RT), 2);
}

/* A peer that keeps nothing out of order (our own client) acknowledges
 * exactly the hole that was resent: the sender goes back to snd_una and
 * sends in order from there, within the deflated cwnd. */
static void
test_tx_recovery_go_back(void **state)
{
	struct node *s = new_server(big_server);
	struct tuple t;
	uint32_t base = tx_start(s, &t, 0xffff, SEG_NO_WS), nxt;
	struct sk_tx *tx = tx_state(s, &t);

	(void)state;
	box_clear(s);
	for (int i = 0; i < 4; i++) /* segment 0, then three duplicates */
		peer_ack(s, &t, base + MSS, 0xffff);
	assert_int_equal(tx->recovery, 1);
	box_clear(s);
	/* the resent segment 1 is all it acknowledges */
	peer_ack(s, &t, base + 2 * MSS, 0xffff);
	assert_int_equal(tx->recovery, 2);
	assert_true(s->n_out >= 2);
	for (size_t i = 0; i < s->n_out; i++)
		assert_int_equal(s->out[i].seq, base + (2 + i) * MSS);
	assert_int_equal(tx->nxt, base + (2 + s->n_out) * MSS);
	box_clear(s);
	/* once only: the next partial ACK sends on from nxt, nothing again */
	nxt = tx->nxt;
	peer_ack(s, &t, base + 3 * MSS, 0xffff);
	for (size_t i = 0; i < s->n_out; i++)
		assert_false(seq_lt(s->out[i].seq, nxt));
}

/* A timeout: ssthresh = max(flight / 2, 2 mss), cwnd = 1 mss, one
 * segment from snd_una; then slow start resends what follows. */
static void
test_tx_timeout(void **state)
{
	struct node *s = new_server(big_server);
	struct tuple t;
	uint32_t base = tx_start(s, &t, 0xffff, SEG_NO_WS);
	struct sk_tx *tx = tx_state(s, &t);

	(void)state;
	box_clear(s);
	rt_expire(s);
	assert_int_equal(s->n_out, 1);
	assert_int_equal(s->out[0].seq, base);
	assert_int_equal(tx->cwnd, MSS);
	assert_int_equal(tx->ssthresh, 5 * MSS);
	assert_int_equal(C(s, PUSH_RT), 1);
	assert_int_equal(server_sock(s, &t)->retries, 1);
	box_clear(s);
	peer_ack(s, &t, base + MSS, 0xffff);
	assert_int_equal(tx->cwnd, 2 * MSS);
	assert_int_equal(s->n_out, 2); /* 1 and 2 again */
	assert_int_equal(s->out[0].seq, base + MSS);
	assert_int_equal(s->out[1].seq, base + 2 * MSS);
	assert_int_equal(C(s, PUSH_RT), 3);
	assert_int_equal(server_sock(s, &t)->retries, 0);
}

/* A zero window: nothing goes until the peer opens it; the timer probes
 * (an ACK below snd_una), which is neither a loss nor a retry, for as
 * long as the window stays shut; the window update sends again. */
static void
test_tx_zero_window(void **state)
{
	struct node *s = new_server(big_server);
	struct tuple t;
	uint32_t base = tx_start(s, &t, 0xffff, SEG_NO_WS), cwnd;
	struct sk_tx *tx = tx_state(s, &t);

	(void)state;
	box_clear(s);
	peer_ack(s, &t, base + 10 * MSS, 0);
	assert_int_equal(s->n_out, 0);
	cwnd = tx->cwnd;
	for (int i = 0; i < DP_MAX_RETRIES + 3; i++) {
		rt_expire(s);
		assert_int_equal(s->n_out, 1);
		assert_int_equal(s->out[0].len, 0);
		assert_int_equal(s->out[0].seq, base + 10 * MSS - 1);
		assert_int_equal(s->out[0].flags, TH_ACK);
		box_clear(s);
		/* the peer answers the probe: still shut, not a duplicate ACK */
		peer_ack(s, &t, base + 10 * MSS, 0);
		assert_int_equal(s->n_out, 0);
	}
	assert_int_equal(server_sock(s, &t)->state, SK_ESTABLISHED);
	assert_int_equal(server_sock(s, &t)->retries, 0);
	assert_int_equal(tx->cwnd, cwnd);
	assert_int_equal(tx->dupacks, 0);
	assert_int_equal(C(s, PUSH_RT), 0);
	peer_ack(s, &t, base + 10 * MSS, 0xffff);
	assert_int_equal(s->n_out, 11); /* cwnd: 10 mss, and one for the ACK of them */
	assert_int_equal(s->out[0].seq, base + 10 * MSS);
}

/* Window scaling: a SYN that offers it gets our offer back, and the
 * peer's later windows are scaled (not the SYN's own); a SYN without it
 * gets none and its windows are taken as they are. */
static void
test_tx_window_scale(void **state)
{
	struct node *s = new_server(big_server);
	struct tuple t;
	uint32_t base;
	struct sk_tx *tx;

	(void)state;
	base = tx_start(s, &t, 1000, 3); /* the SYN's window: 1000, unscaled */
	tx = tx_state(s, &t);
	assert_int_equal(s->synack_ws, 1);
	assert_int_equal(tx->shift, 3);
	assert_int_equal(s->n_out, 1); /* one segment into a window below mss */
	box_clear(s);
	peer_ack(s, &t, base + MSS, 1000); /* 8000 bytes: 5 segments */
	assert_int_equal(tx->wnd, 8000);
	assert_int_equal(s->n_out, 5);
	box_clear(s);
	free_nodes(NULL);

	s = new_server(big_server);
	base = tx_start(s, &t, 0xffff, SEG_NO_WS);
	tx = tx_state(s, &t);
	assert_int_equal(s->synack_ws, 0);
	assert_int_equal(tx->shift, 0);
	box_clear(s);
	peer_ack(s, &t, base + 10 * MSS, 3000); /* 3000 bytes as they are: 2 segments */
	assert_int_equal(tx->wnd, 3000);
	assert_int_equal(s->n_out, 2);
}

/* An answer longer than the stored prefix (DP_RSP_STORED): the segments
 * beyond it follow http/messages.h's content rule, byte for byte, each
 * with the sum of its own bytes, up to the exact length. */
static void
big_random(struct dp_config *c)
{
	c->keepalive = 1;
	c->payload_size = 70000000; /* 64 MiB stored, 2.9 MB by the rule */
	c->payload_random = 1;
}

static void
test_tx_beyond_stored(void **state)
{
	struct node *s = new_server(big_random);
	struct tuple t;
	uint32_t base = tx_start(s, &t, 0xffff, SEG_NO_WS), len = s->w.rsp_ka.len, got = 0;
	uint32_t S = DP_RSP_STORED / MSS, half = S / 2;
	uint8_t *body = malloc(len);

	(void)state;
	assert_non_null(body);
	assert_int_equal(len, 70000000);
	assert_int_equal(s->w.rsp_ka.seg_stored, S);
	for (int round = 0; got < len && round < 100000; round++) {
		for (size_t i = 0; i < s->n_out; i++) {
			struct rec *r = &s->out[i];
			assert_true(r->seq - base + r->len <= len);
			memcpy(body + (r->seq - base), r->data, r->len);
			if (r->seq + r->len - base > got)
				got = r->seq + r->len - base;
		}
		box_clear(s);
		peer_ack(s, &t, base + got, 0xffff);
	}
	assert_int_equal(got, len);
	assert_int_equal(s->bad_sums, 0);
	assert_int_equal(C(s, PUSH_RT), 0);
	assert_memory_equal(body, s->w.rsp_ka.data, (size_t)S * MSS);
	for (uint32_t i = S * MSS; i < len; i++)
		if (body[i] != body[half * MSS + (i - S * MSS) % ((S - half) * MSS)])
			fail_msg("byte %u breaks the content rule", i);
	free(body);
}

/* test_tx_drop: one segment in N of a long message never leaves (a lossy
 * path); the sender recovers and the answers complete. */
static void
big_server_txdrop(struct dp_config *c)
{
	big_server(c);
	c->test_tx_drop = 5;
}

static void
test_tx_drop_knob(void **state)
{
	struct node *c = new_client(big_client), *s = new_server(big_server_txdrop);
	int rounds = 0;

	(void)state;
	open_and_ask(c, s);
	assert_int_equal(s->n_out, 8); /* 10 sent, the 5th and the 10th lost */
	while (C(c, HTTP_2XX) < 2 && rounds++ < 5000) {
		if (s->n_out == 0 && c->n_out == 0) {
			rt_expire(s);
			advance(c, s->w.tl[TL_RT].timeout / TL_PER_MS);
		}
		deliver(s, c);
		deliver(c, s);
	}
	assert_int_equal(C(c, HTTP_2XX), 2);
	assert_true(C(s, PUSH_RT) > 0);
	assert_int_equal(C(c, GOOD_RX), 2ULL * s->w.rsp_ka.len * 8);
}

/* A client's POST body over several segments goes through the same
 * sender: the first flight is the initial window, the server answers
 * once the body is complete, both requests of the connection are
 * answered; a lost body segment is recovered. */
static void
post_client(struct dp_config *c)
{
	c->keepalive = 1;
	c->keepalive_request_interval_us = 0;
	c->keepalive_request_num = 2;
	c->http_method = DP_HTTP_POST;
	c->payload_size = 64000; /* a body of 63915 bytes, 44 segments */
}

static void
test_post_big_body(void **state)
{
	struct node *c = new_client(post_client), *s = new_server(ka_server);
	uint32_t len, rounds = 0;
	int dropped = 0;

	(void)state;
	len = c->w.req.len;
	assert_int_equal(len, 64000);
	assert_non_null(c->w.req.seg_sum);
	assert_non_null(c->w.sktx);
	assert_null(s->w.sktx);
	assert_int_equal(tcp_client_launch(&c->w), 0);
	deliver(c, s); /* SYN */
	deliver(s, c); /* SYN+ACK: the first flight of the body */
	assert_int_equal(c->n_out, 10);
	while (C(c, HTTP_2XX) < 2 && rounds++ < 5000) {
		if (!dropped && C(c, HTTP_2XX) == 1 && c->n_out >= 4) { /* the second body loses one */
			free(c->out[2].data);
			memmove(&c->out[2], &c->out[3], (c->n_out - 3) * sizeof(c->out[0]));
			c->n_out--;
			dropped = 1;
		}
		if (s->n_out == 0 && c->n_out == 0) {
			rt_expire(c);
			advance(s, c->w.tl[TL_RT].timeout / TL_PER_MS);
		}
		deliver(c, s);
		deliver(s, c);
	}
	assert_int_equal(dropped, 1);
	assert_int_equal(C(c, HTTP_2XX), 2);
	assert_int_equal(C(s, HTTP_POST), 2);
	assert_int_equal(C(s, HTTP_2XX), 2);
	assert_true(C(c, PUSH_RT) >= 1);
	assert_int_equal(C(s, GOOD_RX), 2ULL * len * 8);
	assert_int_equal(C(c, GOOD_TX), 2ULL * len * 8);
	assert_int_equal(C(c, SK_ERR), 0);
	assert_int_equal(C(s, HTTP_ERR), 0);
}

/* The client's side of window scaling: its SYN always offers it (pkt.c),
 * so the server's answer decides: a SYN+ACK with the option scales the
 * server's later windows, one without leaves them as they are. */
static void
test_tx_window_scale_client(void **state)
{
	for (int offer = 0; offer < 2; offer++) {
		struct node *c = new_client(post_client), *s = new_server(ka_server);
		struct sock *sk;
		struct tuple t;

		(void)state;
		c->peer_ws = offer ? 5 : SEG_NO_WS; /* what the SYN+ACK carries */
		c->peer_win = 100;                   /* and every later window field */
		assert_int_equal(tcp_client_launch(&c->w), 0);
		client_tuple(c, 0, &t);
		deliver(c, s);
		deliver(s, c); /* SYN+ACK: window 100 unscaled, one segment into it */
		sk = client_sock(c, &t);
		assert_int_equal(sk_tx_of(&c->w, sk)->shift, offer ? 5 : 0);
		assert_int_equal(c->n_out, 1);
		deliver(c, s);
		deliver(s, c); /* the ACK: window 100 << shift */
		assert_int_equal(sk_tx_of(&c->w, sk)->wnd, offer ? 3200 : 100);
		assert_int_equal(c->n_out, offer ? 2 : 1); /* 3200: two of 1460 */
		free_nodes(NULL);
	}
}

/* The sender's state sits beside the socket only where messages span
 * segments: 64 bytes per connection otherwise, 64 + 28 with it (README). */
static void
test_tx_state_size(void **state)
{
	struct node *small = new_server(ka_server), *big = new_server(big_server);

	(void)state;
	assert_int_equal(sizeof(struct sock), 64);
	assert_int_equal(sizeof(struct sk_tx), 28);
	assert_null(small->w.sktx);
	assert_int_equal(worker_tx_bytes(&small->w), 0);
	assert_non_null(big->w.sktx);
	assert_int_equal(worker_tx_bytes(&big->w), big->w.n_sk * 28);
}


/* The peer's window is smaller than the congestion window: in flight at
 * most what it advertises. */
static void
test_big_answer_peer_window(void **state)
{
	struct node *c = new_client(big_client), *s = new_server(big_server);
	int rounds = 0;

	(void)state;
	s->peer_win = 2 * 1460;
	open_and_ask(c, s);
	assert_int_equal(s->n_out, 2);
	while ((s->n_out || c->n_out) && rounds++ < 2000) {
		assert_true(sent_bytes(s, NULL) <= 2 * 1460);
		deliver(s, c);
		deliver(c, s);
	}
	assert_int_equal(C(c, HTTP_2XX), 2);
	assert_clean(s);
}

static void
test_server_methods(void **state)
{
	static const char reqs[] = "HEAD / HTTP/1.1\r\n\r\n"
				   "POST / HTTP/1.1\r\nContent-Length: 4\r\n\r\nGET "
				   "GET / HTTP/1.1\r\n\r\n";
	struct node *c = new_client(NULL), *s = new_server(ka_server);
	struct tuple t;
	uint32_t iss, head;

	(void)state;
	client_tuple(c, 1, &t);
	iss = server_connect(s, &t);
	inject(s, &t, 1001, iss + 1, TH_ACK | TH_PSH, (const uint8_t *)reqs, sizeof(reqs) - 1);
	head = (uint32_t)((const uint8_t *)memmem(s->w.rsp_ka.data, s->w.rsp_ka.len, "\r\n\r\n", 4)
			  - s->w.rsp_ka.data) + 4;
	assert_true(head < s->w.rsp_ka.len);
	assert_int_equal(s->n_out, 3);
	assert_int_equal(s->out[0].len, head);
	assert_memory_equal(s->out[0].data, s->w.rsp_ka.data, head);
	assert_int_equal(s->out[1].len, s->w.rsp_ka.len);
	assert_int_equal(s->out[2].len, s->w.rsp_ka.len);
	for (int i = 0; i < 3; i++)
		assert_int_equal(s->out[i].flags & TH_FIN, 0);
	assert_int_equal(C(s, HTTP_GET), 2);
	assert_int_equal(C(s, HTTP_POST), 1);
	assert_int_equal(C(s, HTTP_2XX), 3);
	assert_int_equal(C(s, HTTP_ERR), 0);
}

/* A request that is not HTTP (nor GET, HEAD, POST) is an error: 400, FIN. */
static void
test_server_not_http(void **state)
{
	static const char brew[] = "BREW / HTCPCP/1.0\r\n\r\n";
	struct node *c = new_client(NULL), *s = new_server(ka_server);
	struct tuple t;
	uint32_t iss;

	(void)state;
	client_tuple(c, 2, &t);
	iss = server_connect(s, &t);
	inject(s, &t, 1001, iss + 1, TH_ACK | TH_PSH, (const uint8_t *)brew, sizeof(brew) - 1);
	assert_int_equal(s->n_out, 1);
	assert_int_equal(s->out[0].flags & TH_FIN, TH_FIN);
	assert_true(s->out[0].len > 12 && memcmp(s->out[0].data, "HTTP/1.1 400", 12) == 0);
	assert_int_equal(C(s, HTTP_ERR), 1);
	assert_int_equal(C(s, HTTP_GET), 0);
	assert_int_equal(C(s, HTTP_2XX), 0);
	assert_int_equal(server_sock(s, &t)->state, SK_FIN_WAIT_1);
}

static void
test_server_foreign(void **state)
{
	struct node *c = new_client(NULL), *s = new_server(NULL);
	struct tuple t, bad;

	(void)state;
	client_tuple(c, 0, &t);
	s->cfg.tcp_rst = 0;
	/* client address outside the accepted range */
	bad = t;
	bad.lip = rte_cpu_to_be_32(CLI_IP + N_CLI);
	inject(s, &bad, 1000, 0, TH_SYN, NULL, 0);
	bad.lip = rte_cpu_to_be_32(CLI_IP - 1);
	inject(s, &bad, 1000, 0, TH_SYN, NULL, 0);
	/* port outside the listen range */
	bad = t;
	bad.rport = rte_cpu_to_be_16(81);
	inject(s, &bad, 1000, 0, TH_SYN, NULL, 0);
	bad.rport = rte_cpu_to_be_16(79);
	inject(s, &bad, 1000, 0, TH_SYN, NULL, 0);
	/* not our address */
	bad = t;
	bad.rip = rte_cpu_to_be_32(SRV_IP + 1);
	inject(s, &bad, 1000, 0, TH_SYN, NULL, 0);
	assert_int_equal(C(s, TCP_DROP), 5);
	assert_int_equal(C(s, SYN_RX), 0);
	assert_int_equal(C(s, SK_OPEN), 0);
	assert_int_equal(s->n_out, 0);
	/* with tcp_rst, foreign segments get a RST too */
	s->cfg.tcp_rst = 1;
	bad = t;
	bad.rport = rte_cpu_to_be_16(81);
	inject(s, &bad, 1000, 0, TH_SYN, NULL, 0);
	assert_int_equal(C(s, TCP_DROP), 6);
	assert_int_equal(s->n_out, 1);
	assert_int_equal(s->out[0].flags, TH_RST | TH_ACK);
	assert_int_equal(s->out[0].ack, 1001);
	box_clear(s);
	/* SYN with ACK is not a connection request */
	inject(s, &t, 1000, 5, TH_SYN | TH_ACK, NULL, 0);
	assert_int_equal(C(s, TCP_DROP), 7);
	assert_int_equal(C(s, SK_OPEN), 0);
	assert_idle(s);
}

static void
ka2_1s(struct dp_config *c)
{
	c->keepalive = 1;
	c->keepalive_request_num = 2;
	c->keepalive_request_interval_us = 1000 * 1000;
}

static void
test_server_bad_segments(void **state)
{
	struct node *c = new_client(ka2_1s), *s = new_server(ka_server);
	struct tuple t, st;
	struct sock *sk, saved;
	uint64_t get;

	(void)state;
	assert_int_equal(tcp_client_launch(&c->w), 0);
	client_tuple(c, 0, &t);
	reverse(&t, &st);
	pump(c, s);
	sk = server_sock(s, &t);
	assert_int_equal(sk->state, SK_ESTABLISHED);
	assert_int_equal(sk->snd_una, sk->snd_nxt);
	get = C(s, HTTP_GET);
	assert_int_equal(get, 1);
	saved = *sk;

	/* data ahead of rcv_nxt: dropped (tcpOoo), answered with a pure ACK */
	inject(s, &t, sk->rcv_nxt + 100, sk->snd_nxt, TH_ACK | TH_PSH, c->w.req.data, c->w.req.len);
	assert_int_equal(C(s, TCP_OOO), 1);
	assert_int_equal(C(s, TCP_DROP), 0);
	assert_int_equal(s->n_out, 1);
	assert_int_equal(s->out[0].flags, TH_ACK);
	assert_int_equal(s->out[0].len, 0);
	assert_int_equal(s->out[0].seq, sk->snd_nxt);
	assert_int_equal(s->out[0].ack, sk->rcv_nxt);
	assert_memory_equal(&s->out[0].t, &st, sizeof(st));
	assert_memory_equal(sk, &saved, sizeof(saved));
	assert_int_equal(C(s, HTTP_GET), get);
	box_clear(s);

	/* old data (already received): a duplicate, tcpDrop */
	inject(s, &t, sk->rcv_nxt - c->w.req.len, sk->snd_nxt, TH_ACK | TH_PSH, c->w.req.data,
	       c->w.req.len);
	assert_int_equal(C(s, TCP_DROP), 1);
	assert_int_equal(C(s, TCP_OOO), 1);
	assert_int_equal(s->n_out, 1);
	assert_memory_equal(sk, &saved, sizeof(saved));
	assert_int_equal(C(s, HTTP_GET), get);
	box_clear(s);

	/* ACK beyond snd_nxt */
	inject(s, &t, sk->rcv_nxt, sk->snd_nxt + 10, TH_ACK, NULL, 0);
	assert_int_equal(C(s, TCP_DROP), 2);
	assert_int_equal(s->n_out, 0);
	assert_memory_equal(sk, &saved, sizeof(saved));

	/* ACK before snd_una */
	inject(s, &t, sk->rcv_nxt, sk->snd_una - 5, TH_ACK, NULL, 0);
	assert_int_equal(C(s, TCP_DROP), 3);
	assert_int_equal(s->n_out, 0);
	assert_memory_equal(sk, &saved, sizeof(saved));

	/* no ACK flag */
	inject(s, &t, sk->rcv_nxt, 0, TH_PSH, c->w.req.data, c->w.req.len);
	assert_int_equal(C(s, TCP_DROP), 4);
	assert_memory_equal(sk, &saved, sizeof(saved));
	assert_int_equal(C(s, HTTP_GET), get);

	/* RST with a wrong sequence number */
	inject(s, &t, sk->rcv_nxt + 1, 0, TH_RST, NULL, 0);
	inject(s, &t, sk->rcv_nxt - 1, 0, TH_RST | TH_ACK, NULL, 0);
	assert_int_equal(C(s, TCP_DROP), 6);
	assert_int_equal(C(s, RST_RX), 2);
	assert_int_equal(s->n_out, 0);
	assert_memory_equal(sk, &saved, sizeof(saved));
	assert_int_equal(s->w.st->sk_cur, 1);

	/* the connection still works: second request, then close */
	advance(c, c->w.tl[TL_KA].timeout / TL_PER_MS);
	run_timers(c);
	pump(c, s);
	assert_int_equal(C(c, HTTP_2XX), 2);
	assert_int_equal(C(s, HTTP_GET), 2);
	assert_int_equal(C(s, HTTP_2XX), 2);
	assert_int_equal(C(s, TCP_DROP), 6);
	assert_int_equal(C(s, SK_ERR), 0);
	assert_clean(c);
	assert_idle(c);
	assert_idle(s);
}

/* A RST with the right sequence number closes the server's socket. */
static void
test_server_rst_in_window(void **state)
{
	struct node *c = new_client(ka2_1s), *s = new_server(ka_server);
	struct tuple t;
	struct sock *sk;

	(void)state;
	assert_int_equal(tcp_client_launch(&c->w), 0);
	client_tuple(c, 0, &t);
	pump(c, s);
	sk = server_sock(s, &t);
	inject(s, &t, sk->rcv_nxt, 0, TH_RST, NULL, 0);
	assert_int_equal(C(s, RST_RX), 1);
	assert_int_equal(C(s, TCP_DROP), 0);
	assert_int_equal(C(s, SK_CLOSE), 1);
	assert_idle(s);
}

static void
test_client_bad_segments(void **state)
{
	struct node *c = new_client(ka2_1s), *s = new_server(ka_server);
	struct tuple t, st, bad;
	struct sock *sk, saved;

	(void)state;
	assert_int_equal(tcp_client_launch(&c->w), 0);
	client_tuple(c, 0, &t);
	reverse(&t, &st);
	pump(c, s);
	sk = client_sock(c, &t);
	assert_int_equal(sk->state, SK_ESTABLISHED);
	assert_int_equal(sk->list, TL_KA);
	saved = *sk;

	/* from an address that is not our server */
	c->cfg.tcp_rst = 0;
	bad = st;
	bad.lip = rte_cpu_to_be_32(SRV_IP + 1);
	inject(c, &bad, sk->rcv_nxt, sk->snd_nxt, TH_ACK, NULL, 0);
	/* to a local port outside our range */
	bad = st;
	bad.rport = rte_cpu_to_be_16(LPORT_MIN + N_LPORT);
	inject(c, &bad, sk->rcv_nxt, sk->snd_nxt, TH_ACK, NULL, 0);
	assert_int_equal(C(c, TCP_DROP), 2);
	assert_int_equal(c->n_out, 0);

	/* duplicate response: dropped, answered with an ACK */
	inject(c, &st, sk->rcv_nxt - s->w.rsp_ka.len, sk->snd_nxt, TH_ACK | TH_PSH,
	       s->w.rsp_ka.data, s->w.rsp_ka.len);
	assert_int_equal(C(c, TCP_DROP), 3);
	assert_int_equal(c->n_out, 1);
	assert_int_equal(c->out[0].flags, TH_ACK);
	assert_int_equal(c->out[0].ack, sk->rcv_nxt);
	box_clear(c);
	assert_int_equal(C(c, HTTP_2XX), 1);

	/* ACK beyond snd_nxt */
	inject(c, &st, sk->rcv_nxt, sk->snd_nxt + 1, TH_ACK, NULL, 0);
	assert_int_equal(C(c, TCP_DROP), 4);
	assert_int_equal(c->n_out, 0);

	/* RST with a wrong sequence number */
	inject(c, &st, sk->rcv_nxt + 7, 0, TH_RST, NULL, 0);
	assert_int_equal(C(c, TCP_DROP), 5);
	assert_int_equal(C(c, RST_RX), 1);
	assert_memory_equal(sk, &saved, sizeof(saved));
	assert_int_equal(c->w.st->sk_cur, 1);

	/* stale SYN+ACK (not the current ISS): dropped, no answer */
	inject(c, &st, sk->rcv_nxt + 1000, sk->snd_nxt, TH_SYN | TH_ACK, NULL, 0);
	assert_int_equal(C(c, TCP_DROP), 6);
	assert_int_equal(c->n_out, 0);
	assert_memory_equal(sk, &saved, sizeof(saved));

	/* unsolicited data while idle (no request in flight): httpErr, skErr, RST */
	inject(c, &st, sk->rcv_nxt, sk->snd_nxt, TH_ACK | TH_PSH, s->w.rsp_ka.data,
	       s->w.rsp_ka.len);
	assert_int_equal(C(c, HTTP_ERR), 1);
	assert_int_equal(C(c, SK_ERR), 1);
	assert_int_equal(C(c, RST_TX), 1);
	assert_int_equal(c->n_out, 1);
	assert_int_equal(c->out[0].flags, TH_RST | TH_ACK);
	pump(c, s);
	assert_int_equal(C(s, RST_RX), 1);
	assert_int_equal(C(s, TCP_DROP), 0);
	assert_idle(c);
	assert_idle(s);
}

/* SYN_SENT: a SYN+ACK acknowledging the wrong number, or a plain ACK. */
static void
test_client_syn_sent_bad(void **state)
{
	struct node *c = new_client(NULL), *s = new_server(NULL);
	struct tuple t, st;
	struct sock *sk;

	(void)state;
	assert_int_equal(tcp_client_launch(&c->w), 0);
	client_tuple(c, 0, &t);
	reverse(&t, &st);
	sk = &c->w.sk[0];
	inject(c, &st, 5000, sk->snd_nxt + 1, TH_SYN | TH_ACK, NULL, 0);
	inject(c, &st, 5000, sk->snd_nxt, TH_ACK, NULL, 0);
	inject(c, &st, 5000, 0, TH_SYN, NULL, 0);
	assert_int_equal(C(c, TCP_DROP), 3);
	assert_int_equal(sk->state, SK_SYN_SENT);
	assert_int_equal(c->n_out, 1); /* the SYN */
	pump(c, s);
	assert_int_equal(C(c, HTTP_2XX), 1);
	assert_idle(c);
	assert_idle(s);
}

/* ------------------------------------------------------------------ */
/* 8. Responses                                                        */

static void
size1400(struct dp_config *c)
{
	c->payload_size = 1400;
}

/* Run a connection until the server's response is queued on the server. */
static void
until_response(struct node *c, struct node *s)
{
	open_and_ask(c, s);
	assert_int_equal(s->n_out, 1);
	assert_int_equal(s->out[0].flags, TH_ACK | TH_PSH | TH_FIN);
}

static void
test_split_response(void **state)
{
	struct node *c = new_client(size1400), *s = new_server(size1400);
	struct tuple t, st;
	struct sock *ssk;
	struct rec r;

	(void)state;
	assert_int_equal(c->w.req.len, 1400);
	assert_int_equal(s->w.rsp_close.len, 1400);
	until_response(c, s);
	client_tuple(c, 0, &t);
	reverse(&t, &st);
	ssk = server_sock(s, &t);
	r = s->out[0];
	s->out[0].data = NULL;
	box_clear(s);
	assert_int_equal(r.len, 1400);
	assert_int_equal(r.seq, ssk->snd_una);
	assert_int_equal(r.seq + 1400 + 1, ssk->snd_nxt);

	inject(c, &st, r.seq, r.ack, TH_ACK | TH_PSH, r.data, 700);
	assert_int_equal(C(c, HTTP_2XX), 0);
	assert_int_equal(c->w.sk[0].inflight, 1);
	assert_false(dp_rsp_scan_idle(&c->w.sk[0].rs)); /* 700 bytes of the body to come */
	assert_int_equal(c->n_out, 1);
	assert_int_equal(c->out[0].flags, TH_ACK);
	assert_int_equal(c->out[0].ack, r.seq + 700);
	inject(c, &st, r.seq + 700, r.ack, TH_ACK | TH_PSH | TH_FIN, r.data + 700, 700);
	assert_int_equal(C(c, HTTP_2XX), 1);
	/* the whole head came in the first segment: the fast path read it
	 * and cached it (the next identical head is one memcmp) */
	assert_true(c->w.rsp_head.len > 0 && c->w.rsp_head.len < 700);
	assert_memory_equal(c->w.rsp_head.head, r.data, c->w.rsp_head.len);
	assert_memory_equal(c->w.rsp_head.head + c->w.rsp_head.len - 4, "\r\n\r\n", 4);
	free(r.data);
	assert_int_equal(c->n_out, 2);
	assert_int_equal(c->out[1].flags, TH_FIN | TH_ACK);
	assert_int_equal(c->out[1].ack, r.seq + 1401);
	pump(c, s);
	assert_clean(c);
	assert_clean(s);
	assert_idle(c);
	assert_idle(s);
}

static void
test_malformed_response(void **state)
{
	struct node *c = new_client(size1400), *s = new_server(size1400);

	(void)state;
	until_response(c, s);
	memcpy(s->out[0].data, "HTXP", 4);
	deliver(s, c);
	assert_int_equal(C(c, HTTP_ERR), 1);
	assert_int_equal(C(c, HTTP_2XX), 0);
	assert_int_equal(C(c, SK_ERR), 1);
	assert_int_equal(C(c, RST_TX), 1);
	assert_int_equal(c->n_out, 1);
	assert_int_equal(c->out[0].flags, TH_RST | TH_ACK);
	pump(c, s);
	assert_int_equal(C(s, RST_RX), 1);
	assert_int_equal(C(s, TCP_DROP), 0);
	assert_int_equal(C(s, SK_ERR), 0);
	assert_idle(c);
	assert_idle(s);
}

static void
test_non2xx_response(void **state)
{
	struct node *c = new_client(size1400), *s = new_server(size1400);

	(void)state;
	until_response(c, s);
	assert_memory_equal(s->out[0].data + 9, "200", 3);
	memcpy(s->out[0].data + 9, "404", 3);
	pump(c, s);
	assert_int_equal(C(c, HTTP_ERR), 1);
	assert_int_equal(C(c, HTTP_2XX), 0);
	assert_int_equal(C(c, SK_ERR), 0);
	assert_int_equal(C(c, RST_TX), 0);
	assert_int_equal(C(c, SK_CLOSE), 1);
	assert_clean(s);
	assert_idle(c);
	assert_idle(s);
}

/* A response from a real server: the head split across segments (inside
 * "HTTP/1.1", inside "Transfer-Encoding:", inside the CRLFCRLF), a chunked
 * body with an extension and a trailer. The real client counts it once,
 * when its last byte arrives, acknowledges all of it, and records the
 * time to its first byte and to its last. */
static void
test_split_head_chunked(void **state)
{
	static const char rsp[] = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
				  "5;e=1\r\nhello\r\n0\r\nT: 1\r\n\r\n";
	static const uint32_t cuts[] = { 0, 6, 24, 46, 60, sizeof(rsp) - 1 };
	static struct dp_worker_lat lat;
	struct node *c = new_client(NULL), *s = new_server(NULL);
	struct tuple t, st;
	struct sock *ssk;
	uint32_t seq;

	(void)state;
	memset(&lat, 0, sizeof(lat));
	c->w.lat = &lat;
	until_response(c, s);
	client_tuple(c, 0, &t);
	reverse(&t, &st);
	ssk = server_sock(s, &t);
	seq = ssk->snd_una;
	box_clear(s);
	for (int k = 0; k + 1 < (int)(sizeof(cuts) / sizeof(cuts[0])); k++) {
		int last = k + 2 == (int)(sizeof(cuts) / sizeof(cuts[0]));

		assert_int_equal(C(c, HTTP_2XX), 0);
		advance(c, k == 0 ? 5 : 1); /* the first byte 5 ms after the request, the last 9 ms */
		inject(c, &st, seq + cuts[k], ssk->rcv_nxt, TH_ACK | TH_PSH | (last ? TH_FIN : 0),
		       (const uint8_t *)rsp + cuts[k], cuts[k + 1] - cuts[k]);
	}
	/* time to first byte and response time (to the last byte), exactly */
	assert_int_equal(lat.first_byte.count, 1);
	assert_int_equal(lat.first_byte.max, 5 * c->w.tsc_per_ms);
	assert_int_equal(lat.response.count, 1);
	assert_int_equal(lat.response.max, 9 * c->w.tsc_per_ms);
	assert_int_equal(C(c, HTTP_2XX), 1);
	assert_int_equal(C(c, HTTP_ERR), 0);
	assert_int_equal(C(c, GOOD_RX), (sizeof(rsp) - 1) * 8);
	assert_int_equal(c->w.rsp_head.len, 0); /* a split head is not cached */
	assert_int_equal(c->out[c->n_out - 1].flags, TH_FIN | TH_ACK);
	assert_int_equal(c->out[c->n_out - 1].ack, seq + sizeof(rsp) - 1 + 1);
}

/* The server closes (FIN) without answering: httpErr and skErr. */
static void
test_fin_without_response(void **state)
{
	struct node *c = new_client(NULL), *s = new_server(NULL);
	struct tuple t, st;
	struct sock *ssk;

	(void)state;
	until_response(c, s);
	client_tuple(c, 0, &t);
	reverse(&t, &st);
	ssk = server_sock(s, &t);
	box_clear(s);
	inject(c, &st, ssk->snd_una, ssk->rcv_nxt, TH_FIN | TH_ACK, NULL, 0);
	assert_int_equal(C(c, HTTP_ERR), 1);
	assert_int_equal(C(c, SK_ERR), 1);
	assert_int_equal(C(c, RST_TX), 1);
	assert_idle(c);
}

/* ------------------------------------------------------------------ */
/* 9. Raw TCP                                                          */

static void
raw10(struct dp_config *c)
{
	c->protocol = DP_PROTO_TCP;
	c->payload_size = 10;
}

static void
test_raw_tcp(void **state)
{
	struct node *c = new_client(raw10), *s = new_server(raw10);

	(void)state;
	assert_int_equal(c->w.is_http, 0);
	assert_int_equal(s->w.is_http, 0);
	assert_int_equal(c->w.req.len, 10);
	for (int i = 0; i < 3; i++)
		assert_int_equal(tcp_client_launch(&c->w), 0);
	pump(c, s);
	assert_int_equal(C(c, TCP_REQ), 3);
	assert_int_equal(C(c, TCP_RSP), 3);
	assert_int_equal(C(s, TCP_REQ), 3);
	assert_int_equal(C(s, TCP_RSP), 3);
	assert_int_equal(C(c, HTTP_GET), 0);
	assert_int_equal(C(c, HTTP_2XX), 0);
	assert_int_equal(C(s, HTTP_GET), 0);
	assert_int_equal(C(s, HTTP_2XX), 0);
	assert_int_equal(c->hlen[3], 10);
	assert_int_equal(C(c, SK_CLOSE), 3);
	assert_clean(c);
	assert_clean(s);
	assert_idle(c);
	assert_idle(s);
}

static void
raw10_ka(struct dp_config *c)
{
	raw10(c);
	ka3_now(c);
}

static void
raw10_kas(struct dp_config *c)
{
	raw10(c);
	c->keepalive = 1;
}

static void
test_raw_tcp_keepalive_split(void **state)
{
	struct node *c = new_client(raw10_ka), *s = new_server(raw10_kas);
	struct tuple t, st;

	(void)state;
	assert_int_equal(tcp_client_launch(&c->w), 0);
	client_tuple(c, 0, &t);
	reverse(&t, &st);
	deliver(c, s);
	deliver(s, c);
	deliver(c, s);
	/* the first response, split 4 + 6 */
	assert_int_equal(s->n_out, 1);
	{
		struct rec r = s->out[0];
		s->out[0].data = NULL;
		box_clear(s);
		inject(c, &st, r.seq, r.ack, TH_ACK | TH_PSH, r.data, 4);
		assert_int_equal(C(c, TCP_RSP), 0);
		inject(c, &st, r.seq + 4, r.ack, TH_ACK | TH_PSH, r.data + 4, 6);
		assert_int_equal(C(c, TCP_RSP), 1);
		free(r.data);
	}
	pump(c, s);
	assert_int_equal(C(c, TCP_REQ), 3);
	assert_int_equal(C(c, TCP_RSP), 3);
	assert_int_equal(C(s, TCP_REQ), 3);
	assert_int_equal(C(s, TCP_RSP), 3);
	assert_clean(c);
	assert_clean(s);
	assert_idle(c);
	assert_idle(s);
}

/* ------------------------------------------------------------------ */
/* 9. Delayed ACKs (tcp_dack.h)                                        */

static void
dack_ka_1ms(struct dp_config *c)
{
	c->keepalive = 1;
	c->keepalive_request_num = 5;
	c->keepalive_request_interval_us = 1000;
	c->delayed_ack_us = 40000;
}

static void
dack_server(struct dp_config *c)
{
	c->keepalive = 1;
	c->delayed_ack_us = 40000;
}

/* Segments n recorded with exactly these flags and no payload. */
static int
bare(const struct node *n, uint8_t flags)
{
	int k = 0;

	for (uint64_t i = 0; i < n->sent && i < HIST_MAX; i++)
		k += n->hist[i] == flags && n->hlen[i] == 0;
	return k;
}

static void
dack_big_client(struct dp_config *c)
{
	big_client(c);
	c->delayed_ack_us = 40000;
}

/* A long answer's first flight (10 full segments) to a client with
 * delayed ACKs: one ACK per two segments when the client's device keeps
 * up; none while it is backed up (a bare ACK would only overflow into
 * dropTx), and one stretch ACK of all ten at the delay once it drains. */
static void
test_dack_congested_stretch(void **state)
{
	for (int congested = 0; congested <= 1; congested++) {
		struct node *c = new_client(dack_big_client), *s = new_server(big_server);
		struct sock *sk = &c->w.sk[0];

		open_and_ask(c, s);
		assert_int_equal(s->n_out, 10);
		c->w.n_tx = congested ? DP_TX_CONGESTED : 0; /* queued, as if the device took nothing */
		c->w.tx_head = 0;
		deliver(s, c);
		if (!congested) {
			assert_int_equal(c->n_out, 5);
			assert_int_equal(c->out[4].ack, sk->rcv_nxt);
			free_nodes(state);
			continue;
		}
		assert_int_equal(c->n_out, 0);
		assert_true(sk->flags & SKF_ACK_OWED);
		advance(c, 41);
		run_timers(c); /* still backed up: the timers wait too */
		assert_int_equal(c->n_out, 0);
		c->w.n_tx = 0;
		run_timers(c);
		assert_int_equal(c->n_out, 1);
		assert_int_equal(c->out[0].flags, TH_ACK);
		assert_int_equal(c->out[0].len, 0);
		assert_int_equal(c->out[0].ack, sk->rcv_nxt);
		assert_int_equal(C(c, GOOD_RX), 10ULL * 1460 * 8); /* all ten in order */
		assert_int_equal(C(c, DROP_TX), 0);
	}
}

/* A request every 1 ms, delayed_ack 40 ms: each request carries the ACK of
 * the response before it. No bare ACK, no delayed-ACK entry queued. */
static void
test_dack_piggyback(void **state)
{
	struct node *c = new_client(dack_ka_1ms), *s = new_server(dack_server);

	(void)state;
	assert_int_equal(tcp_client_launch(&c->w), 0);
	pump(c, s);
	for (int i = 2; i <= 5; i++) {
		struct sock *sk = &c->w.sk[0];

		assert_int_equal(C(c, HTTP_2XX), (uint64_t)(i - 1));
		assert_int_equal(c->n_out, 0); /* the response is not ACKed on its own */
		assert_true(sk->flags & SKF_ACK_OWED);
		advance(c, 1);
		run_timers(c);
		assert_int_equal(c->n_out, 1);
		assert_int_equal(c->out[0].flags, TH_ACK | TH_PSH);
		assert_int_equal(c->out[0].ack, sk->rcv_nxt); /* acknowledges the response */
		assert_false(sk->flags & SKF_ACK_OWED);
		pump(c, s);
	}
	assert_int_equal(C(c, HTTP_2XX), 5);
	/* SYN, 5 requests, FIN, last ACK: no bare ACK for a response */
	assert_int_equal(c->sent, 8);
	assert_int_equal(bare(c, TH_ACK), 1);
	assert_int_equal(c->hist[6], TH_FIN | TH_ACK);
	/* server: SYN+ACK, 5 responses each carrying the ACK of its request, FIN */
	assert_int_equal(s->sent, 7);
	assert_int_equal(bare(s, TH_ACK), 0);
	assert_int_equal(c->w.dack->tail, 0);
	advance(c, 100);
	run_timers(c);
	assert_int_equal(c->n_out, 0);
	assert_clean(c);
	assert_clean(s);
	assert_idle(c);
	assert_idle(s);
}

static void
dack_ka_1s(struct dp_config *c)
{
	dack_ka_1ms(c);
	c->keepalive_request_num = 2;
	c->keepalive_request_interval_us = 1000 * 1000;
}

/* A request every second, delayed_ack 40 ms: nothing we send within the
 * delay could carry the ACK, so it goes at once, alone, with no timer. */
static void
test_dack_ka_longer_than_delay(void **state)
{
	struct node *c = new_client(dack_ka_1s), *s = new_server(dack_server);
	struct sock *sk;

	(void)state;
	assert_int_equal(tcp_client_launch(&c->w), 0);
	deliver(c, s); /* SYN */
	deliver(s, c); /* SYN+ACK: the request goes */
	deliver(c, s);
	deliver(s, c); /* the response */
	sk = &c->w.sk[0];
	assert_int_equal(C(c, HTTP_2XX), 1);
	assert_int_equal(c->n_out, 1);
	assert_int_equal(c->out[0].flags, TH_ACK);
	assert_int_equal(c->out[0].len, 0);
	assert_int_equal(c->out[0].ack, sk->rcv_nxt);
	assert_int_equal(c->w.dack->tail, 0);
	assert_int_equal(sk->list, TL_KA);
	pump(c, s);
	advance(c, 999);
	run_timers(c);
	assert_int_equal(c->n_out, 0);
	advance(c, 1);
	run_timers(c); /* the second request, at 1 s */
	assert_int_equal(c->n_out, 1);
	assert_int_equal(c->out[0].flags, TH_ACK | TH_PSH);
	pump(c, s);
	assert_int_equal(C(c, HTTP_2XX), 2);
	assert_clean(c);
	assert_clean(s);
	assert_idle(c);
	assert_idle(s);
}

/* The timer on the client: the first full-sized part of a response is
 * held (an entry due 40 ms later); the rest comes 30 ms later and ends the
 * response, and the next request is 40 ms away. The entry stays live: the
 * ACK leaves at 40 ms, not with the request at 70. */
static void
dack_cli_mss536_ka40(struct dp_config *c)
{
	dack_ka_1ms(c);
	c->mss = 536;
	c->keepalive_request_interval_us = 40000;
}

static void
dack_server_530(struct dp_config *c)
{
	dack_server(c);
	c->payload_size = 530;
}

static void
test_dack_client_partial(void **state)
{
	struct node *c = new_client(dack_cli_mss536_ka40), *s = new_server(dack_server_530);
	struct sock *sk;
	struct rec r;
	struct tuple st;

	(void)state;
	assert_int_equal(tcp_client_launch(&c->w), 0);
	deliver(c, s);
	deliver(s, c);
	deliver(c, s); /* the request */
	assert_int_equal(s->n_out, 1);
	r = s->out[0];
	st = r.t;
	assert_int_equal(r.len, 530);
	s->out[0].data = NULL;
	box_clear(s);
	sk = &c->w.sk[0];
	inject(c, &st, r.seq, r.ack, TH_ACK, r.data, 500);
	assert_int_equal(c->n_out, 0); /* a full-sized part (mss - 36): held */
	advance(c, 30);
	run_timers(c);
	assert_int_equal(c->n_out, 0);
	inject(c, &st, r.seq + 500, r.ack, TH_ACK | TH_PSH, r.data + 500, 30);
	assert_int_equal(C(c, HTTP_2XX), 1);
	assert_int_equal(c->n_out, 0);
	advance(c, 9);
	run_timers(c);
	assert_int_equal(c->n_out, 0);
	advance(c, 1); /* 40 ms after the first part */
	run_timers(c);
	assert_int_equal(c->n_out, 1);
	assert_int_equal(c->out[0].flags, TH_ACK);
	assert_int_equal(c->out[0].ack, sk->rcv_nxt);
	box_clear(c);
	advance(c, 30); /* 40 ms after the response: the request */
	run_timers(c);
	assert_int_equal(c->n_out, 1);
	assert_int_equal(c->out[0].flags, TH_ACK | TH_PSH);
	free(r.data);
}

/* dperf's disable_ack: the response's ACK waits for the next request,
 * however long the interval. */
static void
dack_disabled(struct dp_config *c)
{
	dack_ka_1s(c);
	c->disable_ack = 1;
}

static void
test_dack_disable_ack(void **state)
{
	struct node *c = new_client(dack_disabled), *s = new_server(dack_server);

	(void)state;
	assert_int_equal(tcp_client_launch(&c->w), 0);
	pump(c, s);
	advance(c, 999);
	run_timers(c);
	assert_int_equal(c->n_out, 0);
	advance(c, 1);
	run_timers(c);
	assert_int_equal(c->n_out, 1);
	assert_int_equal(c->out[0].flags, TH_ACK | TH_PSH);
	assert_int_equal(c->out[0].ack, c->w.sk[0].rcv_nxt);
	pump(c, s);
	assert_int_equal(C(c, HTTP_2XX), 2);
	/* SYN, 2 requests, FIN, last ACK */
	assert_int_equal(c->sent, 5);
	assert_clean(c);
	assert_idle(c);
}

/* An established server socket for a client tuple; returns the ISS. */
static uint32_t
server_handshake(struct node *s, const struct tuple *t)
{
	uint32_t iss;

	inject(s, t, 1000, 0, TH_SYN, NULL, 0);
	assert_int_equal(s->n_out, 1);
	iss = s->out[0].seq;
	box_clear(s);
	inject(s, t, 1001, iss + 1, TH_ACK, NULL, 0);
	assert_int_equal(s->n_out, 0);
	assert_int_equal(server_sock(s, t)->state, SK_ESTABLISHED);
	return iss;
}

static void
dack_server_mss536(struct dp_config *c)
{
	dack_server(c);
	c->mss = 536;
}

/* Part of a request in a full-sized segment: no ACK at once (the response
 * may carry it), a bare ACK when the delay is up; a second full-sized
 * segment is ACKed at once (more than mss owed); a short segment that leaves the
 * request incomplete is ACKed at once (the peer's Nagle algorithm may be
 * holding the rest); the end of the request gets the response, carrying
 * the ACK; out-of-order data and a FIN are ACKed at once. */
static void
test_dack_server_segments(void **state)
{
	struct node *c = new_client(NULL), *s = new_server(dack_server_mss536);
	uint8_t seg[536], end[] = "aaaa\r\n\r\n";
	static const char head[] = "GET / HTTP/1.1\r\nHost: x\r\nX-Pad: ";
	struct tuple t;
	struct sock *sk;
	uint32_t iss, seq = 1001;

	(void)state;
	memset(seg, 'a', sizeof(seg));
	memcpy(seg, head, sizeof(head) - 1);
	client_tuple(c, 1, &t);
	iss = server_handshake(s, &t);
	sk = server_sock(s, &t);

	/* timer: one full-sized part, then 40 ms of silence (not 39.99) */
	inject(s, &t, seq, iss + 1, TH_ACK, seg, 536);
	seq += 536;
	assert_int_equal(s->n_out, 0);
	advance_us(s, 39990);
	run_timers(s);
	assert_int_equal(s->n_out, 0);
	advance_us(s, 10);
	run_timers(s);
	assert_int_equal(s->n_out, 1);
	assert_int_equal(s->out[0].flags, TH_ACK);
	assert_int_equal(s->out[0].ack, seq);
	box_clear(s);

	/* every second full-sized segment, also when "full" is a little
	 * under mss (a peer's options or MTU) */
	memset(seg, 'a', sizeof(seg));
	inject(s, &t, seq, iss + 1, TH_ACK, seg, 520);
	seq += 520;
	assert_int_equal(s->n_out, 0);
	inject(s, &t, seq, iss + 1, TH_ACK, seg, 520);
	seq += 520;
	assert_int_equal(s->n_out, 1);
	assert_int_equal(s->out[0].flags, TH_ACK);
	assert_int_equal(s->out[0].ack, seq);
	box_clear(s);

	/* a short segment, the request still incomplete */
	inject(s, &t, seq, iss + 1, TH_ACK, seg, 100);
	seq += 100;
	assert_int_equal(s->n_out, 1);
	assert_int_equal(s->out[0].flags, TH_ACK);
	assert_int_equal(s->out[0].ack, seq);
	box_clear(s);

	/* the end of the request: the response carries the ACK */
	inject(s, &t, seq, iss + 1, TH_ACK | TH_PSH, end, sizeof(end) - 1);
	seq += (uint32_t)sizeof(end) - 1;
	assert_int_equal(C(s, HTTP_GET), 1);
	assert_int_equal(s->n_out, 1);
	assert_int_equal(s->out[0].flags, TH_ACK | TH_PSH);
	assert_int_equal(s->out[0].ack, seq);
	assert_false(sk->flags & SKF_ACK_OWED);
	box_clear(s);
	advance(s, 100);
	run_timers(s);
	assert_int_equal(s->n_out, 0);

	/* out of order: a duplicate ACK at once */
	inject(s, &t, seq + 10, iss + 1, TH_ACK, seg, 10);
	assert_int_equal(s->n_out, 1);
	assert_int_equal(s->out[0].flags, TH_ACK);
	assert_int_equal(s->out[0].ack, seq);
	box_clear(s);

	/* a FIN: acknowledged at once (with ours) */
	inject(s, &t, seq, sk->snd_nxt, TH_ACK | TH_FIN, NULL, 0);
	assert_int_equal(s->n_out, 1);
	assert_int_equal(s->out[0].flags, TH_FIN | TH_ACK);
	assert_int_equal(s->out[0].ack, seq + 1);
}

/* The server holds the ACK of a request's full-sized first part; the
 * rest comes 10 ms later and the response carries the ACK: the entry,
 * stale when it comes due, sends nothing (the socket is still open). */
static void
test_dack_stale_entry(void **state)
{
	struct node *c = new_client(NULL), *s = new_server(dack_server_mss536);
	static const char head[] = "GET / HTTP/1.1\r\nX-Pad: ";
	static const uint8_t end[] = "a\r\n\r\n";
	uint8_t part[536];
	struct tuple t;
	struct sock *sk;
	uint32_t iss;

	(void)state;
	memset(part, 'a', sizeof(part));
	memcpy(part, head, sizeof(head) - 1);
	client_tuple(c, 2, &t);
	iss = server_handshake(s, &t);
	sk = server_sock(s, &t);
	inject(s, &t, 1001, iss + 1, TH_ACK, part, sizeof(part));
	assert_int_equal(s->n_out, 0);
	assert_int_equal(s->w.dack->tail, 1);
	advance(s, 10);
	inject(s, &t, 1001 + sizeof(part), iss + 1, TH_ACK | TH_PSH, end, sizeof(end) - 1);
	assert_int_equal(s->n_out, 1); /* the response, carrying the ACK */
	assert_int_equal(s->out[0].flags, TH_ACK | TH_PSH);
	box_clear(s);
	advance(s, 30);
	run_timers(s); /* the entry is due, and stale */
	assert_int_equal(s->w.dack->head, 1);
	assert_int_equal(s->n_out, 0);
	assert_int_equal(sk->state, SK_ESTABLISHED);
}

/* A keepalive request leaves one interval after its response, not at the
 * next whole millisecond: requests of many connections spread over the
 * interval as their responses did, instead of leaving in one burst. */
static void
test_ka_interval_from_response(void **state)
{
	struct node *c = new_client(dack_ka_1ms), *s = new_server(dack_server);

	(void)state;
	assert_int_equal(tcp_client_launch(&c->w), 0);
	deliver(c, s);
	deliver(s, c);
	deliver(c, s); /* the first request */
	advance_us(c, 400);
	deliver(s, c); /* its response, 0.4 ms after the start */
	assert_int_equal(C(c, HTTP_2XX), 1);
	assert_int_equal(c->n_out, 0);
	advance_us(c, 600); /* 1.0 ms: a whole millisecond, 0.6 after the response */
	run_timers(c);
	assert_int_equal(c->n_out, 0);
	advance_us(c, 390); /* 1.39 ms */
	run_timers(c);
	assert_int_equal(c->n_out, 0);
	advance_us(c, 20); /* 1.41 ms: one interval after the response */
	run_timers(c);
	assert_int_equal(c->n_out, 1);
	assert_int_equal(c->out[0].flags, TH_ACK | TH_PSH);
}

/* A full ring never loses an ACK: it goes at once. */
static void
test_dack_ring_full(void **state)
{
	struct node *c = new_client(NULL), *s = new_server(dack_server_mss536);
	static const char head[] = "GET / HTTP/1.1\r\nX-Pad: ";
	uint8_t part[536];
	struct tuple t;

	(void)state;
	memset(part, 'a', sizeof(part));
	memcpy(part, head, sizeof(head) - 1);
	for (uint32_t i = 0; i < TEST_DACK_RING + 1; i++) {
		uint32_t iss;

		client_tuple(c, i, &t);
		iss = server_handshake(s, &t);
		inject(s, &t, 1001, iss + 1, TH_ACK, part, sizeof(part));
		assert_int_equal(s->n_out, i < TEST_DACK_RING ? 0 : 1);
	}
	assert_int_equal(s->out[0].flags, TH_ACK);
	box_clear(s);
	advance(s, 40);
	run_timers(s);
	assert_int_equal(s->n_out, TEST_DACK_RING);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_cps_one, free_nodes),
		cmocka_unit_test_teardown(test_cps_many, free_nodes),
		cmocka_unit_test_teardown(test_launch_table_full, free_nodes),
		cmocka_unit_test_teardown(test_keepalive_immediate, free_nodes),
		cmocka_unit_test_teardown(test_keepalive_interval, free_nodes),
		cmocka_unit_test_teardown(test_server_idle_close, free_nodes),
		cmocka_unit_test_teardown(test_pipeline, free_nodes),
		cmocka_unit_test_teardown(test_fast_close, free_nodes),
		cmocka_unit_test_teardown(test_lost_syn, free_nodes),
		cmocka_unit_test_teardown(test_timers_wait_for_congestion, free_nodes),
		cmocka_unit_test_teardown(test_lost_synack, free_nodes),
		cmocka_unit_test_teardown(test_lost_request, free_nodes),
		cmocka_unit_test_teardown(test_lost_request_server_rt_first, free_nodes),
		cmocka_unit_test_teardown(test_lost_response, free_nodes),
		cmocka_unit_test_teardown(test_lost_client_fin, free_nodes),
		cmocka_unit_test_teardown(test_lost_last_ack, free_nodes),
		cmocka_unit_test_teardown(test_lost_server_fin, free_nodes),
		cmocka_unit_test_teardown(test_client_retries_exhausted, free_nodes),
		cmocka_unit_test_teardown(test_client_request_retries_exhausted, free_nodes),
		cmocka_unit_test_teardown(test_server_retries_exhausted, free_nodes),
		cmocka_unit_test_teardown(test_server_no_socket, free_nodes),
		cmocka_unit_test_teardown(test_server_partial_request_idle, free_nodes),
		cmocka_unit_test_teardown(test_big_answer_window, free_nodes),
		cmocka_unit_test_teardown(test_big_answer_send_window, free_nodes),
		cmocka_unit_test_teardown(test_big_answer_loss, free_nodes),
		cmocka_unit_test_teardown(test_big_answer_peer_window, free_nodes),
		cmocka_unit_test_teardown(test_big_answer_fast_retransmit, free_nodes),
		cmocka_unit_test_teardown(test_tx_slow_start, free_nodes),
		cmocka_unit_test_teardown(test_tx_congestion_avoidance, free_nodes),
		cmocka_unit_test_teardown(test_tx_fast_recovery, free_nodes),
		cmocka_unit_test_teardown(test_tx_recovery_go_back, free_nodes),
		cmocka_unit_test_teardown(test_tx_timeout, free_nodes),
		cmocka_unit_test_teardown(test_tx_zero_window, free_nodes),
		cmocka_unit_test_teardown(test_tx_window_scale, free_nodes),
		cmocka_unit_test_teardown(test_tx_state_size, free_nodes),
		cmocka_unit_test_teardown(test_tx_drop_knob, free_nodes),
		cmocka_unit_test_teardown(test_post_big_body, free_nodes),
		cmocka_unit_test_teardown(test_tx_window_scale_client, free_nodes),
		cmocka_unit_test_teardown(test_tx_beyond_stored, free_nodes),
		cmocka_unit_test_teardown(test_server_methods, free_nodes),
		cmocka_unit_test_teardown(test_server_not_http, free_nodes),
		cmocka_unit_test_teardown(test_server_foreign, free_nodes),
		cmocka_unit_test_teardown(test_server_bad_segments, free_nodes),
		cmocka_unit_test_teardown(test_server_rst_in_window, free_nodes),
		cmocka_unit_test_teardown(test_client_bad_segments, free_nodes),
		cmocka_unit_test_teardown(test_client_syn_sent_bad, free_nodes),
		cmocka_unit_test_teardown(test_split_response, free_nodes),
		cmocka_unit_test_teardown(test_malformed_response, free_nodes),
		cmocka_unit_test_teardown(test_non2xx_response, free_nodes),
		cmocka_unit_test_teardown(test_fin_without_response, free_nodes),
		cmocka_unit_test_teardown(test_split_head_chunked, free_nodes),
		cmocka_unit_test_teardown(test_raw_tcp, free_nodes),
		cmocka_unit_test_teardown(test_raw_tcp_keepalive_split, free_nodes),
		cmocka_unit_test_teardown(test_dack_piggyback, free_nodes),
		cmocka_unit_test_teardown(test_dack_congested_stretch, free_nodes),
		cmocka_unit_test_teardown(test_dack_ka_longer_than_delay, free_nodes),
		cmocka_unit_test_teardown(test_dack_client_partial, free_nodes),
		cmocka_unit_test_teardown(test_dack_disable_ack, free_nodes),
		cmocka_unit_test_teardown(test_dack_server_segments, free_nodes),
		cmocka_unit_test_teardown(test_dack_stale_entry, free_nodes),
		cmocka_unit_test_teardown(test_dack_ring_full, free_nodes),
		cmocka_unit_test_teardown(test_ka_interval_from_response, free_nodes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
