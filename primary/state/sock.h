/* SPDX-License-Identifier: BSD-3-Clause
 * A connection: 64 bytes, one cache line. The 4-tuple is not stored: it is
 * the socket's index in its worker's table (see sock_table.h).
 */
#ifndef DPERF_SOCK_H
#define DPERF_SOCK_H

#include <stdint.h>

#include "state/stream_scan.h"

enum sk_state {
	SK_CLOSED = 0,
	SK_SYN_SENT,
	SK_SYN_RCVD,
	SK_ESTABLISHED,
	SK_FIN_WAIT_1, /* we sent FIN first */
	SK_FIN_WAIT_2,
	SK_CLOSE_WAIT,
	SK_LAST_ACK,   /* peer sent FIN first, we answered with ours */
};

/* Timer lists a socket can be on (at most one at a time). */
enum sk_list { TL_NONE = 0, TL_RT, TL_KA, TL_IDLE, TL__COUNT };

/* sock.flags */
#define SKF_FIN_RCVD   0x01 /* peer's FIN consumed (rcv_nxt counts it) */
#define SKF_CLOSE      0x02 /* close after the current exchange (server: a request asked to, Connection:
                             * close; TLS: also our close_notify, a failure, the peer's) */
#define SKF_WS         0x04 /* window scaling negotiated (both SYNs offered it; tcp_send.h) */
#define SKF_SACK       0x08 /* SACK negotiated: the peer's SYN offered it (ours always does; tcp_sack.h) */
#define SKF_FIRST_BYTE 0x10 /* client: a request sent, no byte of its answer yet (time to first byte) */
#define SKF_ACK_OWED   0x20 /* received data not yet acknowledged (tcp_dack.h) */
#define SKF_ACK_QUEUED 0x40 /* ...and its delayed-ACK entry is queued, due at ack_due */
#define SKF_PEND_BAD   0x80 /* server: a bad request waits last behind the answers queued (400, then
                             * close; tcp_server.c) */

struct sock {
	uint32_t snd_una;   /* oldest unacknowledged sequence number */
	uint32_t snd_nxt;   /* next sequence number to send */
	uint32_t rcv_nxt;   /* next sequence number expected */
	uint32_t t_next;    /* timer list links: socket index + 1, 0 = none */
	uint32_t t_prev;
	uint32_t t_expire;  /* deadline, worker timer ticks (tlist.h) */
	uint16_t ooo;       /* its held out-of-order segments (tcp/tcp_ooo.h handle); 0: none */
	uint16_t pend_head; /* server: bit k set: the k-th request waiting is a HEAD (tcp_server.c) */
	uint32_t req_done;  /* requests completed on this connection */
	uint64_t t_start;   /* TSC of the SYN or of the last request (latency) */
	uint8_t state;      /* enum sk_state */
	uint8_t flags;
	uint8_t list;       /* enum sk_list */
	uint8_t retries;
	union {             /* a socket is a client's or a server's */
		uint8_t inflight; /* client: requests sent and not yet answered */
		uint8_t pend_n;   /* server: requests waiting behind an answer over several
				   * segments (tcp_server.c; a bad one last: SKF_PEND_BAD) */
	};
	/* A server's and a client's byte (a socket is one or the other, and
	 * the 64 bytes are all taken): the server's method of the last
	 * request answered; the client's traffic kind (issue 37: config.h's
	 * kind lines, picked at launch, state/mix.h), which indexes its
	 * request (msgs.kreq) and keepalive count (tcp_part.ka_num). sk_opened
	 * zeroes it (DP_REQ_NONE is 0): kind 0, the only one without kind
	 * lines, costs no store. */
	union {
		uint8_t last_kind; /* server */
		uint8_t kind;      /* client: 0..DP_MAX_KINDS - 1 */
	};
	union {
		uint16_t raw_got;  /* raw TCP: bytes of the current message received */
		uint16_t head_run; /* HTTP client: bytes of heads and chunk framing in a row */
	};
	uint32_t ack_due;   /* when the live delayed-ACK entry is due (tcp_dack.h) */
	/* Where the HTTP stream is: a server reads requests, a client
	 * responses (a socket is one or the other: 8 bytes for both). */
	union {
		struct dp_req_scan rq; /* server */
		struct dp_rsp_scan rs; /* client */
	};
	uint16_t ack_bytes; /* data bytes received and not yet acknowledged */
	uint16_t snd_mss;   /* the most data we send in one segment (sk_set_mss) */
} __attribute__((aligned(64)));

_Static_assert(sizeof(struct sock) == 64, "a socket must stay one cache line");

#endif
