/* SPDX-License-Identifier: BSD-3-Clause
 * Sequence-number arithmetic (RFC 9293 3.4: modulo 2^32) and a range of
 * sequence numbers, shared by the pure TCP modules (the out-of-order
 * queue, SACK, RTT) and the state machines; no DPDK here, so the pure
 * modules' unit tests need none.
 */
#ifndef DPERF_TCP_SEQ_H
#define DPERF_TCP_SEQ_H

#include <stdint.h>

static inline int seq_lt(uint32_t a, uint32_t b) { return (int32_t)(a - b) < 0; }
static inline int seq_le(uint32_t a, uint32_t b) { return (int32_t)(a - b) <= 0; }
static inline int seq_gt(uint32_t a, uint32_t b) { return (int32_t)(a - b) > 0; }
static inline int seq_ge(uint32_t a, uint32_t b) { return (int32_t)(a - b) >= 0; }

/* Bytes [start, end) of a stream: a SACK block (RFC 2018 3: the left edge
 * is the first byte, the right edge the one after the last). */
struct sack_block {
	uint32_t start;
	uint32_t end;
};

#endif
