/* SPDX-License-Identifier: BSD-3-Clause
 * What the receive path hands to the transports: a parsed TCP segment or
 * UDP datagram, and the entry points it calls. net/ declares them and
 * tcp/ and udp/ define them, so the receive path needs no transport's
 * header (a lower room never includes a higher one). rx_bind (net/rx.h)
 * puts the run's two in struct netw once (seg_in, dgram_in), and the
 * receive path calls them through those pointers: the role and the
 * protocol are not tested per packet. A filter over TCP (TLS) binds its
 * own input in seg_in over the role's (tls/tls_tcp.c).
 */
#ifndef DPERF_L4_H
#define DPERF_L4_H

#include <stdint.h>

#include "net/netw.h"

/* A parsed TCP segment, addresses as received (network order). */
struct seg {
	uint32_t sip, dip;
	uint16_t sport, dport;
	uint32_t seq, ack; /* host order */
	uint8_t flags;
	uint16_t win;      /* the sender's receive window field, host order (not scaled) */
	uint8_t ws;        /* a SYN's window scale option (shift, at most 14), else SEG_NO_WS */
	uint16_t mss;      /* a SYN's MSS option, host order, else 0 (none, or no SYN) */
	uint8_t sack_ok;   /* a SYN's SACK-permitted option (RFC 2018 2) */
	const uint8_t *data;
	uint32_t dlen;
	const uint8_t *opt; /* the options after the 20-byte header: optlen bytes (tcp_sack.h reads them) */
	uint8_t optlen;
	void *pkt;          /* the mbuf holding data (pkt_hold keeps it), NULL when there is none */
};

/* seg.ws: no window scale option */
#define SEG_NO_WS 0xff

/* A UDP datagram's addresses (network order) and payload length. */
struct udp_dgram {
	uint32_t sip, dip;
	uint16_t sport, dport;
	uint32_t dlen;
};

/* tcp/tcp_client.c and tcp/tcp_server.c */
void tcp_client_input(struct netw *nw, const struct seg *s);
void tcp_server_input(struct netw *nw, const struct seg *s);
/* udp/udp.c */
void udp_client_input(struct netw *nw, const struct udp_dgram *d);
void udp_server_input(struct netw *nw, const struct udp_dgram *d);

#endif
