/* SPDX-License-Identifier: BSD-3-Clause
 * Unit tests of TLS over our TCP (primary/tls/): OpenSSL's own client and
 * server objects, each behind our BIO (tls_conn.c) and per-worker context
 * (tls_ctx.c), back to back; their records cut into segments by the TCP
 * sender's source (tls_src.c) at every split point of the first flights,
 * one byte at a time, TLS 1.2 and 1.3, resumption, hostile input. Every
 * test ends with OpenSSL's heap where it began (tls_mem.c counts it).
 */
// links: primary/tls/tls_mem.c primary/tls/tls_ctx.c primary/tls/tls_conn.c primary/tls/tls_src.c primary/tls/tls_measure.c
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <cmocka.h>

#include <x86intrin.h>

#include <openssl/err.h>

#include "config.h"
#include "net/cksum.h"
#include "tls/tls_conn.h"
#include "tls/tls_ctx.h"
#include "tls/tls_measure.h"
#include "tls/tls_mem.h"
#include "net/pkt.h"
#include "tls/tls_src.h"

/* The packet layer's sum (net/pkt.c), which tls_src cuts segments with:
 * replaced here, as the TCP tests replace the packet layer. */
uint32_t
pkt_sum(const void *buf, uint32_t len)
{
	return __rte_raw_cksum(buf, len, 0);
}

#define CERT DP_SOURCE_DIR "/build/tls/test-cert.pem"
#define KEY  DP_SOURCE_DIR "/build/tls/test-key.pem"
#define MSS  1460

/* One end: a side (its worker's context), one connection, what it read. */
struct end {
	struct tls_side side;
	struct tls_conn c;
	uint8_t got[256];
	uint32_t got_len;
	int done, closed, err;
};

static void
on_plain(void *arg, const uint8_t *data, uint32_t len)
{
	struct end *e = arg;

	assert_true(e->got_len + len <= sizeof(e->got));
	memcpy(e->got + e->got_len, data, len);
	e->got_len += len;
}

static void
side(struct end *e, struct tls_opts o)
{
	char err[256];

	memset(e, 0, sizeof(*e));
	if (o.server) {
		o.cert = CERT;
		o.key = KEY;
	}
	if (tls_side_init(&e->side, &o, err, sizeof(err)) != 0)
		fail_msg("tls_side_init: %s", err);
}

static void
conn(struct end *e)
{
	e->got_len = 0;
	e->done = e->closed = e->err = 0;
	assert_int_equal(tls_open(&e->c, &e->side), 0);
}

static void
event(struct end *e, int r)
{
	if (r < 0)
		e->err = -r;
	else {
		e->done |= (r & TLS_EV_DONE) != 0;
		e->closed |= (r & TLS_EV_CLOSE) != 0;
	}
}

/* a's records to b as our TCP sends them: the sender's segments of mss
 * bytes (tls_src), the first one cut at first bytes when first is not 0;
 * then acknowledged. Returns the bytes moved. */
static uint32_t
deliver(struct end *a, struct end *b, uint32_t mss, uint32_t first)
{
	struct snd_src src;
	struct msg m;
	uint32_t len;

	tls_src(&src, &a->c);
	len = src.len;
	if (len == 0)
		return 0;
	if (first != 0 && first < len) {
		/* two messages of the sender, each acknowledged in turn */
		event(b, tls_input(&b->c, a->c.out, first, on_plain, b));
		tls_acked(&a->c, first);
		assert_int_equal(a->c.out_len, len - first);
		len -= first;
		event(b, tls_input(&b->c, a->c.out, len, on_plain, b));
	} else {
		for (uint32_t k = 0; k * mss < len; k++) {
			src.seg(&src, k, mss, &m);
			assert_ptr_equal(m.data, a->c.out + k * mss);
			/* no sum precomputed: the packet writer sums the bytes as
			 * it copies them (sum_on_copy, issue 38: test_cksum) */
			assert_int_equal(m.sum_on_copy, 1);
			event(b, tls_input(&b->c, m.data, m.len, on_plain, b));
		}
	}
	tls_acked(&a->c, len);
	return len;
}

/* Flights both ways until neither end has anything to send. */
static void
pump(struct end *cli, struct end *srv, uint32_t mss)
{
	for (int i = 0; i < 20; i++)
		if (deliver(cli, srv, mss, 0) + deliver(srv, cli, mss, 0) == 0)
			return;
	fail_msg("records still flowing after 20 rounds");
}

/* A request and its answer over an established pair. */
static void
exchange(struct end *cli, struct end *srv, uint32_t mss)
{
	assert_int_equal(tls_write(&cli->c, "GET / HTTP/1.1\r\n\r\n", 18), 0);
	pump(cli, srv, mss);
	assert_int_equal(srv->got_len, 18);
	assert_memory_equal(srv->got, "GET / HTTP/1.1\r\n\r\n", 18);
	assert_int_equal(tls_write(&srv->c, "HTTP/1.1 200 OK\r\n\r\n", 19), 0);
	pump(cli, srv, mss);
	assert_int_equal(cli->got_len, 19);
}

