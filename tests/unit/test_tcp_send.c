/* SPDX-License-Identifier: BSD-3-Clause
 * Unit tests of the TCP engine: the sender of messages over several segments (tcp_send.c): windows, loss, recovery, window scaling.
 * The harness (tcp_harness.c) drives the real client and server back to back.
 */
// links: primary/boot/worker_setup.c primary/net/vxlan.c primary/tcp/tcp_client.c primary/tcp/tcp_server.c primary/tcp/tcp_send.c primary/tcp/tcp_timeout.c primary/tcp/tcp_dack.c primary/http/http.c primary/http/http_response.c primary/http/rsp_scan.c primary/http/http_request.c primary/http/messages.c primary/boot/worker_msgs.c primary/engine/timers.c tests/unit/tcp_harness.c primary/tcp/tcp_common.c primary/tcp/tcp_ooo.c primary/tcp/tcp_sack.c primary/tcp/tcp_rtt.c primary/app/app.c primary/app/http_app.c primary/app/raw_app.c primary/state/mix.c
#include "tcp_harness.h"

/* ------------------------------------------------------------------ */
/* Answers over several segments (payload_size above mss)              */

/* Data bytes the server sent in segments recorded since the last clear,
 * and the highest end (seq + len) among them. */
static uint32_t
sent_bytes(const struct node *n, uint32_t *end)
{
	uint32_t b = 0;

	for (size_t i = 0; i < n->n_out; i++) {
		b += n->out[i].len;
		if (end && n->out[i].len && seq_gt(n->out[i].seq + n->out[i].len, *end))
			*end = n->out[i].seq + n->out[i].len;
	}
	return b;
}

static void
big_server_w4(struct dp_config *c)
{
	big_server(c);
	c->send_window = 4;
}

/* The first flight is the initial window (RFC 6928: 10 segments of
 * 1460), the whole answer arrives, twice on one connection. */
static void
test_big_answer_window(void **state)
{
	struct node *c = new_client(big_client), *s = new_server(big_server);
	uint32_t len = s->wk.net.msg.rsp_ka.len, segs = (len + 1459) / 1460, rounds = 0;

	(void)state;
	assert_true(s->wk.net.msg.rsp_ka.seg_sum != NULL);
	assert_non_null(s->wk.tcp.snd);
	open_and_ask(c, s);
	assert_int_equal(s->n_out, 10);
	assert_int_equal(sent_bytes(s, NULL), 10 * 1460);
	while ((s->n_out || c->n_out) && rounds++ < 1000) {
		deliver(s, c);
		deliver(c, s);
	}
	assert_int_equal(C(c, HTTP_2XX), 2);
	assert_int_equal(C(s, HTTP_2XX), 2);
	assert_int_equal(C(s, PUSH_RT), 0);
	/* goodput: each answer's bytes once, each request's once */
	assert_int_equal(C(c, GOOD_RX), 2ULL * len * 8);
	assert_int_equal(C(s, GOOD_RX), 2ULL * c->wk.net.msg.req.len * 8);
	/* goodTx: what each side sent for the first time */
	assert_int_equal(C(s, GOOD_TX), 2ULL * len * 8);
	assert_int_equal(C(c, GOOD_TX), 2ULL * c->wk.net.msg.req.len * 8);
	assert_true(s->sent >= 2 * segs);
	assert_clean(c);
	assert_clean(s);
}

/* send_window, when set, bounds the segments in flight: 4 here, below
 * the initial window. */
static void
test_big_answer_send_window(void **state)
{
	struct node *c = new_client(big_client), *s = new_server(big_server_w4);
	uint32_t rounds = 0;

	(void)state;
	open_and_ask(c, s);
	assert_int_equal(s->n_out, 4);
	while ((s->n_out || c->n_out) && rounds++ < 1000) {
		assert_true(sent_bytes(s, NULL) <= 4 * 1460);
		deliver(s, c);
		deliver(c, s);
	}
	assert_int_equal(C(c, HTTP_2XX), 2);
	assert_clean(s);
}

/* A segment of the answer is lost: the retransmission timer sends the
 * answer again from that segment, and it completes. */
