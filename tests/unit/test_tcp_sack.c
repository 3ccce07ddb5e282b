/* SPDX-License-Identifier: BSD-3-Clause
 * SACK (primary/tcp/tcp_sack.c): the option read from hostile bytes never
 * past its end; blocks from the out-of-order queue written and read back;
 * D-SACK; the scoreboard against a per-byte reading of RFC 6675 (IsLost,
 * SetPipe, NextSeg) on random boards, and by hand on small ones.
 */
// links: primary/tcp/tcp_sack.c primary/tcp/tcp_ooo.c
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tcp/tcp_ooo.h"
#include "tcp/tcp_sack.h"

/* Parse exactly len bytes from a buffer of that size (the sanitizer
 * build catches a read past it). */
static void
parse(const uint8_t *b, uint32_t len, struct sack_opts *o)
{
	uint8_t *copy = malloc(len ? len : 1);

	assert_non_null(copy);
	memcpy(copy, b, len);
	sack_parse(copy, len, o);
	free(copy);
}

static void
parse_good(void **state)
{
	/* a SYN's: MSS, SACK-permitted, NOP, window scale */
	static const uint8_t syn[] = { 2, 4, 5, 0xb4, 4, 2, 1, 3, 3, 7 };
	static const uint8_t ack[] = { 1, 1, 5, 18, 0, 0, 0, 10, 0, 0, 0, 20, 0xff, 0xff, 0xff, 0xf0, 0, 0, 0, 5 };
	struct sack_opts o;

	(void)state;
	parse(syn, sizeof(syn), &o);
	assert_int_equal(o.ok, 1);
	assert_int_equal(o.n, 0);
	assert_int_equal(o.bad, 0);
	parse(ack, sizeof(ack), &o);
	assert_int_equal(o.ok, 0);
	assert_int_equal(o.n, 2);
	assert_int_equal(o.b[0].start, 10);
	assert_int_equal(o.b[0].end, 20);
	assert_int_equal(o.b[1].start, 0xfffffff0u);
	assert_int_equal(o.b[1].end, 5);
	assert_int_equal(o.bad, 0);
}

static void
parse_hostile(void **state)
{
	static const struct {
		uint8_t b[44];
		uint32_t len;
		uint8_t n, ok, bad;
	} c[] = {
		{ { 5 }, 1, 0, 0, 1 },                          /* kind, no length */
		{ { 5, 0 }, 2, 0, 0, 1 },                       /* length 0: would loop */
		{ { 5, 1 }, 2, 0, 0, 1 },                       /* length 1 */
		{ { 5, 10, 0, 0, 0, 1 }, 6, 0, 0, 1 },          /* longer than what is left */
		{ { 5, 9, 0, 0, 0, 1, 0, 0, 0 }, 9, 0, 0, 1 },  /* not 2 + 8n */
		{ { 5, 2 }, 2, 0, 0, 1 },                       /* no block */
		{ { 5, 42 }, 44, 0, 0, 1 },                     /* five blocks */
		{ { 4, 3, 0 }, 3, 0, 0, 1 },                    /* SACK-permitted of 3 bytes */
		{ { 4, 2, 0, 5, 10 }, 5, 0, 1, 0 },             /* end of options: the rest unread */
		{ { 1, 1, 1, 1, 4, 2, 8, 10 }, 8, 0, 1, 1 },    /* then timestamps cut short */
	};
	struct sack_opts o;

	(void)state;
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		parse(c[i].b, c[i].len, &o);
		assert_int_equal(o.n, c[i].n);
		assert_int_equal(o.ok, c[i].ok);
		assert_int_equal(o.bad, c[i].bad);
	}
	/* random bytes of every length: bounded, and never more than 4 blocks */
	srand(27);
	for (int r = 0; r < 200000; r++) {
		uint8_t b[40];
		uint32_t len = (uint32_t)(rand() % 41);

		for (uint32_t i = 0; i < len; i++)
			b[i] = (uint8_t)(rand() % 4 == 0 ? rand() % 6 : rand());
		parse(b, len, &o);
		assert_true(o.n <= SACK_MAX_BLOCKS);
	}
}

