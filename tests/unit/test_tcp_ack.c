/* SPDX-License-Identifier: BSD-3-Clause
 * Unit tests of the TCP engine: the one ACK acceptance rule of both roles
 * (primary/tcp/tcp_input.h, RFC 9293 3.10.7.4 and RFC 5961 5.2), each
 * rule for the client and for the server, on a segment that carries data:
 *   no ACK bit: dropped, its data unread;
 *   above snd_nxt: our ACK, dropped, its data unread;
 *   below snd_una - MAX.SND.WND: our ACK, dropped, its data unread;
 *   below snd_una: a duplicate, ignored; its data read;
 *   snd_una to snd_nxt: snd_una moves.
 */
// links: primary/boot/worker_setup.c primary/net/vxlan.c primary/tcp/tcp_client.c primary/tcp/tcp_server.c primary/tcp/tcp_send.c primary/tcp/tcp_timeout.c primary/tcp/tcp_dack.c primary/http/http.c primary/http/http_response.c primary/http/rsp_scan.c primary/http/http_request.c primary/http/messages.c primary/boot/worker_msgs.c primary/engine/timers.c tests/unit/tcp_harness.c primary/tcp/tcp_common.c primary/tcp/tcp_ooo.c primary/tcp/tcp_sack.c primary/tcp/tcp_rtt.c primary/app/app.c primary/app/http_app.c primary/app/raw_app.c primary/state/mix.c
#include "tcp_harness.h"
#include "tcp/tcp_input.h"

/* A keep-alive client that sends its next request at once. */
static void
ka_next_now(struct dp_config *c)
{
	c->keepalive = 1;
	c->keepalive_request_num = 3;
	c->keepalive_request_interval_us = 0;
}

/* The rules on node n's socket sk (snd_una below snd_nxt: something of
 * ours unacknowledged), with segments sent on tuple t (the peer's view)
 * carrying `data`, whose reading counter `read` counts. */
static void
ack_rules(struct node *n, const struct tuple *t, struct sock *sk, const struct msg *data,
	  enum dp_counter read)
{
	uint32_t una = sk->snd_una, nxt = sk->snd_nxt, rcv = sk->rcv_nxt;
	uint64_t drops = C(n, TCP_DROP), got = n->wk.net.cnt.c[read];

	assert_true(seq_lt(una, nxt));
	box_clear(n);

	/* no ACK bit */
	inject(n, t, rcv, 0, TH_PSH, data->data, data->len);
	assert_int_equal(C(n, TCP_DROP), drops + 1);
	assert_int_equal(n->n_out, 0);
	assert_int_equal(sk->rcv_nxt, rcv);

	/* above snd_nxt */
	inject(n, t, rcv, nxt + 1, TH_ACK | TH_PSH, data->data, data->len);
	assert_int_equal(C(n, TCP_DROP), drops + 2);
	assert_int_equal(n->n_out, 1);
	assert_int_equal(n->out[0].flags, TH_ACK);
	assert_int_equal(n->out[0].seq, nxt);
	assert_int_equal(n->out[0].ack, rcv);
	assert_int_equal(sk->snd_una, una);
	assert_int_equal(sk->rcv_nxt, rcv);
	box_clear(n);

	/* too old */
	inject(n, t, rcv, una - TCP_MAX_SND_WND - 1, TH_ACK | TH_PSH, data->data, data->len);
	assert_int_equal(C(n, TCP_DROP), drops + 3);
	assert_int_equal(n->n_out, 1);
	assert_int_equal(n->out[0].flags, TH_ACK);
	assert_int_equal(sk->snd_una, una);
	assert_int_equal(sk->rcv_nxt, rcv);
	box_clear(n);

	/* acceptable, no data: snd_una moves */
	inject(n, t, rcv, una + 1, TH_ACK, NULL, 0);
	assert_int_equal(C(n, TCP_DROP), drops + 3);
	assert_int_equal(sk->snd_una, una + 1);
	assert_int_equal(sk->snd_nxt, nxt);

	/* a duplicate (old, within MAX.SND.WND) carrying data: the ACK
	 * ignored, the data read */
	inject(n, t, rcv, una, TH_ACK | TH_PSH, data->data, data->len);
	assert_int_equal(C(n, TCP_DROP), drops + 3);
	assert_int_equal(sk->snd_una, una + 1);
	assert_int_equal(sk->rcv_nxt, rcv + data->len);
	assert_int_equal(n->wk.net.cnt.c[read], got + 1);
}

static void
test_ack_rules_server(void **state)
{
	struct node *c = new_client(ka_next_now), *s = new_server(ka_server);
	struct tuple t;

	(void)state;
	open_and_ask(c, s); /* the answer waits unacknowledged in s's box */
	client_tuple(c, 0, &t);
	/* the data: the client's next request */
	ack_rules(s, &t, server_sock(s, &t), &c->wk.net.msg.req, DP_C_HTTP_GET);
	assert_int_equal(C(s, HTTP_GET), 2);
}

static void
test_ack_rules_client(void **state)
{
	struct node *c = new_client(ka_next_now), *s = new_server(ka_server);
	struct tuple t, st;

	(void)state;
	assert_int_equal(tcp_client_launch(&c->wk.net), 0);
	deliver(c, s); /* SYN */
	deliver(s, c); /* SYN+ACK; the request waits unacknowledged in c's box */
	client_tuple(c, 0, &t);
	reverse(&t, &st);
	/* the data: the server's answer */
	ack_rules(c, &st, client_sock(c, &t), &s->wk.net.msg.rsp_ka, DP_C_HTTP_2XX);
	assert_int_equal(C(c, HTTP_2XX), 1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_ack_rules_server, free_nodes),
		cmocka_unit_test_teardown(test_ack_rules_client, free_nodes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
