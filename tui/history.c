/* SPDX-License-Identifier: BSD-3-Clause
 * Per-second series from the primary's history ring, so graphs are full
 * even when dperf-top attaches late. Entries hold cumulative counters:
 * a second's value is the difference between consecutive entries.
 */
#include <string.h>

#include "top.h"

static double
entry_value(const struct dp_history_entry *e, enum top_series which)
{
	if (which == SERIES_GBPS)
		return (double)(e->c[DP_C_BITS_RX] + e->c[DP_C_BITS_TX]);
	return (double)e->c[DP_C_SK_OPEN];
}

int
top_history(const struct dp_shm *s, enum top_series which, double *out, int max)
{
	uint64_t head = s->history_head, first, k;
	uint64_t hz = s->hdr.tsc_hz;
	struct dp_history_entry prev, cur;
	int have_prev = 0, n = 0;

	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	if (max <= 0 || head == 0)
		return 0;
	/* Skip the oldest slot: the primary may be overwriting it right now. */
	first = head > DP_HISTORY_LEN - 1 ? head - (DP_HISTORY_LEN - 1) : 0;
	if (head - first > (uint64_t)max + 1)
		first = head - ((uint64_t)max + 1);
	for (k = first; k < head; k++) {
		memcpy(&cur, &s->history[k % DP_HISTORY_LEN], sizeof(cur));
		if (cur.sec == 0) {
			have_prev = 0;
			continue;
		}
		if (have_prev && cur.tsc > prev.tsc && n < max) {
			double dt = hz ? (double)(cur.tsc - prev.tsc) / (double)hz
				       : (double)(cur.sec - prev.sec);
			double dv = entry_value(&cur, which) - entry_value(&prev, which);

			if (dv < 0 || dt <= 0)
				dv = 0, dt = 1;
			out[n++] = which == SERIES_GBPS ? dv / dt / 1e9 : dv / dt;
		}
		prev = cur;
		have_prev = 1;
	}
	return n;
}

double
top_spark_scale(const double *v, int n, int rows, int *out)
{
	double mx = 0;

	for (int i = 0; i < n; i++)
		if (v[i] > mx)
			mx = v[i];
	for (int i = 0; i < n; i++) {
		int e = mx > 0 ? (int)(v[i] / mx * rows * 8 + 0.5) : 0;

		if (e == 0 && v[i] > 0)
			e = 1; /* anything non-zero shows */
		out[i] = e < 0 ? 0 : e > rows * 8 ? rows * 8 : e;
	}
	return mx;
}
