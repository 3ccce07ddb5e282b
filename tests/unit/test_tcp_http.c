/* SPDX-License-Identifier: BSD-3-Clause
 * Unit tests of the TCP engine: responses and raw TCP: split, malformed and non-2xx responses, FIN without a response, raw TCP payloads.
 * The harness (tcp_harness.c) drives the real client and server back to back.
 */
// links: primary/boot/worker_setup.c primary/net/vxlan.c primary/tcp/tcp_client.c primary/tcp/tcp_server.c primary/tcp/tcp_send.c primary/tcp/tcp_dack.c primary/http/http.c primary/http/http_response.c primary/http/rsp_scan.c primary/http/http_request.c primary/http/messages.c primary/boot/worker_msgs.c primary/engine/timers.c tests/unit/tcp_harness.c primary/tcp/tcp_rcv.c primary/tcp/tcp_ooo.c primary/tcp/tcp_sack.c primary/tcp/tcp_rtt.c
#include "tcp_harness.h"

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


int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_split_response, free_nodes),
		cmocka_unit_test_teardown(test_malformed_response, free_nodes),
		cmocka_unit_test_teardown(test_non2xx_response, free_nodes),
		cmocka_unit_test_teardown(test_fin_without_response, free_nodes),
		cmocka_unit_test_teardown(test_split_head_chunked, free_nodes),
		cmocka_unit_test_teardown(test_raw_tcp, free_nodes),
		cmocka_unit_test_teardown(test_raw_tcp_keepalive_split, free_nodes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
