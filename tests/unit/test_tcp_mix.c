/* SPDX-License-Identifier: BSD-3-Clause
 * Unit tests of the traffic mix's client side (issue 37): each new
 * connection takes a kind from the worker's pick (state/mix.h), sends its
 * kind's request (msgs.kreq) and closes after its kind's keepalive count;
 * without kind lines the one request is sent, as before.
 * The harness (tcp_harness.c) drives the real client and server back to back.
 */
// links: primary/boot/worker_setup.c primary/net/vxlan.c primary/tcp/tcp_client.c primary/tcp/tcp_server.c primary/tcp/tcp_send.c primary/tcp/tcp_timeout.c primary/tcp/tcp_dack.c primary/http/http.c primary/http/http_response.c primary/http/rsp_scan.c primary/http/http_request.c primary/http/messages.c primary/boot/worker_msgs.c primary/engine/timers.c tests/unit/tcp_harness.c primary/tcp/tcp_common.c primary/tcp/tcp_ooo.c primary/tcp/tcp_sack.c primary/tcp/tcp_rtt.c primary/app/app.c primary/app/http_app.c primary/app/raw_app.c primary/state/mix.c
#include "tcp_harness.h"
#include "state/mix.h"

#define CONNS 400

static void
add_kind(struct dp_config *c, const char *name, uint32_t weight, const char *path, int ka)
{
	struct dp_kind *k = &c->kinds[c->n_kinds++];

	memset(k, 0, sizeof(*k));
	snprintf(k->name, sizeof(k->name), "%s", name);
	snprintf(k->path, sizeof(k->path), "%s", path);
	k->weight = weight;
	if (ka >= 0) {
		k->has_keepalive = 1;
		k->keepalive_num = (uint32_t)ka;
	}
}

/* Three kinds, 70/20/10; the second closes after 2 requests, the others
 * after keepalive_request_num's 3; requests back to back. */
static void
three_kinds(struct dp_config *c)
{
	ka3_now(c);
	c->kind_seed = 5;
	add_kind(c, "small", 70, "/a", -1);
	add_kind(c, "mid", 20, "/bb", 2);
	add_kind(c, "big", 10, "/ccc/d?e=f", -1);
}

/* The one open client socket. */
static struct sock *
open_sock(struct node *c)
{
	struct sock *found = NULL;

	for (uint64_t i = 0; i < c->wk.net.skt.n_sk; i++)
		if (c->wk.net.skt.sk[i].state != SK_CLOSED) {
			assert_null(found);
			found = &c->wk.net.skt.sk[i];
		}
	assert_non_null(found);
	return found;
}

static void
test_kinds(void **state)
{
	struct node *c = new_client(three_kinds), *s = new_server(ka_server);
	const struct dp_config *cfg = &c->cfg;
	uint32_t count[3] = { 0 }, gets = 0;
	struct mix_table t = { 0 };
	uint32_t w[3] = { 70, 20, 10 };
	struct mix ref;

	(void)state;
	assert_non_null(c->wk.tcp.mix);
	assert_int_equal(c->wk.tcp.ka_num[0], 3);
	assert_int_equal(c->wk.tcp.ka_num[1], 2);
	assert_int_equal(c->wk.tcp.ka_num[2], 3);
	/* the worker's sequence is the seed's (worker 0) */
	assert_int_equal(mix_table_build(&t, w, 3), 0);
	mix_init(&ref, 5, 0, &t);
	for (int i = 0; i < CONNS; i++) {
		struct sock *sk;
		char want[160];
		int n;

		assert_int_equal(tcp_client_launch(&c->wk.net), 0);
		deliver(c, s); /* SYN */
		deliver(s, c); /* SYN+ACK: the ACK with the request goes */
		sk = open_sock(c);
		assert_int_equal(sk->kind, mix_pick(&ref));
		count[sk->kind]++;
		gets += c->wk.tcp.ka_num[sk->kind];
		assert_int_equal(c->n_out, 1);
		n = snprintf(want, sizeof(want), "GET %s HTTP/1.1\r\n", cfg->kinds[sk->kind].path);
		assert_true(c->out[0].len > (uint32_t)n);
		assert_memory_equal(c->out[0].data, want, (size_t)n);
		assert_int_equal(c->out[0].len, c->wk.net.msg.kreq[sk->kind].len);
		pump(c, s); /* its requests, then the close */
		assert_idle(c);
	}
	assert_int_equal(count[0] + count[1] + count[2], CONNS);
	assert_true(count[0] > CONNS * 60 / 100 && count[0] < CONNS * 80 / 100);
	assert_true(count[1] > CONNS * 12 / 100 && count[1] < CONNS * 28 / 100);
	assert_true(count[2] > CONNS * 4 / 100 && count[2] < CONNS * 16 / 100);
	/* each connection asked its kind's keepalive count, all answered */
	assert_int_equal(C(c, HTTP_GET), gets);
	assert_int_equal(C(c, HTTP_2XX), gets);
	assert_int_equal(C(s, HTTP_2XX), gets);
	assert_int_equal(C(c, SK_CLOSE), CONNS);
	assert_clean(c);
	assert_clean(s);
}

/* One kind line: no pick, every connection kind 0 with that kind's path. */
static void
one_kind(struct dp_config *c)
{
	add_kind(c, "only", 1, "/only", -1);
}

static void
test_one_kind_line(void **state)
{
	struct node *c = new_client(one_kind), *s = new_server(NULL);

	(void)state;
	assert_null(c->wk.tcp.mix);
	open_and_ask(c, s);
	assert_int_equal(C(s, HTTP_GET), 1);
	assert_memory_equal(c->wk.net.msg.kreq[0].data, "GET /only HTTP/1.1\r\n", 20);
	pump(c, s);
	assert_int_equal(C(c, HTTP_2XX), 1);
	assert_idle(c);
}

/* Without kind lines: no pick, kind 0's request is the one request (the
 * same bytes, length and sum), keepalive_request_num for every socket. */
static void
test_no_kinds(void **state)
{
	struct node *c = new_client(ka3_now), *s = new_server(ka_server);
	const struct msg *r = &c->wk.net.msg.req, *k0 = &c->wk.net.msg.kreq[0];

	(void)state;
	assert_null(c->wk.tcp.mix);
	assert_ptr_equal(k0->data, r->data);
	assert_int_equal(k0->len, r->len);
	assert_int_equal(k0->sum, r->sum);
	assert_memory_equal(r->data, "GET / HTTP/1.1\r\n", 16);
	for (int k = 0; k < DP_MAX_KINDS; k++)
		assert_int_equal(c->wk.tcp.ka_num[k], 3);
	assert_int_equal(tcp_client_launch(&c->wk.net), 0);
	deliver(c, s);
	deliver(s, c);
	assert_int_equal(open_sock(c)->kind, 0);
	assert_int_equal(c->out[0].len, r->len);
	assert_memory_equal(c->out[0].data, r->data, r->len);
	pump(c, s);
	assert_int_equal(C(c, HTTP_2XX), 3);
	assert_idle(c);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_kinds, free_nodes),
		cmocka_unit_test_teardown(test_one_kind_line, free_nodes),
		cmocka_unit_test_teardown(test_no_kinds, free_nodes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
