/* SPDX-License-Identifier: BSD-3-Clause
 * fuzz_rx's snapshot of a worker (rx_snap.h).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "rx_snap.h"
#include "state/sock_table.h"
#include "tcp/tcp_dack.h"
#include "tcp/tcp_ooo.h"
#include "tcp/tcp_send.h"
#include "boot/worker_setup.h"

#define PAGE 4096

static const uint8_t zero_page[PAGE];

static size_t
n_pages_of(size_t len)
{
	return (len + PAGE - 1) / PAGE;
}

static size_t
page_bytes(const struct snap_region *r, size_t i)
{
	return r->len - i * PAGE < PAGE ? r->len - i * PAGE : PAGE;
}

/* mincore's answer for the region (mmap'ed, so page aligned) in r->vec. */
static void
mapped_pages(const struct snap_region *r)
{
	if (mincore(r->at, r->len, r->vec) != 0)
		abort();
}

/* The region as fresh zero pages, and no page tables under it: mincore
 * then skips it 2 MB at a time instead of a page at a time (a table the
 * engine prefaulted whole would have its page tables forever). */
static void
region_zero(const struct snap_region *r)
{
	void *p = mmap(r->at, r->len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);

	if (p != r->at)
		abort();
	(void)madvise(r->at, r->len, MADV_NOHUGEPAGE); /* as worker_setup.c maps it */
}

static void
copy_pages_back(const struct snap_region *r)
{
	for (size_t k = 0; k < r->n_pages; k++)
		memcpy(r->at + r->page[k] * PAGE, r->copy + k * PAGE, page_bytes(r, r->page[k]));
}

static int
region_take(struct snap_region *r, void *at, size_t len, size_t elem)
{
	size_t n;

	memset(r, 0, sizeof(*r));
	r->at = at;
	r->len = at ? len : 0;
	r->elem = elem;
	if (r->len == 0)
		return 0;
	if (r->len <= SNAP_COPY_MAX) {
		r->copy = malloc(r->len);
		if (r->copy == NULL)
			return -1;
		memcpy(r->copy, at, r->len);
		return 0;
	}
	n = n_pages_of(r->len);
	r->vec = malloc(n);
	r->page = malloc(n * sizeof(*r->page));
	if (r->vec == NULL || r->page == NULL)
		return -1;
	mapped_pages(r);
	for (size_t i = 0; i < n; i++)
		if ((r->vec[i] & 1) && memcmp(r->at + i * PAGE, zero_page, page_bytes(r, i)) != 0)
			r->page[r->n_pages++] = i;
	r->copy = malloc(r->n_pages * PAGE + 1);
	if (r->copy == NULL)
		return -1;
	for (size_t k = 0; k < r->n_pages; k++)
		memcpy(r->copy + k * PAGE, r->at + r->page[k] * PAGE, page_bytes(r, r->page[k]));
	region_zero(r);
	copy_pages_back(r);
	return 0;
}

/* The page of the snapshot, or of mincore's answer, at or after i. */
static size_t
next_mapped(const struct snap_region *r, size_t i, size_t n)
{
	/* eight pages at a time: all but a few bytes of vec are 0 */
	while (i + 8 <= n) {
		uint64_t v;

		memcpy(&v, r->vec + i, 8);
		if (v & 0x0101010101010101ull)
			break;
		i += 8;
	}
	while (i < n && !(r->vec[i] & 1))
		i++;
	return i;
}

/* The elements named, zeroed (as all but the snapshot's pages were),
 * then the snapshot's pages. */
static void
region_restore_touched(const struct snap_region *r, const uint64_t *idx, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (idx[i] < r->len / r->elem)
			memset(r->at + idx[i] * r->elem, 0, r->elem);
	copy_pages_back(r);
}

static void
region_restore(const struct snap_region *r, const uint64_t *idx, unsigned n_idx)
{
	size_t n, k = 0, extra = 0;

	if (r->len == 0)
		return;
	if (r->len <= SNAP_COPY_MAX) {
		memcpy(r->at, r->copy, r->len);
		return;
	}
	if (n_idx <= SNAP_TOUCH_MAX) {
		region_restore_touched(r, idx, n_idx);
		return;
	}
	n = n_pages_of(r->len);
	mapped_pages(r);
	for (size_t i = next_mapped(r, 0, n); i < n; i = next_mapped(r, i + 1, n)) {
		uint8_t *at = r->at + i * PAGE;
		size_t b = page_bytes(r, i);

		while (k < r->n_pages && r->page[k] < i)
			k++;
		if (k < r->n_pages && r->page[k] == i) {
			memcpy(at, r->copy + k * PAGE, b);
			continue;
		}
		if (memcmp(at, zero_page, b) != 0)
			memset(at, 0, b);
		extra++;
	}
	if (extra <= SNAP_MAPPED_MAX)
		return;
	region_zero(r);
	copy_pages_back(r);
}

/* The struct worker but its TX and flood rings and its stash of fresh
 * mbufs (rx_snap.h), in the order they lie (checked at the snapshot). */
static const struct {
	size_t off, len;
} skip[] = {
	{ offsetof(struct worker, net.io.n_stash), sizeof(((struct worker *)0)->net.io.n_stash) },
	{ offsetof(struct worker, net.io.stash), sizeof(((struct worker *)0)->net.io.stash) },
	{ offsetof(struct worker, net.fring.m), sizeof(((struct worker *)0)->net.fring.m) },
	{ offsetof(struct worker, net.txq.pkts), sizeof(((struct worker *)0)->net.txq.pkts) },
};
#define N_SKIP (sizeof(skip) / sizeof(skip[0]))

