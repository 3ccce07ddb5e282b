/* SPDX-License-Identifier: BSD-3-Clause
 * One TLS connection over our TCP (tls_conn.h).
 */
#include <string.h>

#include <x86intrin.h>

#include <openssl/err.h>
#include <openssl/ssl.h>

#include "tls/tls_conn.h"

/* The first allocation of c->out: a server's first flight with an ECDSA
 * P-256 certificate (about 1.1 KB in TLS 1.3) fits; it doubles from there. */
#define TLS_OUT_FIRST 2048
_Static_assert(TLS_RECORD_PLAIN_MAX == TLS_PLAIN_MAX, "tls_plan.h's record is tls_ctx.h's");

/* Cycles inside OpenSSL's calls (tls_ossl_cycles): per thread, as each
 * worker owns its connections; a TSC read before and after each call
 * (about 20 ns beside a record's microseconds). */
static __thread uint64_t ossl_tsc;

uint64_t
tls_ossl_cycles(void)
{
	return ossl_tsc;
}

/* expr, an OpenSSL call, its cycles counted; its value. */
#define OSSL(expr)                                        \
	({                                                \
		uint64_t t0_ = __rdtsc();                 \
		__typeof__(expr) r_ = (expr);             \
		ossl_tsc += __rdtsc() - t0_;              \
		r_;                                       \
	})

/* ---- the BIO: reads the segment being received, writes to c->out ---- */

static int
out_reserve(struct tls_conn *c, uint32_t n)
{
	uint32_t cap = c->out_cap ? c->out_cap : TLS_OUT_FIRST;
	uint8_t *p;

	if (n > TLS_OUT_MAX - c->out_len)
		return -1;
	while (cap < c->out_len + n)
		cap *= 2;
	if (cap == c->out_cap)
		return 0;
	p = OPENSSL_realloc(c->out, cap);
	if (p == NULL)
		return -1;
	c->out = p;
	c->out_cap = cap;
	return 0;
}

int
tls_out_reserve(struct tls_conn *c, uint32_t n)
{
	return out_reserve(c, n);
}

static int
bio_write(BIO *b, const char *data, int len)
{
	struct tls_conn *c = BIO_get_data(b);

	BIO_clear_retry_flags(b);
	if (len <= 0)
		return 0;
	/* at c->fill: the next planned record's place while records are
	 * planned (tls_write_later), else the end */
	if ((uint32_t)len > c->out_len - c->fill && out_reserve(c, (uint32_t)len - (c->out_len - c->fill)) < 0)
		return -1; /* not a retry: the SSL call fails, counted as internal */
	memcpy(c->out + c->fill, data, (size_t)len);
	c->fill += (uint32_t)len;
	if (c->fill > c->out_len)
		c->out_len = c->fill;
	return len;
}

static int
bio_read(BIO *b, char *data, int len)
{
	struct tls_conn *c = BIO_get_data(b);
	uint32_t n;

	BIO_clear_retry_flags(b);
	if (c->in_len == 0) {
		BIO_set_retry_read(b); /* the next segment will bring more */
		return -1;
	}
	n = (uint32_t)len < c->in_len ? (uint32_t)len : c->in_len;
	memcpy(data, c->in, n);
	c->in += n;
	c->in_len -= n;
	return (int)n;
}

static long
bio_ctrl(BIO *b, int cmd, long num, void *ptr)
{
	struct tls_conn *c = BIO_get_data(b);

	(void)num;
	(void)ptr;
	switch (cmd) {
	case BIO_CTRL_FLUSH:
		return 1; /* written records are in c->out already */
	case BIO_CTRL_PENDING:
		return c != NULL ? (long)c->in_len : 0;
	default:
		return 0;
	}
}

BIO_METHOD *
tls_bio_method(void)
{
	BIO_METHOD *m = BIO_meth_new(BIO_get_new_index() | BIO_TYPE_SOURCE_SINK, "dperf-tcp");

	if (m == NULL)
		return NULL;
	if (!BIO_meth_set_write(m, bio_write) || !BIO_meth_set_read(m, bio_read) ||
	    !BIO_meth_set_ctrl(m, bio_ctrl)) {
		BIO_meth_free(m);
		return NULL;
	}
	return m;
}

/* ---- the connection ---- */

/* Before anything else is written: every planned record. */
static inline void
plan_finish(struct tls_conn *c)
{
	tls_fill(c, c->out_len);
}