static void
handshake(struct end *cli, struct end *srv, uint32_t mss)
{
	conn(cli);
	conn(srv);
	pump(cli, srv, mss);
	assert_int_equal(cli->err, 0);
	assert_int_equal(srv->err, 0);
	assert_true(cli->done && srv->done);
	assert_int_equal(cli->c.state, TLS_UP);
	assert_int_equal(srv->c.state, TLS_UP);
}

static void
close_both(struct end *cli, struct end *srv)
{
	tls_close(&cli->c);
	tls_close(&srv->c);
}

static void
free_both(struct end *cli, struct end *srv)
{
	close_both(cli, srv);
	tls_side_free(&cli->side);
	tls_side_free(&srv->side);
}

/* OpenSSL's heap when the test began: each test must end there. The
 * thread's error queue keeps a buffer per slot it used (bounded, reused):
 * freed first, as at a thread's exit, so that the figure is exact. */
static int64_t heap0;

static int64_t
heap(void)
{
	OPENSSL_thread_stop();
	return tls_mem_live();
}

static int
mark(void **state)
{
	(void)state;
	heap0 = heap();
	return 0;
}

static int
returned(void **state)
{
	(void)state;
	if (heap() != heap0)
		fail_msg("OpenSSL's heap: %lld bytes at the start, %lld at the end",
			 (long long)heap0, (long long)tls_mem_live());
	return 0;
}

/* ------------------------------------------------------------------ */

static void
test_handshake_and_data(void **state)
{
	int vers[] = {12, 13};

	(void)state;
	for (unsigned i = 0; i < 2; i++) {
		struct end cli, srv;

		side(&cli, (struct tls_opts){.version = vers[i]});
		side(&srv, (struct tls_opts){.server = 1, .version = vers[i]});
		handshake(&cli, &srv, MSS);
		assert_int_equal(SSL_version(cli.c.ssl), vers[i] == 12 ? TLS1_2_VERSION : TLS1_3_VERSION);
		assert_false(cli.c.resumed);
		/* the pinned key exchange, whichever the version */
		assert_int_equal(SSL_get_negotiated_group(cli.c.ssl), NID_X25519);
		assert_int_equal(SSL_get_negotiated_group(srv.c.ssl), NID_X25519);
		exchange(&cli, &srv, MSS);
		/* close_notify: the peer sees the end of the stream */
		tls_shutdown(&cli.c);
		pump(&cli, &srv, MSS);
		assert_true(srv.closed);
		assert_int_equal(srv.c.state, TLS_SHUT);
		free_both(&cli, &srv);
	}
}

/* Every split of the client's first flight, then of the server's, for
 * TLS 1.2 and 1.3: the same handshake completes and carries data. */
static void
test_every_split(void **state)
{
	int vers[] = {12, 13};

	(void)state;
	for (unsigned v = 0; v < 2; v++) {
		struct end cli, srv;
		uint32_t ch, sf, tried = 0;

		side(&cli, (struct tls_opts){.version = vers[v]});
		side(&srv, (struct tls_opts){.server = 1, .version = vers[v]});
		conn(&cli);
		conn(&srv);
		ch = cli.c.out_len;
		close_both(&cli, &srv);
		for (uint32_t cut = 1; cut < ch; cut++, tried++) {
			conn(&cli);
			conn(&srv);
			deliver(&cli, &srv, MSS, cut);
			pump(&cli, &srv, MSS);
			assert_true(cli.done && srv.done && !cli.err && !srv.err);
			close_both(&cli, &srv);
		}
		conn(&cli);
		conn(&srv);
		deliver(&cli, &srv, MSS, 0);
		sf = srv.c.out_len;
		close_both(&cli, &srv);
		assert_true(sf > 500); /* the certificate is in it */
		for (uint32_t cut = 1; cut < sf; cut++, tried++) {
			conn(&cli);
			conn(&srv);
			deliver(&cli, &srv, MSS, 0);
			deliver(&srv, &cli, MSS, cut);
			pump(&cli, &srv, MSS);
			assert_true(cli.done && srv.done && !cli.err && !srv.err);
			if (cut == sf / 2)
				exchange(&cli, &srv, MSS);
			close_both(&cli, &srv);
		}
		print_message("TLS 1.%d: ClientHello %u bytes, server's first flight %u bytes, %u splits\n",
			      vers[v] % 10, ch, sf, tried);
		tls_side_free(&cli.side);
		tls_side_free(&srv.side);
	}
}

static void
test_one_byte_segments(void **state)
{
	int vers[] = {12, 13};

	(void)state;
	for (unsigned v = 0; v < 2; v++) {
		struct end cli, srv;

		side(&cli, (struct tls_opts){.version = vers[v], .resume = DP_TLS_RESUME_TICKETS});
		side(&srv, (struct tls_opts){.server = 1, .version = vers[v], .resume = DP_TLS_RESUME_TICKETS});
		handshake(&cli, &srv, 1);
		exchange(&cli, &srv, 1);
		close_both(&cli, &srv);
		handshake(&cli, &srv, 1); /* and resumed */
		assert_true(cli.c.resumed && srv.c.resumed);
		exchange(&cli, &srv, 1);
		free_both(&cli, &srv);
	}
}

