/* SPDX-License-Identifier: BSD-3-Clause
 * The sender of messages over several segments: a sliding window paced by
 * the peer's receive window (scaled as negotiated in the SYN, RFC 7323), a
 * congestion window (NewReno: RFC 5681 slow start and congestion
 * avoidance, RFC 6582 fast recovery) and send_window when set.
 *
 * Loss recovery: with a peer whose SYN permitted SACK (SKF_SACK), RFC
 * 6675's: the scoreboard of what the peer holds (tcp_sack.h, here in the
 * sender's state, never in the socket) says which holes are lost, what is
 * still in the network (pipe), and the segment to send next; only what
 * was lost is sent again, several holes per round trip. Without SACK,
 * NewReno (RFC 6582): one hole per round trip. A timeout sends from
 * snd_una again, skipping what the peer SACKed (until a second timeout
 * in a row: a peer may renege, RFC 2018 8). Every retransmission is cut
 * again from the message's source, so resending costs only the segment.
 * CUBIC's growth function matters on long fat paths we do not test.
 *
 * The bytes of a message come from a struct snd_src: segment k (its bytes
 * from k x mss, and their checksum sum). A template shared by every
 * connection (a server's answer, a client's POST) is one source; a later
 * TLS flight from per-connection state is another, behind the same call.
 *
 * The connection's sequence numbers: sk->snd_una, and sk->snd_nxt as the
 * highest sequence number sent (so the ACK checks of the client and server
 * stay as they are); the sender's own send point snd->nxt goes back to
 * snd_una after a timeout (go-back-N from the source).
 */
#ifndef DPERF_TCP_SEND_H
#define DPERF_TCP_SEND_H

#include <stdint.h>

#include "net/l4.h"
#include "state/sock.h"
#include "tcp/tcp_rtt.h"
#include "tcp/tcp_sack.h"
#include "tcp/tcp.h"
#include "net/netw.h"

/* Per-connection sender state, in nw->tcp->snd[] indexed as nw->skt.sk[]: allocated
 * only by a worker that sends messages over several segments, so the
 * 64-byte socket stays as it is for every other test. */
struct sk_snd {
	uint32_t base;     /* sequence number of the message's first byte */
	uint32_t nxt;      /* next sequence number to send (below sk->snd_nxt after a timeout) */
	uint32_t cwnd;     /* congestion window, bytes */
	uint32_t ssthresh; /* slow start threshold, bytes */
	uint32_t recover;  /* RFC 6582: sk->snd_nxt when the last recovery began */
	uint32_t wnd;      /* the peer's receive window, bytes (scaled) */
	uint8_t dupacks;   /* duplicate ACKs in a row */
	uint8_t shift;     /* the peer's window scale; 0 when not negotiated */
	uint8_t recovery : 2; /* in fast recovery (tcp_send.c: SND_NEWRENO, SND_GO_BACK, SND_SACK), else 0 */
	uint8_t active : 1;   /* a message is in progress: not all of it acknowledged */
	uint8_t probe_due : 1; /* the retransmission timer is a tail loss probe's (snd_probe) */
	uint8_t probe_out : 1; /* a probe went, no ACK of new data since */
	uint8_t sent_all : 1;  /* the message's last byte has been sent */
	uint8_t lossy : 1;     /* the connection has lost a segment (a recovery, a timeout) */
	struct sack_board sb; /* what the peer holds above snd_una (SKF_SACK) */
	struct rtt_est rtt;   /* RFC 6298: the retransmission timeout (tcp_rtt.h) */
};

_Static_assert(sizeof(struct sk_snd) == 112, "docs/performance.md and dperf(8) state 64 + 112 bytes per connection");

/* Where segment k of a message comes from. */
struct snd_src {
	uint32_t len; /* bytes of the message */
	void (*seg)(const struct snd_src *src, uint32_t k, uint32_t mss, struct msg *out);
	const void *ctx; /* the template (struct msg), or a connection's own state */
};

/* A source cut from a prebuilt message with per-segment sums (seg_sum). */
void snd_src_msg(struct snd_src *src, const struct msg *m);

static inline struct sk_snd *
sk_snd_of(const struct netw *nw, const struct sock *sk)
{
	return &nw->tcp->snd[sk - nw->skt.sk];
}

/* A SYN (or SYN+ACK) from the peer: its window scale (seg.ws) and window,
 * the initial congestion window (RFC 6928), after sk->snd_una is set. */
void snd_open(const struct netw *nw, const struct sock *sk, struct sk_snd *snd, const struct seg *syn,
	     int ws_ok);

/* Start a message at sk->snd_nxt and send what the windows allow. fin:
 * our FIN goes with its last byte. Returns the segments sent. */
uint32_t snd_begin(struct netw *nw, struct sock *sk, const struct tuple *t, const struct snd_src *src,
		  int fin);

/* Send what the windows allow of the message in progress. */
uint32_t snd_output(struct netw *nw, struct sock *sk, const struct tuple *t, const struct snd_src *src,
		   int fin);

/* Whether a message is in progress on the connection (sent or not, not
 * all acknowledged). */
static inline int
snd_active(const struct netw *nw, const struct sock *sk)
{
	return nw->tcp->snd != NULL && sk_snd_of(nw, sk)->active;
}

/* An acceptable ACK (snd_una <= ack <= snd_nxt) while a message is in
 * progress: moves snd_una, the windows, recovery; resends a hole, sends
 * what the windows now allow. Returns 1 when the segment was a duplicate
 * ACK and nothing else is to be done with it. */
int snd_ack(struct netw *nw, struct sock *sk, const struct tuple *t, const struct seg *s,
	   const struct snd_src *src, int fin);

/* The retransmission timer of a connection sending a message over
 * several segments: its own RTO (RFC 6298, in timer ticks: SRTT +
 * 4 x RTTVAR, at least min(1 s, retransmit_timeout), at most 60 s,
 * doubled per timeout in a row; retransmit_timeout before the first
 * sample), or sooner a tail loss probe's (snd_probe). Other connections
 * keep the list's fixed timeout. */
void snd_arm_rt(struct netw *nw, struct sock *sk, uint32_t idx);

/* The retransmission timer, first: when it was armed for a tail loss
 * probe (RFC 8985 7), sends the probe and returns 1 (not a timeout nor
 * a retry: the RTO follows); else 0. */
int snd_probe(struct netw *nw, struct sock *sk, const struct tuple *t, const struct snd_src *src, int fin);

/* Whether the retransmission timer would only probe a zero window (the
 * persist timer, RFC 9293 3.8.6.1): not a loss. Unanswered probes are
 * bounded as retries are; an answered one starts the count again. */
int snd_persist(const struct netw *nw, const struct sock *sk);

/* The retransmission timer: a zero-window probe, or a timeout (RFC 5681
 * 3.1 eq. 4: ssthresh = max(flight / 2, 2 mss), cwnd = 1 mss; go back to
 * snd_una). */
void snd_timer(struct netw *nw, struct sock *sk, const struct tuple *t, const struct snd_src *src, int fin);

#endif
