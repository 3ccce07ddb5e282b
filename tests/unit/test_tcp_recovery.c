/* SPDX-License-Identifier: BSD-3-Clause
 * Loss recovery between our client and server (issue 27), same harness as
 * the other TCP tests: SACK negotiated in the SYNs, segments behind a hole
 * held by the receiver and delivered once it fills, the sender resending
 * only the holes (RFC 6675), and what a connection held given back when it
 * ends.
 */
// links: primary/boot/worker_setup.c primary/net/vxlan.c primary/tcp/tcp_client.c primary/tcp/tcp_server.c primary/tcp/tcp_send.c primary/tcp/tcp_dack.c primary/http/http.c primary/http/http_response.c primary/http/rsp_scan.c primary/http/http_request.c primary/http/messages.c primary/boot/worker_msgs.c primary/engine/timers.c tests/unit/tcp_harness.c primary/tcp/tcp_rcv.c primary/tcp/tcp_ooo.c primary/tcp/tcp_sack.c primary/tcp/tcp_rtt.c
#include "tcp_harness.h"

/* Drop segment i of from's box. */
static void
lose(struct node *from, size_t i)
{
	assert_true(i < from->n_out);
	free(from->out[i].data);
	memmove(&from->out[i], &from->out[i + 1], (from->n_out - i - 1) * sizeof(from->out[0]));
	from->n_out--;
}

/* Our SYN offers SACK; the server's SYN+ACK answers it, and both
 * connections' sockets say so. */
static void
test_sack_negotiated(void **state)
{
	struct node *c = new_client(big_client), *s = new_server(big_server);
	struct tuple t;

	(void)state;
	assert_int_equal(tcp_client_launch(&c->w.net), 0);
	assert_int_equal(c->out[0].flags, TH_SYN);
	assert_int_equal(c->out[0].sack_ok, 1);
	deliver(c, s);
	assert_int_equal(s->synack_sack, 1);
	deliver(s, c);
	client_tuple(c, 0, &t);
	assert_true(client_sock(c, &t)->flags & SKF_SACK);
	assert_true(server_sock(s, &t)->flags & SKF_SACK);
}

/* A SYN without the option: the SYN+ACK does not offer it. */
static void
test_sack_not_offered(void **state)
{
	struct node *c = new_client(NULL), *s = new_server(big_server);
	struct tuple t;

	(void)state;
	client_tuple(c, 3, &t);
	inject(s, &t, 1000, 0, TH_SYN, NULL, 0); /* peer_sack 0 */
	assert_int_equal(s->out[0].flags, TH_SYN | TH_ACK);
	assert_int_equal(s->synack_sack, 0);
	assert_false(server_sock(s, &t)->flags & SKF_SACK);
}

/* Two segments of the first flight lost (the second and the fifth): the
 * client holds what follows each hole and says so in SACK blocks; the
 * server resends those two and nothing else, without its timer; the
 * client's goodput is each byte once. */
static void
test_sack_resends_holes_only(void **state)
{
	struct node *c = new_client(big_client), *s = new_server(big_server);
	uint32_t len, rounds = 0;

	(void)state;
	open_and_ask(c, s);
	len = s->w.net.msg.rsp_ka.len;
	assert_int_equal(s->n_out, 10);
	lose(s, 4);
	lose(s, 1);
	while ((s->n_out || c->n_out) && rounds++ < 1000) {
		deliver(s, c);
		deliver(c, s);
	}
	assert_int_equal(C(c, HTTP_2XX), 2);
	assert_int_equal(C(s, PUSH_RT), 2);
	assert_true(C(c, TCP_OOO) >= 7); /* 2, 3 and 5.. 9 held */
	assert_true(C(s, SACK_RX) > 0);
	assert_int_equal(C(s, SPUR_RT), 0);
	assert_int_equal(C(c, OOO_DROP), 0);
	assert_int_equal(C(c, OOO_REL), 0);
	assert_int_equal(C(c, GOOD_RX), 2ULL * len * 8);
	assert_int_equal(C(s, GOOD_TX), 2ULL * len * 8);
	assert_int_equal(c->w.tcp.ooo->used, 0);
	assert_int_equal(c->held, 0);
	assert_clean(c);
	assert_clean(s);
}

/* Without SACK (a peer whose SYN did not offer it) the client still
 * holds what follows a hole: the server's NewReno resends the hole, the
 * cumulative ACK then covers what was held, and the answer completes
 * with nothing received twice. */
static void
test_held_without_sack(void **state)
{
	struct node *c = new_client(big_client), *s = new_server(big_server);
	uint32_t rounds = 0;
	struct tuple t;

	(void)state;
	assert_int_equal(tcp_client_launch(&c->w.net), 0);
	c->out[0].sack_ok = 0; /* as if our SYN had not offered it */
	deliver(c, s);
	deliver(s, c);
	deliver(c, s);
	client_tuple(c, 0, &t);
	assert_false(server_sock(s, &t)->flags & SKF_SACK);
	lose(s, 1);
	while ((s->n_out || c->n_out) && rounds++ < 1000) {
		deliver(s, c);
		deliver(c, s);
	}
	assert_int_equal(C(c, HTTP_2XX), 2);
	assert_int_equal(C(s, SACK_RX), 0);
	assert_true(C(c, TCP_OOO) > 0);
	assert_true(C(s, PUSH_RT) >= 1);
	assert_int_equal(C(c, GOOD_RX), 2ULL * s->w.net.msg.rsp_ka.len * 8);
	assert_int_equal(c->held, 0);
}

/* A connection that ends while it holds segments gives them back,
 * counted in oooRel. */
