/* SPDX-License-Identifier: BSD-3-Clause
 * Loss recovery between our client and server (issue 27), same harness as
 * the other TCP tests: SACK negotiated in the SYNs, segments behind a hole
 * held by the receiver and delivered once it fills, the sender resending
 * only the holes (RFC 6675), and what a connection held given back when it
 * ends.
 */
// links: primary/boot/worker_setup.c primary/net/vxlan.c primary/tcp/tcp_client.c primary/tcp/tcp_server.c primary/tcp/tcp_send.c primary/tcp/tcp_timeout.c primary/tcp/tcp_dack.c primary/http/http.c primary/http/http_response.c primary/http/rsp_scan.c primary/http/http_request.c primary/http/messages.c primary/boot/worker_msgs.c primary/engine/timers.c tests/unit/tcp_harness.c primary/tcp/tcp_common.c primary/tcp/tcp_ooo.c primary/tcp/tcp_sack.c primary/tcp/tcp_rtt.c primary/app/app.c primary/app/http_app.c primary/app/raw_app.c primary/state/mix.c
#include "tcp_harness.h"

static struct sk_snd *
snd_state_of(struct node *s, const struct tuple *ct)
{
	return sk_snd_of(&s->wk.net, server_sock(s, ct));
}

/* open_and_ask, the client's SYN without SACK-permitted: the server's
 * timer is the RTO alone (no tail loss probe without SACK). */
static void
open_and_ask_nosack(struct node *c, struct node *s)
{
	assert_int_equal(tcp_client_launch(&c->wk.net), 0);
	c->out[0].sack_ok = 0;
	deliver(c, s);
	deliver(s, c);
	deliver(c, s);
}

/* Drop segment i of from's box. */
static void
lose(struct node *from, size_t i)
{
	assert_true(i < from->n_out);
	free(from->out[i].data);
	memmove(&from->out[i], &from->out[i + 1], (from->n_out - i - 1) * sizeof(from->out[0]));
	from->n_out--;
}

/* Our SYN offers SACK; the server's SYN+ACK answers it, and both
 * connections' sockets say so. */
static void
test_sack_negotiated(void **state)
{
	struct node *c = new_client(big_client), *s = new_server(big_server);
	struct tuple t;

	(void)state;
	assert_int_equal(tcp_client_launch(&c->wk.net), 0);
	assert_int_equal(c->out[0].flags, TH_SYN);
	assert_int_equal(c->out[0].sack_ok, 1);
	deliver(c, s);
	assert_int_equal(s->synack_sack, 1);
	deliver(s, c);
	client_tuple(c, 0, &t);
	assert_true(client_sock(c, &t)->flags & SKF_SACK);
	assert_true(server_sock(s, &t)->flags & SKF_SACK);
}

/* A SYN without the option: the SYN+ACK does not offer it. */
static void
test_sack_not_offered(void **state)
{
	struct node *c = new_client(NULL), *s = new_server(big_server);
	struct tuple t;

	(void)state;
	client_tuple(c, 3, &t);
	inject(s, &t, 1000, 0, TH_SYN, NULL, 0); /* peer_sack 0 */
	assert_int_equal(s->out[0].flags, TH_SYN | TH_ACK);
	assert_int_equal(s->synack_sack, 0);
	assert_false(server_sock(s, &t)->flags & SKF_SACK);
}

/* Two segments of the first flight lost (the second and the fifth): the
 * client holds what follows each hole and says so in SACK blocks; the
 * server resends those two and nothing else, without its timer; the
 * client's goodput is each byte once. */
