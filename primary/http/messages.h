/* SPDX-License-Identifier: BSD-3-Clause
 * The messages a worker sends, composed from the configuration: the
 * request (pipeline copies of one), the keep-alive response and the
 * closing response, and the rules for their sizes. Pure code:
 * the config check (config_rules.c) composes them before EAL starts, and
 * worker_setup.c composes the ones it sends.
 */
#ifndef DPERF_MESSAGES_H
#define DPERF_MESSAGES_H

#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "http/http.h"

/* The largest response: an HTTP answer over several segments. */
#define DP_RSP_MAX DP_PAYLOAD_MAX
/* What of a response is kept in memory, once per worker and kind. A longer
 * one (up to DP_RSP_MAX) is sent from that prefix by this content rule:
 * with S = DP_RSP_STORED / mss whole stored segments, segment k >= S
 * carries the bytes of stored segment S/2 + (k - S) mod (S - S/2), the
 * last one cut to the message's end. So byte i >= S x mss of the message
 * equals byte S/2 x mss + (i - S x mss) mod ((S - S/2) x mss); every
 * stored segment from S/2 on is body (the head is 85 bytes), so with
 * payload_random off the body is all 'a' to its last byte. Segment k's
 * sum is the mapped segment's, precomputed (the cut last one: its own). */
#define DP_RSP_STORED DP_PAYLOAD_STORED

/* Where msg_compose writes in its buffer: the request at 0, the two
 * responses, then room for the responses' per-segment sums and the
 * request's. */
struct msg_layout {
	size_t ka, close; /* offsets of the responses */
	size_t sums;      /* offset of the sums (uint32_t, 4-aligned) */
	size_t len;       /* the buffer's length */
	size_t rsp_cap;   /* room for each response */
	size_t req_cap;   /* room for the request (a long POST's whole body) */
	/* A client's kinds (config.h's kind lines): kind k's requests at
	 * kinds + k x DP_MSG_MAX (none without kind lines), then the
	 * struct msg of each kind (one without kind lines: the request's
	 * copy) at kmsg, 8-aligned. kinds_len is what they add to len. */
	size_t kinds, kmsg, kinds_len;
	/* A server's objects (config.h's object lines): object j's keep-alive
	 * answer at obj_off[j] (obj_cap[j] bytes: its first DP_RSP_STORED at
	 * most), its closing answer after it, their per-segment sums at
	 * obj_sums[j] (obj_cap[j] / 536 + 2 each); then the struct msg of
	 * every answer at omsg (msgs.obj's order) and the paths at paths. */
	size_t obj_off[DP_MAX_OBJECTS], obj_cap[DP_MAX_OBJECTS], obj_sums[DP_MAX_OBJECTS];
	size_t omsg, paths;
};
void msg_layout(const struct dp_config *cfg, struct msg_layout *l);

struct msg_lens {
	uint32_t one;       /* one request */
	uint32_t req;       /* the pipelined requests, as sent */
	uint32_t rsp_ka;    /* response on a kept-alive connection */
	uint32_t rsp_close; /* response that closes (HTTP only; raw: rsp_ka) */
	uint32_t head_ka;   /* HTTP: the head of rsp_ka (a HEAD's answer) */
	uint32_t head_close;
	uint8_t is_http;
};

/* A prebuilt message and the ones'-complement sum of its bytes. */
struct msg {
	const uint8_t *data;
	uint32_t len;
	uint32_t sum;
	/* A message longer than mss goes out in mss-sized segments; the sum
	 * of segment k's bytes is seg_sum[k] (NULL: one segment). */
	const uint32_t *seg_sum;
	/* A message longer than what is stored of it: the whole segments
	 * stored, the rest by the content rule above; 0: all stored. */
	uint32_t seg_stored;
	/* A segment's bytes with no sum computed (sum unset): the packet
	 * writer sums them as it copies them (net/cksum.h's dp_copy_cksum; a
	 * TLS connection's records, issue 38). Either way is right: 1 only
	 * saves a pass where no sum was made. */
	uint8_t sum_on_copy;
};

/* A worker's messages (boot/worker_msgs.c builds them). */
struct msgs {
	struct msg req;
	struct msg rsp_ka;
	struct msg rsp_close;
	struct msg rsp_head_ka;    /* HEAD: rsp_ka's head, without its body */
	struct msg rsp_head_close;
	struct msg rsp_bad;        /* 400, then the connection closes */
	uint32_t rsp_size;   /* raw mode: expected response size */
	uint32_t req_size;   /* raw mode: expected request size */
	size_t map_len;      /* the buffer mmap'ed (this long), 0: rte_zmalloc */
	/* Client: the request of a connection of kind k is kreq[k] (in the
	 * buffer, msg_layout's kmsg). Without kind lines kreq[0] is a copy
	 * of req, so the one-kind path reads the same request through the
	 * same index, no branch. */
	const struct msg *kreq;
	/* Server with object lines (n_obj > 0): object j's answers are
	 * obj[4j] keep-alive, obj[4j + 1] closing, obj[4j + 2] and [4j + 3]
	 * their heads (HEAD); obj[4 n_obj] and [4 n_obj + 1] the 404s. The
	 * request scanner reads each path against paths (NULL: none, every
	 * path gets rsp_ka). obj_big: an answer takes several segments. */
	const struct dp_obj_paths *paths;
	const struct msg *obj;
	uint32_t n_obj;
	uint8_t obj_big;
	struct dp_http_head_cache rsp_head; /* client: the last response head (app/http_app.c) */
};

/* The answer to a request that is not HTTP (or not GET, HEAD, POST). */
extern const char msg_bad_request[];
#define MSG_BAD_REQUEST_LEN 66
/* A server's answer to a path no object has (object lines), kept alive
 * or closing. */
extern const char msg_not_found_ka[], msg_not_found_close[];
#define MSG_NOT_FOUND_KA_LEN 69
#define MSG_NOT_FOUND_CLOSE_LEN 64
/* The struct msg of a server's object answers: 4 per object and the two 404s. */
#define MSG_OBJ_COUNT(n) (4 * (n) + 2)

/* Compose, for the server address srv (an HTTP request names it as Host
 * unless http_host is set), into buf (msg_layout's len bytes, at its
 * offsets). Returns 0, or -1 with *kw the keyword to blame and err the
 * reason (without the keyword). A request is one segment; an HTTP
 * response may be larger than mss (sent over several segments, up to
 * DP_RSP_MAX) when one request at a time is in flight. */
int msg_compose(const struct dp_config *cfg, const struct dp_ip *srv, uint8_t *buf,
		struct msg_lens *out, const char **kw, char *err, size_t errlen);

/* Kind k's request (cfg->kinds[k]: its path; the Host, size, method and
 * pipeline copies as msg_compose's request) into buf + l->kinds + k x
 * DP_MSG_MAX. Returns its length (pipelined), or 0 with err set (without
 * the keyword: kind's). One segment each: a POST body over several
 * segments is refused with kind lines. */
/* Object j's answers (cfg->objects[j]: dperf's response of its size +
 * 85 bytes, Content-Length its size, the file's bytes as its body) into
 * buf at l's obj_off[j]: lens[0] keep-alive, [1] closing, [2] and [3]
 * their heads. Returns 0, or -1 with err set (without the keyword:
 * object's). */
int msg_compose_object(const struct dp_config *cfg, uint32_t j, uint8_t *buf, uint32_t lens[4],
		       char *err, size_t errlen);

uint32_t msg_compose_kind(const struct dp_config *cfg, const struct dp_ip *srv, uint32_t k,
			  uint8_t *buf, char *err, size_t errlen);

#endif
