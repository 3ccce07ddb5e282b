/* SPDX-License-Identifier: BSD-3-Clause
 * A worker as the packet rooms (net/, tcp/, udp/) see it: its clock, what
 * the test is, and the parts they work on, each defined in its own room's
 * header: the TX queue (state/txq.h), the counters (state/cnt.h), the
 * socket table and launch cursor (state/sock_table.h), the messages
 * (http/messages.h), and net/'s own below (how frames are built, the
 * flood ring). TCP's part (timers, delayed ACKs, the sender) is tcp/tcp.h's,
 * reached through tcp. The worker loop's header (engine/worker.h)
 * composes this with the parts of the rooms above.
 */
#ifndef DPERF_NETW_H
#define DPERF_NETW_H

#include <stdint.h>

#include <rte_ether.h>
#include <rte_mbuf.h>

#include "config.h"
#include "http/messages.h"
#include "shm.h"
#include "state/cnt.h"
#include "state/netport.h"
#include "state/sock_table.h"
#include "state/txq.h"

#define DP_STASH 32 /* mbufs allocated at a time */
/* A flooding client's own mbufs, reused once the device is done with them
 * (pkt_flood.c). Power of two. */
#define DP_FLOOD_RING 512

struct seg;
struct tcp_part;
struct tls_part;
struct udp_dgram;
struct vxlan;

/* How this worker's frames are built: its port, the port's tunnel, its
 * mbufs and the IP header fields it writes. */
struct pkt_io {
	struct netport *np;
	struct vxlan *vx;    /* net/vxlan.h: the port's tunnel; NULL: none */
	struct rte_mempool *mp;
	uint32_t ip_id;
	uint8_t tos;
	uint16_t n_stash;    /* mbufs left in stash[] */
	uint8_t lpfx[12];    /* IPv6: prefix of our addresses in tuples */
	uint8_t rpfx[12];    /* IPv6: prefix of the peer's */
	struct rte_mbuf *stash[DP_STASH];
};

/* A flooding client's mbufs (pkt_flood.c): m[head..+count) in the order
 * they were sent. */
struct flood_ring {
	uint16_t head, count;
	uint16_t cap;        /* DP_FLOOD_RING, or 0: no reuse (VXLAN) */
	struct rte_mbuf *m[DP_FLOOD_RING];
};

/* A test knob that drops one packet in every (0: off); n counts. */
struct drop_knob {
	uint32_t every;
	uint32_t n;
};

struct netw {
	/* the clock, set by the worker loop */
	uint64_t now;        /* TSC at the top of the loop */
	uint32_t now_ms;     /* milliseconds since start */
	uint32_t now_t;      /* timer ticks since start (TL_PER_MS per ms, tcp/tcp.h) */
	uint64_t tsc_per_ms; /* TSC ticks per millisecond: the histograms' unit (net/lat.h) */
	/* what the test is (set up before launch) */
	uint32_t id;
	uint16_t mss;
	uint8_t rcv_ws;      /* the window scale we offer (tcp/tcp_out.h: tcp_rcv_window) */
	uint8_t is_client;
	uint8_t is_http;
	uint8_t is_udp;
	uint8_t keepalive;   /* client keeps connections; server honours requests */
	uint8_t fast_close;
	uint8_t flood;
	uint8_t v6;
	uint8_t stopping;    /* a stop was requested (applied by the loop) */
	const struct dp_config *cfg;
	struct dp_worker_lat *lat; /* NULL: latency not recorded (net/lat.h records) */
	struct dp_worker_klat *klat; /* a client with kinds: its latency per kind too; else NULL */
	struct tcp_part *tcp;      /* tcp/tcp.h: the worker's (engine/worker.h) */
	struct tls_part *tls;      /* tls/tls_tcp.h: protocol https or tls; NULL: none */
	/* The receive path's choices, bound once at setup (net/rx.h:
	 * rx_bind), so that no packet branches on them: the frame handler
	 * of a burst (plain, or VXLAN's outer headers first), and what a
	 * TCP segment and a UDP datagram go to (net/l4.h: the role's input,
	 * TLS's over it, or a count of the drop when the run is the other
	 * protocol). */
	void (*burst_in)(struct netw *nw, struct rte_mbuf **m, uint16_t n);
	void (*seg_in)(struct netw *nw, const struct seg *s);
	void (*dgram_in)(struct netw *nw, const struct udp_dgram *d);
	struct sk_table skt;
	struct sk_cursor cur;
	struct msgs msg;
	uint32_t rcv_wnd;          /* the receive window we advertise, bytes (tcp_rcv_window) */
	struct drop_knob rx_drop;  /* test_rx_drop: received data segments */
	struct pkt_io io;
	struct wcnt cnt;           /* on its own cache lines */
	struct flood_ring fring;
	struct txq txq;
};

#endif
