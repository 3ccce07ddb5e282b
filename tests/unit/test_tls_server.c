/* SPDX-License-Identifier: BSD-3-Clause
 * Unit tests of the TLS server over our TCP (primary/tls/tls_server.c):
 * the real server worker (tcp_harness.c replaces the packet layer) against
 * OpenSSL's own client object behind memory BIOs, its flights cut into
 * segments every way (at every byte of the ClientHello, a byte a
 * segment); HTTPS and raw TLS answers, TLS 1.2 and 1.3, resumption;
 * hostile peers (a malformed record, a stall, a close mid-handshake):
 * counted by kind, no socket left, OpenSSL's heap back where it began.
 */
// links: primary/boot/worker_setup.c primary/net/vxlan.c primary/tcp/tcp_client.c primary/tcp/tcp_server.c primary/tcp/tcp_send.c primary/tcp/tcp_timeout.c primary/tcp/tcp_dack.c primary/http/http.c primary/http/http_response.c primary/http/rsp_scan.c primary/http/http_request.c primary/http/messages.c primary/boot/worker_msgs.c primary/engine/timers.c tests/unit/tcp_harness.c primary/tcp/tcp_common.c primary/tcp/tcp_ooo.c primary/tcp/tcp_sack.c primary/tcp/tcp_rtt.c primary/tls/tls_mem.c primary/tls/tls_ctx.c primary/tls/tls_conn.c primary/tls/tls_src.c primary/tls/tls_measure.c primary/tls/tls_tcp.c primary/tls/tls_server.c primary/tls/tls_client.c primary/net/lat.c primary/app/app.c primary/app/http_app.c primary/app/raw_app.c primary/state/mix.c
#include "tcp_harness.h"

#include <openssl/err.h>
#include <openssl/ssl.h>

#include "tls/tls_mem.h"
#include "tls/tls_tcp.h"

#define CERT DP_SOURCE_DIR "/build/tls/test-cert.pem"
#define KEY  DP_SOURCE_DIR "/build/tls/test-key.pem"

static struct tls_part part, part_c; /* the server's, our client's */
static struct node *our_cli;
static struct node *srv, *cli; /* cli: the tuples of a client of ours */
static int64_t mem_before;
static int warm; /* 1 once OpenSSL made its lazy globals (the first run of a test) */

/* OpenSSL's client over one connection of ours: what it writes goes to
 * the server as segments; what the server sends is read in order. */
struct peer {
	SSL_CTX *ctx;
	SSL *ssl;
	BIO *rb, *wb;
	struct tuple t;
	uint32_t seq, ack; /* next to send; next expected */
	int fin_rx, fin_tx, rst_rx;
	uint8_t *got;      /* GOT_CAP bytes: the plaintext the server sent */
	uint32_t got_len;
	uint32_t segs, segs_full; /* data segments read in order, of them mss long */
};

#define GOT_CAP (20u * 1000000u + 65536u) /* up to 20 answers of payload_size 1m */

static void
https_server(struct dp_config *c)
{
	c->protocol = DP_PROTO_HTTPS;
	snprintf(c->tls_cert, sizeof(c->tls_cert), "%s", CERT);
	snprintf(c->tls_key, sizeof(c->tls_key), "%s", KEY);
}

static void
https_ka_server(struct dp_config *c)
{
	https_server(c);
	c->keepalive = 1;
	c->tls_resume = DP_TLS_RESUME_TICKETS;
}

static void
tls_raw_server(struct dp_config *c)
{
	https_server(c);
	c->protocol = DP_PROTO_TLS;
	c->payload_size = 100;
	c->keepalive = 1;
}

static struct node *
tls_server(void (*tweak)(struct dp_config *))
{
	struct node *s = new_server(tweak);
	char err[DP_ERR_LEN];

	srv = s;
	cli = new_client(NULL);
	if (tls_part_init(&part, &s->wk.net, err, sizeof(err)) != 0)
		fail_msg("tls_part_init: %s", err);
	mem_before = tls_mem_live();
	return s;
}

static void
peer_new(struct peer *p, struct node *s, uint64_t idx, int version)
{
	memset(p, 0, sizeof(*p));
	p->got = malloc(GOT_CAP);
	assert_non_null(p->got);
	p->ctx = SSL_CTX_new(TLS_client_method());
	assert_non_null(p->ctx);
	if (version) {
		SSL_CTX_set_min_proto_version(p->ctx, version);
		SSL_CTX_set_max_proto_version(p->ctx, version);
	}
	p->ssl = SSL_new(p->ctx);
	p->rb = BIO_new(BIO_s_mem());
	p->wb = BIO_new(BIO_s_mem());
	BIO_set_mem_eof_return(p->rb, -1); /* empty: wait for more, not the end */
	BIO_set_mem_eof_return(p->wb, -1);
	SSL_set_bio(p->ssl, p->rb, p->wb);
	SSL_set_connect_state(p->ssl);
	client_tuple(cli, idx, &p->t);
	(void)s;
}

static void
peer_free(struct peer *p)
{
	SSL_free(p->ssl);
	SSL_CTX_free(p->ctx);
	free(p->got);
	p->ssl = NULL;
	p->ctx = NULL;
	p->got = NULL;
}

/* What the server sent: its data in order into the client's BIO, its FIN. */
static void
collect(struct node *s, struct peer *p)
{
	for (size_t i = 0; i < s->n_out; i++) {
		struct rec *r = &s->out[i];

		if (r->t.rport != p->t.lport)
			continue;
		if (r->flags & TH_RST)
			p->rst_rx = 1;
		if (r->flags & TH_SYN) {
			p->ack = r->seq + 1;
			continue;
		}
		if (r->len > 0 && r->seq == p->ack) {
			BIO_write(p->rb, r->data, (int)r->len);
			p->ack += r->len;
			p->segs++;
			p->segs_full += r->len == s->wk.net.mss;
		}
		if ((r->flags & TH_FIN) && r->seq + r->len == p->ack && !p->fin_rx) {
			p->ack++;
			p->fin_rx = 1;
		}
	}
	box_clear(s);
}

/* The client's pending bytes to the server, cut at cut[] (sizes of the
 * first segments; the rest in one segment, or a byte a segment with
 * cut_one). */