static void
test_big_answer_loss(void **state)
{
	struct node *c = new_client(big_client), *s = new_server(big_server);
	int dropped = 0, rounds = 0;

	(void)state;
	open_and_ask(c, s);
	while (rounds++ < 2000 && C(c, HTTP_2XX) < 2) {
		if (!dropped && s->n_out == 10) { /* lose the second of the first flight */
			free(s->out[1].data);
			memmove(&s->out[1], &s->out[2], 8 * sizeof(s->out[0]));
			s->n_out--;
			dropped = 1;
		}
		if (s->n_out == 0 && c->n_out == 0) {
			rt_expire(s); /* the client waits: only the timer moves on */
			advance(c, s->wk.tcp.tl[TL_RT].timeout / TL_PER_MS);
		}
		deliver(s, c);
		deliver(c, s);
	}
	assert_int_equal(dropped, 1);
	assert_int_equal(C(c, HTTP_2XX), 2);
	assert_true(C(s, PUSH_RT) >= 1);
	/* what came twice counts once in the goodput, sent or received */
	assert_int_equal(C(c, GOOD_RX), 2ULL * s->wk.net.msg.rsp_ka.len * 8);
	assert_int_equal(C(s, GOOD_TX), 2ULL * s->wk.net.msg.rsp_ka.len * 8);
	pump(c, s);
	/* the client drops what follows the hole (no out-of-order queue:
	 * counted in tcpOoo, each answered with a duplicate ACK at once)
	 * and nothing else goes wrong */
	assert_true(C(c, TCP_OOO) >= 1 && C(c, TCP_OOO) <= (s->wk.net.msg.rsp_ka.len + 1459) / 1460);
	assert_int_equal(C(c, TCP_DROP), 0);
	assert_int_equal(C(c, SK_ERR), 0);
	assert_int_equal(C(c, HTTP_ERR), 0);
	assert_clean(s);
}

static void
big_server_w8(struct dp_config *c)
{
	big_server(c);
	c->send_window = 8;
}

/* A segment lost early in a flight of 8: the segments after it bring
 * duplicate ACKs, and the third sends the hole at once; our client kept
 * nothing after the hole, so its ACK of exactly that segment sends the
 * rest again in order (tcp_send.c): no timer runs. */
static void
test_big_answer_fast_retransmit(void **state)
{
	struct node *c = new_client(big_client), *s = new_server(big_server_w8);
	int rounds = 0;

	(void)state;
	open_and_ask(c, s);
	assert_int_equal(s->n_out, 8);
	free(s->out[1].data); /* lose the second */
	memmove(&s->out[1], &s->out[2], 6 * sizeof(s->out[0]));
	s->n_out--;
	while ((s->n_out || c->n_out) && rounds++ < 2000) {
		deliver(s, c);
		deliver(c, s);
	}
	assert_int_equal(C(c, HTTP_2XX), 2);
	assert_true(C(s, PUSH_RT) >= 1);
	assert_int_equal(C(c, SK_ERR), 0);
	assert_clean(s);
}

/* ------------------------------------------------------------------ */
/* The sender (tcp_send.c) against a scripted peer: each ACK written    */
/* here, the RFC's arithmetic checked after it                          */

static const char get_req[] = "GET / HTTP/1.1\r\nHost: x\r\n\r\n";
#define GET_END (1001 + (uint32_t)sizeof(get_req) - 1)

/* A connection from a scripted peer whose SYN offers window field
 * syn_win and window scale ws (SEG_NO_WS: none), and its GET: the
 * server's first flight is in s->out. Returns the answer's first byte. */
static uint32_t
snd_start(struct node *s, struct tuple *t, uint16_t syn_win, uint8_t ws)
{
	struct node *c = new_client(NULL);
	uint32_t iss;

	client_tuple(c, 3, t);
	s->peer_win = syn_win;
	s->peer_ws = ws;
	inject(s, t, 1000, 0, TH_SYN, NULL, 0);
	assert_int_equal(s->out[0].flags, TH_SYN | TH_ACK);
	iss = s->out[0].seq;
	box_clear(s);
	inject(s, t, 1001, iss + 1, TH_ACK, NULL, 0);
	inject(s, t, 1001, iss + 1, TH_ACK | TH_PSH, (const uint8_t *)get_req, sizeof(get_req) - 1);
	return iss + 1;
}

/* The peer acknowledges up to ack with window field win. */
static void
peer_ack(struct node *s, const struct tuple *t, uint32_t ack, uint16_t win)
{
	s->peer_win = win;
	s->peer_win_shut = win == 0;
	inject(s, t, GET_END, ack, TH_ACK, NULL, 0);
}

static struct sk_snd *
snd_state(struct node *s, const struct tuple *t)
{
	return sk_snd_of(&s->wk.net, server_sock(s, t));
}

#define MSS 1460u

