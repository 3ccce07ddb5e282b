/* SPDX-License-Identifier: BSD-3-Clause
 * FIFO timer lists over the socket table (see struct tlist, tcp.h). O(1) insert
 * and remove; expiry walks from the head only.
 */
#ifndef DPERF_TLIST_H
#define DPERF_TLIST_H

#include "net/netw.h"
#include "tcp/tcp.h"

static inline void
tl_remove(struct netw *w, struct sock *sk)
{
	struct tlist *l;

	if (sk->list == TL_NONE)
		return;
	l = &w->tcp->tl[sk->list];
	if (sk->t_prev)
		w->skt.sk[sk->t_prev - 1].t_next = sk->t_next;
	else
		l->head = sk->t_next;
	if (sk->t_next)
		w->skt.sk[sk->t_next - 1].t_prev = sk->t_prev;
	else
		l->tail = sk->t_prev;
	sk->t_next = sk->t_prev = 0;
	sk->list = TL_NONE;
	l->count--;
}

/* Put sk (index idx) at the tail of list `which`, expiring after its timeout. */
static inline void
tl_add(struct netw *w, struct sock *sk, uint32_t idx, enum sk_list which)
{
	struct tlist *l = &w->tcp->tl[which];

	tl_remove(w, sk);
	sk->list = (uint8_t)which;
	sk->t_expire = w->now_t + l->timeout;
	sk->t_next = 0;
	sk->t_prev = l->tail;
	if (l->tail)
		w->skt.sk[l->tail - 1].t_next = idx + 1;
	else
		l->head = idx + 1;
	l->tail = idx + 1;
	l->count++;
}

/* Microseconds as timer ticks (rounded down: an interval shorter than a
 * tick is no wait at all). */
static inline uint32_t
tl_ticks(uint64_t us)
{
	return (uint32_t)(us * TL_PER_MS / 1000);
}

/* Signed comparison of wrapping timer clocks (ticks or ms). */
static inline int
tl_due(uint32_t expire, uint32_t now)
{
	return (int32_t)(now - expire) >= 0;
}

#endif
