/* SPDX-License-Identifier: BSD-3-Clause
 * Unit tests of primary/control/config_rules.c: the rules checked before EAL
 * starts (dperf -t as a real start), with FILE:LINE, and the one limit
 * function shared with dperf-ctl's set cps / set cc (primary/control/control.c).
 */
// links: primary/control/config_rules.c primary/control/control.c primary/state/mix.c primary/http/messages.c primary/http/http.c primary/http/http_response.c primary/http/rsp_scan.c primary/http/http_request.c
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "shm.h"
#include "control/config_rules.h"
#include "control/control.h"
#include "tls/tls_plan.h"

/* 4 client addresses x 65535 local ports x 1 listen port x 1 core:
 * 262140 tuples, 131070 connections per second at most. */
#define CLIENT_CONF                                  \
	"mode client\n"                              \
	"cpu 1\n"                                    \
	"duration 5s\n"                              \
	"cps %s\n"                                   \
	"port net_memif0 198.18.0.2 198.18.0.1\n"    \
	"client 198.18.1.2 4\n"                      \
	"server 198.18.2.1 1\n"                      \
	"listen 80 1\n"                              \
	"%s"

static char err[DP_ERR_LEN];

/* Parse (which must succeed), then check the rules; returns their result. */
static int
rules(const char *cps, const char *extra, struct dp_config *cfg)
{
	char text[2048], perr[DP_ERR_LEN];

	snprintf(text, sizeof(text), CLIENT_CONF, cps, extra);
	if (dp_config_parse("f.conf", text, cfg, perr, sizeof(perr)) != 0)
		fail_msg("parse: %s", perr);
	err[0] = '\0';
	return config_rules_check(cfg, err, sizeof(err));
}

#define assert_err(text)                                                        \
	do {                                                                    \
		if (strstr(err, (text)) == NULL)                                \
			fail_msg("\"%s\" does not contain \"%s\"", err, (text)); \
	} while (0)

static struct dp_ctl_rep
set(struct control *c, uint32_t op, int64_t v)
{
	struct dp_ctl_req req = {.version = DP_CTL_VERSION, .op = op, .value = v};
	struct dp_ctl_rep rep;

	control_apply(c, &req, &rep, c->shm->hdr.start_tsc);
	return rep;
}

/* The config check and set cps draw the line at the same place. */
static void
test_cps_one_rule(void **state)
{
	struct dp_shm *shm = aligned_alloc(DP_CACHE_LINE, sizeof(*shm));
	struct dp_config cfg;
	struct control ctl;

	(void)state;
	assert_non_null(shm);
	memset(shm, 0, sizeof(*shm));
	assert_int_equal(rules("200k", "", &cfg), -1);
	assert_err("f.conf:4: cps: 200000: beyond what 1 cores and 262140 client tuples sustain (expected at most 131070");
	assert_int_equal(rules("131071", "", &cfg), -1);
	assert_int_equal(rules("131070", "", &cfg), 0);

	shm->hdr.mode = DP_MODE_CLIENT;
	shm->hdr.state = DP_ST_RUNNING;
	shm->hdr.tsc_hz = 1000000000ULL;
	control_init(&ctl, shm, &cfg);
	assert_int_equal(set(&ctl, DP_OP_SET_CPS, 131071).status, DP_CTL_REFUSED);
	assert_int_equal(set(&ctl, DP_OP_SET_CPS, 131070).status, DP_CTL_OK);
	free(shm);
}

static void
test_cc_tuples(void **state)
{
	struct dp_config cfg;

	(void)state;
	assert_int_equal(rules("1k", "cc 262141\nkeepalive\n", &cfg), -1);
	assert_err("f.conf:9: cc: 262141 exceeds the 262140 client tuples");
	assert_int_equal(rules("1k", "cc 262140\nkeepalive\n", &cfg), 0);
	/* Held connections: the launch rate reuses no tuple (test_memif_cc). */
	assert_int_equal(rules("1m", "cc 3000\nkeepalive\n", &cfg), 0);
}