static void
send_pending(struct node *s, struct peer *p, uint32_t first, int one)
{
	char *data;
	long n = BIO_get_mem_data(p->wb, &data);
	uint32_t off = 0;

	while (off < (uint32_t)n) {
		uint32_t len = (uint32_t)n - off;

		if (one)
			len = 1;
		else if (off == 0 && first != 0 && first < len)
			len = first;
		inject(s, &p->t, p->seq, p->ack, TH_ACK | TH_PSH, (const uint8_t *)data + off, len);
		p->seq += len;
		off += len;
		collect(s, p);
	}
	(void)BIO_reset(p->wb);
}

/* SYN, SYN+ACK, ACK. */
static void
peer_connect(struct node *s, struct peer *p)
{
	p->seq = 1000;
	inject(s, &p->t, p->seq, 0, TH_SYN, NULL, 0);
	collect(s, p);
	assert_int_not_equal(p->ack, 0);
	p->seq++;
	inject(s, &p->t, p->seq, p->ack, TH_ACK, NULL, 0);
	collect(s, p);
}

/* The client's side until its handshake is done (or failed), the first
 * flight cut at first (a byte a segment with one). Returns SSL_do_handshake's
 * last result. */
static int
handshake(struct node *s, struct peer *p, uint32_t first, int one)
{
	int r = 0;

	for (int i = 0; i < 20; i++) {
		int e;

		r = SSL_do_handshake(p->ssl);
		e = SSL_get_error(p->ssl, r); /* before the BIOs move (it reads their flags) */
		send_pending(s, p, i == 0 ? first : 0, one);
		if (r == 1 || e != SSL_ERROR_WANT_READ)
			break;
		inject(s, &p->t, p->seq, p->ack, TH_ACK, NULL, 0); /* our ACK of its flight */
		collect(s, p);
	}
	return r;
}

/* The plaintext the server sent, read until nothing more comes. */
static void
read_plain(struct node *s, struct peer *p)
{
	for (int round = 0; round < 10000;) { /* ends when nothing more comes */
		int n = SSL_read(p->ssl, p->got + p->got_len, (int)(GOT_CAP - p->got_len));

		if (n > 0) {
			p->got_len += (uint32_t)n;
			continue;
		}
		round++; /* our ACK of what came: the server's next window */
		send_pending(s, p, 0, 0); /* a TLS 1.3 client writes nothing here; ACKs below */
		inject(s, &p->t, p->seq, p->ack, TH_ACK, NULL, 0);
		collect(s, p);
		if (BIO_ctrl_pending(p->rb) == 0)
			break;
	}
}

/* The client's FIN after the server's, and our ACK of it. */
static void
peer_close(struct node *s, struct peer *p)
{
	if (!p->fin_tx) {
		inject(s, &p->t, p->seq, p->ack, TH_ACK | TH_FIN, NULL, 0);
		p->seq++;
		p->fin_tx = 1;
	}
	collect(s, p);
	inject(s, &p->t, p->seq, p->ack, TH_ACK, NULL, 0);
	collect(s, p);
}

static void
assert_gone(struct node *s)
{
	assert_int_equal(open_sockets(s), 0);
	assert_int_equal(s->bad_sums, 0);
	for (uint64_t i = 0; i < part.n_conn; i++)
		assert_null(part.conn[i].ssl);
}

/* Every connection holding an SSL lies below n_opened (what
 * tls_part_fini scans) and some do when any was opened. */
static void
assert_opened_below(const struct tls_part *p)
{
	for (uint64_t i = p->n_opened; i < p->n_conn; i++)
		if (p->conn[i].ssl != NULL)
			fail_msg("connection %llu holds an SSL above n_opened %llu", (unsigned long long)i,
				 (unsigned long long)p->n_opened);
}

static int
teardown(void **state)
{
	int64_t live;

	/* the client's saved session (one per worker, to resume) and the
	 * copy of it its connections offer are not a connection's */
	SSL_SESSION_free(part_c.side.sess);
	part_c.side.sess = NULL;
	SSL_SESSION_free(part_c.side.offer);
	part_c.side.offer = NULL;
	live = tls_mem_live();
	/* tls_part_fini frees the connections below n_opened only */
	assert_opened_below(&part);
	if (our_cli != NULL)
		assert_opened_below(&part_c);
	tls_part_fini(&part, &srv->wk.net);
	if (our_cli != NULL)
		tls_part_fini(&part_c, &our_cli->wk.net);
	our_cli = NULL;
	free_nodes(state);
	/* every connection's memory (the server's and the client's) back:
	 * OpenSSL's heap as it was once the worker's side was made */
	if (warm && live > mem_before)
		fail_msg("OpenSSL holds %lld bytes more than before the connections",
			 (long long)(live - mem_before));
	return 0;
}

static const char get[] = "GET / HTTP/1.1\r\nHost: dperf\r\n\r\n";

/* One HTTPS exchange on a new connection; returns the client. */
static void
https_get(struct node *s, struct peer *p, uint64_t idx, int version, uint32_t first, int one)
{
	peer_new(p, s, idx, version);
	peer_connect(s, p);
	assert_int_equal(handshake(s, p, first, one), 1);
	assert_opened_below(&part); /* its SSL, held, where tls_part_fini looks */
	assert_int_equal(SSL_write(p->ssl, get, sizeof(get) - 1), (int)sizeof(get) - 1);
	send_pending(s, p, 0, one);
	read_plain(s, p);
}

/* A GET answered with the response template, exactly; the server closes
 * with close_notify then FIN; nothing left. TLS 1.2 and 1.3. */
static void
test_https_get(void **state)
{
	struct node *s = tls_server(https_server);
	int versions[] = { TLS1_3_VERSION, TLS1_2_VERSION };

	(void)state;
	for (int v = 0; v < 2; v++) {
		struct peer p;

		https_get(s, &p, (uint64_t)v, versions[v], 0, 0);
		assert_int_equal(SSL_version(p.ssl), versions[v]);
		assert_int_equal(p.got_len, s->wk.net.msg.rsp_close.len);
		assert_memory_equal(p.got, s->wk.net.msg.rsp_close.data, p.got_len);
		assert_true(p.fin_rx);
		assert_int_equal(SSL_get_shutdown(p.ssl) & SSL_RECEIVED_SHUTDOWN, SSL_RECEIVED_SHUTDOWN);
		peer_close(s, &p);
		peer_free(&p);
	}
	assert_int_equal(C(s, TLS_HS), 2);
	assert_int_equal(C(s, TLS_HS_DONE), 2);
	assert_int_equal(C(s, HTTP_GET), 2);
	assert_int_equal(C(s, HTTP_2XX), 2);
	assert_int_equal(C(s, TLS_ERR) + C(s, TLS_F_PROTO) + C(s, TLS_F_EOF) + C(s, SK_ERR), 0);
	assert_gone(s);
}