/* Slow start: the initial window is 10 segments (RFC 6928); each ACK of
 * one segment grows cwnd by one mss (RFC 5681 eq. 2), so two go out. */
static void
test_snd_slow_start(void **state)
{
	struct node *s = new_server(big_server);
	struct tuple t;
	uint32_t base = snd_start(s, &t, 0xffff, SEG_NO_WS);
	struct sk_snd *snd = snd_state(s, &t);

	(void)state;
	assert_int_equal(s->n_out, 10);
	for (uint32_t i = 0; i < 10; i++) {
		assert_int_equal(s->out[i].seq, base + i * MSS);
		assert_int_equal(s->out[i].len, MSS);
	}
	assert_int_equal(snd->cwnd, 10 * MSS);
	assert_int_equal(snd->ssthresh, UINT32_MAX);
	box_clear(s);
	for (uint32_t i = 1; i <= 3; i++) {
		peer_ack(s, &t, base + i * MSS, 0xffff);
		assert_int_equal(snd->cwnd, (10 + i) * MSS);
		assert_int_equal(s->n_out, 2);
		assert_int_equal(s->out[1].seq, base + (10 + 2 * i - 1) * MSS);
		box_clear(s);
	}
	/* an ACK of two segments at once grows it by one mss only */
	peer_ack(s, &t, base + 5 * MSS, 0xffff);
	assert_int_equal(snd->cwnd, 14 * MSS);
	assert_int_equal(s->n_out, 3);
	assert_int_equal(C(s, PUSH_RT), 0);
}

/* Congestion avoidance: above ssthresh, cwnd grows by mss x the bytes
 * acknowledged / cwnd (RFC 5681 3.1's byte counting): one mss per window
 * acknowledged, however many segments each ACK covers (an ACK of two,
 * as a delayed ACK is, counts twice: seen failing with eq. 3's per-ACK
 * mss x mss / cwnd). */
static void
test_snd_congestion_avoidance(void **state)
{
	struct node *s = new_server(big_server);
	struct tuple t;
	uint32_t base = snd_start(s, &t, 0xffff, SEG_NO_WS);
	struct sk_snd *snd = snd_state(s, &t);

	(void)state;
	snd->ssthresh = snd->cwnd; /* as after a loss */
	box_clear(s);
	peer_ack(s, &t, base + MSS, 0xffff);
	assert_int_equal(snd->cwnd, 10 * MSS + MSS * MSS / (10 * MSS));
	assert_int_equal(s->n_out, 1); /* the window slid by one; cwnd grew by less than one */
	box_clear(s);
	peer_ack(s, &t, base + 2 * MSS, 0xffff);
	assert_int_equal(snd->cwnd, 14746 + MSS * MSS / 14746);
	peer_ack(s, &t, base + 4 * MSS, 0xffff); /* two segments */
	assert_int_equal(snd->cwnd, 14890 + 2 * MSS * MSS / 14890);
}

/* Three duplicate ACKs: the first two each send one new segment (RFC
 * 3042 limited transmit, up to cwnd + 2 mss out), the third resends the
 * hole alone, ssthresh = flight / 2, cwnd = ssthresh + 3 mss (RFC 6582
 * 3.2 steps 2-3); each further one inflates cwnd by one mss; a partial
 * ACK resends the next hole and deflates; the full ACK sets cwnd to
 * min(ssthresh, flight + mss). */
