/* SPDX-License-Identifier: BSD-3-Clause
 * One TLS connection over our TCP: an SSL object whose BIO reads the
 * ciphertext of the segment being received (no copy, no kernel socket)
 * and writes records into the connection's own buffer, which the TCP
 * sender cuts into segments (tls_src.h) and which is kept until the peer
 * acknowledges it (a retransmission is cut again from it).
 *
 * A long message's records after its first are written as the sender
 * needs them (tls_write_later, tls_fill): the buffer's room and length are
 * the whole message's from the start (an AEAD record's length is known
 * before it is written), its bytes encrypted a record at a time just
 * ahead of the segment cut from them, so they are still in the caches
 * when copied into the packet (issue 38: they were written a megabyte
 * ahead and read back cold).
 *
 * Memory: what a connection holds is measured (tls_mem.h); between
 * records OpenSSL's buffers are released (SSL_MODE_RELEASE_BUFFERS) and so
 * is ours once acknowledged.
 */
#ifndef DPERF_TLS_CONN_H
#define DPERF_TLS_CONN_H

#include <stdint.h>

#include <openssl/ssl.h>

#include "tls/tls_ctx.h"
#include "tls/tls_plan.h"

enum tls_state {
	TLS_IDLE = 0, /* no SSL object */
	TLS_HS,       /* handshake in progress */
	TLS_UP,       /* handshake completed: application data */
	TLS_SHUT,     /* the peer's close_notify received */
	TLS_FAILED,   /* fatal error (kind in fail): only freeing is left */
	TLS_PLAIN,    /* server with plain_http: a connection served as plain HTTP (no SSL) */
};

/* Why a connection failed: counted by kind. */
enum tls_fail {
	TLS_F_NONE = 0,
	TLS_F_ALERT,    /* the peer sent a fatal alert */
	TLS_F_PROTO,    /* what the peer sent is malformed or unexpected (we sent the alert) */
	TLS_F_VERIFY,   /* client: the server's certificate did not verify */
	TLS_F_EOF,      /* the peer closed the connection mid-handshake */
	TLS_F_TIMEOUT,  /* the handshake stalled (the TCP timers gave up) */
	TLS_F_INTERNAL, /* out of memory, or OpenSSL could not start the connection */
	TLS_F__COUNT,
};

struct tls_conn {
	SSL *ssl;
	uint8_t *out;       /* records written, from the first byte not yet acknowledged */
	uint32_t out_len;   /* bytes of records, written or planned (tls_write_later) */
	uint32_t out_cap;
	const uint8_t *src; /* plaintext of the planned records not yet written (tls_write_later) */
	uint32_t src_len;
	uint32_t fill;      /* bytes of c->out written: out_len but while records are planned */
	const uint8_t *in;  /* ciphertext of the segment being read */
	uint32_t in_len;
	uint8_t state;      /* enum tls_state */
	uint8_t fail;       /* enum tls_fail, when state is TLS_FAILED */
	uint8_t alert;      /* TLS_F_ALERT: the peer's alert description (RFC 8446 6) */
	uint8_t resumed;    /* the handshake resumed a session */
};

/* tls_input()'s events (a bit set), or a negative enum tls_fail. */
#define TLS_EV_DONE  0x1 /* the handshake completed in this call */
#define TLS_EV_CLOSE 0x2 /* the peer's close_notify */

/* Plaintext received, in order. */
typedef void tls_plain_fn(void *arg, const uint8_t *data, uint32_t len);

/* The BIO_METHOD of our BIO (one per side: tls_ctx.c). */
BIO_METHOD *tls_bio_method(void);

/* Starts a connection; a client's ClientHello is then in c->out (with
 * SNI, ALPN and the session to resume as the side says). Returns 0 or
 * -TLS_F_INTERNAL. c must not move while the connection lives. */
int tls_open(struct tls_conn *c, struct tls_side *s);

/* Ciphertext received in order (a segment's payload, any length, any cut
 * of the records). Plaintext goes to fn; records to send (the handshake's
 * next flight, an alert) are appended to c->out. Returns TLS_EV_* bits,
 * or -enum tls_fail once the connection failed (c->out may hold our alert). */