static int
failed(struct tls_conn *c, enum tls_fail kind)
{
	c->state = TLS_FAILED;
	c->fail = (uint8_t)kind;
	return -(int)kind;
}

/* An SSL call ended with SSL_get_error's e: 0 when it only waits for
 * more ciphertext, else the failure, classified by the reason OpenSSL
 * queued. The thread's error queue is emptied either way (it would grow
 * with every failure). */
static int
ssl_failure(struct tls_conn *c, int e)
{
	unsigned long code;
	int reason;

	/* SSL_get_error says WANT_* only when the error queue is empty (it
	 * peeks it first): nothing to clear. This is every segment that does
	 * not end a record, and ERR_clear_error (the thread's error state
	 * looked up, 16 slots each freeing two strings) was 6 to 9% of the
	 * client's time with 1 MB answers (issue 38) */
	if (e == SSL_ERROR_WANT_READ || e == SSL_ERROR_WANT_WRITE)
		return 0;
	code = ERR_peek_last_error();
	reason = ERR_GET_REASON(code);
	ERR_clear_error();
	if (e != SSL_ERROR_SSL || ERR_GET_LIB(code) != ERR_LIB_SSL)
		return failed(c, TLS_F_INTERNAL);
	if (reason == SSL_R_CERTIFICATE_VERIFY_FAILED)
		return failed(c, TLS_F_VERIFY);
	if (reason >= SSL_AD_REASON_OFFSET && reason < SSL_AD_REASON_OFFSET + 256) {
		c->alert = (uint8_t)(reason - SSL_AD_REASON_OFFSET);
		return failed(c, TLS_F_ALERT);
	}
	return failed(c, TLS_F_PROTO);
}

/* An SSL call returned r <= 0: ssl_failure's answer. */
static int
ssl_error(struct tls_conn *c, int r)
{
	return ssl_failure(c, SSL_get_error(c->ssl, r));
}

/* The client's session to resume, offered: a copy of the side's latest
 * (s->sess), shared by the connections opened until one of them ends a
 * handshake with it. OpenSSL's TLS 1.3 client then marks the session it
 * resumed not resumable (tls_finish_handshake removes it from the cache:
 * tickets used once), and the connections opened before that
 * connection's new ticket arrives would offer nothing: at the bench's
 * saturation 23% of the handshakes were full for this (issue 38,
 * test_resume_in_flight). The side's own session is never offered, so
 * it stays resumable and a fresh copy is made from it. */
static int
offer(struct tls_conn *c, struct tls_side *s)
{
	if (s->offer == NULL || !SSL_SESSION_is_resumable(s->offer)) {
		SSL_SESSION_free(s->offer);
		s->offer = SSL_SESSION_dup(s->sess);
		if (s->offer == NULL)
			return -1;
	}
	return SSL_set_session(c->ssl, s->offer) ? 0 : -1;
}

static void close_conn(struct tls_conn *c);

/* tls_open's work, every line of it OpenSSL's (SSL_new, the BIO, the
 * ClientHello): timed whole by tls_open. */
static int
open_conn(struct tls_conn *c, struct tls_side *s)
{
	BIO *b;

	memset(c, 0, sizeof(*c));
	c->ssl = SSL_new(s->ctx);
	b = BIO_new(s->bio);
	if (c->ssl == NULL || b == NULL) {
		BIO_free(b);
		goto bad;
	}
	BIO_set_data(b, c);
	BIO_set_init(b, 1);
	SSL_set_bio(c->ssl, b, b); /* one reference for both sides */
	c->state = TLS_HS;
	if (SSL_is_server(c->ssl)) {
		SSL_set_accept_state(c->ssl);
		return 0;
	}
	if (s->sni != NULL && (!SSL_set_tlsext_host_name(c->ssl, s->sni) ||
			       (s->verify && !SSL_set1_host(c->ssl, s->sni))))
		goto bad;
	if (s->alpn != NULL && SSL_set_alpn_protos(c->ssl, s->alpn, s->alpn_len) != 0)
		goto bad;
	if (s->sess != NULL && offer(c, s) < 0)
		goto bad;
	SSL_set_connect_state(c->ssl);
	if (ssl_error(c, SSL_do_handshake(c->ssl)) < 0)
		return -(int)c->fail;
	return 0;
bad:
	ERR_clear_error();
	close_conn(c);
	return failed(c, TLS_F_INTERNAL);
}

