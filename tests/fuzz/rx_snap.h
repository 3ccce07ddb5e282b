/* SPDX-License-Identifier: BSD-3-Clause
 * fuzz_rx's snapshot of a worker: everything the receive path may write,
 * saved once when the harness has connected its pairs, and put back after
 * each input that touched the worker, instead of setting it up and
 * connecting it again (which was three quarters of every execution).
 *
 * What a worker writes, and so what a snapshot holds:
 *   - the struct worker itself (its counters, timer lists, cursors, the
 *     cached response head), but not its TX ring or flood ring: they hold
 *     no packet when a snapshot is taken or put back (the harness drains
 *     first); nor its stash of fresh mbufs (pkt.h), which stays with the
 *     worker: every mbuf is in the pool or a stash;
 *   - its port's struct netport (the gateway's MAC is learned at run time);
 *   - its memzone statistics block;
 *   - the socket table and the sender's state beside it (tcp_send.h):
 *     regions of zero pages but for the sockets live when the snapshot was
 *     taken (see struct snap_region);
 *   - the delayed-ACK ring (tcp_dack.h): its header and the entries from
 *     head to tail, the only ones its reader reads.
 *   - not the out-of-order queue (tcp_ooo.h): empty when the snapshot is
 *     taken, it is emptied before each restore.
 * Not held: what the worker only reads after setup (configuration,
 * messages, VXLAN headers) and the latency histograms, which nothing reads
 * back.
 *
 * A change to what a worker owns (a new table, a part of struct worker
 * moved behind a pointer) belongs here, or inputs leak state into each
 * other.
 */
#ifndef FUZZ_RX_SNAP_H
#define FUZZ_RX_SNAP_H

#include <stddef.h>
#include <stdint.h>

#include "shm.h"
#include "state/netport.h"
#include "engine/worker.h"

/*
 * A region the worker writes, an array of elements (sockets, or their
 * sender state) indexed alike. Up to SNAP_COPY_MAX bytes it is copied
 * back whole. Beyond (a server's table has a socket for every client port
 * and address, 8 MB of which a test touches a few pages), the pages that
 * held something at the snapshot are copied back, and the elements an
 * input reached (worker_snap_touch: every socket a packet named) are
 * zeroed, as they were. The rest of the table is written only through
 * those: the timers, the delayed ACKs and the timer lists reach sockets
 * that are open, opened by a packet of this input or live in the
 * snapshot. FUZZ_RX_SNAP_CHECK=1 checks that claim after every input.
 *
 * When an input names more than SNAP_TOUCH_MAX sockets, the pages the
 * kernel has mapped (mincore) are walked instead, since they are all an
 * input can have written: those that held something at the snapshot
 * copied back, the others zeroed if they are not zero already; the
 * region is mapped afresh when more than SNAP_MAPPED_MAX pages are mapped
 * beyond the snapshot's (mincore then skips it 2 MB at a time). That walk
 * was a sixth of every execution.
 */
#define SNAP_COPY_MAX (64 * 1024)
#define SNAP_MAPPED_MAX 16
#define SNAP_TOUCH_MAX 64
struct snap_region {
	uint8_t *at;
	size_t len;
	size_t elem;       /* the size of one element */
	uint8_t *copy;     /* small: all len bytes; large: n_pages pages */
	size_t *page;      /* large: the page index of each page copied, ascending */
	size_t n_pages;
	unsigned char *vec; /* large: mincore's answer, a byte per page */
};

struct worker_snap {
	struct worker wk;
	struct netport np;
	struct dp_worker_stats st;
	struct snap_region sk, snd;
	uint8_t *dack;     /* the ring's header and live entries, as in the ring */
	size_t dack_len;
	uint64_t touched[SNAP_TOUCH_MAX]; /* sockets named since the restore */
	unsigned n_touched; /* beyond SNAP_TOUCH_MAX: walk the mapped pages */
};

/* Save w (its port np): 0, or -1 when out of memory. */
int worker_snap_take(struct worker_snap *s, const struct worker *wk);

/* A packet to w names its socket idx (SK_NONE: none): record it. */
void worker_snap_touch(struct worker_snap *s, uint64_t idx);

/* Put w back as saved. w holds no mbuf (drained), and its pointers are
 * those it had when saved. */
void worker_snap_restore(struct worker_snap *s, struct worker *wk);

/* NULL when w is as saved, else what differs ("its sockets"): the check
 * of the restore itself, run by FUZZ_RX_SNAP_CHECK=1 (slow: it reads the
 * large regions whole). */
const char *worker_snap_differs(const struct worker_snap *s, const struct worker *wk);

#endif