static void
https_big_server(struct dp_config *c)
{
	https_server(c);
	c->payload_size = 40000; /* an answer over many segments and four records (tls_plan.h) */
}

/* An answer longer than a segment (the template's segments, msg_segment)
 * written as records: the client reads it whole, byte for byte. */
static void
test_https_big_answer(void **state)
{
	struct node *s = tls_server(https_big_server);
	const struct msg *m = &s->wk.net.msg.rsp_close;
	struct peer p;
	struct msg seg;

	(void)state;
	assert_non_null(m->seg_sum);
	https_get(s, &p, 0, TLS1_3_VERSION, 0, 0);
	assert_int_equal(p.got_len, m->len);
	for (uint32_t k = 0; (uint64_t)k * s->wk.net.mss < m->len; k++) {
		msg_segment(m, s->wk.net.mss, k, &seg);
		assert_memory_equal(p.got + (size_t)k * s->wk.net.mss, seg.data, seg.len);
	}
	assert_true(p.fin_rx);
	peer_close(s, &p);
	peer_free(&p);
	assert_int_equal(C(s, HTTP_2XX), 1);
	assert_gone(s);
}

/* ---- pipelined requests behind answers over several segments ----
 * The plain server's tests (test_tcp_pipe.c) over HTTPS: the same queue,
 * the same answers, byte for byte, the same counters. */

static void
https_pipe_server(struct dp_config *c)
{
	https_server(c);
	c->keepalive = 1;
	c->payload_size = 1000000; /* payload_size 1m: 686 segments an answer over TLS 1.3 */
}

/* The plaintext the client holds now (no ACK sent: the rest on its way). */
static void
read_now(struct peer *p)
{
	int n;

	while ((n = SSL_read(p->ssl, p->got + p->got_len, (int)(GOT_CAP - p->got_len))) > 0)
		p->got_len += (uint32_t)n;
}

/* The client writes these requests as one record, sent in one segment. */
static void
peer_ask(struct node *s, struct peer *p, const char *req, uint32_t len)
{
	assert_int_equal(SSL_write(p->ssl, req, (int)len), (int)len);
	send_pending(s, p, 0, 0);
}

/* The plaintext received is these answers, in order, byte for byte (each
 * from its template's segments, msg_segment, as the sender cuts it). */
static void
assert_answers(const struct node *s, const struct peer *p, const struct msg *const *m, int n)
{
	uint32_t off = 0, mss = s->wk.net.mss;
	struct msg seg;

	for (int i = 0; i < n; i++) {
		assert_true(off + m[i]->len <= p->got_len);
		if (m[i]->seg_sum == NULL) {
			assert_memory_equal(p->got + off, m[i]->data, m[i]->len);
		} else {
			for (uint32_t k = 0; (uint64_t)k * mss < m[i]->len; k++) {
				msg_segment(m[i], mss, k, &seg);
				assert_memory_equal(p->got + off + (size_t)k * mss, seg.data, seg.len);
			}
		}
		off += m[i]->len;
	}
	assert_int_equal(p->got_len, off);
}

/* A connection of ours with its handshake done, TLS 1.2 or 1.3. */
static void
pipe_peer(struct node *s, struct peer *p, uint64_t idx, int version)
{
	peer_new(p, s, idx, version);
	peer_connect(s, p);
	assert_int_equal(handshake(s, p, 0, 0), 1);
}

/* No failure of any kind, the connection open. */
static void
assert_pipe_clean(struct node *s, const struct peer *p)
{
	assert_int_equal(C(s, PIPE_FULL) + C(s, HTTP_ERR) + C(s, TLS_ERR) + C(s, SK_ERR), 0);
	assert_int_equal(C(s, TLS_F_INTERNAL) + C(s, TLS_F_PROTO), 0);
	assert_false(p->fin_rx);
	assert_false(p->rst_rx);
	assert_int_equal(server_sock(s, &p->t)->state, SK_ESTABLISHED);
	assert_int_equal(server_sock(s, &p->t)->pend_n, 0);
}

/* The client's close_notify: ours, our FIN; nothing left. */
static void
pipe_close(struct node *s, struct peer *p)
{
	SSL_shutdown(p->ssl);
	send_pending(s, p, 0, 0);
	read_plain(s, p);
	assert_true(p->fin_rx);
	peer_close(s, p);
	peer_free(p);
	assert_gone(s);
}

#define PGET "GET / HTTP/1.1\r\nHost: x\r\n\r\n"

/* Two GETs for 1 MB answers in one record: both answered, in order,
 * byte for byte; httpGet 2, http2XX 2 (TLS 1.3 and 1.2). */
static void
test_https_pipe_two_in_one_record(void **state)
{
	struct node *s = tls_server(https_pipe_server);
	const struct msg *ka = &s->wk.net.msg.rsp_ka;
	int versions[] = { TLS1_3_VERSION, TLS1_2_VERSION };

	(void)state;
	assert_non_null(ka->seg_sum); /* an answer over several segments */
	for (int v = 0; v < 2; v++) {
		struct peer p;

		pipe_peer(s, &p, (uint64_t)v, versions[v]);
		peer_ask(s, &p, PGET PGET, 2 * (sizeof(PGET) - 1));
		assert_int_equal(C(s, HTTP_GET), 2 * (v + 1));
		read_plain(s, &p);
		assert_answers(s, &p, (const struct msg *[]){ ka, ka }, 2);
		assert_int_equal(C(s, HTTP_2XX), 2 * (v + 1));
		assert_pipe_clean(s, &p);
		pipe_close(s, &p);
	}
}

/* Five GETs in one record: five answers, each begun once the one before
 * is acknowledged, so the connection holds one answer's records at a time
 * (all five at once are more than a connection may hold, TLS_OUT_MAX: the
 * fifth failed as tlsErr, counted in httpGet and never answered). */
