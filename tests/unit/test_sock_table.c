/* SPDX-License-Identifier: BSD-3-Clause
 * Socket table indexing (primary/state/sock_table.h): a tuple computed from an
 * index maps back to that index, on the client and the server, for range
 * sizes that exercise the reciprocal divisions (1, powers of two, primes,
 * large). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "state/sock_table.h"

static void
client(struct worker *w, uint32_t n_cip, uint32_t n_lport, uint32_t n_sport)
{
	memset(w, 0, sizeof(*w));
	w->is_client = 1;
	w->cip_h = 0xc6120102; /* 198.18.1.2 */
	w->n_cip = n_cip;
	w->lport_min = 1;
	w->n_lport = n_lport;
	w->sport_min = 80;
	w->n_sport = n_sport;
	w->srv_ip = rte_cpu_to_be_32(0xc6120201);
	w->n_sk = sk_table_init(w);
}

static void
check_client(struct worker *w, uint64_t idx)
{
	struct tuple t;

	sk_tuple(w, idx, &t);
	assert_int_equal(sk_index_client(w, t.lip, t.lport, t.rport), idx);
	assert_int_equal(t.rip, w->srv_ip);
}

static void
test_client_roundtrip(void **state)
{
	static const uint32_t cips[] = { 1, 2, 3, 4, 7, 200, 251, 65536 };
	static const uint32_t sports[] = { 1, 2, 5, 16, 17 };
	struct worker w;

	(void)state;
	srand(7);
	for (size_t a = 0; a < RTE_DIM(cips); a++)
		for (size_t b = 0; b < RTE_DIM(sports); b++) {
			uint32_t n_lport = (uint32_t)RTE_MIN(65535ULL, (UINT32_MAX - 1ULL) / (cips[a] * sports[b]));

			client(&w, cips[a], n_lport, sports[b]);
			assert_true(w.n_sk < UINT32_MAX);
			for (uint64_t i = 0; i < 2000 && i < w.n_sk; i++)
				check_client(&w, i);
			check_client(&w, w.n_sk - 1);
			for (int k = 0; k < 20000; k++)
				check_client(&w, ((uint64_t)rand() << 16 ^ (uint64_t)rand()) % w.n_sk);
		}
}

static void
test_client_order(void **state)
{
	struct worker w;
	struct tuple t;

	(void)state;
	/* Consecutive indexes: listen ports first, then client addresses,
	 * then the next local port. */
	client(&w, 3, 100, 2);
	sk_tuple(&w, 0, &t);
	assert_int_equal(rte_be_to_cpu_16(t.rport), 80);
	sk_tuple(&w, 1, &t);
	assert_int_equal(rte_be_to_cpu_16(t.rport), 81);
	sk_tuple(&w, 2, &t);
	assert_int_equal(rte_be_to_cpu_32(t.lip), 0xc6120103);
	assert_int_equal(rte_be_to_cpu_16(t.lport), 1);
	sk_tuple(&w, 6, &t);
	assert_int_equal(rte_be_to_cpu_32(t.lip), 0xc6120102);
	assert_int_equal(rte_be_to_cpu_16(t.lport), 2);
}

/* The launch cursor walks the table in index order, tuple included, and
 * wraps to the start. */
static void
test_cursor(void **state)
{
	static const uint32_t shapes[][3] = { { 1, 5, 1 }, { 3, 4, 2 }, { 4, 3, 1 }, { 1, 1, 3 }, { 2, 2, 2 } };
	struct worker w;

	(void)state;
	for (size_t k = 0; k < RTE_DIM(shapes); k++) {
		client(&w, shapes[k][0], shapes[k][1], shapes[k][2]);
		for (uint64_t i = 0; i < 3 * w.n_sk + 1; i++) {
			struct tuple a, b;

			assert_int_equal(w.cursor, i % w.n_sk);
			assert_int_equal(w.walked, i % w.n_sk);
			sk_cursor_tuple(&w, &a);
			sk_tuple(&w, w.cursor, &b);
			assert_memory_equal(&a, &b, sizeof(a));
			sk_cursor_step(&w);
		}
	}
}

/* client_hop (dperf's meaning): every launch after a listen-port sweep
 * changes both the client address and the local port, and one pass still
 * visits every tuple once, tuple and index agreeing, then wraps. */
