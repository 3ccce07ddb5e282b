/* SPDX-License-Identifier: BSD-3-Clause
 * Unit tests of a traffic mix of http and https kinds (issue 37): our
 * client (protocol https, kinds marked http go plain: tls_client.c)
 * against our server (protocol https with plain_http: a connection whose
 * first byte is not a TLS handshake record is served plain, tls_server.c),
 * back to back on the TCP harness (tcp_harness.c); and the server's
 * counts per object (state/cnt.h's struct ocnt, counted by
 * tcp_server_answered) against the client's per kind.
 */
// links: primary/boot/worker_setup.c primary/net/vxlan.c primary/tcp/tcp_client.c primary/tcp/tcp_server.c primary/tcp/tcp_send.c primary/tcp/tcp_timeout.c primary/tcp/tcp_dack.c primary/http/http.c primary/http/http_response.c primary/http/rsp_scan.c primary/http/http_request.c primary/http/messages.c primary/boot/worker_msgs.c primary/engine/timers.c tests/unit/tcp_harness.c primary/tcp/tcp_common.c primary/tcp/tcp_ooo.c primary/tcp/tcp_sack.c primary/tcp/tcp_rtt.c primary/tls/tls_mem.c primary/tls/tls_ctx.c primary/tls/tls_conn.c primary/tls/tls_src.c primary/tls/tls_measure.c primary/tls/tls_tcp.c primary/tls/tls_server.c primary/tls/tls_client.c primary/net/lat.c primary/app/app.c primary/app/http_app.c primary/app/raw_app.c primary/state/mix.c
#include "tcp_harness.h"

#include "tls/tls_mem.h"
#include "tls/tls_tcp.h"

#define CERT DP_SOURCE_DIR "/build/tls/test-cert.pem"
#define KEY  DP_SOURCE_DIR "/build/tls/test-key.pem"
#define CONNS 60

static struct tls_part part_s, part_c;
static struct node *srv, *cli;

static void
add_kind(struct dp_config *c, const char *name, uint32_t weight, const char *path, int proto)
{
	struct dp_kind *k = &c->kinds[c->n_kinds++];

	memset(k, 0, sizeof(*k));
	snprintf(k->name, sizeof(k->name), "%s", name);
	snprintf(k->path, sizeof(k->path), "%s", path);
	k->weight = weight;
	if (proto >= 0) {
		k->has_proto = 1;
		k->proto = (uint8_t)proto;
	}
}

static void
add_object(struct dp_config *c, const char *path, uint32_t size)
{
	struct dp_object *o = &c->objects[c->n_objects++];

	memset(o, 0, sizeof(*o));
	snprintf(o->path, sizeof(o->path), "%s", path);
	o->size = size;
}

/* Two kinds marked http and two https (one unmarked: the file's
 * protocol), of different sizes, one over several segments each way of
 * answering; a connection per request. */
static void
mix_client(struct dp_config *c)
{
	c->protocol = DP_PROTO_HTTPS;
	c->kind_seed = 9;
	add_kind(c, "p100", 30, "/a", DP_PROTO_HTTP);
	add_kind(c, "p5000", 20, "/bb", DP_PROTO_HTTP);
	add_kind(c, "t300", 30, "/c", DP_PROTO_HTTPS);
	add_kind(c, "t7000", 20, "/dd", -1); /* the file's: https */
}

static void
mix_server(struct dp_config *c)
{
	c->protocol = DP_PROTO_HTTPS;
	snprintf(c->tls_cert, sizeof(c->tls_cert), "%s", CERT);
	snprintf(c->tls_key, sizeof(c->tls_key), "%s", KEY);
	c->plain_http = 1;
	add_object(c, "/a", 100);
	add_object(c, "/bb", 5000);
	add_object(c, "/c", 300);
	add_object(c, "/dd", 7000);
}

static void
setup_pair(void (*client)(struct dp_config *), void (*server)(struct dp_config *))
{
	char err[DP_ERR_LEN];

	srv = new_server(server);
	cli = new_client(client);
	if (tls_part_init(&part_s, &srv->wk.net, err, sizeof(err)) != 0)
		fail_msg("tls_part_init (server): %s", err);
	if (tls_part_init(&part_c, &cli->wk.net, err, sizeof(err)) != 0)
		fail_msg("tls_part_init (client): %s", err);
}

static int
teardown(void **state)
{
	SSL_SESSION_free(part_c.side.sess);
	part_c.side.sess = NULL;
	tls_part_fini(&part_s, &srv->wk.net);
	tls_part_fini(&part_c, &cli->wk.net);
	free_nodes(state);
	return 0;
}

/* The one open client socket's kind. */
static int
open_kind(struct node *c)
{
	int kind = -1;

	for (uint64_t i = 0; i < c->wk.net.skt.n_sk; i++)
		if (c->wk.net.skt.sk[i].state != SK_CLOSED) {
			assert_int_equal(kind, -1);
			kind = c->wk.net.skt.sk[i].kind;
		}
	assert_true(kind >= 0);
	return kind;
}

