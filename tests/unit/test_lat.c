/* SPDX-License-Identifier: BSD-3-Clause
 * Unit tests of primary/net/lat.c: the engine's way into the latency
 * histograms, and lat_tls_handshake, the call the TLS room makes when a
 * handshake completes.
 */
// links: primary/net/lat.c
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "net/lat.h"

static struct dp_worker_lat lat;

/* Microseconds become TSC ticks at the worker's rate, into the TLS
 * handshake histogram only, and only when the worker has histograms. */
static void
test_tls_handshake(void **state)
{
	struct netw nw;

	(void)state;
	memset(&nw, 0, sizeof(nw));
	memset(&lat, 0, sizeof(lat));
	nw.lat = &lat;
	nw.tsc_per_ms = 2400000; /* 2.4 GHz */
	lat_tls_handshake(&nw, 1500);
	lat_tls_handshake(&nw, 250);
	assert_int_equal(lat.h[DP_LAT_TLS_HS].count, 2);
	assert_int_equal(lat.h[DP_LAT_TLS_HS].max, 1500ULL * 2400);
	assert_int_equal(lat.h[DP_LAT_TLS_HS].b[dp_hist_index(250ULL * 2400)], 1);
	for (int k = 0; k < DP_LAT__COUNT; k++)
		if (k != DP_LAT_TLS_HS)
			assert_int_equal(lat.h[k].count, 0);
	/* a worker without histograms (a test, a tool) records nothing */
	nw.lat = NULL;
	lat_tls_handshake(&nw, 10);
	assert_int_equal(lat.h[DP_LAT_TLS_HS].count, 2);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tls_handshake),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
