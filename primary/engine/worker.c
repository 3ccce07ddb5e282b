/* SPDX-License-Identifier: BSD-3-Clause
 * The worker loop: receive a burst, run due timers, apply control changes,
 * launch new connections at the target rate, flush the TX batch.
 */
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>

#include "control/control.h"
#include "dev/dev_fault.h"
#include "engine/timers.h"
#include "net/pkt.h"
#include "net/neigh.h"
#include "net/rx.h"
#include "tcp/tcp.h"
#include "tcp/tlist.h"
#include "tls/tls_conn.h"
#include "udp/udp.h"
#include "engine/worker.h"
#include "state/txq.h"

volatile int dp_workers_quit;

#define DP_WORKER_NICE (-5)
#define DP_RX_BURST 32
/* With TLS a received packet can cost a millisecond of crypto (a
 * handshake flight: key shares, a signature or its check), so a burst
 * of 32 made one iteration of tens of ms: launch slots fell out of the
 * catch-up window (launchSkip with the client's core three quarters
 * busy), and timers, counters and the TX batch waited behind it. Four
 * keeps an iteration within a few ms. */
#define DP_RX_BURST_TLS 4
/* Full RX bursts in a row from which a client stops launching. */
#define DP_RX_BACKLOG 16

/* Launch slots missed while the client could not launch (its core taken
 * by the host, or held back in launch()) are made up as soon as it can,
 * when no older than this: a stall of a few milliseconds does not lower
 * the rate of that second. Older slots are skipped for good (launchSkip). */
#define DP_CATCHUP_DIV 100 /* 1/100 s: 10 ms */

/* This worker's share of a total: the remainder goes to the first ones. */
static uint64_t
share(const struct worker *wk, uint64_t total, uint32_t n_workers)
{
	return total / n_workers + (wk->net.id < total % n_workers ? 1 : 0);
}

static void
set_rate(struct worker *wk)
{
	struct netw *net = &wk->net;
	uint64_t rate = wk->launch.cps_w;
	uint32_t t = net->now_ms, start = net->cfg->wait * 1000;

	if (!net->is_client || wk->paused || net->stopping || !net->io.np->gw_ok ||
	    !net->io.np->link_up || t < start) {
		wk->launch.interval = 0;
		wk->st->cps_now = 0;
		return;
	}
	if (wk->launch.slow_start_ms && t - start < wk->launch.slow_start_ms)
		rate = rate * (t - start + 1) / wk->launch.slow_start_ms;
	if (rate == 0)
		rate = 1;
	wk->st->cps_now = rate;
	if (wk->launch.interval == 0) /* starting, or resuming: nothing owed */
		wk->launch.next = net->now;
	wk->launch.interval = wk->hz / rate;
	if (wk->launch.interval == 0)
		wk->launch.interval = 1;
}

static void
apply_control(struct worker *wk)
{
	struct control_view c;
	uint32_t nw = wk->net.io.np->n_workers * wk->net.cfg->n_ports;
	uint64_t gen = control_read(wk->ctl, &c);

	wk->launch.cps_w = share(wk, c.target_cps, nw);
	wk->launch.cc_w = c.target_cc ? share(wk, c.target_cc, nw) : 0;
	/* dperf's UDP packets-per-second mode: each of cc connections sends
	 * one datagram per keepalive interval, so the rate is cc / interval. */
	if (wk->launch.pps_interval_us)
		wk->launch.cps_w = RTE_MAX(1ULL, wk->launch.cc_w * 1000000 / wk->launch.pps_interval_us);
	/* set weight: the table published with this generation or before
	 * (state/mix.h), copied before the generation is acknowledged */
	if (wk->tcp.mix != NULL && wk->mixp != NULL)
		mix_take(wk->tcp.mix, wk->mixp);
	wk->paused = (uint8_t)c.paused;
	wk->net.stopping = (uint8_t)c.stop;
	wk->gen_seen = gen;
	set_rate(wk);
	wk->st->applied_tsc = rte_rdtsc();
	/* Release: after the counters of every earlier iteration (the
	 * control loop's stop relies on it: control_loop.c). */
	__atomic_store_n(&wk->st->applied_gen, gen, __ATOMIC_RELEASE);
}

/* tlsUs from the cycles spent in OpenSSL so far (a total, not a sum of
 * conversions: nothing is lost to rounding); once a millisecond. */
static void
tls_time_count(struct netw *net)
{
	if (net->tls != NULL)
		net->cnt.c[DP_C_TLS_US] = (uint64_t)((double)tls_ossl_cycles() * 1000.0 / (double)net->tsc_per_ms);
}

