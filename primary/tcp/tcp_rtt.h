/* SPDX-License-Identifier: BSD-3-Clause
 * The round-trip time estimate and retransmission timeout of a connection
 * (RFC 6298): SRTT and RTTVAR from one timed segment per round trip, the
 * RTO from them within [rto_min, rto_max], doubled on each timeout in a
 * row, and Karn's rule: a segment sent more than once gives no sample (its
 * ACK may be the original's or the copy's), and the backed-off RTO stays
 * until a segment sent once is acknowledged.
 *
 * Before the first sample the RTO is rto_init: dperf's retransmit_timeout
 * keeps its meaning as the initial RTO. Times are in the caller's unit
 * (microseconds in the engine), granularity g of its clock. The state is
 * 24 bytes, kept beside the sender's (tcp_send.h's struct sk_snd), never in
 * the 64-byte socket.
 */
#ifndef DPERF_TCP_RTT_H
#define DPERF_TCP_RTT_H

#include <stdint.h>

#include "tcp/tcp_seq.h"

struct rtt_cfg {
	uint32_t rto_init; /* RTO before any sample (retransmit_timeout) */
	uint32_t rto_min;
	uint32_t rto_max;  /* RFC 6298 2.5: at least 60 s */
	uint32_t g;        /* clock granularity G */
};

struct rtt_est {
	uint32_t srtt8;   /* SRTT x 8; 0: no sample yet */
	uint32_t rttvar4; /* RTTVAR x 4 (= K x RTTVAR, K = 4) */
	uint32_t rto;     /* from the estimate, before back-off */
	uint32_t t0;      /* when the timed segment left */
	uint32_t seq;     /* the timed segment's end: an ACK of it gives a sample */
	uint8_t timing;   /* a segment is being timed */
	uint8_t backoff;  /* timeouts in a row: the RTO doubles for each */
};

void rtt_init(struct rtt_est *r, const struct rtt_cfg *c);

/* New data ending at end left at now: timed when nothing is. Not for a
 * retransmission (rtt_resent). */
static inline void
rtt_sent(struct rtt_est *r, uint32_t end, uint32_t now)
{
	if (!r->timing) {
		r->timing = 1;
		r->seq = end;
		r->t0 = now;
	}
}

/* Something was sent again: whatever is timed may be among it (Karn). */
static inline void
rtt_resent(struct rtt_est *r)
{
	r->timing = 0;
}

/* A measurement R (RFC 6298 2.2, 2.3); ends any back-off. */
void rtt_sample(struct rtt_est *r, uint32_t rtt, const struct rtt_cfg *c);

/* An ACK of ack at now: a sample when it covers the timed segment.
 * Returns 1 when it gave one. */
int rtt_ack(struct rtt_est *r, uint32_t ack, uint32_t now, const struct rtt_cfg *c);

/* The timer fired (RFC 6298 5.5): the RTO doubles, up to rto_max; what
 * was timed is being resent. */
void rtt_backoff(struct rtt_est *r, const struct rtt_cfg *c);

/* The RTO to arm now, back-off included. */
uint32_t rtt_rto(const struct rtt_est *r, const struct rtt_cfg *c);

/* SRTT, or 0 before the first sample. */
static inline uint32_t
rtt_srtt(const struct rtt_est *r)
{
	return r->srtt8 / 8;
}

#endif