static void
test_resumption(void **state)
{
	static const struct {
		int version;
		enum dp_tls_resume resume;
	} cases[] = {
		{12, DP_TLS_RESUME_TICKETS}, {13, DP_TLS_RESUME_TICKETS}, {12, DP_TLS_RESUME_IDS},
		{13, DP_TLS_RESUME_IDS},     {12, DP_TLS_RESUME_NONE},    {13, DP_TLS_RESUME_NONE},
	};

	(void)state;
	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct end cli, srv;
		int want = cases[i].resume != DP_TLS_RESUME_NONE;

		side(&cli, (struct tls_opts){.version = cases[i].version, .resume = cases[i].resume});
		side(&srv, (struct tls_opts){.server = 1, .version = cases[i].version, .resume = cases[i].resume});
		handshake(&cli, &srv, MSS);
		exchange(&cli, &srv, MSS); /* TLS 1.3: the ticket comes after the handshake */
		assert_false(cli.c.resumed);
		close_both(&cli, &srv);
		assert_int_equal(cli.side.sess != NULL, want);
		for (int n = 0; n < 3; n++) {
			handshake(&cli, &srv, MSS);
			exchange(&cli, &srv, MSS);
			if (cli.c.resumed != want || srv.c.resumed != want)
				fail_msg("case %u (TLS 1.%d, resume %d), connection %d: resumed %d/%d", i,
					 cases[i].version % 10, cases[i].resume, n + 2, cli.c.resumed, srv.c.resumed);
			close_both(&cli, &srv);
		}
		tls_side_free(&cli.side);
		tls_side_free(&srv.side);
	}
}

/* Connections opened while another that resumed the same session waits
 * for its new ticket (every connection in flight at a load generator's
 * rate): they resume too. OpenSSL's TLS 1.3 client marks the session it
 * resumed not resumable when that handshake ends (tls_finish_handshake:
 * tickets used once), so the one the client keeps is never offered as
 * is; at saturation 23% of the bench's handshakes were full for this
 * (issue 38). TLS 1.2 and 1.3, tickets and session IDs. */
static void
test_resume_in_flight(void **state)
{
	static const struct {
		int version;
		enum dp_tls_resume resume;
	} cases[] = {
		{13, DP_TLS_RESUME_TICKETS}, {12, DP_TLS_RESUME_TICKETS}, {13, DP_TLS_RESUME_IDS}, {12, DP_TLS_RESUME_IDS},
	};

	(void)state;
	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct end cli, srv, cli2 = {0}, srv2 = {0};

		side(&cli, (struct tls_opts){.version = cases[i].version, .resume = cases[i].resume});
		side(&srv, (struct tls_opts){.server = 1, .version = cases[i].version, .resume = cases[i].resume});
		handshake(&cli, &srv, MSS);
		exchange(&cli, &srv, MSS);
		close_both(&cli, &srv);
		assert_non_null(cli.side.sess);
		/* A resumes: its handshake ends on the client (the server's
		 * Finished read), its ticket not delivered yet */
		conn(&cli);
		conn(&srv);
		deliver(&cli, &srv, MSS, 0);
		deliver(&srv, &cli, MSS, 0);
		assert_true(cli.done);
		assert_true(cli.c.resumed);
		/* B opens meanwhile, on the same sides */
		assert_int_equal(tls_open(&cli2.c, &cli.side), 0);
		assert_int_equal(tls_open(&srv2.c, &srv.side), 0);
		pump(&cli2, &srv2, MSS);
		assert_int_equal(cli2.err, 0);
		assert_true(cli2.done && srv2.done);
		if (!cli2.c.resumed || !srv2.c.resumed)
			fail_msg("case %u (TLS 1.%d, resume %d): the connection opened while another awaited its "
				 "ticket resumed %d/%d", i, cases[i].version % 10, cases[i].resume, cli2.c.resumed,
				 srv2.c.resumed);
		/* and A still completes, its ticket read */
		pump(&cli, &srv, MSS);
		exchange(&cli, &srv, MSS);
		exchange(&cli2, &srv2, MSS);
		close_both(&cli2, &srv2);
		free_both(&cli, &srv);
	}
}

/* Bytes that are not TLS, a record too long, a record changed in flight:
 * counted as the kind they are, with our alert to the peer, who counts
 * that alert; never a crash, memory returned. */