/* Once per millisecond. */
void
worker_tick(struct worker *wk)
{
	struct netw *net = &wk->net;
	tx_tick(&net->txq, net->now_ms);
	tls_time_count(net);
	/* DPDK's 802.3ad bond sends its LACP frames only from within a TX
	 * burst, and its peer gives up on a link after 3 s without them: an
	 * idle worker offers it an empty burst every millisecond. */
	if (unlikely(net->io.np->lacp) && net->txq.queue == 0 && tx_pending(&net->txq) == 0 &&
	    !net->txq.quiesced)
		(void)rte_eth_tx_burst(net->txq.port_id, net->txq.queue, NULL, 0);
	if (!net->io.np->gw_ok && net->txq.queue == 0 && tl_due(wk->next_arp_ms, net->now_ms)) {
		neigh_request_gw(net);
		/* At once, then 50, 100, 200, 400, 800 ms later and every
		 * second from there: a gateway whose address comes up just
		 * after the start (a tap's peer configured once the device
		 * exists) is found within tens of ms, not a second later, and
		 * one that never answers is asked once a second. */
		wk->arp_gap_ms = wk->arp_gap_ms ? (uint16_t)RTE_MIN(wk->arp_gap_ms * 2, 1000) : 50;
		wk->next_arp_ms = net->now_ms + wk->arp_gap_ms;
	} else if (net->io.np->gw_ok) {
		wk->arp_gap_ms = 0; /* a gateway lost later is asked quickly again */
	}
	/* The wait, the slow start, the gateway and the link change the rate
	 * without a control change: a link lost mid-test stops the launches
	 * here, within a millisecond. */
	if (net->is_client && (wk->launch.cps_w || wk->launch.interval))
		set_rate(wk);
	if (net->is_udp)
		return;
	wk->tcp.timers_behind = (uint8_t)timers_run(wk);
	/* At a stop, the client closes its idle connections, a tick's
	 * budget at a time (512k/s): closing millions at once would flood
	 * the peer with FINs. */
	if (net->stopping && net->is_client) {
		struct tlist *l = &wk->tcp.tl[TL_KA];
		for (int n = 0; n < DP_TIMER_BUDGET && l->head && !tx_congested(&net->txq); n++) {
			uint32_t idx = l->head - 1;
			tl_remove(net, &net->skt.sk[idx]);
			tcp_client_close_idle(net, idx);
		}
	}
}

/* At the cc target: the slot is skipped (not counted in launchSkip). */
static inline int
at_cc_target(struct worker *wk)
{
	if (!wk->launch.cc_w || wk->net.cnt.sk_cur < wk->launch.cc_w)
		return 0;
	wk->launch.next = wk->net.now + wk->launch.interval;
	return 1;
}

/* Returns the number launched. */
static uint32_t
launch(struct worker *wk)
{
	struct netw *net = &wk->net;
	uint64_t oldest = net->now - wk->hz / DP_CATCHUP_DIV;
	uint32_t n;

	if (unlikely(wk->launch.next < oldest)) {
		uint64_t lost = (oldest - wk->launch.next) / wk->launch.interval;
		CNT_ADD(&net->cnt, LAUNCH_SKIP, lost);
		wk->launch.next += lost * wk->launch.interval;
	}
	if (at_cc_target(wk))
		return 0;
	/* The device full, or behind on what was received (the peer's
	 * packets waiting): finishing connections comes before opening
	 * more, or the client overloads itself and its peer's replies
	 * overflow. The slots wait (up to 10 ms, above). */
	if (tx_congested(&net->txq) || wk->rx_backlog >= DP_RX_BACKLOG)
		return 0;
	for (n = 0; n < wk->launch.num && wk->launch.next <= net->now; n++) {
		/* also within the batch (bench runs saw 2,000,001 held for
		 * cc 2m, 150,000,010 for 150m when only checked above) */
		if (at_cc_target(wk))
			break;
		if (net->is_udp)
			udp_client_launch(net, wk->launch.pps_interval_us ? wk->launch.cc_w : 0);
		else
			tcp_client_launch(net);
		wk->launch.next += wk->launch.interval;
	}
	return n;
}

/* Until told to quit. Everything it keeps between iterations is in wk,
 * so a fault in the device (dev_fault.c) can start it afresh. */
