/* SPDX-License-Identifier: BSD-3-Clause
 * Unit tests of the TCP engine: delayed ACKs (tcp_dack.h): one test per rule.
 * The harness (tcp_harness.c) drives the real client and server back to back.
 */
// links: primary/boot/worker_setup.c primary/net/vxlan.c primary/tcp/tcp_client.c primary/tcp/tcp_server.c primary/tcp/tcp_send.c primary/tcp/tcp_timeout.c primary/tcp/tcp_dack.c primary/http/http.c primary/http/http_response.c primary/http/rsp_scan.c primary/http/http_request.c primary/http/messages.c primary/boot/worker_msgs.c primary/engine/timers.c tests/unit/tcp_harness.c primary/tcp/tcp_common.c primary/tcp/tcp_ooo.c primary/tcp/tcp_sack.c primary/tcp/tcp_rtt.c primary/app/app.c primary/app/http_app.c primary/app/raw_app.c primary/state/mix.c
#include "tcp_harness.h"

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
		struct sock *sk = &c->wk.net.skt.sk[0];

		open_and_ask(c, s);
		assert_int_equal(s->n_out, 10);
		c->wk.net.txq.n = congested ? DP_TX_CONGESTED : 0; /* queued, as if the device took nothing */
		c->wk.net.txq.head = 0;
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
		c->wk.net.txq.n = 0;
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
	assert_int_equal(tcp_client_launch(&c->wk.net), 0);
	pump(c, s);
	for (int i = 2; i <= 5; i++) {
		struct sock *sk = &c->wk.net.skt.sk[0];

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
	assert_int_equal(c->wk.tcp.dack->tail, 0);
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
	assert_int_equal(tcp_client_launch(&c->wk.net), 0);
	deliver(c, s); /* SYN */
	deliver(s, c); /* SYN+ACK: the request goes */
	deliver(c, s);
	deliver(s, c); /* the response */
	sk = &c->wk.net.skt.sk[0];
	assert_int_equal(C(c, HTTP_2XX), 1);
	assert_int_equal(c->n_out, 1);
	assert_int_equal(c->out[0].flags, TH_ACK);
	assert_int_equal(c->out[0].len, 0);
	assert_int_equal(c->out[0].ack, sk->rcv_nxt);
	assert_int_equal(c->wk.tcp.dack->tail, 0);
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
	assert_int_equal(tcp_client_launch(&c->wk.net), 0);
	deliver(c, s);
	deliver(s, c);
	deliver(c, s); /* the request */
	assert_int_equal(s->n_out, 1);
	r = s->out[0];
	st = r.t;
	assert_int_equal(r.len, 530);
	s->out[0].data = NULL;
	box_clear(s);
	sk = &c->wk.net.skt.sk[0];
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
	assert_int_equal(tcp_client_launch(&c->wk.net), 0);
	pump(c, s);
	advance(c, 999);
	run_timers(c);
	assert_int_equal(c->n_out, 0);
	advance(c, 1);
	run_timers(c);
	assert_int_equal(c->n_out, 1);
	assert_int_equal(c->out[0].flags, TH_ACK | TH_PSH);
	assert_int_equal(c->out[0].ack, c->wk.net.skt.sk[0].rcv_nxt);
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
	assert_int_equal(s->wk.tcp.dack->tail, 1);
	advance(s, 10);
	inject(s, &t, 1001 + sizeof(part), iss + 1, TH_ACK | TH_PSH, end, sizeof(end) - 1);
	assert_int_equal(s->n_out, 1); /* the response, carrying the ACK */
	assert_int_equal(s->out[0].flags, TH_ACK | TH_PSH);
	box_clear(s);
	advance(s, 30);
	run_timers(s); /* the entry is due, and stale */
	assert_int_equal(s->wk.tcp.dack->head, 1);
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
	assert_int_equal(tcp_client_launch(&c->wk.net), 0);
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