static void
test_malformed(void **state)
{
	struct end cli, srv;
	uint8_t big[5] = {22, 3, 3, 0x48, 0x01}; /* handshake record of 18433 bytes > 2^14 + 256 */

	(void)state;
	side(&cli, (struct tls_opts){0});
	side(&srv, (struct tls_opts){.server = 1});

	conn(&srv);
	event(&srv, tls_input(&srv.c, (const uint8_t *)"GET / HTTP/1.1\r\n\r\n", 18, on_plain, &srv));
	assert_int_equal(srv.err, TLS_F_PROTO);
	assert_int_equal(srv.c.state, TLS_FAILED);
	/* the thread's error queue left empty: the next failure is
	 * classified by its own reason, not by this one's */
	assert_int_equal(ERR_peek_error(), 0);
	/* once failed, more input is the same failure, not a new one */
	assert_int_equal(tls_input(&srv.c, big, 5, on_plain, &srv), -TLS_F_PROTO);
	tls_close(&srv.c);

	conn(&srv);
	event(&srv, tls_input(&srv.c, big, sizeof(big), on_plain, &srv));
	assert_int_equal(srv.err, TLS_F_PROTO);
	assert_true(srv.c.out_len > 0); /* record_overflow, to the peer */
	tls_close(&srv.c);

	for (int v = 12; v <= 13; v++) {
		tls_side_free(&cli.side);
		tls_side_free(&srv.side);
		side(&cli, (struct tls_opts){.version = v});
		side(&srv, (struct tls_opts){.server = 1, .version = v});
		handshake(&cli, &srv, MSS);
		assert_int_equal(tls_write(&cli.c, "GET / HTTP/1.1\r\n\r\n", 18), 0);
		cli.c.out[cli.c.out_len - 3] ^= 0x40; /* in the record's tag */
		deliver(&cli, &srv, MSS, 0);
		assert_int_equal(srv.err, TLS_F_PROTO);
		assert_int_equal(srv.got_len, 0);
		deliver(&srv, &cli, MSS, 0); /* our bad_record_mac alert */
		assert_int_equal(cli.err, TLS_F_ALERT);
		assert_int_equal(cli.c.alert, SSL_AD_BAD_RECORD_MAC);
		close_both(&cli, &srv);
	}
	tls_side_free(&cli.side);
	tls_side_free(&srv.side);
}

/* The peer closes (FIN or RST) after each flight of the handshake, or the
 * handshake stalls: a failure of that kind on our side, memory returned. */
static void
test_closed_mid_handshake(void **state)
{
	(void)state;
	for (int v = 12; v <= 13; v++) {
		struct end cli, srv;

		side(&cli, (struct tls_opts){.version = v});
		side(&srv, (struct tls_opts){.server = 1, .version = v});
		for (int flights = 0; flights < 2; flights++) {
			conn(&cli);
			conn(&srv);
			deliver(&cli, &srv, MSS, 0);
			if (flights == 1)
				deliver(&srv, &cli, MSS, 0);
			/* TLS 1.3: the client has completed on the server's
			 * first flight; the server waits for its Finished */
			if (v == 13 && flights == 1) {
				assert_int_equal(tls_eof(&cli.c), 0);
			} else {
				assert_int_equal(tls_eof(&cli.c), -TLS_F_EOF);
				assert_int_equal(cli.c.fail, TLS_F_EOF);
			}
			assert_int_equal(tls_eof(&srv.c), -TLS_F_EOF);
			assert_int_equal(srv.c.state, TLS_FAILED);
			close_both(&cli, &srv);
		}
		/* a truncated record, then the close */
		conn(&cli);
		conn(&srv);
		event(&srv, tls_input(&srv.c, cli.c.out, 7, on_plain, &srv));
		assert_int_equal(srv.err, 0);
		assert_int_equal(tls_eof(&srv.c), -TLS_F_EOF);
		close_both(&cli, &srv);
		/* a stall */
		conn(&cli);
		assert_int_equal(tls_timeout(&cli.c), -TLS_F_TIMEOUT);
		tls_close(&cli.c);
		/* after the handshake a close is the end of the stream, no failure */
		handshake(&cli, &srv, MSS);
		assert_int_equal(tls_eof(&srv.c), 0);
		assert_int_equal(tls_timeout(&srv.c), 0);
		free_both(&cli, &srv);
	}
}

static void
test_verify_and_alpn(void **state)
{
	struct end cli, srv;

	(void)state;
	side(&srv, (struct tls_opts){.server = 1, .alpn = "http/1.1"});
	side(&cli, (struct tls_opts){.verify = 1, .ca = CERT, .sni = "dperf.test", .alpn = "h2,http/1.1"});
	handshake(&cli, &srv, MSS);
	{
		const unsigned char *p;
		unsigned n;

		SSL_get0_alpn_selected(cli.c.ssl, &p, &n);
		assert_int_equal(n, 8);
		assert_memory_equal(p, "http/1.1", 8);
		assert_string_equal(SSL_get_servername(srv.c.ssl, TLSEXT_NAMETYPE_host_name), "dperf.test");
	}
	close_both(&cli, &srv);
	tls_side_free(&cli.side);

	/* a name the certificate does not carry */
	side(&cli, (struct tls_opts){.verify = 1, .ca = CERT, .sni = "other.test"});
	conn(&cli);
	conn(&srv);
	pump(&cli, &srv, MSS);
	assert_int_equal(cli.err, TLS_F_VERIFY);
	assert_int_equal(srv.err, TLS_F_ALERT);
	close_both(&cli, &srv);
	tls_side_free(&cli.side);

	/* no protocol in common: the server refuses (RFC 7301 3.2) */
	side(&cli, (struct tls_opts){.alpn = "h2"});
	conn(&cli);
	conn(&srv);
	pump(&cli, &srv, MSS);
	assert_int_equal(srv.err, TLS_F_PROTO);
	assert_int_equal(cli.err, TLS_F_ALERT);
	assert_int_equal(cli.c.alert, TLS1_AD_NO_APPLICATION_PROTOCOL);
	free_both(&cli, &srv);
}

