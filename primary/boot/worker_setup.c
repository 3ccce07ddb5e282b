/* SPDX-License-Identifier: BSD-3-Clause
 * Preparing a worker before launch: its addresses, its messages, its
 * socket table and timer lists. Runs on the main lcore.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_malloc.h>

#include "http/http.h"
#include "meminfo.h"
#include "http/messages.h"
#include "boot/worker_msgs.h"
#include "net/pkt.h"
#include "net/rx.h"
#include "net/vxlan.h"
#include "state/mix.h"
#include "state/sock_table.h"
#include "tcp/tcp.h"
#include "tcp/tcp_dack.h"
#include "tcp/tcp_ooo.h"
#include "tcp/tcp_out.h"
#include "tcp/tcp_send.h"
#include "boot/worker_setup.h"

/* The messages were checked with the configuration (config_rules.c);
 * composing them again here cannot fail unless the rules changed. */
static int
build_messages(struct worker *wk, uint32_t port_idx, char *err, size_t errlen)
{
	struct dp_config own;
	const struct dp_config *cfg = wk->net.cfg;
	struct msg_layout l;
	uint8_t *buf;
	struct dp_ip srv = dp_range_addr(&wk->net.cfg->servers[port_idx], wk->net.txq.queue);

	/* dperf 1.9: a server with one payload size per core answers from
	 * this core with its own size (the order of the cpu line). */
	if (cfg->n_payload_sizes != 0) {
		own = *cfg;
		own.payload_size = cfg->payload_sizes[wk->net.id];
		cfg = &own;
	}

	/* Messages of one segment in hugepage memory (copied into every
	 * packet: fewer TLB misses); responses of up to DP_RSP_MAX in
	 * ordinary pages. */
	msg_layout(wk->net.cfg, &l);
	/* (the kinds' requests, one segment each, go where the rest goes) */
	if (l.len - l.kinds_len <= 4 * DP_MSG_MAX) {
		buf = rte_zmalloc("dp_msg", l.len, 64);
	} else {
		buf = mmap(NULL, l.len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (buf == MAP_FAILED)
			buf = NULL;
		else
			wk->net.msg.map_len = l.len;
	}
	if (buf == NULL) {
		snprintf(err, errlen, "out of memory for messages of %zu bytes", l.len);
		return -1;
	}
	wk->net.msg.req.data = buf; /* freed by worker_teardown */
	return worker_msgs(wk, cfg, &srv, buf, err, errlen);
}

static void
set_addresses(struct worker *wk, uint32_t port_idx)
{
	const struct dp_config *cfg = wk->net.cfg;
	const struct dp_range *srv = &cfg->servers[port_idx];

	wk->net.skt.srv_ip = rte_cpu_to_be_32(dp_ip_low32(&srv->start) + wk->net.txq.queue);
	wk->net.skt.sa[0] = wk->net.skt.srv_ip;
	wk->net.skt.n_sa = 1;
	/* Server pools (issue 37, one port): a client kind's own, address q
	 * of it for worker q; a server answers address q of each of its
	 * server lines (config_check.c: v_server_pools, config_mix.c). */
	for (uint32_t k = 0; wk->net.is_client && k < cfg->n_kinds; k++) {
		const struct dp_kind *kd = &cfg->kinds[k];

		wk->net.skt.kind_srv[k] = kd->has_srv ? rte_cpu_to_be_32(dp_ip_low32(&kd->srv.start)
									 + wk->net.txq.queue)
						      : wk->net.skt.srv_ip;
		wk->net.skt.kind_pools |= kd->has_srv;
	}
	for (uint32_t j = 1; !wk->net.is_client && cfg->n_ports == 1 && j < cfg->n_servers; j++)
		wk->net.skt.sa[wk->net.skt.n_sa++] =
			rte_cpu_to_be_32(dp_ip_low32(&cfg->servers[j].start) + wk->net.txq.queue);
	wk->net.v6 = srv->start.family == 6;
	if (wk->net.v6) { /* tuples carry the last 4 bytes; prefixes are per side */
		memcpy(wk->net.is_client ? wk->net.io.lpfx : wk->net.io.rpfx, wk->net.io.np->cli_pfx, 12);
		memcpy(wk->net.is_client ? wk->net.io.rpfx : wk->net.io.lpfx, wk->net.io.np->srv_pfx, 12);
	}
	wk->net.skt.lport_min = cfg->lport_min;
	wk->net.skt.n_lport = cfg->lport_max - cfg->lport_min + 1;
	wk->net.skt.srvport_min = cfg->listen_port;
	wk->net.skt.n_srvport = cfg->listen_num;
	if (wk->net.is_client) {
		wk->net.skt.cip_h = dp_ip_low32(&cfg->clients[port_idx].start);
		wk->net.skt.n_cip = cfg->clients[port_idx].num;
		return;
	}
	for (uint32_t k = 0; k < cfg->n_clients; k++) {
		wk->net.skt.cr[k].start_h = dp_ip_low32(&cfg->clients[k].start);
		wk->net.skt.cr[k].num = cfg->clients[k].num;
		wk->net.skt.cr[k].base = wk->net.skt.n_cip_total;
		wk->net.skt.n_cip_total += cfg->clients[k].num;
	}
	wk->net.skt.n_cr = cfg->n_clients;
}

/* The sockets a test will touch, in launch order: a client sweeps its
 * table from index 0 (a cc client fills only its first cc sockets until
 * connections are replaced); a server's table follows the client's local
 * port, its outer dimension. Returns [first, first + n). */
static void
swept_range(const struct worker *wk, uint64_t *first, uint64_t *n)
{
	const struct dp_config *cfg = wk->net.cfg;
	uint64_t per_port = (uint64_t)wk->net.skt.n_cip_total * wk->net.skt.n_sa * wk->net.skt.n_srvport;

	if (wk->net.is_client) {
		*first = 0; /* client_hop spreads even cc connections over the table */
		*n = cfg->cc && !cfg->client_hop ? RTE_MIN(wk->net.skt.n_sk, (cfg->cc + cfg->n_cpus - 1) / cfg->n_cpus) : wk->net.skt.n_sk;
		return;
	}
	*first = cfg->lport_min * per_port;
	*n = (uint64_t)(cfg->lport_max - cfg->lport_min + 1) * per_port;
}

/*
 * Touch, before traffic, the pages the test will sweep, up to an eighth
 * of the memory available. A first touch during the test is a page fault
 * on the worker: 2-9 us a page on this virtual machine, 10% of a client
 * core at 800k connections per second (perf: clear_page_erms under
 * tcp_client_launch). Beyond the budget pages are still touched on use.
 */
static void
prefault_sockets(struct worker *wk)
{
	uint64_t first, n, budget = (uint64_t)mem_available_mb() << 20 >> 3;
	uint8_t *from, *to;

	swept_range(wk, &first, &n);
	n = RTE_MIN(n, budget / sizeof(struct sock));
	if (n == 0)
		return;
	from = (uint8_t *)RTE_PTR_ALIGN_FLOOR(&wk->net.skt.sk[first], 4096);
	to = (uint8_t *)&wk->net.skt.sk[first + n];
	/* If it fails, pages are touched on use, as beyond the budget. */
	(void)madvise(from, (size_t)(to - from), MADV_POPULATE_WRITE);
}

/* The delayed-ACK ring (tcp_dack.h), faulted in now: not by the worker. */
static int
alloc_dack(struct worker *wk, char *err, size_t errlen)
{
	size_t bytes = dack_ring_bytes(DACK_RING_SIZE);
	void *p;

	if (wk->net.cfg->delayed_ack_us == 0)
		return 0; /* wk->tcp.dack NULL: every ACK at once */
	p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		snprintf(err, errlen, "cannot map %zu KB for delayed ACKs", bytes >> 10);
		return -1;
	}
	(void)madvise(p, bytes, MADV_POPULATE_WRITE);
	wk->tcp.dack = p;
	wk->tcp.dack->mask = DACK_RING_SIZE - 1;
	return 0;
}

