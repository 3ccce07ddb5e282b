/* SPDX-License-Identifier: BSD-3-Clause
 * The harness of the TCP unit tests (tests/unit/test_tcp_*.c): two in-memory
 * workers, one client and one server, exchange the segments that the packet
 * layer (tcp_out), replaced here at link time, records.
 */
#include "tcp_harness.h"

static struct node *nodes[MAX_NODES];

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
tcp_out(struct netw *nw, const struct tuple *t, uint32_t seq, uint32_t ack, uint8_t flags, uint16_t win,
	const struct msg *m)
{
	if (flags & TH_SYN) /* as tcp/tcp_out.c: a SYN's window is never scaled */
		win = tcp_out_win(nw, 0);
	return tcp_out_opt(nw, t, seq, ack, flags, win, m, NULL, 0);
}

/* A segment with option bytes (SACK blocks): recorded with them. */
int
tcp_out_opt(struct netw *nw, const struct tuple *t, uint32_t seq, uint32_t ack, uint8_t flags,
	    uint16_t win, const struct msg *m, const uint8_t *opt, uint32_t optlen)
{
	struct node *n = container_of(nw, struct node, wk.net);
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
	r->win = win;
	r->ws = flags == TH_SYN ? nw->rcv_ws : SEG_NO_WS; /* a bare SYN offers it (tcp/tcp_out.h) */
	r->len = m ? m->len : 0;
	r->data = NULL;
	r->sack_ok = flags == TH_SYN; /* a bare SYN offers it (tcp/tcp_out.h) */
	assert_true(optlen <= sizeof(r->opt) && optlen % 4 == 0);
	r->optlen = (uint8_t)optlen;
	if (optlen)
		memcpy(r->opt, opt, optlen);
	if (r->len && !m->sum_on_copy && m->sum != pkt_sum(m->data, m->len))
		n->bad_sums++; /* a precomputed sum that is not the bytes' (a TLS
				* segment's is made as tcp/tcp_out.c copies it: test_cksum) */
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
tcp_out_synack(struct netw *nw, const struct tuple *t, uint32_t seq, uint32_t ack, int ws)
{
	struct node *n = container_of(nw, struct node, wk.net);

	n->synack_ws = (ws & TCP_SYN_WS) != 0;
	n->synack_sack = (ws & TCP_SYN_SACK) != 0;
	tcp_out(nw, t, seq, ack, TH_SYN | TH_ACK, 0, NULL);
	n->out[n->n_out - 1].sack_ok = (uint8_t)n->synack_sack;
	n->out[n->n_out - 1].ws = n->synack_ws ? nw->rcv_ws : SEG_NO_WS;
	return 0;
}

/* The out-of-order queue keeps a copy of the segment's bytes (the real
 * packet layer keeps the mbuf). */
void *
pkt_hold(struct netw *nw, const struct seg *s, uint16_t *off)
{
	struct node *n = container_of(nw, struct node, wk.net);
	uint8_t *copy = malloc(s->dlen);

	assert_non_null(copy);
	memcpy(copy, s->data, s->dlen);
	*off = 0;
	n->held++;
	return copy;
}

const uint8_t *
pkt_held(const void *h, uint16_t off)
{
	return (const uint8_t *)h + off;
}

void
pkt_unhold(struct netw *nw, void *h)
{
	struct node *n = container_of(nw, struct node, wk.net);

	assert_true(n->held > 0);
	n->held--;
	free(h);
}

static void
harness_unhold(void *ctx, void *seg)
{
	pkt_unhold(ctx, seg);
}

/* A flooding client's SYN: recorded as any other segment. */
int
tcp_flood_syn(struct netw *nw, const struct tuple *t, uint32_t seq)
{
	return tcp_out(nw, t, seq, 0, TH_SYN, 0, NULL);
}

/* The receive path's binding (net/rx.c, not linked: the harness hands
 * segments to the worker itself): the role's input, which a TLS part
 * binds its own over (tls_part_init). No UDP, no tunnel here. */
void
rx_bind(struct netw *nw)
{
	nw->seg_in = nw->is_client ? tcp_client_input : tcp_server_input;
}

uint16_t
tx_flush(struct txq *q)
{
	uint16_t n = q->n;

	q->n = 0;
	return n;
}

/* ------------------------------------------------------------------ */
/* Building workers (with primary/boot/worker_setup.c's worker_fields)    */

void
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

struct node *
node_new(const struct dp_config *cfg)
{
	struct node *n = calloc(1, sizeof(*n));
	struct worker *wk;
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
	wk = &n->wk;
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
	wk->st = n->st;
	wk->net.io.np = &n->np;
	worker_fields(wk, cfg, 0, 0, 0, HZ);
	rx_bind(&wk->net); /* as worker_setup does */
	/* The test's clock. */
	wk->start_tsc = 1000000;
	wk->net.now = wk->start_tsc;
	wk->net.now_ms = 0;
	wk->net.now_t = 0;
	/* alloc_dack, with a small ring so that a test can fill it */
	if (cfg->delayed_ack_us) {
		wk->tcp.dack = calloc(1, dack_ring_bytes(TEST_DACK_RING));
		assert_non_null(wk->tcp.dack);
		wk->tcp.dack->mask = TEST_DACK_RING - 1;
	}

	/* The engine's own message composition (primary/boot/worker_msgs.c). */
	msg_layout(cfg, &layout);
	n->msgbuf = calloc(1, layout.len);
	assert_non_null(n->msgbuf);
	if (worker_msgs(wk, cfg, &cfg->servers[0].start, n->msgbuf, err, sizeof(err)) != 0)
		fail_msg("worker_msgs: %s", err);

	/* alloc_sockets */
	wk->net.skt.n_sk = sk_table_init(&wk->net.skt);
	assert_true(wk->net.skt.n_sk > 0 && wk->net.skt.n_sk < UINT32_MAX);
	wk->net.skt.sk = aligned_alloc(64, wk->net.skt.n_sk * sizeof(struct sock));
	assert_non_null(wk->net.skt.sk);
	memset(wk->net.skt.sk, 0, wk->net.skt.n_sk * sizeof(struct sock));
	/* alloc_snd: the sender's state, when messages span segments */
	if (worker_snd_bytes(wk)) {
		wk->tcp.snd = calloc(1, worker_snd_bytes(wk));
		assert_non_null(wk->tcp.snd);
	}
	/* alloc_ooo */
	wk->tcp.ooo = calloc(1, sizeof(*wk->tcp.ooo));
	assert_non_null(wk->tcp.ooo);
	assert_int_equal(ooo_init(wk->tcp.ooo, DP_OOO_SEGS, DP_OOO_PER_CONN, harness_unhold, &wk->net), 0);
	return n;
}

void
box_clear(struct node *n)
{
	for (size_t i = 0; i < n->n_out; i++)
		free(n->out[i].data);
	n->n_out = 0;
}

int
free_nodes(void **state)
{
	(void)state;
	for (int i = 0; i < MAX_NODES; i++) {
		struct node *n = nodes[i];
		if (n == NULL)
			continue;
		box_clear(n);
		free(n->out);
		free(n->wk.net.skt.sk);
		free(n->wk.tcp.snd);
		worker_free_ooo(&n->wk);
		assert_int_equal(n->held, 0); /* every held copy given back */
		free(n->wk.tcp.dack);
		free(n->st);
		free(n->msgbuf);
		free(n);
		nodes[i] = NULL;
	}
	return 0;
}

struct node *
new_client(void (*tweak)(struct dp_config *))
{
	struct dp_config c;

	base_cfg(&c, DP_MODE_CLIENT);
	if (tweak)
		tweak(&c);
	return node_new(&c);
}

struct node *
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

void
input(struct node *to, const struct seg *s)
{
	to->wk.net.seg_in(&to->wk.net, s);
}

/* Deliver a segment sent on tuple t (sender's view) to `to`, with option
 * bytes opt (SACK blocks) and, on a SYN, SACK-permitted when sack_ok. */
static void
inject_seg(struct node *to, const struct tuple *t, uint32_t seq, uint32_t ack, uint8_t flags,
	   const uint8_t *data, uint32_t len, const uint8_t *opt, uint32_t optlen, int sack_ok,
	   const struct rec *wire)
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
	s.win = to->peer_win_shut ? 0 : to->peer_win ? to->peer_win : 0xffff; /* what tcp_out advertised */
	s.ws = (flags & TH_SYN) ? to->peer_ws : SEG_NO_WS;
	if (wire != NULL && to->wire_win) { /* the window fields the sender wrote */
		s.win = wire->win;
		s.ws = wire->ws;
	}
	s.mss = !(flags & TH_SYN) ? 0 : to->peer_mss == PEER_NO_MSS ? 0 : to->peer_mss ? to->peer_mss : 1460;
	s.sack_ok = (flags & TH_SYN) && sack_ok;
	s.data = copy;
	s.dlen = len;
	s.opt = opt;
	s.optlen = (uint8_t)optlen;
	s.pkt = NULL;
	input(to, &s);
	free(copy);
}