static void
test_https_pipe_five_in_one_record(void **state)
{
	struct node *s = tls_server(https_pipe_server);
	const struct msg *ka = &s->wk.net.msg.rsp_ka;
	struct peer p;

	(void)state;
	pipe_peer(s, &p, 0, TLS1_2_VERSION);
	peer_ask(s, &p, PGET PGET PGET PGET PGET, 5 * (sizeof(PGET) - 1));
	assert_int_equal(C(s, HTTP_GET), 5);
	read_plain(s, &p);
	assert_int_equal(p.got_len, 5 * ka->len);
	assert_answers(s, &p, (const struct msg *[]){ ka, ka, ka, ka, ka }, 5);
	assert_int_equal(C(s, HTTP_2XX), 5);
	assert_pipe_clean(s, &p);
	pipe_close(s, &p);
}

/* A GET, then two GETs in one record while its answer is mid-way: three
 * answers, in order, byte for byte. */
static void
test_https_pipe_during_answer(void **state)
{
	struct node *s = tls_server(https_pipe_server);
	const struct msg *ka = &s->wk.net.msg.rsp_ka;
	struct peer p;

	(void)state;
	pipe_peer(s, &p, 0, TLS1_3_VERSION);
	peer_ask(s, &p, PGET, sizeof(PGET) - 1);
	read_now(&p); /* the first flight, not acknowledged */
	assert_true(p.got_len > 0 && p.got_len < ka->len);
	peer_ask(s, &p, PGET PGET, 2 * (sizeof(PGET) - 1));
	assert_int_equal(C(s, HTTP_GET), 3);
	read_plain(s, &p);
	assert_answers(s, &p, (const struct msg *[]){ ka, ka, ka }, 3);
	assert_int_equal(C(s, HTTP_2XX), 3);
	assert_pipe_clean(s, &p);
	pipe_close(s, &p);
}

/* A 1 MB answer's records after the first are written as the sender cuts
 * them (tls_write_later, tls_fill): after the first flight the
 * connection's buffer has the whole answer's length but holds written
 * only what went and at most one record more; read whole, byte for byte.
 * Then a second answer cut short by the client's close_notify mid-way:
 * the rest of its records written before our close_notify, which follows
 * the answer's last byte, then our FIN (TLS 1.3 and 1.2). */
static void
test_https_records_as_sent(void **state)
{
	static const int versions[] = { TLS1_3_VERSION, TLS1_2_VERSION };

	(void)state;
	for (size_t v = 0; v < 2; v++) {
		struct node *s = tls_server(https_pipe_server);
		const struct msg *ka = &s->wk.net.msg.rsp_ka;
		const struct sock *sk;
		const struct tls_conn *c;
		uint32_t sent, ovh;
		struct peer p;

		pipe_peer(s, &p, 0, versions[v]);
		sk = server_sock(s, &p.t);
		c = tls_conn_of(&s->wk.net, sk);
		ovh = tls_record_overhead(c);
		assert_int_equal(ovh, versions[v] == TLS1_3_VERSION ? 22 : 29);
		for (int round = 0; round < 2; round++) {
			peer_ask(s, &p, PGET, sizeof(PGET) - 1);
			sent = sk->snd_nxt - sk_snd_of(&s->wk.net, sk)->base;
			assert_true(sent > 0 && sent < ka->len / 2); /* the windows: a part of it */
			assert_true(c->out_len >= ka->len + 62 * ovh);
			if (c->fill < sent || c->fill > sent + TLS_RECORD_PLAIN_MAX + ovh)
				fail_msg("TLS 1.%d: %u bytes of records written, %u sent, %u planned (expected what "
					 "went and at most one record more)", versions[v] == TLS1_3_VERSION ? 3 : 2,
					 c->fill, sent, c->out_len);
			if (round == 0) {
				read_plain(s, &p);
				assert_int_equal(c->fill, c->out_len);
				assert_answers(s, &p, (const struct msg *[]){ ka }, 1);
				continue;
			}
			read_now(&p); /* the first flight, not acknowledged */
			assert_true(p.got_len < 2 * ka->len);
			SSL_shutdown(p.ssl); /* our close_notify mid-answer */
			send_pending(s, &p, 0, 0);
			assert_int_equal(c->fill, c->out_len);
			read_plain(s, &p);
			assert_true(p.fin_rx);
			assert_int_equal(SSL_get_shutdown(p.ssl) & SSL_RECEIVED_SHUTDOWN, SSL_RECEIVED_SHUTDOWN);
			assert_answers(s, &p, (const struct msg *[]){ ka, ka }, 2);
		}
		assert_int_equal(C(s, HTTP_2XX), 2);
		assert_int_equal(C(s, TLS_ERR) + C(s, TLS_F_INTERNAL) + C(s, TLS_F_PROTO), 0);
		peer_close(s, &p);
		peer_free(&p);
		assert_gone(s);
		if (v == 0)
			teardown(NULL); /* the last one's: cmocka's */
	}
}

/* GET, HEAD, GET in one record: the HEAD's head alone between two whole
 * answers; then a bad request behind a GET: the GET's answer, 400, our
 * close_notify and FIN (what follows the bad request is not read). */
static void
test_https_pipe_head_and_bad(void **state)
{
	static const char mixed[] = PGET "HEAD / HTTP/1.1\r\nHost: x\r\n\r\n" PGET;
	static const char bad[] = PGET "BREW / HTTP/1.1\r\n\r\n" PGET;
	struct node *s = tls_server(https_pipe_server);
	const struct msg *ka = &s->wk.net.msg.rsp_ka, *head = &s->wk.net.msg.rsp_head_ka;
	const struct msg *b = &s->wk.net.msg.rsp_bad;
	struct peer p;

	(void)state;
	pipe_peer(s, &p, 0, TLS1_3_VERSION);
	peer_ask(s, &p, mixed, sizeof(mixed) - 1);
	read_plain(s, &p);
	assert_answers(s, &p, (const struct msg *[]){ ka, head, ka }, 3);
	assert_int_equal(C(s, HTTP_GET), 3);
	assert_int_equal(C(s, HTTP_2XX), 3);
	assert_pipe_clean(s, &p);
	p.got_len = 0;
	peer_ask(s, &p, bad, sizeof(bad) - 1);
	read_plain(s, &p);
	assert_answers(s, &p, (const struct msg *[]){ ka, b }, 2);
	assert_true(p.fin_rx);
	assert_int_equal(C(s, HTTP_GET), 4);
	assert_int_equal(C(s, HTTP_ERR), 1);
	assert_int_equal(C(s, HTTP_2XX), 4);
	assert_int_equal(C(s, TLS_ERR) + C(s, PIPE_FULL), 0);
	peer_close(s, &p);
	peer_free(&p);
	assert_gone(s);
}