static void
nofree(void *ctx, void *seg)
{
	(void)ctx;
	(void)seg;
}

/* The queue's blocks, written and read back; the most a bare ACK carries. */
static void
write_from_queue(void **state)
{
	struct ooo_pool p;
	struct sack_block b[SACK_MAX_BLOCKS];
	struct sack_opts o;
	uint8_t opt[40];
	uint16_t h = 0;
	uint32_t n;
	int x;

	(void)state;
	assert_int_equal(ooo_init(&p, 16, 16, nofree, NULL), 0);
	for (uint32_t i = 0; i < 6; i++) /* six blocks held: [1000 + 200i, +100) */
		assert_int_equal(ooo_insert(&p, &h, 900, 1000 + 200 * i, 100, &x, 0), OOO_HELD);
	n = ooo_sack(&p, h, b, sack_max_blocks(0));
	assert_int_equal(n, 4);
	assert_true(sack_opt_len(n) <= 40);
	assert_int_equal(sack_opt_len(n) % 4, 0);
	sack_opt_write(opt, b, n);
	parse(opt, sack_opt_len(n), &o);
	assert_int_equal(o.n, 4);
	assert_int_equal(o.bad, 0);
	for (uint32_t i = 0; i < 4; i++) { /* the latest first */
		assert_int_equal(o.b[i].start, 1000 + 200 * (5 - i));
		assert_int_equal(o.b[i].end, 1100 + 200 * (5 - i));
	}
	assert_int_equal(sack_max_blocks(1), 3);
	assert_true(sack_opt_len(3) + 12 <= 40); /* beside timestamps */
	ooo_release_all(&p, &h);
	ooo_fini(&p);
}

static void
dsack(void **state)
{
	struct sack_opts o = { .n = 1, .b = { { 100, 200 } } };

	(void)state;
	assert_int_equal(sack_is_dsack(&o, 300), 1); /* below the ACK */
	assert_int_equal(sack_is_dsack(&o, 100), 0);
	o.n = 2;
	o.b[1] = (struct sack_block){ 50, 250 };
	assert_int_equal(sack_is_dsack(&o, 10), 1); /* inside the second */
	o.b[1] = (struct sack_block){ 300, 400 };
	assert_int_equal(sack_is_dsack(&o, 10), 0);
	o.n = 0;
	assert_int_equal(sack_is_dsack(&o, 300), 0);
}

#define BASE 0xffffff00u /* the message crosses 2^32 */
#define MSS 100
#define NSEG 20

static const struct sb_msg msg = { BASE, MSS, NSEG * MSS - 37 }; /* the last segment short */

static uint32_t
seg_start(int k)
{
	return BASE + (uint32_t)k * MSS;
}

static uint32_t
seg_end(int k)
{
	uint32_t e = (uint32_t)(k + 1) * MSS;

	return BASE + (e < msg.len ? e : msg.len);
}

