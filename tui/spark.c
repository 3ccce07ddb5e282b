/* SPDX-License-Identifier: BSD-3-Clause
 * Graph scaling for the per-second series of the primary's history
 * (dp_history_series in figures.h).
 */
#include "top.h"

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
