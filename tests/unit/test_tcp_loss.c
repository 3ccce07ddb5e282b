/* SPDX-License-Identifier: BSD-3-Clause
 * Unit tests of the TCP engine: losses and retransmissions: a lost SYN, SYN+ACK, request, response, FIN or last ACK; retries exhausted.
 * The harness (tcp_harness.c) drives the real client and server back to back.
 */
// links: primary/boot/worker_setup.c primary/net/vxlan.c primary/tcp/tcp_client.c primary/tcp/tcp_server.c primary/tcp/tcp_send.c primary/tcp/tcp_timeout.c primary/tcp/tcp_dack.c primary/http/http.c primary/http/http_response.c primary/http/rsp_scan.c primary/http/http_request.c primary/http/messages.c primary/boot/worker_msgs.c primary/engine/timers.c tests/unit/tcp_harness.c primary/tcp/tcp_common.c primary/tcp/tcp_ooo.c primary/tcp/tcp_sack.c primary/tcp/tcp_rtt.c primary/app/app.c primary/app/http_app.c primary/app/raw_app.c primary/state/mix.c
#include "tcp_harness.h"

/* ------------------------------------------------------------------ */
/* 5. Losses                                                           */

static void
test_lost_syn(void **state)
{
	struct node *c = new_client(NULL), *s = new_server(NULL);

	(void)state;
	assert_int_equal(tcp_client_launch(&c->wk.net), 0);
	box_clear(c);
	advance(c, c->wk.tcp.tl[TL_RT].timeout / TL_PER_MS - 1);
	run_timers(c);
	assert_int_equal(c->n_out, 0);
	assert_int_equal(C(c, RTO), 0);
	advance(c, 1);
	run_timers(c);
	assert_int_equal(c->n_out, 1);
	assert_int_equal(c->out[0].flags, TH_SYN);
	assert_int_equal(c->out[0].seq, c->wk.net.skt.sk[0].snd_una);
	assert_int_equal(C(c, SYN_RT), 1);
	assert_int_equal(C(c, RTO), 1);
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
	assert_int_equal(tcp_client_launch(&c->wk.net), 0);
	box_clear(c);
	advance(c, c->wk.tcp.tl[TL_RT].timeout / TL_PER_MS);
	c->wk.net.txq.n = DP_TX_CONGESTED; /* queued, as if the device took nothing */
	c->wk.net.txq.head = 0;
	assert_int_not_equal(timers_run(&c->wk), 0);
	assert_int_equal(c->n_out, 0);
	assert_int_equal(C(c, SYN_RT), 0);
	c->wk.net.txq.n = 0;
	assert_int_equal(timers_run(&c->wk), 0);
	assert_int_equal(c->n_out, 1);
	assert_int_equal(C(c, SYN_RT), 1);
}

static void
test_lost_synack(void **state)
{
	struct node *c = new_client(NULL), *s = new_server(NULL);

	(void)state;
	assert_int_equal(tcp_client_launch(&c->wk.net), 0);
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
	assert_int_equal(tcp_client_launch(&c->wk.net), 0);
	deliver(c, s);
	deliver(s, c);
	assert_int_equal(c->n_out, 1);
	assert_int_equal(c->out[0].len, c->wk.net.msg.req.len);
	box_clear(c);
	rt_expire(c);
	assert_int_equal(C(c, PUSH_RT), 1);
	assert_int_equal(C(c, RTO), 1);
	assert_int_equal(c->n_out, 1);
	assert_int_equal(c->out[0].flags, TH_ACK | TH_PSH);
	assert_int_equal(c->out[0].len, c->wk.net.msg.req.len);
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
	assert_int_equal(tcp_client_launch(&c->wk.net), 0);
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
	assert_int_equal(s->out[0].len, s->wk.net.msg.rsp_close.len);
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
	assert_int_equal(c->wk.net.skt.sk[0].state, SK_LAST_ACK);
	box_clear(c);
	rt_expire(c);
	assert_int_equal(C(c, FIN_RT), 1);
	assert_int_equal(C(c, FIN_TX), 2);
	assert_int_equal(c->n_out, 1);
	assert_int_equal(c->out[0].flags, TH_FIN | TH_ACK);
	assert_int_equal(c->out[0].seq, c->wk.net.skt.sk[0].snd_nxt - 1);
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
	assert_int_equal(tcp_client_launch(&c->wk.net), 0);
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
	assert_int_equal(tcp_client_launch(&c->wk.net), 0);
	for (int i = 1; i <= DP_MAX_RETRIES; i++) {
		box_clear(c);
		rt_expire(c);
		assert_int_equal(C(c, SYN_RT), (uint64_t)i);
		assert_int_equal(c->wk.net.skt.sk[0].state, SK_SYN_SENT);
		assert_int_equal(c->wk.net.cnt.sk_cur, 1);
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
	assert_int_equal(tcp_client_launch(&c->wk.net), 0);
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
	assert_int_equal(C(c, HTTP_ERR), 1); /* the unanswered request (test_tcp_http: one rule) */
	box_clear(c);
	assert_idle(c);
}

static void
test_server_retries_exhausted(void **state)
{
	struct node *c = new_client(NULL), *s = new_server(NULL);

	(void)state;
	assert_int_equal(tcp_client_launch(&c->wk.net), 0);
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


int
main(void)
{
	const struct CMUnitTest tests[] = {
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
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