static void
board_by_hand(void **state)
{
	struct sack_board sb;
	struct sack_block b[4];
	uint32_t una = seg_start(0), nxt = seg_end(NSEG - 1), seq;

	(void)state;
	sb_reset(&sb, una);
	/* out of the window, empty, reversed, and above snd_nxt: ignored */
	b[0] = (struct sack_block){ una - 500, una - 100 };
	b[1] = (struct sack_block){ seg_start(3), seg_start(3) };
	b[2] = (struct sack_block){ seg_start(4), seg_start(3) };
	b[3] = (struct sack_block){ seg_start(5), nxt + 1 };
	assert_int_equal(sb_update(&sb, una, nxt, b, 4), 0);
	assert_int_equal(sb.n, 0);
	/* segments 1 and 3: one apart; two more SACKed above 0 only */
	b[0] = (struct sack_block){ seg_start(1), seg_end(1) };
	b[1] = (struct sack_block){ seg_start(3), seg_end(3) };
	assert_int_equal(sb_update(&sb, una, nxt, b, 2), 2 * MSS);
	assert_int_equal(sb_is_lost(&sb, seg_start(0), MSS), 0);
	assert_int_equal(sb_next_seg(&sb, &msg, una, 1, &seq), 0);
	assert_int_equal(sb_next_seg(&sb, &msg, una, 0, &seq), 1); /* NextSeg rule 3 */
	assert_int_equal(seq, seg_start(0));
	/* the same again adds nothing; 2 joins 1 and 3: one range */
	assert_int_equal(sb_update(&sb, una, nxt, b, 2), 0);
	b[0] = (struct sack_block){ seg_start(2), seg_end(2) };
	assert_int_equal(sb_update(&sb, una, nxt, b, 1), MSS);
	assert_int_equal(sb.n, 1);
	assert_int_equal(sb_is_lost(&sb, seg_start(0), MSS), 1); /* three SACKed above */
	assert_int_equal(sb_next_seg(&sb, &msg, una, 1, &seq), 1);
	assert_int_equal(seq, seg_start(0));
	sb_resent(&sb, seg_end(0));
	assert_int_equal(sb_next_seg(&sb, &msg, una, 1, &seq), 0); /* resent once */
	/* pipe: segment 0 resent and lost (1 x), 4.. not SACKed and not lost */
	assert_int_equal(sb_pipe(&sb, &msg, una, nxt + 1), MSS + (msg.len - 4 * MSS));
	/* the ACK of 0..3 empties it */
	assert_int_equal(sb_update(&sb, seg_end(3), nxt, NULL, 0), 0);
	assert_int_equal(sb.n, 0);
	assert_int_equal(sb.high_rxt, seg_end(3));
}

/* More ranges than it keeps: the highest go, never a wrong claim. */
static void
board_overflow(void **state)
{
	struct sack_board sb;
	struct sack_block b;
	uint32_t una = seg_start(0), nxt = seg_end(NSEG - 1);

	(void)state;
	sb_reset(&sb, una);
	for (int k = NSEG - 1; k >= 1; k -= 2) { /* 10 ranges, highest first */
		b = (struct sack_block){ seg_start(k), seg_end(k) };
		sb_update(&sb, una, nxt, &b, 1);
	}
	assert_int_equal(sb.n, SB_RANGES);
	for (int k = 0; k < NSEG; k++)
		assert_int_equal(sb_sacked(&sb, seg_start(k), seg_end(k)), k % 2 == 1 && k < 2 * SB_RANGES);
	/* one above all it keeps, when full: not kept, nothing else moves */
	b = (struct sack_block){ seg_start(NSEG - 2), seg_end(NSEG - 2) };
	assert_int_equal(sb_update(&sb, una, nxt, &b, 1), 0);
	assert_int_equal(sb.n, SB_RANGES);
	assert_int_equal(sb.high_rxt, una);
	assert_int_equal(sb_sacked(&sb, seg_start(NSEG - 2), seg_end(NSEG - 2)), 0);
	assert_int_equal(sb.r[SB_RANGES - 1].start, seg_start(2 * SB_RANGES - 1));
}

/* IsLost by count: three SACKed runs above, fewer bytes than 2 x mss
 * (a peer whose blocks are not our segments'). */
static void
lost_by_count(void **state)
{
	struct sack_board sb;
	struct sack_block b[3] = { { BASE + 110, BASE + 120 }, { BASE + 130, BASE + 140 }, { BASE + 150, BASE + 160 } };

	(void)state;
	sb_reset(&sb, BASE);
	assert_int_equal(sb_update(&sb, BASE, BASE + 1000, b, 2), 20);
	assert_int_equal(sb_is_lost(&sb, BASE, MSS), 0);
	assert_int_equal(sb_update(&sb, BASE, BASE + 1000, b + 2, 1), 10);
	assert_int_equal(sb_is_lost(&sb, BASE, MSS), 1);
	assert_int_equal(sb_is_lost(&sb, BASE + 125, MSS), 0);
}

