/* SPDX-License-Identifier: BSD-3-Clause
 * Recording the worker's latency histograms (struct dp_worker_lat,
 * common/shm.h; the kinds: enum dp_lat_kind): the engine's one way in,
 * nothing recorded when the worker has no histograms (nw->lat NULL: tests,
 * tools). The histograms count TSC ticks; callers that time in other
 * units convert here.
 */
#ifndef DPERF_LAT_H
#define DPERF_LAT_H

#include <stdint.h>

#include "hist.h"
#include "net/netw.h"

/* A latency of kind k, in TSC ticks. */
static inline void
lat_add(struct netw *nw, enum dp_lat_kind k, uint64_t ticks)
{
	if (nw->lat)
		dp_hist_add(&nw->lat->h[k], ticks);
}

/* A TLS handshake that completed: us microseconds from the SYN sent (a
 * client) or received (a server) to the Finished that completed it. For
 * the TLS room's call: sk->t_start holds that SYN's TSC on both sides
 * (sk_opened) until a client sends its first request, so us is
 * (nw->now - sk->t_start) * 1000 / nw->tsc_per_ms. Recorded once per
 * handshake, full or resumed. */
void lat_tls_handshake(struct netw *nw, uint64_t us);

#endif
