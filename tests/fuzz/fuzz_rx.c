/* SPDX-License-Identifier: BSD-3-Clause
 * libFuzzer harness over the worker's receive path: Ethernet, ARP/NDP,
 * IPv4/IPv6, ICMP, TCP (client and server state machines), UDP and HTTP
 * parsing, and TLS records (primary/tls/), against socket tables that
 * hold live connections.
 *
 * EAL runs in memory only (no hugepages, no PCI, no shared files). Six
 * pairs of workers (IPv4 HTTP, IPv6 HTTP, IPv4 UDP, IPv4 HTTP inside
 * VXLAN over IPv4, IPv4 HTTP with messages over several segments, IPv4
 * HTTPS), each a client and a server wired back to back by replacing the
 * TX layer at link time. Once, at start, each pair but the HTTPS one opens
 * a few keepalive connections and leaves one in SYN_SENT, and each
 * worker's state is saved (rx_snap.h); every input's packets are injected
 * into that state, and the pairs the input touched are put back as saved
 * afterwards.
 *
 * The HTTPS pair (protocol https both sides, port 443; fuzz_rx_tls only,
 * see FUZZ_RX_TLS below) has no connection
 * at the snapshot: a copied socket table cannot hold live SSL objects. An
 * input opens its connections (a SYN from 198.18.1.3, which the pair's
 * client does not own: our answers reach nobody, no RST comes back; or a
 * launch of the pair's client), and before the pair is restored every
 * connection still open ends through the engine's close path (sk_closed,
 * whose over_closed hook frees the TLS state).
 *
 * Input: records of [flags][sel][len lo][len hi][len bytes]:
 *   flags & 0x01  deliver to the client (else the server)
 *   flags & 0x02  mark checksums verified by the device (ol_flags GOOD)
 *   flags & 0x04  overwrite addresses, ports, seq and ack from one of the
 *                 frames the target received while connecting (sel picks;
 *                 with sel & 0x80, its low six bits)
 *                 With sel & 0x80, on the IPv4 HTTP pair's client (or pair
 *                 4's, whose POST bodies span segments), the frame
 *                 continues that connection's response stream instead: if
 *                 the connection waits for nothing, its next request is
 *                 sent (and lost: the server never answers it), then seq
 *                 and ack are the socket's rcv_nxt and snd_nxt. Records in
 *                 this mode feed the client's response scanner in order,
 *                 a response cut anywhere across them; with sel & 0x40 too,
 *                 seq is ahead of rcv_nxt by 1 + (sel & 0x3f) x 61 (held
 *                 out of order, and our ACK carries SACK blocks) and ack
 *                 is snd_una (a duplicate ACK; its SACK option, if any,
 *                 goes to the scoreboard of a POST body in flight).
 *   flags & 0x08  recompute the IPv4/IPv6 and TCP/UDP checksums
 *   flags & 0x10  afterwards advance the clock by sel * 16 ms, run timers;
 *                 with sel 0, the pair's client first launches a
 *                 connection, as the worker loop does when a launch is
 *                 due (tcp_client_launch, udp_client_launch)
 *                 With sel & 0x80 on the HTTPS pair's server (no
 *                 templates there), the frame continues the stream of the
 *                 connection its own addresses and ports name, if open:
 *                 seq and ack are the socket's rcv_nxt and snd_nxt, the
 *                 payload the client's next bytes (TLS records).
 *   flags >> 5    pair (mod 6): 0 IPv4 HTTP, 1 IPv6 HTTP, 2 IPv4 UDP, 3 VXLAN,
 *                 4 messages over several segments, 5 HTTPS
 *                 (on the VXLAN pair, fixup and checksums apply to the
 *                 outer headers; the UDP checksum becomes "none")
 * After each record, the two workers exchange what they sent.
 *
 * FUZZ_RX_TRACE=1 prints each side's counters after each input;
 * FUZZ_RX_SNAP_CHECK=1 checks that each restore gave back the saved state.
 *
 * Checked after every input, abort on failure: every mbuf is back in its
 * pool, a worker's stash, or held out of order by an open socket (and the sockets' held
 * segments are the queue's), and on each worker every open socket is on
 * exactly one timer list (so none can outlive a vanished peer), the lists
 * are well formed, and the sockets opened are those closed plus those open
 * (skOpen = skClose + open); after the HTTPS pair's connections are
 * closed, OpenSSL's heap (tls_mem.h) is where it was at the snapshot.
 * At exit: the handshakes the HTTPS pair's server started and completed.
 *
 * fuzz_rx is built with no sanitizer (they were more than a third of an
 * execution): these checks are its own. fuzz_rx_san, this file with ASan
 * and all of UBSan, replays every input the run kept (Makefile).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_log.h>
#include <rte_mbuf.h>
#include <rte_tcp.h>
#include <rte_udp.h>

#include "config.h"
#include "shm.h"
#include "net/pkt.h"
#include "net/rx.h"
#include "tcp/tcp.h"
#include "tcp/tcp_ooo.h"
#include "udp/udp.h"
#include "engine/worker.h"
#include "state/sock_table.h"
#include "state/txq.h"
#include "boot/worker_setup.h"
#include "tls/tls_mem.h"
#include "tcp/tcp_common.h"
#include "rx_snap.h"

/* The HTTPS pair is built into fuzz_rx_tls only (-DFUZZ_RX_TLS=1): its
 * handshakes' crypto made every execution of fuzz_rx four times slower
 * (75k in 20 s, against 250-380k), starving the paths it shares with the
 * other pairs. fuzz_rx_tls is this harness with it, its own corpus
 * (corpus/rx_tls). */
