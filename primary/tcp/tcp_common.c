/* SPDX-License-Identifier: BSD-3-Clause
 * tcp_common.h's out-of-line part (it was tcp_rcv.c, which included the
 * header that called it): the receiver's side of loss recovery, data
 * ahead of rcv_nxt held in the worker's out-of-order queue (tcp_ooo.h),
 * and ACKs that say what is held (SACK blocks, tcp_sack.h). Off the in-order path: a connection without
 * a gap never comes here.
 */
#include "tcp/tcp_common.h"
#include "tcp/tcp_sack.h"

void
sk_rcv_hold(struct netw *nw, struct sock *sk, const struct seg *s)
{
	uint16_t off = 0;
	void *h;

	/* A FIN is not held (the queue keeps bytes): the peer sends it
	 * again after the data before it is acknowledged. */
	if (nw->tcp->ooo == NULL || s->dlen == 0 || s->dlen > UINT16_MAX || (s->flags & TH_FIN) ||
	    (h = pkt_hold(nw, s, &off)) == NULL) {
		CNT(&nw->cnt, OOO_DROP);
		return;
	}
	switch (ooo_insert(nw->tcp->ooo, &sk->ooo, sk->rcv_nxt, s->seq, s->dlen, h, off)) {
	case OOO_HELD:
		CNT(&nw->cnt, TCP_OOO);
		return;
	case OOO_DUP: /* every byte of it is held already */
		CNT(&nw->cnt, TCP_DROP);
		break;
	case OOO_FULL:
		CNT(&nw->cnt, OOO_DROP);
		break;
	}
	pkt_unhold(nw, h);
}

void
sk_ctl_sack(struct netw *nw, const struct tuple *t, struct sock *sk, uint32_t seq, uint8_t flags)
{
	struct sack_block b[SACK_MAX_BLOCKS];
	uint8_t opt[4 + 8 * SACK_MAX_BLOCKS];
	uint32_t n = ooo_sack(nw->tcp->ooo, sk->ooo, b, sack_max_blocks(0));

	sack_opt_write(opt, b, n);
	tcp_out_opt(nw, t, seq, sk->rcv_nxt, flags, sk_win(nw, sk), NULL, opt, sack_opt_len(n));
}
