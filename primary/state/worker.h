/* SPDX-License-Identifier: BSD-3-Clause
 * A worker: one lcore, one RX/TX queue on one port, its own sockets,
 * timers, messages and counters. Nothing here is shared with another
 * worker except the read-only port description and the control block.
 */
#ifndef DPERF_WORKER_H
#define DPERF_WORKER_H

#include <setjmp.h>
#include <stdint.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ether.h>
#include <rte_mbuf.h>
#include <rte_reciprocal.h>

#include "http/http.h"
#include "shm.h"
#include "state/netport.h"
#include "state/sock.h"

#define DP_RX_BURST 32
#define DP_TX_CAP 2048 /* packets queued for TX; beyond, dropTx */
/* Queued packets from which the device counts as refusing: new work waits. */
#define DP_TX_CONGESTED 256
/* A device that has taken nothing this long has lost its peer (a memif
 * server killed, a link down): congestion no longer holds the timers back,
 * or connections would never time out. Far above any real back-pressure. */
#define DP_TX_DEAD_MS 500
/* Timer expiries handled per list per loop iteration: the rest wait for
 * the next iteration, after the next RX burst. */
#define DP_TIMER_BUDGET 512
#define DP_MAX_RETRIES 5
#define DP_STASH 32 /* mbufs allocated at a time */
/* A flooding client's own mbufs, reused once the device is done with them
 * (pkt.c). Power of two. */
#define DP_FLOOD_RING 512
/* Full RX bursts in a row from which a client stops launching. */
#define DP_RX_BACKLOG 16

/* A FIFO timer list: every entry has the same timeout, so appending keeps
 * it sorted and expiry only looks at the head. Links are index + 1.
 * Times are timer ticks, TL_PER_MS to the millisecond. */
#define TL_PER_MS 64
struct dack_ring;
struct sk_tx;
struct ooo_pool;
struct vxlan;

struct tlist {
	uint32_t head;
	uint32_t tail;
	uint32_t timeout;
	uint32_t count;
};

/* A prebuilt message and the ones'-complement sum of its bytes. */
struct msg {
	const uint8_t *data;
	uint32_t len;
	uint32_t sum;
	/* A message longer than mss goes out in mss-sized segments; the sum
	 * of segment k's bytes is seg_sum[k] (NULL: one segment). */
	const uint32_t *seg_sum;
	/* A message longer than what is stored of it: the whole segments
	 * stored, the rest by http/messages.h's content rule; 0: all stored. */
	uint32_t seg_stored;
};

/* The addresses of one connection, network byte order. With IPv6, lip
 * and rip are the addresses' last 4 bytes (the prefixes are the worker's). */
struct tuple {
	uint32_t lip;
	uint32_t rip;
	uint16_t lport;
	uint16_t rport;
};

struct client_range {
	uint32_t start_h; /* host order */
	uint32_t num;
	uint32_t base;    /* flat index of the range's first address */
};

struct worker {
	/* hot */
	struct sock *sk;
	struct sk_tx *sktx; /* tcp/tcp_send.h, parallel to sk; NULL: no message over several segments */
	struct ooo_pool *ooo; /* tcp/tcp_ooo.h: held out-of-order segments; NULL: none kept (UDP) */
	struct dp_worker_stats *st;
	struct dp_worker_lat *lat; /* NULL: latency not recorded */
	struct netport *np;
	struct vxlan *vx;  /* net/vxlan.h: the port's tunnel; NULL: none */
	struct rte_mempool *mp;
	const struct dp_config *cfg;
	const struct dp_control *ctl;
	uint64_t n_sk;
	uint64_t now;      /* TSC at the top of the loop */
	uint64_t tx_due;   /* TSC by which a partial TX batch goes out */
	uint64_t tx_hold;  /* TSC ticks a partial batch may wait for more */
	uint32_t now_ms;   /* milliseconds since start */
	uint32_t now_t;    /* timer ticks since start (TL_PER_MS per ms) */
	uint16_t port_id;
	uint16_t queue;
	uint16_t n_tx;       /* tx[tx_head..n_tx) wait for the device */
	uint16_t tx_head;
	uint16_t tx_burst;
	uint8_t tx_blocked;  /* the last flush left packets behind */
	uint8_t rx_backlog;  /* consecutive full RX bursts (saturates) */
	uint16_t n_stash;    /* mbufs left in stash[] */
	uint8_t is_client;
	uint8_t is_http;
	uint8_t is_udp;
	uint8_t keepalive;   /* client keeps connections; server honours requests */
	uint8_t fast_close;
	uint8_t stopping;
	uint8_t paused;
	uint8_t flood;
	uint8_t v6;
	uint8_t lpfx[12];    /* IPv6: prefix of our addresses in tuples */
	uint8_t rpfx[12];    /* IPv6: prefix of the peer's */
	uint32_t id;
	uint32_t ip_id;

