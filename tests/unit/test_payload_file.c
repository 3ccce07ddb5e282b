/* SPDX-License-Identifier: BSD-3-Clause
 * payload_file (dperf's keyword): the parse's rules (common/config_check.c) and
 * the messages composed from the file (primary/http/messages.c, the real
 * code): an HTTP response whose body is the file's bytes, Content-Length
 * its size, over one segment or many; a UDP datagram that is the file; a
 * POST whose body is the file; a server's longer payload_size, whose body
 * the file begins; a file that changed size since the parse is refused.
 */
// links: primary/http/messages.c primary/http/http.c primary/http/http_response.c primary/http/rsp_scan.c primary/http/http_request.c
#define _GNU_SOURCE /* memmem */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "config.h"
#include "http/messages.h"

static char dir[] = "/tmp/dperf-unit-pf.XXXXXX";
static char path[256];

/* A file of n pseudo-random bytes (zeros and CRLFs among them). */
static uint8_t *
make_file(uint32_t n)
{
	uint8_t *b = malloc(n);
	FILE *f;

	assert_non_null(b);
	for (uint32_t i = 0; i < n; i++)
		b[i] = (uint8_t)(i * 2654435761u >> 13);
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(b, 1, n, f), n);
	fclose(f);
	return b;
}

static int
parse(const char *mode_lines, struct dp_config *cfg, char *err, size_t errlen)
{
	char text[2048];

	snprintf(text, sizeof(text),
		 "cpu 0\nport net_memif0 198.18.0.1 198.18.0.2\nclient 198.18.0.2 1\n"
		 "server 198.18.0.1 1\n%spayload_file %s\n", mode_lines, path);
	return dp_config_parse("p.conf", text, cfg, err, errlen);
}

/* Compose for cfg; returns msg_compose's result, the buffer in *bufp. */
static int
compose(const struct dp_config *cfg, uint8_t **bufp, struct msg_lens *ml, char *why, size_t len)
{
	struct msg_layout l;
	const char *kw = NULL;
	int rc;

	msg_layout(cfg, &l);
	*bufp = calloc(1, l.len);
	assert_non_null(*bufp);
	rc = msg_compose(cfg, &cfg->servers[0].start, *bufp, ml, &kw, why, len);
	if (rc != 0)
		assert_string_equal(kw, "payload_file");
	return rc;
}

/* A server's HTTP answers: the head says the file's size, the body is the
 * file, kept-alive and closing alike; one segment and many. */
static void
test_http_server(void **state)
{
	static const uint32_t sizes[] = { 1, 700, 1460, 100000 };

	(void)state;
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		uint32_t n = sizes[k];
		uint8_t *want = make_file(n), *buf;
		struct dp_config cfg;
		struct msg_layout l;
		struct msg_lens ml;
		char err[DP_ERR_LEN], cl[64];

		if (parse("mode server\nkeepalive\n", &cfg, err, sizeof(err)) != 0)
			fail_msg("parse: %s", err);
		assert_int_equal(cfg.payload_file_size, n);
		assert_int_equal(cfg.payload_size, n + DP_HTTP_MIN_SIZE);
		if (compose(&cfg, &buf, &ml, err, sizeof(err)) != 0)
			fail_msg("compose: %s", err);
		msg_layout(&cfg, &l);
		assert_int_equal(ml.is_http, 1);
		assert_int_equal(ml.rsp_ka, n + ml.head_ka);
		assert_int_equal(ml.rsp_close, n + ml.head_close);
		snprintf(cl, sizeof(cl), "\r\nContent-Length: %u\r\n", n);
		assert_non_null(memmem(buf + l.ka, ml.head_ka, cl, strlen(cl)));
		assert_non_null(memmem(buf + l.close, ml.head_close, cl, strlen(cl)));
		assert_memory_equal(buf + l.ka + ml.head_ka, want, n);
		assert_memory_equal(buf + l.close + ml.head_close, want, n);
		free(buf);
		free(want);
	}
}

/* A server's payload_size longer than the file: the file begins the
 * body, the filler ('a') follows, Content-Length the whole body; per-core
 * sizes each get it; a body past the stored 64 MiB too. */