int
tls_open(struct tls_conn *c, struct tls_side *s)
{
	uint64_t t0 = __rdtsc();
	int r = open_conn(c, s);

	ossl_tsc += __rdtsc() - t0;
	return r;
}

int
tls_input(struct tls_conn *c, const uint8_t *data, uint32_t len, tls_plain_fn *fn, void *arg)
{
	int ev = 0, r;

	if (c->state == TLS_FAILED)
		return -(int)c->fail;
	if (c->state != TLS_HS && c->state != TLS_UP)
		return 0; /* after close_notify: nothing more is read */
	plan_finish(c); /* (SSL_read may write an alert) */
	if (c->state == TLS_FAILED)
		return -(int)c->fail;
	c->in = data;
	c->in_len = len;
	if (c->state == TLS_HS) {
		r = OSSL(SSL_do_handshake(c->ssl));
		if (r != 1) {
			r = ssl_error(c, r);
			goto out;
		}
		c->state = TLS_UP;
		c->resumed = (uint8_t)SSL_session_reused(c->ssl);
		ev |= TLS_EV_DONE;
	}
	/* Until the BIO is empty: every record of the segment, and the
	 * post-handshake messages (tickets) that SSL_read handles itself. */
	for (const struct tls_side *s = SSL_CTX_get_app_data(SSL_get_SSL_CTX(c->ssl));;) {
		int n, e;

		plan_finish(c); /* an answer planned by fn: written before SSL_read may write */
		if (c->state == TLS_FAILED) {
			r = -(int)c->fail;
			break;
		}
		n = OSSL(SSL_read(c->ssl, s->plain, TLS_PLAIN_MAX));

		if (n > 0) {
			fn(arg, s->plain, (uint32_t)n);
			/* the segment read whole and the record too: a further
			 * SSL_read would only say WANT_READ (without read_ahead
			 * OpenSSL reads no byte beyond the record it is in) */
			if (c->in_len == 0 && SSL_pending(c->ssl) == 0) {
				r = 0;
				break;
			}
			continue;
		}
		/* asked once: each call looks the thread's error state up,
		 * and a segment that does not end a record comes here (issue 38) */
		e = SSL_get_error(c->ssl, n);
		if (e == SSL_ERROR_ZERO_RETURN) {
			ERR_clear_error();
			c->state = TLS_SHUT;
			ev |= TLS_EV_CLOSE;
			r = 0;
			break;
		}
		r = ssl_failure(c, e);
		break;
	}
out:
	c->in = NULL;
	c->in_len = 0;
	return r < 0 ? r : ev;
}

static int
write_now(struct tls_conn *c, const void *data, uint32_t len)
{
	int r;

	if (c->state != TLS_UP)
		return -TLS_F_INTERNAL;
	if (len == 0)
		return 0;
	r = OSSL(SSL_write(c->ssl, data, (int)len));
	if (r == (int)len)
		return 0;
	r = ssl_error(c, r);
	return r < 0 ? r : failed(c, TLS_F_INTERNAL);
}

/* ---- records planned, written as the sender needs them ---- */

/* The plan given up: the rest zeros (the peer refuses the record), the
 * connection failed unless it already is. */
static void
plan_drop(struct tls_conn *c)
{
	if (c->fill < c->out_len)
		memset(c->out + c->fill, 0, c->out_len - c->fill);
	c->fill = c->out_len;
	c->src = NULL;
	c->src_len = 0;
	if (c->state != TLS_FAILED)
		failed(c, TLS_F_INTERNAL);
}

void
tls_fill_slow(struct tls_conn *c, uint32_t end)
{
	const struct tls_side *s = SSL_CTX_get_app_data(SSL_get_SSL_CTX(c->ssl));
	uint32_t ovh = tls_record_overhead(c);

	if (end > c->out_len)
		end = c->out_len;
	while (c->fill < end) {
		uint32_t n = tls_record_plain(c->src_len, c->fill % s->mss, s->mss, ovh, 0);
		uint32_t want = c->fill + n + ovh;
		const uint8_t *p = c->src;

		if (c->src_len == 0 || want > c->out_len) {
			plan_drop(c);
			return;
		}
		c->src += n;
		c->src_len -= n;
		if (write_now(c, p, n) < 0 || c->fill != want) {
			plan_drop(c);
			return;
		}
	}
	if (c->fill == c->out_len)
		c->src = NULL;
}

