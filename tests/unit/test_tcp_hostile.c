/* SPDX-License-Identifier: BSD-3-Clause
 * Unit tests of the TCP engine: hostile and unexpected segments: no socket, foreign tuples, bad sequence numbers, RSTs, methods the server refuses.
 * The harness (tcp_harness.c) drives the real client and server back to back.
 */
// links: primary/boot/worker_setup.c primary/net/vxlan.c primary/tcp/tcp_client.c primary/tcp/tcp_server.c primary/tcp/tcp_send.c primary/tcp/tcp_timeout.c primary/tcp/tcp_dack.c primary/http/http.c primary/http/http_response.c primary/http/rsp_scan.c primary/http/http_request.c primary/http/messages.c primary/boot/worker_msgs.c primary/engine/timers.c tests/unit/tcp_harness.c primary/tcp/tcp_common.c primary/tcp/tcp_ooo.c primary/tcp/tcp_sack.c primary/tcp/tcp_rtt.c primary/app/app.c primary/app/http_app.c primary/app/raw_app.c primary/state/mix.c
#include "tcp_harness.h"
#include "tcp/tcp_sack.h"

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
		advance(s, s->wk.tcp.tl[TL_IDLE].timeout / TL_PER_MS);
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
	head = (uint32_t)((const uint8_t *)memmem(s->wk.net.msg.rsp_ka.data, s->wk.net.msg.rsp_ka.len, "\r\n\r\n", 4)
			  - s->wk.net.msg.rsp_ka.data) + 4;
	assert_true(head < s->wk.net.msg.rsp_ka.len);
	assert_int_equal(s->n_out, 3);
	assert_int_equal(s->out[0].len, head);
	assert_memory_equal(s->out[0].data, s->wk.net.msg.rsp_ka.data, head);
	assert_int_equal(s->out[1].len, s->wk.net.msg.rsp_ka.len);
	assert_int_equal(s->out[2].len, s->wk.net.msg.rsp_ka.len);
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
	assert_int_equal(tcp_client_launch(&c->wk.net), 0);
	client_tuple(c, 0, &t);
	reverse(&t, &st);
	pump(c, s);
	sk = server_sock(s, &t);
	assert_int_equal(sk->state, SK_ESTABLISHED);
	assert_int_equal(sk->snd_una, sk->snd_nxt);
	get = C(s, HTTP_GET);
	assert_int_equal(get, 1);
	saved = *sk;

	/* data ahead of rcv_nxt: held (tcpOoo), answered with a pure ACK
	 * whose SACK block names it (the client's SYN offered SACK) */
	inject(s, &t, sk->rcv_nxt + 100, sk->snd_nxt, TH_ACK | TH_PSH, c->wk.net.msg.req.data, c->wk.net.msg.req.len);
	assert_int_equal(C(s, TCP_OOO), 1);
	assert_int_equal(C(s, TCP_DROP), 0);
	assert_int_equal(s->n_out, 1);
	assert_int_equal(s->out[0].flags, TH_ACK);
	assert_int_equal(s->out[0].len, 0);
	assert_int_equal(s->out[0].seq, sk->snd_nxt);
	assert_int_equal(s->out[0].ack, sk->rcv_nxt);
	assert_memory_equal(&s->out[0].t, &st, sizeof(st));
	{
		struct sack_opts o;

		sack_parse(s->out[0].opt, s->out[0].optlen, &o);
		assert_int_equal(o.n, 1);
		assert_int_equal(o.b[0].start, sk->rcv_nxt + 100);
		assert_int_equal(o.b[0].end, sk->rcv_nxt + 100 + c->wk.net.msg.req.len);
	}
	assert_int_not_equal(sk->ooo, 0); /* the socket's handle of what it holds */
	saved.ooo = sk->ooo;
	assert_memory_equal(sk, &saved, sizeof(saved));
	assert_int_equal(C(s, HTTP_GET), get);
	box_clear(s);

	/* old data (already received): a duplicate, tcpDrop */
	inject(s, &t, sk->rcv_nxt - c->wk.net.msg.req.len, sk->snd_nxt, TH_ACK | TH_PSH, c->wk.net.msg.req.data,
	       c->wk.net.msg.req.len);
	assert_int_equal(C(s, TCP_DROP), 1);
	assert_int_equal(C(s, TCP_OOO), 1);
	assert_int_equal(s->n_out, 1);
	assert_memory_equal(sk, &saved, sizeof(saved));
	assert_int_equal(C(s, HTTP_GET), get);
	box_clear(s);

	/* ACK beyond snd_nxt: our ACK, dropped (test_tcp_ack has each rule) */
	inject(s, &t, sk->rcv_nxt, sk->snd_nxt + 10, TH_ACK, NULL, 0);
	assert_int_equal(C(s, TCP_DROP), 2);
	assert_int_equal(s->n_out, 1);
	assert_int_equal(s->out[0].flags, TH_ACK);
	assert_memory_equal(sk, &saved, sizeof(saved));
	box_clear(s);

	/* ACK too far before snd_una (RFC 5961 5.2): our ACK, dropped */
	inject(s, &t, sk->rcv_nxt, sk->snd_una - 70000, TH_ACK, NULL, 0);
	assert_int_equal(C(s, TCP_DROP), 3);
	assert_int_equal(s->n_out, 1);
	assert_memory_equal(sk, &saved, sizeof(saved));
	box_clear(s);

	/* no ACK flag */
	inject(s, &t, sk->rcv_nxt, 0, TH_PSH, c->wk.net.msg.req.data, c->wk.net.msg.req.len);
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
	assert_int_equal(s->wk.net.cnt.sk_cur, 1);

	/* the connection still works: second request, then close */
	advance(c, c->wk.tcp.tl[TL_KA].timeout / TL_PER_MS);
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
	assert_int_equal(tcp_client_launch(&c->wk.net), 0);
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
	assert_int_equal(tcp_client_launch(&c->wk.net), 0);
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
	inject(c, &st, sk->rcv_nxt - s->wk.net.msg.rsp_ka.len, sk->snd_nxt, TH_ACK | TH_PSH,
	       s->wk.net.msg.rsp_ka.data, s->wk.net.msg.rsp_ka.len);
	assert_int_equal(C(c, TCP_DROP), 3);
	assert_int_equal(c->n_out, 1);
	assert_int_equal(c->out[0].flags, TH_ACK);
	assert_int_equal(c->out[0].ack, sk->rcv_nxt);
	box_clear(c);
	assert_int_equal(C(c, HTTP_2XX), 1);

	/* ACK beyond snd_nxt: our ACK, dropped */
	inject(c, &st, sk->rcv_nxt, sk->snd_nxt + 1, TH_ACK, NULL, 0);
	assert_int_equal(C(c, TCP_DROP), 4);
	assert_int_equal(c->n_out, 1);
	assert_int_equal(c->out[0].flags, TH_ACK);
	box_clear(c);

	/* RST with a wrong sequence number */
	inject(c, &st, sk->rcv_nxt + 7, 0, TH_RST, NULL, 0);
	assert_int_equal(C(c, TCP_DROP), 5);
	assert_int_equal(C(c, RST_RX), 1);
	assert_memory_equal(sk, &saved, sizeof(saved));
	assert_int_equal(c->wk.net.cnt.sk_cur, 1);

	/* stale SYN+ACK (not the current ISS): dropped, no answer */
	inject(c, &st, sk->rcv_nxt + 1000, sk->snd_nxt, TH_SYN | TH_ACK, NULL, 0);
	assert_int_equal(C(c, TCP_DROP), 6);
	assert_int_equal(c->n_out, 0);
	assert_memory_equal(sk, &saved, sizeof(saved));

	/* unsolicited data while idle (no request in flight): httpErr, skErr, RST */
	inject(c, &st, sk->rcv_nxt, sk->snd_nxt, TH_ACK | TH_PSH, s->wk.net.msg.rsp_ka.data,
	       s->wk.net.msg.rsp_ka.len);
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
	assert_int_equal(tcp_client_launch(&c->wk.net), 0);
	client_tuple(c, 0, &t);
	reverse(&t, &st);
	sk = &c->wk.net.skt.sk[0];
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


int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_server_no_socket, free_nodes),
		cmocka_unit_test_teardown(test_server_partial_request_idle, free_nodes),
		cmocka_unit_test_teardown(test_server_methods, free_nodes),
		cmocka_unit_test_teardown(test_server_not_http, free_nodes),
		cmocka_unit_test_teardown(test_server_foreign, free_nodes),
		cmocka_unit_test_teardown(test_server_bad_segments, free_nodes),
		cmocka_unit_test_teardown(test_server_rst_in_window, free_nodes),
		cmocka_unit_test_teardown(test_client_bad_segments, free_nodes),
		cmocka_unit_test_teardown(test_client_syn_sent_bad, free_nodes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
