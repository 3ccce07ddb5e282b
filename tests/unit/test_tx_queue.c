/* SPDX-License-Identifier: BSD-3-Clause
 * Unit tests of the worker's TX queue (primary/state/txq.h, state/txq.c):
 * back-pressure keeps packets in order, a refusing device is retried once
 * per loop and not on every packet, the queue compacts only at its end,
 * and what cannot be queued is counted in dropTx.
 *
 * The device is a fake burst function installed in rte_eth_fp_ops, so the
 * real tx_flush runs. mbufs are plain structs with refcnt 2: a "free"
 * only drops the count to 1, which the tests read back.
 */
// links: primary/state/txq.c
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "shm.h"
#include "state/txq.h"

#define N_MBUF (DP_TX_CAP + 64)

static struct rte_mbuf mbufs[N_MBUF];
static struct wcnt cnt;
static struct txq q;
static void *qdata[1];
static void *clbk[1];
static unsigned accept_left; /* packets the fake device takes from now on */
static unsigned calls;       /* device bursts */
static struct rte_mbuf *sent[4 * DP_TX_CAP];
static unsigned n_sent;
static int poison; /* the fake device overwrites what it takes, as one that frees it in the burst */

static uint16_t
fake_burst(void *dq, struct rte_mbuf **pkts, uint16_t n)
{
	uint16_t k = (uint16_t)RTE_MIN((unsigned)n, accept_left);

	(void)dq;
	calls++;
	accept_left -= k;
	for (uint16_t i = 0; i < k; i++) {
		sent[n_sent++] = pkts[i];
		/* memif (copy mode), net_null and tap free the mbufs they take
		 * inside the burst: another lcore may reuse them at once. */
		if (poison)
			pkts[i]->pkt_len = pkts[i]->data_len = 0xdead;
	}
	return k;
}

static int
setup(void **state)
{
	(void)state;
	memset(&q, 0, sizeof(q));
	memset(&cnt, 0, sizeof(cnt));
	q.cnt = &cnt;
	memset(mbufs, 0, sizeof(mbufs));
	for (int i = 0; i < N_MBUF; i++) {
		rte_mbuf_refcnt_set(&mbufs[i], 2);
		mbufs[i].nb_segs = 1;
		mbufs[i].pkt_len = 100;
	}
	rte_eth_fp_ops[0].tx_pkt_burst = fake_burst;
	rte_eth_fp_ops[0].txq.data = qdata;
	rte_eth_fp_ops[0].txq.clbk = clbk;
	q.port_id = 0;
	q.queue = 0;
	q.burst = 32;
	accept_left = 0;
	calls = 0;
	n_sent = 0;
	poison = 0;
	return 0;
}

static void
enqueue(unsigned from, unsigned n)
{
	for (unsigned i = from; i < from + n; i++)
		tx_enqueue(&q, &mbufs[i], 1000);
}

/* A device that takes everything: one burst per tx_burst packets. */
static void
test_full_bursts(void **state)
{
	(void)state;
	accept_left = 1000;
	enqueue(0, 64);
	assert_int_equal(calls, 2);
	assert_int_equal(q.n, 0);
	assert_int_equal(tx_pending(&q), 0);
	assert_int_equal(cnt.c[DP_C_PKT_TX], 64);
	assert_int_equal(cnt.c[DP_C_BITS_TX], 64 * 100 * 8);
	for (unsigned i = 0; i < 64; i++)
		assert_ptr_equal(sent[i], &mbufs[i]);
}

/* A partial send: the rest waits in order; no retry per packet until the
 * worker loop flushes again. */
static void
test_partial_send_no_retry_per_packet(void **state)
{
	(void)state;
	accept_left = 10;
	enqueue(0, 32);
	assert_int_equal(calls, 1);
	assert_int_equal(tx_pending(&q), 22);
	assert_int_equal(q.blocked, 1);
	enqueue(32, 100); /* far past tx_burst: still no device call */
	assert_int_equal(calls, 1);
	assert_int_equal(tx_pending(&q), 122);
	/* The loop's flush: the device takes all, in order. */
	accept_left = 1000;
	assert_int_equal(tx_flush(&q), 122);
	assert_int_equal(q.n, 0);
	assert_int_equal(q.head, 0);
	assert_int_equal(q.blocked, 0);
	assert_int_equal(n_sent, 132);
	for (unsigned i = 0; i < 132; i++)
		assert_ptr_equal(sent[i], &mbufs[i]);
	assert_int_equal(cnt.c[DP_C_DROP_TX], 0);
}

