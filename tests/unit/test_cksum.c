/* SPDX-License-Identifier: BSD-3-Clause
 * Unit tests of primary/net/cksum.h: dp_cksum gives the same folded sum as
 * DPDK's __rte_raw_cksum for every length up to 9000 bytes, at every
 * alignment, from any starting sum, on random, all-zero and all-ones data
 * (the wide AVX2 path from 256 bytes, when built with AVX2); so does
 * dp_copy_cksum, which copies the bytes as it sums them (issue 38: a TLS
 * segment's copy into its packet), writing nothing beside them.
 */
// links:
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "net/cksum.h"

#define MAXLEN 9000

static uint8_t buf[MAXLEN + 64];
static uint8_t dst[MAXLEN + 64];

static void
check_all(uint32_t start)
{
	for (uint32_t len = 0; len <= MAXLEN; len += len < 600 ? 1 : 7)
		for (uint32_t off = 0; off < 4; off++) {
			uint16_t want = __rte_raw_cksum_reduce(__rte_raw_cksum(buf + off, len, start));
			uint16_t got = __rte_raw_cksum_reduce(dp_cksum(buf + off, len, start));
			if (want != got)
				fail_msg("len %u offset %u start %#x: %#x, expected %#x", len, off, start,
					 got, want);
			/* the copy and its sum in one pass (issue 38): the same
			 * sum, the bytes copied, nothing beside them written */
			for (uint32_t doff = 0; doff < 2; doff++) {
				memset(dst, 0x5a, sizeof(dst));
				got = __rte_raw_cksum_reduce(dp_copy_cksum(dst + 8 + doff, buf + off, len, start));
				if (want != got)
					fail_msg("copy: len %u offset %u/%u start %#x: %#x, expected %#x", len, off,
						 doff, start, got, want);
				if (memcmp(dst + 8 + doff, buf + off, len) != 0)
					fail_msg("copy: len %u offset %u/%u: the bytes differ", len, off, doff);
				for (uint32_t i = 0; i < 8 + doff; i++)
					assert_int_equal(dst[i], 0x5a);
				for (uint32_t i = 8 + doff + len; i < sizeof(dst); i++)
					assert_int_equal(dst[i], 0x5a);
			}
		}
}

static void
test_random(void **state)
{
	(void)state;
	srand(7);
	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)rand();
	check_all(0);
	check_all(0x1234);
	check_all(0x3fffc); /* a pseudo-header's largest sum */
}

static void
test_zeros_and_ones(void **state)
{
	(void)state;
	memset(buf, 0, sizeof(buf));
	check_all(0);
	check_all(0xffff);
	memset(buf, 0xff, sizeof(buf));
	check_all(0);
	check_all(0xfffe);
}

/* A segment whose checksum field is right sums to 0xffff. */
static void
test_valid_segment_verifies(void **state)
{
	(void)state;
	for (uint32_t len = 200; len <= 1480; len += 20) {
		uint16_t c;

		for (uint32_t i = 0; i < len; i++)
			buf[i] = (uint8_t)(i * 31 + len);
		buf[16] = buf[17] = 0;
		c = (uint16_t)~__rte_raw_cksum_reduce(__rte_raw_cksum(buf, len, 0));
		memcpy(buf + 16, &c, 2);
		assert_int_equal(__rte_raw_cksum_reduce(dp_cksum(buf, len, 0)), 0xffff);
		buf[len / 2] ^= 0x10;
		assert_int_not_equal(__rte_raw_cksum_reduce(dp_cksum(buf, len, 0)), 0xffff);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random),
		cmocka_unit_test(test_zeros_and_ones),
		cmocka_unit_test(test_valid_segment_verifies),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