static void
test_cursor_hop(void **state)
{
	static const uint32_t shapes[][3] = { { 3, 4, 1 }, { 4, 3, 2 }, { 2, 2, 1 }, { 5, 7, 1 },
					      { 1, 6, 1 }, { 6, 1, 1 }, { 253, 400, 1 } };
	struct worker w;

	(void)state;
	for (size_t k = 0; k < RTE_DIM(shapes); k++) {
		uint8_t *seen;
		struct tuple prev = { 0 };

		client(&w, shapes[k][0], shapes[k][1], shapes[k][2]);
		w.client_hop = 1;
		seen = calloc(w.n_sk, 1);
		assert_non_null(seen);
		for (uint64_t i = 0; i < w.n_sk; i++) {
			struct tuple a, b;

			assert_int_equal(w.walked, i);
			assert_true(w.cursor < w.n_sk);
			assert_int_equal(seen[w.cursor], 0);
			seen[w.cursor] = 1;
			sk_cursor_tuple(&w, &a);
			sk_tuple(&w, w.cursor, &b);
			assert_memory_equal(&a, &b, sizeof(a));
			/* a new (address, port): both differ from the last one,
			 * except where a dimension has one value, or at the end of
			 * a round over the addresses (two addresses: the port
			 * repeats once a round) */
			if (i % w.n_sport == 0 && i != 0) {
				uint64_t pair = i / w.n_sport;
				int round_end = pair % w.n_cip == 0;

				if (w.n_cip > 1)
					assert_int_not_equal(a.lip, prev.lip);
				if (w.n_lport > 1
				    && !(round_end && (w.n_cip - 1) % w.n_lport == 1 % w.n_lport))
					assert_int_not_equal(a.lport, prev.lport);
			}
			prev = a;
			sk_cursor_step(&w);
		}
		assert_int_equal(w.cursor, 0);
		assert_int_equal(w.walked, 0);
		free(seen);
	}
}

/* The two walks over the same table: the plain one keeps the local port
 * while it walks the addresses; client_hop changes both at once. */
static void
test_cursor_hop_order(void **state)
{
	static const uint32_t plain[][2] = { { 2, 1 }, { 3, 1 }, { 4, 1 }, { 2, 2 }, { 3, 2 } };
	static const uint32_t hop[][2] = { { 2, 1 }, { 3, 2 }, { 4, 3 }, { 2, 2 }, { 3, 3 } };
	struct worker w;
	struct tuple t;

	(void)state;
	client(&w, 3, 100, 1);
	for (size_t i = 0; i < RTE_DIM(plain); i++) {
		sk_cursor_tuple(&w, &t);
		assert_int_equal(rte_be_to_cpu_32(t.lip) & 0xff, plain[i][0]);
		assert_int_equal(rte_be_to_cpu_16(t.lport), plain[i][1]);
		sk_cursor_step(&w);
	}
	client(&w, 3, 100, 1);
	w.client_hop = 1;
	for (size_t i = 0; i < RTE_DIM(hop); i++) {
		sk_cursor_tuple(&w, &t);
		assert_int_equal(rte_be_to_cpu_32(t.lip) & 0xff, hop[i][0]);
		assert_int_equal(rte_be_to_cpu_16(t.lport), hop[i][1]);
		sk_cursor_step(&w);
	}
}

static void
test_server_roundtrip(void **state)
{
	struct worker w;

	(void)state;
	memset(&w, 0, sizeof(w));
	w.srv_ip = rte_cpu_to_be_32(0xc6120201);
	w.sport_min = 80;
	w.n_sport = 3;
	/* two client ranges: 198.18.1.2 x 5 and 198.18.9.1 x 251 */
	w.cr[0] = (struct client_range){ .start_h = 0xc6120102, .num = 5, .base = 0 };
	w.cr[1] = (struct client_range){ .start_h = 0xc6120901, .num = 251, .base = 5 };
	w.n_cr = 2;
	w.n_cip_total = 256;
	w.n_sk = sk_table_init(&w);
	assert_int_equal(w.n_sk, 65536ULL * 256 * 3);
	srand(11);
	for (int k = 0; k < 100000; k++) {
		uint64_t idx = ((uint64_t)rand() << 16 ^ (uint64_t)rand()) % w.n_sk;
		struct tuple t;

		sk_tuple(&w, idx, &t);
		assert_int_equal(t.lip, w.srv_ip);
		assert_int_equal(sk_index_server(&w, t.rip, t.rport, t.lport), idx);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_client_roundtrip),
		cmocka_unit_test(test_client_order),
		cmocka_unit_test(test_cursor),
		cmocka_unit_test(test_cursor_hop),
		cmocka_unit_test(test_cursor_hop_order),
		cmocka_unit_test(test_server_roundtrip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
