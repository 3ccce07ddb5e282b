/* SPDX-License-Identifier: BSD-3-Clause
 * RTT estimate and RTO (tcp_rtt.h), in fixed point: SRTT x 8 and
 * RTTVAR x 4 make alpha = 1/8 and beta = 1/4 shifts without losing the
 * fractions between samples.
 */
#include "tcp/tcp_rtt.h"

static inline uint32_t
clamp(uint64_t v, const struct rtt_cfg *c)
{
	return v < c->rto_min ? c->rto_min : v > c->rto_max ? c->rto_max : (uint32_t)v;
}

void
rtt_init(struct rtt_est *r, const struct rtt_cfg *c)
{
	r->srtt8 = 0;
	r->rttvar4 = 0;
	r->rto = clamp(c->rto_init, c);
	r->timing = 0;
	r->backoff = 0;
	r->t0 = r->seq = 0;
}

void
rtt_sample(struct rtt_est *r, uint32_t rtt, const struct rtt_cfg *c)
{
	uint64_t rto;

	if (rtt == 0)
		rtt = 1; /* below the clock's resolution; 0 means no sample */
	if (rtt > c->rto_max)
		rtt = c->rto_max; /* and SRTT x 8 fits 32 bits */
	if (r->srtt8 == 0) {
		/* 2.2: SRTT = R, RTTVAR = R / 2 */
		r->srtt8 = rtt * 8;
		r->rttvar4 = rtt * 2;
	} else {
		/* 2.3: RTTVAR = 3/4 RTTVAR + 1/4 |SRTT - R'|, with the old
		 * SRTT; then SRTT = 7/8 SRTT + 1/8 R' */
		uint32_t err8 = r->srtt8 > rtt * 8 ? r->srtt8 - rtt * 8 : rtt * 8 - r->srtt8;

		r->rttvar4 = r->rttvar4 - r->rttvar4 / 4 + err8 / 8;
		r->srtt8 = r->srtt8 - r->srtt8 / 8 + rtt;
	}
	/* RTO = SRTT + max(G, K x RTTVAR) */
	rto = (uint64_t)r->srtt8 / 8 + (r->rttvar4 > c->g ? r->rttvar4 : c->g);
	r->rto = clamp(rto, c);
	r->backoff = 0;
}

int
rtt_ack(struct rtt_est *r, uint32_t ack, uint32_t now, const struct rtt_cfg *c)
{
	if (!r->timing || seq_lt(ack, r->seq))
		return 0;
	r->timing = 0;
	rtt_sample(r, now - r->t0, c);
	return 1;
}

void
rtt_backoff(struct rtt_est *r, const struct rtt_cfg *c)
{
	if (((uint64_t)r->rto << r->backoff) < c->rto_max)
		r->backoff++;
	r->timing = 0;
}

uint32_t
rtt_rto(const struct rtt_est *r, const struct rtt_cfg *c)
{
	uint64_t v = (uint64_t)r->rto << r->backoff;

	return v > c->rto_max ? c->rto_max : (uint32_t)v;
}