#ifndef FUZZ_RX_TLS
#define FUZZ_RX_TLS 0
#endif
#define N_SLOTS 6
#define N_PAIRS (5 + FUZZ_RX_TLS) /* in use: (flags >> 5) % N_PAIRS picks one */
#define TLS_PAIR 5 /* protocol https: no connection open at the snapshot */
#define N_TPL 16
#define TPL_LEN 128
#define T0 (1ULL << 40) /* fixed clock: sequence numbers repeat per input */

static const char *const cfg_text[N_SLOTS][2] = {
	{ "mode client\ncpu 0\ncps 1k\ncc 16\nkeepalive\nport net_null0 198.18.0.2 198.18.0.1\n"
	  "client 198.18.1.2 2\nserver 198.18.2.1 1\nlisten 80 1\nlport_range 1000 1003\n",
	  "mode server\ncpu 0\nkeepalive\nport net_null1 198.18.0.1 198.18.0.2\n"
	  "client 198.18.1.2 2\nserver 198.18.2.1 1\nlisten 80 1\n" },
	{ "mode client\ncpu 0\ncps 1k\ncc 16\nkeepalive\nport net_null0 2001:db8::2 2001:db8::1\n"
	  "client 2001:db8:1::2 2\nserver 2001:db8:2::1 1\nlisten 80 1\nlport_range 1000 1003\n",
	  "mode server\ncpu 0\nkeepalive\nport net_null1 2001:db8::1 2001:db8::2\n"
	  "client 2001:db8:1::2 2\nserver 2001:db8:2::1 1\nlisten 80 1\n" },
	{ "mode client\ncpu 0\ncps 1k\nprotocol udp\nport net_null0 198.18.0.2 198.18.0.1\n"
	  "client 198.18.1.2 2\nserver 198.18.2.1 1\nlisten 53 1\n",
	  "mode server\ncpu 0\nprotocol udp\nport net_null1 198.18.0.1 198.18.0.2\n"
	  "client 198.18.1.2 2\nserver 198.18.2.1 1\nlisten 53 1\n" },
	{ "mode client\ncpu 0\ncps 1k\ncc 16\nkeepalive\nport net_null0 198.18.0.2 198.18.0.1\n"
	  "vxlan 7 02:00:00:00:00:02 02:00:00:00:00:01 198.18.0.2 1 198.18.0.1 1\n"
	  "client 198.18.1.2 2\nserver 198.18.2.1 1\nlisten 80 1\nlport_range 1000 1003\n",
	  "mode server\ncpu 0\nkeepalive\nport net_null1 198.18.0.1 198.18.0.2\n"
	  "vxlan 7 02:00:00:00:00:01 02:00:00:00:00:02 198.18.0.1 1 198.18.0.2 1\n"
	  "client 198.18.1.2 2\nserver 198.18.2.1 1\nlisten 80 1\n" },
	/* messages over several segments both ways (tcp_send.c): POST bodies
	 * and answers of 3 segments */
	{ "mode client\ncpu 0\ncps 1k\ncc 16\nkeepalive\nport net_null0 198.18.0.2 198.18.0.1\n"
	  "client 198.18.1.2 2\nserver 198.18.2.1 1\nlisten 80 1\nlport_range 1000 1003\n"
	  "http_method POST\npayload_size 4000\n",
	  "mode server\ncpu 0\nkeepalive\nport net_null1 198.18.0.1 198.18.0.2\n"
	  "client 198.18.1.2 2\nserver 198.18.2.1 1\nlisten 80 1\npayload_size 4000\n" },
	/* HTTPS: the client owns 198.18.1.2 only, so the server's answers to
	 * an input's connections from 198.18.1.3 reach nobody (no RST) */
	{ "mode client\ncpu 0\ncps 1k\ncc 16\nkeepalive\nprotocol https\nport net_null0 198.18.0.2 198.18.0.1\n"
	  "client 198.18.1.2 1\nserver 198.18.2.1 1\nlisten 443 1\nlport_range 1000 1003\n",
	  "mode server\ncpu 0\nkeepalive\nprotocol https\ntls_cert " DP_SOURCE_DIR "/build/tls/test-cert.pem\n"
	  "tls_key " DP_SOURCE_DIR "/build/tls/test-key.pem\nport net_null1 198.18.0.1 198.18.0.2\n"
	  "client 198.18.1.2 2\nserver 198.18.2.1 1\nlisten 443 1\n" },
};

