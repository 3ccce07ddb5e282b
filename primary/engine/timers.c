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
	struct tlist *l = &w->tcp.tl[which];

	for (int n = 0; n < DP_TIMER_BUDGET; n++) {
		uint32_t idx;
		struct sock *sk;

		if (!l->head)
			return 0;
		idx = l->head - 1;
		sk = &w->net.skt.sk[idx];
		if (!tl_due(sk->t_expire, w->net.now_t))
			return 0;
		if (tx_congested(&w->net.txq))
			return 1;
		tl_remove(&w->net, sk);
		w->tcp.timer_fired = 1;
		if (w->net.is_client)
			tcp_client_timer(&w->net, idx, which);
		else
			tcp_server_timer(&w->net, idx, which);
	}
	return l->head && tl_due(w->net.skt.sk[l->head - 1].t_expire, w->net.now_t);
}

int
timers_run(struct worker *w)
{
	return run_list(w, TL_RT) | run_list(w, TL_KA) | run_list(w, TL_IDLE) | tcp_dack_run(&w->net);
}

