/* SPDX-License-Identifier: BSD-3-Clause */
#include <rte_cycles.h>

#include "net/lat.h"
#include "net/pkt.h"
#include "state/sock_table.h"
#include "udp/udp.h"

void
udp_input(struct netw *w, const struct udp_dgram *d)
{
	struct tuple t = { .lip = d->dip, .rip = d->sip, .lport = d->dport, .rport = d->sport };

	if (w->is_client) {
		if (sk_index_client(&w->skt, d->dip, d->dport, d->sport) == SK_NONE || d->sip != w->skt.srv_ip) {
			CNT(&w->cnt, UDP_DROP);
			return;
		}
		CNT(&w->cnt, UDP_RX);
		CNT_ADD(&w->cnt, GOOD_RX, (uint64_t)d->dlen * 8);
		if (w->is_http)
			CNT(&w->cnt, HTTP_2XX);
		else
			CNT(&w->cnt, TCP_RSP);
		return;
	}
	if (sk_index_server(&w->skt, d->sip, d->sport, d->dport) == SK_NONE || d->dip != w->skt.srv_ip) {
		CNT(&w->cnt, UDP_DROP);
		return;
	}
	CNT(&w->cnt, UDP_RX);
	CNT_ADD(&w->cnt, GOOD_RX, (uint64_t)d->dlen * 8);
	if (w->is_http)
		CNT(&w->cnt, HTTP_GET);
	else
		CNT(&w->cnt, TCP_REQ);
	if (pkt_udp(w, &t, &w->msg.rsp_ka) == 0) {
		CNT(&w->cnt, UDP_TX);
		CNT_ADD(&w->cnt, GOOD_TX, (uint64_t)w->msg.rsp_ka.len * 8);
	}
	if (w->lat)
		lat_add(w, DP_LAT_SERVER, rte_rdtsc() - w->now);
}

int
udp_client_launch(struct netw *w, uint64_t pps_conns)
{
	struct tuple t;

	sk_cursor_tuple(&w->cur, &w->skt, &t);
	sk_cursor_step(&w->cur, &w->skt);
	/* Packets-per-second mode: the cc "connections" are the first
	 * pps_conns tuples of the walk, each sending in turn, so each sends
	 * once per interval. */
	if (pps_conns && w->cur.walked >= pps_conns)
		sk_cursor_rewind(&w->cur);
	if (w->cur.dip_num)
		sk_cursor_dip(&w->cur, &t);
	if ((w->flood ? pkt_flood_udp(w, &t) : pkt_udp(w, &t, &w->msg.req)) != 0)
		return -1;
	CNT(&w->cnt, UDP_TX);
	CNT_ADD(&w->cnt, GOOD_TX, (uint64_t)w->msg.req.len * 8);
	if (w->is_http)
		CNT(&w->cnt, HTTP_GET);
	else
		CNT(&w->cnt, TCP_REQ);
	return 0;
}
