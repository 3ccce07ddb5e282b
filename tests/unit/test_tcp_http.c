/* SPDX-License-Identifier: BSD-3-Clause
 * Unit tests of the TCP engine: responses and raw TCP: split, malformed and non-2xx responses, FIN without a response, responses delimited by the server's close, raw TCP payloads.
 * The harness (tcp_harness.c) drives the real client and server back to back.
 */
// links: primary/boot/worker_setup.c primary/net/vxlan.c primary/tcp/tcp_client.c primary/tcp/tcp_server.c primary/tcp/tcp_send.c primary/tcp/tcp_timeout.c primary/tcp/tcp_dack.c primary/http/http.c primary/http/http_response.c primary/http/rsp_scan.c primary/http/http_request.c primary/http/messages.c primary/boot/worker_msgs.c primary/engine/timers.c tests/unit/tcp_harness.c primary/tcp/tcp_common.c primary/tcp/tcp_ooo.c primary/tcp/tcp_sack.c primary/tcp/tcp_rtt.c primary/app/app.c primary/app/http_app.c primary/app/raw_app.c primary/state/mix.c
#include "tcp_harness.h"
#include "http/rsp_scan.h" /* dp_rsp_scan_idle: the socket keeps the state, not the scanner */

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
	assert_int_equal(c->wk.net.msg.req.len, 1400);
	assert_int_equal(s->wk.net.msg.rsp_close.len, 1400);
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
	assert_int_equal(c->wk.net.skt.sk[0].inflight, 1);
	assert_false(dp_rsp_scan_idle(&c->wk.net.skt.sk[0].rs)); /* 700 bytes of the body to come */
	assert_int_equal(c->n_out, 1);
	assert_int_equal(c->out[0].flags, TH_ACK);
	assert_int_equal(c->out[0].ack, r.seq + 700);
	inject(c, &st, r.seq + 700, r.ack, TH_ACK | TH_PSH | TH_FIN, r.data + 700, 700);
	assert_int_equal(C(c, HTTP_2XX), 1);
	/* the whole head came in the first segment: the fast path read it
	 * and cached it (the next identical head is one memcmp) */
	assert_true(c->wk.net.msg.rsp_head.len > 0 && c->wk.net.msg.rsp_head.len < 700);
	assert_memory_equal(c->wk.net.msg.rsp_head.head, r.data, c->wk.net.msg.rsp_head.len);
	assert_memory_equal(c->wk.net.msg.rsp_head.head + c->wk.net.msg.rsp_head.len - 4, "\r\n\r\n", 4);
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
	c->wk.net.lat = &lat;
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
	assert_int_equal(lat.h[DP_LAT_FIRST_BYTE].count, 1);
	assert_int_equal(lat.h[DP_LAT_FIRST_BYTE].max, 5 * c->wk.net.tsc_per_ms);
	assert_int_equal(lat.h[DP_LAT_RESPONSE].count, 1);
	assert_int_equal(lat.h[DP_LAT_RESPONSE].max, 9 * c->wk.net.tsc_per_ms);
	assert_int_equal(C(c, HTTP_2XX), 1);
	assert_int_equal(C(c, HTTP_ERR), 0);
	assert_int_equal(C(c, GOOD_RX), (sizeof(rsp) - 1) * 8);
	assert_int_equal(c->wk.net.msg.rsp_head.len, 0); /* a split head is not cached */
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

/* Each segment n recorded (its first HIST_MAX) carries at most max bytes;
 * returns how many carried data. */
static uint32_t
data_segments(const struct node *n, uint32_t max)
{
	uint32_t k = 0;

	for (uint64_t i = 0; i < n->sent && i < HIST_MAX; i++) {
		assert_true(n->hlen[i] <= max);
		k += n->hlen[i] > 0;
	}
	return k;
}

/* The peer's MSS option (issue 31: a SYN announcing 536 still got 1,460-
 * byte segments): a 1,400-byte request and its 1,400-byte answer go in
 * segments of the peer's MSS, each summed over its own bytes, and are
 * read whole; an option of 1 is not trusted (88 bytes at least); none
 * means 536 (RFC 9293 3.7.1). */
static void
test_peer_mss(void **state)
{
	static const uint16_t mss[] = { 536, 1, PEER_NO_MSS }, seg[] = { 536, TCP_MIN_MSS, 536 };

	(void)state;
	for (int i = 0; i < 3; i++) {
		struct node *c = new_client(size1400), *s = new_server(size1400);

		s->peer_mss = mss[i]; /* what the client's SYN says, as the server sees it */
		c->peer_mss = mss[i]; /* and the server's SYN+ACK, as the client sees it */
		assert_int_equal(tcp_client_launch(&c->wk.net), 0);
		pump(c, s);
		assert_int_equal(C(s, HTTP_GET), 1);
		assert_int_equal(C(c, HTTP_2XX), 1);
		assert_int_equal(data_segments(c, seg[i]), (1400 + seg[i] - 1) / seg[i]);
		assert_int_equal(data_segments(s, seg[i]), (s->wk.net.msg.rsp_close.len + seg[i] - 1) / seg[i]);
		assert_int_equal(c->bad_sums + s->bad_sums, 0);
		assert_clean(c);
		assert_clean(s);
		assert_idle(c);
		assert_idle(s);
		free_nodes(NULL);
	}
}