struct side {
	struct worker wk;       /* live state */
	struct worker_snap snap; /* connected: each input starts from it */
	struct dp_config cfg;
	struct netport np;
	struct rte_mbuf *out[4 * DP_TX_CAP];
	unsigned n_out;
	uint8_t tpl[N_TPL][TPL_LEN]; /* frames received while connecting */
	uint32_t tpl_len[N_TPL];
	unsigned n_tpl;
};

static struct side sides[N_SLOTS][2];
static struct rte_mempool *mp;
static struct dp_shm *shm;
static unsigned pool_size;
static int recording;
static int tracing; /* FUZZ_RX_TRACE set */
static int snap_check; /* FUZZ_RX_SNAP_CHECK set: each restore checked (rx_snap.h) */
static int64_t tls_heap0; /* OpenSSL's heap at the snapshot (tls_mem.h) */
static uint64_t tls_hs_seen[2], tls_inputs; /* handshakes started, completed; inputs on the pair */

/* ------------------------------------------------------------------ */
/* The TX layer, substituted: sent packets wait in the side's outbox.   */

uint16_t
tx_flush(struct txq *q)
{
	struct side *s = container_of(q, struct side, wk.net.txq);
	uint16_t n = tx_pending(q);

	for (uint16_t i = q->head; i < q->n; i++) {
		if (s->n_out < RTE_DIM(s->out)) {
			s->out[s->n_out++] = q->pkts[i];
			CNT(q->cnt, PKT_TX);
		} else {
			tx_drop_one(q, q->pkts[i]);
		}
	}
	q->n = q->head = 0;
	return n;
}

/* The socket a segment names, for the restore (rx_snap.h): the link
 * (-Wl,--wrap) sends the server's inputs here, the plain one as rx.c
 * binds it and TLS's as tls_tcp.c binds it over that. A server's table is
 * too large to copy back whole; a client's is copied whole. */
void __real_tcp_server_input(struct netw *nw, const struct seg *s);
void __wrap_tcp_server_input(struct netw *nw, const struct seg *s);
void __real_tls_server_input(struct netw *nw, const struct seg *s);
void __wrap_tls_server_input(struct netw *nw, const struct seg *s);

static void
touch_server(struct netw *nw, const struct seg *s)
{
	worker_snap_touch(&container_of(nw, struct side, wk.net)->snap,
			  sk_index_server(&nw->skt, s->dip, s->sip, s->sport, s->dport));
}

void
__wrap_tcp_server_input(struct netw *nw, const struct seg *s)
{
	touch_server(nw, s);
	__real_tcp_server_input(nw, s);
}

void
__wrap_tls_server_input(struct netw *nw, const struct seg *s)
{
	touch_server(nw, s);
	__real_tls_server_input(nw, s);
}

/* ------------------------------------------------------------------ */

static void
deliver(struct side *to, struct rte_mbuf *m)
{
	if (recording && to->n_tpl < N_TPL) {
		uint32_t n = RTE_MIN(m->data_len, (uint32_t)TPL_LEN);
		memcpy(to->tpl[to->n_tpl], rte_pktmbuf_mtod(m, void *), n);
		to->tpl_len[to->n_tpl++] = n;
	}
	rx_packet(&to->wk.net, m);
}

/* Move each side's outbox to the other side, until both are quiet. */
static void
exchange(struct side *pair, int rounds)
{
	for (int r = 0; r < rounds; r++) {
		int moved = 0;
		for (int k = 0; k < 2; k++) {
			struct side *from = &pair[k], *to = &pair[!k];
			unsigned n = from->n_out;

			tx_flush(&from->wk.net.txq);
			n = from->n_out;
			from->n_out = 0;
			for (unsigned i = 0; i < n; i++)
				deliver(to, from->out[i]);
			moved += (int)n;
		}
		if (!moved)
			return;
	}
}

/* What the side sent and nobody received, back to the pool. Its stash
 * of fresh mbufs stays (the restore leaves it: rx_snap.h), or every input
 * would allocate and reset 32 again. */
static void
drain(struct side *s)
{
	tx_flush(&s->wk.net.txq);
	rte_pktmbuf_free_bulk(s->out, s->n_out);
	s->n_out = 0;
}

/* Every mbuf is in the pool or in a worker's stash. */
static unsigned
mbufs_home(void)
{
	unsigned n = rte_mempool_avail_count(mp);

	for (int p = 0; p < N_PAIRS; p++)
		for (int k = 0; k < 2; k++) {
			const struct worker *wk = &sides[p][k].wk;

			n += wk->net.io.n_stash + (wk->tcp.ooo != NULL ? wk->tcp.ooo->used : 0);
		}
	return n;
}

