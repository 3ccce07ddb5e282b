/* SPDX-License-Identifier: BSD-3-Clause
 * Socket table indexing: a connection's index is computed from its
 * addresses, so lookup needs no hash and a socket stores no tuple.
 *
 * client: idx = ((lport_i * n_cip) + cip_i) * n_srvport + srvport_i
 *         (consecutive launches use different addresses/ports, then the
 *          next local port)
 * server: idx = (((cport * n_cip_total) + cip_flat) * n_sa + sa_i) * n_srvport + srvport_i
 *
 * Server pools (issue 37: a client kind's own server addresses): a client
 * socket's server address is its kind's (kind_srv), a tuple's other parts
 * are the index's as before, so a client's tuples are as many with pools
 * as without. A server worker answers address q of each pool (sa[]): the
 * pool is a dimension of its index (n_sa, 1 without pools), so tuples are
 * unique per server address.
 */
#ifndef DPERF_SOCK_TABLE_H
#define DPERF_SOCK_TABLE_H

#include <stdint.h>

#include <rte_branch_prediction.h>
#include <rte_byteorder.h>
#include <rte_reciprocal.h>

#include "config.h"
#include "state/sock.h"

#define SK_NONE UINT64_MAX

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

/* A worker's sockets and the address ranges their indices are made of. */
struct sk_table {
	struct sock *sk;
	uint64_t n_sk;
	uint8_t client;      /* the client's layout (else the server's) */
	uint32_t srv_ip;     /* network order: client: its server; server: own */
	/* client: kind k's server (network order), when a kind has its own pool */
	uint32_t kind_srv[DP_MAX_KINDS];
	uint8_t kind_pools;
	/* server: its addresses, one per pool, network order (sa[0] = srv_ip) */
	uint32_t sa[DP_MAX_PORTS];
	uint32_t n_sa;
	uint32_t cip_h;      /* client mode: first client address, host order */
	uint32_t n_cip;
	uint32_t lport_min, n_lport;
	uint32_t srvport_min, n_srvport; /* the server's listen ports */
	struct client_range cr[DP_MAX_CLIENT_RANGES]; /* server mode: accepted clients */
	uint32_t n_cr;
	uint32_t n_cip_total;
	/* sk_tuple divides by these with a multiply and shifts (no DIV) */
	struct rte_reciprocal div_srvport;
	struct rte_reciprocal div_cip; /* n_cip (client) or n_cip_total (server) */
	struct rte_reciprocal div_sa;  /* server: n_sa */
};

/* A client's launch cursor over its table, and change_dip's rotation. */
struct sk_cursor {
	uint64_t cursor;     /* next socket index to try; its tuple's parts: */
	uint32_t cur_srvport, cur_cip, cur_lport;
	uint64_t walked;     /* steps since the cursor's start */
	uint32_t hop_round;  /* client_hop: the diagonal being walked */
	uint8_t client_hop;
	/* change_dip: this worker floods to dip_h + (dip_first + k * dip_every) * dip_step */
	uint32_t dip_h, dip_step, dip_num, dip_first, dip_every, dip_next;
};

static inline uint64_t
sk_table_size(const struct sk_table *tb)
{
	if (tb->client)
		return (uint64_t)tb->n_lport * tb->n_cip * tb->n_srvport;
	return 65536ULL * tb->n_cip_total * tb->n_sa * tb->n_srvport;
}

/* The table's size, once the worker's ranges are set; prepares the
 * divisions of sk_tuple. The caller keeps sizes below 2^32. */
static inline uint64_t
sk_table_init(struct sk_table *tb)
{
	tb->div_srvport = rte_reciprocal_value(tb->n_srvport);
	tb->div_cip = rte_reciprocal_value(tb->client ? tb->n_cip : tb->n_cip_total);
	tb->div_sa = rte_reciprocal_value(tb->n_sa ? tb->n_sa : 1);
	return sk_table_size(tb);
}

static inline void
sk_tuple(const struct sk_table *tb, uint64_t idx, struct tuple *t)
{
	uint32_t i = (uint32_t)idx, r = rte_reciprocal_divide(i, tb->div_srvport);
	uint32_t srvport_i = i - r * tb->n_srvport, q = rte_reciprocal_divide(r, tb->div_cip);

	if (tb->client) {
		uint32_t cip_i = r - q * tb->n_cip;
		uint32_t lport_i = q;

		t->lip = rte_cpu_to_be_32(tb->cip_h + cip_i);
		t->rip = likely(!tb->kind_pools) ? tb->srv_ip : tb->kind_srv[tb->sk[idx].kind];
		t->lport = rte_cpu_to_be_16((uint16_t)(tb->lport_min + lport_i));
		t->rport = rte_cpu_to_be_16((uint16_t)(tb->srvport_min + srvport_i));
	} else {
		uint32_t sa_i = 0, flat, cport, k = 0;

		if (unlikely(tb->n_sa > 1)) { /* the pool, between the port and the client */
			uint32_t r2 = rte_reciprocal_divide(r, tb->div_sa);

			sa_i = r - r2 * tb->n_sa;
			r = r2;
			q = rte_reciprocal_divide(r, tb->div_cip);
		}
		flat = r - q * tb->n_cip_total;
		cport = q;
		while (k + 1 < tb->n_cr && flat >= tb->cr[k + 1].base)
			k++;
		t->lip = tb->sa[sa_i];
		t->rip = rte_cpu_to_be_32(tb->cr[k].start_h + (flat - tb->cr[k].base));
		t->lport = rte_cpu_to_be_16((uint16_t)(tb->srvport_min + srvport_i));
		t->rport = rte_cpu_to_be_16((uint16_t)cport);
	}
}

