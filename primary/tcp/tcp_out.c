/* SPDX-License-Identifier: BSD-3-Clause
 * The TCP segment writer (tcp_out.h).
 */
#include <string.h>

#include <rte_prefetch.h>
#include <rte_byteorder.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_tcp.h>

#include "net/pkt.h"
#include "net/pkt_flood.h"
#include "net/pkt_hdr.h"
#include "tcp/tcp_out.h"

#define TCP_OPT_MSS_LEN 4
#define TCP_OPT_WS_LEN 4 /* no-operation, then window scale (3 bytes) */
#define TCP_OPT_SACK_OK_LEN 4 /* two no-operations, then SACK-permitted (2 bytes) */
#define TCP_OPT_MAX 40

/* synopt: a SYN's options beside MSS (PKT_SYN_*); opt: other option
 * bytes (optlen, a multiple of 4: an ACK's SACK blocks). */
static __rte_always_inline void
tcp_fill(struct netw *nw, struct rte_mbuf *m, const struct tuple *t, uint32_t seq, uint32_t ack,
	 uint8_t flags, uint16_t win, const struct msg *msg, int synopt, const uint8_t *opt,
	 uint32_t optlen)
{
	uint32_t l2, l3, synlen = (flags & RTE_TCP_SYN_FLAG) ? TCP_OPT_MSS_LEN +
					(synopt & TCP_SYN_WS ? TCP_OPT_WS_LEN : 0) +
					(synopt & TCP_SYN_SACK ? TCP_OPT_SACK_OK_LEN : 0) : 0;
	uint32_t dlen = msg ? msg->len : 0, thl = sizeof(struct rte_tcp_hdr) + synlen + optlen;
	uint32_t dsum = msg ? msg->sum : 0;
	struct rte_tcp_hdr *th;
	uint32_t hsum;
	uint8_t *p = rte_pktmbuf_mtod(m, uint8_t *);

	l2 = l2_write(&nw->io, p, rte_cpu_to_be_16(nw->v6 ? RTE_ETHER_TYPE_IPV6 : RTE_ETHER_TYPE_IPV4),
		      &nw->io.np->gw_mac);
	l3 = nw->v6 ? sizeof(struct rte_ipv6_hdr) : sizeof(struct rte_ipv4_hdr);
	th = (struct rte_tcp_hdr *)(p + l2 + l3);
	seq = rte_cpu_to_be_32(seq);
	ack = rte_cpu_to_be_32(ack);
	th->src_port = t->lport;
	th->dst_port = t->rport;
	th->sent_seq = seq;
	th->recv_ack = ack;
	th->data_off = (uint8_t)((thl / 4) << 4);
	th->tcp_flags = flags;
	if (flags & RTE_TCP_SYN_FLAG)
		win = tcp_out_win(nw, 0); /* never scaled */
	th->rx_win = rte_cpu_to_be_16(win);
	th->cksum = 0;
	th->tcp_urp = 0;
	hsum = (uint32_t)t->lport + t->rport + sum32(seq) + sum32(ack) +
	       (uint32_t)(((thl / 4) << 4) | (uint32_t)flags << 8) + th->rx_win;
	if (synlen) {
		uint8_t *o = (uint8_t *)(th + 1);
		uint16_t mss = rte_cpu_to_be_16(nw->mss);
		o[0] = 2; /* MSS */
		o[1] = 4;
		memcpy(o + 2, &mss, 2);
		hsum += (2 | 4 << 8) + (uint32_t)mss;
		o += TCP_OPT_MSS_LEN;
		if (synopt & TCP_SYN_SACK) {
			o[0] = o[1] = 1; /* no-operations: the option ends on a word */
			o[2] = 4; /* SACK-permitted */
			o[3] = 2;
			hsum += (1 | 1 << 8) + (4 | 2 << 8);
			o += TCP_OPT_SACK_OK_LEN;
		}
		if (synopt & TCP_SYN_WS) {
			o[0] = 1; /* no-operation: the option ends on a word */
			o[1] = 3; /* window scale */
			o[2] = 3;
			o[3] = nw->rcv_ws;
			hsum += (1 | 3 << 8) + (3 | (uint32_t)nw->rcv_ws << 8);
		}
	}
	if (optlen) {
		memcpy((uint8_t *)(th + 1) + synlen, opt, optlen);
		hsum += __rte_raw_cksum(opt, optlen, 0);
	}
	if (dlen) {
		if (msg->sum_on_copy && !nw->io.np->tx_cksum) { /* the copy is the sum's pass */
			/* a TLS connection's records, mostly out of the caches
			 * (issue 38): the next segment's asked for now, as the
			 * sender cuts them in order (a prefetch never faults) */
			for (uint32_t o = 0; o < dlen; o += 64)
				rte_prefetch0((const uint8_t *)msg->data + dlen + o);
			dsum = dp_copy_cksum((uint8_t *)th + thl, msg->data, dlen, 0);
		} else
			rte_memcpy((uint8_t *)th + thl, msg->data, dlen);
	}
	m->data_len = m->pkt_len = l2 + l3 + thl + dlen;
	if (nw->v6) {
		struct rte_ipv6_hdr *ip6 = (struct rte_ipv6_hdr *)(p + l2);
		ip6_write(&nw->io, ip6, t, IPPROTO_TCP, (uint16_t)(thl + dlen));
		th->cksum = l4_cksum6(&nw->io, m, ip6, th, thl, dsum, l2, 0);
	} else {
		struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(p + l2);
		uint16_t l4len = (uint16_t)(thl + dlen);
		uint32_t isum = ip_write(&nw->io, ip, t, IPPROTO_TCP, l4len);
		th->cksum = l4_cksum(&nw->io, m, ip, t, isum, hsum, dsum, l4len, l2, 0);
	}
}