/* Two GETs in one record, then the client's FIN (no close_notify): both
 * answered, then our close_notify and FIN after the last, as the plain
 * server closes after its last answer waiting. */
static void
test_https_pipe_then_fin(void **state)
{
	struct node *s = tls_server(https_pipe_server);
	const struct msg *ka = &s->wk.net.msg.rsp_ka;
	struct peer p;

	(void)state;
	pipe_peer(s, &p, 0, TLS1_3_VERSION);
	peer_ask(s, &p, PGET PGET, 2 * (sizeof(PGET) - 1));
	inject(s, &p.t, p.seq, p.ack, TH_ACK | TH_FIN, NULL, 0);
	p.seq++;
	p.fin_tx = 1;
	collect(s, &p);
	assert_int_equal(server_sock(s, &p.t)->pend_n, 1);
	read_plain(s, &p);
	assert_answers(s, &p, (const struct msg *[]){ ka, ka }, 2);
	assert_true(p.fin_rx);
	assert_int_equal(SSL_get_shutdown(p.ssl) & SSL_RECEIVED_SHUTDOWN, SSL_RECEIVED_SHUTDOWN);
	assert_int_equal(C(s, HTTP_GET), 2);
	assert_int_equal(C(s, HTTP_2XX), 2);
	assert_int_equal(C(s, PIPE_FULL) + C(s, HTTP_ERR) + C(s, TLS_ERR) + C(s, SK_ERR), 0);
	peer_close(s, &p);
	peer_free(&p);
	assert_gone(s);
}

/* A GET asking to close, then a GET, in one record: both answered (the
 * close is known as they are counted: both with the closing template, as
 * the plain server's tcp_server_answer picks, which reads the first
 * request's Connection header), our close_notify and FIN after the second
 * answer, not after the first. */
static void
test_https_pipe_close_request(void **state)
{
	static const char reqs[] = "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n" PGET;
	struct node *s = tls_server(https_pipe_server);
	const struct msg *cl = &s->wk.net.msg.rsp_close;
	struct peer p;

	(void)state;
	pipe_peer(s, &p, 0, TLS1_3_VERSION);
	peer_ask(s, &p, reqs, sizeof(reqs) - 1);
	assert_int_equal(server_sock(s, &p.t)->pend_n, 1);
	read_plain(s, &p);
	assert_answers(s, &p, (const struct msg *[]){ cl, cl }, 2);
	assert_true(p.fin_rx);
	assert_int_equal(SSL_get_shutdown(p.ssl) & SSL_RECEIVED_SHUTDOWN, SSL_RECEIVED_SHUTDOWN);
	assert_int_equal(C(s, HTTP_GET), 2);
	assert_int_equal(C(s, HTTP_2XX), 2);
	assert_int_equal(C(s, PIPE_FULL) + C(s, HTTP_ERR) + C(s, TLS_ERR) + C(s, SK_ERR), 0);
	peer_close(s, &p);
	peer_free(&p);
	assert_gone(s);
}

/* The room, as over plain HTTP: 17 GETs in one record fit (the first is
 * answered at once, 16 wait), and are all answered; two more while 16
 * wait are pipeFull and the connection is reset. */
static void
test_https_pipe_full(void **state)
{
	char reqs[17 * (sizeof(PGET) - 1) + 1];
	struct node *s = tls_server(https_pipe_server);
	const struct msg *ka = &s->wk.net.msg.rsp_ka;
	struct peer p;

	(void)state;
	for (int i = 0; i < 17; i++)
		memcpy(reqs + i * (sizeof(PGET) - 1), PGET, sizeof(PGET) - 1);
	pipe_peer(s, &p, 0, TLS1_3_VERSION);
	peer_ask(s, &p, reqs, 17 * (sizeof(PGET) - 1));
	assert_int_equal(server_sock(s, &p.t)->pend_n, 16);
	assert_int_equal(C(s, PIPE_FULL), 0);
	read_plain(s, &p);
	assert_answers(s, &p, (const struct msg *[]){ ka, ka, ka, ka, ka, ka, ka, ka, ka, ka, ka, ka, ka, ka,
						      ka, ka, ka }, 17);
	assert_int_equal(C(s, HTTP_2XX), 17);
	assert_pipe_clean(s, &p);
	/* now 17 again, and two more behind them in a second record */
	peer_ask(s, &p, reqs, 17 * (sizeof(PGET) - 1));
	peer_ask(s, &p, PGET PGET, 2 * (sizeof(PGET) - 1));
	assert_int_equal(C(s, PIPE_FULL), 2);
	assert_int_equal(C(s, HTTP_GET), 36);
	assert_true(p.rst_rx);
	assert_int_equal(open_sockets(s), 0);
	peer_free(&p);
	assert_gone(s);
}


/* ---- records sized to the segments (issue 38) ---- */

static uint32_t seg_answer_size;

static void
https_seg_server(struct dp_config *c)
{
	https_server(c);
	c->keepalive = 1;
	c->tls_resume = DP_TLS_RESUME_NONE; /* no ticket after the handshake */
	c->payload_size = seg_answer_size;
}

/* Segments per answer, through the real server: an answer of L bytes takes
 * the fewest segments 16 KB records allow, ceil((L + ceil(L / 16384) x
 * ovh) / mss), every one full but the last (TLS 1.3: ovh 22, TLS 1.2
 * AES-GCM: 29): 1460 bytes two (1482 bytes of ciphertext: no cut makes
 * one), 2898 bytes two (a record filling both; one record per segment made
 * three), 1 MB 686 with TLS 1.3 (records of a segment: 696), byte for byte. */