static void
test_sack_resends_holes_only(void **state)
{
	struct node *c = new_client(big_client), *s = new_server(big_server);
	uint32_t len, rounds = 0;

	(void)state;
	open_and_ask(c, s);
	len = s->wk.net.msg.rsp_ka.len;
	assert_int_equal(s->n_out, 10);
	lose(s, 4);
	lose(s, 1);
	while ((s->n_out || c->n_out) && rounds++ < 1000) {
		deliver(s, c);
		deliver(c, s);
	}
	assert_int_equal(C(c, HTTP_2XX), 2);
	assert_int_equal(C(s, PUSH_RT), 2);
	assert_true(C(c, TCP_OOO) >= 7); /* 2, 3 and 5.. 9 held */
	assert_true(C(s, SACK_RX) > 0);
	assert_int_equal(C(s, SPUR_RT), 0);
	assert_int_equal(C(c, OOO_DROP), 0);
	assert_int_equal(C(c, OOO_REL), 0);
	assert_int_equal(C(c, GOOD_RX), 2ULL * len * 8);
	assert_int_equal(C(s, GOOD_TX), 2ULL * len * 8);
	assert_int_equal(c->wk.tcp.ooo->used, 0);
	assert_int_equal(c->held, 0);
	assert_clean(c);
	assert_clean(s);
}

/* Without SACK (a peer whose SYN did not offer it) the client still
 * holds what follows a hole: the server's NewReno resends the hole, the
 * cumulative ACK then covers what was held, and the answer completes
 * with nothing received twice. */
static void
test_held_without_sack(void **state)
{
	struct node *c = new_client(big_client), *s = new_server(big_server);
	uint32_t rounds = 0;
	struct tuple t;

	(void)state;
	assert_int_equal(tcp_client_launch(&c->wk.net), 0);
	c->out[0].sack_ok = 0; /* as if our SYN had not offered it */
	deliver(c, s);
	deliver(s, c);
	deliver(c, s);
	client_tuple(c, 0, &t);
	assert_false(server_sock(s, &t)->flags & SKF_SACK);
	lose(s, 1);
	while ((s->n_out || c->n_out) && rounds++ < 1000) {
		deliver(s, c);
		deliver(c, s);
	}
	assert_int_equal(C(c, HTTP_2XX), 2);
	assert_int_equal(C(s, SACK_RX), 0);
	assert_true(C(c, TCP_OOO) > 0);
	assert_true(C(s, PUSH_RT) >= 1);
	assert_int_equal(C(c, GOOD_RX), 2ULL * s->wk.net.msg.rsp_ka.len * 8);
	assert_int_equal(c->held, 0);
}

/* A connection that ends while it holds segments gives them back,
 * counted in oooRel. */
static void
test_held_released_at_close(void **state)
{
	struct node *c = new_client(big_client), *s = new_server(big_server);
	struct tuple t, st;
	struct sock *sk;

	(void)state;
	open_and_ask(c, s);
	lose(s, 0);
	deliver(s, c); /* 1..9 held */
	client_tuple(c, 0, &t);
	sk = client_sock(c, &t);
	assert_int_equal(C(c, TCP_OOO), 9);
	assert_int_equal(c->held, 9);
	assert_int_equal(ooo_count(c->wk.tcp.ooo, sk->ooo), 9);
	box_clear(c);
	reverse(&t, &st); /* the server's view: it sends the reset */
	inject(c, &st, sk->rcv_nxt, sk->snd_nxt, TH_RST, NULL, 0);
	assert_int_equal(sk->state, SK_CLOSED);
	assert_int_equal(sk->ooo, 0);
	assert_int_equal(C(c, OOO_REL), 9);
	assert_int_equal(c->held, 0);
	assert_int_equal(c->wk.tcp.ooo->used, 0);
}

/* The retransmission timeout from the connection's RTT (RFC 6298; a
 * peer without SACK, so no tail loss probe comes first): after
 * a 5 ms round trip it is 1 s (the minimum), not retransmit_timeout's
 * 2 s; a timeout doubles it (5.5); an ACK of new data after it samples
 * nothing from what went twice (Karn) and keeps the doubled value. */