/* Back to the connected state; the side holds no mbuf (drained). */
static void
restore_side(struct side *s)
{
	const char *what;

	worker_snap_restore(&s->snap, &s->wk);
	s->n_out = 0;
	if (snap_check && (what = worker_snap_differs(&s->snap, &s->wk)) != NULL) {
		fprintf(stderr, "fuzz_rx: worker %u not restored: %s differs\n", s->wk.net.id, what);
		abort();
	}
}

/* What the worker loop runs when a launch slot is due. */
static void
launch_one(struct worker *c)
{
	if (c->net.is_udp)
		udp_client_launch(&c->net, 0);
	else
		tcp_client_launch(&c->net);
}

/* A few established keepalive connections and one in SYN_SENT. */
static void
connect_pair(struct side *pair)
{
	struct worker *c = &pair[0].wk;

	if (pair == sides[TLS_PAIR])
		return; /* no TLS connection may be open at the snapshot */
	recording = 1;
	for (int i = 0; i < 3; i++) {
		launch_one(c);
		exchange(pair, 8);
	}
	recording = 0;
	if (!c->net.is_udp) {
		tcp_client_launch(&c->net);
		drain(&pair[0]);
	}
}

/* Every open socket sits on exactly one timer list (else a vanished peer
 * would leave it open forever), every listed socket is open, and the
 * lists are well formed: walked from the head, each has `count` entries
 * that name it, linked both ways. */
static void
check_side(const struct side *s, const char *what)
{
	const struct worker *wk = &s->wk;
	uint64_t listed = 0;

	if (wk->net.is_udp)
		return;
	for (int l = TL_RT; l < TL__COUNT; l++) {
		uint32_t n = 0, prev = 0;

		for (uint32_t i = wk->tcp.tl[l].head; i != 0; i = wk->net.skt.sk[i - 1].t_next) {
			const struct sock *sk = &wk->net.skt.sk[i - 1];

			if (++n > wk->net.cnt.sk_cur || sk->list != l || sk->state == SK_CLOSED ||
			    sk->t_prev != prev) {
				fprintf(stderr,
					"%s: timer list %d broken at socket %u (entry %u, list %u, state %u, %lu open)\n",
					what, l, i - 1, n, sk->list, sk->state, (unsigned long)wk->net.cnt.sk_cur);
				abort();
			}
			prev = i;
		}
		if (n != wk->tcp.tl[l].count || prev != wk->tcp.tl[l].tail) {
			fprintf(stderr, "%s: timer list %d has %u entries, count says %u\n", what, l, n,
				wk->tcp.tl[l].count);
			abort();
		}
		listed += n;
	}
	if (wk->net.cnt.c[DP_C_SK_OPEN] != wk->net.cnt.c[DP_C_SK_CLOSE] + wk->net.cnt.sk_cur) {
		fprintf(stderr, "%s: skOpen %lu, skClose %lu, open %lu\n", what,
			(unsigned long)wk->net.cnt.c[DP_C_SK_OPEN], (unsigned long)wk->net.cnt.c[DP_C_SK_CLOSE],
			(unsigned long)wk->net.cnt.sk_cur);
		abort();
	}
	if (listed != wk->net.cnt.sk_cur) {
		fprintf(stderr, "%s: %lu sockets open, %lu on timer lists\n", what,
			(unsigned long)wk->net.cnt.sk_cur, (unsigned long)listed);
		for (uint64_t i = 0; i < wk->net.skt.n_sk; i++) /* name the strays */
			if (wk->net.skt.sk[i].state != SK_CLOSED && wk->net.skt.sk[i].list == TL_NONE)
				fprintf(stderr, "  socket %lu: state %u flags 0x%x inflight %u, on no list\n",
					(unsigned long)i, wk->net.skt.sk[i].state, wk->net.skt.sk[i].flags, wk->net.skt.sk[i].inflight);
		abort();
	}
	/* What the out-of-order queue holds belongs to open sockets, all of
	 * it: counted over the timer lists, which hold every open socket
	 * (checked above). A closed socket that kept segments shows as a
	 * queue holding more than the open sockets do. (Walking the whole
	 * table was two thirds of an execution, most of it page faults.) */
	if (wk->tcp.ooo != NULL) {
		uint32_t held = 0;

		for (int l = TL_RT; l < TL__COUNT; l++)
			for (uint32_t i = wk->tcp.tl[l].head; i != 0; i = wk->net.skt.sk[i - 1].t_next)
				held += ooo_count(wk->tcp.ooo, wk->net.skt.sk[i - 1].ooo);
		if (held != wk->tcp.ooo->used) {
			fprintf(stderr, "%s: open sockets hold %u segments, the queue %u\n", what, held,
				wk->tcp.ooo->used);
			abort();
		}
	}
}

/* ------------------------------------------------------------------ */
/* Rewriting an input frame                                             */

static uint32_t
l3_offset(const uint8_t *p, uint32_t len)
{
	return len >= 18 && p[12] == 0x81 && p[13] == 0x00 ? 18 : 14;
}

