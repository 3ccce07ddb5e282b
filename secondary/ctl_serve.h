/* SPDX-License-Identifier: BSD-3-Clause
 * dperf-ctl serve: the instance's HTTP API and /metrics (ctl_serve.c).
 */
#ifndef DPERF_CTL_SERVE_H
#define DPERF_CTL_SERVE_H

#include <signal.h>
#include <stddef.h>

#include "ctl_httpd.h"
#include "rates.h"
#include "shm.h"

struct ctl_serve {
	struct ctl_httpd http;
	const struct dp_shm *s;
	const char *addr;
	char token[256];
	size_t token_len; /* 0: no token file, the API is off */
	int metrics_token;
	struct dp_snapshot *a, *b; /* for /v1/stats (large: on the heap) */
};

/* Before attaching: read the token file, refuse a non-loopback address
 * without one. addr NULL: 127.0.0.1:9470. Returns 0 or an exit code after
 * one line on stderr. */
int ctl_serve_prepare(struct ctl_serve *sv, const char *addr, const char *token_file, int metrics_token);
/* Serve until *stop is set or the engine stops; an exit code. */
int ctl_serve_run(struct ctl_serve *sv, const struct dp_shm *s, volatile sig_atomic_t *stop);

#endif