static void
test_rto_from_rtt(void **state)
{
	struct node *c = new_client(big_client), *s = new_server(big_server);
	uint64_t rt;

	(void)state;
	assert_int_equal(s->wk.tcp.tl[TL_RT].timeout, 2000 * TL_PER_MS);
	open_and_ask_nosack(c, s);
	advance(s, 5);
	deliver(s, c); /* the first flight */
	deliver(c, s); /* its ACKs, 5 ms after: a sample; the next flight goes */
	box_clear(s);  /* ...and is lost */
	rt = C(s, PUSH_RT);
	advance(s, 999);
	run_timers(s);
	assert_int_equal(C(s, PUSH_RT), rt);
	advance(s, 2);
	run_timers(s);
	assert_int_equal(C(s, PUSH_RT), rt + 1); /* at 1 s */
	box_clear(s);
	advance(s, 1999);
	run_timers(s);
	assert_int_equal(C(s, PUSH_RT), rt + 1);
	advance(s, 2);
	run_timers(s);
	assert_int_equal(C(s, PUSH_RT), rt + 2); /* 2 s later: backed off */
	box_clear(s);
}

/* The sRTT histogram (net/lat.h) takes the estimate at each RTT sample
 * of the side that sends over several segments: a 5 ms round trip, then
 * a 7 ms one, record 5 ms and 5.25 ms (7/8 x 5 + 1/8 x 7, RFC 6298 2.3),
 * in TSC ticks; the client, whose request is one segment, has no
 * estimator and records none. */
static void
test_srtt_recorded(void **state)
{
	static struct dp_worker_lat slat, clat;
	struct node *c = new_client(big_client), *s = new_server(big_server);
	const struct dp_hist *h = &slat.h[DP_LAT_SRTT];

	(void)state;
	memset(&slat, 0, sizeof(slat));
	memset(&clat, 0, sizeof(clat));
	s->wk.net.lat = &slat;
	c->wk.net.lat = &clat;
	open_and_ask(c, s);
	advance(s, 5);
	deliver(s, c); /* the first flight */
	deliver(c, s); /* its ACKs, 5 ms after: the first sample */
	assert_int_equal(h->count, 1);
	assert_int_equal(h->max, 5 * s->wk.net.tsc_per_ms);
	advance(s, 7);
	deliver(s, c);
	deliver(c, s); /* 7 ms after */
	assert_int_equal(h->count, 2);
	assert_int_equal(h->max, 5 * s->wk.net.tsc_per_ms + s->wk.net.tsc_per_ms / 4);
	assert_int_equal(clat.h[DP_LAT_SRTT].count, 0);
	assert_int_equal(slat.h[DP_LAT_TLS_HS].count, 0);
}

/* The client's side: a POST body over several segments goes through the
 * same sender, and its sRTT is recorded the same way (4 ms here); the
 * server, whose answers are one segment, records none. */
static void
test_srtt_recorded_client(void **state)
{
	static struct dp_worker_lat slat, clat;
	struct node *c = new_client(post_client), *s = new_server(ka_server);

	(void)state;
	memset(&slat, 0, sizeof(slat));
	memset(&clat, 0, sizeof(clat));
	s->wk.net.lat = &slat;
	c->wk.net.lat = &clat;
	assert_int_equal(tcp_client_launch(&c->wk.net), 0);
	deliver(c, s); /* SYN */
	deliver(s, c); /* SYN+ACK: the body's first flight leaves */
	advance(c, 4);
	deliver(c, s);
	deliver(s, c); /* its ACKs, 4 ms later */
	assert_int_equal(clat.h[DP_LAT_SRTT].count, 1);
	assert_int_equal(clat.h[DP_LAT_SRTT].max, 4 * c->wk.net.tsc_per_ms);
	assert_int_equal(slat.h[DP_LAT_SRTT].count, 0);
}

/* Index in from's box of the segment starting at seq, or -1. */
static long
find_seq(const struct node *from, uint32_t seq)
{
	for (size_t i = 0; i < from->n_out; i++)
		if (from->out[i].len && from->out[i].seq == seq)
			return (long)i;
	return -1;
}

