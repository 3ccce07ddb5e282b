/* SPDX-License-Identifier: BSD-3-Clause
 * The kinds' weighted pick (mix.h): the alias table's construction and
 * the generator's seed.
 */
#include <stdint.h>
#include <string.h>

#include "state/mix.h"

static uint64_t
splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

/* Vose's construction in integers: column i holds q[i] = w[i] x n out of
 * a full column's `sum` (the weights' total); a column short of full
 * (small) is topped up from one over it (large), which becomes its alias.
 * Every step keeps "sum of the q still open = sum x columns still open",
 * so the two lists empty together and no rounding is carried. */
int
mix_table_build(struct mix_table *t, const uint32_t *w, uint32_t n)
{
	uint64_t q[MIX_MAX_KINDS], sum = 0;
	uint8_t small[MIX_MAX_KINDS], large[MIX_MAX_KINDS];
	uint32_t ns = 0, nl = 0;
	struct mix_table nt;

	if (n == 0 || n > MIX_MAX_KINDS)
		return -1;
	for (uint32_t i = 0; i < n; i++)
		sum += w[i];
	if (sum == 0)
		return -1;
	memset(&nt, 0, sizeof(nt));
	nt.n = n;
	nt.gen = t->gen;
	for (uint32_t i = 0; i < n; i++) {
		q[i] = (uint64_t)w[i] * n;
		if (q[i] < sum)
			small[ns++] = (uint8_t)i;
		else
			large[nl++] = (uint8_t)i;
	}
	while (ns > 0 && nl > 0) {
		uint8_t s = small[--ns], l = large[nl - 1];

		/* column s: kind s for q[s]/sum of it, kind l for the rest */
		nt.prob[s] = (uint32_t)((q[s] << 32) / sum);
		nt.alias[s] = l;
		q[l] -= sum - q[s];
		if (q[l] < sum) {
			nl--;
			small[ns++] = l;
		}
	}
	/* full columns: their own kind whatever the draw */
	while (nl > 0) {
		uint8_t l = large[--nl];

		nt.prob[l] = UINT32_MAX;
		nt.alias[l] = l;
	}
	/* not reached with exact sums; a column left here is its own (its
	 * weight is not 0: a 0 column is always topped up above) */
	while (ns > 0) {
		uint8_t s = small[--ns];

		nt.prob[s] = UINT32_MAX;
		nt.alias[s] = s;
	}
	*t = nt;
	return 0;
}

void
mix_init(struct mix *m, uint64_t seed, uint32_t worker, const struct mix_table *t)
{
	uint64_t x = seed ^ ((uint64_t)worker << 32 | worker);

	m->s = splitmix64(&x);
	if (m->s == 0)
		m->s = 1; /* xorshift's one forbidden state */
	m->t = *t;
}