/* Addresses, ports, seq and ack from a template frame into frame p. */
static void
fixup(uint8_t *p, uint32_t len, const uint8_t *t, uint32_t tlen)
{
	uint32_t lo = l3_offset(p, len), tlo = l3_offset(t, tlen), l4, tl4;

	if (len < 14 || tlen < tlo + 40 || lo != tlo)
		return;
	memcpy(p, t, lo);
	if ((t[tlo] >> 4) == 4) {
		if (len < lo + 20)
			return;
		memcpy(p + lo + 12, t + tlo + 12, 8); /* addresses */
		l4 = lo + (uint32_t)(p[lo] & 0xf) * 4;
		tl4 = tlo + (uint32_t)(t[tlo] & 0xf) * 4;
	} else {
		if (len < lo + 40)
			return;
		memcpy(p + lo + 8, t + tlo + 8, 32);
		l4 = lo + 40;
		tl4 = tlo + 40;
	}
	if (l4 + 12 <= len && tl4 + 12 <= tlen)
		memcpy(p + l4, t + tl4, 12); /* ports, seq, ack (UDP: ports, len, sum) */
}

/* sel & 0x80 on the client (see the header): the frame continues the
 * response stream of the connection its (fixed-up) IPv4 addresses name. */
static void
in_order(struct side *c, uint8_t *p, uint32_t len, uint8_t sel)
{
	uint32_t lo = l3_offset(p, len), l4, lip, seq, ack;
	uint16_t lport, rport;
	uint64_t idx;
	struct sock *sk;

	if (len < lo + 20 || (p[lo] >> 4) != 4)
		return;
	l4 = lo + (uint32_t)(p[lo] & 0xf) * 4;
	if (p[lo + 9] != IPPROTO_TCP || len < l4 + 20)
		return;
	memcpy(&lip, p + lo + 16, 4);
	memcpy(&rport, p + l4, 2);
	memcpy(&lport, p + l4 + 2, 2);
	idx = sk_index_client(&c->wk.net.skt, lip, lport, rport);
	if (idx == SK_NONE || idx >= c->wk.net.skt.n_sk)
		return;
	sk = &c->wk.net.skt.sk[idx];
	if (sk->state != SK_ESTABLISHED)
		return;
	if (sk->inflight == 0 && sk->list == TL_KA) {
		c->wk.tcp.timer(&c->wk.net, (uint32_t)idx, TL_KA); /* the next request (as bound: TLS's too) */
		drain(c);                                       /* ...lost */
	}
	/* sel & 0x40: ahead of rcv_nxt, a gap before it (the out-of-order
	 * queue holds it until records at rcv_nxt fill the gap) */
	seq = rte_cpu_to_be_32(sk->rcv_nxt + ((sel & 0x40) ? 1 + (sel & 0x3fu) * 61 : 0));
	/* ...and its ACK a duplicate (snd_una): with a POST body in flight
	 * (pair 4), three make the sender recover, by its SACK scoreboard
	 * when the frame carries SACK blocks */
	ack = rte_cpu_to_be_32((sel & 0x40) ? sk->snd_una : sk->snd_nxt);
	memcpy(p + l4 + 4, &seq, 4);
	memcpy(p + l4 + 8, &ack, 4);
}

/* sel & 0x80 on the HTTPS pair's server: the frame continues the stream
 * of the connection its own IPv4 addresses and ports name, opened by a
 * SYN of the same input (there are no templates: nothing connects at
 * setup). seq and ack become the socket's rcv_nxt and snd_nxt, so its
 * payload is read as the client's next bytes: TLS records. */
static void
srv_in_order(struct side *srv, uint8_t *p, uint32_t len)
{
	uint32_t lo = l3_offset(p, len), l4, sip, dip, seq, ack;
	uint16_t sport, dport;
	uint64_t idx;
	const struct sock *sk;

	if (len < lo + 20 || (p[lo] >> 4) != 4)
		return;
	l4 = lo + (uint32_t)(p[lo] & 0xf) * 4;
	if (p[lo + 9] != IPPROTO_TCP || len < l4 + 20)
		return;
	memcpy(&sip, p + lo + 12, 4);
	memcpy(&dip, p + lo + 16, 4);
	memcpy(&sport, p + l4, 2);
	memcpy(&dport, p + l4 + 2, 2);
	idx = sk_index_server(&srv->wk.net.skt, dip, sip, sport, dport);
	if (idx == SK_NONE || idx >= srv->wk.net.skt.n_sk)
		return;
	sk = &srv->wk.net.skt.sk[idx];
	if (sk->state == SK_CLOSED)
		return;
	seq = rte_cpu_to_be_32(sk->rcv_nxt);
	ack = rte_cpu_to_be_32(sk->snd_nxt);
	memcpy(p + l4 + 4, &seq, 4);
	memcpy(p + l4 + 8, &ack, 4);
}

