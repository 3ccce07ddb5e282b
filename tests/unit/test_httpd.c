/* SPDX-License-Identifier: BSD-3-Clause
 * dperf-ctl's HTTP server (secondary/ctl_httpd.c) at its end: a request
 * already in when the server is told to stop is answered before the
 * connections close. POST /v1/stop ends the engine before its own answer
 * is written; CI saw curl get nothing when the server closed at once.
 */
// links: secondary/ctl_httpd.c lib/attach.c
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ctl_httpd.h"

static struct ctl_httpd h;
static int port; /* a free one, asked of the kernel (a fixed port collides with whatever holds it) */

static int
free_port(void)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(sa);
	int fd = socket(AF_INET, SOCK_STREAM, 0), p = -1;

	if (fd >= 0 && bind(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0 &&
	    getsockname(fd, (struct sockaddr *)&sa, &len) == 0)
		p = ntohs(sa.sin_port);
	if (fd >= 0)
		close(fd);
	return p;
}

/* The answer waits 300 ms after the request is in, as a control request
 * waits for the primary. */
static enum MHD_Result
slow(void *cls, struct MHD_Connection *c, const char *url, const char *method, const char *version,
     const char *data, size_t *data_size, void **req_cls)
{
	static const char body[] = "{\"accepted\":\"stop\"}\n";
	struct MHD_Response *r;
	enum MHD_Result ret;

	(void)cls, (void)url, (void)method, (void)version, (void)data, (void)data_size, (void)req_cls;
	ctl_httpd_received(&h, c);
	usleep(300000);
	r = MHD_create_response_from_buffer(sizeof(body) - 1, (void *)body, MHD_RESPMEM_PERSISTENT);
	ret = MHD_queue_response(c, MHD_HTTP_OK, r);
	MHD_destroy_response(r);
	return ret;
}

static char got[512];

static void *
client(void *arg)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	static const char req[] = "POST /v1/stop HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n";
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	size_t n = 0;
	ssize_t k;

	(void)arg;
	inet_pton(AF_INET, "127.0.0.1", &sa.sin_addr);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0 ||
	    send(fd, req, sizeof(req) - 1, 0) != (ssize_t)(sizeof(req) - 1))
		return NULL;
	while (n < sizeof(got) - 1 && (k = recv(fd, got + n, sizeof(got) - 1 - n, 0)) > 0)
		n += (size_t)k;
	got[n] = 0;
	close(fd);
	return NULL;
}

static void
test_answer_before_stop(void **state)
{
	pthread_t t;
	int i;

	char addr[32];

	(void)state;
	port = free_port();
	assert_true(port > 0);
	snprintf(addr, sizeof(addr), "127.0.0.1:%d", port);
	assert_int_equal(ctl_httpd_start(&h, addr, slow, NULL, "test_httpd"), 0);
	assert_int_equal(pthread_create(&t, NULL, client, NULL), 0);
	for (i = 0; i < 500 && !ctl_httpd_answering(&h); i++)
		usleep(1000);
	assert_true(ctl_httpd_answering(&h)); /* the request is in, its answer 300 ms away */
	ctl_httpd_stop(&h);
	pthread_join(t, NULL);
	if (strncmp(got, "HTTP/1.1 200", 12) != 0 || strstr(got, "{\"accepted\":\"stop\"}") == NULL)
		fail_msg("the answer was lost at the stop: got \"%s\"", got);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_answer_before_stop),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
