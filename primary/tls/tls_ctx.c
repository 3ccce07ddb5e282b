/* SPDX-License-Identifier: BSD-3-Clause
 * One worker's SSL_CTX (tls_ctx.h).
 */
#include <stdio.h>
#include <string.h>

#include <openssl/err.h>
#include <openssl/ssl.h>

#include "tls/tls_conn.h"
#include "tls/tls_ctx.h"

/* Server: one ticket per full handshake (OpenSSL sends two by default in
 * TLS 1.3; a load generator's client resumes with one). */
#define TLS_TICKETS 1

/* The error OpenSSL queued, after what we were doing. */
static int
ctx_fail(char *err, size_t errlen, const char *what, const char *arg)
{
	char e[256] = "";
	unsigned long code = ERR_peek_last_error();

	if (code != 0)
		ERR_error_string_n(code, e, sizeof(e));
	snprintf(err, errlen, "%s%s%s%s%s", what, arg ? " " : "", arg ? arg : "", *e ? ": " : "", e);
	ERR_clear_error();
	return -1;
}

/* The client keeps the latest session it was given to resume the next
 * connection with: one per worker, whichever connection received it.
 * Connections offer a copy of it (tls_open), made afresh from this one. */
static int
new_session(SSL *ssl, SSL_SESSION *sess)
{
	struct tls_side *s = SSL_CTX_get_app_data(SSL_get_SSL_CTX(ssl));

	if (s->sess != NULL)
		SSL_SESSION_free(s->sess);
	s->sess = sess;
	SSL_SESSION_free(s->offer); /* the newest is offered from now on */
	s->offer = NULL;
	return 1; /* the reference is ours */
}

static int
select_alpn(SSL *ssl, const unsigned char **out, unsigned char *outlen, const unsigned char *in,
	    unsigned int inlen, void *arg)
{
	struct tls_side *s = arg;

	(void)ssl;
	if (SSL_select_next_proto((unsigned char **)out, outlen, s->alpn, s->alpn_len, in, inlen) !=
	    OPENSSL_NPN_NEGOTIATED)
		return SSL_TLSEXT_ERR_ALERT_FATAL; /* RFC 7301 3.2: no_application_protocol */
	return SSL_TLSEXT_ERR_OK;
}

/* "h2,http/1.1" -> "\x02h2\x08http/1.1" */
static int
alpn_wire(struct tls_side *s, const char *list, char *err, size_t errlen)
{
	size_t n = strlen(list), i = 0, at = 0;

	s->alpn = OPENSSL_malloc(n + 1);
	if (s->alpn == NULL)
		return ctx_fail(err, errlen, "tls_alpn: out of memory", NULL);
	while (i <= n) {
		size_t e = i + strcspn(list + i, ",");

		if (e == i || e - i > 255) {
			snprintf(err, errlen, "tls_alpn %s: each protocol 1 to 255 bytes, comma-separated", list);
			return -1;
		}
		s->alpn[at++] = (uint8_t)(e - i);
		memcpy(s->alpn + at, list + i, e - i);
		at += e - i;
		i = e + 1;
	}
	s->alpn_len = (uint32_t)at;
	return 0;
}

/* tls_ciphers: the TLS 1.3 suites (TLS_*) and the TLS 1.2 list apart,
 * as OpenSSL sets them apart. */