/* Exchange until both boxes are empty, no timer run; dropping, once,
 * the server's segment at seq when it shows up (lose_at), and its
 * second sending when lose_twice. Returns the rounds. */
static uint32_t
exchange(struct node *c, struct node *s, uint32_t lose_at, int lose_twice)
{
	uint32_t rounds = 0, lost = 0;

	while ((s->n_out || c->n_out) && rounds++ < 1000) {
		long i = find_seq(s, lose_at);

		if (i >= 0 && lost < (lose_twice ? 2u : 1u)) {
			lose(s, (size_t)i);
			lost++;
		}
		deliver(s, c);
		deliver(c, s);
	}
	assert_int_equal(lost, lose_twice ? 2 : 1);
	return rounds;
}

/* A retransmission lost in its turn: the peer's SACKs of segments sent
 * after it say so, and the hole goes a third time without the timer
 * (RFC 6675 alone sends a hole once per recovery: seen failing, the
 * answer stuck until the retransmission timer). */
static void
test_sack_lost_retransmission(void **state)
{
	struct node *c = new_client(big_client), *s = new_server(big_server);
	uint32_t len;

	(void)state;
	open_and_ask(c, s);
	len = s->wk.net.msg.rsp_ka.len;
	assert_int_equal(s->n_out, 10);
	exchange(c, s, s->out[1].seq, 1); /* the second segment, and its resend */
	assert_int_equal(C(c, HTTP_2XX), 2);
	assert_int_equal(C(s, PUSH_RT), 2);
	assert_int_equal(C(s, SPUR_RT), 0);
	assert_int_equal(C(c, GOOD_RX), 2ULL * len * 8);
	assert_clean(c);
	assert_clean(s);
}

/* A hole right where the last recovery ended (the first new segment it
 * sent, at RecoveryPoint): a new recovery may begin when the cumulative
 * ACK reaches RecoveryPoint (RFC 6675 5.1: at least, not above), so it
 * is resent without the timer (seen failing with "above"). */
static void
test_sack_hole_at_recovery_point(void **state)
{
	struct node *c = new_client(big_client), *s = new_server(big_server);
	uint32_t len, recover;
	struct tuple t;

	(void)state;
	open_and_ask(c, s);
	len = s->wk.net.msg.rsp_ka.len;
	client_tuple(c, 0, &t);
	lose(s, 1);
	deliver(s, c);
	deliver(c, s); /* the recovery begins: the hole, then new data from RecoveryPoint */
	assert_int_not_equal(snd_state_of(s, &t)->recovery, 0);
	recover = snd_state_of(s, &t)->recover;
	assert_true(find_seq(s, recover) >= 0);
	exchange(c, s, recover, 0);
	assert_int_equal(C(c, HTTP_2XX), 2);
	assert_int_equal(C(s, PUSH_RT), 2);
	assert_int_equal(C(c, GOOD_RX), 2ULL * len * 8);
	assert_clean(c);
	assert_clean(s);
}

/* The tail of an answer: the last segment but one lost. One segment
 * after it can be SACKed, never DupThresh: with nothing new to send and
 * fewer than four segments out, all but one SACKed is enough (RFC 5827
 * early retransmit), so it is resent without the timer (seen failing
 * without it: the answer waited for the timer). */
static void
test_sack_tail_early_retransmit(void **state)
{
	struct node *c = new_client(big_client), *s = new_server(big_server);
	uint32_t len, base;

	(void)state;
	open_and_ask(c, s);
	len = s->wk.net.msg.rsp_ka.len;
	base = s->out[0].seq;
	assert_int_equal(len, 64000); /* 44 segments, the last of 1220 bytes */
	exchange(c, s, base + 42 * 1460, 0);
	assert_int_equal(C(c, HTTP_2XX), 2);
	assert_int_equal(C(s, PUSH_RT), 1);
	assert_int_equal(C(c, GOOD_RX), 2ULL * len * 8);
	assert_clean(c);
	assert_clean(s);
}

