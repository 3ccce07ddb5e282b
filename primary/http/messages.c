/* SPDX-License-Identifier: BSD-3-Clause */
#define _GNU_SOURCE /* memmem */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "http/messages.h"

const char msg_bad_request[] =
	"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
_Static_assert(sizeof(msg_bad_request) - 1 == MSG_BAD_REQUEST_LEN, "MSG_BAD_REQUEST_LEN");
const char msg_not_found_ka[] =
	"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: keep-alive\r\n\r\n";
const char msg_not_found_close[] =
	"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
_Static_assert(sizeof(msg_not_found_ka) - 1 == MSG_NOT_FOUND_KA_LEN, "MSG_NOT_FOUND_KA_LEN");
_Static_assert(sizeof(msg_not_found_close) - 1 == MSG_NOT_FOUND_CLOSE_LEN, "MSG_NOT_FOUND_CLOSE_LEN");

/* The length of a response's head, its blank line included. */
static uint32_t
head_len(const uint8_t *p, uint32_t len)
{
	const uint8_t *e = memmem(p, len, "\r\n\r\n", 4);

	return e ? (uint32_t)(e + 4 - p) : len;
}

/* The keyword a message that does not fit is blamed on: pipeline when
 * given (its copies are what overflow), else the size, else mss. */
static const char *
blame(const struct dp_config *cfg)
{
	if (cfg->pipeline > 1)
		return "pipeline";
	if (cfg->payload_file[0] != '\0')
		return "payload_file";
	if (dp_config_line(cfg, "payload_size") != 0 || dp_config_line(cfg, "mss") == 0)
		return "payload_size";
	return "mss";
}

/* payload_file: its n bytes (the size the parse saw) into dst. The file
 * may have been replaced since the parse: opened without blocking (a FIFO
 * without a writer would hold start-up in open(), deaf to dperf-ctl) and
 * checked on the opened descriptor, so what is read is what was checked. */
