/* SPDX-License-Identifier: BSD-3-Clause
 * UDP: the client sends one request datagram per launch, the server
 * answers each request from an accepted client on a listen port.
 */
#ifndef DPERF_UDP_H
#define DPERF_UDP_H

#include "net/l4.h"
#include "net/netw.h"

/* Send the next datagram of the walk. pps_conns: dperf's packets-per-
 * second mode, the walk's first pps_conns tuples take turns (0: off). */
int udp_client_launch(struct netw *nw, uint64_t pps_conns);

#endif
