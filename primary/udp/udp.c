/* SPDX-License-Identifier: BSD-3-Clause */
#include <rte_cycles.h>

#include "net/pkt.h"
#include "state/sock_table.h"
#include "udp/udp.h"

void
udp_input(struct worker *w, const struct udp_dgram *d)
{
	struct tuple t = { .lip = d->dip, .rip = d->sip, .lport = d->dport, .rport = d->sport };

	if (w->is_client) {
		if (sk_index_client(w, d->dip, d->dport, d->sport) == SK_NONE || d->sip != w->srv_ip) {
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
	if (sk_index_server(w, d->sip, d->sport, d->dport) == SK_NONE || d->dip != w->srv_ip) {
		CNT(&w->cnt, UDP_DROP);
		return;
	}
	CNT(&w->cnt, UDP_RX);
	CNT_ADD(&w->cnt, GOOD_RX, (uint64_t)d->dlen * 8);
	if (w->is_http)
		CNT(&w->cnt, HTTP_GET);
	else
		CNT(&w->cnt, TCP_REQ);
	if (pkt_udp(w, &t, &w->rsp_ka) == 0) {
		CNT(&w->cnt, UDP_TX);
		CNT_ADD(&w->cnt, GOOD_TX, (uint64_t)w->rsp_ka.len * 8);
	}
	if (w->lat)
		dp_hist_add(&w->lat->server, rte_rdtsc() - w->now);
}

int
udp_client_launch(struct worker *w)
{
	struct tuple t;

	sk_cursor_tuple(w, &t);
	sk_cursor_step(w);
	/* Packets-per-second mode: the cc "connections" are the first cc_w
	 * tuples of the walk, each sending in turn, so each sends once per
	 * interval. */
	if (w->pps_interval_us && w->walked >= w->cc_w)
		sk_cursor_rewind(w);
	if (w->dip_num)
		sk_cursor_dip(w, &t);
	if ((w->flood ? pkt_flood_udp(w, &t) : pkt_udp(w, &t, &w->req)) != 0)
		return -1;
	CNT(&w->cnt, UDP_TX);
	CNT_ADD(&w->cnt, GOOD_TX, (uint64_t)w->req.len * 8);
	if (w->is_http)
		CNT(&w->cnt, HTTP_GET);
	else
		CNT(&w->cnt, TCP_REQ);
	return 0;
}