static void
copy_worker(struct worker *to, const struct worker *from)
{
	size_t at = 0;

	for (size_t i = 0; i <= N_SKIP; i++) {
		size_t end = i < N_SKIP ? skip[i].off : sizeof(*to);

		memcpy((uint8_t *)to + at, (const uint8_t *)from + at, end - at);
		if (i < N_SKIP)
			at = skip[i].off + skip[i].len;
	}
}

/* Whether a and b are the same but for the rings. */
static int
same_worker(const struct worker *a, const struct worker *b)
{
	size_t at = 0;

	for (size_t i = 0; i <= N_SKIP; i++) {
		size_t end = i < N_SKIP ? skip[i].off : sizeof(*a);

		if (memcmp((const uint8_t *)a + at, (const uint8_t *)b + at, end - at) != 0)
			return 0;
		if (i < N_SKIP)
			at = skip[i].off + skip[i].len;
	}
	return 1;
}

/* The ring's header and its entries from head to tail, as they lie (the
 * ring wraps at mask + 1 entries). */
static size_t
dack_live_len(const struct dack_ring *r)
{
	size_t first = (r->head & r->mask) + (size_t)(r->tail - r->head);

	if (first > (size_t)r->mask + 1)
		first = (size_t)r->mask + 1; /* wrapped: all entries */
	return sizeof(*r) + first * sizeof(r->e[0]);
}

int
worker_snap_take(struct worker_snap *s, const struct worker *wk)
{
	memset(s, 0, sizeof(*s));
	if (wk->tcp.ooo != NULL && wk->tcp.ooo->used != 0)
		return -1; /* connecting held nothing out of order: restore empties the queue */
	copy_worker(&s->wk, wk);
	s->np = *wk->net.io.np;
	memcpy(&s->st, (const void *)wk->st, sizeof(s->st));
	for (size_t i = 1; i < N_SKIP; i++)
		if (skip[i].off < skip[i - 1].off + skip[i - 1].len)
			abort(); /* a change to struct worker: reorder skip[] */
	if (region_take(&s->sk, wk->net.skt.sk, wk->net.skt.n_sk * sizeof(struct sock), sizeof(struct sock)) != 0 ||
	    region_take(&s->snd, wk->tcp.snd, worker_snd_bytes(wk),
			wk->net.skt.n_sk ? worker_snd_bytes(wk) / wk->net.skt.n_sk : 0) != 0)
		return -1;
	if (wk->tcp.dack != NULL) {
		s->dack_len = dack_live_len(wk->tcp.dack);
		s->dack = malloc(s->dack_len);
		if (s->dack == NULL)
			return -1;
		memcpy(s->dack, wk->tcp.dack, s->dack_len);
	}
	return 0;
}

void
worker_snap_touch(struct worker_snap *s, uint64_t idx)
{
	if (idx == SK_NONE)
		return;
	if (s->n_touched < SNAP_TOUCH_MAX)
		s->touched[s->n_touched] = idx;
	if (s->n_touched <= SNAP_TOUCH_MAX)
		s->n_touched++;
}

void
worker_snap_restore(struct worker_snap *s, struct worker *wk)
{
	/* the out-of-order queue (tcp_ooo.h), behind its pointer: empty at
	 * the snapshot, so emptied (its mbufs back to the pool) before the
	 * sockets whose handles named its segments are put back */
	if (wk->tcp.ooo != NULL)
		ooo_drain(wk->tcp.ooo);
	copy_worker(wk, &s->wk);
	*wk->net.io.np = s->np;
	memcpy((void *)wk->st, &s->st, sizeof(s->st));
	region_restore(&s->sk, s->touched, s->n_touched);
	region_restore(&s->snd, s->touched, s->n_touched);
	s->n_touched = 0;
	if (s->dack != NULL)
		memcpy(wk->tcp.dack, s->dack, s->dack_len);
}

static int
region_same(const struct snap_region *r)
{
	size_t k = 0;

	if (r->len <= SNAP_COPY_MAX)
		return r->len == 0 || memcmp(r->at, r->copy, r->len) == 0;
	for (size_t i = 0; i < n_pages_of(r->len); i++) {
		const uint8_t *want = zero_page;

		if (k < r->n_pages && r->page[k] == i)
			want = r->copy + k++ * PAGE;
		if (memcmp(r->at + i * PAGE, want, page_bytes(r, i)) != 0)
			return 0;
	}
	return 1;
}

const char *
worker_snap_differs(const struct worker_snap *s, const struct worker *wk)
{
	static struct worker now;

	now = s->wk; /* the parts not restored, as saved */
	copy_worker(&now, wk);
	if (!same_worker(&now, &s->wk))
		return "struct worker";
	if (memcmp(wk->net.io.np, &s->np, sizeof(s->np)) != 0)
		return "its netport";
	if (memcmp((const void *)wk->st, &s->st, sizeof(s->st)) != 0)
		return "its statistics";
	if (!region_same(&s->sk))
		return "its sockets";
	if (!region_same(&s->snd))
		return "its sender state";
	if (s->dack != NULL && memcmp(wk->tcp.dack, s->dack, s->dack_len) != 0)
		return "its delayed-ACK ring";
	return NULL;
}