/* The last segment of an answer lost, a peer without SACK (no tail loss
 * probe): nothing after it can say so, the timer resends it. The timeout's ssthresh is half the congestion window
 * the answer had (at most the peer's window), not half of the one
 * segment left out (RFC 5681 eq. 4's
 * FlightSize, application-limited at a tail: seen failing with it, two
 * segments). */
static void
test_tail_timeout_ssthresh(void **state)
{
	struct node *c = new_client(big_client), *s = new_server(big_server);
	uint32_t len, base, rounds = 0, cwnd;
	struct tuple t;
	struct sk_snd *snd;
	long i;

	(void)state;
	open_and_ask_nosack(c, s);
	client_tuple(c, 0, &t);
	snd = snd_state_of(s, &t);
	len = s->wk.net.msg.rsp_ka.len;
	base = s->out[0].seq;
	while ((i = find_seq(s, base + 43 * 1460)) < 0 && rounds++ < 100) {
		deliver(s, c);
		deliver(c, s);
	}
	assert_true(i >= 0);
	lose(s, (size_t)i);
	pump(s, c);
	cwnd = snd->cwnd;
	assert_true(cwnd >= 20u * 1460);
	assert_int_equal(C(c, HTTP_2XX), 0);
	assert_int_equal(C(s, RTO), 0);
	rt_expire(s);
	assert_int_equal(C(s, PUSH_RT), 1);
	assert_int_equal(C(s, RTO), 1); /* the timeout, counted where it fired */
	/* half the congestion window, at most the peer's (65535 here) */
	assert_int_equal(snd->ssthresh, (cwnd < snd->wnd ? cwnd : snd->wnd) / 2);
	assert_true(snd->ssthresh > 2 * 1460);
	pump(s, c);
	assert_int_equal(C(c, HTTP_2XX), 2);
	assert_int_equal(C(c, GOOD_RX), 2ULL * len * 8);
}

/* A SACK recovery ends at ssthresh (RFC 6675), not deflated to what is
 * in flight as NewReno's (RFC 6582 option 1): the resend of the only
 * hole acknowledges everything, nothing is in flight, and two segments
 * would leave the next loss to the timer (seen failing with the
 * deflation: cwnd 2 x mss). */
static void
test_sack_recovery_ends_at_ssthresh(void **state)
{
	struct node *c = new_client(big_client), *s = new_server(big_server);
	uint32_t rounds = 0;
	struct tuple t;
	struct sk_snd *snd;
	int began = 0, ended = 0, lost = 0;
	uint32_t base;

	(void)state;
	open_and_ask(c, s);
	client_tuple(c, 0, &t);
	snd = snd_state_of(s, &t);
	base = s->out[0].seq;
	/* a segment sent with the answer's last ones: no new data after
	 * the recovery begins */
	while ((s->n_out || c->n_out) && rounds++ < 1000 && !ended) {
		long i = find_seq(s, base + 40 * 1460);

		if (i >= 0 && !lost) {
			lose(s, (size_t)i);
			lost = 1;
		}
		deliver(s, c);
		deliver(c, s);
		if (snd->recovery == 3) /* SND_SACK */
			began = 1;
		else if (began) {
			ended = 1;
			assert_true(snd->cwnd >= snd->ssthresh);
			assert_true(snd->ssthresh >= 4 * 1460);
		}
	}
	assert_true(ended);
	pump(s, c);
	assert_int_equal(C(c, HTTP_2XX), 2);
	assert_int_equal(C(s, PUSH_RT), 1);
}

/* The first ACK to say a hole is lost may also acknowledge new data
 * (the ACKs before it lost, or a delayed ACK of the segments before the
 * hole): the recovery begins on it, the hole is resent at once, not a
 * duplicate ACK later (seen failing without: only new data went). */
