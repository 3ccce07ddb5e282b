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
static struct dp_worker_klat klat;

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
	lat_tls_handshake(&nw, 0, 1500);
	lat_tls_handshake(&nw, 0, 250);
	assert_int_equal(lat.h[DP_LAT_TLS_HS].count, 2);
	assert_int_equal(lat.h[DP_LAT_TLS_HS].max, 1500ULL * 2400);
	assert_int_equal(lat.h[DP_LAT_TLS_HS].b[dp_hist_index(250ULL * 2400)], 1);
	for (int k = 0; k < DP_LAT__COUNT; k++)
		if (k != DP_LAT_TLS_HS)
			assert_int_equal(lat.h[k].count, 0);
	/* a worker without histograms (a test, a tool) records nothing */
	nw.lat = NULL;
	lat_tls_handshake(&nw, 0, 10);
	assert_int_equal(lat.h[DP_LAT_TLS_HS].count, 2);
}

/* With traffic kinds (nw->klat), a sample goes to its total and to its
 * connection's kind's row of the same latency, nothing else: the kinds'
 * histograms add up to the total, bucket by bucket; without kinds only
 * the total. */
static void
test_kind(void **state)
{
	static const enum dp_lat_kind per_kind[] = { DP_LAT_CONNECT, DP_LAT_FIRST_BYTE, DP_LAT_RESPONSE,
						     DP_LAT_TLS_HS };
	struct netw nw;
	struct dp_hist sum;

	(void)state;
	memset(&nw, 0, sizeof(nw));
	memset(&lat, 0, sizeof(lat));
	memset(&klat, 0, sizeof(klat));
	nw.lat = &lat;
	nw.klat = &klat;
	nw.tsc_per_ms = 1000000;
	for (uint64_t i = 0; i < 3000; i++) {
		enum dp_lat_kind k = per_kind[i % 4];

		if (k == DP_LAT_TLS_HS)
			lat_tls_handshake(&nw, (uint32_t)(i % 3), 100 + i);
		else
			lat_add_kind(&nw, k, (uint32_t)(i % 3), 1000 + i * 37 % 100000);
	}
	for (size_t x = 0; x < 4; x++) {
		int j = dp_lat_klat(per_kind[x]);

		assert_true(j >= 0 && j < DP_KLAT__COUNT);
		memset(&sum, 0, sizeof(sum));
		for (uint32_t kind = 0; kind < DP_MAX_KINDS; kind++) {
			assert_true(kind < 3 || klat.h[kind][j].count == 0);
			dp_hist_merge(&sum, &klat.h[kind][j]);
		}
		assert_int_equal(sum.count, 750);
		assert_int_equal(sum.count, lat.h[per_kind[x]].count);
		assert_int_equal(sum.max, lat.h[per_kind[x]].max);
		assert_memory_equal(sum.b, lat.h[per_kind[x]].b, sizeof(sum.b));
		assert_int_equal(klat.h[0][j].count, 250); /* i % 4 fixed, i % 3 even */
	}
	assert_int_equal(dp_lat_klat(DP_LAT_SERVER), -1);
	assert_int_equal(dp_lat_klat(DP_LAT_SRTT), -1);
	/* without kinds: the total only */
	nw.klat = NULL;
	lat_add_kind(&nw, DP_LAT_RESPONSE, 1, 5);
	assert_int_equal(lat.h[DP_LAT_RESPONSE].count, 751);
	assert_int_equal(klat.h[1][DP_KLAT_RESPONSE].count, 250);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tls_handshake),
		cmocka_unit_test(test_kind),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
