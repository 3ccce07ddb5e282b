/* SPDX-License-Identifier: BSD-3-Clause */
#include "net/lat.h"

void
lat_tls_handshake(struct netw *nw, uint32_t kind, uint64_t us)
{
	lat_add_kind(nw, DP_LAT_TLS_HS, kind, us * nw->tsc_per_ms / 1000);
}
