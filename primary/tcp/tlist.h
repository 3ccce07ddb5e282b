/* SPDX-License-Identifier: BSD-3-Clause
 * FIFO timer lists over the socket table (see struct tlist, tcp.h). O(1) insert
 * and remove; expiry walks from the head only.
 */
#ifndef DPERF_TLIST_H
#define DPERF_TLIST_H

#include "net/netw.h"
#include "tcp/tcp.h"

static inline void
tl_remove(struct netw *nw, struct sock *sk)
{
	struct tlist *l;

	if (sk->list == TL_NONE)
		return;
	l = &nw->tcp->tl[sk->list];
	if (sk->t_prev)
		nw->skt.sk[sk->t_prev - 1].t_next = sk->t_next;
	else
		l->head = sk->t_next;
	if (sk->t_next)
		nw->skt.sk[sk->t_next - 1].t_prev = sk->t_prev;
	else
		l->tail = sk->t_prev;
	sk->t_next = sk->t_prev = 0;
	sk->list = TL_NONE;
	l->count--;
}

/* Put sk (index idx) on list `which`, expiring at `expire`: behind the
 * entries that expire no later, so expiry still looks at the head only.
 * With the list's own timeout that is the tail (a FIFO); a connection's
 * own retransmission timeout (tcp_send.h, RFC 6298) may be shorter than
 * the entries' before it, and walks back past them. */
static inline void
tl_add_at(struct netw *nw, struct sock *sk, uint32_t idx, enum sk_list which, uint32_t expire)
{
	struct tlist *l = &nw->tcp->tl[which];
	uint32_t after;

	tl_remove(nw, sk);
	sk->list = (uint8_t)which;
	sk->t_expire = expire;
	for (after = l->tail; after && (int32_t)(nw->skt.sk[after - 1].t_expire - expire) > 0;)
		after = nw->skt.sk[after - 1].t_prev;
	sk->t_prev = after;
	sk->t_next = after ? nw->skt.sk[after - 1].t_next : l->head;
	if (after)
		nw->skt.sk[after - 1].t_next = idx + 1;
	else
		l->head = idx + 1;
	if (sk->t_next)
		nw->skt.sk[sk->t_next - 1].t_prev = idx + 1;
	else
		l->tail = idx + 1;
	l->count++;
}

/* Put sk (index idx) on list `which`, expiring after the list's timeout. */
static inline void
tl_add(struct netw *nw, struct sock *sk, uint32_t idx, enum sk_list which)
{
	tl_add_at(nw, sk, idx, which, nw->now_t + nw->tcp->tl[which].timeout);
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
