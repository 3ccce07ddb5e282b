/* SPDX-License-Identifier: BSD-3-Clause
 * dperf-ctl serve ADDR:PORT [--token-file FILE] [--metrics-token]: the
 * instance over HTTP/1.1 (ctl_httpd.c), JSON in and out, for a controller
 * that drives many boxes (scripts/ansible/):
 *
 *   GET  /v1/status, /v1/stats   what status --json and stats --json print
 *   PUT  /v1/target              {"cps": N} | {"cc": N} | {"duration": T} | {"weight": {"KIND": N}}
 *   POST /v1/pause, /v1/resume, /v1/stop
 *   GET  /metrics                the Prometheus exposition
 *
 * A change is the control request dperf-ctl sends (lib/ctl_client.c), so
 * the primary's rules and refusals stay in one place: 200 with the applied
 * generation, 400 for bad input, 409 for a refusal, 504 when the primary
 * does not answer (dperf-ctl's exit codes 2, 1 and 4). Every /v1/ request
 * needs the bearer token; /metrics too with --metrics-token. Without a
 * token file the API is off (403) and only /metrics is served: that is
 * `export --prometheus`, which only loopback may do without a token.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rte_cycles.h>

#include "attach.h"
#include "ctl_client.h"
#include "ctl_httpd.h"
#include "ctl_output.h"
#include "ctl_prometheus.h"
#include "ctl_serve.h"
#include "ctl_target.h"
#include "stats_out.h"

/* A request body (a target) is a few dozen bytes; a longer one gets 413. */
#define SERVE_BODY_MAX 1024

struct req {
	size_t len;
	int too_big;
	char body[SERVE_BODY_MAX + 1];
};

/* A JSON string's contents, escaped. */
static void
json_str(FILE *f, const char *v)
{
	for (; *v; v++) {
		unsigned char ch = (unsigned char)*v;

		if (ch == '"' || ch == '\\')
			fprintf(f, "\\%c", ch);
		else if (ch < 0x20 || ch == 0x7f)
			fprintf(f, "\\u%04x", ch);
		else
			fputc(ch, f);
	}
}

/* Queue an answer whose body f wrote (a memory stream), or close the
 * connection when memory ran out. allow: the Allow header a 405 must carry
 * (RFC 9110, 15.5.6), else NULL. */