static void
test_side_errors(void **state)
{
	static const struct {
		struct tls_opts o;
		const char *says;
	} bad[] = {
		{{.server = 1, .cert = "/nonexistent/cert.pem", .key = KEY}, "tls_cert /nonexistent/cert.pem"},
		{{.server = 1, .cert = CERT, .key = "/nonexistent/key.pem"}, "tls_key /nonexistent/key.pem"},
		{{.server = 1, .cert = KEY, .key = KEY}, "tls_cert " KEY},
		{{.server = 1}, "needs tls_cert and tls_key"},
		{{.version = 11}, "tls_version 11"},
		{{.groups = "X99999"}, "tls_groups X99999"},
		{{.ciphers = "NO-SUCH-CIPHER"}, "tls_ciphers: TLS 1.2 ciphers NO-SUCH-CIPHER"},
		{{.ciphers = "TLS_NO_SUCH"}, "tls_ciphers: TLS 1.3 suites TLS_NO_SUCH"},
		{{.alpn = "h2,,x"}, "tls_alpn h2,,x"},
		{{.verify = 1}, "tls_verify 1 needs tls_ca"},
		{{.verify = 1, .ca = "/nonexistent/ca.pem"}, "tls_ca /nonexistent/ca.pem"},
	};

	(void)state;
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct tls_side s;
		char err[512] = "";

		assert_int_equal(tls_side_init(&s, &bad[i].o, err, sizeof(err)), -1);
		if (strstr(err, bad[i].says) == NULL)
			fail_msg("case %u: '%s' does not say '%s'", i, err, bad[i].says);
		assert_null(s.ctx);
		assert_int_equal(ERR_peek_error(), 0);
	}
	{
		struct end cli, srv;

		side(&cli, (struct tls_opts){.ciphers = "ECDHE-ECDSA-AES128-GCM-SHA256:TLS_AES_256_GCM_SHA384",
					     .groups = "P-256"});
		side(&srv, (struct tls_opts){.server = 1, .version = 12});
		handshake(&cli, &srv, MSS);
		assert_string_equal(SSL_get_cipher_name(cli.c.ssl), "ECDHE-ECDSA-AES128-GCM-SHA256");
		free_both(&cli, &srv);
		side(&cli, (struct tls_opts){.ciphers = "ECDHE-ECDSA-AES128-GCM-SHA256:TLS_AES_256_GCM_SHA384"});
		side(&srv, (struct tls_opts){.server = 1});
		handshake(&cli, &srv, MSS);
		assert_string_equal(SSL_get_cipher_name(cli.c.ssl), "TLS_AES_256_GCM_SHA384");
		free_both(&cli, &srv);
	}
}

/* What an established, idle TLS connection holds (after a request and its
 * answer, as a keepalive connection between requests), measured on
 * OpenSSL's heap: with SSL_MODE_RELEASE_BUFFERS, and without for scale. */
#define NCONN 64

static int64_t
idle_bytes(int version, int release, int64_t *client)
{
	static struct end cli[NCONN], srv[NCONN];
	int64_t up, after_cli, after_srv;

	for (int i = 0; i < NCONN; i++) {
		side(&cli[i], (struct tls_opts){.version = version});
		side(&srv[i], (struct tls_opts){.server = 1, .version = version});
		if (!release) {
			SSL_CTX_clear_mode(cli[i].side.ctx, SSL_MODE_RELEASE_BUFFERS);
			SSL_CTX_clear_mode(srv[i].side.ctx, SSL_MODE_RELEASE_BUFFERS);
		}
	}
	for (int i = 0; i < NCONN; i++) {
		/* one side per connection so the client's saved session is not
		 * shared: that is per worker, not per connection */
		handshake(&cli[i], &srv[i], MSS);
		exchange(&cli[i], &srv[i], MSS);
	}
	up = tls_mem_live();
	for (int i = 0; i < NCONN; i++)
		tls_close(&cli[i].c);
	after_cli = tls_mem_live();
	for (int i = 0; i < NCONN; i++)
		tls_close(&srv[i].c);
	after_srv = tls_mem_live();
	for (int i = 0; i < NCONN; i++) {
		tls_side_free(&cli[i].side);
		tls_side_free(&srv[i].side);
	}
	*client = (up - after_cli) / NCONN + (int64_t)sizeof(struct tls_conn);
	return (after_cli - after_srv) / NCONN + (int64_t)sizeof(struct tls_conn);
}