size_t
worker_snd_bytes(const struct worker *wk)
{
	int big = wk->net.is_client ? wk->net.msg.req.seg_sum != NULL
			       : wk->net.msg.rsp_ka.seg_sum != NULL || wk->net.msg.rsp_close.seg_sum != NULL
				 || wk->net.msg.obj_big;

	if (wk->net.is_udp || (!big && !DP_PROTO_IS_TLS(wk->net.cfg->protocol)))
		return 0; /* TLS: every flight and answer is a connection's own records */
	return wk->net.skt.n_sk * sizeof(struct sk_snd);
}

/* The sender's state beside the sockets, in untouched zero pages as
 * they are. */
static int
alloc_snd(struct worker *wk, char *err, size_t errlen)
{
	size_t bytes = worker_snd_bytes(wk);
	void *p;

	if (bytes == 0)
		return 0;
	p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
		 -1, 0);
	if (p == MAP_FAILED) {
		snprintf(err, errlen, "cannot map %zu MB for the sender state of %lu sockets",
			 bytes >> 20, (unsigned long)wk->net.skt.n_sk);
		return -1;
	}
	madvise(p, bytes, MADV_NOHUGEPAGE);
	wk->tcp.snd = p;
	return 0;
}

/* The out-of-order queue gives a segment back to the packet layer. */
static void
ooo_unhold(void *ctx, void *seg)
{
	pkt_unhold(ctx, seg);
}

