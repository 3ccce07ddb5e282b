/* SPDX-License-Identifier: BSD-3-Clause
 * UDP: the client sends one request datagram per launch, the server
 * answers each request from an accepted client on a listen port.
 */
#ifndef DPERF_UDP_H
#define DPERF_UDP_H

#include "net/l4.h"
#include "state/worker.h"

int udp_client_launch(struct worker *w);

#endif
