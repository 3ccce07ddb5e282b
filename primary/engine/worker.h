/* SPDX-License-Identifier: BSD-3-Clause
 * A worker: one lcore, one RX/TX queue on one port, its own sockets,
 * timers, messages and counters. Nothing here is shared with another
 * worker except the read-only port description and the control block.
 *
 * It is the sum of its rooms' parts, each defined in its own room's
 * header: what the packet rooms see (net/netw.h: the clock, the TX queue,
 * counters, socket table, messages, frame building, the flood ring), TCP's
 * timers, delayed ACKs and sender (tcp/tcp.h), the fault state
 * (dev/dev_fault.h), and the loop's own below: launch pacing and the
 * clock's constants. A room's functions take the part they need.
 */
#ifndef DPERF_WORKER_H
#define DPERF_WORKER_H

#include <stdint.h>

#include <rte_branch_prediction.h>

#include "dev/dev_fault.h"
#include "net/netw.h"
#include "shm.h"
#include "state/mix.h"
#include "tcp/tcp.h"
#include "tls/tls_tcp.h"

/* Launch pacing (client). */
struct launch {
	uint64_t next;       /* TSC of the next launch slot */
	uint64_t interval;   /* TSC between launches, 0 = none */
	uint64_t cps_w;      /* this worker's share of the target */
	uint64_t cc_w;
	uint64_t pps_interval_us; /* UDP client with cc: dperf's packets-per-second mode, else 0 */
	uint32_t num;        /* launches at most per loop iteration */
	uint32_t slow_start_ms;
};

struct worker {
	struct netw net;     /* what net/, tcp/ and udp/ work on */
	struct tcp_part tcp; /* net.tcp points here */
	struct tls_part tls; /* net.tls points here with TLS (tls_part_init) */
	struct launch launch;
	struct dp_worker_stats *st; /* its memzone block: net.cnt is published there (state/cnt.h) */
	const struct dp_control *ctl;
	uint64_t gen_seen;   /* control generation last applied */
	uint64_t hz;
	uint64_t tsc_per_t;  /* TSC per timer tick (net.tsc_per_ms: per millisecond) */
	uint64_t start_tsc;
	uint32_t next_arp_ms;
	uint16_t arp_gap_ms;  /* the wait before the next gateway request (worker_tick) */
	uint8_t rx_backlog;  /* consecutive full RX bursts (saturates) */
	uint8_t paused;
	struct dev_fault fault;
	struct mix mix;      /* a client's pick of kinds (tcp.mix points here with 2 kinds or more) */
	const struct mix_pub *mixp; /* the tables set weight publishes (control.h; NULL: none) */
	struct kcnt kcnt;    /* and its counts per kind (tcp.kc) */
	struct dp_worker_kinds *kst; /* their memzone block (NULL: not published) */
	struct ocnt ocnt;    /* a server's counts per object (tcp.oc, with object lines) */
	struct dp_worker_objects *ost; /* their memzone block (NULL: not published) */
};

/* Point the parts at each other (after setup, or a copy of wk). */
static inline void
worker_link(struct worker *wk)
{
	wk->net.tcp = &wk->tcp;
	wk->net.txq.cnt = &wk->net.cnt;
	wk->net.skt.client = wk->net.is_client;
	wk->tcp.mix = wk->mix.t.n > 1 ? &wk->mix : NULL;
	wk->tcp.kc = wk->tcp.mix ? &wk->kcnt : NULL;
	wk->tcp.oc = wk->net.cfg != NULL && !wk->net.is_client && wk->net.cfg->n_objects ? &wk->ocnt : NULL;
}

/* The counters to the memzone (state/cnt.h), the kinds' and objects' with them. */
static inline void
worker_publish(struct worker *wk, uint64_t loop_tsc)
{
	cnt_publish(&wk->net.cnt, wk->st, loop_tsc);
	if (unlikely(wk->tcp.kc != NULL) && wk->kst != NULL)
		kcnt_publish(wk->tcp.kc, wk->kst, wk->mix.t.n);
	if (unlikely(wk->tcp.oc != NULL) && wk->ost != NULL)
		ocnt_publish(wk->tcp.oc, wk->ost, wk->net.cfg->n_objects);
}

/* The loop: runs until the control block says stop and the drain is over. */
int worker_main(void *arg);
/* Timers, ARP retries and rate updates, once per millisecond (now_ms);
 * the timers also run at every timer tick between (worker_loop). */
void worker_tick(struct worker *wk);

#endif