static void
test_https_segments_per_answer(void **state)
{
	static const uint32_t sizes[] = { 1460, 2898, 1000000 };
	static const struct {
		int version;
		uint32_t ovh;
	} vs[] = { { TLS1_3_VERSION, 22 }, { TLS1_2_VERSION, 29 } };

	(void)state;
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		for (size_t v = 0; v < 2; v++) {
			struct node *s;
			const struct msg *m;
			struct peer p;
			uint32_t mss, want, recs;

			seg_answer_size = sizes[i];
			s = tls_server(https_seg_server);
			m = &s->wk.net.msg.rsp_ka;
			mss = s->wk.net.mss;
			assert_int_equal(m->len, sizes[i]);
			peer_new(&p, s, 0, vs[v].version);
			peer_connect(s, &p);
			assert_int_equal(handshake(s, &p, 0, 0), 1);
			assert_int_equal(SSL_version(p.ssl), vs[v].version);
			p.segs = p.segs_full = 0; /* the answer's segments only */
			assert_int_equal(SSL_write(p.ssl, get, sizeof(get) - 1), (int)sizeof(get) - 1);
			send_pending(s, &p, 0, 0);
			read_plain(s, &p);
			assert_int_equal(p.got_len, m->len);
			assert_memory_equal(p.got, m->data, m->len);
			recs = (m->len + TLS_RECORD_PLAIN_MAX - 1) / TLS_RECORD_PLAIN_MAX;
			want = (m->len + recs * vs[v].ovh + mss - 1) / mss;
			if (p.segs != want || p.segs_full < want - 1)
				fail_msg("%u bytes, TLS 1.%d: %u segments, %u of them full (expected %u, at least %u full)",
					 m->len, vs[v].version == TLS1_3_VERSION ? 3 : 2, p.segs, p.segs_full, want,
					 want - 1);
			assert_int_equal(C(s, HTTP_2XX), 1);
			pipe_close(s, &p);
			if (i + 1 < sizeof(sizes) / sizeof(sizes[0]) || v + 1 < 2)
				teardown(NULL); /* the last one's: cmocka's */
		}
}

/* The ClientHello cut in two at every byte, then a byte a segment. */
static void
test_https_splits(void **state)
{
	struct node *s = tls_server(https_server);
	struct peer p;
	uint32_t hello, n = 0;

	(void)state;
	peer_new(&p, s, 0, TLS1_2_VERSION);
	SSL_do_handshake(p.ssl);
	hello = (uint32_t)BIO_ctrl_pending(p.wb);
	peer_free(&p);
	assert_true(hello > 100);
	for (uint32_t k = 1; k < hello; k += (k < 16 || k > hello - 16) ? 1 : 7, n++) {
		https_get(s, &p, n % N_LPORT, TLS1_2_VERSION, k, 0);
		assert_int_equal(p.got_len, s->wk.net.msg.rsp_close.len);
		peer_close(s, &p);
		peer_free(&p);
	}
	https_get(s, &p, n++ % N_LPORT, TLS1_3_VERSION, 0, 1);
	assert_int_equal(p.got_len, s->wk.net.msg.rsp_close.len);
	peer_close(s, &p);
	peer_free(&p);
	assert_int_equal(C(s, TLS_HS_DONE), n);
	assert_int_equal(C(s, HTTP_2XX), n);
	assert_gone(s);
}

/* Keepalive: two requests on one connection; a ticket resumes the next. */
static void
test_https_keepalive_resume(void **state)
{
	struct node *s = tls_server(https_ka_server);
	SSL_SESSION *sess;
	struct peer p;

	(void)state;
	https_get(s, &p, 0, TLS1_3_VERSION, 0, 0);
	assert_int_equal(p.got_len, s->wk.net.msg.rsp_ka.len);
	assert_false(p.fin_rx);
	SSL_write(p.ssl, get, sizeof(get) - 1);
	send_pending(s, &p, 0, 0);
	read_plain(s, &p);
	assert_int_equal(p.got_len, 2 * s->wk.net.msg.rsp_ka.len);
	sess = SSL_get1_session(p.ssl);
	assert_non_null(sess);
	/* the client closes: its close_notify, our close_notify and FIN */
	SSL_shutdown(p.ssl);
	send_pending(s, &p, 0, 0);
	assert_true(p.fin_rx);
	peer_close(s, &p);
	peer_free(&p);

	peer_new(&p, s, 1, TLS1_3_VERSION);
	SSL_set_session(p.ssl, sess);
	peer_connect(s, &p);
	assert_int_equal(handshake(s, &p, 0, 0), 1);
	assert_true(SSL_session_reused(p.ssl));
	SSL_SESSION_free(sess);
	SSL_shutdown(p.ssl);
	send_pending(s, &p, 0, 0);
	peer_close(s, &p);
	peer_free(&p);
	assert_int_equal(C(s, TLS_HS_DONE), 2);
	assert_int_equal(C(s, TLS_RESUMED), 1);
	assert_int_equal(C(s, HTTP_2XX), 2);
	assert_int_equal(C(s, IDLE_CLOSE), 0);
	assert_gone(s);
}

/* protocol tls: raw records of payload_size, answered one for one. */
static void
test_tls_raw(void **state)
{
	struct node *s = tls_server(tls_raw_server);
	uint8_t msg[200];
	struct peer p;

	(void)state;
	memset(msg, 'q', sizeof(msg));
	peer_new(&p, s, 0, 0);
	peer_connect(s, &p);
	assert_int_equal(handshake(s, &p, 0, 0), 1);
	SSL_write(p.ssl, msg, 60);
	send_pending(s, &p, 0, 0);
	read_plain(s, &p);
	assert_int_equal(p.got_len, 0); /* 60 of 100 bytes: no request yet */
	SSL_write(p.ssl, msg, 100 + 40);
	send_pending(s, &p, 0, 0);
	read_plain(s, &p);
	assert_int_equal(p.got_len, 200);
	assert_int_equal(C(s, TCP_REQ), 2);
	assert_int_equal(C(s, TCP_RSP), 2);
	SSL_shutdown(p.ssl);
	send_pending(s, &p, 0, 0);
	peer_close(s, &p);
	peer_free(&p);
	assert_gone(s);
}

/* Hostile: plaintext HTTP to the TLS port is a malformed record: our
 * alert and FIN, counted as tlsFailProto. */
