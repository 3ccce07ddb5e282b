/* SPDX-License-Identifier: BSD-3-Clause
 * The HTTP server of dperf-ctl's export and serve: libmicrohttpd with the
 * bounds that keep slow or hostile clients from holding it (ctl_httpd.c
 * says which and why). The caller gives the request handler.
 */
#ifndef DPERF_CTL_HTTPD_H
#define DPERF_CTL_HTTPD_H

#include <pthread.h>
#include <signal.h>

#include <microhttpd.h>

#include "shm.h"

/* A request must arrive in full within this many seconds of its
 * connection's start (or of the previous answer on a kept-alive
 * connection), or the connection is closed. dperf-ctl(8) states it. */
#define CTL_HTTPD_REQUEST_S 3

struct ctl_httpd_conn;

struct ctl_httpd {
	struct MHD_Daemon *d;
	MHD_AccessHandlerCallback handler;
	void *handler_cls;
	pthread_mutex_t lock; /* the list below: MHD's thread and ours */
	struct ctl_httpd_conn *conns;
	unsigned long deadline_closed; /* connections closed at the deadline */
	char host[64];
	int port;
};

/* The handler's *req_cls, if set, must come from malloc: it is freed
 * when the request ends. The handler calls ctl_httpd_received once the
 * request (head and body) is in: that meets its deadline. */
void ctl_httpd_received(struct ctl_httpd *h, struct MHD_Connection *c);

/* Listen on addr ("ADDR:PORT"; NULL: 127.0.0.1:9470) and serve each
 * request with handler (libmicrohttpd's callback; cls its first argument).
 * who prefixes error lines. Returns 0, or -1 after one line on stderr. */
int ctl_httpd_start(struct ctl_httpd *h, const char *addr, MHD_AccessHandlerCallback handler, void *cls,
		    const char *who);
/* Serve until *stop is set or the engine stops (an exit code, as
 * dp_report_end), closing connections past their deadline; then stop. */
int ctl_httpd_run(struct ctl_httpd *h, const struct dp_shm *s, volatile sig_atomic_t *stop,
		  const char *who);
/* Requests in (ctl_httpd_received) whose answer is not yet sent. */
int ctl_httpd_answering(struct ctl_httpd *h);
/* Stop serving, once the requests in are answered (at most 2 s). */
void ctl_httpd_stop(struct ctl_httpd *h);

#endif
