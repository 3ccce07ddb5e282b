/* SPDX-License-Identifier: BSD-3-Clause
 * The out-of-order receive queue: segments that arrived ahead of rcv_nxt,
 * held until the gap before them fills, then delivered in order. Without
 * it every loss costs the peer everything sent after the lost segment
 * (issue 27: 12,514 drops made 153,919 tcpOoo and kept 16% of the
 * lossless goodput).
 *
 * One bounded pool per worker, not a queue in each socket: a connection
 * names its held segments by a 16-bit handle (the index + 1 of its
 * lowest one, 0 for none), so the 64-byte socket does not grow and a
 * connection that never sees a gap costs nothing. A connection's
 * segments are a list sorted by sequence number, at most per_conn of
 * them (a window's worth), and never overlapping: an arriving segment is
 * trimmed to the bytes not yet held, one whose bytes are all held is a
 * duplicate, and held segments that an arrival covers whole are released
 * (the arrival keeps their bytes). Each byte is therefore held at most
 * once and delivered at most once.
 *
 * A held segment is opaque here (an mbuf in the engine, a test's buffer in
 * the unit test): the pool records where its bytes start (off) and how
 * many it keeps (len), and gives it back through the pool's release
 * function when it is dropped, or to the caller when it is delivered.
 *
 * Ownership: a segment handed to ooo_insert belongs to the pool only when
 * the answer is OOO_HELD; otherwise the caller still owns it (and
 * releases it, counting why).
 */
#ifndef DPERF_TCP_OOO_H
#define DPERF_TCP_OOO_H

#include <stddef.h>
#include <stdint.h>

#include "tcp/tcp_seq.h"

#define OOO_CAP_MAX 65535 /* handles are 16 bits */
/* The engine's pool: segments held per worker (each an mbuf the port's
 * pool has beside its rings: dev/port.c, boot/eal_args.c), and per
 * connection: 64 covers the 45 full segments of the 64 KiB window we
 * advertise (tcp/tcp_out.h), so one hole never costs what followed it. */
#define DP_OOO_SEGS 4096
#define DP_OOO_PER_CONN 64

struct ooo_ent {
	uint32_t seq;   /* first byte held */
	uint16_t len;   /* bytes held */
	uint16_t off;   /* where they start in the segment (its front may have been trimmed) */
	uint16_t next;  /* the connection's next higher segment, or the free list: index + 1, 0 = none */
	uint16_t pad;
	uint32_t stamp; /* arrival order, for SACK blocks most recent first */
	void *seg;      /* the segment (an mbuf) */
};

struct ooo_pool {
	struct ooo_ent *e;
	uint32_t cap;      /* entries */
	uint32_t used;     /* held now, all connections */
	uint32_t per_conn; /* most segments one connection holds */
	uint32_t stamp;    /* arrivals so far */
	uint16_t free;     /* free list head: index + 1, 0 = empty */
	void (*release)(void *ctx, void *seg);
	void *ctx;
};

/* What ooo_insert did with a segment. */
enum ooo_res {
	OOO_HELD = 0, /* held (perhaps trimmed); the pool owns it */
	OOO_DUP,      /* every byte was held or delivered already: the caller's */
	OOO_FULL,     /* no room (the pool, or the connection's per_conn): the caller's */
};

/* A held segment handed back in order. */
struct ooo_out {
	void *seg;
	uint32_t seq; /* of its first byte to deliver */
	uint16_t off; /* where that byte is in the segment */
	uint16_t len; /* bytes to deliver */
};

/* A pool of cap entries (at most OOO_CAP_MAX), per_conn per connection;
 * release(ctx, seg) gives a dropped segment back. Returns -1 when the
 * entries cannot be allocated. */
int ooo_init(struct ooo_pool *p, uint32_t cap, uint32_t per_conn, void (*release)(void *ctx, void *seg),
	     void *ctx);
void ooo_fini(struct ooo_pool *p);

/* Hold bytes [seq, seq + len) of segment seg, found at offset off in it
 * (an mbuf's payload from its buffer's start), for the connection whose
 * handle is *head, which expects rcv_nxt next. off + len is at most 65535. */
enum ooo_res ooo_insert(struct ooo_pool *p, uint16_t *head, uint32_t rcv_nxt, uint32_t seq, uint32_t len,
			void *seg, uint16_t off);

/* The held segment that continues the stream at rcv_nxt, removed from the
 * queue and the caller's (it delivers out->len bytes, then frees it);
 * held bytes below rcv_nxt (delivered by an in-order segment that
 * overlapped them) are skipped, and a segment left with none is
 * released. Returns 0 when the next byte is not held. */
int ooo_pop(struct ooo_pool *p, uint16_t *head, uint32_t rcv_nxt, struct ooo_out *out);

/* The connection ends: every segment it holds is released. Returns how
 * many. */
uint32_t ooo_release_all(struct ooo_pool *p, uint16_t *head);

/* SACK blocks (RFC 2018 4) from the held segments: contiguous held bytes
 * are one block; the block holding the most recent arrival first, then
 * the others by their latest arrival. At most max; returns how many. */
uint32_t ooo_sack(const struct ooo_pool *p, uint16_t head, struct sack_block *b, uint32_t max);

/* Every segment the pool holds, whoever holds it, is released (the end of
 * the test, or a reset of the socket table: the handles in the sockets
 * are stale after it). Returns how many. */
uint32_t ooo_drain(struct ooo_pool *p);

/* Segments the connection holds. */
uint32_t ooo_count(const struct ooo_pool *p, uint16_t head);

#endif