/* Each connection's kind says TLS or not: a kind marked http sends its
 * request in the clear with the ACK of the SYN+ACK, an https kind a
 * ClientHello (a handshake record, 0x16); the server serves each as its
 * first byte says. Per kind and per object, every figure equal. */
static void
test_http_and_https(void **state)
{
	static const uint32_t size[4] = { 100, 5000, 300, 7000 };
	uint32_t conns[4] = { 0 }, tls = 0;
	uint64_t sum_req = 0, sum_2xx = 0, sum_tx = 0, sum_rx = 0;

	(void)state;
	setup_pair(mix_client, mix_server);
	assert_int_equal(part_c.plain_kinds, 0x3);
	assert_int_equal(part_s.sniff, 1);
	for (int i = 0; i < CONNS; i++) {
		int k;

		assert_int_equal(tcp_client_launch(&cli->wk.net), 0);
		deliver(cli, srv); /* SYN */
		deliver(srv, cli); /* SYN+ACK: the request or the ClientHello goes */
		k = open_kind(cli);
		conns[k]++;
		assert_int_equal(cli->n_out, 1);
		assert_true(cli->out[0].len > 4);
		if (k < 2) {
			char want[32];
			int n = snprintf(want, sizeof(want), "GET %s ", cli->cfg.kinds[k].path);

			assert_memory_equal(cli->out[0].data, want, (size_t)n);
		} else {
			assert_int_equal(cli->out[0].data[0], 0x16);
			tls++;
		}
		pump(cli, srv);
		assert_idle(cli);
	}
	for (int k = 0; k < 4; k++) {
		const uint64_t *kc = cli->wk.kcnt.c[k], *oc = srv->wk.ocnt.c[k];

		assert_true(conns[k] > 0);
		assert_int_equal(kc[DP_KC_REQ], conns[k]);
		assert_int_equal(kc[DP_KC_HTTP_2XX], conns[k]);
		assert_int_equal(kc[DP_KC_HTTP_ERR], 0);
		assert_int_equal(oc[DP_OC_REQ], conns[k]);
		assert_int_equal(oc[DP_OC_HTTP_2XX], conns[k]);
		/* the answer's bytes, head and body, once per answer: the
		 * client's plaintext read, over http and https alike */
		assert_int_equal(oc[DP_OC_GOOD_TX], (uint64_t)conns[k] * (size[k] + DP_HTTP_MIN_SIZE) * 8);
		assert_int_equal(kc[DP_KC_GOOD_RX], oc[DP_OC_GOOD_TX]);
		sum_req += oc[DP_OC_REQ];
		sum_2xx += oc[DP_OC_HTTP_2XX];
		sum_tx += oc[DP_OC_GOOD_TX];
		sum_rx += kc[DP_KC_GOOD_RX];
	}
	assert_int_equal(sum_req, C(srv, HTTP_GET));
	assert_int_equal(sum_2xx, C(srv, HTTP_2XX));
	/* (the totals' goodRx and goodTx count TCP's payload: the https
	 * connections' records, more than the plaintext the rows count) */
	assert_int_equal(sum_rx, sum_tx);
	assert_true(C(cli, GOOD_RX) > sum_rx);
	/* a handshake for each https connection, none for the plain ones */
	assert_int_equal(C(cli, TLS_HS), tls);
	assert_int_equal(C(cli, TLS_HS_DONE), tls);
	assert_int_equal(C(srv, TLS_HS), tls);
	assert_int_equal(C(srv, TLS_HS_DONE), tls);
	assert_int_equal(C(cli, HTTP_2XX), CONNS);
	assert_int_equal(C(cli, SK_ERR) + C(cli, HTTP_ERR) + C(cli, TLS_ERR) + C(srv, TLS_ERR) + C(srv, SK_ERR), 0);
	assert_int_equal(open_sockets(cli), 0);
	assert_int_equal(open_sockets(srv), 0);
	for (uint64_t i = 0; i < part_s.n_conn; i++) /* every plain mark gone with its socket */
		assert_int_equal(part_s.conn[i].state, TLS_IDLE);
}

/* Without plain_http an https server takes a plain request as a bad
 * handshake (counted tlsFailProto), as before. */
static void
no_plain_server(struct dp_config *c)
{
	mix_server(c);
	c->plain_http = 0;
}

static void
test_no_plain_http(void **state)
{
	(void)state;
	setup_pair(mix_client, no_plain_server);
	for (int i = 0; i < 20; i++) {
		assert_int_equal(tcp_client_launch(&cli->wk.net), 0);
		pump(cli, srv);
	}
	assert_true(C(srv, TLS_F_PROTO) > 0);
	assert_int_equal(C(srv, TLS_F_PROTO), cli->wk.kcnt.c[0][DP_KC_REQ] + cli->wk.kcnt.c[1][DP_KC_REQ]);
	assert_int_equal(srv->wk.ocnt.c[0][DP_OC_REQ] + srv->wk.ocnt.c[1][DP_OC_REQ], 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_http_and_https, teardown),
		cmocka_unit_test_teardown(test_no_plain_http, teardown),
	};

	if (tls_mem_init() != 0) /* before OpenSSL's first allocation */
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