static __rte_noinline void
worker_loop(struct worker *wk)
{
	struct netw *net = &wk->net;
	struct rte_mbuf *pkts[DP_RX_BURST];
	uint64_t prev = rte_rdtsc(), busy_from = prev;
	uint64_t next_tick = wk->start_tsc + (uint64_t)(net->now_ms + 1) * wk->net.tsc_per_ms;
	/* Tick counts kept in 64 bits: now_t wraps after 18.6 hours, and a
	 * next_t computed from it would then always be in the past. */
	uint64_t ticks = net->now_t; /* recomputed from the TSC at the first tick */
	const uint16_t burst = net->tls != NULL ? DP_RX_BURST_TLS : DP_RX_BURST;
	uint64_t next_t = wk->start_tsc + (ticks + 1) * wk->tsc_per_t;
	int work = 0;

	while (!dp_workers_quit) {
		/* The previous iteration was busy when it did any work, from
		 * busy_from (below) until now. */
		uint64_t now = rte_rdtsc(), polled;
		uint16_t nb;

		if (work)
			net->cnt.busy_tsc += now - busy_from;
		/* A gap of a millisecond or more between two iterations: the
		 * worker was descheduled (or the host stole the CPU). Peers'
		 * packets queue up meanwhile; this says why they overflowed. */
		if (unlikely(now - prev >= wk->net.tsc_per_ms)) {
			CNT(&net->cnt, STALL);
			CNT_ADD(&net->cnt, STALL_US, (now - prev) * 1000 / wk->net.tsc_per_ms);
		}
		prev = now;
		net->now = now;
		if (unlikely(net->io.np->quiesce)) {
			if (!net->txq.quiesced)
				__atomic_add_fetch(&net->io.np->quiesce_acks, 1, __ATOMIC_RELEASE);
			net->txq.quiesced = 1;
			nb = 0;
		} else {
			net->txq.quiesced = 0;
			nb = rte_eth_rx_burst(net->txq.port_id, net->txq.queue, pkts, burst);
		}
		/* A poll of a millisecond or more: the worker lost its core
		 * while it waited (a poll itself takes microseconds), and the
		 * packets that came meanwhile make the iteration busy. That
		 * gap is a stall (counted at the next iteration), not work:
		 * the busy time starts once the poll is back. Counted as busy,
		 * the host's preemptions landed in cpuUsage nearly whole at
		 * any load (packets are waiting after a stall): a TLS server
		 * 20% busy read 2-10% more busy time per handshake (issue 38). */
		polled = rte_rdtsc();
		busy_from = polled - now >= wk->net.tsc_per_ms ? polled : now;
		work = nb;
		wk->rx_backlog = nb < burst ? 0 : (uint8_t)RTE_MIN(wk->rx_backlog + 1, 255);
		if (nb != 0)
			rx_burst(net, pkts, nb);
		if (unlikely(wk->ctl->generation != wk->gen_seen))
			apply_control(wk);
		if (now >= next_t) {
			ticks = (now - wk->start_tsc) / wk->tsc_per_t;
			net->now_t = (uint32_t)ticks;
			next_t = wk->start_tsc + (ticks + 1) * wk->tsc_per_t;
			if (now >= next_tick) {
				net->now_ms = (uint32_t)((now - wk->start_tsc) / wk->net.tsc_per_ms);
				next_tick = wk->start_tsc + (uint64_t)(net->now_ms + 1) * wk->net.tsc_per_ms;
				worker_tick(wk);
				work = 1;
			} else if (!net->is_udp) {
				/* Between milliseconds, the timers alone: busy
				 * time only when one fired. */
				wk->tcp.timer_fired = 0;
				wk->tcp.timers_behind = (uint8_t)timers_run(wk);
				work |= wk->tcp.timer_fired;
			}
		} else if (unlikely(wk->tcp.timers_behind)) {
			/* More expired in this millisecond than one tick's
			 * budget (a keepalive test's requests): go on between
			 * RX bursts rather than wait for the next tick. */
			wk->tcp.timers_behind = (uint8_t)timers_run(wk);
			work = 1;
		}
		if (wk->launch.interval && wk->launch.next <= now && launch(wk))
			work = 1;
		/* The counters go to the memzone after each iteration that did
		 * work (a tick is work: at least once a millisecond), before
		 * its batch goes to the device: a peer holding our answer
		 * reads counters that count it. */
		if (work)
			worker_publish(wk, now - wk->start_tsc);
		/* A device that takes nothing (link down) is not work. */
		if (net->txq.n && now >= net->txq.due && tx_flush(&net->txq))
			work = 1;
	}
}

int
worker_main(void *arg)
{
	struct worker *wk = arg;

	wk->st->lcore = rte_lcore_id();
	wk->st->port = wk->net.io.np->port_id;
	/* A little more weight than other threads on a shared core: fewer
	 * preemptions of the busy-polling worker, while tools and EAL's
	 * control threads (nice 0) still get a quarter of the core when they
	 * need it. Needs root or CAP_SYS_NICE; otherwise nice 0. */
	(void)setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), DP_WORKER_NICE);
	if (sigsetjmp(wk->fault.jb, 1) != 0)
		dev_fault_recover(&wk->net); /* a burst on a vanished memif region */
	dev_fault_arm(&wk->fault);
	worker_loop(wk);
	for (int i = 0; i < 1000 && wk->net.txq.n; i++)
		tx_flush(&wk->net.txq);
	if (wk->net.txq.n)
		tx_discard_all(&wk->net.txq);
	dev_fault_arm(NULL);
	pkt_flood_release(&wk->net);
	pkt_release(&wk->net);
	/* The last figures, before the main lcore reads the totals. */
	tls_time_count(&wk->net);
	worker_publish(wk, rte_rdtsc() - wk->start_tsc);
	return 0;
}