static void
test_hostile_not_tls(void **state)
{
	struct node *s = tls_server(https_server);
	struct peer p;

	(void)state;
	peer_new(&p, s, 0, 0);
	peer_connect(s, &p);
	inject(s, &p.t, p.seq, p.ack, TH_ACK | TH_PSH, (const uint8_t *)get, sizeof(get) - 1);
	p.seq += sizeof(get) - 1;
	collect(s, &p);
	assert_true(p.fin_rx); /* no alert: OpenSSL sends none to a plaintext HTTP request */
	peer_close(s, &p);
	peer_free(&p);
	assert_int_equal(C(s, TLS_HS), 1);
	assert_int_equal(C(s, TLS_F_PROTO), 1);
	assert_int_equal(C(s, TLS_HS_DONE) + C(s, HTTP_GET), 0);
	assert_gone(s);
}

/* Hostile: a record whose tag does not verify, after the handshake:
 * our bad_record_mac alert, our FIN, tlsErr (not a handshake failure). */
static void
test_hostile_bad_record(void **state)
{
	struct node *s = tls_server(https_server);
	struct peer p;
	char *data;
	long n;

	(void)state;
	peer_new(&p, s, 0, TLS1_3_VERSION);
	peer_connect(s, &p);
	assert_int_equal(handshake(s, &p, 0, 0), 1);
	SSL_write(p.ssl, get, sizeof(get) - 1);
	n = BIO_get_mem_data(p.wb, &data);
	assert_true(n > 30);
	data[n - 1] ^= 0x40; /* the tag's last byte */
	send_pending(s, &p, 0, 0);
	assert_true(p.fin_rx);
	assert_true(BIO_ctrl_pending(p.rb) >= 7); /* the alert record */
	n = SSL_read(p.ssl, p.got, (int)GOT_CAP);
	assert_true(n <= 0);
	assert_int_equal(SSL_get_error(p.ssl, (int)n), SSL_ERROR_SSL); /* it read our fatal alert */
	assert_int_equal(ERR_GET_REASON(ERR_peek_last_error()), SSL_R_SSLV3_ALERT_BAD_RECORD_MAC);
	ERR_clear_error();
	peer_close(s, &p);
	peer_free(&p);
	assert_int_equal(C(s, TLS_HS_DONE), 1);
	assert_int_equal(C(s, TLS_ERR), 1);
	assert_int_equal(C(s, TLS_F_PROTO) + C(s, HTTP_GET) + C(s, HTTP_2XX), 0);
	assert_gone(s);
}

/* Hostile: a ClientHello cut short, then nothing: the idle timeout ends
 * it as a stalled handshake. */
static void
test_hostile_stall(void **state)
{
	struct node *s = tls_server(https_server);
	struct peer p;
	char *data;

	(void)state;
	peer_new(&p, s, 0, 0);
	peer_connect(s, &p);
	SSL_do_handshake(p.ssl);
	BIO_get_mem_data(p.wb, &data);
	inject(s, &p.t, p.seq, p.ack, TH_ACK | TH_PSH, (const uint8_t *)data, 20);
	collect(s, &p);
	for (int i = 0; i < 3 + DP_MAX_RETRIES && open_sockets(s) > 0; i++) {
		advance(s, s->wk.tcp.tl[TL_IDLE].timeout / TL_PER_MS);
		run_timers(s);
		box_clear(s);
	}
	peer_free(&p);
	assert_int_equal(C(s, TLS_F_TIMEOUT), 1);
	assert_int_equal(C(s, TLS_F_EOF), 0);
	assert_gone(s);
}

/* Hostile: the peer closes mid-handshake, by FIN and by RST. */
static void
test_hostile_close_mid_handshake(void **state)
{
	struct node *s = tls_server(https_server);
	struct peer p;

	(void)state;
	for (int rst = 0; rst < 2; rst++) {
		peer_new(&p, s, (uint64_t)rst, 0);
		peer_connect(s, &p);
		SSL_do_handshake(p.ssl);
		send_pending(s, &p, 0, 0); /* the ClientHello: the server's flight comes back */
		inject(s, &p.t, p.seq, p.ack, rst ? TH_RST | TH_ACK : TH_FIN | TH_ACK, NULL, 0);
		p.seq++;
		p.fin_tx = 1;
		collect(s, &p);
		if (!rst)
			peer_close(s, &p);
		peer_free(&p);
	}
	assert_int_equal(C(s, TLS_F_EOF), 2);
	assert_int_equal(C(s, TLS_HS_DONE), 0);
	assert_gone(s);
}

/* Our TLS client (tls_client.c) against our TLS server, back to back. */
static struct node *
tls_client(void (*tweak)(struct dp_config *))
{
	struct node *c = new_client(tweak);
	char err[DP_ERR_LEN];

	if (tls_part_init(&part_c, &c->wk.net, err, sizeof(err)) != 0)
		fail_msg("tls_part_init (client): %s", err);
	our_cli = c;
	mem_before = tls_mem_live();
	return c;
}

static void
https_ka_client(struct dp_config *c)
{
	c->protocol = DP_PROTO_HTTPS;
	c->keepalive = 1;
	c->keepalive_request_num = 3;
	c->keepalive_request_interval_us = 0;
	c->tls_resume = DP_TLS_RESUME_TICKETS;
}

/* Three connections of three requests each: every handshake completes,
 * the second and third resume the first's session (a ticket), each
 * request answered on both sides, all closed (close_notify, FIN). */
static void
test_client_against_server(void **state)
{
	struct node *s = tls_server(https_ka_server), *c = tls_client(https_ka_client);
	static struct dp_worker_lat lat_c, lat_s;

	(void)state;
	memset(&lat_c, 0, sizeof(lat_c));
	memset(&lat_s, 0, sizeof(lat_s));
	c->wk.net.lat = &lat_c;
	s->wk.net.lat = &lat_s;
	for (int i = 0; i < 3; i++) {
		assert_int_equal(tcp_client_launch(&c->wk.net), 0);
		pump(c, s);
	}
	assert_int_equal(C(c, TLS_HS), 3);
	assert_int_equal(C(c, TLS_HS_DONE), 3);
	assert_int_equal(C(s, TLS_HS_DONE), 3);
	assert_int_equal(C(c, TLS_RESUMED), 2);
	assert_int_equal(C(s, TLS_RESUMED), 2);
	assert_int_equal(C(c, HTTP_GET), 9);
	assert_int_equal(C(c, HTTP_2XX), 9);
	assert_int_equal(C(s, HTTP_2XX), 9);
	assert_int_equal(C(c, SK_ERR) + C(c, HTTP_ERR) + C(c, TLS_ERR) + C(s, TLS_ERR), 0);
	/* each handshake's time recorded once, on both sides (tls_hs_done) */
	assert_int_equal(lat_c.h[DP_LAT_TLS_HS].count, 3);
	assert_int_equal(lat_s.h[DP_LAT_TLS_HS].count, 3);
	c->wk.net.lat = s->wk.net.lat = NULL;
	assert_int_equal(open_sockets(c), 0);
	assert_int_equal(c->bad_sums, 0);
	assert_gone(s);
}

