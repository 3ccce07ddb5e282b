/* SPDX-License-Identifier: BSD-3-Clause
 * The out-of-order receive queue (primary/tcp/tcp_ooo.c): a receiver fed
 * a small window's segments in every order, with duplicates, overlapping
 * retransmissions and lost segments, delivers the stream exactly once and
 * in order, and gives every segment back; SACK blocks from it, most recent
 * first; queue-full and release at the end of a connection.
 */
// links: primary/tcp/tcp_ooo.c
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tcp/tcp_ooo.h"

#define ISN 0xfffffff0u /* the window crosses 2^32 */
#define STREAM 64

static uint8_t stream[STREAM];
static int live; /* segments allocated and not yet freed */

struct tseg {
	uint32_t seq, len;
	uint8_t data[];
};

static struct tseg *
tseg_new(uint32_t off, uint32_t len)
{
	struct tseg *t = malloc(sizeof(*t) + len);

	assert_non_null(t);
	t->seq = ISN + off;
	t->len = len;
	memcpy(t->data, stream + off, len);
	live++;
	return t;
}

static void
tseg_free(void *ctx, void *seg)
{
	(void)ctx;
	free(seg);
	live--;
}

/* A receiver: what it delivered, in order. */
struct rx {
	struct ooo_pool *p;
	uint16_t head;
	uint32_t rcv_nxt;
	uint8_t out[STREAM];
	uint32_t got;
	uint32_t full, dup;
};

static void
deliver(struct rx *r, const uint8_t *d, uint32_t len)
{
	assert_true(r->got + len <= STREAM);
	memcpy(r->out + r->got, d, len);
	r->got += len;
	r->rcv_nxt += len;
}

/* A segment arrives: in order (its new bytes delivered, then whatever the
 * queue holds next), ahead (held), or all old (dropped). */
static void
arrive(struct rx *r, uint32_t off, uint32_t len)
{
	struct tseg *t = tseg_new(off, len);
	uint32_t end = t->seq + len;
	struct ooo_out o;

	if (seq_le(t->seq, r->rcv_nxt) && seq_gt(end, r->rcv_nxt)) {
		deliver(r, t->data + (r->rcv_nxt - t->seq), end - r->rcv_nxt);
		tseg_free(NULL, t);
		while (ooo_pop(r->p, &r->head, r->rcv_nxt, &o)) {
			struct tseg *h = o.seg;

			assert_int_equal(o.seq, r->rcv_nxt);
			assert_true(o.off >= offsetof(struct tseg, data));
			assert_true(o.off + o.len <= offsetof(struct tseg, data) + h->len);
			deliver(r, (const uint8_t *)h + o.off, o.len);
			tseg_free(NULL, h);
		}
		return;
	}
	if (seq_le(end, r->rcv_nxt)) {
		r->dup++;
		tseg_free(NULL, t);
		return;
	}
	/* its bytes where an mbuf's are: past a header, from the buffer's start */
	switch (ooo_insert(r->p, &r->head, r->rcv_nxt, t->seq, len, t, offsetof(struct tseg, data))) {
	case OOO_HELD:
		break;
	case OOO_DUP:
		r->dup++;
		tseg_free(NULL, t);
		break;
	case OOO_FULL:
		r->full++;
		tseg_free(NULL, t);
		break;
	}
}

struct piece {
	uint32_t off, len;
};

/* The pieces in the given order; then the sender resends in order, cut
 * as at first, from the receiver's rcv_nxt until all is there (what a
 * timeout does for whatever was lost or not held). */
static void
run(const struct piece *pc, const int *order, int n, uint32_t per_conn, uint32_t *full)
{
	static const uint32_t cut = 7;
	struct ooo_pool p;
	struct rx r = { .p = &p, .rcv_nxt = ISN };

	assert_int_equal(ooo_init(&p, 16, per_conn, tseg_free, NULL), 0);
	for (int i = 0; i < n; i++)
		arrive(&r, pc[order[i]].off, pc[order[i]].len);
	while (r.got < STREAM) {
		uint32_t off = r.rcv_nxt - ISN, len = STREAM - off < cut ? STREAM - off : cut;

		arrive(&r, off, len);
	}
	assert_int_equal(r.got, STREAM);
	assert_memory_equal(r.out, stream, STREAM);
	assert_int_equal(r.head, 0);
	assert_int_equal(p.used, 0);
	assert_int_equal(live, 0);
	if (full)
		*full += r.full;
	ooo_fini(&p);
}