static void
test_sack_lost_on_new_ack(void **state)
{
	struct node *c = new_client(big_client), *s = new_server(big_server);
	uint32_t base;

	(void)state;
	open_and_ask(c, s);
	base = s->out[0].seq;
	lose(s, 3);
	deliver(s, c); /* ACKs of 0, 1, 2, then of 2 with SACK 4, 4-5 ... 4-9 */
	assert_true(c->n_out >= 2);
	while (c->n_out > 1)
		lose(c, 0); /* only the last reaches the server: ack 3, SACK 4-9 */
	assert_int_equal(c->out[0].ack, base + 3 * 1460);
	assert_true(c->out[0].optlen > 0);
	deliver(c, s);
	assert_true(find_seq(s, base + 3 * 1460) >= 0);
	assert_int_equal(C(s, PUSH_RT), 1);
	pump(s, c);
	assert_int_equal(C(c, HTTP_2XX), 2);
	assert_int_equal(C(s, PUSH_RT), 1);
}

/* The last segment of an answer lost (RFC 8985 7): nothing after it can
 * be SACKed, and the RTO is 1 s at least. On a connection that lost a
 * segment before (the previous answer's fifth, recovered), a tail loss probe
 * after 2 x SRTT (200 ms at least here, plus 200 ms for the peer's
 * delayed ACK with one segment out) sends it again, and the answer
 * completes long before the RTO (seen failing without the probe:
 * nothing sent at 401 ms). A connection that never lost one does not
 * probe (on this box a late ACK is more likely than a loss). */
static void
tail_probe_case(int lossy)
{
	struct node *c = new_client(big_client), *s = new_server(big_server);
	uint32_t len, base, rounds = 0, rt;
	int lost5 = 0;
	long i;

	open_and_ask(c, s);
	len = s->wk.net.msg.rsp_ka.len;
	base = s->out[0].seq;
	/* the second answer's last segment (the first answer's fifth lost
	 * when lossy: its recovery over before the second begins) */
	while ((i = find_seq(s, base + len + 43 * 1460)) < 0 && rounds++ < 200) {
		long j = find_seq(s, base + 5 * 1460);

		if (lossy && j >= 0 && !lost5) {
			lose(s, (size_t)j);
			lost5 = 1;
		}
		advance(s, 1); /* a round trip of 1 ms: an RTT sample */
		deliver(s, c);
		deliver(c, s);
	}
	assert_true(i >= 0);
	assert_int_equal(lost5, lossy);
	lose(s, (size_t)i);
	pump(s, c);
	assert_int_equal(C(c, HTTP_2XX), 1);
	rt = C(s, PUSH_RT);
	assert_int_equal(rt, lossy ? 1 : 0);
	advance(s, 399);
	run_timers(s);
	assert_int_equal(C(s, PUSH_RT), rt); /* not before 200 + 200 ms */
	advance(s, 2);
	run_timers(s);
	if (!lossy) {
		assert_int_equal(C(s, PUSH_RT), rt); /* no probe: the RTO's, later */
		return;
	}
	assert_int_equal(C(s, PUSH_RT), rt + 1); /* the probe: the last segment again */
	assert_true(find_seq(s, base + len + 43 * 1460) >= 0);
	pump(s, c);
	assert_int_equal(C(c, HTTP_2XX), 2);
	assert_int_equal(C(c, GOOD_RX), 2ULL * len * 8);
	assert_int_equal(C(s, SK_ERR) + C(c, SK_ERR), 0);
}

static void
test_tail_loss_probe(void **state)
{
	(void)state;
	tail_probe_case(1);
	free_nodes(NULL);
	tail_probe_case(0);
}

/* Exchange until both boxes are empty, no timer run, dropping once each
 * of the server's segments at seq a and at seq b when they show up. */
