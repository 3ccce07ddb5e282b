/* SPDX-License-Identifier: BSD-3-Clause
 * flow_isolate's rules (primary/dev/flow_plan.c, the real code): for each
 * kind of port, what reaches which queue. ARP or neighbour solicitations
 * and the port's address to queue 0; a server's address q to queue q; a
 * client's replies from server address q to queue q; with one queue or
 * rss a range as aligned prefixes covering exactly its addresses; with
 * vxlan each queue's local VTEP.
 */
// links: primary/dev/flow_plan.c
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>
#include <arpa/inet.h>

#include "config.h"
#include "dev/flow_plan.h"

static struct dp_config
conf(const char *text)
{
	struct dp_config cfg;
	char err[DP_ERR_LEN];

	if (dp_config_parse("f.conf", text, &cfg, err, sizeof(err)) != 0)
		fail_msg("parse: %s", err);
	return cfg;
}

static void
check_v4(const struct flow_rule *r, const char *addr, uint8_t plen, uint16_t queue, int src)
{
	uint32_t a;

	assert_int_equal(inet_pton(AF_INET, addr, &a), 1);
	assert_int_equal(r->arp, 0);
	assert_int_equal(r->v6, 0);
	assert_memory_equal(r->addr, &a, 4);
	assert_int_equal(r->plen, plen);
	assert_int_equal(r->queue, queue);
	assert_int_equal(r->match_src, src);
	assert_int_equal(r->rss, 0);
}

/* A one-core server whose address is the port's: ARP, then the address. */
static void
test_server_one(void **state)
{
	struct dp_config cfg = conf("mode server\ncpu 0\nport net_tap0 198.18.0.1 198.18.0.2\n"
				    "client 198.18.0.2 1\nserver 198.18.0.1 1\n");
	struct flow_rule r[DP_FLOW_RULES_MAX];
	uint32_t n = flow_plan(&cfg, 0, 1, r, DP_FLOW_RULES_MAX);

	(void)state;
	assert_int_equal(n, 2);
	assert_int_equal(r[0].arp, 1);
	assert_int_equal(r[0].queue, 0);
	check_v4(&r[1], "198.18.0.1", 32, 0, 0);
}

/* Two workers: each server address to its own queue (the port's address
 * among them, no rule of its own). */
static void
test_server_queues(void **state)
{
	struct dp_config cfg = conf("mode server\ncpu 0 1\nport net_tap0 198.18.0.1 198.18.0.3\n"
				    "client 198.18.0.3 1\nserver 198.18.0.1 2\n");
	struct flow_rule r[DP_FLOW_RULES_MAX];
	uint32_t n = flow_plan(&cfg, 0, 2, r, DP_FLOW_RULES_MAX);

	(void)state;
	assert_int_equal(n, 3);
	assert_int_equal(r[0].arp, 1);
	check_v4(&r[1], "198.18.0.1", 32, 0, 0);
	check_v4(&r[2], "198.18.0.2", 32, 1, 0);
}

/* A client's workers: the replies from server address q to queue q, as
 * dperf's rules; the port's own address to queue 0. */
static void
test_client_queues(void **state)
{
	struct dp_config cfg = conf("mode client\ncpu 0 1\ncps 1\nport 01:00.0 198.18.0.2 198.18.0.1\n"
				    "client 198.18.1.2 4\nserver 198.18.2.1 2\n");
	struct flow_rule r[DP_FLOW_RULES_MAX];
	uint32_t n = flow_plan(&cfg, 0, 2, r, DP_FLOW_RULES_MAX);

	(void)state;
	assert_int_equal(n, 4);
	check_v4(&r[1], "198.18.2.1", 32, 0, 1);
	check_v4(&r[2], "198.18.2.2", 32, 1, 1);
	check_v4(&r[3], "198.18.0.2", 32, 0, 0);
}

/* Server pools (issue 37): a client's kinds' own pools steered as the
 * server line's, address q to queue q (a pool two kinds share once, one
 * that is the server line's none); a server's further server lines too. */
static void
test_pools(void **state)
{
	struct dp_config cfg = conf("mode client\ncpu 0 1\ncps 1\nport 01:00.0 198.18.0.2 198.18.0.1\n"
				    "client 198.18.1.2 4\nserver 198.18.2.1 2\nkind a 1 /a server "
				    "198.18.3.1 2\nkind b 1 /b server 198.18.3.1 2\nkind c 1 /c server "
				    "198.18.2.1 2\n");
	struct flow_rule r[DP_FLOW_RULES_MAX];
	uint32_t n = flow_plan(&cfg, 0, 2, r, DP_FLOW_RULES_MAX);

	(void)state;
	assert_int_equal(n, 6);
	check_v4(&r[1], "198.18.2.1", 32, 0, 1);
	check_v4(&r[2], "198.18.3.1", 32, 0, 1);
	check_v4(&r[3], "198.18.2.2", 32, 1, 1);
	check_v4(&r[4], "198.18.3.2", 32, 1, 1);
	cfg = conf("mode server\ncpu 0 1\nport net_tap0 198.18.0.1 198.18.0.3\n"
		   "client 198.18.0.3 1\nserver 198.18.0.1 2\nserver 198.18.4.1 2\n");
	n = flow_plan(&cfg, 0, 2, r, DP_FLOW_RULES_MAX);
	assert_int_equal(n, 5);
	check_v4(&r[1], "198.18.0.1", 32, 0, 0);
	check_v4(&r[2], "198.18.4.1", 32, 0, 0);
	check_v4(&r[3], "198.18.0.2", 32, 1, 0);
	check_v4(&r[4], "198.18.4.2", 32, 1, 0);
	n = flow_plan(&cfg, 0, 1, r, DP_FLOW_RULES_MAX); /* one queue: the ranges */
	assert_int_equal(n, 5);
	check_v4(&r[1], "198.18.0.1", 32, 0, 0);
	check_v4(&r[2], "198.18.0.2", 32, 0, 0);
	check_v4(&r[3], "198.18.4.1", 32, 0, 0);
	check_v4(&r[4], "198.18.4.2", 32, 0, 0);
}

