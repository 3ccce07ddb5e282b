/* SPDX-License-Identifier: BSD-3-Clause
 * One worker's TLS side: its SSL_CTX, made once at setup with everything
 * a connection needs preloaded (certificate and key, pinned versions,
 * ciphers and groups, resumption), so that a connection costs SSL_new and
 * no file or lock is touched on the packet path.
 */
#ifndef DPERF_TLS_CTX_H
#define DPERF_TLS_CTX_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/ssl.h>

#include "config.h"

/* What the configuration says (tls_* keywords); strings NULL when unset. */
struct tls_opts {
	int server;
	const char *cert, *key; /* server: PEM files (the cert file may hold its chain) */
	int version;            /* 0: TLS 1.2 and 1.3; 12 or 13: that one only */
	const char *ciphers;    /* ':'-separated; TLS_* names are TLS 1.3 suites, the rest TLS 1.2 */
	const char *groups;     /* key exchange, e.g. "X25519" or "P-256" (NULL: TLS_GROUPS_DEFAULT) */
	enum dp_tls_resume resume; /* none, tickets (the server keeps nothing), ids (it keeps the sessions) */
	const char *sni;        /* client: server name sent (and checked with verify) */
	const char *alpn;       /* ','-separated protocols, e.g. "http/1.1" */
	int verify;             /* client: check the server's certificate against ca */
	const char *ca;         /* client: PEM file of trusted certificates */
};

/* Pinned so that figures compare across OpenSSL versions and peers: the
 * key exchange is X25519 (first in order, the only key share sent). P-256
 * is listed too because in TLS 1.2 the groups also say which curves an
 * ECDSA certificate may be on (RFC 8422 5.1.1): without it a P-256
 * certificate has no cipher in common. */
#define TLS_GROUPS_DEFAULT DP_TLS_GROUPS_DEFAULT

/* The largest plaintext record (RFC 8446 5.1). */
#define TLS_PLAIN_MAX 16384

struct tls_side {
	SSL_CTX *ctx;
	BIO_METHOD *bio;        /* tls_conn.c's BIO between OpenSSL and our TCP */
	SSL_SESSION *sess;      /* client: the session to resume (the latest received), never offered itself */
	SSL_SESSION *offer;     /* client: sess's copy that connections offer, until a handshake used it up */
	uint8_t *alpn;          /* ALPN protocols, wire format (length-prefixed) */
	uint32_t alpn_len;
	const char *sni;
	int verify;
	int server;
	uint8_t *plain;         /* TLS_PLAIN_MAX bytes: where records are decrypted */
	uint32_t mss;           /* the segment planned records are cut to (tls_write_later; the worker's) */
};

/* o from the configuration's tls_* keywords (its strings point into cfg,
 * which must outlive the side's making; NULL when not given). */
void tls_opts_of(const struct dp_config *cfg, struct tls_opts *o);

/* Makes the side from o. Returns 0, or -1 with one line in err naming
 * what is wrong (a file that cannot be read, a cipher or group OpenSSL
 * does not know, a key that is not the certificate's). */
int tls_side_init(struct tls_side *s, const struct tls_opts *o, char *err, size_t errlen);

void tls_side_free(struct tls_side *s);

#endif