static void
test_flood_and_udp_no_tuple_bound(void **state)
{
	struct dp_config cfg;

	(void)state;
	assert_int_equal(rules("1m", "protocol udp\n", &cfg), 0);
	assert_int_equal(rules("30m", "protocol udp\n", &cfg), -1);
	assert_err("f.conf:4: cps: 30000000: beyond what 1 cores");
}

/* A POST body over several segments: one request at a time, kept whole
 * (at most 64 MiB). */
static void
test_post_over_segments(void **state)
{
	struct dp_config cfg;

	(void)state;
	assert_int_equal(rules("1k", "http_method POST\npayload_size 64k\n", &cfg), 0);
	assert_int_equal(rules("1k", "http_method POST\npayload_size 64k\npipeline 2\n", &cfg), -1);
	assert_err("a POST body over several segments (payload_size 64000 above mss 1460) with pipeline");
	assert_int_equal(rules("1k", "http_method POST\npayload_size 100m\n", &cfg), -1);
	assert_err("payload_size: a POST body over several segments (payload_size 100000000 above mss 1460) too long");
	/* a GET's size stays the response's */
	assert_int_equal(rules("1k", "payload_size 100m\n", &cfg), 0);
}

static void
test_messages_fit_mss(void **state)
{
	struct dp_config cfg;

	(void)state;
	assert_int_equal(rules("1k", "protocol tcp\npayload_size 1000\npipeline 2\n", &cfg), -1);
	assert_err("f.conf:11: pipeline: messages of 2000 (requests) and 1000 (response) bytes exceed mss 1460");
	assert_int_equal(rules("1k", "protocol tcp\npayload_size 700\npipeline 2\n", &cfg), 0);
	/* HTTP: the headers count. */
	assert_int_equal(rules("1k", "payload_size 800\npipeline 2\n", &cfg), -1);
	assert_err("f.conf:10: pipeline: messages of 1600 (requests)");
	assert_int_equal(rules("1k", "payload_size 1460\n", &cfg), 0);
	/* Short default requests, many in flight. */
	assert_int_equal(rules("1k", "pipeline 64\n", &cfg), -1);
	assert_err("f.conf:9: pipeline: messages of ");
}

/* Each kind's request is composed as the worker will (its path): one
 * over mss is refused on its kind line, a POST body over several segments
 * with kinds too. Lines: the conf's 8, then extra's from 9. */
static void
test_kind_requests(void **state)
{
	struct dp_config cfg;
	char extra[512];

	(void)state;
	assert_int_equal(rules("1k", "kind a 1 /a\nkind b 1 /b\npipeline 4\nkeepalive 0\n", &cfg), 0);
	snprintf(extra, sizeof(extra), "mss 536\npipeline 4\nkeepalive 0\nkind a 1 /a\nkind b 1 /%0126d\n", 0);
	assert_int_equal(rules("1k", extra, &cfg), -1);
	assert_err("f.conf:13: kind: b: 4 requests of 181 bytes for /000");
	assert_err("exceed mss 536 (expected a request of one segment");
	assert_int_equal(rules("1k", "kind a 1 /a\nhttp_method POST\npayload_size 3000\n", &cfg), -1);
	assert_err("f.conf:9: kind: a: a POST body over several segments (payload_size 3000 above mss 1460) with kind lines");
}