static void
test_snd_fast_recovery(void **state)
{
	struct node *s = new_server(big_server);
	struct tuple t;
	uint32_t base = snd_start(s, &t, 0xffff, SEG_NO_WS), recover;
	struct sk_snd *snd = snd_state(s, &t);

	(void)state;
	box_clear(s);
	peer_ack(s, &t, base + MSS, 0xffff); /* segment 0; 1 is lost */
	assert_int_equal(s->n_out, 2);       /* slow start: 10 and 11 */
	box_clear(s);
	peer_ack(s, &t, base + MSS, 0xffff);
	assert_int_equal(s->n_out, 1); /* limited transmit: 12 */
	assert_int_equal(s->out[0].seq, base + 12 * MSS);
	peer_ack(s, &t, base + MSS, 0xffff);
	assert_int_equal(s->n_out, 2); /* and 13 */
	assert_int_equal(s->out[1].seq, base + 13 * MSS);
	assert_int_equal(snd->dupacks, 2);
	assert_int_equal(C(s, PUSH_RT), 0);
	box_clear(s);
	recover = base + 14 * MSS;
	peer_ack(s, &t, base + MSS, 0xffff); /* the third */
	assert_int_equal(s->n_out, 1);
	assert_int_equal(s->out[0].seq, base + MSS);
	assert_int_equal(s->out[0].len, MSS);
	assert_int_equal(C(s, PUSH_RT), 1);
	assert_int_equal(snd->recovery, 1);
	assert_int_equal(snd->recover, recover);
	assert_int_equal(snd->ssthresh, 13 * MSS / 2);
	assert_int_equal(snd->cwnd, 13 * MSS / 2 + 3 * MSS);
	box_clear(s);
	/* a fourth: cwnd + 1 mss, still below the flight of 13: nothing */
	peer_ack(s, &t, base + MSS, 0xffff);
	assert_int_equal(snd->cwnd, 13 * MSS / 2 + 4 * MSS);
	assert_int_equal(s->n_out, 0);
	/* a partial ACK beyond the resent hole (the peer kept 2; 3 was lost
	 * too): 3 at once, and nothing else resent; cwnd deflated */
	peer_ack(s, &t, base + 3 * MSS, 0xffff);
	assert_int_equal(s->n_out, 1);
	assert_int_equal(s->out[0].seq, base + 3 * MSS);
	assert_int_equal(snd->recovery, 1);
	assert_int_equal(snd->cwnd, 13 * MSS / 2 + 4 * MSS - 2 * MSS + MSS);
	assert_int_equal(C(s, PUSH_RT), 2);
	box_clear(s);
	/* the full ACK ends the recovery */
	peer_ack(s, &t, recover, 0xffff);
	assert_int_equal(snd->recovery, 0);
	assert_int_equal(snd->cwnd, 2 * MSS); /* min(ssthresh, max(0, mss) + mss) */
	assert_int_equal(s->n_out, 2);
	assert_int_equal(s->out[0].seq, recover);
	assert_int_equal(C(s, PUSH_RT), 2);
}

/* A peer that keeps nothing out of order (our own client) acknowledges
 * exactly the hole that was resent: the sender goes back to snd_una and
 * sends in order from there, within the deflated cwnd. */
static void
test_snd_recovery_go_back(void **state)
{
	struct node *s = new_server(big_server);
	struct tuple t;
	uint32_t base = snd_start(s, &t, 0xffff, SEG_NO_WS), nxt;
	struct sk_snd *snd = snd_state(s, &t);

	(void)state;
	box_clear(s);
	for (int i = 0; i < 4; i++) /* segment 0, then three duplicates */
		peer_ack(s, &t, base + MSS, 0xffff);
	assert_int_equal(snd->recovery, 1);
	box_clear(s);
	/* the resent segment 1 is all it acknowledges */
	peer_ack(s, &t, base + 2 * MSS, 0xffff);
	assert_int_equal(snd->recovery, 2);
	assert_true(s->n_out >= 2);
	for (size_t i = 0; i < s->n_out; i++)
		assert_int_equal(s->out[i].seq, base + (2 + i) * MSS);
	assert_int_equal(snd->nxt, base + (2 + s->n_out) * MSS);
	box_clear(s);
	/* once only: the next partial ACK sends on from nxt, nothing again */
	nxt = snd->nxt;
	peer_ack(s, &t, base + 3 * MSS, 0xffff);
	for (size_t i = 0; i < s->n_out; i++)
		assert_false(seq_lt(s->out[i].seq, nxt));
}

/* A timeout: ssthresh = max(flight / 2, 2 mss), cwnd = 1 mss, one
 * segment from snd_una; then slow start resends what follows. */
static void
test_snd_timeout(void **state)
{
	struct node *s = new_server(big_server);
	struct tuple t;
	uint32_t base = snd_start(s, &t, 0xffff, SEG_NO_WS);
	struct sk_snd *snd = snd_state(s, &t);

	(void)state;
	box_clear(s);
	rt_expire(s);
	assert_int_equal(s->n_out, 1);
	assert_int_equal(s->out[0].seq, base);
	assert_int_equal(snd->cwnd, MSS);
	assert_int_equal(snd->ssthresh, 5 * MSS);
	assert_int_equal(C(s, PUSH_RT), 1);
	assert_int_equal(server_sock(s, &t)->retries, 1);
	box_clear(s);
	peer_ack(s, &t, base + MSS, 0xffff);
	assert_int_equal(snd->cwnd, 2 * MSS);
	assert_int_equal(s->n_out, 2); /* 1 and 2 again */
	assert_int_equal(s->out[0].seq, base + MSS);
	assert_int_equal(s->out[1].seq, base + 2 * MSS);
	assert_int_equal(C(s, PUSH_RT), 3);
	assert_int_equal(server_sock(s, &t)->retries, 0);
}