/* The client's connection open and its request acknowledged by a
 * scripted server, whose bytes are sent with send(); returns the
 * server's next sequence number. */
struct scripted {
	struct node *c, *s;
	struct tuple st; /* the server's view */
	uint32_t seq, ack;
};

static void
scripted_open(struct scripted *x, void (*tweak)(struct dp_config *))
{
	struct tuple t;

	x->c = new_client(tweak);
	x->s = new_server(tweak);
	until_response(x->c, x->s);
	client_tuple(x->c, 0, &t);
	reverse(&t, &x->st);
	x->seq = server_sock(x->s, &t)->snd_una;
	x->ack = server_sock(x->s, &t)->rcv_nxt;
	box_clear(x->s);
}

static void
scripted_send(struct scripted *x, const char *p, uint32_t len)
{
	inject(x->c, &x->st, x->seq, x->ack, TH_ACK | TH_PSH, (const uint8_t *)p, len);
	x->seq += len;
}

/* The client's side of connection x was ended with a reset, counting
 * one skErr and one httpErr. */
static void
assert_reset_unfinished(const struct scripted *x)
{
	assert_int_equal(C(x->c, SK_ERR), 1);
	assert_int_equal(C(x->c, HTTP_ERR), 1);
	assert_int_equal(C(x->c, HTTP_2XX), 0);
	assert_idle(x->c);
}

/* A slow but steady answer: 1,000 bytes of a 20,000-byte body every
 * half retransmission timeout, 10 timeouts in all: each arriving part
 * starts the client's timer again (issue 31: aborted after 6 timeouts,
 * http2XX 0, skErr 1). */
static void
test_slow_response(void **state)
{
	static const char head[] = "HTTP/1.1 200 OK\r\nContent-Length: 20000\r\n\r\n";
	static char part[1000];
	struct scripted x;

	(void)state;
	scripted_open(&x, NULL);
	memset(part, 'x', sizeof(part));
	scripted_send(&x, head, sizeof(head) - 1);
	for (int i = 0; i < 20; i++) {
		advance(x.c, x.c->wk.tcp.tl[TL_RT].timeout / TL_PER_MS / 2);
		run_timers(x.c);
		scripted_send(&x, part, sizeof(part));
	}
	assert_int_equal(C(x.c, HTTP_2XX), 1);
	assert_int_equal(C(x.c, SK_ERR), 0);
	assert_int_equal(C(x.c, RST_TX), 0);
}

/* An unfinished response is one error whatever ends it: part of the
 * answer, then the server's RST, counts what its FIN counts
 * (test_fin_without_response) and retries running out count
 * (test_client_request_retries_exhausted): skErr and httpErr. */
static void
test_rst_mid_response(void **state)
{
	static const char part[] = "HTTP/1.1 200 OK\r\nContent-Length: 500\r\n\r\nabc";
	struct scripted x;

	(void)state;
	scripted_open(&x, NULL);
	scripted_send(&x, part, sizeof(part) - 1);
	inject(x.c, &x.st, x.seq, 0, TH_RST, NULL, 0);
	assert_int_equal(C(x.c, RST_RX), 1);
	assert_reset_unfinished(&x);
}

/* A response without Content-Length or chunked (an HTTP/1.0 server, an
 * error page) ends at the server's FIN (RFC 9112 6.3 item 8): its status
 * counts (http2XX), every byte of it is goodput, our FIN answers theirs
 * (issue 27 item 5: it was httpErr, skErr and our RST). */
static void
test_close_delimited(void **state)
{
	static const char head[] = "HTTP/1.0 200 OK\r\nServer: SimpleHTTP/0.6 Python/3.11\r\n\r\n";
	static char body[1000];
	struct scripted x;

	(void)state;
	scripted_open(&x, NULL);
	assert_int_equal(C(x.c, GOOD_RX), 0);
	memset(body, 'b', sizeof(body));
	scripted_send(&x, head, sizeof(head) - 1);
	for (int i = 0; i < 3; i++)
		scripted_send(&x, body, sizeof(body));
	assert_int_equal(C(x.c, HTTP_2XX), 0); /* not before the close */
	inject(x.c, &x.st, x.seq, x.ack, TH_ACK | TH_PSH | TH_FIN, (const uint8_t *)body, 500);
	assert_int_equal(C(x.c, HTTP_2XX), 1);
	assert_int_equal(C(x.c, HTTP_ERR), 0);
	assert_int_equal(C(x.c, SK_ERR), 0);
	assert_int_equal(C(x.c, RST_TX), 0);
	assert_int_equal(C(x.c, GOOD_RX), (sizeof(head) - 1 + 3500) * 8ULL);
	assert_int_equal(x.c->out[x.c->n_out - 1].flags, TH_FIN | TH_ACK);
	assert_int_equal(x.c->out[x.c->n_out - 1].ack, x.seq + 500 + 1);
	/* a 502 to the close is a whole response, not a success */
	free_nodes(NULL);
	scripted_open(&x, NULL);
	scripted_send(&x, "HTTP/1.1 502 Bad Gateway\r\n\r\n<html>", 34);
	inject(x.c, &x.st, x.seq, x.ack, TH_ACK | TH_FIN, NULL, 0);
	assert_int_equal(C(x.c, HTTP_ERR), 1);
	assert_int_equal(C(x.c, HTTP_2XX), 0);
	assert_int_equal(C(x.c, SK_ERR), 0);
}

