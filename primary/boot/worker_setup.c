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
#include "net/vxlan.h"
#include "state/sock_table.h"
#include "tcp/tcp_dack.h"
#include "tcp/tcp_ooo.h"
#include "tcp/tcp_out.h"
#include "tcp/tcp_send.h"
#include "boot/worker_setup.h"

/* The messages were checked with the configuration (config_rules.c);
 * composing them again here cannot fail unless the rules changed. */
static int
build_messages(struct worker *w, uint32_t port_idx, char *err, size_t errlen)
{
	struct dp_config own;
	const struct dp_config *cfg = w->net.cfg;
	struct msg_layout l;
	uint8_t *buf;
	struct dp_ip srv = dp_range_addr(&w->net.cfg->servers[port_idx], w->net.txq.queue);

	/* dperf 1.9: a server with one payload size per core answers from
	 * this core with its own size (the order of the cpu line). */
	if (cfg->n_payload_sizes != 0) {
		own = *cfg;
		own.payload_size = cfg->payload_sizes[w->net.id];
		cfg = &own;
	}

	/* Messages of one segment in hugepage memory (copied into every
	 * packet: fewer TLB misses); responses of up to DP_RSP_MAX in
	 * ordinary pages. */
	msg_layout(w->net.cfg, &l);
	if (l.len <= 4 * DP_MSG_MAX) {
		buf = rte_zmalloc("dp_msg", l.len, 64);
	} else {
		buf = mmap(NULL, l.len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (buf == MAP_FAILED)
			buf = NULL;
		else
			w->net.msg.map_len = l.len;
	}
	if (buf == NULL) {
		snprintf(err, errlen, "out of memory for messages of %zu bytes", l.len);
		return -1;
	}
	w->net.msg.req.data = buf; /* freed by worker_teardown */
	return worker_msgs(w, cfg, &srv, buf, err, errlen);
}

static void
set_addresses(struct worker *w, uint32_t port_idx)
{
	const struct dp_config *cfg = w->net.cfg;
	const struct dp_range *srv = &cfg->servers[port_idx];

	w->net.skt.srv_ip = rte_cpu_to_be_32(dp_ip_low32(&srv->start) + w->net.txq.queue);
	w->net.v6 = srv->start.family == 6;
	if (w->net.v6) { /* tuples carry the last 4 bytes; prefixes are per side */
		memcpy(w->net.is_client ? w->net.io.lpfx : w->net.io.rpfx, w->net.io.np->cli_pfx, 12);
		memcpy(w->net.is_client ? w->net.io.rpfx : w->net.io.lpfx, w->net.io.np->srv_pfx, 12);
	}
	w->net.skt.lport_min = cfg->lport_min;
	w->net.skt.n_lport = cfg->lport_max - cfg->lport_min + 1;
	w->net.skt.srvport_min = cfg->listen_port;
	w->net.skt.n_srvport = cfg->listen_num;
	if (w->net.is_client) {
		w->net.skt.cip_h = dp_ip_low32(&cfg->clients[port_idx].start);
		w->net.skt.n_cip = cfg->clients[port_idx].num;
		return;
	}
	for (uint32_t k = 0; k < cfg->n_clients; k++) {
		w->net.skt.cr[k].start_h = dp_ip_low32(&cfg->clients[k].start);
		w->net.skt.cr[k].num = cfg->clients[k].num;
		w->net.skt.cr[k].base = w->net.skt.n_cip_total;
		w->net.skt.n_cip_total += cfg->clients[k].num;
	}
	w->net.skt.n_cr = cfg->n_clients;
}

/* The sockets a test will touch, in launch order: a client sweeps its
 * table from index 0 (a cc client fills only its first cc sockets until
 * connections are replaced); a server's table follows the client's local
 * port, its outer dimension. Returns [first, first + n). */
static void
swept_range(const struct worker *w, uint64_t *first, uint64_t *n)
{
	const struct dp_config *cfg = w->net.cfg;
	uint64_t per_port = (uint64_t)w->net.skt.n_cip_total * w->net.skt.n_srvport;

	if (w->net.is_client) {
		*first = 0; /* client_hop spreads even cc connections over the table */
		*n = cfg->cc && !cfg->client_hop ? RTE_MIN(w->net.skt.n_sk, (cfg->cc + cfg->n_cpus - 1) / cfg->n_cpus) : w->net.skt.n_sk;
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
prefault_sockets(struct worker *w)
{
	uint64_t first, n, budget = (uint64_t)mem_available_mb() << 20 >> 3;
	uint8_t *from, *to;

	swept_range(w, &first, &n);
	n = RTE_MIN(n, budget / sizeof(struct sock));
	if (n == 0)
		return;
	from = (uint8_t *)RTE_PTR_ALIGN_FLOOR(&w->net.skt.sk[first], 4096);
	to = (uint8_t *)&w->net.skt.sk[first + n];
	/* If it fails, pages are touched on use, as beyond the budget. */
	(void)madvise(from, (size_t)(to - from), MADV_POPULATE_WRITE);
}

/* The delayed-ACK ring (tcp_dack.h), faulted in now: not by the worker. */
static int
alloc_dack(struct worker *w, char *err, size_t errlen)
{
	size_t bytes = dack_ring_bytes(DACK_RING_SIZE);
	void *p;

	if (w->net.cfg->delayed_ack_us == 0)
		return 0; /* w->tcp.dack NULL: every ACK at once */
	p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		snprintf(err, errlen, "cannot map %zu KB for delayed ACKs", bytes >> 10);
		return -1;
	}
	(void)madvise(p, bytes, MADV_POPULATE_WRITE);
	w->tcp.dack = p;
	w->tcp.dack->mask = DACK_RING_SIZE - 1;
	return 0;
}

size_t
worker_snd_bytes(const struct worker *w)
{
	int big = w->net.is_client ? w->net.msg.req.seg_sum != NULL
			       : w->net.msg.rsp_ka.seg_sum != NULL || w->net.msg.rsp_close.seg_sum != NULL;

	if (w->net.is_udp || (!big && !DP_PROTO_IS_TLS(w->net.cfg->protocol)))
		return 0; /* TLS: every flight and answer is a connection's own records */
	return w->net.skt.n_sk * sizeof(struct sk_snd);
}

/* The sender's state beside the sockets, in untouched zero pages as
 * they are. */
static int
alloc_snd(struct worker *w, char *err, size_t errlen)
{
	size_t bytes = worker_snd_bytes(w);
	void *p;

	if (bytes == 0)
		return 0;
	p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
		 -1, 0);
	if (p == MAP_FAILED) {
		snprintf(err, errlen, "cannot map %zu MB for the sender state of %lu sockets",
			 bytes >> 20, (unsigned long)w->net.skt.n_sk);
		return -1;
	}
	madvise(p, bytes, MADV_NOHUGEPAGE);
	w->tcp.snd = p;
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
alloc_ooo(struct worker *w, char *err, size_t errlen)
{
	struct ooo_pool *p = calloc(1, sizeof(*p));

	if (p == NULL || ooo_init(p, DP_OOO_SEGS, DP_OOO_PER_CONN, ooo_unhold, &w->net) != 0) {
		free(p);
		snprintf(err, errlen, "cannot allocate the out-of-order queue (%u segments)", DP_OOO_SEGS);
		return -1;
	}
	w->tcp.ooo = p;
	return 0;
}

void
worker_free_ooo(struct worker *w)
{
	if (w->tcp.ooo == NULL)
		return;
	ooo_drain(w->tcp.ooo);
	ooo_fini(w->tcp.ooo);
	free(w->tcp.ooo);
	w->tcp.ooo = NULL;
}

static int
alloc_sockets(struct worker *w, char *err, size_t errlen)
{
	size_t bytes;
	void *p;

	w->net.skt.n_sk = sk_table_init(&w->net.skt);
	if (w->net.is_udp)
		return 0; /* UDP keeps no per-flow state (nor calls sk_tuple) */
	if (w->net.skt.n_sk >= UINT32_MAX) {
		snprintf(err, errlen, "%lu sockets per worker exceed the table's 32-bit index",
			 (unsigned long)w->net.skt.n_sk);
		return -1;
	}
	bytes = w->net.skt.n_sk * sizeof(struct sock);
	/* Zero pages cost nothing until touched: only live connections use RAM. */
	p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
		 -1, 0);
	if (p == MAP_FAILED) {
		snprintf(err, errlen, "cannot map %zu MB for %lu sockets", bytes >> 20,
			 (unsigned long)w->net.skt.n_sk);
		return -1;
	}
	madvise(p, bytes, MADV_NOHUGEPAGE);
	w->net.skt.sk = p;
	prefault_sockets(w);
	if (alloc_snd(w, err, errlen) != 0 || alloc_ooo(w, err, errlen) != 0)
		return -1;
	return alloc_dack(w, err, errlen);
}

void
worker_fields(struct worker *w, const struct dp_config *cfg, uint32_t id, uint16_t queue, uint32_t port_idx,
	      uint64_t hz)
{
	uint64_t rt_ms = cfg->retransmit_timeout_us / 1000;
	uint64_t ka_ms = cfg->keepalive_request_interval_us / 1000;

	w->net.cfg = cfg;
	w->net.id = id;
	w->net.txq.queue = queue;
	w->net.is_client = cfg->mode == DP_MODE_CLIENT;
	w->net.is_udp = cfg->protocol == DP_PROTO_UDP;
	worker_link(w);
	w->launch.pps_interval_us =
		w->net.is_client && w->net.is_udp && cfg->cc ? cfg->keepalive_request_interval_us : 0;
	if (cfg->change_dip_num) { /* worker i of n takes entries i, i + n, ... (num >= n) */
		w->net.cur.dip_h = dp_ip_low32(&cfg->change_dip);
		w->net.cur.dip_step = cfg->change_dip_step;
		w->net.cur.dip_num = cfg->change_dip_num;
		w->net.cur.dip_first = w->net.cur.dip_next = id;
		w->net.cur.dip_every = cfg->n_cpus;
	}
	w->net.keepalive = (uint8_t)(cfg->keepalive || (w->net.is_client && cfg->cc));
	w->net.fast_close = cfg->fast_close;
	w->net.flood = cfg->flood;
	w->net.cur.client_hop = cfg->client_hop;
	w->net.fring.cap = DP_FLOOD_RING;
	w->net.txq.burst = (uint16_t)RTE_MIN(cfg->tx_burst, (uint32_t)DP_TX_CAP);
	w->net.mss = (uint16_t)cfg->mss;
	/* what a connection can take: its share of the out-of-order queue */
	tcp_rcv_window(&w->net, DP_OOO_PER_CONN * cfg->mss);
	w->net.rx_drop.every = cfg->test_rx_drop;
	w->tcp.snd_drop.every = cfg->test_tx_drop;
	/* send_window: an upper bound in segments when set (dperf's default
	 * of 4 is not ours: the congestion and peer windows pace, tcp_send.h) */
	w->tcp.send_wnd = cfg->send_window ? cfg->send_window * cfg->mss : UINT32_MAX;
	w->net.io.tos = cfg->tos;
	w->launch.num = cfg->launch_num;
	w->tcp.ka_num = cfg->keepalive_request_num;
	w->launch.slow_start_ms = cfg->slow_start * 1000;
	w->hz = hz;
	w->net.txq.hold = w->hz / 1000000 * cfg->tx_hold_us;
	w->net.tsc_per_ms = w->hz / 1000;
	w->tsc_per_t = w->net.tsc_per_ms / TL_PER_MS;
	/* Timer ticks of 1/64 ms: a keepalive interval of 1 ms sends each
	 * connection's request 1 ms after its response, spread as the
	 * responses came, not all at the next millisecond (a burst that
	 * queued requests behind each other; docs/architecture.md). */
	w->tcp.tl[TL_RT].timeout = rt_ms ? (uint32_t)rt_ms * TL_PER_MS : 1;
	w->tcp.tl[TL_KA].timeout = tl_ticks(cfg->keepalive_request_interval_us);
	w->tcp.tl[TL_IDLE].timeout = (uint32_t)(2 * rt_ms + ka_ms + 1000) * TL_PER_MS;
	w->tcp.dack_t = tl_ticks(cfg->delayed_ack_us);
	w->tcp.disable_ack = cfg->disable_ack;
	w->next_arp_ms = 0;
	w->gen_seen = UINT64_MAX; /* apply the initial targets on the first loop */
	set_addresses(w, port_idx); /* IPv6 prefixes: checked by config_rules.c */
}

int
worker_setup(struct worker *w, const struct worker_params *wp, char *err, size_t errlen)
{
	w->ctl = &wp->shm->ctl;
	w->st = &wp->shm->workers[wp->id];
	w->net.lat = &wp->shm->lat[wp->id];
	w->net.io.np = wp->np;
	w->net.io.mp = wp->mp;
	w->net.txq.port_id = wp->np->port_id;
	worker_fields(w, wp->cfg, wp->id, wp->queue, wp->port_idx, rte_get_tsc_hz());
	if (build_messages(w, wp->port_idx, err, errlen) != 0 ||
	    vxlan_setup(&w->net, wp->cfg, wp->port_idx, err, errlen) != 0)
		return -1;
	if (w->net.io.vx != NULL)
		w->net.fring.cap = 0; /* pkt_flood.c: a sent mbuf starts with outer headers */
	return alloc_sockets(w, err, errlen);
}

void
worker_teardown(struct worker *w)
{
	worker_free_ooo(w); /* its mbufs back to the port's pool */
	if (w->tcp.snd != NULL)
		munmap(w->tcp.snd, worker_snd_bytes(w));
	if (w->net.skt.sk != NULL)
		munmap(w->net.skt.sk, w->net.skt.n_sk * sizeof(struct sock));
	if (w->tcp.dack)
		munmap(w->tcp.dack, dack_ring_bytes(DACK_RING_SIZE));
	w->net.skt.sk = NULL;
	w->tcp.snd = NULL;
	w->tcp.dack = NULL;
	vxlan_teardown(&w->net);
	if (w->net.msg.map_len)
		munmap((void *)(uintptr_t)w->net.msg.req.data, w->net.msg.map_len);
	else
		rte_free((void *)(uintptr_t)w->net.msg.req.data);
}
