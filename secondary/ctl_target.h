/* SPDX-License-Identifier: BSD-3-Clause
 * "set cps N", "set cc N", "set duration T|+T|-T", "set weight KIND N" as
 * a control request: one reading for dperf-ctl's command line and its
 * HTTP API (whose PUT /v1/target body is read here too).
 */
#ifndef DPERF_CTL_TARGET_H
#define DPERF_CTL_TARGET_H

#include <stddef.h>
#include <stdint.h>

/* what: "cps", "cc" or "duration"; val: a dperf number or time. Returns
 * 0 (op and value set) or -1 with the reason in err. */
int ctl_parse_target(const char *what, const char *val, uint32_t *op, int64_t *value, char *err,
		     size_t errlen);

/* "set weight KIND N": kind a name that fits a request (its rules are the
 * primary's: it knows the kinds), val a dperf number, a leading '-' kept
 * (the primary refuses it, saying the range). Returns 0 (op, value and
 * kind_out, of kl >= DP_CTL_KIND_LEN bytes, set) or -1 with err. */
int ctl_parse_weight(const char *kind, const char *val, uint32_t *op, int64_t *value, char *kind_out,
		     size_t kl, char *err, size_t errlen);

/* The body of PUT /v1/target: one member, {"cps": N}, {"cc": "2k"},
 * {"duration": "+30s"} or {"weight": {"KIND": N}}; a value is a JSON
 * number or a string without escapes (a dperf number or time has none).
 * Returns 0 (op, value, and for a weight kind_out, else "") or -1 with
 * the reason in why. */
int ctl_parse_target_json(const char *body, uint32_t *op, int64_t *value, char *kind_out, size_t kl,
			  char *why, size_t n);

#endif
