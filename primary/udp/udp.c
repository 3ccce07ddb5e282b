/* SPDX-License-Identifier: BSD-3-Clause */
#include <rte_cycles.h>

#include "net/lat.h"
#include "net/pkt.h"
#include "state/sock_table.h"
#include "udp/udp.h"

/* A datagram received: ours (its tuple in the table, the server's
 * address right) counted as udpRx, its bits and the message it is (http,
 * else raw: the role's two counters); else udpDrop. Returns whether it
 * was ours. */
static inline int
udp_counted(struct netw *nw, const struct udp_dgram *d, int ours, enum dp_counter http,
	    enum dp_counter raw)
{
	if (!ours) {
		CNT(&nw->cnt, UDP_DROP);
		return 0;
	}
	CNT(&nw->cnt, UDP_RX);
	CNT_ADD(&nw->cnt, GOOD_RX, (uint64_t)d->dlen * 8);
	nw->cnt.c[nw->is_http ? http : raw]++;
	return 1;
}

/* The client's and the server's entries (net/l4.h), bound by role once
 * (net/rx.c: rx_bind). */
void
udp_client_input(struct netw *nw, const struct udp_dgram *d)
{
	(void)udp_counted(nw, d,
			  sk_index_client(&nw->skt, d->dip, d->dport, d->sport) != SK_NONE &&
				  d->sip == nw->skt.srv_ip,
			  DP_C_HTTP_2XX, DP_C_TCP_RSP);
}

void
udp_server_input(struct netw *nw, const struct udp_dgram *d)
{
	struct tuple t = { .lip = d->dip, .rip = d->sip, .lport = d->dport, .rport = d->sport };

	if (!udp_counted(nw, d,
			 sk_index_server(&nw->skt, d->dip, d->sip, d->sport, d->dport) != SK_NONE &&
				 d->dip == nw->skt.srv_ip,
			 DP_C_HTTP_GET, DP_C_TCP_REQ))
		return;
	if (pkt_udp(nw, &t, &nw->msg.rsp_ka) == 0) {
		CNT(&nw->cnt, UDP_TX);
		CNT_ADD(&nw->cnt, GOOD_TX, (uint64_t)nw->msg.rsp_ka.len * 8);
	}
	if (nw->lat)
		lat_add(nw, DP_LAT_SERVER, rte_rdtsc() - nw->now);
}

int
udp_client_launch(struct netw *nw, uint64_t pps_conns)
{
	struct tuple t;

	sk_cursor_tuple(&nw->cur, &nw->skt, &t);
	sk_cursor_step(&nw->cur, &nw->skt);
	/* Packets-per-second mode: the cc "connections" are the first
	 * pps_conns tuples of the walk, each sending in turn, so each sends
	 * once per interval. */
	if (pps_conns && nw->cur.walked >= pps_conns)
		sk_cursor_rewind(&nw->cur);
	if (nw->cur.dip_num)
		sk_cursor_dip(&nw->cur, &t);
	if ((nw->flood ? pkt_flood_udp(nw, &t) : pkt_udp(nw, &t, &nw->msg.req)) != 0)
		return -1;
	CNT(&nw->cnt, UDP_TX);
	CNT_ADD(&nw->cnt, GOOD_TX, (uint64_t)nw->msg.req.len * 8);
	if (nw->is_http)
		CNT(&nw->cnt, HTTP_GET);
	else
		CNT(&nw->cnt, TCP_REQ);
	return 0;
}
