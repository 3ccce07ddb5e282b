/* SPDX-License-Identifier: BSD-3-Clause
 * "set cps N", "set cc N", "set duration T|+T|-T" as a control request:
 * one reading for dperf-ctl's command line and its HTTP API.
 */
#ifndef DPERF_CTL_TARGET_H
#define DPERF_CTL_TARGET_H

#include <stddef.h>
#include <stdint.h>

/* what: "cps", "cc" or "duration"; val: a dperf number or time. Returns
 * 0 (op and value set) or -1 with the reason in err. */
int ctl_parse_target(const char *what, const char *val, uint32_t *op, int64_t *value, char *err,
		     size_t errlen);

#endif
