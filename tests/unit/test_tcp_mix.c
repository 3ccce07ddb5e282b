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

/* Server pools (issue 37): kind "pool" on its own server address, kind
 * "main" on the server line's; the server has both as server lines. */
#define POOL_IP 0xc6120301 /* 198.18.3.1 */

static void
pool_client(struct dp_config *c)
{
	ka3_now(c);
	c->n_ports = 1;
	c->kind_seed = 9;
	add_kind(c, "main", 50, "/a", -1);
	add_kind(c, "pool", 50, "/b", -1);
	c->kinds[1].has_srv = 1;
	c->kinds[1].srv.start.family = 4;
	c->kinds[1].srv.start.v4 = rte_cpu_to_be_32(POOL_IP);
	c->kinds[1].srv.num = 1;
}

static void
pool_server(struct dp_config *c)
{
	ka_server(c);
	c->n_ports = 1;
	c->servers[1].start.family = 4;
	c->servers[1].start.v4 = rte_cpu_to_be_32(POOL_IP);
	c->servers[1].num = 1;
	c->n_servers = 2;
}

/* Each connection's SYN goes to its kind's server address, the server
 * answers from that address, its retransmission too (the socket's index
 * holds the pool), every request answered; the kind's request names its
 * address as Host. */
static void
test_kind_pools(void **state)
{
	struct node *c = new_client(pool_client), *s = new_server(pool_server);
	uint32_t count[2] = { 0 };

	(void)state;
	assert_int_equal(s->wk.net.skt.n_sa, 2);
	for (int i = 0; i < CONNS; i++) {
		struct sock *sk;
		const char *host;
		uint32_t want;

		assert_int_equal(tcp_client_launch(&c->wk.net), 0);
		sk = open_sock(c);
		want = rte_cpu_to_be_32(sk->kind == 1 ? POOL_IP : SRV_IP);
		count[sk->kind]++;
		assert_int_equal(c->n_out, 1);
		assert_int_equal(c->out[0].t.rip, want);
		deliver(c, s); /* SYN */
		assert_int_equal(s->n_out, 1);
		assert_int_equal(s->out[0].t.lip, want); /* SYN+ACK, from it */
		if (sk->kind == 1 && count[1] == 1) {
			/* lost once: the server's timer sends it again from the
			 * socket's own tuple (its index: the pool) */
			box_clear(s);
			rt_expire(s);
			assert_int_equal(s->n_out, 1);
			assert_int_equal(s->out[0].t.lip, want);
		}
		deliver(s, c);
		assert_int_equal(c->n_out, 1); /* the request */
		assert_int_equal(c->out[0].t.rip, want);
		host = sk->kind == 1 ? "Host: 198.18.3.1\r\n" : "Host: 10.0.1.1\r\n";
		assert_non_null(memmem(c->out[0].data, c->out[0].len, host, strlen(host)));
		pump(c, s);
		assert_idle(c);
	}
	assert_true(count[0] > CONNS / 3 && count[1] > CONNS / 3);
	assert_int_equal(C(c, HTTP_GET), 3 * CONNS);
	assert_int_equal(C(c, HTTP_2XX), 3 * CONNS);
	assert_int_equal(C(s, HTTP_2XX), 3 * CONNS);
	assert_int_equal(C(c, SK_CLOSE), CONNS);
	assert_int_equal(C(c, TCP_DROP) + C(s, TCP_DROP), 0);
	assert_clean(c);
	assert_clean(s);
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
	/* the counts per kind (state/cnt.h): each kind's own, summing to the totals */
	{
		uint64_t rx = 0;

		for (int k = 0; k < 3; k++) {
			const uint64_t *kc = c->wk.kcnt.c[k];

			assert_int_equal(kc[DP_KC_REQ], count[k] * c->wk.tcp.ka_num[k]);
			assert_int_equal(kc[DP_KC_HTTP_2XX], kc[DP_KC_REQ]);
			assert_int_equal(kc[DP_KC_HTTP_ERR], 0);
			assert_int_equal(kc[DP_KC_GOOD_RX], kc[DP_KC_REQ] * s->wk.net.msg.rsp_ka.len * 8);
			rx += kc[DP_KC_GOOD_RX];
		}
		assert_int_equal(rx, C(c, GOOD_RX));
	}
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
	assert_null(c->wk.tcp.kc); /* no counts per kind: the totals are kind 0's */
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

static void
add_object(struct dp_config *c, const char *path, uint32_t size, const char *file)
{
	struct dp_object *o = &c->objects[c->n_objects++];

	memset(o, 0, sizeof(*o));
	snprintf(o->path, sizeof(o->path), "%s", path);
	o->size = size;
	if (file != NULL)
		snprintf(o->file, sizeof(o->file), "%s", file);
}

#define VERSION_FILE DP_SOURCE_DIR "/VERSION"

/* A server with three objects: 100 bytes, 5000 (over several segments:
 * the sender, and the answer queue's keys), and a file's bytes. */
static void
obj_server(struct dp_config *c)
{
	FILE *f = fopen(VERSION_FILE, "r");
	long size;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	size = ftell(f);
	fclose(f);
	c->keepalive = 1;
	add_object(c, "/a", 100, NULL);
	add_object(c, "/bb", 5000, NULL);
	add_object(c, "/v", (uint32_t)size, VERSION_FILE);
}

/* A client asking for them and for a path the server does not have. */
static void
obj_client(struct dp_config *c)
{
	ka3_now(c);
	c->kind_seed = 9;
	add_kind(c, "a", 40, "/a", -1);
	add_kind(c, "bb", 30, "/bb", -1);
	add_kind(c, "v", 10, "/v", -1);
	add_kind(c, "miss", 20, "/nothing", -1);
}

static void
test_objects(void **state)
{
	struct node *c = new_client(obj_client), *s = new_server(obj_server);
	const struct msg *om = s->wk.net.msg.obj;
	uint32_t count[4] = { 0 }, vsize = s->cfg.objects[2].size;
	uint64_t bytes = 0;
	char head[64];

	(void)state;
	/* the answers: dperf's head of 85 bytes, Content-Length the object's size */
	assert_int_equal(s->wk.net.msg.n_obj, 3);
	assert_non_null(s->wk.tcp.snd); /* /bb's answer takes several segments */
	assert_int_equal(om[0].len, 185);
	assert_int_equal(om[4].len, 5085);
	assert_non_null(om[4].seg_sum);
	assert_int_equal(om[8].len, 85 + vsize);
	snprintf(head, sizeof(head), "HTTP/1.1 200 OK\r\nContent-Length: %u\r\n", vsize);
	assert_memory_equal(om[8].data, head, strlen(head));
	{
		char file[256];
		FILE *f = fopen(VERSION_FILE, "r");

		assert_non_null(f);
		assert_int_equal(fread(file, 1, vsize, f), vsize);
		fclose(f);
		assert_memory_equal(om[8].data + 85, file, vsize);     /* kept alive */
		assert_memory_equal(om[9].data + om[11].len, file, vsize); /* closing */
	}
	assert_int_equal(om[12].len, MSG_NOT_FOUND_KA_LEN);
	for (int i = 0; i < 100; i++) {
		struct sock *sk;

		assert_int_equal(tcp_client_launch(&c->wk.net), 0);
		deliver(c, s);
		deliver(s, c);
		sk = open_sock(c);
		count[sk->kind]++;
		pump(c, s);
		assert_idle(c);
	}
	assert_true(count[0] > 0 && count[1] > 0 && count[2] > 0 && count[3] > 0);
	bytes = 3ULL * (count[0] * 185 + count[1] * 5085 + count[2] * (85 + vsize) +
			count[3] * MSG_NOT_FOUND_KA_LEN);
	/* each request answered by its path; the unknown one 404, counted */
	assert_int_equal(C(s, HTTP_GET), 300);
	assert_int_equal(C(s, HTTP_404), 3 * count[3]);
	assert_int_equal(C(s, HTTP_2XX), 3 * (100 - count[3]));
	assert_int_equal(C(c, HTTP_2XX), 3 * (100 - count[3]));
	assert_int_equal(C(c, HTTP_ERR), 3 * count[3]);
	assert_int_equal(C(c, GOOD_RX), bytes * 8);
	/* per kind: the missing path's answers are its errors, the others 2xx */
	for (int k = 0; k < 4; k++) {
		const uint64_t *kc = c->wk.kcnt.c[k];
		static const uint32_t size[4] = { 185, 5085, 0, MSG_NOT_FOUND_KA_LEN };

		assert_int_equal(kc[DP_KC_REQ], 3 * count[k]);
		assert_int_equal(kc[DP_KC_HTTP_2XX], k == 3 ? 0 : 3 * count[k]);
		assert_int_equal(kc[DP_KC_HTTP_ERR], k == 3 ? 3 * count[k] : 0);
		assert_int_equal(kc[DP_KC_GOOD_RX], 3ULL * count[k] * (k == 2 ? 85 + vsize : size[k]) * 8);
	}
	assert_int_equal(C(c, SK_ERR) + C(s, SK_ERR), 0);
	assert_int_equal(C(c, TCP_DROP) + C(c, RST_TX) + C(c, RST_RX) + C(c, DROP_TX), 0);
	assert_clean(s);
	assert_idle(s);
}

/* Requests waiting behind an answer over several segments keep their
 * keys (two at most with objects): a pipelining client asking /bb, /a,
 * /nothing in one segment gets 5085, 185 and the 404, in order. */
static void
test_objects_queued(void **state)
{
	struct node *c = new_client(ka3_now), *s = new_server(obj_server);
	static const char three[] = "GET /bb HTTP/1.1\r\n\r\nGET /a HTTP/1.1\r\n\r\n"
				    "GET /nothing HTTP/1.1\r\n\r\n";
	struct tuple t, st;
	struct sock *ssk;
	uint64_t got = 0;

	(void)state;
	assert_int_equal(tcp_client_launch(&c->wk.net), 0);
	deliver(c, s); /* SYN */
	deliver(s, c); /* SYN+ACK; the client's ACK and request are dropped */
	client_tuple(c, 0, &t);
	reverse(&t, &st);
	box_clear(c);
	box_clear(s);
	ssk = server_sock(s, &t);
	assert_int_equal(ssk->state, SK_SYN_RCVD);
	inject(s, &t, ssk->rcv_nxt, ssk->snd_una + 1, TH_ACK | TH_PSH, (const uint8_t *)three,
	       sizeof(three) - 1);
	assert_int_equal(C(s, HTTP_GET), 3);
	assert_int_equal(C(s, HTTP_404), 1);
	/* the first answer's segments, then the others once acknowledged */
	for (int i = 0; i < 200 && s->n_out; i++) {
		for (size_t k = 0; k < s->n_out; k++) {
			got += s->out[k].len;
			inject(s, &t, ssk->rcv_nxt, s->out[k].seq + s->out[k].len, TH_ACK, NULL, 0);
		}
		box_clear(s);
	}
	assert_int_equal(got, 5085 + 185 + MSG_NOT_FOUND_KA_LEN);
	assert_int_equal(C(s, HTTP_2XX), 2);
	assert_int_equal(C(s, PIPE_FULL), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_kinds, free_nodes),
		cmocka_unit_test_teardown(test_kind_pools, free_nodes),
		cmocka_unit_test_teardown(test_one_kind_line, free_nodes),
		cmocka_unit_test_teardown(test_no_kinds, free_nodes),
		cmocka_unit_test_teardown(test_objects, free_nodes),
		cmocka_unit_test_teardown(test_objects_queued, free_nodes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
