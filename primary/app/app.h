/* SPDX-License-Identifier: BSD-3-Clause
 * The applications a TCP connection carries (tcp/tcp_app.h's interface):
 * HTTP (http_app.c, on http/'s parsers) and raw TCP payload (raw_app.c,
 * messages of payload_size bytes). One is bound to a worker at setup.
 */
#ifndef DPERF_APP_H
#define DPERF_APP_H

#include "config.h"
#include "tcp/tcp_app.h"

/* http_app.c, raw_app.c: each side's table. */
extern const struct tcp_app http_client_app, http_server_app;
extern const struct tcp_app raw_client_app, raw_server_app;

/* The application of a worker by its role and protocol, into *a (app.c). */
void app_bind(struct tcp_app *a, const struct dp_config *cfg, int is_client, int is_http);

#endif