/* New work waits from DP_TX_CONGESTED queued, not before. */
static void
test_congested_threshold(void **state)
{
	(void)state;
	enqueue(0, DP_TX_CONGESTED - 1);
	assert_false(tx_congested(&q));
	enqueue(DP_TX_CONGESTED - 1, 1);
	assert_true(tx_congested(&q));
}

/* At the end of the array: one more try, then compaction; the order is
 * kept and nothing is lost while there is room. */
static void
test_compaction_at_end(void **state)
{
	(void)state;
	accept_left = 0;
	enqueue(0, DP_TX_CAP);
	assert_int_equal(q.n, DP_TX_CAP);
	accept_left = 100; /* the flush inside tx_make_room takes 100 */
	enqueue(DP_TX_CAP, 1);
	assert_int_equal(q.head, 0);
	assert_int_equal(q.n, DP_TX_CAP - 100 + 1);
	assert_ptr_equal(q.pkts[0], &mbufs[100]);
	assert_ptr_equal(q.pkts[q.n - 1], &mbufs[DP_TX_CAP]);
	assert_int_equal(cnt.c[DP_C_DROP_TX], 0);
	accept_left = 100000;
	tx_flush(&q);
	assert_int_equal(n_sent, DP_TX_CAP + 1);
	for (unsigned i = 0; i < DP_TX_CAP + 1; i++)
		assert_ptr_equal(sent[i], &mbufs[i]);
}

/* Queue full and the device takes nothing: the packet is dropped, freed
 * once and counted; the queue is untouched. */
static void
test_drop_when_full(void **state)
{
	(void)state;
	accept_left = 0;
	enqueue(0, DP_TX_CAP);
	enqueue(DP_TX_CAP, 3);
	assert_int_equal(cnt.c[DP_C_DROP_TX], 3);
	for (unsigned i = DP_TX_CAP; i < DP_TX_CAP + 3; i++)
		assert_int_equal(rte_mbuf_refcnt_read(&mbufs[i]), 1);
	assert_int_equal(rte_mbuf_refcnt_read(&mbufs[0]), 2);
	assert_int_equal(tx_pending(&q), DP_TX_CAP);
	/* At stop: what is left is discarded and counted. */
	tx_discard_all(&q);
	assert_int_equal(cnt.c[DP_C_DROP_TX], 3 + DP_TX_CAP);
	assert_int_equal(rte_mbuf_refcnt_read(&mbufs[0]), 1);
	assert_int_equal(q.n, 0);
}

/* A flush of a device that takes nothing says so (the loop does not count
 * it as work). */
static void
test_flush_reports_taken(void **state)
{
	(void)state;
	q.hold = 1000000; /* a partial batch is held */
	enqueue(0, 5);
	accept_left = 0;
	assert_int_equal(tx_flush(&q), 0);
	accept_left = 3;
	assert_int_equal(tx_flush(&q), 3);
	assert_int_equal(tx_pending(&q), 2);
}

/* bitsTx counts what was sent as it was queued, read before the device
 * owned it: a device that frees (here: overwrites) what it takes does not
 * change the figure, and what it refused is not counted. */
static void
test_bits_read_before_the_device_owns(void **state)
{
	(void)state;
	poison = 1;
	q.hold = 1000000; /* held: the flushes below are the only ones */
	for (unsigned i = 0; i < 8; i++)
		mbufs[i].pkt_len = 100 + i;
	enqueue(0, 8);
	accept_left = 5;
	assert_int_equal(tx_flush(&q), 5);
	assert_int_equal(cnt.c[DP_C_PKT_TX], 5);
	assert_int_equal(cnt.c[DP_C_BITS_TX], (100 + 101 + 102 + 103 + 104) * 8);
	assert_int_equal(mbufs[0].pkt_len, 0xdead); /* the fake device did poison */
	accept_left = 1000;
	assert_int_equal(tx_flush(&q), 3);
	assert_int_equal(cnt.c[DP_C_BITS_TX], (100 + 101 + 102 + 103 + 104 + 105 + 106 + 107) * 8);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_full_bursts, setup),
		cmocka_unit_test_setup(test_partial_send_no_retry_per_packet, setup),
		cmocka_unit_test_setup(test_congested_threshold, setup),
		cmocka_unit_test_setup(test_compaction_at_end, setup),
		cmocka_unit_test_setup(test_drop_when_full, setup),
		cmocka_unit_test_setup(test_flush_reports_taken, setup),
		cmocka_unit_test_setup(test_bits_read_before_the_device_owns, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