static void
test_bytes_per_connection(void **state)
{
	(void)state;
	for (int v = 12; v <= 13; v++) {
		int64_t cli, cli_full, srv = idle_bytes(v, 1, &cli), srv_full = idle_bytes(v, 0, &cli_full);

		print_message("TLS 1.%d bytes per idle connection: server %lld (%lld without "
			      "SSL_MODE_RELEASE_BUFFERS), client %lld (%lld)\n",
			      v % 10, (long long)srv, (long long)srv_full, (long long)cli, (long long)cli_full);
		assert_true(srv > (int64_t)sizeof(struct tls_conn) && cli > (int64_t)sizeof(struct tls_conn));
		assert_true(srv < srv_full && cli < cli_full);
	}
}

/* What the engine measures at start (tls_conn_bytes) agrees with the
 * figure above: server sides against OpenSSL's default client, client
 * sides against a throwaway server; a saved session is left as it was. */
static void
test_measure_at_start(void **state)
{
	(void)state;
	for (int v = 12; v <= 13; v++) {
		struct end cli, srv;
		int64_t c_idle, s_idle = idle_bytes(v, 1, &c_idle), c_at, s_at;
		SSL_SESSION *kept;
		char err[256] = "";

		side(&cli, (struct tls_opts){.version = v, .resume = DP_TLS_RESUME_TICKETS, .verify = 1,
					     .ca = CERT, .sni = "dperf.test"});
		side(&srv, (struct tls_opts){.server = 1, .version = v, .resume = DP_TLS_RESUME_TICKETS});
		handshake(&cli, &srv, MSS);
		exchange(&cli, &srv, MSS);
		close_both(&cli, &srv);
		kept = cli.side.sess;
		assert_non_null(kept);
		s_at = tls_conn_bytes(&srv.side, err, sizeof(err));
		c_at = tls_conn_bytes(&cli.side, err, sizeof(err));
		print_message("TLS 1.%d bytes per connection measured at start: server %lld, client %lld%s%s\n",
			      v % 10, (long long)s_at, (long long)c_at, *err ? ": " : "", err);
		/* within a tenth of the figure above (the client's peer has a
		 * shorter certificate, the request is longer) */
		assert_true(s_at > s_idle * 9 / 10 && s_at < s_idle * 11 / 10);
		assert_true(c_at > c_idle * 8 / 10 && c_at < c_idle * 11 / 10);
		assert_ptr_equal(cli.side.sess, kept);
		handshake(&cli, &srv, MSS); /* still resumes the real server's session */
		assert_true(cli.c.resumed);
		free_both(&cli, &srv);
	}
}

/* The tls_* keywords as the parser stores them make the sides they say:
 * a TLS 1.2 pair with the pinned group and cipher, resumed by session ID,
 * the client verifying the server by name. */
static void
test_sides_from_config(void **state)
{
	static const char head[] = "cpu 0\nport 01:00.0 198.18.0.1 198.18.0.2\nclient 198.18.1.2 4\n"
				   "server 198.18.2.1 1\nprotocol https\ntls_version 1.2\n"
				   "tls_groups P-256\ntls_ciphers ECDHE-ECDSA-AES256-GCM-SHA384\n"
				   "tls_resume ids\ntls_alpn http/1.1\n";
	char text[1024], err[DP_ERR_LEN];
	struct dp_config ccfg, scfg;
	struct tls_opts co, so;
	struct end cli, srv;

	(void)state;
	snprintf(text, sizeof(text), "mode client\ncps 1k\n%stls_sni dperf.test\ntls_verify 1\n"
		 "tls_ca %s\n", head, CERT);
	if (dp_config_parse("c.conf", text, &ccfg, err, sizeof(err)) != 0)
		fail_msg("%s", err);
	snprintf(text, sizeof(text), "mode server\n%stls_cert %s\ntls_key %s\n", head, CERT, KEY);
	if (dp_config_parse("s.conf", text, &scfg, err, sizeof(err)) != 0)
		fail_msg("%s", err);
	tls_opts_of(&ccfg, &co);
	tls_opts_of(&scfg, &so);
	assert_true(so.server && !co.server);
	assert_null(co.cert);
	memset(&cli, 0, sizeof(cli));
	memset(&srv, 0, sizeof(srv));
	assert_int_equal(tls_side_init(&cli.side, &co, err, sizeof(err)), 0);
	assert_int_equal(tls_side_init(&srv.side, &so, err, sizeof(err)), 0);
	for (int n = 0; n < 2; n++) {
		handshake(&cli, &srv, MSS);
		assert_int_equal(SSL_version(cli.c.ssl), TLS1_2_VERSION);
		assert_int_equal(SSL_get_negotiated_group(cli.c.ssl), NID_X9_62_prime256v1);
		assert_string_equal(SSL_get_cipher_name(srv.c.ssl), "ECDHE-ECDSA-AES256-GCM-SHA384");
		assert_int_equal(SSL_get_verify_result(cli.c.ssl), X509_V_OK);
		assert_int_equal(cli.c.resumed, n == 1);
		exchange(&cli, &srv, MSS);
		close_both(&cli, &srv);
	}
	tls_side_free(&cli.side);
	tls_side_free(&srv.side);
}