/* The out-of-order queue (tcp_ooo.h): every TCP worker may receive
 * messages over several segments (a client cannot know its answers'
 * sizes), so every one has it; 24 bytes an entry. */
static int
alloc_ooo(struct worker *wk, char *err, size_t errlen)
{
	struct ooo_pool *p = calloc(1, sizeof(*p));

	if (p == NULL || ooo_init(p, DP_OOO_SEGS, DP_OOO_PER_CONN, ooo_unhold, &wk->net) != 0) {
		free(p);
		snprintf(err, errlen, "cannot allocate the out-of-order queue (%u segments)", DP_OOO_SEGS);
		return -1;
	}
	wk->tcp.ooo = p;
	return 0;
}

void
worker_free_ooo(struct worker *wk)
{
	if (wk->tcp.ooo == NULL)
		return;
	ooo_drain(wk->tcp.ooo);
	ooo_fini(wk->tcp.ooo);
	free(wk->tcp.ooo);
	wk->tcp.ooo = NULL;
}

static int
alloc_sockets(struct worker *wk, char *err, size_t errlen)
{
	size_t bytes;
	void *p;

	wk->net.skt.n_sk = sk_table_init(&wk->net.skt);
	if (wk->net.is_udp)
		return 0; /* UDP keeps no per-flow state (nor calls sk_tuple) */
	if (wk->net.skt.n_sk >= UINT32_MAX) {
		snprintf(err, errlen, "%lu sockets per worker exceed the table's 32-bit index",
			 (unsigned long)wk->net.skt.n_sk);
		return -1;
	}
	bytes = wk->net.skt.n_sk * sizeof(struct sock);
	/* Zero pages cost nothing until touched: only live connections use RAM. */
	p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
		 -1, 0);
	if (p == MAP_FAILED) {
		snprintf(err, errlen, "cannot map %zu MB for %lu sockets", bytes >> 20,
			 (unsigned long)wk->net.skt.n_sk);
		return -1;
	}
	madvise(p, bytes, MADV_NOHUGEPAGE);
	wk->net.skt.sk = p;
	prefault_sockets(wk);
	if (alloc_snd(wk, err, errlen) != 0 || alloc_ooo(wk, err, errlen) != 0)
		return -1;
	return alloc_dack(wk, err, errlen);
}

_Static_assert(DP_MAX_KINDS <= MIX_MAX_KINDS, "the pick takes every kind");
_Static_assert(DP_MAX_KINDS <= 256, "a socket's kind is a byte");

