/* SPDX-License-Identifier: BSD-3-Clause */
#include "net/lat.h"

void
lat_tls_handshake(struct netw *w, uint64_t us)
{
	lat_add(w, DP_LAT_TLS_HS, us * w->tsc_per_ms / 1000);
}
