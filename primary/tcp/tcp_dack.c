/* SPDX-License-Identifier: BSD-3-Clause
 * The delayed-ACK timer: bare ACKs for sockets whose delay is up and whose
 * ACK found no segment to ride on (see tcp_dack.h).
 */
#include "tcp/tcp.h"
#include "tcp/tcp_dack.h"
#include "tcp/tlist.h"

int
tcp_dack_run(struct netw *nw)
{
	struct dack_ring *r = nw->tcp->dack;

	if (r == NULL)
		return 0;
	for (int n = 0; n < DP_TIMER_BUDGET; n++) {
		struct dack_ent *e;
		struct sock *sk;
		struct tuple t;

		if (r->head == r->tail)
			return 0;
		e = &r->e[r->head & r->mask];
		if (!tl_due(e->due, nw->now_t))
			return 0;
		if (tx_congested(&nw->txq))
			return 1;
		r->head++;
		nw->tcp->timer_fired = 1;
		sk = &nw->skt.sk[e->idx];
		/* Stale: the ACK rode on data, or the socket closed since. */
		if (!(sk->flags & SKF_ACK_QUEUED) || sk->ack_due != e->due || sk->state == SK_CLOSED)
			continue;
		sk_tuple(&nw->skt, e->idx, &t);
		sk_ctl(nw, &t, sk, TH_ACK);
	}
	return r->head != r->tail && tl_due(r->e[r->head & r->mask].due, nw->now_t);
}
