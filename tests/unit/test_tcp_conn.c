/* SPDX-License-Identifier: BSD-3-Clause
 * Unit tests of the TCP engine: connections: one CPS flow, many connections, a full socket table, keepalive, pipelining, fast_close.
 * The harness (tcp_harness.c) drives the real client and server back to back.
 */
// links: primary/boot/worker_setup.c primary/net/vxlan.c primary/tcp/tcp_client.c primary/tcp/tcp_server.c primary/tcp/tcp_send.c primary/tcp/tcp_timeout.c primary/tcp/tcp_dack.c primary/http/http.c primary/http/http_response.c primary/http/rsp_scan.c primary/http/http_request.c primary/http/messages.c primary/boot/worker_msgs.c primary/engine/timers.c tests/unit/tcp_harness.c primary/tcp/tcp_common.c primary/tcp/tcp_ooo.c primary/tcp/tcp_sack.c primary/tcp/tcp_rtt.c primary/app/app.c primary/app/http_app.c primary/app/raw_app.c primary/state/mix.c
#include "tcp_harness.h"

/* ------------------------------------------------------------------ */
/* 1. CPS flow                                                         */

static void
test_cps_one(void **state)
{
	struct node *c = new_client(NULL), *s = new_server(NULL);
	struct tuple t;

	(void)state;
	assert_int_equal(c->wk.net.is_http, 1);
	assert_int_equal(c->wk.net.keepalive, 0);
	assert_int_equal(tcp_client_launch(&c->wk.net), 0);
	assert_int_equal(c->n_out, 1);
	assert_int_equal(c->out[0].flags, TH_SYN);
	client_tuple(c, 0, &t);
	assert_memory_equal(&c->out[0].t, &t, sizeof(t));
	assert_int_equal(rte_be_to_cpu_32(t.lip), CLI_IP);
	assert_int_equal(rte_be_to_cpu_32(t.rip), SRV_IP);
	assert_int_equal(rte_be_to_cpu_16(t.lport), LPORT_MIN);
	assert_int_equal(rte_be_to_cpu_16(t.rport), 80);
	assert_int_equal(c->wk.net.cnt.sk_cur, 1);
	assert_int_equal(c->wk.net.skt.sk[0].state, SK_SYN_SENT);
	assert_int_equal(c->wk.tcp.tl[TL_RT].count, 1);

	deliver(c, s);
	assert_int_equal(s->wk.net.cnt.sk_cur, 1);
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
	assert_int_equal(c->hlen[1], c->wk.net.msg.req.len);
	assert_int_equal(c->hist[2], TH_FIN | TH_ACK);
	assert_int_equal(c->hlen[2], 0);

	/* server */
	assert_int_equal(C(s, SK_OPEN), 1);
	assert_int_equal(C(s, SK_CLOSE), 1);
	assert_int_equal(C(s, HTTP_GET), 1);
	assert_int_equal(C(s, HTTP_2XX), 1);
	/* goodTx: one request and one answer, single segments */
	assert_int_equal(C(c, GOOD_TX), (uint64_t)c->wk.net.msg.req.len * 8);
	assert_int_equal(C(s, GOOD_TX), (uint64_t)s->wk.net.msg.rsp_close.len * 8);
	assert_int_equal(C(s, SYN_RX), 1);
	assert_int_equal(C(s, SYN_TX), 1);
	assert_int_equal(C(s, FIN_TX), 1);
	assert_int_equal(C(s, FIN_RX), 1);
	assert_clean(s);
	assert_idle(s);
	assert_int_equal(s->sent, 3);
	assert_int_equal(s->hist[0], TH_SYN | TH_ACK);
	assert_int_equal(s->hist[1], TH_ACK | TH_PSH | TH_FIN);
	assert_int_equal(s->hlen[1], s->wk.net.msg.rsp_close.len);
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
	assert_int_equal(c->wk.net.skt.n_sk, (uint64_t)N_CLI * N_LPORT);
	while (launched < 1000) {
		uint32_t batch = 1 + launched % 37;

		for (uint32_t i = 0; i < batch && launched < 1000; i++, launched++) {
			const struct rec *r;

			c->wk.net.now += 977; /* different ISS per launch */
			assert_int_equal(tcp_client_launch(&c->wk.net), 0);
			r = &c->out[c->n_out - 1];
			assert_int_equal(r->flags, TH_SYN);
			uint32_t ci = rte_be_to_cpu_32(r->t.lip) - CLI_IP;
			assert_true(ci < N_CLI);
			assert_int_equal(r->t.rip, c->wk.net.skt.srv_ip);
			assert_int_equal(rte_be_to_cpu_16(r->t.rport), 80);
			assert_int_equal(seen[ci][rte_be_to_cpu_16(r->t.lport)], 0);
			seen[ci][rte_be_to_cpu_16(r->t.lport)] = 1;
		}
		assert_int_equal(c->wk.net.cnt.sk_cur, open_sockets(c));
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
	assert_int_equal(c->wk.net.skt.n_sk, 4);
	for (int i = 0; i < 4; i++)
		assert_int_equal(tcp_client_launch(&c->wk.net), 0);
	assert_int_equal(tcp_client_launch(&c->wk.net), -1);
	assert_int_equal(C(c, LAUNCH_FULL), 1); /* counted where it is lost */
	assert_int_equal(C(c, SYN_TX), 4);
	assert_int_equal(c->wk.net.cnt.sk_cur, 4);
	pump(c, s);
	assert_idle(c);
	/* the tuples are free again */
	for (int i = 0; i < 4; i++)
		assert_int_equal(tcp_client_launch(&c->wk.net), 0);
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
test_keepalive_immediate(void **state)
{
	struct node *c = new_client(ka3_now), *s = new_server(ka_server);

	(void)state;
	assert_int_equal(c->wk.net.keepalive, 1);
	assert_int_equal(c->wk.tcp.tl[TL_KA].timeout, 0);
	assert_int_equal(tcp_client_launch(&c->wk.net), 0);
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
		assert_int_equal(s->hlen[i], s->wk.net.msg.rsp_ka.len);
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
	assert_int_equal(tcp_client_launch(&c->wk.net), 0);
	client_tuple(c, 0, &t);
	pump(c, s);
	assert_int_equal(C(c, HTTP_2XX), 1);
	assert_int_equal(c->wk.net.skt.sk[0].state, SK_ESTABLISHED);
	assert_int_equal(c->wk.net.skt.sk[0].list, TL_KA);
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
	assert_int_equal(tcp_client_launch(&c->wk.net), 0);
	pump(c, s);
	assert_int_equal(C(c, HTTP_2XX), 1);
	assert_int_equal(s->wk.net.cnt.sk_cur, 1);
	advance(s, s->wk.tcp.tl[TL_IDLE].timeout / TL_PER_MS - 1);
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

/* The first segment in n's outbox with a FIN, or NULL. */
static const struct rec *
fin_out(const struct node *n)
{
	for (size_t i = 0; i < n->n_out; i++)
		if (n->out[i].flags & TH_FIN)
			return &n->out[i];
	return NULL;
}

/* FIN_WAIT_2 waits for the peer's FIN on the side's list (tcp_input.h's
 * role_fin_wait): a server whose FIN was acknowledged alone on the idle
 * timeout, a client on the retransmission timer, which retries it. */
static void
test_fin_wait2_lists(void **state)
{
	struct node *c = new_client(ka_forever), *s = new_server(ka_server);
	struct node *c2 = new_client(ka3_now), *s2 = new_server(ka_server);
	struct tuple ct, st;
	struct sock *sk;

	(void)state;
	/* the server closes an idle connection; the client's bare ACK of its FIN */
	assert_int_equal(tcp_client_launch(&c->wk.net), 0);
	pump(c, s);
	advance(s, s->wk.tcp.tl[TL_IDLE].timeout / TL_PER_MS);
	run_timers(s);
	assert_non_null(fin_out(s));
	reverse(&fin_out(s)->t, &ct);
	sk = server_sock(s, &ct);
	box_clear(s);
	inject(s, &ct, sk->rcv_nxt, sk->snd_nxt, TH_ACK, NULL, 0);
	assert_int_equal(sk->state, SK_FIN_WAIT_2);
	assert_int_equal(sk->list, TL_IDLE);

	/* the client closes after its third request; the server's bare ACK of its FIN */
	assert_int_equal(tcp_client_launch(&c2->wk.net), 0);
	for (int i = 0; i < 20 && fin_out(c2) == NULL; i++) {
		deliver(c2, s2);
		deliver(s2, c2);
	}
	assert_non_null(fin_out(c2));
	ct = fin_out(c2)->t;
	sk = client_sock(c2, &ct);
	box_clear(c2);
	reverse(&ct, &st);
	inject(c2, &st, sk->rcv_nxt, sk->snd_nxt, TH_ACK, NULL, 0);
	assert_int_equal(sk->state, SK_FIN_WAIT_2);
	assert_int_equal(sk->list, TL_RT);
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
	assert_int_equal(tcp_client_launch(&c->wk.net), 0);
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
	assert_int_equal(tcp_client_launch(&c->wk.net), 0);
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


int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_cps_one, free_nodes),
		cmocka_unit_test_teardown(test_fin_wait2_lists, free_nodes),
		cmocka_unit_test_teardown(test_cps_many, free_nodes),
		cmocka_unit_test_teardown(test_launch_table_full, free_nodes),
		cmocka_unit_test_teardown(test_keepalive_immediate, free_nodes),
		cmocka_unit_test_teardown(test_keepalive_interval, free_nodes),
		cmocka_unit_test_teardown(test_server_idle_close, free_nodes),
		cmocka_unit_test_teardown(test_pipeline, free_nodes),
		cmocka_unit_test_teardown(test_fast_close, free_nodes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