/* A zero window: nothing goes until the peer opens it; the timer probes
 * (an ACK below snd_una), which is neither a loss nor a retry, for as
 * long as the window stays shut; the window update sends again. */
static void
test_snd_zero_window(void **state)
{
	struct node *s = new_server(big_server);
	struct tuple t;
	uint32_t base = snd_start(s, &t, 0xffff, SEG_NO_WS), cwnd;
	struct sk_snd *snd = snd_state(s, &t);

	(void)state;
	box_clear(s);
	peer_ack(s, &t, base + 10 * MSS, 0);
	assert_int_equal(s->n_out, 0);
	cwnd = snd->cwnd;
	for (int i = 0; i < DP_MAX_RETRIES + 3; i++) {
		rt_expire(s);
		assert_int_equal(s->n_out, 1);
		assert_int_equal(s->out[0].len, 0);
		assert_int_equal(s->out[0].seq, base + 10 * MSS - 1);
		assert_int_equal(s->out[0].flags, TH_ACK);
		box_clear(s);
		/* the peer answers the probe: still shut, not a duplicate ACK */
		peer_ack(s, &t, base + 10 * MSS, 0);
		assert_int_equal(s->n_out, 0);
	}
	assert_int_equal(server_sock(s, &t)->state, SK_ESTABLISHED);
	assert_int_equal(server_sock(s, &t)->retries, 0);
	assert_int_equal(snd->cwnd, cwnd);
	assert_int_equal(snd->dupacks, 0);
	assert_int_equal(C(s, PUSH_RT), 0);
	peer_ack(s, &t, base + 10 * MSS, 0xffff);
	assert_int_equal(s->n_out, 11); /* cwnd: 10 mss, and one for the ACK of them */
	assert_int_equal(s->out[0].seq, base + 10 * MSS);
}

/* A zero window whose peer then vanishes: the probes are bounded as
 * retransmissions are (issue 31: 19 probes in 38 s, the connection open
 * until stop); each answered probe (test_snd_zero_window) starts the
 * count again. */
static void
test_snd_zero_window_vanished(void **state)
{
	struct node *s = new_server(big_server);
	struct tuple t;
	uint32_t base = snd_start(s, &t, 0xffff, SEG_NO_WS);

	(void)state;
	box_clear(s);
	peer_ack(s, &t, base + 10 * MSS, 0);
	for (int i = 0; i < DP_MAX_RETRIES; i++) {
		rt_expire(s);
		assert_int_equal(s->n_out, 1);
		assert_int_equal(s->out[0].flags, TH_ACK);
		box_clear(s);
	}
	rt_expire(s);
	assert_int_equal(s->n_out, 1);
	assert_int_equal(s->out[0].flags, TH_RST | TH_ACK);
	assert_int_equal(C(s, SK_ERR), 1);
	assert_idle(s);
}

/* A peer window smaller than a segment (500 bytes): what it allows goes
 * at each ACK, 500 bytes at a time, not one segment per timeout (issue
 * 31: 9,260 bytes in 20 s); each part's sum is its bytes'. */
static void
test_snd_small_window(void **state)
{
	struct node *s = new_server(big_server);
	struct tuple t;
	uint32_t base = snd_start(s, &t, 500, SEG_NO_WS);
	uint32_t next = base;

	(void)state;
	for (uint32_t i = 0; i < 20; i++) {
		uint32_t in_seg = MSS - (next - base) % MSS; /* a part ends with its segment */

		assert_int_equal(s->n_out, 1);
		assert_int_equal(s->out[0].seq, next);
		assert_int_equal(s->out[0].len, in_seg < 500 ? in_seg : 500);
		next += s->out[0].len;
		box_clear(s);
		peer_ack(s, &t, next, 500);
	}
	assert_true(next - base > 9000);
	assert_int_equal(C(s, PUSH_RT), 0);
	assert_int_equal(s->bad_sums, 0);
	/* the window opens: whole segments again, from where the parts
	 * left off (the rest of a segment first) */
	assert_int_equal(s->n_out, 1);
	next += s->out[0].len;
	box_clear(s);
	peer_ack(s, &t, next, 0xffff);
	assert_true(s->n_out > 2);
	assert_int_equal(s->out[0].seq, next);
	assert_int_equal(s->out[0].len, MSS - (next - base) % MSS);
	assert_int_equal(s->out[1].len, MSS);
	assert_int_equal(s->bad_sums, 0);
}