static int
read_payload_file(const struct dp_config *cfg, uint8_t *dst, uint32_t n, char *err, size_t errlen)
{
	int fd = open(cfg->payload_file, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	struct stat st;
	uint32_t got = 0;

	if (fd < 0) {
		snprintf(err, errlen, "%s: cannot open: %s (expected a readable file)",
			 cfg->payload_file, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		snprintf(err, errlen, "%s: not a regular file since the configuration was read "
			 "(expected a file whose bytes are the payload)", cfg->payload_file);
		return -1;
	}
	if ((uint64_t)st.st_size != n) {
		close(fd);
		snprintf(err, errlen, "%s: changed size since the configuration was read (%u bytes "
			 "then; expected a file that stays as it is)", cfg->payload_file, n);
		return -1;
	}
	while (got < n) {
		ssize_t r = read(fd, dst + got, n - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			snprintf(err, errlen, "%s: cannot read: %s", cfg->payload_file,
				 r < 0 ? strerror(errno) : "shorter than its size");
			close(fd);
			return -1;
		}
		got += (uint32_t)r;
	}
	close(fd);
	return 0;
}

/* payload_file: the file's bytes replace the start of the filler the
 * composition wrote, where the body is (HTTP: after each head, the
 * responses' and a POST's; raw: the whole message), sizes unchanged (the
 * parse made payload_size the file plus any head, or checked that a
 * server's payload_size holds them: the filler then follows the file).
 * Before the sums: worker_msgs.c computes them from these bytes. */
static int
file_bodies(const struct dp_config *cfg, const struct msg_layout *l, uint8_t *buf,
	    const struct msg_lens *ml, char *err, size_t errlen)
{
	uint32_t n = cfg->payload_file_size;
	uint8_t *ka = buf + l->ka, *body = ka + (ml->is_http ? ml->head_ka : 0);

	if ((ml->is_http ? ml->rsp_ka - ml->head_ka : ml->rsp_ka) < n
	    || (ml->is_http && ml->rsp_close - ml->head_close < n)
	    || (ml->is_http ? ml->head_ka : 0) + n > l->rsp_cap) {
		snprintf(err, errlen, "internal: a body of %u bytes for a file of %u", ml->rsp_ka, n);
		return -1;
	}
	if (read_payload_file(cfg, body, n, err, errlen) != 0)
		return -1;
	if (ml->is_http)
		memcpy(buf + l->close + ml->head_close, body, n);
	/* the request: raw, the same message; a POST, its body (a GET, which
	 * the parse refuses on a client, keeps its head) */
	if (!ml->is_http && ml->one == n)
		memcpy(buf, body, n);
	else if (ml->is_http && cfg->http_method == DP_HTTP_POST && ml->one > n
		 && ml->one <= l->req_cap)
		memcpy(buf + ml->one - n, body, n);
	return 0;
}

/* A POST whose body takes more than one segment: sent by the sender
 * (tcp_send.h) like a server's long answer. */
static int
big_post(const struct dp_config *cfg)
{
	return cfg->mode == DP_MODE_CLIENT && dp_msg_is_http(cfg) && cfg->protocol != DP_PROTO_UDP &&
	       cfg->http_method == DP_HTTP_POST && cfg->payload_size > cfg->mss;
}

void
msg_layout(const struct dp_config *cfg, struct msg_layout *l)
{
	size_t cap = DP_MSG_MAX, size = cfg->payload_size;

	if (size > DP_RSP_STORED)
		size = DP_RSP_STORED; /* the rest by the content rule (messages.h) */
	if (size + (size_t)DP_MSG_MAX > cap)
		cap = size + (size_t)DP_MSG_MAX; /* the body, and any head */
	l->rsp_cap = cap;
	/* a client's POST body over several segments: kept whole (at most
	 * DP_RSP_STORED, the rule below refuses more) */
	l->req_cap = DP_MSG_MAX;
	if (big_post(cfg))
		l->req_cap = size + (size_t)DP_MSG_MAX;
	l->ka = l->req_cap;
	l->close = l->ka + cap;
	l->sums = (l->close + cap + 3) & ~(size_t)3;
	/* a sum per segment of each response, and one for a cut last
	 * segment beyond the stored prefix; 536, the least mss */
	l->len = l->sums + (2 * (cap / 536 + 2) + l->req_cap / 536 + 2) * sizeof(uint32_t);
	l->kinds = l->len;
	l->kmsg = (l->kinds + (size_t)cfg->n_kinds * DP_MSG_MAX + 7) & ~(size_t)7;
	l->len = l->kmsg + (cfg->n_kinds ? cfg->n_kinds : 1) * sizeof(struct msg);
	l->kinds_len = l->len - l->kinds;
	for (uint32_t j = 0; j < cfg->n_objects; j++) {
		size_t c = (size_t)cfg->objects[j].size + DP_HTTP_MIN_SIZE;

		l->obj_cap[j] = c < DP_RSP_STORED ? c : DP_RSP_STORED;
		l->obj_off[j] = l->len;
		l->obj_sums[j] = (l->len + 2 * l->obj_cap[j] + 3) & ~(size_t)3;
		l->len = l->obj_sums[j] + 2 * (l->obj_cap[j] / 536 + 2) * sizeof(uint32_t);
	}
	l->omsg = (l->len + 7) & ~(size_t)7;
	l->paths = l->omsg + (cfg->n_objects ? MSG_OBJ_COUNT(cfg->n_objects) * sizeof(struct msg) : 0);
	l->paths = (l->paths + 7) & ~(size_t)7;
	l->len = l->paths + (cfg->n_objects ? sizeof(struct dp_obj_paths) : 0);
}

int
msg_compose_object(const struct dp_config *cfg, uint32_t j, uint8_t *buf, uint32_t lens[4],
		   char *err, size_t errlen)
{
	const struct dp_object *o = &cfg->objects[j];
	struct dp_config *c = malloc(sizeof(*c));
	struct msg_layout l;
	uint8_t *ka, *cl;
	int rc = 0;

	if (c == NULL) {
		snprintf(err, errlen, "%s: out of memory", o->path);
		return -1;
	}
	msg_layout(cfg, &l);
	ka = buf + l.obj_off[j];
	cl = ka + l.obj_cap[j];
	*c = *cfg; /* the object's size as a payload_size, its file as a payload_file */
	c->payload_size = o->size + DP_HTTP_MIN_SIZE;
	lens[0] = dp_http_response_prefix(c, 1, ka, l.obj_cap[j]);
	lens[1] = dp_http_response_prefix(c, 0, cl, l.obj_cap[j]);
	lens[2] = lens[0] ? head_len(ka, lens[0] < l.obj_cap[j] ? lens[0] : (uint32_t)l.obj_cap[j]) : 0;
	lens[3] = lens[1] ? head_len(cl, lens[1] < l.obj_cap[j] ? lens[1] : (uint32_t)l.obj_cap[j]) : 0;
	if (lens[0] == 0 || lens[1] == 0) {
		snprintf(err, errlen, "%s: internal: no room for an answer of %u bytes", o->path,
			 c->payload_size);
		rc = -1;
	} else if (lens[0] > cfg->mss && cfg->pipeline > 1) {
		snprintf(err, errlen, "%s: an answer of %u bytes with pipeline %u (expected answers "
			 "within mss %u: pipelined responses are one segment each)", o->path,
			 lens[0], cfg->pipeline, cfg->mss);
		rc = -1;
	} else if (o->file[0] != '\0') {
		snprintf(c->payload_file, sizeof(c->payload_file), "%s", o->file);
		if (lens[2] + o->size > l.obj_cap[j] || lens[3] + o->size > l.obj_cap[j]) {
			snprintf(err, errlen, "%s: internal: a body of %u bytes does not fit", o->path,
				 o->size);
			rc = -1;
		} else if (read_payload_file(c, ka + lens[2], o->size, err, errlen) != 0) {
			rc = -1;
		} else {
			memcpy(cl + lens[3], ka + lens[2], o->size);
		}
	}
	free(c);
	return rc;
}

uint32_t
msg_compose_kind(const struct dp_config *cfg, const struct dp_ip *srv, uint32_t k, uint8_t *buf,
		 char *err, size_t errlen)
{
	uint32_t pipe = cfg->pipeline ? cfg->pipeline : 1, size = cfg->payload_size, one;
	const struct dp_kind *kd = &cfg->kinds[k];
	struct msg_layout l;
	uint8_t *req;
	char host[64];

	msg_layout(cfg, &l);
	req = buf + l.kinds + (size_t)k * DP_MSG_MAX;
	if (big_post(cfg)) {
		snprintf(err, errlen, "%s: a POST body over several segments (payload_size %u above "
			 "mss %u) with kind lines (expected requests of one segment each)", kd->name,
			 size, cfg->mss);
		return 0;
	}
	dp_ip_str(srv, host, sizeof(host));
	one = dp_http_request_path(cfg, cfg->http_host[0] ? NULL : host, kd->path,
				   size > cfg->mss && cfg->http_method == DP_HTTP_GET ? 0 : size, req,
				   DP_MSG_MAX);
	if (one == 0 || (uint64_t)one * pipe > cfg->mss) {
		snprintf(err, errlen, "%s: %u request%s of %u bytes for %s exceed mss %u (expected "
			 "a request of one segment: a shorter path or payload_size)", kd->name, pipe,
			 pipe > 1 ? "s" : "", one, kd->path, cfg->mss);
		return 0;
	}
	for (uint32_t i = 1; i < pipe; i++)
		memcpy(req + i * one, req, one);
	return one * pipe;
}

int
msg_compose(const struct dp_config *cfg, const struct dp_ip *srv, uint8_t *buf,
	    struct msg_lens *out, const char **kw, char *err, size_t errlen)
{
	uint32_t pipe = cfg->pipeline ? cfg->pipeline : 1, size = cfg->payload_size;
	struct msg_layout l;
	uint8_t *req = buf, *ka, *cl;
	char host[64];

	msg_layout(cfg, &l);
	ka = buf + l.ka;
	cl = buf + l.close;

	memset(out, 0, sizeof(*out));
	out->is_http = (uint8_t)dp_msg_is_http(cfg);
	if (out->is_http) {
		dp_ip_str(srv, host, sizeof(host));
		/* A GET of more than mss: its plain head (the size is the
		 * response's: a request is one segment). */
		out->one = dp_http_request_sized(cfg, cfg->http_host[0] ? NULL : host,
						 size > cfg->mss && cfg->http_method == DP_HTTP_GET ? 0 : size,
						 req, l.req_cap);
		out->rsp_ka = dp_http_response_prefix(cfg, 1, ka, l.rsp_cap);
		out->rsp_close = dp_http_response_prefix(cfg, 0, cl, l.rsp_cap);
		out->head_ka = head_len(ka, out->rsp_ka < l.rsp_cap ? out->rsp_ka : (uint32_t)l.rsp_cap);
		out->head_close = head_len(cl, out->rsp_close < l.rsp_cap ? out->rsp_close : (uint32_t)l.rsp_cap);
	} else {
		out->one = dp_raw_message(size, cfg->payload_random, req, DP_MSG_MAX);
		/* too long for memory: the mss rule below refuses it */
		out->rsp_ka = size > l.rsp_cap ? size : dp_raw_message(size, cfg->payload_random, ka, l.rsp_cap);
		out->rsp_close = out->rsp_ka;
	}
	*kw = blame(cfg);
	if (cfg->payload_file[0] != '\0' && out->rsp_ka != 0
	    && file_bodies(cfg, &l, buf, out, err, errlen) != 0)
		return -1;
	if (big_post(cfg) && (pipe > 1 || size > DP_RSP_STORED)) {
		snprintf(err, errlen, "a POST body over several segments (payload_size %u above mss %u) "
			 "%s (expected one request at a time, at most %u bytes)", size, cfg->mss,
			 pipe > 1 ? "with pipeline" : "too long", DP_RSP_STORED);
		return -1;
	}
	if (out->one == 0 || out->one * pipe > l.req_cap || out->rsp_ka == 0) {
		snprintf(err, errlen, "%u requests of %u bytes do not fit one message (expected at most %zu bytes)",
			 pipe, out->one, l.req_cap);
		return -1;
	}
	for (uint32_t i = 1; i < pipe; i++)
		memcpy(req + i * out->one, req, out->one);
	out->req = out->one * pipe;
	if ((out->req > cfg->mss && !big_post(cfg)) || (out->rsp_ka > cfg->mss && (!out->is_http || pipe > 1 || cfg->protocol == DP_PROTO_UDP))) {
		snprintf(err, errlen,
			 "messages of %u (request%s) and %u (response) bytes exceed mss %u (expected payload_size x pipeline <= mss: a request, a raw TCP or UDP message, and pipelined responses are one segment each)",
			 out->req, pipe > 1 ? "s" : "", out->rsp_ka, cfg->mss);
		return -1;
	}
	if (out->rsp_ka > DP_RSP_MAX) {
		snprintf(err, errlen, "responses of %u bytes (expected at most %u)", out->rsp_ka,
			 DP_RSP_MAX);
		return -1;
	}
	return 0;
}