/* A client's kinds (config.h's kind lines): each one's requests per
 * connection, and with two kinds or more the pick, seeded by kind_seed
 * and the worker's number (state/mix.h). Without kind lines, kind 0 is
 * keepalive_request_num and there is no pick. */
static void
worker_kinds(struct worker *wk, const struct dp_config *cfg, uint32_t id)
{
	uint32_t w[DP_MAX_KINDS];
	struct mix_table t = { 0 };

	for (uint32_t k = 0; k < DP_MAX_KINDS; k++) {
		const struct dp_kind *kd = &cfg->kinds[k];

		wk->tcp.ka_num[k] = k < cfg->n_kinds && kd->has_keepalive ? kd->keepalive_num
									 : cfg->keepalive_request_num;
		w[k] = kd->weight;
	}
	memset(&wk->mix, 0, sizeof(wk->mix));
	/* the parse refused all weights 0, so the table builds */
	if (wk->net.is_client && cfg->n_kinds > 1 && mix_table_build(&t, w, cfg->n_kinds) == 0)
		mix_init(&wk->mix, cfg->kind_seed, id, &t);
	wk->tcp.mix = wk->mix.t.n > 1 ? &wk->mix : NULL;
	memset(&wk->kcnt, 0, sizeof(wk->kcnt));
	wk->tcp.kc = wk->tcp.mix ? &wk->kcnt : NULL;
	memset(&wk->ocnt, 0, sizeof(wk->ocnt));
}

void
worker_fields(struct worker *wk, const struct dp_config *cfg, uint32_t id, uint16_t queue, uint32_t port_idx,
	      uint64_t hz)
{
	uint64_t rt_ms = cfg->retransmit_timeout_us / 1000;
	uint64_t ka_ms = cfg->keepalive_request_interval_us / 1000;

	wk->net.cfg = cfg;
	wk->net.id = id;
	wk->net.txq.queue = queue;
	wk->net.is_client = cfg->mode == DP_MODE_CLIENT;
	wk->net.is_udp = cfg->protocol == DP_PROTO_UDP;
	worker_link(wk);
	wk->launch.pps_interval_us =
		wk->net.is_client && wk->net.is_udp && cfg->cc ? cfg->keepalive_request_interval_us : 0;
	if (cfg->change_dip_num) { /* worker i of n takes entries i, i + n, ... (num >= n) */
		wk->net.cur.dip_h = dp_ip_low32(&cfg->change_dip);
		wk->net.cur.dip_step = cfg->change_dip_step;
		wk->net.cur.dip_num = cfg->change_dip_num;
		wk->net.cur.dip_first = wk->net.cur.dip_next = id;
		wk->net.cur.dip_every = cfg->n_cpus;
	}
	wk->net.keepalive = (uint8_t)(cfg->keepalive || (wk->net.is_client && cfg->cc));
	wk->net.fast_close = cfg->fast_close;
	wk->net.flood = cfg->flood;
	wk->net.cur.client_hop = cfg->client_hop;
	wk->net.fring.cap = DP_FLOOD_RING;
	wk->net.txq.burst = (uint16_t)RTE_MIN(cfg->tx_burst, (uint32_t)DP_TX_CAP);
	wk->net.mss = (uint16_t)cfg->mss;
	/* what a connection can take: its share of the out-of-order queue */
	tcp_rcv_window(&wk->net, DP_OOO_PER_CONN * cfg->mss);
	/* A UDP run's TCP segments are all tcpDrop (its seg_in, net/rx.c),
	 * counted before this knob could drop one as testDrop. */
	wk->net.rx_drop.every = wk->net.is_udp ? 0 : cfg->test_rx_drop;
	/* the role's timer step, bound once (a TLS part binds its own over it) */
	wk->tcp.timer = wk->net.is_client ? tcp_client_timer : tcp_server_timer;
	wk->tcp.snd_drop.every = cfg->test_tx_drop;
	/* send_window: an upper bound in segments when set (dperf's default
	 * of 4 is not ours: the congestion and peer windows pace, tcp_send.h) */
	wk->tcp.send_wnd = cfg->send_window ? cfg->send_window * cfg->mss : UINT32_MAX;
	wk->net.io.tos = cfg->tos;
	wk->launch.num = cfg->launch_num;
	worker_kinds(wk, cfg, id);
	wk->launch.slow_start_ms = cfg->slow_start * 1000;
	wk->hz = hz;
	wk->net.txq.hold = wk->hz / 1000000 * cfg->tx_hold_us;
	wk->net.tsc_per_ms = wk->hz / 1000;
	wk->tsc_per_t = wk->net.tsc_per_ms / TL_PER_MS;
	/* Timer ticks of 1/64 ms: a keepalive interval of 1 ms sends each
	 * connection's request 1 ms after its response, spread as the
	 * responses came, not all at the next millisecond (a burst that
	 * queued requests behind each other; docs/architecture.md). */
	wk->tcp.tl[TL_RT].timeout = rt_ms ? (uint32_t)rt_ms * TL_PER_MS : 1;
	wk->tcp.tl[TL_KA].timeout = tl_ticks(cfg->keepalive_request_interval_us);
	wk->tcp.tl[TL_IDLE].timeout = (uint32_t)(2 * rt_ms + ka_ms + 1000) * TL_PER_MS;
	wk->tcp.dack_t = tl_ticks(cfg->delayed_ack_us);
	wk->tcp.disable_ack = cfg->disable_ack;
	wk->next_arp_ms = 0;
	wk->arp_gap_ms = 0;
	wk->gen_seen = UINT64_MAX; /* apply the initial targets on the first loop */
	set_addresses(wk, port_idx); /* IPv6 prefixes: checked by config_rules.c */
}