static void
test_http_prefix(void **state)
{
	static const char *sizes[] = { "5000", "1000000", "100m" };
	static const uint32_t bodies[] = { 5000 - 85, 1000000 - 85, 100000000 - 85 };

	(void)state;
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		uint8_t *want = make_file(700), *buf;
		struct dp_config cfg;
		struct msg_layout l;
		struct msg_lens ml;
		char err[DP_ERR_LEN], cl[64], lines[64];
		uint32_t body = bodies[k], stored;

		snprintf(lines, sizeof(lines), "mode server\npayload_size %s\n", sizes[k]);
		if (parse(lines, &cfg, err, sizeof(err)) != 0)
			fail_msg("parse: %s", err);
		if (compose(&cfg, &buf, &ml, err, sizeof(err)) != 0)
			fail_msg("compose: %s", err);
		msg_layout(&cfg, &l);
		assert_int_equal(ml.rsp_ka, body + ml.head_ka);
		snprintf(cl, sizeof(cl), "\r\nContent-Length: %u\r\n", body);
		assert_non_null(memmem(buf + l.ka, ml.head_ka, cl, strlen(cl)));
		assert_memory_equal(buf + l.ka + ml.head_ka, want, 700);
		assert_memory_equal(buf + l.close + ml.head_close, want, 700);
		stored = ml.rsp_ka < l.rsp_cap ? ml.rsp_ka : (uint32_t)l.rsp_cap;
		for (uint32_t i = ml.head_ka + 700; i < stored; i++)
			if (buf[l.ka + i] != 'a')
				fail_msg("payload_size %s: byte %u of the answer is %#x, not the filler",
					 sizes[k], i, buf[l.ka + i]);
		free(buf);
		free(want);
	}
}

/* UDP: request and answer are the file, nothing added. */
static void
test_udp(void **state)
{
	uint8_t *want = make_file(1000), *buf;
	struct dp_config cfg;
	struct msg_layout l;
	struct msg_lens ml;
	char err[DP_ERR_LEN];

	(void)state;
	if (parse("mode client\ncps 1\nprotocol udp\n", &cfg, err, sizeof(err)) != 0)
		fail_msg("parse: %s", err);
	assert_int_equal(cfg.payload_size, 1000);
	if (compose(&cfg, &buf, &ml, err, sizeof(err)) != 0)
		fail_msg("compose: %s", err);
	msg_layout(&cfg, &l);
	assert_int_equal(ml.is_http, 0);
	assert_int_equal(ml.req, 1000);
	assert_int_equal(ml.rsp_ka, 1000);
	assert_memory_equal(buf, want, 1000);
	assert_memory_equal(buf + l.ka, want, 1000);
	free(buf);
	free(want);
}

/* A client's POST carries the file as its body, Content-Length its size. */
static void
test_post(void **state)
{
	uint8_t *want = make_file(300), *buf;
	struct dp_config cfg;
	struct msg_lens ml;
	char err[DP_ERR_LEN];

	(void)state;
	if (parse("mode client\ncps 1\nhttp_method POST\n", &cfg, err, sizeof(err)) != 0)
		fail_msg("parse: %s", err);
	if (compose(&cfg, &buf, &ml, err, sizeof(err)) != 0)
		fail_msg("compose: %s", err);
	assert_int_equal(ml.one, 300 + DP_HTTP_MIN_SIZE);
	assert_non_null(memmem(buf, DP_HTTP_MIN_SIZE, "Content-Length: 300\r\n", 21));
	assert_memory_equal(buf + DP_HTTP_MIN_SIZE, want, 300);
	free(buf);
	free(want);
}