static void
exchange2(struct node *c, struct node *s, uint32_t a, uint32_t b)
{
	uint32_t rounds = 0;
	int lost_a = 0, lost_b = 0;

	while ((s->n_out || c->n_out) && rounds++ < 1000) {
		long i;

		if (!lost_a && (i = find_seq(s, a)) >= 0) {
			lose(s, (size_t)i);
			lost_a = 1;
		}
		if (!lost_b && (i = find_seq(s, b)) >= 0) {
			lose(s, (size_t)i);
			lost_b = 1;
		}
		deliver(s, c);
		deliver(c, s);
	}
	assert_true(lost_a && lost_b);
}

/* The last segment of an answer lost with one before it (RFC 8985 6.2):
 * the recovery of the first hole ends in a partial ACK that leaves the
 * last unSACKed, which RFC 6675 never calls lost (nothing above it is
 * SACKed) and which waited for the RTO; it was sent before the
 * retransmission just acknowledged, so it goes at once, without a timer
 * (seen failing without sack_rack_tail: one answer of two, the second
 * never asked for; and with it but the scoreboard not trimmed by an ACK
 * without SACK blocks, the same). */
static void
test_sack_tail_after_partial_ack(void **state)
{
	struct node *c = new_client(big_client), *s = new_server(big_server);
	uint32_t len, base;

	(void)state;
	open_and_ask(c, s);
	len = s->wk.net.msg.rsp_ka.len;
	base = s->out[0].seq;
	exchange2(c, s, base + 38 * 1460, base + 43 * 1460); /* 44 segments */
	assert_int_equal(C(c, HTTP_2XX), 2);
	assert_int_equal(C(s, PUSH_RT), 2);
	assert_int_equal(C(s, SPUR_RT), 0);
	assert_int_equal(C(c, GOOD_RX), 2ULL * len * 8);
	assert_clean(c);
	assert_clean(s);
}

/* A congestion window of three or four segments (as after a timeout)
 * and one of them lost: two segments after the hole bring two
 * duplicate ACKs, never DupThresh. RFC 3042's limited transmit sends a
 * new segment on each, their SACKs make three, and the hole is resent
 * without the timer (seen failing without it: the answer stuck until
 * the RTO, 915 of a loss-scenario run's 1,048 timeouts). */
static void
test_limited_transmit(void **state)
{
	struct node *c = new_client(big_client), *s = new_server(big_server);
	uint32_t len;
	struct tuple t;
	struct sk_snd *snd;

	(void)state;
	open_and_ask(c, s);
	client_tuple(c, 0, &t);
	snd = snd_state_of(s, &t);
	len = s->wk.net.msg.rsp_ka.len;
	/* congestion avoidance from one segment, once the segments out
	 * are acknowledged: three go next */
	deliver(s, c);
	snd->cwnd = snd->ssthresh = 1460;
	deliver(c, s);
	deliver(s, c);
	snd->cwnd = snd->ssthresh = 1460;
	deliver(c, s);
	assert_int_equal(s->n_out, 3);
	assert_int_equal(snd->recovery, 0);
	exchange(c, s, s->out[0].seq, 0); /* the first of the three */
	assert_int_equal(C(c, HTTP_2XX), 2);
	assert_int_equal(C(s, PUSH_RT), 1);
	assert_int_equal(C(c, GOOD_RX), 2ULL * len * 8);
	assert_clean(c);
	assert_clean(s);
}

/* An answer that begins with a window under two segments (as after a
 * timeout: one segment plus the short last one resent) on a connection
 * that lost before: its one segment lost, nothing after it can say so.
 * The tail loss probe resends it after 400 ms (PTO and the peer's
 * delayed ACK), well before the RTO and before the client's own 2 s
 * timer would resend its request (seen failing without the probe for a
 * lone segment: nothing resent at 401 ms). */