int tls_input(struct tls_conn *c, const uint8_t *data, uint32_t len, tls_plain_fn *fn, void *arg);

/* Plaintext to send: its records appended to c->out. 0, or -enum tls_fail.
 * For a message whose records fit below TLS_OUT_MAX (a request, a head). */
int tls_write(struct tls_conn *c, const void *data, uint32_t len);

/* The rest of a message whose first record tls_write wrote: len bytes
 * of plaintext at data (which must stay put until written) planned as
 * records ending at out_end (c->out's length once all are written, sized
 * by the caller with tls_plan.h's tls_record_plain for the side's mss
 * and the connection's exact overhead, tls_record_overhead), written by
 * tls_fill as the sender needs them. Only with an AEAD cipher (a record's
 * length known before it is written). 0, or -enum tls_fail (no room). */
int tls_write_later(struct tls_conn *c, const void *data, uint32_t len, uint32_t out_end);

/* c->out's first end bytes written (the planned records up to them
 * encrypted). Anything else written to c->out (a record, an alert, our
 * close_notify) first writes every planned record, so nothing lands
 * inside the plan. Should a planned record not come out as planned (an
 * internal failure) the connection fails and the rest of the plan is
 * zeros, which the peer refuses. */
void tls_fill_slow(struct tls_conn *c, uint32_t end);

static inline void
tls_fill(struct tls_conn *c, uint32_t end)
{
	if (__builtin_expect(end > c->fill, 0))
		tls_fill_slow(c, end);
}

/* (TLS_OUT_MAX, the records not yet acknowledged a connection may hold:
 * tls_plan.h) */

/* A long body: as much of data as fits, a full record at a time, while
 * c->out stays at most cap bytes (at most TLS_OUT_MAX); the rest waits for
 * the peer to acknowledge what is out. Returns the plaintext bytes taken
 * (0 when c->out is full), or -enum tls_fail. */
int64_t tls_write_upto(struct tls_conn *c, const void *data, uint32_t len, uint32_t cap);

/* Room for n more bytes of records in c->out, made at once: a long
 * message's records are then written without the buffer growing (each
 * growth a realloc that may copy what is written). 0, or -1 (beyond
 * TLS_OUT_MAX, or out of memory: the write that follows fails). */
int tls_out_reserve(struct tls_conn *c, uint32_t n);

/* The bytes a record adds to its plaintext with the connection's cipher
 * (TLS 1.3 AES-GCM: 22; TLS 1.2 AES-GCM: 29); TLS_RECORD_OVERHEAD when
 * unknown (before the handshake, a CBC suite). */
uint32_t tls_record_overhead(const struct tls_conn *c);

/* Our close_notify appended to c->out. */
void tls_shutdown(struct tls_conn *c);

/* The peer closed its side (FIN or RST): during the handshake that is a
 * failure (returns -TLS_F_EOF), after it the end of the stream (0). */
int tls_eof(struct tls_conn *c);

/* The handshake stalled: failed as TLS_F_TIMEOUT (returns it negated). */
int tls_timeout(struct tls_conn *c);

/* The first n bytes of c->out acknowledged by the peer: dropped (the
 * buffer freed when empty). */
void tls_acked(struct tls_conn *c, uint32_t n);

/* Ends the connection whatever its state: every path that ends a TCP
 * connection (FIN, RST, timeout, stop) calls it. Idempotent. */
void tls_close(struct tls_conn *c);

/* TSC cycles the calling thread has spent inside OpenSSL's calls, from
 * the functions above (SSL_new to SSL_free, with our BIO's copies that
 * they make; not the plaintext callbacks nor our own code around them).
 * A worker's tlsUs counter (engine/worker.c): its core's time in OpenSSL
 * beside its busy time, in the same seconds, so the engine's own cost
 * per TLS connection or answer is measured where the box's speed cannot
 * differ (issue 38: a reference run minutes apart saw up to 1.5x). */
uint64_t tls_ossl_cycles(void);

#endif