/* Before the HTTPS pair is restored: every connection the input left
 * open ends through the engine's close path (sk_closed, whose over_closed
 * hook frees the TLS state), since a restored socket table cannot hold
 * live SSL objects. Then OpenSSL's heap must be as at the snapshot. */
static void
tls_close_all(void)
{
	const struct side *srv = &sides[TLS_PAIR][1];
	int64_t heap;

	tls_inputs++;
	for (int i = 0; i < 2; i++) { /* this input's, counted from the snapshot's */
		unsigned c = i ? DP_C_TLS_HS_DONE : DP_C_TLS_HS;

		tls_hs_seen[i] += srv->wk.net.cnt.c[c] - srv->snap.wk.net.cnt.c[c];
	}
	for (int k = 0; k < 2; k++) {
		struct worker *wk = &sides[TLS_PAIR][k].wk;

		for (int l = TL_RT; l < TL__COUNT; l++)
			while (wk->tcp.tl[l].head != 0)
				sk_closed(&wk->net, &wk->net.skt.sk[wk->tcp.tl[l].head - 1]);
	}
	heap = tls_mem_live();
	if (heap != tls_heap0) {
		fprintf(stderr, "fuzz_rx: OpenSSL holds %lld bytes after the HTTPS pair's connections closed, %lld at the snapshot\n",
			(long long)heap, (long long)tls_heap0);
		abort();
	}
}

static void
tls_report(void)
{
	fprintf(stderr, "fuzz_rx: HTTPS pair: %llu inputs, TLS handshakes started %llu, completed %llu (server)\n",
		(unsigned long long)tls_inputs, (unsigned long long)tls_hs_seen[0],
		(unsigned long long)tls_hs_seen[1]);
}

static void
fix_checksums(uint8_t *p, uint32_t len)
{
	uint32_t lo = l3_offset(p, len);
	uint8_t *l3 = p + lo, *l4;
	uint32_t l4len;
	uint8_t proto;

	if (len < lo + 20)
		return;
	if ((l3[0] >> 4) == 4) {
		struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)l3;
		uint32_t ihl = rte_ipv4_hdr_len(ip), tot = rte_be_to_cpu_16(ip->total_length);

		if (ihl < 20 || lo + ihl > len)
			return;
		ip->hdr_checksum = 0;
		ip->hdr_checksum = rte_ipv4_cksum(ip);
		if (tot < ihl || lo + tot > len)
			return;
		l4 = l3 + ihl;
		l4len = tot - ihl;
		proto = ip->next_proto_id;
		if (proto == IPPROTO_TCP && l4len >= 20) {
			((struct rte_tcp_hdr *)l4)->cksum = 0;
			((struct rte_tcp_hdr *)l4)->cksum =
				(uint16_t)~__rte_raw_cksum_reduce(__rte_raw_cksum(
					l4, l4len, rte_ipv4_phdr_cksum(ip, 0)));
		} else if (proto == IPPROTO_UDP && l4len >= 8) {
			((struct rte_udp_hdr *)l4)->dgram_cksum = 0; /* "none" */
		} else if (proto == IPPROTO_ICMP && l4len >= 4) {
			l4[2] = l4[3] = 0;
			uint16_t c = (uint16_t)~rte_raw_cksum(l4, l4len);
			memcpy(l4 + 2, &c, 2);
		}
		return;
	}
	if (len < lo + 40)
		return;
	{
		struct rte_ipv6_hdr *ip6 = (struct rte_ipv6_hdr *)l3;
		uint16_t *sum;

		l4 = l3 + 40;
		l4len = rte_be_to_cpu_16(ip6->payload_len);
		if (lo + 40 + l4len > len)
			return;
		proto = ip6->proto;
		if (proto == IPPROTO_TCP && l4len >= 20)
			sum = &((struct rte_tcp_hdr *)l4)->cksum;
		else if (proto == IPPROTO_UDP && l4len >= 8)
			sum = &((struct rte_udp_hdr *)l4)->dgram_cksum;
		else if (proto == IPPROTO_ICMPV6 && l4len >= 4)
			sum = (uint16_t *)(l4 + 2);
		else
			return;
		*sum = 0;
		*sum = (uint16_t)~__rte_raw_cksum_reduce(
			__rte_raw_cksum(l4, l4len, rte_ipv6_phdr_cksum(ip6, 0)));
	}
}

/* ------------------------------------------------------------------ */

static void
die(const char *what)
{
	fprintf(stderr, "fuzz_rx: %s\n", what);
	exit(1);
}

