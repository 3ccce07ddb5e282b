/* SPDX-License-Identifier: BSD-3-Clause
 * The text counter block (dp_counters_text, lib/stats_out.c) that the
 * primary's seconds and summary and dperf-ctl stats print: every name
 * starts where the names above it start, whatever its length
 * ("launchSkip 0              launchFull 0" was not); each value is the
 * difference of the two snapshots; the TLS counters are left out of a
 * plain run until one of them is not 0, and shown on a TLS run from the
 * start.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats_out.h"

static struct dp_shm *shm;
static uint64_t a[DP_C__COUNT], b[DP_C__COUNT];

static char *
block(const uint64_t *from)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	dp_counters_text(f, shm, from, b);
	fclose(f);
	return buf;
}

/* The offset of each name in each line; every line's k-th name at the
 * same offset as the first line's, and each name followed by its value. */
static void
assert_aligned(const char *text, int *n_pairs)
{
	int first[8], n_first = -1, pairs = 0;
	const char *line = text;

	while (*line) {
		const char *end = strchr(line, '\n'), *p = line;
		int k = 0;

		assert_non_null(end);
		while (p < end) {
			char name[32];
			uint64_t v;
			int used;

			while (p < end && *p == ' ')
				p++;
			if (p >= end)
				break;
			assert_int_equal(sscanf(p, "%31s %" SCNu64 "%n", name, &v, &used), 2);
			assert_true(k < 8);
			if (n_first < 0 || k >= n_first)
				first[k] = (int)(p - line);
			else
				assert_int_equal((int)(p - line), first[k]);
			p += used;
			k++;
			pairs++;
		}
		if (n_first < 0)
			n_first = k;
		else
			assert_true(k <= n_first);
		line = end + 1;
	}
	*n_pairs = pairs;
}

static uint64_t
value_of(const char *text, const char *name)
{
	char key[40];
	const char *p;

	snprintf(key, sizeof(key), "%s ", name);
	for (p = strstr(text, key); p && p != text && p[-1] != ' ' && p[-1] != '\n'; p = strstr(p + 1, key))
		;
	assert_non_null(p);
	return strtoull(p + strlen(key), NULL, 10);
}

static void
aligned_deltas_plain_run(void **state)
{
	int pairs;
	char *t;

	(void)state;
	memset(a, 0, sizeof(a));
	for (int c = 0; c < DP_C__COUNT; c++) {
		a[c] = DP_C_IS_TLS(c) ? 0 : 1000 + (uint64_t)c;
		b[c] = DP_C_IS_TLS(c) ? 0 : a[c] + (uint64_t)c * 1234567;
	}
	t = block(a);
	assert_aligned(t, &pairs);
	assert_int_equal(pairs, DP_C__COUNT - (DP_C_TLS_ERR - DP_C_TLS_HS + 1));
	assert_null(strstr(t, "tls"));
	assert_int_equal(value_of(t, "launchFull"), (uint64_t)DP_C_LAUNCH_FULL * 1234567);
	assert_int_equal(value_of(t, "pktRx"), 0);
	free(t);
	/* a TLS counter that is not 0 shows on a plain run: something is wrong */
	b[DP_C_TLS_ERR] = 3;
	t = block(NULL);
	assert_aligned(t, &pairs);
	assert_int_equal(pairs, DP_C__COUNT - (DP_C_TLS_ERR - DP_C_TLS_HS));
	assert_int_equal(value_of(t, "tlsErr"), 3);
	assert_null(strstr(t, "tlsHs"));
	assert_int_equal(value_of(t, "pktTx"), b[DP_C_PKT_TX]);
	free(t);
	b[DP_C_TLS_ERR] = 0;
}

static void
tls_run_shows_all(void **state)
{
	int pairs;
	char *t;

	(void)state;
	shm->hdr.features = DP_FEAT_TLS;
	t = block(a);
	assert_aligned(t, &pairs);
	assert_int_equal(pairs, DP_C__COUNT);
	assert_int_equal(value_of(t, "tlsFailInternal"), 0);
	free(t);
	shm->hdr.features = 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(aligned_deltas_plain_run),
		cmocka_unit_test(tls_run_shows_all),
	};
	int rc;

	shm = calloc(1, sizeof(*shm));
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	free(shm);
	return rc;
}
