/* SPDX-License-Identifier: BSD-3-Clause
 * Socket table indexing: a connection's index is computed from its
 * addresses, so lookup needs no hash and a socket stores no tuple.
 *
 * client: idx = ((lport_i * n_cip) + cip_i) * n_sport + sport_i
 *         (consecutive launches use different addresses/ports, then the
 *          next local port)
 * server: idx = ((cport * n_cip_total) + cip_flat) * n_sport + sport_i
 */
#ifndef DPERF_SOCK_TABLE_H
#define DPERF_SOCK_TABLE_H

#include <rte_byteorder.h>

#include "state/worker.h"

#define SK_NONE UINT64_MAX

static inline uint64_t
sk_table_size(const struct worker *w)
{
	if (w->is_client)
		return (uint64_t)w->n_lport * w->n_cip * w->n_sport;
	return 65536ULL * w->n_cip_total * w->n_sport;
}

/* The table's size, once the worker's ranges are set; prepares the
 * divisions of sk_tuple. The caller keeps sizes below 2^32. */
static inline uint64_t
sk_table_init(struct worker *w)
{
	w->div_sport = rte_reciprocal_value(w->n_sport);
	w->div_cip = rte_reciprocal_value(w->is_client ? w->n_cip : w->n_cip_total);
	return sk_table_size(w);
}

static inline void
sk_tuple(const struct worker *w, uint64_t idx, struct tuple *t)
{
	uint32_t i = (uint32_t)idx, r = rte_reciprocal_divide(i, w->div_sport);
	uint32_t sport_i = i - r * w->n_sport, q = rte_reciprocal_divide(r, w->div_cip);

	if (w->is_client) {
		uint32_t cip_i = r - q * w->n_cip;
		uint32_t lport_i = q;

		t->lip = rte_cpu_to_be_32(w->cip_h + cip_i);
		t->rip = w->srv_ip;
		t->lport = rte_cpu_to_be_16((uint16_t)(w->lport_min + lport_i));
		t->rport = rte_cpu_to_be_16((uint16_t)(w->sport_min + sport_i));
	} else {
		uint32_t flat = r - q * w->n_cip_total;
		uint32_t cport = q;
		uint32_t k = 0;

		while (k + 1 < w->n_cr && flat >= w->cr[k + 1].base)
			k++;
		t->lip = w->srv_ip;
		t->rip = rte_cpu_to_be_32(w->cr[k].start_h + (flat - w->cr[k].base));
		t->lport = rte_cpu_to_be_16((uint16_t)(w->sport_min + sport_i));
		t->rport = rte_cpu_to_be_16((uint16_t)cport);
	}
}

/* Client launch cursor: the index and its tuple's parts step together,
 * so a launch needs no division (sk_tuple's order: listen port fastest,
 * then client address, then local port). walked counts the steps since
 * the start, so a full pass is the same length in either walk. */
static inline void
sk_cursor_rewind(struct worker *w)
{
	w->cursor = w->walked = 0;
	w->cur_sport = w->cur_cip = w->cur_lport = 0;
	w->hop_round = 0;
}

/* dperf's client_hop: each new connection changes the client address and
 * the local port together. The walk goes diagonally over (address, port):
 * in round r the j-th address takes port (j + r) mod n_lport, so n_lport
 * rounds visit every pair once (dperf's own walk, +65536 sockets a
 * launch, returns to its first socket after one pass over the
 * addresses). Listen ports still vary fastest. */
static inline void
sk_cursor_hop(struct worker *w)
{
	if (++w->cur_sport < w->n_sport) {
		w->cursor++;
		return;
	}
	w->cur_sport = 0;
	if (++w->cur_cip < w->n_cip) {
		if (++w->cur_lport == w->n_lport)
			w->cur_lport = 0;
	} else {
		w->cur_cip = 0;
		w->cur_lport = ++w->hop_round; /* < n_lport: the pass ends first */
	}
	w->cursor = ((uint64_t)w->cur_lport * w->n_cip + w->cur_cip) * w->n_sport;
}

static inline void
sk_cursor_step(struct worker *w)
{
	if (++w->walked == w->n_sk) {
		sk_cursor_rewind(w);
		return;
	}
	if (w->client_hop) {
		sk_cursor_hop(w);
		return;
	}
	w->cursor++;
	if (++w->cur_sport < w->n_sport)
		return;
	w->cur_sport = 0;
	if (++w->cur_cip < w->n_cip)
		return;
	w->cur_cip = 0;
	w->cur_lport++;
}

static inline void
sk_cursor_tuple(const struct worker *w, struct tuple *t)
{
	t->lip = rte_cpu_to_be_32(w->cip_h + w->cur_cip);
	t->rip = w->srv_ip;
	t->lport = rte_cpu_to_be_16((uint16_t)(w->lport_min + w->cur_lport));
	t->rport = rte_cpu_to_be_16((uint16_t)(w->sport_min + w->cur_sport));
}

/* change_dip: the next destination, in turn over the worker's share of
 * the list (indices dip_first, dip_first + dip_every, ...). */
static inline void
sk_cursor_dip(struct worker *w, struct tuple *t)
{
	t->rip = rte_cpu_to_be_32(w->dip_h + w->dip_next * w->dip_step);
	w->dip_next += w->dip_every;
	if (w->dip_next >= w->dip_num)
		w->dip_next = w->dip_first;
}

/* Client: the socket a packet to (our lip, our lport) from rport belongs to. */
static inline uint64_t
sk_index_client(const struct worker *w, uint32_t lip_be, uint16_t lport_be, uint16_t rport_be)
{
	uint32_t cip_i = rte_be_to_cpu_32(lip_be) - w->cip_h;
	uint32_t lport_i = (uint32_t)rte_be_to_cpu_16(lport_be) - w->lport_min;
	uint32_t sport_i = (uint32_t)rte_be_to_cpu_16(rport_be) - w->sport_min;

	if (cip_i >= w->n_cip || lport_i >= w->n_lport || sport_i >= w->n_sport)
		return SK_NONE;
	return ((uint64_t)lport_i * w->n_cip + cip_i) * w->n_sport + sport_i;
}

/* Server: the socket of a packet from (rip, rport) to our listen port lport. */
static inline uint64_t
sk_index_server(const struct worker *w, uint32_t rip_be, uint16_t rport_be, uint16_t lport_be)
{
	uint32_t rip = rte_be_to_cpu_32(rip_be);
	uint32_t sport_i = (uint32_t)rte_be_to_cpu_16(lport_be) - w->sport_min;

	if (sport_i >= w->n_sport)
		return SK_NONE;
	for (uint32_t k = 0; k < w->n_cr; k++) {
		uint32_t off = rip - w->cr[k].start_h;
		if (off < w->cr[k].num)
			return ((uint64_t)rte_be_to_cpu_16(rport_be) * w->n_cip_total +
				w->cr[k].base + off) * w->n_sport + sport_i;
	}
	return SK_NONE;
}

#endif