static void
test_v6_prefix(void **state)
{
	static const char bad[] =
		"mode client\ncpu 0 1\ncps 1k\n"
		"port net_memif0 2001:db8::2 2001:db8::1\n"
		"port net_memif1 2001:db8:1::2 2001:db8:1::1\n"
		"client 2001:db8:a::1 4\n"
		"client 2001:db8:b::1 4\n"
		"server 2001:db8:2::1 1\n"
		"server 2001:db8:2::2 1\n";
	struct dp_config cfg;
	char perr[DP_ERR_LEN];

	(void)state;
	if (dp_config_parse("v6.conf", bad, &cfg, perr, sizeof(perr)) != 0)
		fail_msg("parse: %s", perr);
	assert_int_equal(config_rules_check(&cfg, err, sizeof(err)), -1);
	assert_err("v6.conf:7: client: IPv6 client ranges must share their first 12 bytes (expected the same /96 prefix as line 6)");
	cfg.clients[1].start = cfg.clients[0].start;
	cfg.clients[1].start.v6[15] = 0x80;
	assert_int_equal(config_rules_check(&cfg, err, sizeof(err)), 0);
}

static void
test_server_passes(void **state)
{
	static const char srv[] =
		"mode server\ncpu 0\n"
		"port net_memif0 198.18.0.1 198.18.0.2\n"
		"client 198.18.1.2 4\nserver 198.18.2.1 1\nlisten 80 1\n";
	struct dp_config cfg;
	char perr[DP_ERR_LEN];

	(void)state;
	if (dp_config_parse("s.conf", srv, &cfg, perr, sizeof(perr)) != 0)
		fail_msg("parse: %s", perr);
	assert_int_equal(config_rules_check(&cfg, err, sizeof(err)), 0);
}

/* A server's objects are composed as a worker will: one over mss with
 * pipeline is refused on its object line; a file's read. */
static void
test_objects_composed(void **state)
{
	static const char srv[] =
		"mode server\ncpu 0\n"
		"port net_memif0 198.18.0.1 198.18.0.2\n"
		"client 198.18.1.2 4\nserver 198.18.2.1 1\nlisten 80 1\nkeepalive\n"
		"object /a 100\nobject /v file:" DP_SOURCE_DIR "/VERSION\nobject /big 64k\n%s";
	struct dp_config cfg;
	char perr[DP_ERR_LEN], text[1024];

	(void)state;
	snprintf(text, sizeof(text), srv, "");
	if (dp_config_parse("s.conf", text, &cfg, perr, sizeof(perr)) != 0)
		fail_msg("parse: %s", perr);
	assert_int_equal(config_rules_check(&cfg, err, sizeof(err)), 0);
	snprintf(text, sizeof(text), srv, "pipeline 2\n");
	if (dp_config_parse("s.conf", text, &cfg, perr, sizeof(perr)) != 0)
		fail_msg("parse: %s", perr);
	assert_int_equal(config_rules_check(&cfg, err, sizeof(err)), -1);
	assert_err("s.conf:10: object: /big: an answer of 64085 bytes with pipeline 2 (expected "
		   "answers within mss 1460");
}

/* protocol https passes the rules on a client and on a server (the
 * engine carries both: primary/tls/). */
static void
test_tls_passes(void **state)
{
	static const char srv[] =
		"mode server\ncpu 0\nprotocol https\ntls_cert /etc/hostname\ntls_key /etc/hostname\n"
		"port net_memif0 198.18.0.1 198.18.0.2\n"
		"client 198.18.1.2 4\nserver 198.18.2.1 1\nlisten 80 1\n";
	struct dp_config cfg;
	char perr[DP_ERR_LEN];

	(void)state;
	assert_int_equal(rules("1k", "protocol https\n", &cfg), 0);
	if (dp_config_parse("s.conf", srv, &cfg, perr, sizeof(perr)) != 0)
		fail_msg("parse: %s", perr);
	assert_int_equal(config_rules_check(&cfg, err, sizeof(err)), 0);
}


/* Over TLS an answer (or a POST body) is held as records until the peer
 * acknowledges it, at most TLS_OUT_MAX (issue 38): a longer one is
 * refused before anything starts, on its payload_size or object line,
 * with the reason and the limit; the longest that fits passes; plain HTTP
 * is not bound by it. */