/* An answer over several segments to a peer whose MSS option is 536:
 * pieces of 536 bytes, each summed over its own bytes, in order. */
static void
test_snd_peer_mss(void **state)
{
	struct node *s = new_server(big_server);
	struct tuple t;
	uint32_t base, next;

	(void)state;
	s->peer_mss = 536;
	base = snd_start(s, &t, 0xffff, SEG_NO_WS);
	next = base;

	assert_true(s->n_out > 10);
	for (size_t i = 0; i < s->n_out; i++) { /* 536, 536, then a segment's rest: 388 */
		assert_int_equal(s->out[i].seq, next);
		assert_int_equal(s->out[i].len, i % 3 == 2 ? MSS - 2 * 536 : 536);
		next += s->out[i].len;
	}
	assert_int_equal(s->bad_sums, 0);
}

/* 5,000 duplicate ACKs at once, then a partial ACK: the window they
 * inflate is bounded by what was in flight, so the partial ACK does not
 * resend the whole rest of the answer (issue 31: pushRt +655 of a 1 MB
 * answer). */
static void
test_snd_dupack_flood(void **state)
{
	struct node *s = new_server(big_server);
	struct tuple t;
	uint32_t base = snd_start(s, &t, 0xffff, SEG_NO_WS);

	(void)state;
	box_clear(s);
	for (int i = 0; i < 5003; i++)
		peer_ack(s, &t, base, 0xffff);
	assert_int_equal(C(s, PUSH_RT), 1); /* the fast retransmit */
	/* and new segments: two by limited transmit, then one per segment
	 * in flight (12 then) at most, less the 3 mss the recovery's cwnd
	 * starts above ssthresh with */
	assert_true(s->n_out <= 2 + 1 + 9);
	box_clear(s);
	peer_ack(s, &t, base + MSS, 0xffff); /* the hole filled: go back */
	/* at most the 20 of the 21 in flight that it did not acknowledge */
	assert_true(C(s, PUSH_RT) <= 1 + 20);
}

/* Window scaling: a SYN that offers it gets our offer back, and the
 * peer's later windows are scaled (not the SYN's own); a SYN without it
 * gets none and its windows are taken as they are. */
static void
test_snd_window_scale(void **state)
{
	struct node *s = new_server(big_server);
	struct tuple t;
	uint32_t base;
	struct sk_snd *snd;

	(void)state;
	base = snd_start(s, &t, 1000, 3); /* the SYN's window: 1000, unscaled */
	snd = snd_state(s, &t);
	assert_int_equal(s->synack_ws, 1);
	assert_int_equal(snd->shift, 3);
	assert_int_equal(s->n_out, 1); /* what a window below mss allows */
	assert_int_equal(s->out[0].len, 1000);
	box_clear(s);
	peer_ack(s, &t, base + 1000, 1000); /* 8000 bytes: the first segment's rest, 5 more */
	assert_int_equal(snd->wnd, 8000);
	assert_int_equal(s->n_out, 6);
	assert_int_equal(s->out[0].len, MSS - 1000);
	box_clear(s);
	free_nodes(NULL);

	s = new_server(big_server);
	base = snd_start(s, &t, 0xffff, SEG_NO_WS);
	snd = snd_state(s, &t);
	assert_int_equal(s->synack_ws, 0);
	assert_int_equal(snd->shift, 0);
	box_clear(s);
	peer_ack(s, &t, base + 10 * MSS, 3000); /* 3000 bytes as they are: 2 segments */
	assert_int_equal(snd->wnd, 3000);
	assert_int_equal(s->n_out, 2);
}

/* An answer longer than the stored prefix (DP_RSP_STORED): the segments
 * beyond it follow http/messages.h's content rule, byte for byte, each
 * with the sum of its own bytes, up to the exact length. */
static void
big_random(struct dp_config *c)
{
	c->keepalive = 1;
	c->payload_size = 70000000; /* 64 MiB stored, 2.9 MB by the rule */
	c->payload_random = 1;
}