/* One queue: the client range as aligned prefixes, exactly its addresses
 * (every start and count of a range in a /24). */
static void
test_range_prefixes(void **state)
{
	(void)state;
	for (uint32_t start = 1; start < 255; start += 7)
		for (uint32_t num = 1; start + num - 1 <= 255 && num <= 254; num += 5) {
			char text[512];
			struct dp_config cfg;
			struct flow_rule r[DP_FLOW_RULES_MAX];
			uint32_t n;

			snprintf(text, sizeof(text), "mode client\ncpu 0\ncps 1\n"
				 "port 01:00.0 198.18.0.2 198.18.0.1\nclient 198.18.1.%u %u\n"
				 "server 198.18.2.1 1\n", start, num);
			cfg = conf(text);
			n = flow_plan(&cfg, 0, 1, r, DP_FLOW_RULES_MAX);
			assert_true(n >= 3 && n < DP_FLOW_RULES_MAX);
			assert_true(n - 2 <= 14); /* at most 2 x 7 blocks in a /24 */
			for (uint32_t last = 0; last < 256; last++) {
				uint32_t a = htonl(0xc6120100u | last), hits = 0;

				for (uint32_t k = 1; k + 1 < n; k++) {
					uint32_t base, m = r[k].plen ? htonl(~0u << (32 - r[k].plen)) : 0;

					memcpy(&base, r[k].addr, 4);
					assert_int_equal(base & ~m, 0); /* aligned */
					hits += (a & m) == base;
				}
				if (hits != (last >= start && last < start + num))
					fail_msg("range .%u x %u: .%u matched by %u rules", start, num, last,
						 hits);
			}
			check_v4(&r[n - 1], "198.18.0.2", 32, 0, 0); /* the port's address */
		}
}

/* rss: the range spread by the device's hash over all queues. */
static void
test_rss(void **state)
{
	struct dp_config cfg = conf("mode server\ncpu 0 1\nrss\nport 01:00.0 198.18.0.1 198.18.0.3\n"
				    "client 198.18.0.3 1\nserver 198.18.0.1 1\n");
	struct flow_rule r[DP_FLOW_RULES_MAX];
	uint32_t n = flow_plan(&cfg, 0, 2, r, DP_FLOW_RULES_MAX);

	(void)state;
	assert_int_equal(n, 2);
	assert_int_equal(r[1].rss, 1);
	assert_int_equal(r[1].plen, 32);
}

/* IPv6: solicitations to ff02::1:ff00:0/104, then the addresses. */
static void
test_ipv6(void **state)
{
	static const uint8_t sn[16] = { 0xff, 0x02, [11] = 1, [12] = 0xff };
	struct dp_config cfg = conf("mode server\ncpu 0\nport 01:00.0 2001:db8::1 2001:db8::2\n"
				    "client 2001:db8:1::2 4\nserver 2001:db8:2::1 1\n");
	struct flow_rule r[DP_FLOW_RULES_MAX];
	uint32_t n = flow_plan(&cfg, 0, 1, r, DP_FLOW_RULES_MAX);
	uint8_t a[16];

	(void)state;
	assert_int_equal(n, 3);
	assert_int_equal(r[0].v6, 1);
	assert_int_equal(r[0].arp, 0);
	assert_int_equal(r[0].plen, 104);
	assert_memory_equal(r[0].addr, sn, 16);
	inet_pton(AF_INET6, "2001:db8:2::1", a);
	assert_memory_equal(r[1].addr, a, 16);
	assert_int_equal(r[1].plen, 128);
	inet_pton(AF_INET6, "2001:db8::1", a);
	assert_memory_equal(r[2].addr, a, 16);
}

/* vxlan: each queue's local VTEP to that queue. */
static void
test_vxlan(void **state)
{
	struct dp_config cfg = conf("mode server\ncpu 0 1\nport 01:00.0 198.18.0.1 198.18.0.9\n"
				    "vxlan 7 02:00:00:00:00:01 02:00:00:00:00:02 198.18.0.5 2 198.18.0.20 1\n"
				    "client 198.18.1.2 4\nserver 198.18.2.1 2\n");
	struct flow_rule r[DP_FLOW_RULES_MAX];
	uint32_t n = flow_plan(&cfg, 0, 2, r, DP_FLOW_RULES_MAX);

	(void)state;
	assert_int_equal(n, 4);
	check_v4(&r[1], "198.18.0.5", 32, 0, 0);
	check_v4(&r[2], "198.18.0.6", 32, 1, 0);
	check_v4(&r[3], "198.18.0.1", 32, 0, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_server_one),
		cmocka_unit_test(test_server_queues),
		cmocka_unit_test(test_client_queues),
		cmocka_unit_test(test_pools),
		cmocka_unit_test(test_range_prefixes),
		cmocka_unit_test(test_rss),
		cmocka_unit_test(test_ipv6),
		cmocka_unit_test(test_vxlan),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
