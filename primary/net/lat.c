/* SPDX-License-Identifier: BSD-3-Clause */
#include "net/lat.h"

void
lat_tls_handshake(struct netw *nw, uint64_t us)
{
	lat_add(nw, DP_LAT_TLS_HS, us * nw->tsc_per_ms / 1000);
}