static void
test_snd_beyond_stored(void **state)
{
	struct node *s = new_server(big_random);
	struct tuple t;
	uint32_t base = snd_start(s, &t, 0xffff, SEG_NO_WS), len = s->wk.net.msg.rsp_ka.len, got = 0;
	uint32_t S = DP_RSP_STORED / MSS, half = S / 2;
	uint8_t *body = malloc(len);

	(void)state;
	assert_non_null(body);
	assert_int_equal(len, 70000000);
	assert_int_equal(s->wk.net.msg.rsp_ka.seg_stored, S);
	for (int round = 0; got < len && round < 100000; round++) {
		for (size_t i = 0; i < s->n_out; i++) {
			struct rec *r = &s->out[i];
			assert_true(r->seq - base + r->len <= len);
			memcpy(body + (r->seq - base), r->data, r->len);
			if (r->seq + r->len - base > got)
				got = r->seq + r->len - base;
		}
		box_clear(s);
		peer_ack(s, &t, base + got, 0xffff);
	}
	assert_int_equal(got, len);
	assert_int_equal(s->bad_sums, 0);
	assert_int_equal(C(s, PUSH_RT), 0);
	assert_memory_equal(body, s->wk.net.msg.rsp_ka.data, (size_t)S * MSS);
	for (uint32_t i = S * MSS; i < len; i++)
		if (body[i] != body[half * MSS + (i - S * MSS) % ((S - half) * MSS)])
			fail_msg("byte %u breaks the content rule", i);
	free(body);
}

/* test_tx_drop: one segment in N of a long message never leaves (a lossy
 * path); the sender recovers and the answers complete. */
static void
big_server_txdrop(struct dp_config *c)
{
	big_server(c);
	c->test_tx_drop = 5;
}

static void
test_snd_drop_knob(void **state)
{
	struct node *c = new_client(big_client), *s = new_server(big_server_txdrop);
	int rounds = 0;

	(void)state;
	open_and_ask(c, s);
	assert_int_equal(s->n_out, 8); /* 10 sent, the 5th and the 10th lost */
	while (C(c, HTTP_2XX) < 2 && rounds++ < 5000) {
		if (s->n_out == 0 && c->n_out == 0) {
			rt_expire(s);
			advance(c, s->wk.tcp.tl[TL_RT].timeout / TL_PER_MS);
		}
		deliver(s, c);
		deliver(c, s);
	}
	assert_int_equal(C(c, HTTP_2XX), 2);
	assert_true(C(s, PUSH_RT) > 0);
	assert_int_equal(C(c, GOOD_RX), 2ULL * s->wk.net.msg.rsp_ka.len * 8);
}

/* A client's POST body over several segments goes through the same
 * sender: the first flight is the initial window, the server answers
 * once the body is complete, both requests of the connection are
 * answered; a lost body segment is recovered. */
static void
test_post_big_body(void **state)
{
	struct node *c = new_client(post_client), *s = new_server(ka_server);
	uint32_t len, rounds = 0;
	int dropped = 0;

	(void)state;
	len = c->wk.net.msg.req.len;
	assert_int_equal(len, 64000);
	assert_non_null(c->wk.net.msg.req.seg_sum);
	assert_non_null(c->wk.tcp.snd);
	assert_null(s->wk.tcp.snd);
	assert_int_equal(tcp_client_launch(&c->wk.net), 0);
	deliver(c, s); /* SYN */
	deliver(s, c); /* SYN+ACK: the first flight of the body */
	assert_int_equal(c->n_out, 10);
	while (C(c, HTTP_2XX) < 2 && rounds++ < 5000) {
		if (!dropped && C(c, HTTP_2XX) == 1 && c->n_out >= 4) { /* the second body loses one */
			free(c->out[2].data);
			memmove(&c->out[2], &c->out[3], (c->n_out - 3) * sizeof(c->out[0]));
			c->n_out--;
			dropped = 1;
		}
		if (s->n_out == 0 && c->n_out == 0) {
			rt_expire(c);
			advance(s, c->wk.tcp.tl[TL_RT].timeout / TL_PER_MS);
		}
		deliver(c, s);
		deliver(s, c);
	}
	assert_int_equal(dropped, 1);
	assert_int_equal(C(c, HTTP_2XX), 2);
	assert_int_equal(C(s, HTTP_POST), 2);
	assert_int_equal(C(s, HTTP_2XX), 2);
	assert_true(C(c, PUSH_RT) >= 1);
	assert_int_equal(C(s, GOOD_RX), 2ULL * len * 8);
	assert_int_equal(C(c, GOOD_TX), 2ULL * len * 8);
	assert_int_equal(C(c, SK_ERR), 0);
	assert_int_equal(C(s, HTTP_ERR), 0);
}

