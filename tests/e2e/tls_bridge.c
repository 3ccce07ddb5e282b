/* SPDX-License-Identifier: BSD-3-Clause
 * The TLS room (primary/tls/) against independent peers, with a kernel
 * socket standing in for our TCP (test_tls_interop.sh, in a namespace):
 * what goes through tls_conn is exactly what the engine's TCP would carry.
 *
 *   tls_bridge server IP PORT CERT KEY RESUME N BODY
 *       answers N connections, one HTTP request each, with BODY and a close
 *   tls_bridge client IP PORT VERSION RESUME N SNI CA
 *       N connections, one GET / each, to a TLS server (nginx)
 *
 * One line per connection on stdout: "conn K done resumed R version V
 * http STATUS bytes B" or "conn K failed KIND"; exit 0 when all were done.
 */
#define _GNU_SOURCE /* strcasestr */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "tls/tls_conn.h"
#include "tls/tls_ctx.h"

struct got {
	char buf[65536];
	uint32_t len;
};

static void
on_plain(void *arg, const uint8_t *data, uint32_t len)
{
	struct got *g = arg;
	uint32_t n = len < sizeof(g->buf) - 1 - g->len ? len : (uint32_t)(sizeof(g->buf) - 1 - g->len);

	memcpy(g->buf + g->len, data, n);
	g->len += n;
	g->buf[g->len] = '\0';
}

/* What tls_conn wrote goes out, and counts as acknowledged once the
 * kernel has it (its TCP keeps it until the peer acknowledges). */
static int
flush(int fd, struct tls_conn *c)
{
	uint32_t off = 0;

	while (off < c->out_len) {
		ssize_t n = write(fd, c->out + off, c->out_len - off);

		if (n <= 0)
			return -1;
		off += (uint32_t)n;
	}
	tls_acked(c, c->out_len);
	return 0;
}

/* Reads until done(g) or the peer closes or 5 s pass; < 0 on failure. */
static int
pump(int fd, struct tls_conn *c, struct got *g, int (*done)(const struct tls_conn *, const struct got *))
{
	uint8_t buf[16384];

	while (!done(c, g)) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t n;
		int r;

		if (poll(&p, 1, 5000) <= 0)
			return tls_timeout(c);
		n = read(fd, buf, sizeof(buf));
		if (n <= 0)
			return tls_eof(c) < 0 ? -c->fail : (done(c, g) ? 0 : -TLS_F_EOF);
		r = tls_input(c, buf, (uint32_t)n, on_plain, g);
		if (flush(fd, c) < 0 || r < 0)
			return r < 0 ? r : -TLS_F_INTERNAL;
		if (r & TLS_EV_CLOSE)
			break;
	}
	return 0;
}

static int
handshaken(const struct tls_conn *c, const struct got *g)
{
	(void)g;
	return c->state != TLS_HS;
}

static int
have_request(const struct tls_conn *c, const struct got *g)
{
	(void)c;
	return strstr(g->buf, "\r\n\r\n") != NULL;
}

static int
have_response(const struct tls_conn *c, const struct got *g)
{
	const char *h = strstr(g->buf, "\r\n\r\n"), *cl = strcasestr(g->buf, "Content-Length:");

	(void)c;
	return h != NULL && cl != NULL && cl < h && g->len >= (uint32_t)(h + 4 - g->buf) + strtoul(cl + 15, NULL, 10);
}

static const char *const fails[] = { "none", "alert", "proto", "verify", "eof", "timeout", "internal" };

static void
report(int k, const struct tls_conn *c, int r, const struct got *g)
{
	if (r < 0) {
		printf("conn %d failed %s alert %u\n", k, fails[-r], c->alert);
		return;
	}
	printf("conn %d done resumed %u version %s http %.3s bytes %u\n", k, c->resumed,
	       SSL_get_version(c->ssl), strncmp(g->buf, "HTTP/1.", 7) == 0 && g->len > 12 ? g->buf + 9 : "---",
	       g->len);
}

static enum dp_tls_resume
resume_of(const char *s)
{
	return strcmp(s, "tickets") == 0 ? DP_TLS_RESUME_TICKETS
	       : strcmp(s, "ids") == 0 ? DP_TLS_RESUME_IDS : DP_TLS_RESUME_NONE;
}

