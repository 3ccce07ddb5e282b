/* SPDX-License-Identifier: BSD-3-Clause
 * UDP: the client sends one request datagram per launch, the server
 * answers each request from an accepted client on a listen port.
 */
#ifndef DPERF_UDP_H
#define DPERF_UDP_H

#include "state/worker.h"

struct udp_dgram {
	uint32_t sip, dip;
	uint16_t sport, dport;
	uint32_t dlen;
};

void udp_input(struct worker *w, const struct udp_dgram *d);
int udp_client_launch(struct worker *w);

#endif