void
inject_opt(struct node *to, const struct tuple *t, uint32_t seq, uint32_t ack, uint8_t flags,
	   const uint8_t *data, uint32_t len, const uint8_t *opt, uint32_t optlen, int sack_ok)
{
	inject_seg(to, t, seq, ack, flags, data, len, opt, optlen, sack_ok, NULL);
}

void
inject(struct node *to, const struct tuple *t, uint32_t seq, uint32_t ack, uint8_t flags,
       const uint8_t *data, uint32_t len)
{
	inject_opt(to, t, seq, ack, flags, data, len, NULL, 0, to->peer_sack);
}

/* Deliver everything `from` has queued to `to`. Returns the count. */
size_t
deliver(struct node *from, struct node *to)
{
	struct rec *batch = from->out;
	size_t n = from->n_out;

	from->out = NULL;
	from->n_out = from->cap_out = 0;
	for (size_t i = 0; i < n; i++) {
		struct rec *r = &batch[i];
		inject_seg(to, &r->t, r->seq, r->ack, r->flags, r->data, r->len, r->opt, r->optlen, r->sack_ok, r);
		free(r->data);
	}
	free(batch);
	return n;
}

void
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
void
open_and_ask(struct node *c, struct node *s)
{
	assert_int_equal(tcp_client_launch(&c->wk.net), 0);
	deliver(c, s); /* SYN */
	deliver(s, c); /* SYN+ACK */
	deliver(c, s); /* ACK + request */
}