static enum MHD_Result
send_answer(struct MHD_Connection *c, unsigned int code, FILE *f, char **buf, size_t *len, const char *type,
	    const char *allow)
{
	struct MHD_Response *r;
	enum MHD_Result ret;

	if (fclose(f) != 0) {
		free(*buf);
		return MHD_NO;
	}
	if ((r = MHD_create_response_from_buffer(*len, *buf, MHD_RESPMEM_MUST_FREE)) == NULL) {
		free(*buf);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	if (code == MHD_HTTP_UNAUTHORIZED)
		MHD_add_response_header(r, MHD_HTTP_HEADER_WWW_AUTHENTICATE, "Bearer");
	if (allow != NULL)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, allow);
	ret = MHD_queue_response(c, code, r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result
send_body(struct MHD_Connection *c, unsigned int code, FILE *f, char **buf, size_t *len, const char *type)
{
	return send_answer(c, code, f, buf, len, type, NULL);
}

/* {"error": "msg"} with the code (and the Allow header, if any). */
static enum MHD_Result
error_msg(struct MHD_Connection *c, unsigned int code, const char *allow, const char *msg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (f == NULL)
		return MHD_NO;
	fputs("{\"error\":\"", f);
	json_str(f, msg);
	fputs("\"}\n", f);
	return send_answer(c, code, f, &buf, &len, "application/json", allow);
}

static enum MHD_Result
error_json(struct MHD_Connection *c, unsigned int code, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return error_msg(c, code, NULL, msg);
}

/* 405: the methods url takes, in the body and in Allow. */
static enum MHD_Result
not_allowed(struct MHD_Connection *c, const char *url, const char *allow)
{
	char msg[512];

	snprintf(msg, sizeof(msg), "%s: %s", url, allow);
	return error_msg(c, MHD_HTTP_METHOD_NOT_ALLOWED, allow, msg);
}

/* The bearer token, compared in constant time: the loop runs over the
 * whole secret whatever the guess, so timing tells nothing of how much of
 * it matched (only its length, which is not secret enough to matter). */
static int
authorized(const struct ctl_serve *sv, struct MHD_Connection *c)
{
	const char *h = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_AUTHORIZATION);
	size_t gl;
	unsigned int diff;

	if (h == NULL || strncmp(h, "Bearer ", 7) != 0)
		return 0;
	h += 7;
	gl = strlen(h);
	diff = gl != sv->token_len;
	for (size_t i = 0; i < sv->token_len; i++)
		diff |= (unsigned char)sv->token[i] ^ (unsigned char)(i < gl ? h[i] : 0);
	return diff == 0;
}

/* Send a control request; the answer's code is dperf-ctl's exit code as
 * HTTP. */
static enum MHD_Result
control(struct MHD_Connection *c, uint32_t op, int64_t value, const char *kind)
{
	struct dp_ctl_rep rep;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	if (dp_ctl_send_kind(op, value, kind, &rep, DP_CTL_TIMEOUT_MS) != 0)
		return error_json(c, MHD_HTTP_GATEWAY_TIMEOUT, "%s within %d s: %s was not applied and will not be",
				  rep.msg, DP_CTL_TIMEOUT_MS / 1000, dp_ctl_op_name(op));
	if (rep.status != DP_CTL_OK)
		return error_json(c, MHD_HTTP_CONFLICT, "refused: %s", rep.msg);
	if ((f = open_memstream(&buf, &len)) == NULL)
		return MHD_NO;
	fprintf(f, "{\"accepted\":\"");
	json_str(f, rep.msg);
	fprintf(f, "\",\"generation\":%" PRIu64 "}\n", (uint64_t)rep.generation);
	return send_body(c, MHD_HTTP_OK, f, &buf, &len, "application/json");
}

static enum MHD_Result
put_target(struct MHD_Connection *c, struct req *q)
{
	char kind[DP_CTL_KIND_LEN], why[200];
	uint32_t op;
	int64_t value;

	if (q->too_big)
		return error_json(c, MHD_HTTP_CONTENT_TOO_LARGE, "a body over %d bytes", SERVE_BODY_MAX);
	q->body[q->len] = '\0';
	if (strlen(q->body) != q->len)
		return error_json(c, MHD_HTTP_BAD_REQUEST, "bad JSON: a NUL byte in the body");
	if (ctl_parse_target_json(q->body, &op, &value, kind, sizeof(kind), why, sizeof(why)) != 0)
		return error_json(c, MHD_HTTP_BAD_REQUEST, "%s", why);
	return control(c, op, value, kind[0] ? kind : NULL);
}

/* GET: the status, the stats or the exposition, written now. */
static enum MHD_Result
get(struct ctl_serve *sv, struct MHD_Connection *c, const char *url)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	const struct dp_shm *s = sv->s;

	if (f == NULL)
		return MHD_NO;
	if (strcmp(url, "/metrics") == 0) {
		ctl_prometheus_exposition(f, s);
		return send_body(c, MHD_HTTP_OK, f, &buf, &len, "text/plain; version=0.0.4");
	}
	if (strcmp(url, "/v1/status") == 0) {
		ctl_print_status(f, s, rte_rdtsc(), 1);
	} else {
		/* the last second the primary completed, as stats --json;
		 * before the first (or after the end) rates over nothing: 0 */
		if (s->hdr.state == DP_ST_DONE || dp_snapshot_last_second(s, rte_rdtsc(), sv->a, sv->b) != 0) {
			dp_snapshot_take(s, rte_rdtsc(), sv->b);
			*sv->a = *sv->b;
		}
		dp_stats_json(f, s, sv->a, sv->b);
	}
	return send_body(c, MHD_HTTP_OK, f, &buf, &len, "application/json");
}

static enum MHD_Result
answer(void *cls, struct MHD_Connection *c, const char *url, const char *method, const char *version,
       const char *data, size_t *data_size, void **req_cls)
{
	struct ctl_serve *sv = cls;
	struct req *q = *req_cls;
	int api = strncmp(url, "/v1/", 4) == 0, is_get, is_put, is_post;

	(void)version;
	is_get = strcmp(method, MHD_HTTP_METHOD_GET) == 0 || strcmp(method, MHD_HTTP_METHOD_HEAD) == 0;
	is_put = strcmp(method, MHD_HTTP_METHOD_PUT) == 0;
	is_post = strcmp(method, MHD_HTTP_METHOD_POST) == 0;
	if (q == NULL) { /* the head is in: answer what needs no body now */
		if (!api && strcmp(url, "/metrics") != 0)
			return ctl_httpd_received(&sv->http, c), error_json(c, MHD_HTTP_NOT_FOUND, "no %s", url);
		if (api && !sv->token_len)
			return ctl_httpd_received(&sv->http, c),
			       error_json(c, MHD_HTTP_FORBIDDEN, "the API is off: serve was started without --token-file");
		if ((api || sv->metrics_token) && !authorized(sv, c))
			return ctl_httpd_received(&sv->http, c),
			       error_json(c, MHD_HTTP_UNAUTHORIZED, "expected Authorization: Bearer TOKEN");
		if ((q = calloc(1, sizeof(*q))) == NULL)
			return MHD_NO;
		*req_cls = q;
		return MHD_YES;
	}
	if (*data_size != 0) { /* a piece of the body */
		size_t room = SERVE_BODY_MAX - q->len;

		if (*data_size > room)
			q->too_big = 1;
		else
			memcpy(q->body + q->len, data, *data_size);
		q->len += *data_size > room ? 0 : *data_size;
		*data_size = 0;
		return MHD_YES;
	}
	ctl_httpd_received(&sv->http, c);
	if (strcmp(url, "/metrics") == 0 || strcmp(url, "/v1/status") == 0 || strcmp(url, "/v1/stats") == 0)
		return is_get ? get(sv, c, url) : not_allowed(c, url, "GET, HEAD");
	if (strcmp(url, "/v1/target") == 0)
		return is_put ? put_target(c, q) : not_allowed(c, url, "PUT");
	if (strcmp(url, "/v1/pause") == 0 || strcmp(url, "/v1/resume") == 0 || strcmp(url, "/v1/stop") == 0) {
		if (!is_post)
			return not_allowed(c, url, "POST");
		return control(c, url[4] == 'p' ? DP_OP_PAUSE : url[4] == 'r' ? DP_OP_RESUME : DP_OP_STOP, 0, NULL);
	}
	return error_json(c, MHD_HTTP_NOT_FOUND, "no %s", url);
}

