/* SPDX-License-Identifier: BSD-3-Clause
 * dperf's number and time syntax, for the config file and the tools.
 */
#ifndef DPERF_NUMBERS_H
#define DPERF_NUMBERS_H

#include <stdint.h>

/* dperf's number syntax: "100", "2k", "1.5m", "1g" (decimal multipliers
 * 1e3, 1e6, 1e9; case-insensitive). Returns 0 or -1. */
int dp_parse_number(const char *s, uint64_t *out);

/* dperf's time syntax: "100" (seconds), "100s", "3.5m", "2h", "1.5d",
 * "10ms", "100us". Result in microseconds. Returns 0 or -1. */
int dp_parse_duration_us(const char *s, uint64_t *out);

/* A wait of whole seconds that the environment variable name may shorten
 * (1 to dflt; anything else, or unset: dflt). For the tests that would
 * otherwise sit out a whole watchdog (test_secondary_stuck). */
unsigned int dp_env_seconds(const char *name, unsigned int dflt);

#endif