/* A body longer than a connection may hold unacknowledged (TLS_OUT_MAX):
 * one tls_write fails it, tls_write_upto sends it as the peer acknowledges,
 * never above its cap, and the peer reads every byte in order. */
static uint64_t body_sum, body_got;

static void
on_body(void *arg, const uint8_t *data, uint32_t len)
{
	(void)arg;
	for (uint32_t i = 0; i < len; i++)
		body_sum = body_sum * 31 + data[i];
	body_got += len;
}

static void
test_long_body(void **state)
{
	const uint32_t len = TLS_OUT_MAX + TLS_OUT_MAX / 2, cap = 256 * 1024;
	uint8_t *body = malloc(len);
	uint64_t want = 0;
	uint32_t at = 0, rounds = 0;
	struct end cli, srv;

	(void)state;
	assert_non_null(body);
	for (uint32_t i = 0; i < len; i++) {
		body[i] = (uint8_t)(i * 7 + (i >> 9));
		want = want * 31 + body[i];
	}
	for (int v = 12; v <= 13; v++) {
		side(&cli, (struct tls_opts){.version = v});
		side(&srv, (struct tls_opts){.server = 1, .version = v});
		handshake(&cli, &srv, MSS);
		body_sum = body_got = 0;
		at = 0;
		while (at < len) {
			int64_t n = tls_write_upto(&srv.c, body + at, len - at, cap);
			struct snd_src src;

			assert_true(n > 0);
			assert_true(srv.c.out_len <= cap);
			at += (uint32_t)n;
			tls_src(&src, &srv.c);
			/* the peer reads it as our TCP delivers it, then acknowledges */
			for (uint32_t k = 0; k * MSS < src.len; k++) {
				struct msg m;

				src.seg(&src, k, MSS, &m);
				assert_true(tls_input(&cli.c, m.data, m.len, on_body, NULL) >= 0);
			}
			tls_acked(&srv.c, src.len);
			rounds++;
		}
		assert_int_equal(body_got, len);
		assert_true(body_sum == want);
		print_message("TLS 1.%d: %u bytes in %u rounds of at most %u bytes of records\n", v % 10,
			      len, rounds, cap);
		/* in one call it is more than a connection may hold */
		assert_int_equal(tls_write(&srv.c, body, len), -TLS_F_INTERNAL);
		free_both(&cli, &srv);
		rounds = 0;
	}
	free(body);
}

/* Records handed over whole, several in one input or one per input
 * (tls_input stops reading once a record ended the input: issue 38):
 * every record's plaintext read, and the close_notify after them, TLS
 * 1.2 and 1.3. */
static void
test_whole_records(void **state)
{
	for (int v = 12; v <= 13; v++) {
		for (int one_each = 0; one_each <= 1; one_each++) {
			struct end cli, srv;
			uint32_t cut[3], n = 0;

			(void)state;
			side(&cli, (struct tls_opts){.version = v});
			side(&srv, (struct tls_opts){.server = 1, .version = v});
			handshake(&cli, &srv, MSS);
			assert_int_equal(tls_write(&srv.c, "abc", 3), 0);
			cut[n++] = srv.c.out_len;
			assert_int_equal(tls_write(&srv.c, "defg", 4), 0);
			cut[n++] = srv.c.out_len;
			tls_shutdown(&srv.c);
			cut[n++] = srv.c.out_len;
			if (one_each)
				for (uint32_t k = 0, at = 0; k < n; at = cut[k++])
					event(&cli, tls_input(&cli.c, srv.c.out + at, cut[k] - at, on_plain, &cli));
			else
				event(&cli, tls_input(&cli.c, srv.c.out, srv.c.out_len, on_plain, &cli));
			tls_acked(&srv.c, srv.c.out_len);
			assert_int_equal(cli.err, 0);
			assert_int_equal(cli.got_len, 7);
			assert_memory_equal(cli.got, "abcdefg", 7);
			assert_true(cli.closed);
			assert_int_equal(cli.c.state, TLS_SHUT);
			free_both(&cli, &srv);
		}
	}
}

/* A plaintext callback that holds the CPU for BURN TSC ticks: time that
 * is ours, not OpenSSL's, inside tls_input. */
#define BURN 20000000ull
static void
on_plain_slow(void *arg, const uint8_t *data, uint32_t len)
{
	uint64_t t0 = __rdtsc();

	on_plain(arg, data, len);
	while (__rdtsc() - t0 < BURN)
		;
}

/* tls_ossl_cycles (the engine's tlsUs): every OpenSSL call counted, our
 * own code around them not, the plaintext callbacks above all (the
 * server's HTTP answers run in them). */
