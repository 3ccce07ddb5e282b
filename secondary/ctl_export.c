/* SPDX-License-Identifier: BSD-3-Clause
 * dperf-ctl export --prometheus [ADDR:PORT]: /metrics over HTTP
 * (127.0.0.1:9470 by default) on the bounded server of ctl_httpd.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attach.h"
#include "ctl_httpd.h"
#include "ctl_prometheus.h"

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

int
ctl_prometheus(const struct dp_shm *s, const char *addr, volatile sig_atomic_t *stop)
{
	struct ctl_httpd h;

	if (ctl_httpd_start(&h, addr, answer, (void *)(uintptr_t)s, "export") != 0)
		return DP_EXIT_USAGE;
	printf("serving %s at http://%s:%d/metrics\n", s->hdr.name, h.host, h.port);
	fflush(stdout);
	return ctl_httpd_run(&h, s, stop, "dperf-ctl export");
}