int
tls_write_later(struct tls_conn *c, const void *data, uint32_t len, uint32_t out_end)
{
	plan_finish(c);
	if (c->state != TLS_UP)
		return -TLS_F_INTERNAL;
	if (len == 0)
		return 0;
	if (out_end < c->out_len + len || out_reserve(c, out_end - c->out_len) < 0)
		return failed(c, TLS_F_INTERNAL);
	c->src = data;
	c->src_len = len;
	c->out_len = out_end; /* c->fill stays: the records go there */
	return 0;
}

int
tls_write(struct tls_conn *c, const void *data, uint32_t len)
{
	plan_finish(c);
	return write_now(c, data, len);
}

int64_t
tls_write_upto(struct tls_conn *c, const void *data, uint32_t len, uint32_t cap)
{
	const uint8_t *p = data;
	uint32_t taken = 0;

	if (cap > TLS_OUT_MAX)
		cap = TLS_OUT_MAX;
	while (taken < len) {
		uint32_t n = len - taken < TLS_PLAIN_MAX ? len - taken : TLS_PLAIN_MAX;
		int r;

		if (c->out_len > cap || cap - c->out_len < n + TLS_RECORD_OVERHEAD)
			break;
		r = tls_write(c, p + taken, n);
		if (r < 0)
			return r;
		taken += n;
	}
	return taken;
}

uint32_t
tls_record_overhead(const struct tls_conn *c)
{
	const SSL_CIPHER *ci = c->ssl != NULL ? SSL_get_current_cipher(c->ssl) : NULL;
	const char *name;
	uint32_t tag;

	if (ci == NULL || !SSL_CIPHER_is_aead(ci))
		return TLS_RECORD_OVERHEAD;
	name = SSL_CIPHER_get_name(ci);
	tag = strstr(name, "CCM8") != NULL || strstr(name, "CCM_8") != NULL ? 8 : 16;
	if (SSL_version(c->ssl) >= TLS1_3_VERSION)
		return 5 + 1 + tag; /* header, inner content type, tag */
	/* TLS 1.2: GCM and CCM carry an 8-byte explicit nonce, ChaCha20 none */
	return 5 + tag + (SSL_CIPHER_get_cipher_nid(ci) == NID_chacha20_poly1305 ? 0 : 8);
}

void
tls_shutdown(struct tls_conn *c)
{
	plan_finish(c);
	if (c->state == TLS_UP || c->state == TLS_SHUT) {
		(void)OSSL(SSL_shutdown(c->ssl));
		ERR_clear_error();
	}
}

int
tls_eof(struct tls_conn *c)
{
	if (c->state == TLS_HS)
		return failed(c, TLS_F_EOF);
	return c->state == TLS_FAILED ? -(int)c->fail : 0;
}

int
tls_timeout(struct tls_conn *c)
{
	return c->state == TLS_HS ? failed(c, TLS_F_TIMEOUT) : (c->state == TLS_FAILED ? -(int)c->fail : 0);
}

void
tls_acked(struct tls_conn *c, uint32_t n)
{
	if (n >= c->out_len) {
		/* all of it: the buffer goes, as OpenSSL's own do between records */
		OPENSSL_free(c->out);
		c->out = NULL;
		c->out_len = c->out_cap = c->fill = 0;
		c->src = NULL;
		c->src_len = 0;
		return;
	}
	plan_finish(c);
	memmove(c->out, c->out + n, c->out_len - n);
	c->out_len -= n;
	c->fill -= n;
}

static void
close_conn(struct tls_conn *c)
{
	/* A connection that completed its handshake and ends without our
	 * close_notify (a TCP close, the usual way for HTTP) keeps its
	 * session resumable: SSL_free would drop a session whose shutdown
	 * was not sent (ssl_clear_bad_session), so every TLS 1.2 client
	 * would fall back to full handshakes. */
	if (c->ssl != NULL && (c->state == TLS_UP || c->state == TLS_SHUT))
		SSL_set_shutdown(c->ssl, SSL_SENT_SHUTDOWN | SSL_RECEIVED_SHUTDOWN);
	SSL_free(c->ssl); /* and the BIO */
	OPENSSL_free(c->out);
	memset(c, 0, sizeof(*c));
}

void
tls_close(struct tls_conn *c)
{
	uint64_t t0 = __rdtsc();

	close_conn(c);
	ossl_tsc += __rdtsc() - t0;
}