static void
test_tls_answer_too_long(void **state)
{
	static const char srv[] =
		"mode server\ncpu 0\nprotocol %s\n"
		"port net_memif0 198.18.0.1 198.18.0.2\n"
		"client 198.18.1.2 4\nserver 198.18.2.1 1\nlisten 80 1\nkeepalive\n%s";
#define HTTPS "https\ntls_cert /etc/hostname\ntls_key /etc/hostname"
	struct dp_config cfg;
	char perr[DP_ERR_LEN], text[1024], extra[128], want[256];
	const uint32_t max = tls_msg_max();

	(void)state;
	/* the limit itself: its records and slack within TLS_OUT_MAX, one more byte not */
	assert_true(tls_msg_hold_max(max) <= TLS_OUT_MAX);
	assert_true(tls_msg_hold_max((uint64_t)max + 1) > TLS_OUT_MAX);
	assert_true(max > 4000000u && max < TLS_OUT_MAX);
	struct {
		const char *proto, *extra;
		int rc;
		const char *err;
	} cases[] = {
		{ HTTPS, "payload_size 5m\n", -1, "s.conf:11: payload_size: an answer of 5000000 bytes over TLS" },
		{ HTTPS, "payload_size 4m\n", 0, NULL },
		{ HTTPS, "object /ok 1m\nobject /huge 8m\n", -1, "s.conf:12: object: /huge: an answer of 8000085 bytes over TLS" },
		{ "http", "payload_size 5m\n", 0, NULL },
		{ "http", "object /huge 8m\n", 0, NULL },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(text, sizeof(text), srv, cases[i].proto, cases[i].extra);
		if (dp_config_parse("s.conf", text, &cfg, perr, sizeof(perr)) != 0)
			fail_msg("parse: %s", perr);
		err[0] = '\0';
		if (config_rules_check(&cfg, err, sizeof(err)) != cases[i].rc)
			fail_msg("case %zu (%s %s): expected %d, got \"%s\"", i, cases[i].proto, cases[i].extra,
				 cases[i].rc, err);
		if (cases[i].err != NULL) {
			assert_err(cases[i].err);
			snprintf(want, sizeof(want), "(TLS_OUT_MAX, 4194304 bytes) (expected messages of at most %u bytes over TLS)", max);
			assert_err(want);
			assert_null(strchr(err, '\n'));
		}
	}
	/* the longest answer that fits passes, one byte more is refused */
	for (int more = 0; more < 2; more++) {
		snprintf(extra, sizeof(extra), "payload_size %u\n", max + (uint32_t)more);
		snprintf(text, sizeof(text), srv, HTTPS, extra);
		if (dp_config_parse("s.conf", text, &cfg, perr, sizeof(perr)) != 0)
			fail_msg("parse: %s", perr);
		assert_int_equal(config_rules_check(&cfg, err, sizeof(err)), more ? -1 : 0);
	}
	/* a client's POST body over TLS: the same limit */
	assert_int_equal(rules("1k", "protocol https\nhttp_method POST\npayload_size 5m\n", &cfg), -1);
	assert_err("f.conf:11: payload_size: a request of 5000000 bytes over TLS");
	assert_int_equal(rules("1k", "protocol https\nhttp_method POST\npayload_size 1m\n", &cfg), 0);
#undef HTTPS
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cps_one_rule),
		cmocka_unit_test(test_post_over_segments),
		cmocka_unit_test(test_cc_tuples),
		cmocka_unit_test(test_flood_and_udp_no_tuple_bound),
		cmocka_unit_test(test_messages_fit_mss),
		cmocka_unit_test(test_kind_requests),
		cmocka_unit_test(test_v6_prefix),
		cmocka_unit_test(test_server_passes),
		cmocka_unit_test(test_objects_composed),
		cmocka_unit_test(test_tls_passes),
		cmocka_unit_test(test_tls_answer_too_long),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