/* The client's side of window scaling: its SYN always offers it (pkt.c),
 * so the server's answer decides: a SYN+ACK with the option scales the
 * server's later windows, one without leaves them as they are. */
static void
test_snd_window_scale_client(void **state)
{
	for (int offer = 0; offer < 2; offer++) {
		struct node *c = new_client(post_client), *s = new_server(ka_server);
		struct sock *sk;
		struct tuple t;

		(void)state;
		c->peer_ws = offer ? 5 : SEG_NO_WS; /* what the SYN+ACK carries */
		c->peer_win = 100;                   /* and every later window field */
		assert_int_equal(tcp_client_launch(&c->wk.net), 0);
		client_tuple(c, 0, &t);
		deliver(c, s);
		deliver(s, c); /* SYN+ACK: window 100 unscaled, one segment into it */
		sk = client_sock(c, &t);
		assert_int_equal(sk_snd_of(&c->wk.net, sk)->shift, offer ? 5 : 0);
		assert_int_equal(c->n_out, 1);
		deliver(c, s);
		deliver(s, c); /* the ACK: window 100 << shift */
		assert_int_equal(sk_snd_of(&c->wk.net, sk)->wnd, offer ? 3200 : 100);
		assert_int_equal(c->n_out, offer ? 2 : 1); /* 3200: two of 1460 */
		free_nodes(NULL);
	}
}

/* The sender's state sits beside the socket only where messages span
 * segments: 64 bytes per connection otherwise, 64 + 112 with it (docs/performance.md, dperf(8)). */
static void
test_snd_state_size(void **state)
{
	struct node *small = new_server(ka_server), *big = new_server(big_server);

	(void)state;
	assert_int_equal(sizeof(struct sock), 64);
	assert_int_equal(sizeof(struct sk_snd), 112);
	assert_null(small->wk.tcp.snd);
	assert_int_equal(worker_snd_bytes(&small->wk), 0);
	assert_non_null(big->wk.tcp.snd);
	assert_int_equal(worker_snd_bytes(&big->wk), big->wk.net.skt.n_sk * 112);
}


/* The peer's window is smaller than the congestion window: in flight at
 * most what it advertises. */
static void
test_big_answer_peer_window(void **state)
{
	struct node *c = new_client(big_client), *s = new_server(big_server);
	int rounds = 0;

	(void)state;
	s->peer_win = 2 * 1460;
	open_and_ask(c, s);
	assert_int_equal(s->n_out, 2);
	while ((s->n_out || c->n_out) && rounds++ < 2000) {
		assert_true(sent_bytes(s, NULL) <= 2 * 1460);
		deliver(s, c);
		deliver(c, s);
	}
	assert_int_equal(C(c, HTTP_2XX), 2);
	assert_clean(s);
}


int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_big_answer_window, free_nodes),
		cmocka_unit_test_teardown(test_big_answer_send_window, free_nodes),
		cmocka_unit_test_teardown(test_big_answer_loss, free_nodes),
		cmocka_unit_test_teardown(test_big_answer_peer_window, free_nodes),
		cmocka_unit_test_teardown(test_big_answer_fast_retransmit, free_nodes),
		cmocka_unit_test_teardown(test_snd_slow_start, free_nodes),
		cmocka_unit_test_teardown(test_snd_congestion_avoidance, free_nodes),
		cmocka_unit_test_teardown(test_snd_fast_recovery, free_nodes),
		cmocka_unit_test_teardown(test_snd_recovery_go_back, free_nodes),
		cmocka_unit_test_teardown(test_snd_timeout, free_nodes),
		cmocka_unit_test_teardown(test_snd_zero_window, free_nodes),
		cmocka_unit_test_teardown(test_snd_zero_window_vanished, free_nodes),
		cmocka_unit_test_teardown(test_snd_small_window, free_nodes),
		cmocka_unit_test_teardown(test_snd_peer_mss, free_nodes),
		cmocka_unit_test_teardown(test_snd_dupack_flood, free_nodes),
		cmocka_unit_test_teardown(test_snd_window_scale, free_nodes),
		cmocka_unit_test_teardown(test_snd_state_size, free_nodes),
		cmocka_unit_test_teardown(test_snd_drop_knob, free_nodes),
		cmocka_unit_test_teardown(test_post_big_body, free_nodes),
		cmocka_unit_test_teardown(test_snd_window_scale_client, free_nodes),
		cmocka_unit_test_teardown(test_snd_beyond_stored, free_nodes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
