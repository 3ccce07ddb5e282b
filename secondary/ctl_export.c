/* SPDX-License-Identifier: BSD-3-Clause
 * dperf-ctl export --prometheus [ADDR:PORT]: /metrics over HTTP
 * (127.0.0.1:9470 by default), served by libmicrohttpd.
 *
 * Not hand-written socket code any more: that read each connection with
 * one blocking recv(), one connection at a time, so an idle connection
 * held every scrape up (59 s seen), 17 of them filled the backlog, a
 * request split across two segments got 404 and HEAD was unknown.
 * libmicrohttpd (Debian's libmicrohttpd-dev) parses requests
 * incrementally, serves many connections from one event loop, closes idle
 * ones, and answers HEAD without the body. The limits below bound what
 * a scraper, or anyone who can connect, can make us hold.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <microhttpd.h>

#include "attach.h"
#include "ctl_prometheus.h"

/* A connection that sends nothing for this long is closed: a scrape
 * sends its request at once, and a scraper that keeps its connection
 * between scrapes only reconnects. dperf-ctl(8) states it. */
#define EXPORT_IDLE_S 5
/* Connections served at once; further ones wait in the listen backlog
 * until one ends. Each holds at most the memory below plus one
 * exposition being sent (its size grows with the ports, not with the
 * workers), so what the exporter holds for its clients is bounded. */
#define EXPORT_MAX_CONNS 64
#define EXPORT_BACKLOG 64
/* Per connection, for the request's head and its parsing: a scrape's
 * request is a few hundred bytes; a longer head gets an error. */
#define EXPORT_CONN_MEM (16 * 1024)

static struct MHD_Response *
text(const char *msg)
{
	return MHD_create_response_from_buffer(strlen(msg), (void *)(uintptr_t)msg,
					       MHD_RESPMEM_PERSISTENT);
}

/* One request. MHD runs this on its single polling thread (no thread per
 * connection), so the exposition, which is not reentrant, runs for one
 * scrape at a time; it takes about a millisecond. */
static enum MHD_Result
answer(void *cls, struct MHD_Connection *c, const char *url, const char *method,
       const char *version, const char *upload_data, size_t *upload_data_size, void **req_cls)
{
	const struct dp_shm *s = cls;
	struct MHD_Response *r = NULL;
	unsigned int code;
	enum MHD_Result ret;

	(void)version;
	(void)upload_data;
	(void)upload_data_size;
	(void)req_cls;
	if (strcmp(method, MHD_HTTP_METHOD_GET) != 0 && strcmp(method, MHD_HTTP_METHOD_HEAD) != 0) {
		code = MHD_HTTP_METHOD_NOT_ALLOWED;
		if ((r = text("method not allowed\n")) != NULL)
			MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	} else if (strcmp(url, "/metrics") != 0) {
		code = MHD_HTTP_NOT_FOUND;
		r = text("not found\n");
	} else {
		/* HEAD too: its Content-Length is the GET's; MHD sends no body. */
		char *body = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&body, &len);

		if (f == NULL)
			return MHD_NO; /* out of memory: close the connection */
		ctl_prometheus_exposition(f, s);
		if (fclose(f) != 0) {
			free(body);
			return MHD_NO;
		}
		code = MHD_HTTP_OK;
		r = MHD_create_response_from_buffer(len, body, MHD_RESPMEM_MUST_FREE);
		if (r == NULL)
			free(body);
		else
			MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE,
						"text/plain; version=0.0.4");
	}
	if (r == NULL)
		return MHD_NO;
	ret = MHD_queue_response(c, code, r);
	MHD_destroy_response(r);
	return ret;
}

/* Our own listening socket, so that a bad address or a port in use gets
 * its reason (errno) in one line; MHD serves it from then on. */
static int
listen_on(const char *addr, char *host, size_t hlen, int *port)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	const char *colon = addr ? strrchr(addr, ':') : NULL;
	int one = 1, fd;

	snprintf(host, hlen, "127.0.0.1");
	*port = 9470;
	if (addr != NULL) {
		if (colon == NULL || colon == addr || (size_t)(colon - addr) >= hlen ||
		    (*port = atoi(colon + 1)) <= 0 || *port > 65535) {
			fprintf(stderr, "dperf-ctl: export: bad address \"%s\" (expected ADDR:PORT)\n", addr);
			return -1;
		}
		snprintf(host, hlen, "%.*s", (int)(colon - addr), addr);
	}
	if (inet_pton(AF_INET, host, &sa.sin_addr) != 1) {
		fprintf(stderr, "dperf-ctl: export: bad IPv4 address \"%s\"\n", host);
		return -1;
	}
	sa.sin_port = htons((uint16_t)*port);
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) != 0 ||
	    bind(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0 || listen(fd, EXPORT_BACKLOG) != 0) {
		fprintf(stderr, "dperf-ctl: export: cannot listen on %s:%d: %s\n", host, *port, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

int
ctl_prometheus(const struct dp_shm *s, const char *addr, volatile sig_atomic_t *stop)
{
	char host[64];
	int port, lfd, rc = DP_EXIT_OK;
	struct MHD_Daemon *d;

	if ((lfd = listen_on(addr, host, sizeof(host), &port)) < 0)
		return DP_EXIT_USAGE;
	d = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_AUTO, 0, NULL, NULL, answer,
			     (void *)(uintptr_t)s, MHD_OPTION_LISTEN_SOCKET, (MHD_socket)lfd,
			     MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)EXPORT_IDLE_S,
			     MHD_OPTION_CONNECTION_LIMIT, (unsigned int)EXPORT_MAX_CONNS,
			     MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)EXPORT_CONN_MEM,
			     MHD_OPTION_END);
	if (d == NULL) {
		fprintf(stderr, "dperf-ctl: export: cannot start the HTTP server on %s:%d\n", host, port);
		close(lfd);
		return DP_EXIT_USAGE;
	}
	printf("serving %s at http://%s:%d/metrics\n", s->hdr.name, host, port);
	fflush(stdout);
	while (!*stop) {
		enum dp_end end = dp_primary_end(s);

		if (end != DP_END_RUNNING) {
			if (end == DP_END_DONE)
				printf("%s: engine stopped\n", s->hdr.name);
			rc = dp_report_end("dperf-ctl export", s, end);
			break;
		}
		usleep(200000);
	}
	MHD_stop_daemon(d); /* closes lfd too */
	return rc;
}
