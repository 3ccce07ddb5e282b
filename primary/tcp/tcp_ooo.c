/* SPDX-License-Identifier: BSD-3-Clause
 * The out-of-order receive queue (tcp_ooo.h).
 */
#include <stdlib.h>

#include "tcp/tcp_ooo.h"

static inline struct ooo_ent *
ent(const struct ooo_pool *p, uint16_t h)
{
	return &p->e[h - 1];
}

static inline uint32_t
ent_end(const struct ooo_ent *e)
{
	return e->seq + e->len;
}

int
ooo_init(struct ooo_pool *p, uint32_t cap, uint32_t per_conn, void (*release)(void *ctx, void *seg),
	 void *ctx)
{
	if (cap == 0 || cap > OOO_CAP_MAX)
		return -1;
	p->e = calloc(cap, sizeof(*p->e));
	if (p->e == NULL)
		return -1;
	p->cap = cap;
	p->used = 0;
	p->per_conn = per_conn;
	p->stamp = 0;
	p->release = release;
	p->ctx = ctx;
	for (uint32_t i = 0; i < cap; i++)
		p->e[i].next = i + 1 < cap ? (uint16_t)(i + 2) : 0;
	p->free = 1;
	return 0;
}

void
ooo_fini(struct ooo_pool *p)
{
	free(p->e);
	p->e = NULL;
	p->cap = 0;
}

static inline void
ent_free(struct ooo_pool *p, uint16_t h)
{
	ent(p, h)->seg = NULL;
	ent(p, h)->next = p->free;
	p->free = h;
	p->used--;
}

uint32_t
ooo_count(const struct ooo_pool *p, uint16_t head)
{
	uint32_t n = 0;

	for (uint16_t h = head; h; h = ent(p, h)->next)
		n++;
	return n;
}

enum ooo_res
ooo_insert(struct ooo_pool *p, uint16_t *head, uint32_t rcv_nxt, uint32_t seq, uint32_t len, void *seg,
	   uint16_t off0)
{
	uint32_t s = seq, e = seq + len, off = off0, held = 0, covered = 0, tiled = 0, gap = 0;
	uint16_t *link = head, h, cur;

	if (len == 0 || seq_le(e, rcv_nxt))
		return OOO_DUP;
	if (seq_lt(s, rcv_nxt)) { /* its front was delivered already */
		off = rcv_nxt - s;
		s = rcv_nxt;
	}
	/* Past the held segments that end at or before s. */
	for (cur = *head; cur && seq_le(ent_end(ent(p, cur)), s); cur = ent(p, cur)->next) {
		link = &ent(p, cur)->next;
		held++;
	}
	/* One that starts at or before s and ends after it holds our front. */
	if (cur && seq_le(ent(p, cur)->seq, s)) {
		if (seq_ge(ent_end(ent(p, cur)), e))
			return OOO_DUP;
		off += ent_end(ent(p, cur)) - s;
		s = ent_end(ent(p, cur));
		link = &ent(p, cur)->next;
		held++;
		cur = ent(p, cur)->next;
	}
	/* The ones we cover whole go; the next one, if it starts before
	 * our end, holds our tail. Counted first: nothing changes unless
	 * the segment is held. */
	h = cur;
	for (; h && seq_le(ent_end(ent(p, h)), e); h = ent(p, h)->next) {
		if (ent(p, h)->seq != (covered ? tiled : s))
			gap = 1;
		tiled = ent_end(ent(p, h));
		covered++;
	}
	if (h && seq_lt(ent(p, h)->seq, e))
		e = ent(p, h)->seq;
	/* between two held segments that touch, or over ones that leave
	 * no byte of it unheld */
	if (e == s || (covered && !gap && tiled == e))
		return OOO_DUP;
	for (uint16_t x = h; x; x = ent(p, x)->next)
		held++;
	if (held + 1 > p->per_conn || (covered == 0 && p->free == 0))
		return OOO_FULL;
	while (cur != h) {
		uint16_t n = ent(p, cur)->next;

		p->release(p->ctx, ent(p, cur)->seg);
		ent_free(p, cur);
		cur = n;
	}
	{
		uint16_t nh = p->free;
		struct ooo_ent *n = ent(p, nh);

		p->free = n->next;
		p->used++;
		n->seq = s;
		n->len = (uint16_t)(e - s);
		n->off = (uint16_t)off;
		n->stamp = ++p->stamp;
		n->seg = seg;
		n->next = h;
		*link = nh;
	}
	return OOO_HELD;
}

int
ooo_pop(struct ooo_pool *p, uint16_t *head, uint32_t rcv_nxt, struct ooo_out *out)
{
	while (*head) {
		uint16_t h = *head;
		struct ooo_ent *x = ent(p, h);

		if (seq_gt(x->seq, rcv_nxt))
			return 0; /* a gap before it */
		*head = x->next;
		if (seq_le(ent_end(x), rcv_nxt)) { /* all delivered already */
			p->release(p->ctx, x->seg);
			ent_free(p, h);
			continue;
		}
		out->seg = x->seg;
		out->seq = rcv_nxt;
		out->off = (uint16_t)(x->off + (rcv_nxt - x->seq));
		out->len = (uint16_t)(ent_end(x) - rcv_nxt);
		ent_free(p, h);
		return 1;
	}
	return 0;
}

uint32_t
ooo_release_all(struct ooo_pool *p, uint16_t *head)
{
	uint32_t n = 0;

	while (*head) {
		uint16_t h = *head;

		*head = ent(p, h)->next;
		p->release(p->ctx, ent(p, h)->seg);
		ent_free(p, h);
		n++;
	}
	return n;
}

uint32_t
ooo_drain(struct ooo_pool *p)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < p->cap && p->used; i++) {
		if (p->e[i].seg == NULL)
			continue;
		p->release(p->ctx, p->e[i].seg);
		ent_free(p, (uint16_t)(i + 1));
		n++;
	}
	return n;
}

uint32_t
ooo_sack(const struct ooo_pool *p, uint16_t head, struct sack_block *b, uint32_t max)
{
	uint32_t stamp[8], n = 0;

	if (max > 8)
		max = 8;
	for (uint16_t h = head; h;) {
		struct sack_block r = { ent(p, h)->seq, ent_end(ent(p, h)) };
		uint32_t last = ent(p, h)->stamp, i;

		/* contiguous held bytes are one block */
		for (h = ent(p, h)->next; h && ent(p, h)->seq == r.end; h = ent(p, h)->next) {
			r.end = ent_end(ent(p, h));
			if (seq_gt(ent(p, h)->stamp, last))
				last = ent(p, h)->stamp;
		}
		/* keep the max most recent, most recent first */
		for (i = n; i > 0 && seq_gt(last, stamp[i - 1]); i--) {
			if (i < max) {
				b[i] = b[i - 1];
				stamp[i] = stamp[i - 1];
			}
		}
		if (i < max) {
			b[i] = r;
			stamp[i] = last;
			if (n < max)
				n++;
		}
	}
	return n;
}
