/* SPDX-License-Identifier: BSD-3-Clause
 * The HTTP server under `dperf-ctl export` and `serve`: libmicrohttpd
 * (Debian's libmicrohttpd-dev) on our own listening socket, with bounds
 * on what a client, or anyone who can connect, can make us hold.
 *
 * Not hand-written socket code any more: that read each connection with
 * one blocking recv(), one connection at a time, so an idle connection
 * held every scrape up (59 s seen), 17 of them filled the backlog, a
 * request split across two segments got 404 and HEAD was unknown.
 * libmicrohttpd parses requests incrementally, serves many connections
 * from one event loop and answers HEAD without the body.
 *
 * Its connection timeout is an idle timeout: a client that sends one byte
 * of its head every 3.5 s is never idle for 5 s, and 100 such clients
 * held all 64 slots, so every scrape timed out (slowloris, issue 31).
 * Hence a deadline per request, which libmicrohttpd does not have: we
 * note each connection's start (MHD_OPTION_NOTIFY_CONNECTION) and the end
 * of each answer (MHD_OPTION_NOTIFY_COMPLETED), and every 0.1 s shut the
 * socket of any connection whose request has not arrived in full within
 * CTL_HTTPD_REQUEST_S; libmicrohttpd then sees the end of the stream and
 * closes it. A slot is held for at most that long, whatever the client
 * sends, so a scrape waits at most about one deadline behind 64 hostile
 * connections. Not a per-address limit: the attacker and the scraper may
 * share an address (here, loopback), and a limit per address only moves
 * the attack to more addresses. Once a request is in (the handler says
 * so), answering it is ours: a control request may wait seconds for the
 * primary; a client that then reads slowly meets the idle timeout.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "attach.h"
#include "ctl_httpd.h"

/* A connection that sends nothing for this long is closed by
 * libmicrohttpd itself: a backstop behind the deadline. */
#define HTTPD_IDLE_S 5
/* Connections served at once; further ones wait in the listen backlog
 * until one ends. Each holds at most the memory below plus one answer
 * being sent (an exposition grows with the ports, not with the workers),
 * so what the server holds for its clients is bounded. */
#define HTTPD_MAX_CONNS 64
#define HTTPD_BACKLOG 64
/* Per connection, for the request's head, a body and their parsing: a
 * scrape's request is a few hundred bytes; a longer head gets 431. */
#define HTTPD_CONN_MEM (16 * 1024)
#define HTTPD_SWEEP_US 100000
/* At the end, how long requests already in may take to be answered. */
#define HTTPD_DRAIN_US 2000000

struct ctl_httpd_conn {
	struct ctl_httpd_conn *next, **pprev;
	int fd;
	int shut;
	int received; /* its request is in: the deadline is met */
	double start; /* of the connection, or the end of the previous answer */
};

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* MHD's thread: a connection starts or ends. MHD closes the socket after
 * the CLOSED call, so under the lock the sweeper never shuts a socket
 * number that has been reused. */
static void
on_connection(void *cls, struct MHD_Connection *c, void **socket_ctx, enum MHD_ConnectionNotificationCode toe)
{
	struct ctl_httpd *h = cls;
	struct ctl_httpd_conn *k = *socket_ctx;

	if (toe == MHD_CONNECTION_NOTIFY_STARTED) {
		const union MHD_ConnectionInfo *ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);

		if ((k = calloc(1, sizeof(*k))) == NULL || ci == NULL) {
			free(k); /* unbounded by us: MHD's idle timeout still holds */
			*socket_ctx = NULL;
			return;
		}
		k->fd = ci->connect_fd;
		k->start = now_s();
		pthread_mutex_lock(&h->lock);
		if ((k->next = h->conns) != NULL)
			k->next->pprev = &k->next;
		k->pprev = &h->conns;
		h->conns = k;
		pthread_mutex_unlock(&h->lock);
		*socket_ctx = k;
	} else if (k != NULL) {
		pthread_mutex_lock(&h->lock);
		if (k->next != NULL)
			k->next->pprev = k->pprev;
		*k->pprev = k->next;
		pthread_mutex_unlock(&h->lock);
		free(k);
		*socket_ctx = NULL;
	}
}

/* An answer went out (or the request ended otherwise): the next request
 * on a kept-alive connection gets its own deadline. */
static void
on_completed(void *cls, struct MHD_Connection *c, void **req_cls, enum MHD_RequestTerminationCode toe)
{
	struct ctl_httpd *h = cls;
	const union MHD_ConnectionInfo *ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	struct ctl_httpd_conn *k = ci != NULL ? ci->socket_context : NULL;

	(void)toe;
	free(*req_cls); /* the handler's per-request state (ctl_httpd.h) */
	*req_cls = NULL;
	if (k != NULL) {
		pthread_mutex_lock(&h->lock);
		k->start = now_s();
		k->received = 0;
		pthread_mutex_unlock(&h->lock);
	}
}

