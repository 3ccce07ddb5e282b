/* SPDX-License-Identifier: BSD-3-Clause */
#include "tcp/tcp.h"
#include "tcp/tcp_dack.h"
#include "engine/timers.h"
#include "state/txq.h"

/* Expires what is due on one list, at most DP_TIMER_BUDGET at a time.
 * Returns nonzero when due entries are left (budget spent, or the device
 * is full). */
static int
run_list(struct worker *w, int which)
{
	struct tlist *l = &w->tl[which];

	for (int n = 0; n < DP_TIMER_BUDGET; n++) {
		uint32_t idx;
		struct sock *sk;

		if (!l->head)
			return 0;
		idx = l->head - 1;
		sk = &w->sk[idx];
		if (!tl_due(sk->t_expire, w->now_t))
			return 0;
		if (tx_congested(w))
			return 1;
		tl_remove(w, sk);
		w->timer_fired = 1;
		if (w->is_client)
			tcp_client_timer(w, idx, which);
		else
			tcp_server_timer(w, idx, which);
	}
	return l->head && tl_due(w->sk[l->head - 1].t_expire, w->now_t);
}

int
timers_run(struct worker *w)
{
	return run_list(w, TL_RT) | run_list(w, TL_KA) | run_list(w, TL_IDLE) | tcp_dack_run(w);
}