static void
https_ka_slow_client(struct dp_config *c)
{
	https_ka_client(c);
	c->keepalive_request_num = 0;
	c->keepalive_request_interval_us = 1000000; /* idle on the keepalive timer between */
	c->tls_version = 12;                        /* alerts in the clear: close_notify seen */
}

/* A graceful stop closes the client's idle keepalive connections (the
 * engine's loop: tcp_client_close_idle) with close_notify, then FIN. */
static void
test_client_stop_closes_idle(void **state)
{
	struct node *s = tls_server(https_ka_server), *c = tls_client(https_ka_slow_client);
	size_t notify = 0;

	(void)state;
	for (int i = 0; i < 2; i++) {
		assert_int_equal(tcp_client_launch(&c->wk.net), 0);
		pump(c, s);
	}
	assert_int_equal(C(c, HTTP_2XX), 2);
	assert_int_equal(c->wk.tcp.tl[TL_KA].count, 2);
	c->wk.net.stopping = 1;
	while (c->wk.tcp.tl[TL_KA].head) { /* as engine/worker.c does at a stop */
		uint32_t idx = c->wk.tcp.tl[TL_KA].head - 1;

		tl_remove(&c->wk.net, &c->wk.net.skt.sk[idx]);
		tcp_client_close_idle(&c->wk.net, idx);
	}
	for (size_t i = 0; i < c->n_out; i++) /* an alert record (21), TLS 1.2 */
		notify += c->out[i].len >= 7 && c->out[i].data[0] == 21 && c->out[i].data[1] == 3;
	assert_int_equal(notify, 2);
	pump(c, s);
	assert_int_equal(open_sockets(c), 0);
	assert_int_equal(C(c, SK_ERR) + C(c, TLS_ERR) + C(s, TLS_ERR), 0);
	assert_gone(s);
}

/* A client whose server is not TLS (plain HTTP answers the ClientHello
 * with 400): the handshake fails as a protocol error, the connection is
 * counted in skErr, nothing is left. */
static void
test_client_against_plain_server(void **state)
{
	struct node *s = new_server(NULL), *c;

	(void)state;
	srv = s;
	cli = new_client(NULL);
	memset(&part, 0, sizeof(part));
	c = tls_client(https_ka_client);
	assert_int_equal(tcp_client_launch(&c->wk.net), 0);
	pump(c, s);
	assert_int_equal(C(c, TLS_HS), 1);
	assert_int_equal(C(c, TLS_F_PROTO), 1);
	assert_int_equal(C(c, SK_ERR), 1);
	assert_int_equal(open_sockets(c), 0);
}

/* A client cc that memory cannot hold at the measured bytes per
 * connection is refused with the figures; one that fits, or a server, is
 * not. */
static void
test_cc_memory(void **state)
{
	struct dp_config cfg;
	char err[DP_ERR_LEN];

	(void)state;
	base_cfg(&cfg, DP_MODE_CLIENT);
	cfg.cc = 100000;
	/* 100k x 17 KB = 1.6 GB */
	assert_int_equal(tls_cc_check(&cfg, 17288, 2048, err, sizeof(err)), 0);
	assert_int_equal(tls_cc_check(&cfg, 17288, 1024, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "cc 100000: TLS connections of 17288 bytes each (measured) need 1649 MB, "
				    "1024 MB available (expected cc at most 62109)"));
	cfg.mode = DP_MODE_SERVER;
	assert_int_equal(tls_cc_check(&cfg, 17288, 1024, err, sizeof(err)), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_https_get, teardown),
		cmocka_unit_test_teardown(test_https_splits, teardown),
		cmocka_unit_test_teardown(test_https_big_answer, teardown),
		cmocka_unit_test_teardown(test_https_segments_per_answer, teardown),
		cmocka_unit_test_teardown(test_https_pipe_two_in_one_record, teardown),
		cmocka_unit_test_teardown(test_https_pipe_during_answer, teardown),
		cmocka_unit_test_teardown(test_https_records_as_sent, teardown),
		cmocka_unit_test_teardown(test_https_pipe_five_in_one_record, teardown),
		cmocka_unit_test_teardown(test_https_pipe_head_and_bad, teardown),
		cmocka_unit_test_teardown(test_https_pipe_then_fin, teardown),
		cmocka_unit_test_teardown(test_https_pipe_close_request, teardown),
		cmocka_unit_test_teardown(test_https_pipe_full, teardown),
		cmocka_unit_test_teardown(test_https_keepalive_resume, teardown),
		cmocka_unit_test_teardown(test_tls_raw, teardown),
		cmocka_unit_test_teardown(test_hostile_not_tls, teardown),
		cmocka_unit_test_teardown(test_hostile_bad_record, teardown),
		cmocka_unit_test_teardown(test_hostile_stall, teardown),
		cmocka_unit_test_teardown(test_hostile_close_mid_handshake, teardown),
		cmocka_unit_test_teardown(test_client_against_server, teardown),
		cmocka_unit_test_teardown(test_client_against_plain_server, teardown),
		cmocka_unit_test_teardown(test_client_stop_closes_idle, teardown),
	};

	const struct CMUnitTest pure[] = { cmocka_unit_test(test_cc_memory) };

	if (tls_mem_init() != 0)
		return 1;
	if (cmocka_run_group_tests_name("cc", pure, NULL, NULL) != 0)
		return 1;
	/* OpenSSL makes globals on first use (algorithms fetched, the
	 * thread's error queue) and keeps them: one unchecked run first, so
	 * that what the checked runs leave is what connections leave. */
	if (cmocka_run_group_tests_name("warm-up", tests, NULL, NULL) != 0)
		return 1;
	warm = 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