void
tcp_out_fill(struct netw *nw, struct rte_mbuf *m, const struct tuple *t, uint32_t seq,
	     uint32_t ack, uint8_t flags, const struct msg *msg)
{
	tcp_fill(nw, m, t, seq, ack, flags, tcp_out_win(nw, 0), msg, flags == RTE_TCP_SYN_FLAG ? TCP_SYN_OURS : 0,
		 NULL, 0);
}

/* One TCP segment built and queued (tcp_fill's options). */
static __rte_always_inline int
tcp_send(struct netw *nw, const struct tuple *t, uint32_t seq, uint32_t ack, uint8_t flags,
	 uint16_t win, const struct msg *msg, int synopt, const uint8_t *opt, uint32_t optlen)
{
	struct rte_mbuf *m = pkt_alloc(nw);

	if (unlikely(m == NULL))
		return -1;
	tcp_fill(nw, m, t, seq, ack, flags, win, msg, synopt, opt, optlen);
	pkt_send(nw, m);
	return 0;
}

int
tcp_out(struct netw *nw, const struct tuple *t, uint32_t seq, uint32_t ack, uint8_t flags,
	uint16_t win, const struct msg *msg)
{
	/* a bare SYN always offers window scaling (RFC 7323 2.2) and SACK */
	return tcp_send(nw, t, seq, ack, flags, win, msg, flags == RTE_TCP_SYN_FLAG ? TCP_SYN_OURS : 0,
			NULL, 0);
}

int
tcp_out_synack(struct netw *nw, const struct tuple *t, uint32_t seq, uint32_t ack, int synopt)
{
	return tcp_send(nw, t, seq, ack, RTE_TCP_SYN_FLAG | RTE_TCP_ACK_FLAG, 0, NULL, synopt, NULL, 0);
}

int
tcp_out_opt(struct netw *nw, const struct tuple *t, uint32_t seq, uint32_t ack, uint8_t flags,
	    uint16_t win, const struct msg *msg, const uint8_t *opt, uint32_t optlen)
{
	RTE_ASSERT(optlen % 4 == 0 && optlen <= TCP_OPT_MAX && !(flags & RTE_TCP_SYN_FLAG));
	return tcp_send(nw, t, seq, ack, flags, win, msg, 0, opt, optlen);
}

int
tcp_flood_syn(struct netw *nw, const struct tuple *t, uint32_t seq)
{
	struct rte_mbuf *m = ring_reuse(nw);

	if (m == NULL && (m = ring_grow(nw)) == NULL)
		return -1;
	tcp_out_fill(nw, m, t, seq, 0, RTE_TCP_SYN_FLAG, NULL);
	pkt_send(nw, m);
	return 0;
}