static int
set_ciphers(SSL_CTX *ctx, const char *list, char *err, size_t errlen)
{
	size_t n = strlen(list);
	char *v13 = OPENSSL_zalloc(n + 1), *v12 = OPENSSL_zalloc(n + 1), *copy = OPENSSL_strdup(list);
	char *tok, *save = NULL;
	int rc = 0;

	if (v13 == NULL || v12 == NULL || copy == NULL) {
		rc = ctx_fail(err, errlen, "tls_ciphers: out of memory", NULL);
		goto out;
	}
	for (tok = strtok_r(copy, ":", &save); tok != NULL; tok = strtok_r(NULL, ":", &save)) {
		char *to = strncmp(tok, "TLS_", 4) == 0 ? v13 : v12;

		if (*to)
			strcat(to, ":");
		strcat(to, tok);
	}
	if (*v13 && !SSL_CTX_set_ciphersuites(ctx, v13))
		rc = ctx_fail(err, errlen, "tls_ciphers: TLS 1.3 suites", v13);
	else if (*v12 && !SSL_CTX_set_cipher_list(ctx, v12))
		rc = ctx_fail(err, errlen, "tls_ciphers: TLS 1.2 ciphers", v12);
	else if (!*v13 && !*v12)
		rc = ctx_fail(err, errlen, "tls_ciphers: empty", NULL);
out:
	OPENSSL_free(v13);
	OPENSSL_free(v12);
	OPENSSL_free(copy);
	return rc;
}

static int
set_versions(SSL_CTX *ctx, int version, char *err, size_t errlen)
{
	int lo = TLS1_2_VERSION, hi = TLS1_3_VERSION;

	if (version == 12)
		hi = TLS1_2_VERSION;
	else if (version == 13)
		lo = TLS1_3_VERSION;
	else if (version != 0) {
		snprintf(err, errlen, "tls_version %d: 1.2 or 1.3", version);
		return -1;
	}
	if (!SSL_CTX_set_min_proto_version(ctx, lo) || !SSL_CTX_set_max_proto_version(ctx, hi))
		return ctx_fail(err, errlen, "tls_version", NULL);
	return 0;
}

static int
set_resume(struct tls_side *s, const struct tls_opts *o)
{
	SSL_CTX *ctx = s->ctx;

	if (o->server) {
		static const unsigned char sid_ctx[] = "dperf";

		SSL_CTX_set_session_id_context(ctx, sid_ctx, sizeof(sid_ctx) - 1);
		if (o->resume == DP_TLS_RESUME_NONE) {
			SSL_CTX_set_options(ctx, SSL_OP_NO_TICKET);
			SSL_CTX_set_num_tickets(ctx, 0);
			SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_OFF);
		} else if (o->resume == DP_TLS_RESUME_IDS) {
			SSL_CTX_set_options(ctx, SSL_OP_NO_TICKET); /* TLS 1.3: stateful tickets */
			SSL_CTX_set_num_tickets(ctx, TLS_TICKETS);
			SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_SERVER);
		} else {
			SSL_CTX_set_num_tickets(ctx, TLS_TICKETS);
			SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_OFF);
		}
		return 0;
	}
	if (o->resume == DP_TLS_RESUME_NONE) {
		SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_OFF);
		SSL_CTX_set_options(ctx, SSL_OP_NO_TICKET);
		return 0;
	}
	if (o->resume == DP_TLS_RESUME_IDS)
		SSL_CTX_set_options(ctx, SSL_OP_NO_TICKET); /* TLS 1.2: ask for none */
	/* Sessions go to new_session only: no internal cache to grow. */
	SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_CLIENT | SSL_SESS_CACHE_NO_INTERNAL_STORE);
	SSL_CTX_sess_set_new_cb(ctx, new_session);
	return 0;
}

static int
load_keys(struct tls_side *s, const struct tls_opts *o, char *err, size_t errlen)
{
	if (o->server) {
		if (o->cert == NULL || o->key == NULL) {
			snprintf(err, errlen, "a TLS server needs tls_cert and tls_key");
			return -1;
		}
		if (SSL_CTX_use_certificate_chain_file(s->ctx, o->cert) != 1)
			return ctx_fail(err, errlen, "tls_cert", o->cert);
		if (SSL_CTX_use_PrivateKey_file(s->ctx, o->key, SSL_FILETYPE_PEM) != 1)
			return ctx_fail(err, errlen, "tls_key", o->key);
		if (SSL_CTX_check_private_key(s->ctx) != 1)
			return ctx_fail(err, errlen, "tls_key is not tls_cert's key:", o->key);
		return 0;
	}
	if (o->verify) {
		if (o->ca == NULL) {
			snprintf(err, errlen, "tls_verify 1 needs tls_ca");
			return -1;
		}
		if (SSL_CTX_load_verify_locations(s->ctx, o->ca, NULL) != 1)
			return ctx_fail(err, errlen, "tls_ca", o->ca);
		SSL_CTX_set_verify(s->ctx, SSL_VERIFY_PEER, NULL);
	}
	return 0;
}

