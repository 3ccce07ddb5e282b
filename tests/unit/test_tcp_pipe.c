/* SPDX-License-Identifier: BSD-3-Clause
 * Unit tests of the TCP engine: requests pipelined behind an answer over
 * several segments (issue 27 item 4), against a scripted client that
 * reassembles what the server sends and acknowledges each flight.
 * The harness (tcp_harness.c) drives the real server.
 */
// links: primary/boot/worker_setup.c primary/net/vxlan.c primary/tcp/tcp_client.c primary/tcp/tcp_server.c primary/tcp/tcp_send.c primary/tcp/tcp_timeout.c primary/tcp/tcp_dack.c primary/http/http.c primary/http/http_response.c primary/http/rsp_scan.c primary/http/http_request.c primary/http/messages.c primary/boot/worker_msgs.c primary/engine/timers.c tests/unit/tcp_harness.c primary/tcp/tcp_common.c primary/tcp/tcp_ooo.c primary/tcp/tcp_sack.c primary/tcp/tcp_rtt.c primary/app/app.c primary/app/http_app.c primary/app/raw_app.c primary/state/mix.c
#include "tcp_harness.h"

#define GET "GET / HTTP/1.1\r\nHost: x\r\n\r\n"
#define HEAD "HEAD / HTTP/1.1\r\nHost: x\r\n\r\n"
#define CAP (20u * 64000u)

/* A scripted client connected to server s (big_server: 64,000-byte
 * answers, 44 segments): its tuple, next sequence number, and what it
 * received in order from the answers' first byte. */
struct peer {
	struct node *s;
	struct tuple t;
	uint32_t seq;  /* the client's next sequence number */
	uint32_t base; /* the server's first data byte */
	uint32_t got;  /* bytes received in order */
	int fin;       /* the server's FIN came after them */
	int rst;       /* the server reset the connection */
	uint8_t *buf;
};

static void
peer_open(struct peer *p)
{
	struct node *c = new_client(NULL);
	uint32_t iss;

	memset(p, 0, sizeof(*p));
	p->s = new_server(big_server);
	p->buf = test_malloc(CAP);
	client_tuple(c, 3, &p->t);
	inject(p->s, &p->t, 1000, 0, TH_SYN, NULL, 0);
	assert_int_equal(p->s->out[0].flags, TH_SYN | TH_ACK);
	iss = p->s->out[0].seq;
	box_clear(p->s);
	inject(p->s, &p->t, 1001, iss + 1, TH_ACK, NULL, 0);
	p->seq = 1001;
	p->base = iss + 1;
}

/* The client sends len bytes of requests in one segment (with its FIN
 * when fin). */
static void
peer_send(struct peer *p, const char *req, uint32_t len, int fin)
{
	inject(p->s, &p->t, p->seq, p->base + p->got, TH_ACK | TH_PSH | (fin ? TH_FIN : 0),
	       (const uint8_t *)req, len);
	p->seq += len + (fin ? 1 : 0);
}

/* One round: the client takes what the server sent, in order, and
 * acknowledges it with one ACK. Returns the segments taken. */
static size_t
peer_round(struct peer *p)
{
	size_t n = p->s->n_out;

	for (size_t i = 0; i < n; i++) {
		const struct rec *r = &p->s->out[i];

		if (r->flags & TH_RST)
			p->rst = 1;
		if (r->len > 0 && r->seq == p->base + p->got) {
			assert_true(p->got + r->len <= CAP);
			memcpy(p->buf + p->got, r->data, r->len);
			p->got += r->len;
		}
		if ((r->flags & TH_FIN) && r->seq + r->len == p->base + p->got)
			p->fin = 1;
	}
	box_clear(p->s);
	if (n > 0 && !p->rst)
		inject(p->s, &p->t, p->seq, p->base + p->got + (p->fin ? 1 : 0), TH_ACK, NULL, 0);
	return n;
}

static void
peer_take_all(struct peer *p)
{
	for (int rounds = 0; peer_round(p) > 0; rounds++)
		assert_true(rounds < 10000);
}

static void
peer_close(struct peer *p)
{
	test_free(p->buf);
}

/* The stream received is these messages, in this order, byte for byte. */
static void
assert_stream(const struct peer *p, const struct msg *const *m, int n)
{
	uint32_t off = 0;

	for (int i = 0; i < n; i++) {
		assert_true(off + m[i]->len <= p->got);
		assert_memory_equal(p->buf + off, m[i]->data, m[i]->len);
		off += m[i]->len;
	}
	assert_int_equal(off, p->got);
}