/* The same response ended by the server's RST instead: unfinished, as
 * a response with a length is (one rule whatever ends it, issue 31). */
static void
test_close_delimited_rst(void **state)
{
	static const char part[] = "HTTP/1.0 200 OK\r\n\r\nsome of the body";
	struct scripted x;

	(void)state;
	scripted_open(&x, NULL);
	scripted_send(&x, part, sizeof(part) - 1);
	inject(x.c, &x.st, x.seq, 0, TH_RST, NULL, 0);
	assert_reset_unfinished(&x);
}

/* The server's FIN in the middle of a head: unfinished (httpErr). */
static void
test_fin_mid_head(void **state)
{
	static const char part[] = "HTTP/1.0 200 OK\r\nServer: x\r\n";
	struct scripted x;

	(void)state;
	scripted_open(&x, NULL);
	scripted_send(&x, part, sizeof(part) - 1);
	inject(x.c, &x.st, x.seq, x.ack, TH_ACK | TH_FIN, NULL, 0);
	assert_reset_unfinished(&x);
	assert_int_equal(C(x.c, RST_TX), 1);
}

/* Headers that never end, a line every half timeout: malformed once a
 * head runs over 64 KiB (httpErr), not a timeout (issue 31: cut after
 * 12 s as skErr alone). */
static void
test_endless_headers(void **state)
{
	static const char status[] = "HTTP/1.1 200 OK\r\n";
	static char line[1000];
	struct scripted x;
	int i;

	(void)state;
	scripted_open(&x, NULL);
	memset(line, 'a', sizeof(line));
	memcpy(line, "X-A: ", 5);
	memcpy(line + sizeof(line) - 2, "\r\n", 2);
	scripted_send(&x, status, sizeof(status) - 1);
	for (i = 0; i < 100 && x.c->wk.net.cnt.sk_cur > 0; i++) {
		advance(x.c, x.c->wk.tcp.tl[TL_RT].timeout / TL_PER_MS / 2);
		run_timers(x.c);
		scripted_send(&x, line, sizeof(line));
	}
	assert_int_equal(i, 66); /* 65,535 bytes of head at most */
	assert_int_equal(C(x.c, RST_TX), 1);
	assert_reset_unfinished(&x);
}

/* Interim responses without end (100 Continue, again and again): the
 * same bound, as they come before the final head. */
static void
test_endless_continue(void **state)
{
	static const char cont[] = "HTTP/1.1 100 Continue\r\n\r\n";
	static char batch[40 * (sizeof(cont) - 1)];
	struct scripted x;
	int i;

	(void)state;
	scripted_open(&x, NULL);
	for (i = 0; i < 40; i++)
		memcpy(batch + i * (sizeof(cont) - 1), cont, sizeof(cont) - 1);
	for (i = 0; i < 100 && x.c->wk.net.cnt.sk_cur > 0; i++) {
		advance(x.c, x.c->wk.tcp.tl[TL_RT].timeout / TL_PER_MS / 2);
		run_timers(x.c);
		scripted_send(&x, batch, sizeof(batch));
	}
	assert_true(i < 100);
	assert_int_equal(C(x.c, RST_TX), 1);
	assert_reset_unfinished(&x);
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
	assert_int_equal(c->wk.net.is_http, 0);
	assert_int_equal(s->wk.net.is_http, 0);
	assert_int_equal(c->wk.net.msg.req.len, 10);
	for (int i = 0; i < 3; i++)
		assert_int_equal(tcp_client_launch(&c->wk.net), 0);
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
	assert_int_equal(tcp_client_launch(&c->wk.net), 0);
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
		cmocka_unit_test_teardown(test_slow_response, free_nodes),
		cmocka_unit_test_teardown(test_peer_mss, free_nodes),
		cmocka_unit_test_teardown(test_rst_mid_response, free_nodes),
		cmocka_unit_test_teardown(test_close_delimited, free_nodes),
		cmocka_unit_test_teardown(test_close_delimited_rst, free_nodes),
		cmocka_unit_test_teardown(test_fin_mid_head, free_nodes),
		cmocka_unit_test_teardown(test_endless_headers, free_nodes),
		cmocka_unit_test_teardown(test_endless_continue, free_nodes),
		cmocka_unit_test_teardown(test_split_head_chunked, free_nodes),
		cmocka_unit_test_teardown(test_raw_tcp, free_nodes),
		cmocka_unit_test_teardown(test_raw_tcp_keepalive_split, free_nodes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