static const char *
given(const char *s)
{
	return s[0] != '\0' ? s : NULL;
}

void
tls_opts_of(const struct dp_config *cfg, struct tls_opts *o)
{
	*o = (struct tls_opts){
		.server = cfg->mode == DP_MODE_SERVER,
		.cert = given(cfg->tls_cert),
		.key = given(cfg->tls_key),
		.version = cfg->tls_version,
		.ciphers = given(cfg->tls_ciphers),
		.groups = given(cfg->tls_groups),
		.resume = (enum dp_tls_resume)cfg->tls_resume,
		.sni = given(cfg->tls_sni),
		.alpn = given(cfg->tls_alpn),
		.verify = cfg->tls_verify,
		.ca = given(cfg->tls_ca),
	};
}

int
tls_side_init(struct tls_side *s, const struct tls_opts *o, char *err, size_t errlen)
{
	memset(s, 0, sizeof(*s));
	s->ctx = SSL_CTX_new(o->server ? TLS_server_method() : TLS_client_method());
	s->bio = tls_bio_method();
	s->plain = OPENSSL_malloc(TLS_PLAIN_MAX);
	if (s->ctx == NULL || s->bio == NULL || s->plain == NULL) {
		ctx_fail(err, errlen, "TLS: cannot make the context", NULL);
		goto bad;
	}
	SSL_CTX_set_app_data(s->ctx, s);
	/* A connection between records holds no read or write buffer. */
	SSL_CTX_set_mode(s->ctx, SSL_MODE_RELEASE_BUFFERS);
	SSL_CTX_set_options(s->ctx, SSL_OP_NO_COMPRESSION | SSL_OP_NO_RENEGOTIATION);
	if (set_versions(s->ctx, o->version, err, errlen) < 0 ||
	    (o->ciphers != NULL && set_ciphers(s->ctx, o->ciphers, err, errlen) < 0))
		goto bad;
	if (!SSL_CTX_set1_groups_list(s->ctx, o->groups ? o->groups : TLS_GROUPS_DEFAULT)) {
		ctx_fail(err, errlen, "tls_groups", o->groups ? o->groups : TLS_GROUPS_DEFAULT);
		goto bad;
	}
	if (load_keys(s, o, err, errlen) < 0 || set_resume(s, o) < 0)
		goto bad;
	if (o->alpn != NULL) {
		if (alpn_wire(s, o->alpn, err, errlen) < 0)
			goto bad;
		if (o->server)
			SSL_CTX_set_alpn_select_cb(s->ctx, select_alpn, s);
	}
	if (o->sni != NULL && (s->sni = OPENSSL_strdup(o->sni)) == NULL) {
		ctx_fail(err, errlen, "tls_sni: out of memory", NULL);
		goto bad;
	}
	s->verify = o->verify;
	s->server = o->server;
	return 0;
bad:
	tls_side_free(s);
	return -1;
}

void
tls_side_free(struct tls_side *s)
{
	SSL_SESSION_free(s->sess);
	SSL_SESSION_free(s->offer);
	SSL_CTX_free(s->ctx);
	BIO_meth_free(s->bio);
	OPENSSL_free(s->alpn);
	OPENSSL_free((char *)s->sni);
	OPENSSL_free(s->plain);
	memset(s, 0, sizeof(*s));
}