void
advance(struct node *n, uint32_t ms)
{
	n->wk.net.now_ms += ms;
	n->wk.net.now_t += ms * TL_PER_MS;
	n->wk.net.now += (uint64_t)ms * n->wk.net.tsc_per_ms;
}

/* Microseconds on the timer clock alone (the millisecond clock as the
 * worker keeps it: whole milliseconds since start). */
void
advance_us(struct node *n, uint32_t us)
{
	n->wk.net.now += (uint64_t)us * n->wk.net.tsc_per_ms / 1000;
	n->wk.net.now_t = (uint32_t)((n->wk.net.now - n->wk.start_tsc) / n->wk.tsc_per_t);
	n->wk.net.now_ms = (uint32_t)((n->wk.net.now - n->wk.start_tsc) / n->wk.net.tsc_per_ms);
}

/* The worker's own timer code (primary/engine/timers.c). */
void
run_timers(struct node *n)
{
	(void)timers_run(&n->wk);
}

/* Let the RT timeout pass on n and run its timers. */
void
rt_expire(struct node *n)
{
	advance(n, n->wk.tcp.tl[TL_RT].timeout / TL_PER_MS);
	run_timers(n);
}

/* ------------------------------------------------------------------ */
/* Checks                                                              */

uint64_t
open_sockets(const struct node *n)
{
	uint64_t k = 0;

	for (uint64_t i = 0; i < n->wk.net.skt.n_sk; i++)
		k += n->wk.net.skt.sk[i].state != SK_CLOSED;
	return k;
}

/* Nothing open, nothing on a timer list, sk_cur agrees. */
void
assert_idle(const struct node *n)
{
	assert_int_equal(n->wk.net.cnt.sk_cur, 0);
	assert_int_equal(open_sockets(n), 0);
	for (int l = 0; l < TL__COUNT; l++) {
		assert_int_equal(n->wk.tcp.tl[l].count, 0);
		assert_int_equal(n->wk.tcp.tl[l].head, 0);
		assert_int_equal(n->wk.tcp.tl[l].tail, 0);
	}
	assert_int_equal(C(n, SK_OPEN), C(n, SK_CLOSE));
}

void
assert_clean(const struct node *n)
{
	assert_int_equal(C(n, TCP_DROP), 0);
	assert_int_equal(C(n, SK_ERR), 0);
	assert_int_equal(C(n, RST_TX), 0);
	assert_int_equal(C(n, RST_RX), 0);
	assert_int_equal(C(n, HTTP_ERR), 0);
	assert_int_equal(C(n, DROP_TX), 0);
}

void
client_tuple(const struct node *c, uint64_t idx, struct tuple *t)
{
	sk_tuple(&c->wk.net.skt, idx, t);
}

/* The server's socket for a client tuple. */
struct sock *
server_sock(struct node *s, const struct tuple *ct)
{
	uint64_t idx = sk_index_server(&s->wk.net.skt, ct->rip, ct->lip, ct->lport, ct->rport);

	assert_true(idx != SK_NONE);
	return &s->wk.net.skt.sk[idx];
}

struct sock *
client_sock(struct node *c, const struct tuple *ct)
{
	uint64_t idx = sk_index_client(&c->wk.net.skt, ct->lip, ct->lport, ct->rport);

	assert_true(idx != SK_NONE);
	return &c->wk.net.skt.sk[idx];
}

/* The tuple as the server sees it (its lip is the server). */
void
reverse(const struct tuple *t, struct tuple *r)
{
	r->lip = t->rip;
	r->rip = t->lip;
	r->lport = t->rport;
	r->rport = t->lport;
}

/* Configuration tweaks that several test files share. */
void
ka3_now(struct dp_config *c)
{
	c->keepalive = 1;
	c->keepalive_request_num = 3;
	c->keepalive_request_interval_us = 0;
}

void
ka_server(struct dp_config *c)
{
	c->keepalive = 1;
}

void
big_server(struct dp_config *c)
{
	c->keepalive = 1;
	c->payload_size = 64000; /* 44 segments of 1460 */
}

void
big_client(struct dp_config *c)
{
	c->keepalive = 1;
	c->keepalive_request_interval_us = 0;
	c->keepalive_request_num = 2;
	c->payload_size = 64000;
}

void
post_client(struct dp_config *c)
{
	big_client(c);
	c->http_method = DP_HTTP_POST; /* a body of 63915 bytes, 44 segments */
}