/* Two GETs in one segment: both answered, one after the other, byte for
 * byte (issue 27: the second was counted in httpGet, never answered). */
static void
test_two_gets_one_segment(void **state)
{
	struct peer p;
	const struct msg *ka;

	(void)state;
	peer_open(&p);
	ka = &p.s->wk.net.msg.rsp_ka;
	assert_non_null(ka->seg_sum); /* an answer over several segments */
	peer_send(&p, GET GET, 2 * (sizeof(GET) - 1), 0);
	assert_int_equal(C(p.s, HTTP_GET), 2);
	assert_int_equal(server_sock(p.s, &p.t)->pend_n, 1); /* the second waits */
	peer_take_all(&p);
	assert_stream(&p, (const struct msg *[]){ ka, ka }, 2);
	assert_int_equal(C(p.s, HTTP_2XX), 2);
	assert_int_equal(C(p.s, GOOD_TX), 2ULL * ka->len * 8);
	assert_int_equal(C(p.s, PUSH_RT), 0);
	assert_int_equal(C(p.s, PIPE_FULL), 0);
	assert_false(p.fin);
	assert_int_equal(server_sock(p.s, &p.t)->state, SK_ESTABLISHED);
	assert_int_equal(server_sock(p.s, &p.t)->pend_n, 0);
	assert_int_equal(server_sock(p.s, &p.t)->list, TL_IDLE); /* all answered */
	peer_close(&p);
}

/* The second GET arrives in its own segment while the first answer is
 * on its way: answered once the first is acknowledged. */
static void
test_get_during_answer(void **state)
{
	struct peer p;
	const struct msg *ka;

	(void)state;
	peer_open(&p);
	ka = &p.s->wk.net.msg.rsp_ka;
	peer_send(&p, GET, sizeof(GET) - 1, 0);
	assert_int_equal(peer_round(&p), 10); /* the first flight */
	assert_true(p.got < ka->len);
	peer_send(&p, GET, sizeof(GET) - 1, 0);
	assert_int_equal(C(p.s, HTTP_GET), 2);
	peer_take_all(&p);
	assert_stream(&p, (const struct msg *[]){ ka, ka }, 2);
	assert_int_equal(C(p.s, HTTP_2XX), 2);
	peer_close(&p);
}

/* GET, HEAD, GET and the client's FIN in one segment: the answers in
 * order (the HEAD's head alone between two whole answers), our FIN after
 * the last. */
static void
test_mixed_then_fin(void **state)
{
	struct peer p;
	const struct msg *ka, *head;

	(void)state;
	peer_open(&p);
	ka = &p.s->wk.net.msg.rsp_ka;
	head = &p.s->wk.net.msg.rsp_head_ka;
	assert_null(head->seg_sum); /* one segment */
	peer_send(&p, GET HEAD GET, 2 * (sizeof(GET) - 1) + sizeof(HEAD) - 1, 1);
	assert_int_equal(server_sock(p.s, &p.t)->pend_n, 2);
	assert_int_equal(server_sock(p.s, &p.t)->pend_head, 1); /* the first waiting is the HEAD */
	peer_take_all(&p);
	assert_stream(&p, (const struct msg *[]){ ka, head, ka }, 3);
	assert_true(p.fin);
	assert_int_equal(C(p.s, HTTP_GET), 3);
	assert_int_equal(C(p.s, HTTP_2XX), 3);
	assert_int_equal(C(p.s, FIN_TX), 1);
	assert_int_equal(open_sockets(p.s), 0); /* our FIN acknowledged after theirs: closed */
	peer_close(&p);
}

/* The HEAD's answer between two long ones is lost: the second long
 * answer waits until it is acknowledged (the sender starts a message
 * from an acknowledged stream), the timer sends it again from its own
 * bytes, then the rest follows, byte for byte. */
