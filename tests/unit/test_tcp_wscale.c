/* SPDX-License-Identifier: BSD-3-Clause
 * Unit tests of our receive window and its scale (RFC 7323, net/pkt.h's
 * tcp_rcv_window): the window is what a connection's share of the
 * out-of-order queue holds, the shift the least that fits it in 16 bits;
 * negotiated when both SYNs offer it (both sides, one side only); the
 * window fields we write; a large POST paced by the window we advertise,
 * no longer by 65535 bytes. The harness (tcp_harness.c) drives the real
 * client and server back to back.
 */
// links: primary/boot/worker_setup.c primary/net/vxlan.c primary/tcp/tcp_client.c primary/tcp/tcp_server.c primary/tcp/tcp_send.c primary/tcp/tcp_timeout.c primary/tcp/tcp_dack.c primary/http/http.c primary/http/http_response.c primary/http/rsp_scan.c primary/http/http_request.c primary/http/messages.c primary/boot/worker_msgs.c primary/engine/timers.c tests/unit/tcp_harness.c primary/tcp/tcp_common.c primary/tcp/tcp_ooo.c primary/tcp/tcp_sack.c primary/tcp/tcp_rtt.c primary/app/app.c primary/app/http_app.c primary/app/raw_app.c primary/state/mix.c
#include "tcp_harness.h"

#define MSS 1460
#define WND (DP_OOO_PER_CONN * MSS) /* 93,440: the window a worker of mss 1460 advertises */

/* The arithmetic: the window for each mss, the least shift that fits it,
 * the field scaled and unscaled. */
static void
test_ws_arith(void **state)
{
	static const struct {
		uint32_t bytes;
		uint8_t ws;
		uint16_t scaled, plain;
	} cases[] = {
		{ 64 * 536, 0, 34304, 34304 },       /* the default MSS: no scale needed */
		{ 64 * 1023, 0, 65472, 65472 },      /* the largest that fits */
		{ 64 * 1024, 1, 32768, 65535 },      /* 65,536: one shift */
		{ 64 * 1460, 1, 46720, 65535 },      /* 93,440 */
		{ 64 * 9000, 4, 36000, 65535 },      /* 576,000 (a jumbo mss) */
		{ 65535u << 14, 14, 65535, 65535 },  /* the most RFC 7323 allows */
		{ UINT32_MAX, 14, 65535, 65535 },    /* beyond it: the most */
	};
	struct netw nw;

	(void)state;
	memset(&nw, 0, sizeof(nw));
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		tcp_rcv_window(&nw, cases[i].bytes);
		assert_int_equal(nw.rcv_ws, cases[i].ws);
		assert_int_equal(tcp_out_win(&nw, 1), cases[i].scaled);
		assert_int_equal(tcp_out_win(&nw, 0), cases[i].plain);
		/* what the peer reads back is the window, less what the
		 * shift cannot carry */
		if (cases[i].bytes <= 65535u << 14) {
			assert_true(((uint32_t)tcp_out_win(&nw, 1) << nw.rcv_ws) <= cases[i].bytes);
			assert_true(cases[i].bytes - ((uint32_t)tcp_out_win(&nw, 1) << nw.rcv_ws) < (1u << nw.rcv_ws));
		}
	}
}

/* The worker's setup: mss 1460 gives shift 1; the SYN offers it with
 * the window unscaled (65535), and offers SACK. */
static void
test_ws_offered(void **state)
{
	struct node *c = new_client(NULL);

	(void)state;
	assert_int_equal(c->wk.net.rcv_wnd, WND);
	assert_int_equal(c->wk.net.rcv_ws, 1);
	assert_int_equal(tcp_client_launch(&c->wk.net), 0);
	assert_int_equal(c->n_out, 1);
	assert_int_equal(c->out[0].flags, TH_SYN);
	assert_int_equal(c->out[0].ws, 1);
	assert_int_equal(c->out[0].win, 65535);
}

/* A client and a server both offering it: each socket negotiated it,
 * every later segment carries 93,440 >> 1, and each side's sender reads
 * the other's window scaled (the server's answer of 64,000 bytes goes
 * in one flight of the initial window, and the client's ACKs open
 * 93,440 bytes). */