static void
setup_side(struct side *s, const char *text, int is_client)
{
	struct worker_params wp = { 0 };
	char err[256];

	if (dp_config_parse(is_client ? "client.conf" : "server.conf", text, &s->cfg, err,
			    sizeof(err)) != 0)
		die(err);
	s->np.n_workers = 1;
	s->np.mac.addr_bytes[5] = (uint8_t)(is_client ? 2 : 1);
	s->np.gw_mac.addr_bytes[5] = (uint8_t)(is_client ? 1 : 2);
	s->np.gw_ok = 1;
	s->np.rx_cksum = 1;
	s->np.v6 = s->cfg.ports[0].local.family == 6;
	if (s->np.v6) {
		memcpy(s->np.local_ip6, s->cfg.ports[0].local.v6, 16);
		memcpy(s->np.gw_ip6, s->cfg.ports[0].gw.v6, 16);
		memcpy(s->np.srv_pfx, s->cfg.servers[0].start.v6, 12);
		memcpy(s->np.cli_pfx, s->cfg.clients[0].start.v6, 12);
	} else {
		s->np.local_ip = s->cfg.ports[0].local.v4;
		s->np.gw_ip = s->cfg.ports[0].gw.v4;
	}
	s->np.srv_ip_h = dp_ip_low32(&s->cfg.servers[0].start);
	s->np.n_srv = s->cfg.servers[0].num;
	s->np.cli_ip_h = dp_ip_low32(&s->cfg.clients[0].start);
	s->np.n_cli = s->cfg.clients[0].num;
	wp.cfg = &s->cfg;
	wp.shm = shm;
	wp.np = &s->np;
	wp.mp = mp;
	wp.id = (uint32_t)(s - &sides[0][0]);
	if (worker_setup(&s->wk, &wp, err, sizeof(err)) != 0)
		die(err);
	if (DP_PROTO_IS_TLS(s->cfg.protocol) && tls_part_init(&s->wk.tls, &s->wk.net, err, sizeof(err)) != 0)
		die(err);
	s->wk.launch.cps_w = 1000;
	s->wk.gen_seen = 0;
	s->wk.net.now = T0;
}

/* The setup must really connect, or the fuzzer only explores drops. */
static void
check_setup(void)
{
	if (FUZZ_RX_TLS &&
	    (sides[TLS_PAIR][0].wk.net.tls == NULL || sides[TLS_PAIR][1].wk.net.tls == NULL ||
	     sides[TLS_PAIR][0].wk.net.cnt.sk_cur != 0 || sides[TLS_PAIR][1].wk.net.cnt.sk_cur != 0)) {
		fprintf(stderr, "fuzz_rx: the HTTPS pair set up badly\n");
		exit(1);
	}
	for (int p = 0; p < N_PAIRS; p++) {
		const struct wcnt *c = &sides[p][0].wk.net.cnt, *s = &sides[p][1].wk.net.cnt;
		int udp = sides[p][0].wk.net.is_udp;
		uint64_t want_c = udp ? 0 : 4, want_s = udp ? 0 : 3;
		uint64_t got = udp ? c->c[DP_C_UDP_RX] : c->c[DP_C_HTTP_2XX];

		if (p == TLS_PAIR)
			continue;
		if (c->sk_cur != want_c || s->sk_cur != want_s || got != 3 || c->c[DP_C_BAD_RX] ||
		    s->c[DP_C_BAD_RX] || sides[p][0].n_tpl == 0 || sides[p][1].n_tpl == 0) {
			fprintf(stderr,
				"fuzz_rx: pair %d set up badly: client open %lu (want %lu), server open %lu (want %lu), answers %lu (want 3)\n",
				p, (unsigned long)c->sk_cur, (unsigned long)want_c,
				(unsigned long)s->sk_cur, (unsigned long)want_s, (unsigned long)got);
			exit(1);
		}
	}
}

/* FUZZ_RX_TRACE=1: each side's non-zero counters after each input, to
 * check what a seed reaches. */