	/* addresses */
	uint32_t srv_ip;     /* network order: client: its server; server: own */
	uint32_t cip_h;      /* client mode: first client address, host order */
	uint32_t n_cip;
	uint32_t lport_min, n_lport;
	uint32_t sport_min, n_sport;
	struct client_range cr[DP_MAX_CLIENT_RANGES]; /* server mode: accepted clients */
	uint32_t n_cr;
	uint32_t n_cip_total;
	/* sk_tuple divides by these with a multiply and shifts (no DIV) */
	struct rte_reciprocal div_sport;
	struct rte_reciprocal div_cip; /* n_cip (client) or n_cip_total (server) */

	/* messages */
	struct msg req;
	struct msg rsp_ka;
	struct msg rsp_close;
	struct msg rsp_head_ka;    /* HEAD: rsp_ka's head, without its body */
	struct msg rsp_head_close;
	struct msg rsp_bad;        /* 400, then the connection closes */
	uint32_t rsp_size;   /* raw mode: expected response size */
	uint32_t req_size;   /* raw mode: expected request size */
	uint16_t mss;
	uint32_t send_wnd;   /* a message over several segments: bytes in flight at most (send_window x mss; UINT32_MAX: unset) */
	uint8_t tos;
	size_t msg_map_len;  /* messages mmap'ed (this long), 0: rte_zmalloc */

	/* timers */
	struct tlist tl[TL__COUNT];
	struct dack_ring *dack; /* delayed ACKs (tcp_dack.h); NULL: ACK at once */
	uint32_t dack_t;   /* the delay, in timer ticks */
	uint8_t disable_ack;
	uint32_t rx_drop_every; /* test_rx_drop: drop one received data segment in this many */
	uint32_t tx_drop_every; /* test_tx_drop: drop one sent segment of a long message in this many */
	uint32_t tx_drop_n;
	uint32_t rx_drop_n;
	uint64_t hz;
	uint64_t tsc_per_ms;
	uint64_t tsc_per_t; /* TSC per timer tick */
	uint64_t start_tsc;
	uint32_t next_arp_ms;
	uint8_t timers_behind; /* due entries left after the last run */
	uint8_t timer_fired;   /* a timer expired in the last run (busy time) */
	uint8_t tx_dead;       /* the device took nothing for DP_TX_DEAD_MS */
	uint8_t quiesced;      /* counted in np->quiesce_acks for the current restart */
	uint32_t tx_taken_ms;  /* last tick the device took packets, or had none queued */

	/* launching (client) */
	uint64_t cursor;     /* next socket index to try; its tuple's parts: */
	uint32_t cur_sport, cur_cip, cur_lport;
	uint64_t walked;     /* steps since the cursor's start (sock_table.h) */
	uint32_t hop_round;  /* client_hop: the diagonal being walked */
	uint8_t client_hop;
	uint64_t next_launch;
	uint64_t interval;   /* TSC between launches, 0 = none */
	uint64_t cps_w;      /* this worker's share of the target */
	uint64_t cc_w;
	uint64_t pps_interval_us; /* UDP client with cc: dperf's packets-per-second mode, else 0 */
	/* change_dip: this worker floods to dip_h + (dip_first + k * dip_every) * dip_step */
	uint32_t dip_h, dip_step, dip_num, dip_first, dip_every, dip_next;
	uint64_t gen_seen;
	uint32_t launch_num;
	uint32_t ka_num;     /* requests per connection, 0 = unlimited */
	uint32_t slow_start_ms;

	struct dp_http_head_cache rsp_head; /* client: the last response head */
	struct rte_mbuf *stash[DP_STASH];
	struct rte_mbuf *tx[DP_TX_CAP];
	/* flood: fr[fr_head..+fr_count) in the order they were sent */
	uint16_t fr_head, fr_count;
	uint16_t fr_cap;           /* DP_FLOOD_RING, or 0: no reuse (VXLAN) */
	struct rte_mbuf *fr[DP_FLOOD_RING];

	/* dev_fault.c: the PMD's code, and where a fault in it returns to */
	uintptr_t pmd_text_lo, pmd_text_hi;
	volatile uint8_t in_tx; /* inside the device's TX burst */
	sigjmp_buf fault_jb;
};

#define CNT(w, id) ((w)->st->c[DP_C_##id]++)
#define CNT_ADD(w, id, n) ((w)->st->c[DP_C_##id] += (n))

#endif
