/* SPDX-License-Identifier: BSD-3-Clause
 * The rules a parsed configuration must also meet that need the engine's
 * knowledge: the limits of what cores and tuples sustain (the same
 * function dperf-ctl's set cps / set cc are judged by), the messages
 * fitting one segment, IPv6 client prefixes. Checked before EAL starts,
 * by "dperf -t" as by a real start, with FILE:LINE.
 */
#ifndef DPERF_CONFIG_RULES_H
#define DPERF_CONFIG_RULES_H

#include <stddef.h>

#include "config.h"

/* Returns 0, or -1 with one line "FILE:LINE: keyword: reason" in err. */
int config_rules_check(const struct dp_config *cfg, char *err, size_t errlen);

#endif