static void
test_ossl_cycles(void **state)
{
	struct end cli, srv;
	uint64_t c0, c1;

	(void)state;
	side(&cli, (struct tls_opts){.version = 13});
	side(&srv, (struct tls_opts){.server = 1, .version = 13});
	c0 = tls_ossl_cycles();
	conn(&cli); /* SSL_new, the ClientHello */
	c1 = tls_ossl_cycles();
	assert_true(c1 > c0);
	conn(&srv);
	pump(&cli, &srv, MSS); /* the handshake's SSL_do_handshake and SSL_read */
	assert_true(cli.done && srv.done);
	assert_true(tls_ossl_cycles() > c1);
	/* no OpenSSL call: nothing counted */
	c0 = tls_ossl_cycles();
	assert_int_equal(tls_eof(&srv.c), 0);
	assert_int_equal(tls_timeout(&srv.c), 0);
	tls_acked(&srv.c, 0);
	assert_int_equal(tls_ossl_cycles(), c0);
	/* SSL_write */
	assert_int_equal(tls_write(&cli.c, "GET / HTTP/1.1\r\n\r\n", 18), 0);
	c1 = tls_ossl_cycles();
	assert_true(c1 > c0);
	/* SSL_read counted, the callback's 20M ticks not: a whole record
	 * decrypted costs tens of microseconds, far below them */
	srv.got_len = 0;
	event(&srv, tls_input(&srv.c, cli.c.out, cli.c.out_len, on_plain_slow, &srv));
	assert_int_equal(srv.got_len, 18);
	c0 = tls_ossl_cycles();
	assert_true(c0 > c1);
	assert_true(c0 - c1 < BURN / 2);
	tls_acked(&cli.c, cli.c.out_len);
	/* SSL_shutdown, and SSL_free */
	tls_shutdown(&cli.c);
	c1 = tls_ossl_cycles();
	assert_true(c1 > c0);
	tls_close(&cli.c);
	assert_true(tls_ossl_cycles() > c1);
	tls_close(&srv.c);
	tls_side_free(&cli.side);
	tls_side_free(&srv.side);
}

static void
test_conn_size(void **state)
{
	(void)state;
	assert_int_equal(sizeof(struct tls_conn), 56);
}

/* The primary stops counting before its workers start (tls_mem_stop):
 * an allocation then changes no figure, and a measurement made after it
 * fails with the reason rather than read a count that no longer moves.
 * Last: counting ends for the process. */
static void
test_mem_stop(void **state)
{
	struct end srv;
	int64_t before;
	char err[256] = "";
	void *p;

	(void)state;
	side(&srv, (struct tls_opts){.server = 1, .version = 13});
	assert_true(tls_mem_counted());
	before = tls_mem_live();
	p = OPENSSL_malloc(1000);
	assert_true(tls_mem_live() >= before + 1000); /* counted */
	OPENSSL_free(p);
	tls_mem_stop();
	assert_false(tls_mem_counted());
	before = tls_mem_live();
	p = OPENSSL_malloc(1000);
	assert_non_null(p);
	assert_int_equal(tls_mem_live(), before);
	p = OPENSSL_realloc(p, 5000);
	assert_int_equal(tls_mem_live(), before);
	OPENSSL_free(p);
	assert_int_equal(tls_mem_live(), before);
	assert_int_equal(tls_conn_bytes(&srv.side, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "not counted"));
	tls_side_free(&srv.side);
}

/* OpenSSL's first use of each thing (providers, algorithms, error strings,
 * ticket keys) stays allocated for the process: these run once before the
 * tests that count the heap, then again under the count. */
#define FIRST_USE(f) {"first use: " #f, f, NULL, NULL, NULL}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		FIRST_USE(test_handshake_and_data),
		FIRST_USE(test_resumption),
		FIRST_USE(test_malformed),
		FIRST_USE(test_verify_and_alpn),
		FIRST_USE(test_side_errors),
		FIRST_USE(test_measure_at_start),
		cmocka_unit_test_setup_teardown(test_handshake_and_data, mark, returned),
		cmocka_unit_test_setup_teardown(test_every_split, mark, returned),
		cmocka_unit_test_setup_teardown(test_one_byte_segments, mark, returned),
		cmocka_unit_test_setup_teardown(test_resumption, mark, returned),
		cmocka_unit_test_setup_teardown(test_resume_in_flight, mark, returned),
		cmocka_unit_test_setup_teardown(test_malformed, mark, returned),
		cmocka_unit_test_setup_teardown(test_closed_mid_handshake, mark, returned),
		cmocka_unit_test_setup_teardown(test_verify_and_alpn, mark, returned),
		cmocka_unit_test_setup_teardown(test_side_errors, mark, returned),
		cmocka_unit_test_setup_teardown(test_bytes_per_connection, mark, returned),
		cmocka_unit_test_setup_teardown(test_measure_at_start, mark, returned),
		cmocka_unit_test_setup_teardown(test_sides_from_config, mark, returned),
		cmocka_unit_test_setup_teardown(test_long_body, mark, returned),
		cmocka_unit_test_setup_teardown(test_whole_records, mark, returned),
		cmocka_unit_test_setup_teardown(test_ossl_cycles, mark, returned),
		cmocka_unit_test(test_conn_size),
		cmocka_unit_test(test_mem_stop), /* last: counting ends */
	};

	if (tls_mem_init() != 0) {
		fprintf(stderr, "test_tls: OpenSSL allocated before tls_mem_init\n");
		return 1;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