/* Next permutation in lexicographic order; 0 after the last. */
static int
next_perm(int *a, int n)
{
	int i = n - 2, j = n - 1;

	while (i >= 0 && a[i] >= a[i + 1])
		i--;
	if (i < 0)
		return 0;
	while (a[j] <= a[i])
		j--;
	int t = a[i];
	a[i] = a[j];
	a[j] = t;
	for (int l = i + 1, h = n - 1; l < h; l++, h--) {
		t = a[l];
		a[l] = a[h];
		a[h] = t;
	}
	return 1;
}

/* Every order of the pieces. Returns the permutations run. */
static int
every_order(const struct piece *pc, int n, uint32_t per_conn, uint32_t *full)
{
	int order[8], runs = 0;

	for (int i = 0; i < n; i++)
		order[i] = i;
	do {
		run(pc, order, n, per_conn, full);
		runs++;
	} while (next_perm(order, n));
	return runs;
}

/* A window of six segments of unequal sizes that make up the stream. */
static const struct piece window[] = { { 0, 9 }, { 9, 13 }, { 22, 5 }, { 27, 16 }, { 43, 11 }, { 54, 10 } };

static void
reordered(void **state)
{
	(void)state;
	assert_int_equal(every_order(window, 6, 16, NULL), 720);
}

/* Each segment once more (a duplicate on the path, or a retransmission
 * whose original arrived): 7 arrivals, every order. */
static void
duplicated(void **state)
{
	(void)state;
	for (int d = 0; d < 6; d++) {
		struct piece pc[7];

		memcpy(pc, window, sizeof(window));
		pc[6] = window[d];
		every_order(pc, 7, 16, NULL);
	}
}

/* Each segment lost (the final in-order resend brings it), every order of
 * the others plus a retransmission cut differently, overlapping two of
 * them. */
static void
lost_and_overlapping(void **state)
{
	(void)state;
	for (int l = 0; l < 6; l++) {
		struct piece pc[6];
		int n = 0;

		for (int i = 0; i < 6; i++)
			if (i != l)
				pc[n++] = window[i];
		pc[n++] = (struct piece){ 5, 20 }; /* bytes of window[0..2] */
		every_order(pc, n, 16, NULL);
	}
}

/* Two held per connection: arrivals are refused (counted), none is lost
 * for good: the resends bring them. */
static void
queue_full(void **state)
{
	uint32_t full = 0;

	(void)state;
	every_order(window, 6, 2, &full);
	assert_true(full > 0);
}

/* One pool for two connections: its last entry goes to whichever asks
 * first; the connection's end gives back all it holds. */
static void
pool_full_and_release(void **state)
{
	struct ooo_pool p;
	uint16_t a = 0, b = 0;
	struct tseg *t;

	(void)state;
	assert_int_equal(ooo_init(&p, 3, 8, tseg_free, NULL), 0);
	assert_int_equal(ooo_insert(&p, &a, ISN, ISN + 10, 5, tseg_new(10, 5), 0), OOO_HELD);
	assert_int_equal(ooo_insert(&p, &a, ISN, ISN + 20, 5, tseg_new(20, 5), 0), OOO_HELD);
	assert_int_equal(ooo_insert(&p, &b, ISN, ISN + 30, 5, tseg_new(30, 5), 0), OOO_HELD);
	t = tseg_new(40, 5);
	assert_int_equal(ooo_insert(&p, &b, ISN, ISN + 40, 5, t, 0), OOO_FULL);
	tseg_free(NULL, t);
	/* one covering both of a's is held in their place: room enough */
	assert_int_equal(ooo_insert(&p, &a, ISN, ISN + 8, 20, tseg_new(8, 20), 0), OOO_HELD);
	assert_int_equal(ooo_count(&p, a), 1);
	assert_int_equal(p.used, 2);
	assert_int_equal(ooo_release_all(&p, &a), 1);
	assert_int_equal(ooo_release_all(&p, &b), 1);
	assert_int_equal(a, 0);
	assert_int_equal(p.used, 0);
	assert_int_equal(live, 0);
	ooo_fini(&p);
}

