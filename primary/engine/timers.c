/* SPDX-License-Identifier: BSD-3-Clause */
#include "tcp/tcp.h"
#include "tcp/tcp_dack.h"
#include "engine/timers.h"
#include "state/txq.h"

/* Expires what is due on one list, at most DP_TIMER_BUDGET at a time.
 * Returns nonzero when due entries are left (budget spent, or the device
 * is full). */
static int
run_list(struct worker *wk, int which)
{
	struct tlist *l = &wk->tcp.tl[which];

	for (int n = 0; n < DP_TIMER_BUDGET; n++) {
		uint32_t idx;
		struct sock *sk;

		if (!l->head)
			return 0;
		idx = l->head - 1;
		sk = &wk->net.skt.sk[idx];
		if (!tl_due(sk->t_expire, wk->net.now_t))
			return 0;
		if (tx_congested(&wk->net.txq))
			return 1;
		tl_remove(&wk->net, sk);
		wk->tcp.timer_fired = 1;
		wk->tcp.timer(&wk->net, idx, which); /* the role's, bound at setup */
	}
	return l->head && tl_due(wk->net.skt.sk[l->head - 1].t_expire, wk->net.now_t);
}

int
timers_run(struct worker *wk)
{
	return run_list(wk, TL_RT) | run_list(wk, TL_KA) | run_list(wk, TL_IDLE) | tcp_dack_run(&wk->net);
}

