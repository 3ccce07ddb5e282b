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
 * Weights at run time (dperf-ctl set weight): the control side builds a
 * new struct mix_table off the hot path (mix_table_build, which refuses
 * all zeros) into the free slot of a struct mix_pub and publishes it; the
 * worker copies it into its own struct mix when it applies a control
 * generation (mix_take: one struct copy, ~100 bytes, no lock on the
 * pick). The generator's state carries on, so the sequence after a swap
 * is still a function of the seed and the tables' order.
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

/* The tables the control side publishes: slot[cur] is in force, the
 * other one is where the next is built. The writer publishes with
 * mix_pub_publish (cur with release order) before it bumps the control
 * generation; a worker that read that generation (acquire) reads cur and
 * copies the slot (mix_take). The writer must not build into a slot a
 * worker may still be copying: it builds the next table only once every
 * worker has applied the generation of the last publication (then each
 * has copied slot[cur] and reads nothing else until the next one:
 * control.c's set weight). */
struct mix_pub {
	struct mix_table slot[2];
	volatile uint32_t cur;
	uint32_t published; /* tables published, the first included (the writer's) */
};

/* The first table (t, built by the caller) in force. */
static inline void
mix_pub_init(struct mix_pub *p, const struct mix_table *t)
{
	p->slot[0] = *t;
	p->slot[0].gen = 0;
	p->slot[1] = p->slot[0];
	p->cur = 0;
	p->published = 1;
}

/* The writer: where to build the next table. */
static inline struct mix_table *
mix_pub_next(struct mix_pub *p)
{
	return &p->slot[p->cur ^ 1];
}

/* The writer: the table built in mix_pub_next's slot in force, its gen
 * the publication's number. */
static inline void
mix_pub_publish(struct mix_pub *p)
{
	uint32_t next = p->cur ^ 1;

	p->slot[next].gen = p->published++;
	__atomic_store_n(&p->cur, next, __ATOMIC_RELEASE);
}

/* The worker: the table in force, if it is not the one m has. */
static inline void
mix_take(struct mix *m, const struct mix_pub *p)
{
	const struct mix_table *t = &p->slot[__atomic_load_n(&p->cur, __ATOMIC_ACQUIRE)];

	if (t->gen != m->t.gen)
		mix_swap(m, t);
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