static void
trace(void)
{
	for (int p = 0; p < N_PAIRS; p++)
		for (int k = 0; k < 2; k++) {
			const struct wcnt *st = &sides[p][k].wk.net.cnt;
			fprintf(stderr, "pair %d %s open %lu:", p, k ? "server" : "client",
				(unsigned long)st->sk_cur);
			for (unsigned i = 0; i < DP_C__COUNT; i++)
				if (st->c[i])
					fprintf(stderr, " %s=%lu", dp_counter_names[i], (unsigned long)st->c[i]);
			fprintf(stderr, "\n");
		}
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char *eal[] = { "fuzz_rx", "--no-huge", "--no-pci", "--no-shconf", "--no-telemetry", "--file-prefix=fuzz_rx",
			"-m", "64", "-l", "0", "--log-level=lib.*:error", NULL };

	(void)argc;
	(void)argv;
	if (tls_mem_init() != 0) /* before anything of OpenSSL allocates */
		die("OpenSSL allocated before tls_mem_init");
	if (rte_eal_init((int)RTE_DIM(eal) - 1, eal) < 0)
		die("rte_eal_init failed");
	pool_size = 2047;
	/* with a cache, the mbufs freed last are taken first and are still in
	 * the CPU's cache; without, the pool hands them round all 2047 (4 MB),
	 * each cold: resetting them was a tenth of the harness's own time.
	 * rte_mempool_avail_count() counts what the cache holds. */
	mp = rte_pktmbuf_pool_create("fuzz_rx", pool_size, 128, 0, RTE_MBUF_DEFAULT_BUF_SIZE,
				     SOCKET_ID_ANY);
	shm = aligned_alloc(64, sizeof(*shm));
	if (mp == NULL || shm == NULL)
		die("no memory for the pool or the stats");
	memset(shm, 0, sizeof(*shm));
	for (int p = 0; p < N_PAIRS; p++)
		for (int k = 0; k < 2; k++)
			setup_side(&sides[p][k], cfg_text[p][k], k == 0);
	for (int p = 0; p < N_PAIRS; p++)
		connect_pair(sides[p]);
	check_setup();
	for (int p = 0; p < N_PAIRS; p++)
		for (int k = 0; k < 2; k++) {
			drain(&sides[p][k]);
			check_side(&sides[p][k], k ? "server" : "client");
			if (worker_snap_take(&sides[p][k].snap, &sides[p][k].wk) != 0)
				die("no memory for the snapshots");
		}
	if (mbufs_home() != pool_size)
		die("mbufs held after the setup");
	tls_heap0 = tls_mem_live();
	if (FUZZ_RX_TLS)
		atexit(tls_report);
	tracing = getenv("FUZZ_RX_TRACE") != NULL;
	snap_check = getenv("FUZZ_RX_SNAP_CHECK") != NULL;
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t pairs_used = 0;

	while (size >= 4) {
		uint8_t flags = data[0], sel = data[1];
		uint32_t len = (uint32_t)data[2] | (uint32_t)data[3] << 8;
		struct side *pair = sides[(flags >> 5) % N_PAIRS];
		struct side *to = &pair[flags & 1 ? 0 : 1];
		struct rte_mbuf *m;
		uint8_t *p;

		data += 4;
		size -= 4;
		len = RTE_MIN(len, (uint32_t)size);
		len = RTE_MIN(len, (uint32_t)(RTE_MBUF_DEFAULT_BUF_SIZE - RTE_PKTMBUF_HEADROOM));
		pairs_used |= (uint8_t)(1u << ((flags >> 5) % N_PAIRS));
		m = rte_pktmbuf_alloc(mp);
		if (m == NULL)
			abort();
		p = (uint8_t *)rte_pktmbuf_append(m, (uint16_t)len);
		memcpy(p, data, len);
		data += len;
		size -= len;
		if ((flags & 0x04) && to->n_tpl) {
			/* in the stream-continuing mode, the low six bits pick the
			 * frame (the connection), whatever 0x40 says of the seq */
			uint8_t k = (uint8_t)(((sel & 0x80) ? sel & 0x3f : sel) % to->n_tpl);

			fixup(p, len, to->tpl[k], to->tpl_len[k]);
			if ((sel & 0x80) && (flags & 0x01) && ((flags >> 5) % N_PAIRS == 0 || (flags >> 5) % N_PAIRS == 4))
				in_order(to, p, len, sel);
		}
		if ((flags & 0x05) == 0x04 && (sel & 0x80) && pair == sides[TLS_PAIR])
			srv_in_order(to, p, len);
		if (flags & 0x08)
			fix_checksums(p, len);
		if (flags & 0x02)
			m->ol_flags = RTE_MBUF_F_RX_IP_CKSUM_GOOD | RTE_MBUF_F_RX_L4_CKSUM_GOOD;
		rx_packet(&to->wk.net, m);
		exchange(pair, 8);
		if (flags & 0x10) {
			if (sel == 0) {
				launch_one(&pair[0].wk);
				exchange(pair, 8);
			}
			for (int k = 0; k < 2; k++) {
				pair[k].wk.net.now_ms += (uint32_t)sel * 16;
				pair[k].wk.net.now_t += (uint32_t)sel * 16 * TL_PER_MS;
				pair[k].wk.net.now += (uint64_t)sel * 16 * pair[k].wk.net.tsc_per_ms;
				worker_tick(&pair[k].wk);
			}
			exchange(pair, 8);
		}
	}
	/* A pair the input did not touch is as saved, and was checked then. */
	for (int p = 0; p < N_PAIRS; p++)
		for (int k = 0; k < 2 && (pairs_used & (1u << p)); k++) {
			drain(&sides[p][k]);
			check_side(&sides[p][k], k ? "server" : "client");
		}
	if (tracing)
		trace();
	if (pairs_used & (1u << TLS_PAIR))
		tls_close_all(); /* after the trace: it shows what the input left open */
	if (mbufs_home() != pool_size) {
		fprintf(stderr, "mbuf leak: %u of %u in the pool, a stash or an out-of-order queue (pairs used 0x%x)\n",
			mbufs_home(), pool_size, pairs_used);
		abort();
	}
	for (int p = 0; p < N_PAIRS; p++)
		if (pairs_used & (1u << p)) {
			restore_side(&sides[p][0]);
			restore_side(&sides[p][1]);
		}
	return 0;
}
