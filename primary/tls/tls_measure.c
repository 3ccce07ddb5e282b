/* SPDX-License-Identifier: BSD-3-Clause
 * The bytes one TLS connection of a side holds (tls_measure.h).
 */
#include <stdio.h>
#include <string.h>

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include "tls/tls_conn.h"
#include "tls/tls_mem.h"
#include "tls/tls_measure.h"

static const char request[] = "GET / HTTP/1.1\r\nHost: dperf\r\n\r\n";
static const char answer[] = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n";

/* A self-signed P-256 certificate made now: the peer of a client side. */
static int
peer_cert(SSL_CTX *ctx)
{
	EVP_PKEY *k = EVP_EC_gen("P-256");
	X509 *x = X509_new();
	X509_NAME *n;
	int ok = 0;

	if (k == NULL || x == NULL)
		goto out;
	n = X509_get_subject_name(x);
	ok = X509_set_version(x, 2) && ASN1_INTEGER_set(X509_get_serialNumber(x), 1) &&
	     X509_gmtime_adj(X509_getm_notBefore(x), 0) && X509_gmtime_adj(X509_getm_notAfter(x), 3600) &&
	     X509_set_pubkey(x, k) &&
	     X509_NAME_add_entry_by_txt(n, "CN", MBSTRING_ASC, (const unsigned char *)"dperf.test", -1, -1, 0) &&
	     X509_set_issuer_name(x, n) && X509_sign(x, k, EVP_sha256()) > 0 &&
	     SSL_CTX_use_certificate(ctx, x) == 1 && SSL_CTX_use_PrivateKey(ctx, k) == 1;
out:
	X509_free(x);
	EVP_PKEY_free(k);
	return ok ? 0 : -1;
}

/* The throwaway peer: OpenSSL's defaults, whatever s pinned. */
static int
peer_side(struct tls_side *p, const struct tls_side *s)
{
	int server = !s->server;

	memset(p, 0, sizeof(*p));
	p->server = server;
	p->ctx = SSL_CTX_new(server ? TLS_server_method() : TLS_client_method());
	p->bio = tls_bio_method();
	p->plain = OPENSSL_malloc(TLS_PLAIN_MAX);
	if (p->ctx == NULL || p->bio == NULL || p->plain == NULL)
		return -1;
	SSL_CTX_set_app_data(p->ctx, p);
	return server ? peer_cert(p->ctx) : 0;
}

static void
discard(void *arg, const uint8_t *data, uint32_t len)
{
	(void)arg;
	(void)data;
	(void)len;
}

/* a's records to b, whole; < 0 when b failed. */
static int
deliver(struct tls_conn *a, struct tls_conn *b, uint32_t *moved)
{
	int r = a->out_len ? tls_input(b, a->out, a->out_len, discard, NULL) : 0;

	*moved += a->out_len;
	tls_acked(a, a->out_len);
	return r;
}

static int
pump(struct tls_conn *x, struct tls_conn *y)
{
	for (int i = 0; i < 16; i++) {
		uint32_t moved = 0;

		if (deliver(x, y, &moved) < 0 || deliver(y, x, &moved) < 0)
			return -1;
		if (moved == 0)
			return 0;
	}
	return -1;
}

/* One connection of s, idle after a request and its answer: its bytes. */
static int64_t
measure_once(struct tls_side *s, struct tls_side *p)
{
	struct tls_conn c, peer;
	struct tls_conn *cli = s->server ? &peer : &c, *srv = cli == &c ? &peer : &c;
	int64_t up;
	int ok;

	memset(&peer, 0, sizeof(peer));
	ok = tls_open(&c, s) == 0 && tls_open(&peer, p) == 0;
	if (ok && cli == &c) /* a verifying client checks the real server, not this one */
		SSL_set_verify(c.ssl, SSL_VERIFY_NONE, NULL);
	/* the server waits for the ClientHello a client's tls_open wrote */
	ok = ok && pump(cli, srv) == 0 && c.state == TLS_UP && peer.state == TLS_UP &&
	     tls_write(cli, request, sizeof(request) - 1) == 0 && pump(cli, srv) == 0 &&
	     tls_write(srv, answer, sizeof(answer) - 1) == 0 && pump(cli, srv) == 0;
	up = tls_mem_live();
	/* TLS 1.2: a client's session is also the one it keeps to resume;
	 * counted here as a full handshake's connection holds it */
	if (s->sess != NULL && s->sess == SSL_get0_session(c.ssl)) {
		SSL_SESSION_free(s->sess);
		s->sess = NULL;
	}
	tls_close(&c);
	up -= tls_mem_live();
	tls_close(&peer);
	ERR_clear_error();
	return ok ? up + (int64_t)sizeof(struct tls_conn) : -1;
}

int64_t
tls_conn_bytes(struct tls_side *s, char *err, size_t errlen)
{
	struct tls_side p = {0};
	SSL_SESSION *kept = s->sess;
	int64_t n = -1;

	if (kept != NULL)
		SSL_SESSION_up_ref(kept); /* new_session frees the side's reference */
	if (!tls_mem_counted()) {
		snprintf(err, errlen, "TLS: OpenSSL's memory is not counted (tls_mem_init came too late)");
		goto out;
	}
	if (peer_side(&p, s) < 0) {
		snprintf(err, errlen, "TLS: cannot make a peer to measure a connection's memory");
		goto out;
	}
	/* twice: OpenSSL's first use of a path allocates for good */
	if (measure_once(s, &p) < 0 || (n = measure_once(s, &p)) < 0)
		snprintf(err, errlen, "TLS: a handshake with these tls_* settings failed against "
			 "OpenSSL's defaults (measuring a connection's memory)");
out:
	ERR_clear_error();
	tls_side_free(&p);
	/* a session from the throwaway peer would be offered to the real one */
	SSL_SESSION_free(s->offer);
	s->offer = NULL;
	if (s->sess != kept) {
		SSL_SESSION_free(s->sess);
		s->sess = kept; /* our reference becomes the side's */
	} else
		SSL_SESSION_free(kept);
	return n;
}