/* The token: a regular file, ours, readable by nobody else; its first
 * line, without surrounding space. */
static int
read_token(struct ctl_serve *sv, const char *path)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	ssize_t n;
	char *e;

	if (fd < 0) {
		fprintf(stderr, "dperf-ctl: serve: --token-file %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 077)) {
		fprintf(stderr, "dperf-ctl: serve: --token-file %s: must be a regular file of ours that no one else can read or write (chmod 600)\n",
			path);
		close(fd);
		return -1;
	}
	n = read(fd, sv->token, sizeof(sv->token) - 1);
	close(fd);
	sv->token[n > 0 ? n : 0] = '\0';
	if ((e = strpbrk(sv->token, "\r\n")) != NULL)
		*e = '\0';
	sv->token_len = strlen(sv->token);
	while (sv->token_len > 0 && (sv->token[sv->token_len - 1] == ' ' || sv->token[sv->token_len - 1] == '\t'))
		sv->token[--sv->token_len] = '\0';
	if (n < 0 || sv->token_len < 16 || strpbrk(sv->token, " \t") != NULL) {
		fprintf(stderr, "dperf-ctl: serve: --token-file %s: expected one line of at least 16 characters without spaces\n",
			path);
		return -1;
	}
	return 0;
}

int
ctl_serve_prepare(struct ctl_serve *sv, const char *addr, const char *token_file, int metrics_token)
{
	const char *colon = addr != NULL ? strrchr(addr, ':') : NULL;
	char host[64];
	struct in_addr ia;

	memset(sv, 0, sizeof(*sv));
	sv->addr = addr;
	sv->metrics_token = metrics_token;
	if (metrics_token && token_file == NULL) {
		fprintf(stderr, "dperf-ctl: serve: --metrics-token needs --token-file\n");
		return DP_EXIT_USAGE;
	}
	if (token_file != NULL && read_token(sv, token_file) != 0)
		return DP_EXIT_USAGE;
	/* Anyone who can reach a non-loopback address could steer the test. */
	snprintf(host, sizeof(host), "%.*s", colon != NULL ? (int)(colon - addr) : 0, addr != NULL ? addr : "");
	if (token_file == NULL && addr != NULL &&
	    (inet_pton(AF_INET, host, &ia) != 1 || (ntohl(ia.s_addr) >> 24) != 127)) {
		fprintf(stderr, "dperf-ctl: serve: %s is not a loopback address: give --token-file\n", addr);
		return DP_EXIT_USAGE;
	}
	sv->a = malloc(sizeof(*sv->a));
	sv->b = malloc(sizeof(*sv->b));
	if (sv->a == NULL || sv->b == NULL) {
		fprintf(stderr, "dperf-ctl: serve: out of memory\n");
		return DP_EXIT_USAGE;
	}
	return 0;
}

int
ctl_serve_run(struct ctl_serve *sv, const struct dp_shm *s, volatile sig_atomic_t *stop)
{
	int rc;

	sv->s = s;
	if (ctl_httpd_start(&sv->http, sv->addr, answer, sv, "serve") != 0)
		rc = DP_EXIT_USAGE;
	else {
		printf("serving %s at http://%s:%d/ (%s)\n", s->hdr.name, sv->http.host, sv->http.port,
		       sv->token_len ? "/v1/ and /metrics" : "/metrics only");
		fflush(stdout);
		rc = ctl_httpd_run(&sv->http, s, stop, "dperf-ctl serve");
	}
	free(sv->a);
	free(sv->b);
	return rc;
}
