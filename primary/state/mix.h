/* SPDX-License-Identifier: BSD-3-Clause
 * The kind of each new client connection (issue 37's traffic mixes): a
 * weighted pick, deterministic per worker, O(1) per connection. Pure code
 * (no EAL, no config): a table of weights in, kind numbers out.
 *
 * The pick is Walker's alias method (Vose's construction, in integers):
 * one 64-bit draw gives a column (its high 32 bits times n) and a
 * threshold (its low 32 bits); the column's own kind below its
 * threshold, its alias above. A kind of weight 0 has threshold 0 and is
 * nobody's alias, so it is never picked. Each column's share is exact to
 * 2^-32.
 *
 * The generator is xorshift64* (Vigna), one 64-bit state per worker,
 * seeded by splitmix64 from kind_seed and the worker's number: same seed,
 * same sequence of kinds for each worker, whatever the other workers do.
 *
 * Weights at run time (dperf-ctl set weight, later): the control side
 * builds a new struct mix_table off the hot path (mix_table_build, which
 * refuses all zeros) and publishes it; the worker copies it into its own
 * struct mix at a tick (mix_swap: one struct copy, ~100 bytes, no lock on
 * the pick). The generator's state carries on, so the sequence after a
 * swap is still a function of the seed and the tables' order.
 */
#ifndef DPERF_MIX_H
#define DPERF_MIX_H

#include <stdint.h>

#define MIX_MAX_KINDS 16

struct mix_table {
	uint32_t n;                   /* kinds, 1..MIX_MAX_KINDS */
	uint32_t gen;                 /* the caller's generation (a published table's number) */
	uint32_t prob[MIX_MAX_KINDS]; /* column i: kind i when the low 32 bits are below */
	uint8_t alias[MIX_MAX_KINDS]; /* else this kind */
};

struct mix {
	uint64_t s;          /* xorshift64* state, never 0 */
	struct mix_table t;  /* the worker's copy */
};

/* Build t from weights w[0..n) (n 1..MIX_MAX_KINDS). Returns 0, or -1 when
 * n is out of range or every weight is 0 (t is left as it was). */
int mix_table_build(struct mix_table *t, const uint32_t *w, uint32_t n);

/* Seed m's generator from seed and the worker's number and set its table
 * (a copy of t). */
void mix_init(struct mix *m, uint64_t seed, uint32_t worker, const struct mix_table *t);

/* The worker takes a new table (its generator carries on). */
static inline void
mix_swap(struct mix *m, const struct mix_table *t)
{
	m->t = *t;
}

static inline uint64_t
mix_next(struct mix *m)
{
	uint64_t x = m->s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	m->s = x;
	return x * 0x2545F4914F6CDD1DULL;
}

/* The next connection's kind, 0..n-1. */
static inline uint32_t
mix_pick(struct mix *m)
{
	uint64_t r = mix_next(m);
	uint32_t col = (uint32_t)(((r >> 32) * m->t.n) >> 32);

	return (uint32_t)r < m->t.prob[col] ? col : m->t.alias[col];
}

#endif
