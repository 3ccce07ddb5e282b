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

/* A table and its launch cursor, as a worker holds them. */
struct walk {
	struct sk_table skt;
	struct sk_cursor cur;
};

static void
client(struct walk *w, uint32_t n_cip, uint32_t n_lport, uint32_t n_srvport)
{
	memset(w, 0, sizeof(*w));
	w->skt.client = 1;
	w->skt.cip_h = 0xc6120102; /* 198.18.1.2 */
	w->skt.n_cip = n_cip;
	w->skt.lport_min = 1;
	w->skt.n_lport = n_lport;
	w->skt.srvport_min = 80;
	w->skt.n_srvport = n_srvport;
	w->skt.srv_ip = rte_cpu_to_be_32(0xc6120201);
	w->skt.n_sk = sk_table_init(&w->skt);
}

static void
check_client(struct walk *w, uint64_t idx)
{
	struct tuple t;

	sk_tuple(&w->skt, idx, &t);
	assert_int_equal(sk_index_client(&w->skt, t.lip, t.lport, t.rport), idx);
	assert_int_equal(t.rip, w->skt.srv_ip);
}

static void
test_client_roundtrip(void **state)
{
	static const uint32_t cips[] = { 1, 2, 3, 4, 7, 200, 251, 65536 };
	static const uint32_t srvports[] = { 1, 2, 5, 16, 17 };
	struct walk w;

	(void)state;
	srand(7);
	for (size_t a = 0; a < RTE_DIM(cips); a++)
		for (size_t b = 0; b < RTE_DIM(srvports); b++) {
			uint32_t n_lport = (uint32_t)RTE_MIN(65535ULL, (UINT32_MAX - 1ULL) / (cips[a] * srvports[b]));

			client(&w, cips[a], n_lport, srvports[b]);
			assert_true(w.skt.n_sk < UINT32_MAX);
			for (uint64_t i = 0; i < 2000 && i < w.skt.n_sk; i++)
				check_client(&w, i);
			check_client(&w, w.skt.n_sk - 1);
			for (int k = 0; k < 20000; k++)
				check_client(&w, ((uint64_t)rand() << 16 ^ (uint64_t)rand()) % w.skt.n_sk);
		}
}

static void
test_client_order(void **state)
{
	struct walk w;
	struct tuple t;

	(void)state;
	/* Consecutive indexes: listen ports first, then client addresses,
	 * then the next local port. */
	client(&w, 3, 100, 2);
	sk_tuple(&w.skt, 0, &t);
	assert_int_equal(rte_be_to_cpu_16(t.rport), 80);
	sk_tuple(&w.skt, 1, &t);
	assert_int_equal(rte_be_to_cpu_16(t.rport), 81);
	sk_tuple(&w.skt, 2, &t);
	assert_int_equal(rte_be_to_cpu_32(t.lip), 0xc6120103);
	assert_int_equal(rte_be_to_cpu_16(t.lport), 1);
	sk_tuple(&w.skt, 6, &t);
	assert_int_equal(rte_be_to_cpu_32(t.lip), 0xc6120102);
	assert_int_equal(rte_be_to_cpu_16(t.lport), 2);
}

/* The launch cursor walks the table in index order, tuple included, and
 * wraps to the start. */