/* Trimming: a segment keeps only the bytes not held, and where they
 * start in its payload. */
static void
trimmed(void **state)
{
	struct ooo_pool p;
	uint16_t h = 0;
	struct ooo_out o;
	struct tseg *t;

	(void)state;
	assert_int_equal(ooo_init(&p, 8, 8, tseg_free, NULL), 0);
	assert_int_equal(ooo_insert(&p, &h, ISN, ISN + 10, 10, tseg_new(10, 10), 0), OOO_HELD);
	assert_int_equal(ooo_insert(&p, &h, ISN, ISN + 30, 10, tseg_new(30, 10), 0), OOO_HELD);
	/* [15, 35): its bytes [20, 30) only */
	assert_int_equal(ooo_insert(&p, &h, ISN, ISN + 15, 20, tseg_new(15, 20), 0), OOO_HELD);
	/* [12, 38): nothing new */
	t = tseg_new(12, 26);
	assert_int_equal(ooo_insert(&p, &h, ISN, ISN + 12, 26, t, 0), OOO_DUP);
	tseg_free(NULL, t);
	assert_int_equal(ooo_pop(&p, &h, ISN + 9, &o), 0);
	assert_int_equal(ooo_pop(&p, &h, ISN + 12, &o), 1);
	assert_int_equal(o.off, 2);
	assert_int_equal(o.len, 8);
	tseg_free(NULL, o.seg);
	assert_int_equal(ooo_pop(&p, &h, ISN + 20, &o), 1);
	assert_int_equal(o.seq, ISN + 20);
	assert_int_equal(o.off, 5);
	assert_int_equal(o.len, 10);
	assert_memory_equal(((struct tseg *)o.seg)->data + o.off, stream + 20, 10);
	tseg_free(NULL, o.seg);
	assert_int_equal(ooo_release_all(&p, &h), 1);
	assert_int_equal(live, 0);
	ooo_fini(&p);
}

/* RFC 2018 4: the block with the latest arrival first; contiguous held
 * segments are one block; at most max, the most recent ones. */
static void
sack_blocks(void **state)
{
	struct ooo_pool p;
	struct sack_block b[4];
	uint16_t h = 0;

	(void)state;
	assert_int_equal(ooo_init(&p, 16, 16, tseg_free, NULL), 0);
	ooo_insert(&p, &h, ISN, ISN + 10, 5, tseg_new(10, 5), 0);
	ooo_insert(&p, &h, ISN, ISN + 30, 5, tseg_new(30, 5), 0);
	ooo_insert(&p, &h, ISN, ISN + 50, 5, tseg_new(50, 5), 0);
	ooo_insert(&p, &h, ISN, ISN + 15, 5, tseg_new(15, 5), 0); /* joins [10, 15) */
	ooo_insert(&p, &h, ISN, ISN + 40, 5, tseg_new(40, 5), 0);
	assert_int_equal(ooo_sack(&p, h, b, 4), 4);
	assert_int_equal(b[0].start, ISN + 40);
	assert_int_equal(b[1].start, ISN + 10);
	assert_int_equal(b[1].end, ISN + 20);
	assert_int_equal(b[2].start, ISN + 50);
	assert_int_equal(b[3].start, ISN + 30);
	assert_int_equal(ooo_sack(&p, h, b, 2), 2);
	assert_int_equal(b[0].start, ISN + 40);
	assert_int_equal(b[1].start, ISN + 10);
	assert_int_equal(ooo_sack(&p, 0, b, 4), 0);
	ooo_release_all(&p, &h);
	assert_int_equal(live, 0);
	ooo_fini(&p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reordered),
		cmocka_unit_test(duplicated),
		cmocka_unit_test(lost_and_overlapping),
		cmocka_unit_test(queue_full),
		cmocka_unit_test(pool_full_and_release),
		cmocka_unit_test(trimmed),
		cmocka_unit_test(sack_blocks),
	};

	for (int i = 0; i < STREAM; i++)
		stream[i] = (uint8_t)(i * 37 + 11);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