static void
test_small_answer_lost(void **state)
{
	struct peer p;
	const struct msg *ka, *head;

	(void)state;
	peer_open(&p);
	ka = &p.s->wk.net.msg.rsp_ka;
	head = &p.s->wk.net.msg.rsp_head_ka;
	peer_send(&p, GET HEAD GET, 2 * (sizeof(GET) - 1) + sizeof(HEAD) - 1, 0);
	while (p.got < ka->len)
		assert_true(peer_round(&p) > 0);
	assert_int_equal(p.got, ka->len);
	/* the ACK of the first answer let the HEAD's go, and only it */
	assert_int_equal(p.s->n_out, 1);
	assert_int_equal(p.s->out[0].len, head->len);
	box_clear(p.s); /* lost */
	assert_int_equal(server_sock(p.s, &p.t)->pend_n, 1);
	rt_expire(p.s);
	assert_int_equal(p.s->n_out, 1);
	assert_int_equal(p.s->out[0].len, head->len);
	assert_int_equal(C(p.s, PUSH_RT), 1);
	peer_take_all(&p);
	assert_stream(&p, (const struct msg *[]){ ka, head, ka }, 3);
	assert_int_equal(C(p.s, HTTP_2XX), 3);
	peer_close(&p);
}

/* A bad request behind a GET: the GET's answer, then 400 and our FIN;
 * what follows the bad request is not read. */
static void
test_bad_after_get(void **state)
{
	static const char reqs[] = GET "BREW / HTTP/1.1\r\n\r\n" GET;
	struct peer p;
	const struct msg *ka, *bad;

	(void)state;
	peer_open(&p);
	ka = &p.s->wk.net.msg.rsp_ka;
	bad = &p.s->wk.net.msg.rsp_bad;
	peer_send(&p, reqs, sizeof(reqs) - 1, 0);
	peer_send(&p, GET, sizeof(GET) - 1, 0); /* after the bad one: not read */
	peer_take_all(&p);
	assert_stream(&p, (const struct msg *[]){ ka, bad }, 2);
	assert_true(p.fin);
	assert_int_equal(C(p.s, HTTP_GET), 1);
	assert_int_equal(C(p.s, HTTP_ERR), 1);
	assert_int_equal(C(p.s, HTTP_2XX), 1);
	peer_close(&p);
}

/* The room: 16 requests waiting behind the answer in progress (17 in one
 * segment fit: the first is answered at once); one more is pipeFull and
 * the connection is reset. */
static void
test_pipe_full(void **state)
{
	char reqs[17 * (sizeof(GET) - 1) + 1];
	struct peer p;

	(void)state;
	for (int i = 0; i < 17; i++)
		memcpy(reqs + i * (sizeof(GET) - 1), GET, sizeof(GET) - 1);
	peer_open(&p);
	peer_send(&p, reqs, 17 * (sizeof(GET) - 1), 0);
	assert_int_equal(server_sock(p.s, &p.t)->pend_n, 16);
	assert_int_equal(C(p.s, PIPE_FULL), 0);
	peer_send(&p, GET GET, 2 * (sizeof(GET) - 1), 0);
	assert_int_equal(C(p.s, PIPE_FULL), 2);
	assert_int_equal(C(p.s, HTTP_GET), 19);
	assert_int_equal(C(p.s, RST_TX), 1);
	assert_int_equal(open_sockets(p.s), 0);
	peer_round(&p);
	assert_true(p.rst);
	peer_close(&p);
}

/* A server whose answers fit one segment answers pipelined requests at
 * once, as before: no queue. */
static void
test_small_answers_no_queue(void **state)
{
	struct node *s = new_server(ka_server);
	struct tuple t;
	struct node *c = new_client(NULL);
	uint32_t iss;

	(void)state;
	assert_null(s->wk.tcp.snd);
	client_tuple(c, 3, &t);
	inject(s, &t, 1000, 0, TH_SYN, NULL, 0);
	iss = s->out[0].seq;
	box_clear(s);
	inject(s, &t, 1001, iss + 1, TH_ACK, NULL, 0);
	inject(s, &t, 1001, iss + 1, TH_ACK | TH_PSH, (const uint8_t *)(GET GET GET),
	       3 * (sizeof(GET) - 1));
	assert_int_equal(s->n_out, 3);
	assert_int_equal(C(s, HTTP_2XX), 3);
	assert_int_equal(server_sock(s, &t)->pend_n, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_two_gets_one_segment, free_nodes),
		cmocka_unit_test_teardown(test_get_during_answer, free_nodes),
		cmocka_unit_test_teardown(test_mixed_then_fin, free_nodes),
		cmocka_unit_test_teardown(test_small_answer_lost, free_nodes),
		cmocka_unit_test_teardown(test_bad_after_get, free_nodes),
		cmocka_unit_test_teardown(test_pipe_full, free_nodes),
		cmocka_unit_test_teardown(test_small_answers_no_queue, free_nodes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
