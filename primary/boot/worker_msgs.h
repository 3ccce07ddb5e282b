/* SPDX-License-Identifier: BSD-3-Clause
 * A worker's messages (request, answers) from its configuration, with
 * their checksums. Pure code: the TCP unit tests build their workers'
 * messages with it too.
 */
#ifndef DPERF_WORKER_MSGS_H
#define DPERF_WORKER_MSGS_H

#include <stddef.h>

#include "engine/worker.h"

/* Compose wk's messages (wk->net.cfg set) for server address srv into buf
 * (msg_layout's length, kept as long as wk). Returns 0, or -1 with err
 * "keyword: reason". */
int worker_msgs(struct worker *wk, const struct dp_config *cfg, const struct dp_ip *srv, uint8_t *buf, char *err,
		size_t errlen);

#endif
