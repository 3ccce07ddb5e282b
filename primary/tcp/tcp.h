/* SPDX-License-Identifier: BSD-3-Clause
 * The TCP engine: client and server state machines over the socket table.
 */
#ifndef DPERF_TCP_H
#define DPERF_TCP_H

#include <stdint.h>

#include <rte_tcp.h>

#include "net/l4.h"
#include "state/worker.h"

/* Open one client connection (or, with flood, send one SYN). Returns 0, or
 * -1 when no free socket was found. */
int tcp_client_launch(struct worker *w);
/* Handle the expiry of socket idx's timer on list `which`. */
void tcp_client_timer(struct worker *w, uint32_t idx, int which);
void tcp_server_timer(struct worker *w, uint32_t idx, int which);
/* Graceful stop: close one idle keepalive connection (client). */
void tcp_client_close_idle(struct worker *w, uint32_t idx);

/* Bare ACKs whose delay is up (tcp_dack.c). Returns nonzero when due
 * entries are left (budget spent, or the device is full). */
int tcp_dack_run(struct worker *w);

#endif