/* RFC 6675 read per byte, on a board of whole segments: the reference. */
struct ref {
	int sacked[NSEG];
	uint32_t una, high_rxt; /* segment numbers */
};

static int
ref_lost(const struct ref *r, int k)
{
	int segs = 0;
	uint32_t bytes = 0;

	for (int j = k + 1; j < NSEG; j++)
		if (r->sacked[j]) {
			segs++;
			bytes += seg_end(j) - seg_start(j);
		}
	return segs >= SACK_DUPTHRESH || bytes > (SACK_DUPTHRESH - 1) * MSS;
}

static uint32_t
ref_pipe(const struct ref *r)
{
	uint32_t pipe = 0;

	for (int k = (int)r->una; k < NSEG; k++) {
		if (r->sacked[k])
			continue;
		if (!ref_lost(r, k))
			pipe += seg_end(k) - seg_start(k);
		if ((uint32_t)k < r->high_rxt)
			pipe += seg_end(k) - seg_start(k);
	}
	return pipe;
}

static int
ref_next(const struct ref *r, int lost)
{
	int top = -1;

	for (int k = 0; k < NSEG; k++)
		if (r->sacked[k])
			top = k;
	for (int k = (int)(r->una > r->high_rxt ? r->una : r->high_rxt); k < top; k++)
		if (!r->sacked[k] && (!lost || ref_lost(r, k)))
			return k;
	return -1;
}

static void
board_against_rfc(void **state)
{
	(void)state;
	srand(6675);
	for (int t = 0; t < 20000; t++) {
		struct ref r = { .una = (uint32_t)(rand() % 4) };
		struct sack_board sb;
		struct sack_block b[4];
		uint32_t nb = 0, runs = 0, seq;
		int k, got;

		/* runs of SACKed segments above una, at most SB_RANGES */
		for (k = (int)r.una + 1; k < NSEG; k++) {
			r.sacked[k] = rand() % 3 == 0;
			if (r.sacked[k] && !r.sacked[k - 1] && ++runs > SB_RANGES)
				r.sacked[k] = 0, runs--;
		}
		r.high_rxt = r.una + (uint32_t)(rand() % 6);
		sb_reset(&sb, seg_start(0));
		/* each SACKed segment reported once or twice, in random order,
		 * up to four to an ACK, with ACKs of less before the last */
		for (int pass = 0; pass < 2; pass++)
			for (k = NSEG - 1; k >= 0; k--) {
				if (!r.sacked[k] || (pass && rand() % 2))
					continue;
				b[nb++] = (struct sack_block){ seg_start(k), seg_end(k) };
				if (nb == 4 || rand() % 3 == 0) {
					sb_update(&sb, seg_start(0), seg_end(NSEG - 1), b, nb);
					nb = 0;
				}
			}
		sb_update(&sb, seg_start((int)r.una), seg_end(NSEG - 1), b, nb);
		if (r.high_rxt > r.una)
			sb_resent(&sb, seg_start((int)r.high_rxt));
		for (k = (int)r.una; k < NSEG; k++) {
			assert_int_equal(sb_sacked(&sb, seg_start(k), seg_end(k)), r.sacked[k]);
			if (!r.sacked[k])
				assert_int_equal(sb_is_lost(&sb, seg_start(k), MSS), ref_lost(&r, k));
		}
		assert_int_equal(sb_pipe(&sb, &msg, seg_start((int)r.una), seg_end(NSEG - 1) + 1), ref_pipe(&r));
		for (int lost = 0; lost < 2; lost++) {
			got = sb_next_seg(&sb, &msg, seg_start((int)r.una), lost, &seq) ? (int)((seq - BASE) / MSS) : -1;
			assert_int_equal(got, ref_next(&r, lost));
		}
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parse_good),
		cmocka_unit_test(parse_hostile),
		cmocka_unit_test(write_from_queue),
		cmocka_unit_test(dsack),
		cmocka_unit_test(board_by_hand),
		cmocka_unit_test(board_overflow),
		cmocka_unit_test(lost_by_count),
		cmocka_unit_test(board_against_rfc),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