void
ctl_httpd_received(struct ctl_httpd *h, struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo *ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	struct ctl_httpd_conn *k = ci != NULL ? ci->socket_context : NULL;

	if (k != NULL) {
		pthread_mutex_lock(&h->lock);
		k->received = 1;
		pthread_mutex_unlock(&h->lock);
	}
}

static void
sweep(struct ctl_httpd *h)
{
	double t = now_s();

	pthread_mutex_lock(&h->lock);
	for (struct ctl_httpd_conn *k = h->conns; k != NULL; k = k->next)
		if (!k->shut && !k->received && t - k->start > CTL_HTTPD_REQUEST_S) {
			shutdown(k->fd, SHUT_RDWR);
			k->shut = 1;
			h->deadline_closed++;
		}
	pthread_mutex_unlock(&h->lock);
}

/* Our own listening socket, so that a bad address or a port in use gets
 * its reason (errno) in one line; MHD serves it from then on. */
static int
listen_on(struct ctl_httpd *h, const char *addr, const char *who)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	const char *colon = addr ? strrchr(addr, ':') : NULL;
	int one = 1, fd;

	snprintf(h->host, sizeof(h->host), "127.0.0.1");
	h->port = 9470;
	if (addr != NULL) {
		if (colon == NULL || colon == addr || (size_t)(colon - addr) >= sizeof(h->host) ||
		    (h->port = atoi(colon + 1)) <= 0 || h->port > 65535) {
			fprintf(stderr, "dperf-ctl: %s: bad address \"%s\" (expected ADDR:PORT)\n", who, addr);
			return -1;
		}
		snprintf(h->host, sizeof(h->host), "%.*s", (int)(colon - addr), addr);
	}
	if (inet_pton(AF_INET, h->host, &sa.sin_addr) != 1) {
		fprintf(stderr, "dperf-ctl: %s: bad IPv4 address \"%s\"\n", who, h->host);
		return -1;
	}
	sa.sin_port = htons((uint16_t)h->port);
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) != 0 ||
	    bind(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0 || listen(fd, HTTPD_BACKLOG) != 0) {
		fprintf(stderr, "dperf-ctl: %s: cannot listen on %s:%d: %s\n", who, h->host, h->port,
			strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

int
ctl_httpd_start(struct ctl_httpd *h, const char *addr, MHD_AccessHandlerCallback handler, void *cls,
		const char *who)
{
	int lfd;

	memset(h, 0, sizeof(*h));
	pthread_mutex_init(&h->lock, NULL);
	if ((lfd = listen_on(h, addr, who)) < 0)
		return -1;
	h->d = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_AUTO, 0, NULL, NULL, handler, cls,
				MHD_OPTION_LISTEN_SOCKET, (MHD_socket)lfd,
				MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)HTTPD_IDLE_S,
				MHD_OPTION_CONNECTION_LIMIT, (unsigned int)HTTPD_MAX_CONNS,
				MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)HTTPD_CONN_MEM,
				MHD_OPTION_NOTIFY_CONNECTION, on_connection, (void *)h,
				MHD_OPTION_NOTIFY_COMPLETED, on_completed, (void *)h,
				MHD_OPTION_END);
	if (h->d == NULL) {
		fprintf(stderr, "dperf-ctl: %s: cannot start the HTTP server on %s:%d\n", who, h->host, h->port);
		close(lfd);
		return -1;
	}
	return 0;
}

int
ctl_httpd_run(struct ctl_httpd *h, const struct dp_shm *s, volatile sig_atomic_t *stop, const char *who)
{
	int rc = DP_EXIT_OK;

	while (!*stop) {
		enum dp_end end = dp_primary_end(s);

		if (end != DP_END_RUNNING) {
			if (end == DP_END_DONE)
				printf("%s: engine stopped\n", s->hdr.name);
			rc = dp_report_end(who, s, end);
			break;
		}
		sweep(h);
		usleep(HTTPD_SWEEP_US);
	}
	ctl_httpd_stop(h);
	return rc;
}

int
ctl_httpd_answering(struct ctl_httpd *h)
{
	int n = 0;

	pthread_mutex_lock(&h->lock);
	for (struct ctl_httpd_conn *k = h->conns; k != NULL; k = k->next)
		n += k->received && !k->shut;
	pthread_mutex_unlock(&h->lock);
	return n;
}

/* The end may be a request's own doing (POST /v1/stop stops the engine
 * before its answer is written) and MHD_stop_daemon closes every
 * connection at once: CI saw curl get no answer to its stop. Requests
 * already in get HTTPD_DRAIN_US to be answered first. */
void
ctl_httpd_stop(struct ctl_httpd *h)
{
	for (int i = 0; i < HTTPD_DRAIN_US / 10000 && ctl_httpd_answering(h); i++)
		usleep(10000);
	MHD_stop_daemon(h->d); /* closes the listening socket too */
	pthread_mutex_destroy(&h->lock);
}
