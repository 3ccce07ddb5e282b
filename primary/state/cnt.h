/* SPDX-License-Identifier: BSD-3-Clause
 * A worker's counters: plain 64-bit integers on the worker's own cache
 * lines, written by it alone (a datagram served used to cost seven
 * volatile read-modify-writes in the shared memzone). The worker loop
 * copies them to its block of the memzone (cnt_publish, release stores)
 * after each loop iteration that did work, before that iteration's TX
 * batch goes to the device, so at least at every millisecond tick, and
 * once more when it stops; readers (lib/, the tools) load them with
 * acquire loads. A file that counts includes this header, not the worker.
 */
#ifndef DPERF_CNT_H
#define DPERF_CNT_H

#include <stdint.h>

#include "shm.h"

struct wcnt {
	uint64_t c[DP_C__COUNT]; /* enum dp_counter */
	uint64_t sk_cur;         /* sockets currently open (a gauge) */
	uint64_t busy_tsc;       /* cycles spent doing work */
} __attribute__((aligned(DP_CACHE_LINE)));

/* A client's counts per kind (shm.h's struct dp_worker_kinds), with two
 * kinds or more; the worker's own, published as the rest. */
struct kcnt {
	uint64_t c[DP_MAX_KINDS][DP_KC__COUNT];
} __attribute__((aligned(DP_CACHE_LINE)));

/* A server's counts per object (shm.h's struct dp_worker_objects), with
 * object lines; the worker's own, published as the rest. */
struct ocnt {
	uint64_t c[DP_MAX_OBJECTS][DP_OC__COUNT];
} __attribute__((aligned(DP_CACHE_LINE)));

#define CNT(k, id) ((k)->c[DP_C_##id]++)
#define CNT_ADD(k, id, n) ((k)->c[DP_C_##id] += (n))

/* Copy the counters to the memzone block st; loop_tsc: the cycles the
 * loop has run so far. */
static inline void
cnt_publish(const struct wcnt *k, struct dp_worker_stats *st, uint64_t loop_tsc)
{
	for (int i = 0; i < DP_C__COUNT; i++)
		__atomic_store_n(&st->c[i], k->c[i], __ATOMIC_RELEASE);
	__atomic_store_n(&st->sk_cur, k->sk_cur, __ATOMIC_RELEASE);
	__atomic_store_n(&st->busy_tsc, k->busy_tsc, __ATOMIC_RELEASE);
	__atomic_store_n(&st->loop_tsc, loop_tsc, __ATOMIC_RELEASE);
}

/* Copy the first n kinds' counts to the memzone block st. */
static inline void
kcnt_publish(const struct kcnt *k, struct dp_worker_kinds *st, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		for (int j = 0; j < DP_KC__COUNT; j++)
			__atomic_store_n(&st->c[i][j], k->c[i][j], __ATOMIC_RELEASE);
}

/* Copy the first n objects' counts to the memzone block st. */
static inline void
ocnt_publish(const struct ocnt *k, struct dp_worker_objects *st, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		for (int j = 0; j < DP_OC__COUNT; j++)
			__atomic_store_n(&st->c[i][j], k->c[i][j], __ATOMIC_RELEASE);
}

#endif
