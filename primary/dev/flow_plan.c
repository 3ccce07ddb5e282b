/* SPDX-License-Identifier: BSD-3-Clause
 * flow_isolate's rules (see flow_plan.h).
 */
#include <string.h>

#include "dev/flow_plan.h"
#include "state/netport.h"

struct plan {
	struct flow_rule *out;
	uint32_t n, max;
};

static void
plan_put(struct plan *p, const struct flow_rule *r)
{
	if (p->n < p->max)
		p->out[p->n++] = *r;
}

static int
ip_eq(const struct dp_ip *a, const struct dp_ip *b)
{
	return a->family == b->family
	       && (a->family == 4 ? a->v4 == b->v4 : memcmp(a->v6, b->v6, 16) == 0);
}

/* r's address: the k-th of range g, as a prefix covering 2^bits of them
 * from there (only an address's last 32 bits vary in a range). */
static void
rule_addr(struct flow_rule *r, const struct dp_range *g, uint32_t k, uint32_t bits)
{
	struct dp_ip a = dp_range_addr(g, k);

	r->v6 = a.family == 6;
	memcpy(r->addr, r->v6 ? a.v6 : (const uint8_t *)&a.v4, r->v6 ? 16 : 4);
	r->plen = (uint8_t)((r->v6 ? 128 : 32) - bits);
}

/* A range as the fewest aligned blocks that cover it exactly. */
static void
put_range(struct plan *p, struct flow_rule r, const struct dp_range *g)
{
	struct dp_ip first = dp_range_addr(g, 0);
	uint32_t lo = dp_ip_low32(&first), k = 0;

	while (k < g->num) {
		uint32_t bits = 0;

		while (bits < 31 && ((lo + k) & ((2u << bits) - 1)) == 0 && k + (2u << bits) <= g->num)
			bits++;
		rule_addr(&r, g, k, bits);
		plan_put(p, &r);
		k += 1u << bits;
	}
}

/* The further server pools (issue 37, one port): a server's server lines
 * after the first, a client's kinds' own pools; *n of them. */
static uint32_t
pools(const struct dp_config *cfg, const struct dp_range *out[])
{
	uint32_t n = 0;

	if (cfg->n_ports != 1)
		return 0;
	for (uint32_t j = 1; cfg->mode == DP_MODE_SERVER && j < cfg->n_servers; j++)
		out[n++] = &cfg->servers[j];
	for (uint32_t k = 0; cfg->mode == DP_MODE_CLIENT && k < cfg->n_kinds; k++) {
		const struct dp_range *g = &cfg->kinds[k].srv;
		uint32_t j = 0;

		while (j < n && !ip_eq(&out[j]->start, &g->start))
			j++;
		/* a kind's pool is the server line's, or another kind's, or
		 * none of their addresses (config_mix.c) */
		if (cfg->kinds[k].has_srv && j == n && !ip_eq(&g->start, &cfg->servers[0].start))
			out[n++] = g;
	}
	return n;
}

uint32_t
flow_plan(const struct dp_config *cfg, uint32_t i, uint32_t nq, struct flow_rule *out,
	  uint32_t max)
{
	const struct dp_port_cfg *pc = &cfg->ports[i];
	const struct dp_range *own = cfg->mode == DP_MODE_SERVER ? &cfg->servers[i] : &cfg->clients[i];
	const struct dp_range local = { .start = pc->local, .num = 1 };
	struct plan p = { out, 0, max };
	struct flow_rule r;
	int covered = 0;
	const struct dp_range *pool[DP_MAX_KINDS + DP_MAX_PORTS];
	uint32_t n_pools = pools(cfg, pool);

	memset(&r, 0, sizeof(r));
	if (pc->local.family == 4) {
		r.arp = 1;
		r.what = "ARP";
		plan_put(&p, &r);
		r.arp = 0;
	} else { /* solicitations go to ff02::1:ffXX:XXXX */
		static const uint8_t sn[16] = { 0xff, 0x02, [11] = 1, [12] = 0xff };

		r.v6 = 1;
		memcpy(r.addr, sn, 16);
		r.plen = 104;
		r.what = "neighbour solicitations";
		plan_put(&p, &r);
	}
	if (cfg->n_vxlans != 0) { /* outer: to each queue's local VTEP */
		r.what = "a local VTEP";
		for (uint32_t q = 0; q < nq; q++) {
			r.queue = (uint16_t)q;
			rule_addr(&r, &cfg->vxlans[i].vtep_local, q, 0);
			plan_put(&p, &r);
		}
		for (uint32_t q = 0; q < cfg->vxlans[i].vtep_local.num; q++) {
			struct dp_ip a = dp_range_addr(&cfg->vxlans[i].vtep_local, q);
			covered |= ip_eq(&a, &pc->local);
		}
	} else if (nq == 1 || cfg->rss) { /* the whole range: one queue, or the device's hash */
		r.rss = nq > 1;
		r.queue = 0;
		r.what = cfg->mode == DP_MODE_SERVER ? "the server range" : "the client range";
		put_range(&p, r, own);
		for (uint32_t j = 0; cfg->mode == DP_MODE_SERVER && j < n_pools; j++)
			put_range(&p, r, pool[j]);
		r.rss = 0;
		for (uint32_t k = 0; k < own->num; k++) {
			struct dp_ip a = dp_range_addr(own, k);
			covered |= ip_eq(&a, &pc->local);
		}
	} else if (cfg->mode == DP_MODE_SERVER) { /* server address q is worker q's */
		r.what = "a server address";
		for (uint32_t q = 0; q < nq; q++) {
			struct dp_ip a = dp_range_addr(&cfg->servers[i], q);

			r.queue = (uint16_t)q;
			rule_addr(&r, &cfg->servers[i], q, 0);
			plan_put(&p, &r);
			covered |= ip_eq(&a, &pc->local);
			for (uint32_t j = 0; j < n_pools; j++) {
				rule_addr(&r, pool[j], q, 0);
				plan_put(&p, &r);
			}
		}
	} else { /* a client's worker q talks to server address q (dperf's rule) */
		r.what = "the replies of a server address";
		r.match_src = 1;
		for (uint32_t q = 0; q < nq; q++) {
			r.queue = (uint16_t)q;
			rule_addr(&r, &cfg->servers[i], q, 0);
			plan_put(&p, &r);
			for (uint32_t j = 0; j < n_pools; j++) {
				rule_addr(&r, pool[j], q, 0);
				plan_put(&p, &r);
			}
		}
		r.match_src = 0;
	}
	if (!covered) { /* the port's own address: ping, the gateway's answers */
		r.queue = 0;
		r.what = "the port's address";
		rule_addr(&r, &local, 0, 0);
		plan_put(&p, &r);
	}
	return p.n;
}