static void
test_ws_both(void **state)
{
	struct node *c = new_client(big_client), *s = new_server(big_server);
	struct tuple t, r;
	struct sock *csk, *ssk;

	(void)state;
	c->wire_win = s->wire_win = 1;
	assert_int_equal(tcp_client_launch(&c->wk.net), 0);
	client_tuple(c, 0, &t);
	reverse(&t, &r);
	deliver(c, s); /* SYN, ws 1 */
	assert_int_equal(s->synack_ws, 1);
	assert_int_equal(s->out[0].ws, 1);
	assert_int_equal(s->out[0].win, 65535); /* a SYN+ACK's window is not scaled */
	ssk = server_sock(s, &t);
	assert_true(ssk->flags & SKF_WS);
	assert_int_equal(sk_snd_of(&s->wk.net, ssk)->shift, 1);
	deliver(s, c); /* SYN+ACK: the client's ACK with the request */
	csk = client_sock(c, &t);
	assert_true(csk->flags & SKF_WS);
	assert_true(c->n_out >= 1);
	for (size_t i = 0; i < c->n_out; i++)
		assert_int_equal(c->out[i].win, WND >> 1);
	deliver(c, s); /* the request: the answer's first flight */
	assert_true(s->n_out >= 1);
	for (size_t i = 0; i < s->n_out; i++)
		assert_int_equal(s->out[i].win, WND >> 1);
	deliver(s, c); /* the client's ACKs, scaled */
	deliver(c, s);
	assert_int_equal(sk_snd_of(&s->wk.net, ssk)->wnd, WND);
	pump(c, s);
	assert_int_equal(C(c, HTTP_2XX), 2);
	assert_int_equal(C(c, HTTP_ERR) + C(c, SK_ERR) + C(s, PUSH_RT), 0);
}

/* One side only: a peer whose SYN has no window scale option gets none
 * in our SYN+ACK and our window unscaled (65535, the most the field
 * takes); a SYN+ACK without it leaves a client's window unscaled. */
static void
test_ws_one_side(void **state)
{
	struct node *c = new_client(NULL), *s = new_server(ka_server);
	struct tuple t, r;
	struct sock *sk;

	(void)state;
	/* the server, from a SYN without the option */
	c->peer_ws = SEG_NO_WS;
	assert_int_equal(tcp_client_launch(&c->wk.net), 0);
	client_tuple(c, 0, &t);
	box_clear(c);
	inject(s, &t, 1000, 0, TH_SYN, NULL, 0); /* s->peer_ws: SEG_NO_WS */
	assert_int_equal(s->synack_ws, 0);
	assert_int_equal(s->out[0].ws, SEG_NO_WS);
	sk = server_sock(s, &t);
	assert_false(sk->flags & SKF_WS);
	inject(s, &t, 1001, s->out[0].seq + 1, TH_ACK | TH_PSH, (const uint8_t *)"GET / HTTP/1.1\r\n\r\n", 18);
	assert_true(s->n_out >= 2);
	for (size_t i = 1; i < s->n_out; i++)
		assert_int_equal(s->out[i].win, 65535);
	free_nodes(NULL);

	/* the client, from a SYN+ACK without the option (its SYN offered it) */
	c = new_client(NULL);
	s = new_server(ka_server);
	s->wire_win = 1;   /* the server sees the client's offer */
	c->peer_ws = SEG_NO_WS;
	assert_int_equal(tcp_client_launch(&c->wk.net), 0);
	client_tuple(c, 0, &t);
	reverse(&t, &r);
	sk = client_sock(c, &t);
	deliver(c, s);
	assert_int_equal(s->synack_ws, 1); /* the server answered it ... */
	box_clear(s);
	inject(c, &r, 5000, sk->snd_nxt, TH_SYN | TH_ACK, NULL, 0); /* ... this one does not */
	assert_false(sk->flags & SKF_WS);
	assert_true(c->n_out >= 1); /* the request, with the ACK */
	for (size_t i = 0; i < c->n_out; i++)
		assert_int_equal(c->out[i].win, 65535);
}

/* A POST of 1 MB to our server, no loss: the client's sender has up to
 * the server's window in flight, 93,440 bytes (64 segments), more than
 * the 65,535 that bounded it unscaled, never more. */
static void
post_1m(struct dp_config *c)
{
	c->keepalive = 1;
	c->keepalive_request_interval_us = 0;
	c->keepalive_request_num = 1;
	c->http_method = DP_HTTP_POST;
	c->payload_size = 1000000;
}

static void
test_ws_post_not_window_bound(void **state)
{
	struct node *c = new_client(post_1m), *s = new_server(ka_server);
	uint32_t most = 0, rounds = 0;
	struct tuple t;
	struct sock *sk;

	(void)state;
	c->wire_win = s->wire_win = 1;
	assert_int_equal(tcp_client_launch(&c->wk.net), 0);
	client_tuple(c, 0, &t);
	deliver(c, s); /* SYN */
	deliver(s, c); /* SYN+ACK: the first flight */
	sk = client_sock(c, &t);
	while (C(c, HTTP_2XX) < 1 && rounds++ < 1000) {
		uint32_t flight = sk->snd_nxt - sk->snd_una;

		if (flight > most)
			most = flight;
		deliver(c, s);
		deliver(s, c);
	}
	assert_int_equal(C(c, HTTP_2XX), 1);
	assert_int_equal(C(s, GOOD_RX), 1000000ULL * 8);
	assert_int_equal(C(c, PUSH_RT), 0);
	assert_true(most > 65535);
	assert_int_equal(most, WND);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ws_arith),
		cmocka_unit_test_teardown(test_ws_offered, free_nodes),
		cmocka_unit_test_teardown(test_ws_both, free_nodes),
		cmocka_unit_test_teardown(test_ws_one_side, free_nodes),
		cmocka_unit_test_teardown(test_ws_post_not_window_bound, free_nodes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