static void
test_lone_segment_probe(void **state)
{
	struct node *c = new_client(big_client), *s = new_server(big_server);
	uint32_t len, base, rounds = 0, rt;
	struct tuple t;
	struct sk_snd *snd;
	int lost5 = 0;
	long i;

	(void)state;
	open_and_ask(c, s);
	client_tuple(c, 0, &t);
	snd = snd_state_of(s, &t);
	len = s->wk.net.msg.rsp_ka.len;
	base = s->out[0].seq;
	/* the first answer, its fifth segment lost (the connection is
	 * lossy), with round trips of 1 ms (RTT samples) */
	while (C(c, HTTP_2XX) < 1 && rounds++ < 200) {
		long j = find_seq(s, base + 5 * 1460);

		if (j >= 0 && !lost5) {
			lose(s, (size_t)j);
			lost5 = 1;
		}
		advance(s, 1);
		deliver(s, c);
		if (C(c, HTTP_2XX) == 1) {
			/* the client's ACKs first, then its second request
			 * to a window of one segment (as after a timeout at
			 * the first's tail): the request's ACK of the short
			 * last segment adds its 1220 bytes (slow start) */
			struct rec req;

			assert_true(c->n_out > 0);
			req = c->out[--c->n_out];
			assert_true(req.len > 0);
			deliver(c, s);
			snd->cwnd = 1460;
			inject_opt(s, &req.t, req.seq, req.ack, req.flags, req.data, req.len, req.opt,
				   req.optlen, 0);
			free(req.data);
		}
		deliver(c, s);
	}
	assert_int_equal(lost5, 1);
	assert_true(snd->cwnd < 2u * 1460);
	i = find_seq(s, base + len);
	assert_true(i >= 0);
	assert_int_equal(s->n_out, 1); /* the second answer's first segment alone */
	lose(s, (size_t)i);
	rt = C(s, PUSH_RT);
	advance(s, 399);
	run_timers(s);
	assert_int_equal(C(s, PUSH_RT), rt);
	advance(s, 2);
	run_timers(s);
	assert_int_equal(C(s, PUSH_RT), rt + 1);
	assert_int_equal(C(s, RTO), 0); /* a probe, not a timeout */
	assert_true(find_seq(s, base + len) >= 0);
	pump(s, c);
	assert_int_equal(C(c, HTTP_2XX), 2);
	assert_int_equal(C(c, PUSH_RT), 0);
	assert_int_equal(C(c, GOOD_RX), 2ULL * len * 8);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_sack_negotiated, free_nodes),
		cmocka_unit_test_teardown(test_sack_not_offered, free_nodes),
		cmocka_unit_test_teardown(test_sack_resends_holes_only, free_nodes),
		cmocka_unit_test_teardown(test_held_without_sack, free_nodes),
		cmocka_unit_test_teardown(test_held_released_at_close, free_nodes),
		cmocka_unit_test_teardown(test_rto_from_rtt, free_nodes),
		cmocka_unit_test_teardown(test_srtt_recorded, free_nodes),
		cmocka_unit_test_teardown(test_srtt_recorded_client, free_nodes),
		cmocka_unit_test_teardown(test_sack_lost_retransmission, free_nodes),
		cmocka_unit_test_teardown(test_sack_hole_at_recovery_point, free_nodes),
		cmocka_unit_test_teardown(test_sack_tail_early_retransmit, free_nodes),
		cmocka_unit_test_teardown(test_tail_timeout_ssthresh, free_nodes),
		cmocka_unit_test_teardown(test_sack_recovery_ends_at_ssthresh, free_nodes),
		cmocka_unit_test_teardown(test_sack_lost_on_new_ack, free_nodes),
		cmocka_unit_test_teardown(test_tail_loss_probe, free_nodes),
		cmocka_unit_test_teardown(test_sack_tail_after_partial_ack, free_nodes),
		cmocka_unit_test_teardown(test_limited_transmit, free_nodes),
		cmocka_unit_test_teardown(test_lone_segment_probe, free_nodes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