static void
test_cursor(void **state)
{
	static const uint32_t shapes[][3] = { { 1, 5, 1 }, { 3, 4, 2 }, { 4, 3, 1 }, { 1, 1, 3 }, { 2, 2, 2 } };
	struct walk w;

	(void)state;
	for (size_t k = 0; k < RTE_DIM(shapes); k++) {
		client(&w, shapes[k][0], shapes[k][1], shapes[k][2]);
		for (uint64_t i = 0; i < 3 * w.skt.n_sk + 1; i++) {
			struct tuple a, b;

			assert_int_equal(w.cur.cursor, i % w.skt.n_sk);
			assert_int_equal(w.cur.walked, i % w.skt.n_sk);
			sk_cursor_tuple(&w.cur, &w.skt, &a);
			sk_tuple(&w.skt, w.cur.cursor, &b);
			assert_memory_equal(&a, &b, sizeof(a));
			sk_cursor_step(&w.cur, &w.skt);
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
	struct walk w;

	(void)state;
	for (size_t k = 0; k < RTE_DIM(shapes); k++) {
		uint8_t *seen;
		struct tuple prev = { 0 };

		client(&w, shapes[k][0], shapes[k][1], shapes[k][2]);
		w.cur.client_hop = 1;
		seen = calloc(w.skt.n_sk, 1);
		assert_non_null(seen);
		for (uint64_t i = 0; i < w.skt.n_sk; i++) {
			struct tuple a, b;

			assert_int_equal(w.cur.walked, i);
			assert_true(w.cur.cursor < w.skt.n_sk);
			assert_int_equal(seen[w.cur.cursor], 0);
			seen[w.cur.cursor] = 1;
			sk_cursor_tuple(&w.cur, &w.skt, &a);
			sk_tuple(&w.skt, w.cur.cursor, &b);
			assert_memory_equal(&a, &b, sizeof(a));
			/* a new (address, port): both differ from the last one,
			 * except where a dimension has one value, or at the end of
			 * a round over the addresses (two addresses: the port
			 * repeats once a round) */
			if (i % w.skt.n_srvport == 0 && i != 0) {
				uint64_t pair = i / w.skt.n_srvport;
				int round_end = pair % w.skt.n_cip == 0;

				if (w.skt.n_cip > 1)
					assert_int_not_equal(a.lip, prev.lip);
				if (w.skt.n_lport > 1
				    && !(round_end && (w.skt.n_cip - 1) % w.skt.n_lport == 1 % w.skt.n_lport))
					assert_int_not_equal(a.lport, prev.lport);
			}
			prev = a;
			sk_cursor_step(&w.cur, &w.skt);
		}
		assert_int_equal(w.cur.cursor, 0);
		assert_int_equal(w.cur.walked, 0);
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
	struct walk w;
	struct tuple t;

	(void)state;
	client(&w, 3, 100, 1);
	for (size_t i = 0; i < RTE_DIM(plain); i++) {
		sk_cursor_tuple(&w.cur, &w.skt, &t);
		assert_int_equal(rte_be_to_cpu_32(t.lip) & 0xff, plain[i][0]);
		assert_int_equal(rte_be_to_cpu_16(t.lport), plain[i][1]);
		sk_cursor_step(&w.cur, &w.skt);
	}
	client(&w, 3, 100, 1);
	w.cur.client_hop = 1;
	for (size_t i = 0; i < RTE_DIM(hop); i++) {
		sk_cursor_tuple(&w.cur, &w.skt, &t);
		assert_int_equal(rte_be_to_cpu_32(t.lip) & 0xff, hop[i][0]);
		assert_int_equal(rte_be_to_cpu_16(t.lport), hop[i][1]);
		sk_cursor_step(&w.cur, &w.skt);
	}
}

static void
test_server_roundtrip(void **state)
{
	struct walk w;

	(void)state;
	memset(&w, 0, sizeof(w));
	w.skt.srv_ip = rte_cpu_to_be_32(0xc6120201);
	w.skt.sa[0] = w.skt.srv_ip;
	w.skt.n_sa = 1;
	w.skt.srvport_min = 80;
	w.skt.n_srvport = 3;
	/* two client ranges: 198.18.1.2 x 5 and 198.18.9.1 x 251 */
	w.skt.cr[0] = (struct client_range){ .start_h = 0xc6120102, .num = 5, .base = 0 };
	w.skt.cr[1] = (struct client_range){ .start_h = 0xc6120901, .num = 251, .base = 5 };
	w.skt.n_cr = 2;
	w.skt.n_cip_total = 256;
	w.skt.n_sk = sk_table_init(&w.skt);
	assert_int_equal(w.skt.n_sk, 65536ULL * 256 * 3);
	srand(11);
	for (int k = 0; k < 100000; k++) {
		uint64_t idx = ((uint64_t)rand() << 16 ^ (uint64_t)rand()) % w.skt.n_sk;
		struct tuple t;

		sk_tuple(&w.skt, idx, &t);
		assert_int_equal(t.lip, w.skt.srv_ip);
		assert_int_equal(sk_index_server(&w.skt, t.lip, t.rip, t.rport, t.lport), idx);
	}
}

/* Server pools (issue 37): a server worker with three addresses, one
 * per pool. Every index is one (server address, client, port) and back;
 * the same client tuple to two pools is two sockets; an address of no
 * pool has none. */
static void
test_server_pools(void **state)
{
	static const uint32_t sa_h[] = { 0xc6120201, 0xc6120301, 0xc6120401 };
	struct walk w;
	struct tuple t, u;
	uint64_t seen[3] = { 0 };

	(void)state;
	memset(&w, 0, sizeof(w));
	w.skt.srv_ip = rte_cpu_to_be_32(sa_h[0]);
	for (uint32_t j = 0; j < 3; j++)
		w.skt.sa[j] = rte_cpu_to_be_32(sa_h[j]);
	w.skt.n_sa = 3;
	w.skt.srvport_min = 80;
	w.skt.n_srvport = 2;
	w.skt.cr[0] = (struct client_range){ .start_h = 0xc6120102, .num = 5, .base = 0 };
	w.skt.n_cr = 1;
	w.skt.n_cip_total = 5;
	w.skt.n_sk = sk_table_init(&w.skt);
	assert_int_equal(w.skt.n_sk, 65536ULL * 5 * 3 * 2);
	srand(12);
	for (int k = 0; k < 100000; k++) {
		uint64_t idx = ((uint64_t)rand() << 16 ^ (uint64_t)rand()) % w.skt.n_sk;
		uint32_t j = 0;

		sk_tuple(&w.skt, idx, &t);
		while (j < 3 && t.lip != w.skt.sa[j])
			j++;
		assert_true(j < 3);
		seen[j]++;
		assert_int_equal(sk_index_server(&w.skt, t.lip, t.rip, t.rport, t.lport), idx);
		u = t;
		u.lip = w.skt.sa[(j + 1) % 3];
		assert_true(sk_index_server(&w.skt, u.lip, u.rip, u.rport, u.lport) != idx);
		assert_int_equal(sk_index_server(&w.skt, rte_cpu_to_be_32(0xc6120501), t.rip, t.rport,
						 t.lport), SK_NONE);
	}
	assert_true(seen[0] > 30000 && seen[1] > 30000 && seen[2] > 30000);
}

/* A client with kinds on their own pools: a socket's server address is
 * its kind's, the rest of its tuple its index's, and the index read
 * back from the tuple is the same. */
static void
test_client_kind_pools(void **state)
{
	struct walk w;
	struct sock sk[4 * 3 * 2];
	struct tuple t;

	(void)state;
	client(&w, 4, 3, 2);
	memset(sk, 0, sizeof(sk));
	w.skt.sk = sk;
	w.skt.kind_srv[0] = w.skt.srv_ip;
	w.skt.kind_srv[1] = rte_cpu_to_be_32(0xc6120301);
	w.skt.kind_srv[2] = rte_cpu_to_be_32(0xc6120401);
	w.skt.kind_pools = 1;
	for (uint64_t idx = 0; idx < w.skt.n_sk; idx++) {
		sk[idx].kind = (uint8_t)(idx % 3);
		sk_tuple(&w.skt, idx, &t);
		assert_int_equal(t.rip, w.skt.kind_srv[idx % 3]);
		assert_int_equal(sk_srv_ip(&w.skt, &sk[idx]), t.rip);
		assert_int_equal(sk_index_client(&w.skt, t.lip, t.lport, t.rport), idx);
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
		cmocka_unit_test(test_server_pools),
		cmocka_unit_test(test_client_kind_pools),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