static void
test_held_released_at_close(void **state)
{
	struct node *c = new_client(big_client), *s = new_server(big_server);
	struct tuple t, st;
	struct sock *sk;

	(void)state;
	open_and_ask(c, s);
	lose(s, 0);
	deliver(s, c); /* 1..9 held */
	client_tuple(c, 0, &t);
	sk = client_sock(c, &t);
	assert_int_equal(C(c, TCP_OOO), 9);
	assert_int_equal(c->held, 9);
	assert_int_equal(ooo_count(c->w.tcp.ooo, sk->ooo), 9);
	box_clear(c);
	reverse(&t, &st); /* the server's view: it sends the reset */
	inject(c, &st, sk->rcv_nxt, sk->snd_nxt, TH_RST, NULL, 0);
	assert_int_equal(sk->state, SK_CLOSED);
	assert_int_equal(sk->ooo, 0);
	assert_int_equal(C(c, OOO_REL), 9);
	assert_int_equal(c->held, 0);
	assert_int_equal(c->w.tcp.ooo->used, 0);
}

/* The retransmission timeout from the connection's RTT (RFC 6298): after
 * a 5 ms round trip it is 1 s (the minimum), not retransmit_timeout's
 * 2 s; a timeout doubles it (5.5); an ACK of new data after it samples
 * nothing from what went twice (Karn) and keeps the doubled value. */
static void
test_rto_from_rtt(void **state)
{
	struct node *c = new_client(big_client), *s = new_server(big_server);
	uint64_t rt;

	(void)state;
	assert_int_equal(s->w.tcp.tl[TL_RT].timeout, 2000 * TL_PER_MS);
	open_and_ask(c, s);
	advance(s, 5);
	deliver(s, c); /* the first flight */
	deliver(c, s); /* its ACKs, 5 ms after: a sample; the next flight goes */
	box_clear(s);  /* ...and is lost */
	rt = C(s, PUSH_RT);
	advance(s, 999);
	run_timers(s);
	assert_int_equal(C(s, PUSH_RT), rt);
	advance(s, 2);
	run_timers(s);
	assert_int_equal(C(s, PUSH_RT), rt + 1); /* at 1 s */
	box_clear(s);
	advance(s, 1999);
	run_timers(s);
	assert_int_equal(C(s, PUSH_RT), rt + 1);
	advance(s, 2);
	run_timers(s);
	assert_int_equal(C(s, PUSH_RT), rt + 2); /* 2 s later: backed off */
	box_clear(s);
}

/* The sRTT histogram (net/lat.h) takes the estimate at each RTT sample
 * of the side that sends over several segments: a 5 ms round trip, then
 * a 7 ms one, record 5 ms and 5.25 ms (7/8 x 5 + 1/8 x 7, RFC 6298 2.3),
 * in TSC ticks; the client, whose request is one segment, has no
 * estimator and records none. */
static void
test_srtt_recorded(void **state)
{
	static struct dp_worker_lat slat, clat;
	struct node *c = new_client(big_client), *s = new_server(big_server);
	const struct dp_hist *h = &slat.h[DP_LAT_SRTT];

	(void)state;
	memset(&slat, 0, sizeof(slat));
	memset(&clat, 0, sizeof(clat));
	s->w.net.lat = &slat;
	c->w.net.lat = &clat;
	open_and_ask(c, s);
	advance(s, 5);
	deliver(s, c); /* the first flight */
	deliver(c, s); /* its ACKs, 5 ms after: the first sample */
	assert_int_equal(h->count, 1);
	assert_int_equal(h->max, 5 * s->w.net.tsc_per_ms);
	advance(s, 7);
	deliver(s, c);
	deliver(c, s); /* 7 ms after */
	assert_int_equal(h->count, 2);
	assert_int_equal(h->max, 5 * s->w.net.tsc_per_ms + s->w.net.tsc_per_ms / 4);
	assert_int_equal(clat.h[DP_LAT_SRTT].count, 0);
	assert_int_equal(slat.h[DP_LAT_TLS_HS].count, 0);
}

/* The client's side: a POST body over several segments goes through the
 * same sender, and its sRTT is recorded the same way (4 ms here); the
 * server, whose answers are one segment, records none. */
static void
test_srtt_recorded_client(void **state)
{
	static struct dp_worker_lat slat, clat;
	struct node *c = new_client(post_client), *s = new_server(ka_server);

	(void)state;
	memset(&slat, 0, sizeof(slat));
	memset(&clat, 0, sizeof(clat));
	s->w.net.lat = &slat;
	c->w.net.lat = &clat;
	assert_int_equal(tcp_client_launch(&c->w.net), 0);
	deliver(c, s); /* SYN */
	deliver(s, c); /* SYN+ACK: the body's first flight leaves */
	advance(c, 4);
	deliver(c, s);
	deliver(s, c); /* its ACKs, 4 ms later */
	assert_int_equal(clat.h[DP_LAT_SRTT].count, 1);
	assert_int_equal(clat.h[DP_LAT_SRTT].max, 4 * c->w.net.tsc_per_ms);
	assert_int_equal(slat.h[DP_LAT_SRTT].count, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_sack_negotiated, free_nodes),
		cmocka_unit_test_teardown(test_sack_not_offered, free_nodes),
		cmocka_unit_test_teardown(test_sack_resends_holes_only, free_nodes),
		cmocka_unit_test_teardown(test_held_without_sack, free_nodes),
		cmocka_unit_test_teardown(test_held_released_at_close, free_nodes),
		cmocka_unit_test_teardown(test_rto_from_rtt, free_nodes),
		cmocka_unit_test_teardown(test_srtt_recorded, free_nodes),
		cmocka_unit_test_teardown(test_srtt_recorded_client, free_nodes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
