/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "ctl_msg.h"
#include "ctl_target.h"

int
ctl_parse_target(const char *what, const char *val, uint32_t *op, int64_t *value, char *err,
		 size_t errlen)
{
	uint64_t v;

	if (strcmp(what, "cps") == 0 || strcmp(what, "cc") == 0) {
		if (dp_parse_number(val, &v) != 0 || v > INT64_MAX) {
			snprintf(err, errlen, "bad number \"%s\" (expected e.g. 100, 2k, 1.5m)", val);
			return -1;
		}
		*op = what[1] == 'p' ? DP_OP_SET_CPS : DP_OP_SET_CC;
		*value = (int64_t)v;
		return 0;
	}
	if (strcmp(what, "duration") == 0) {
		const char *t = val;
		int sign = 0;

		if (*t == '+' || *t == '-')
			sign = *t++ == '+' ? 1 : -1;
		if (dp_parse_duration_us(t, &v) != 0 || v > INT64_MAX) {
			snprintf(err, errlen, "bad time \"%s\" (expected e.g. 60s, 2m, +5s, -10s)", val);
			return -1;
		}
		*op = sign ? DP_OP_ADD_DURATION : DP_OP_SET_DURATION;
		*value = sign < 0 ? -(int64_t)v : (int64_t)v;
		return 0;
	}
	snprintf(err, errlen, "unknown target \"%s\" (expected cps, cc or duration)", what);
	return -1;
}