int
worker_setup(struct worker *wk, const struct worker_params *wp, char *err, size_t errlen)
{
	wk->ctl = &wp->shm->ctl;
	wk->mixp = wp->mixp;
	wk->st = &wp->shm->workers[wp->id];
	wk->kst = &wp->shm->wkinds[wp->id];
	wk->ost = &wp->shm->wobjects[wp->id];
	wk->net.lat = &wp->shm->lat[wp->id];
	wk->net.io.np = wp->np;
	wk->net.io.mp = wp->mp;
	wk->net.txq.port_id = wp->np->port_id;
	worker_fields(wk, wp->cfg, wp->id, wp->queue, wp->port_idx, rte_get_tsc_hz());
	wk->net.klat = wk->tcp.mix != NULL ? &wp->shm->klat[wp->id] : NULL; /* kinds: latency per kind */
	if (build_messages(wk, wp->port_idx, err, errlen) != 0 ||
	    vxlan_setup(&wk->net, wp->cfg, wp->port_idx, err, errlen) != 0)
		return -1;
	if (wk->net.io.vx != NULL)
		wk->net.fring.cap = 0; /* pkt_flood.c: a sent mbuf starts with outer headers */
	rx_bind(&wk->net); /* the role, the protocol and the tunnel, for every packet */
	return alloc_sockets(wk, err, errlen);
}

void
worker_teardown(struct worker *wk)
{
	worker_free_ooo(wk); /* its mbufs back to the port's pool */
	if (wk->tcp.snd != NULL)
		munmap(wk->tcp.snd, worker_snd_bytes(wk));
	if (wk->net.skt.sk != NULL)
		munmap(wk->net.skt.sk, wk->net.skt.n_sk * sizeof(struct sock));
	if (wk->tcp.dack)
		munmap(wk->tcp.dack, dack_ring_bytes(DACK_RING_SIZE));
	wk->net.skt.sk = NULL;
	wk->tcp.snd = NULL;
	wk->tcp.dack = NULL;
	vxlan_teardown(&wk->net);
	rx_bind(&wk->net); /* the frame handler follows the tunnel, gone */
	if (wk->net.msg.map_len)
		munmap((void *)(uintptr_t)wk->net.msg.req.data, wk->net.msg.map_len);
	else
		rte_free((void *)(uintptr_t)wk->net.msg.req.data);
}