static int
server(struct sockaddr_in *a, char **argv)
{
	struct tls_opts o = { .server = 1, .cert = argv[0], .key = argv[1], .resume = resume_of(argv[2]),
			      .alpn = "http/1.1" };
	int n = atoi(argv[3]), ls = socket(AF_INET, SOCK_STREAM, 0), one = 1, bad = 0;
	const char *body = argv[4];
	struct tls_side s;
	char err[256], rsp[1024];

	if (tls_side_init(&s, &o, err, sizeof(err)) != 0) {
		fprintf(stderr, "tls_bridge: %s\n", err);
		return 1;
	}
	snprintf(rsp, sizeof(rsp), "HTTP/1.1 200 OK\r\nContent-Length: %zu\r\nConnection: close\r\n\r\n%s",
		 strlen(body), body);
	setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(ls, (struct sockaddr *)a, sizeof(*a)) != 0 || listen(ls, 16) != 0) {
		perror("tls_bridge: listen");
		return 1;
	}
	printf("listening\n");
	fflush(stdout);
	for (int k = 0; k < n; k++) {
		struct pollfd p = { .fd = ls, .events = POLLIN };
		static struct got g;
		struct tls_conn c;
		int fd, r;

		if (poll(&p, 1, 20000) <= 0 || (fd = accept(ls, NULL, NULL)) < 0) {
			fprintf(stderr, "tls_bridge: no connection %d\n", k);
			return 1;
		}
		g.len = 0;
		g.buf[0] = '\0';
		r = tls_open(&c, &s);
		if (r == 0)
			r = pump(fd, &c, &g, have_request);
		if (r == 0 && c.state == TLS_UP && (r = tls_write(&c, rsp, (uint32_t)strlen(rsp))) == 0) {
			tls_shutdown(&c);
			flush(fd, &c);
		}
		report(k, &c, r, &g);
		bad += r < 0;
		fflush(stdout);
		tls_close(&c);
		close(fd);
	}
	tls_side_free(&s);
	return bad != 0;
}

static int
client(struct sockaddr_in *a, char **argv)
{
	struct tls_opts o = { .version = atoi(argv[0]), .resume = resume_of(argv[1]), .sni = argv[3],
			      .verify = 1, .ca = argv[4], .alpn = "http/1.1" };
	int n = atoi(argv[2]), bad = 0;
	struct tls_side s;
	char err[256], req[512];

	if (tls_side_init(&s, &o, err, sizeof(err)) != 0) {
		fprintf(stderr, "tls_bridge: %s\n", err);
		return 1;
	}
	snprintf(req, sizeof(req), "GET / HTTP/1.1\r\nHost: %s\r\n\r\n", argv[3]);
	for (int k = 0; k < n; k++) {
		static struct got g;
		struct tls_conn c;
		int fd = socket(AF_INET, SOCK_STREAM, 0), r;

		g.len = 0;
		g.buf[0] = '\0';
		if (connect(fd, (struct sockaddr *)a, sizeof(*a)) != 0) {
			perror("tls_bridge: connect");
			return 1;
		}
		r = tls_open(&c, &s);
		if (r == 0 && (r = flush(fd, &c)) == 0) {
			r = pump(fd, &c, &g, handshaken);
			if (r == 0 && c.state == TLS_UP && (r = tls_write(&c, req, (uint32_t)strlen(req))) == 0 &&
			    (r = flush(fd, &c)) == 0) {
				g.len = 0;
				g.buf[0] = '\0';
				r = pump(fd, &c, &g, have_response);
			}
		}
		report(k, &c, r, &g);
		bad += r < 0;
		fflush(stdout);
		tls_close(&c);
		close(fd);
	}
	tls_side_free(&s);
	return bad != 0;
}

int
main(int argc, char **argv)
{
	struct sockaddr_in a = { .sin_family = AF_INET };

	if (argc < 4 || inet_pton(AF_INET, argv[2], &a.sin_addr) != 1) {
		fprintf(stderr, "usage: tls_bridge server|client IP PORT ...\n");
		return 2;
	}
	a.sin_port = htons((uint16_t)atoi(argv[3]));
	if (strcmp(argv[1], "server") == 0 && argc == 9)
		return server(&a, argv + 4);
	if (strcmp(argv[1], "client") == 0 && argc == 9)
		return client(&a, argv + 4);
	fprintf(stderr, "usage: tls_bridge server IP PORT CERT KEY RESUME N BODY | "
			"client IP PORT VERSION RESUME N SNI CA\n");
	return 2;
}
