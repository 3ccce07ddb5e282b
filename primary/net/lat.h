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

/* A latency of kind k of a connection of traffic kind `kind` (sock.h's
 * sk->kind): the total, and with kinds (nw->klat) the kind's row too,
 * so that the kinds' histograms add up to the total. k is one of
 * dp_lat_klat's (a constant: the row is folded; another only the total). */
static inline void
lat_add_kind(struct netw *nw, enum dp_lat_kind k, uint32_t kind, uint64_t ticks)
{
	int j = dp_lat_klat(k);

	if (nw->lat == NULL)
		return;
	dp_hist_add(&nw->lat->h[k], ticks);
	if (__builtin_expect(nw->klat != NULL, 0) && j >= 0 && kind < DP_MAX_KINDS)
		dp_hist_add(&nw->klat->h[kind][j], ticks);
}

/* A TLS handshake that completed: us microseconds from the SYN sent (a
 * client) or received (a server) to the Finished that completed it. For
 * the TLS room's call: sk->t_start holds that SYN's TSC on both sides
 * (sk_opened) until a client sends its first request, so us is
 * (nw->now - sk->t_start) * 1000 / nw->tsc_per_ms. Recorded once per
 * handshake, full or resumed; kind: the connection's traffic kind (a
 * client's sk->kind; nw->klat is NULL on a server). */
void lat_tls_handshake(struct netw *nw, uint32_t kind, uint64_t us);

#endif