/* Client launch cursor: the index and its tuple's parts step together,
 * so a launch needs no division (sk_tuple's order: listen port fastest,
 * then client address, then local port). walked counts the steps since
 * the start, so a full pass is the same length in either walk. */
static inline void
sk_cursor_rewind(struct sk_cursor *c)
{
	c->cursor = c->walked = 0;
	c->cur_srvport = c->cur_cip = c->cur_lport = 0;
	c->hop_round = 0;
}

/* dperf's client_hop: each new connection changes the client address and
 * the local port together. The walk goes diagonally over (address, port):
 * in round r the j-th address takes port (j + r) mod n_lport, so n_lport
 * rounds visit every pair once (dperf's own walk, +65536 sockets a
 * launch, returns to its first socket after one pass over the
 * addresses). Listen ports still vary fastest. */
static inline void
sk_cursor_hop(struct sk_cursor *c, const struct sk_table *tb)
{
	if (++c->cur_srvport < tb->n_srvport) {
		c->cursor++;
		return;
	}
	c->cur_srvport = 0;
	if (++c->cur_cip < tb->n_cip) {
		if (++c->cur_lport == tb->n_lport)
			c->cur_lport = 0;
	} else {
		c->cur_cip = 0;
		c->cur_lport = ++c->hop_round; /* < n_lport: the pass ends first */
	}
	c->cursor = ((uint64_t)c->cur_lport * tb->n_cip + c->cur_cip) * tb->n_srvport;
}

static inline void
sk_cursor_step(struct sk_cursor *c, const struct sk_table *tb)
{
	if (++c->walked == tb->n_sk) {
		sk_cursor_rewind(c);
		return;
	}
	if (c->client_hop) {
		sk_cursor_hop(c, tb);
		return;
	}
	c->cursor++;
	if (++c->cur_srvport < tb->n_srvport)
		return;
	c->cur_srvport = 0;
	if (++c->cur_cip < tb->n_cip)
		return;
	c->cur_cip = 0;
	c->cur_lport++;
}

static inline void
sk_cursor_tuple(const struct sk_cursor *c, const struct sk_table *tb, struct tuple *t)
{
	t->lip = rte_cpu_to_be_32(tb->cip_h + c->cur_cip);
	t->rip = tb->srv_ip;
	t->lport = rte_cpu_to_be_16((uint16_t)(tb->lport_min + c->cur_lport));
	t->rport = rte_cpu_to_be_16((uint16_t)(tb->srvport_min + c->cur_srvport));
}

/* change_dip: the next destination, in turn over the worker's share of
 * the list (indices dip_first, dip_first + dip_every, ...). */
static inline void
sk_cursor_dip(struct sk_cursor *c, struct tuple *t)
{
	t->rip = rte_cpu_to_be_32(c->dip_h + c->dip_next * c->dip_step);
	c->dip_next += c->dip_every;
	if (c->dip_next >= c->dip_num)
		c->dip_next = c->dip_first;
}

/* Client: the socket a packet to (our lip, our lport) from rport belongs to. */
static inline uint64_t
sk_index_client(const struct sk_table *tb, uint32_t lip_be, uint16_t lport_be, uint16_t rport_be)
{
	uint32_t cip_i = rte_be_to_cpu_32(lip_be) - tb->cip_h;
	uint32_t lport_i = (uint32_t)rte_be_to_cpu_16(lport_be) - tb->lport_min;
	uint32_t srvport_i = (uint32_t)rte_be_to_cpu_16(rport_be) - tb->srvport_min;

	if (cip_i >= tb->n_cip || lport_i >= tb->n_lport || srvport_i >= tb->n_srvport)
		return SK_NONE;
	return ((uint64_t)lport_i * tb->n_cip + cip_i) * tb->n_srvport + srvport_i;
}

/* Server: the socket of a packet from (rip, rport) to our address lip and
 * listen port lport; SK_NONE when lip is none of this worker's. */
static inline uint64_t
sk_index_server(const struct sk_table *tb, uint32_t lip_be, uint32_t rip_be, uint16_t rport_be,
		uint16_t lport_be)
{
	uint32_t rip = rte_be_to_cpu_32(rip_be);
	uint32_t srvport_i = (uint32_t)rte_be_to_cpu_16(lport_be) - tb->srvport_min;
	uint32_t sa_i = 0;

	if (srvport_i >= tb->n_srvport)
		return SK_NONE;
	while (lip_be != tb->sa[sa_i])
		if (++sa_i == tb->n_sa)
			return SK_NONE;
	for (uint32_t k = 0; k < tb->n_cr; k++) {
		uint32_t off = rip - tb->cr[k].start_h;
		if (off < tb->cr[k].num)
			return (((uint64_t)rte_be_to_cpu_16(rport_be) * tb->n_cip_total +
				 tb->cr[k].base + off) * tb->n_sa + sa_i) * tb->n_srvport + srvport_i;
	}
	return SK_NONE;
}

/* Client: the server address a socket of kind k talks to. */
static inline uint32_t
sk_srv_ip(const struct sk_table *tb, const struct sock *sk)
{
	return likely(!tb->kind_pools) ? tb->srv_ip : tb->kind_srv[sk->kind];
}

#endif