/* The parse's rules, each one line FILE:LINE: payload_file: ... */
static void
test_rules(void **state)
{
	struct dp_config cfg;
	char err[DP_ERR_LEN], text[512];
	uint8_t *buf;
	struct msg_lens ml;
	FILE *f;

	(void)state;
	free(make_file(2000));
	assert_int_equal(parse("mode client\ncps 1\n", &cfg, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "p.conf:7: payload_file: on a client sending GET"));
	assert_int_equal(parse("mode client\ncps 1\nprotocol udp\n", &cfg, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "p.conf:8: payload_file:"));
	assert_non_null(strstr(err, ": 2000 bytes, too large (expected at most 1460, mss"));
	/* a server's payload_size must hold the file and the head */
	assert_int_equal(parse("mode server\npayload_size 2084\n", &cfg, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "p.conf:6: payload_size: 2084 is shorter than payload_file "));
	assert_non_null(strstr(err, "(expected at least 2085:"));
	snprintf(text, sizeof(text), "mode server\ncpu 0 1\nport net_memif0 198.18.0.1 198.18.0.2\n"
		 "client 198.18.0.2 1\nserver 198.18.0.1 2\npayload_size 3000 2084\npayload_file %s\n",
		 path);
	assert_int_equal(dp_config_parse("p.conf", text, &cfg, err, sizeof(err)), -1);
	if (strstr(err, "p.conf:6: payload_size: 2084 is shorter") == NULL)
		fail_msg("%s", err);
	assert_int_equal(parse("mode server\npayload_size 2085\n", &cfg, err, sizeof(err)), 0);
	/* on a client the file is the whole body */
	assert_int_equal(parse("mode client\ncps 1\nhttp_method POST\npayload_size 3000\n", &cfg, err,
			       sizeof(err)), -1);
	assert_non_null(strstr(err, "p.conf:9: payload_file: given with payload_size on line 8"));
	assert_int_equal(parse("mode server\npayload_random\n", &cfg, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "given with payload_random on line 6"));
	f = fopen(path, "w");
	fclose(f);
	assert_int_equal(parse("mode server\n", &cfg, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "p.conf:6: payload_file: "));
	assert_non_null(strstr(err, ": empty (expected at least 1 byte)"));
	unlink(path);
	assert_int_equal(parse("mode server\n", &cfg, err, sizeof(err)), -1);
	assert_non_null(strstr(err, ": cannot open: No such file or directory"));
	snprintf(text, sizeof(text), "mode server\ncpu 0\nport net_memif0 198.18.0.1 198.18.0.2\n"
		 "client 198.18.0.2 1\nserver 198.18.0.1 1\npayload_file %s\n", dir);
	assert_int_equal(dp_config_parse("p.conf", text, &cfg, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "p.conf:6: payload_file: "));
	assert_non_null(strstr(err, ": not a regular file"));

	/* parsed at one size, composed at another: refused, not sent short */
	free(make_file(500));
	if (parse("mode server\n", &cfg, err, sizeof(err)) != 0)
		fail_msg("parse: %s", err);
	free(make_file(501));
	assert_int_equal(compose(&cfg, &buf, &ml, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "changed size since the configuration was read"));
	free(buf);
}

/* Issue 31 item 7: the file swapped for a FIFO between the parse and the
 * composition (no writer): refused in one line at once, never a start-up
 * blocked in open(). The composition runs in a child killed after 5 s, so
 * the test itself cannot hang. */
static void
test_fifo_swapped(void **state)
{
	struct dp_config cfg;
	char err[DP_ERR_LEN];
	int fds[2], status;
	ssize_t n;
	pid_t pid;

	(void)state;
	free(make_file(500));
	if (parse("mode server\n", &cfg, err, sizeof(err)) != 0)
		fail_msg("parse: %s", err);
	unlink(path);
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		uint8_t *buf = NULL;
		struct msg_lens ml;

		close(fds[0]);
		alarm(5);
		err[0] = '\0';
		compose(&cfg, &buf, &ml, err, sizeof(err));
		n = write(fds[1], err, strlen(err) + 1);
		_exit(n > 0 ? 0 : 1);
	}
	close(fds[1]);
	n = read(fds[0], err, sizeof(err) - 1);
	close(fds[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	if (!WIFEXITED(status))
		fail_msg("the composition blocked on the FIFO (killed by signal %d)",
			 WIFSIGNALED(status) ? WTERMSIG(status) : 0);
	assert_true(n > 0);
	err[n] = '\0';
	if (strstr(err, ": not a regular file") == NULL || strchr(err, '\n') != NULL)
		fail_msg("expected one line \"...: not a regular file\", got \"%s\"", err);
	unlink(path);
}

static int
setup(void **state)
{
	(void)state;
	if (mkdtemp(dir) == NULL)
		return -1;
	snprintf(path, sizeof(path), "%s/payload.bin", dir);
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	unlink(path);
	return rmdir(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_http_server),
		cmocka_unit_test(test_http_prefix),
		cmocka_unit_test(test_udp),
		cmocka_unit_test(test_post),
		cmocka_unit_test(test_rules),
		cmocka_unit_test(test_fifo_swapped),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
