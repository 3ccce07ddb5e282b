/* SPDX-License-Identifier: BSD-3-Clause
 * HTTP over a TCP connection (protocol http, and https under tls/): the
 * client reads responses with http/'s scanner, the server counts the
 * requests that end in what arrived, as runs of one method.
 */
#include <rte_branch_prediction.h>

#include "app/app.h"
#include "http/http.h"
#include "http/rsp_scan.h"
#include "tcp/tcp_client.h"

/* Bytes of response heads (interim ones included), chunk framing and
 * trailers in a row, without content between: more is a malformed
 * response, not one that is slow (arriving data restarts the timer). */
#define RSP_HEAD_RUN_MAX 65535u

/* Response bytes. Returns -1 on a malformed response. */
static int
http_client_rcv(struct netw *nw, struct sock *sk, const uint8_t *p, uint32_t len)
{
	while (len > 0) {
		uint32_t used;
		int rc;

		if (dp_rsp_scan_idle(&sk->rs)) {
			int status;
			uint32_t total;

			if (sk->inflight == 0) { /* bytes nobody asked for */
				CNT(&nw->cnt, HTTP_ERR);
				return -1;
			}
			/* The common case: the whole head in this segment, the
			 * same as the last one (one memcmp). A response all in
			 * this segment ends here; else the scanner counts the
			 * rest down. Otherwise it reads the head a byte at a
			 * time (split, chunked, or new): tens of times the
			 * memcmp, so not for the CPS test's every response. */
			if (dp_http_parse_response_cached(&nw->msg.rsp_head, p, len, &status, &total) == 0) {
				enum dp_counter c = status >= 200 && status < 300 ? DP_C_HTTP_2XX : DP_C_HTTP_ERR;

				if (total <= len) {
					p += total;
					len -= total;
					tcp_client_response_end(nw, sk, c);
					continue;
				}
				dp_rsp_scan_body(&sk->rs, total, c == DP_C_HTTP_2XX);
			}
		}
		rc = dp_rsp_scan(&sk->rs, p, len, &used);
		if (rc == DP_RSP_BAD)
			return -1; /* the connection fails: the response is unfinished */
		p += used;
		len -= used;
		if (rc != DP_RSP_MORE) {
			sk->head_run = 0;
			tcp_client_response_end(nw, sk, rc == DP_RSP_2XX ? DP_C_HTTP_2XX : DP_C_HTTP_ERR);
		} else if (dp_rsp_scan_in_data(&sk->rs)) {
			sk->head_run = 0;
		} else if (used > RSP_HEAD_RUN_MAX - sk->head_run) {
			return -1; /* endless headers, interim responses or chunk framing */
		} else {
			sk->head_run = (uint16_t)(sk->head_run + used);
		}
	}
	return 0;
}

/* The server's FIN ends a response whose body ends at the close (no
 * Content-Length, not chunked: HTTP/1.0 servers, error pages) as its
 * status says; any other it leaves unfinished. */
static int
http_client_fin(struct netw *nw, struct sock *sk)
{
	int rc = dp_rsp_scan_close(&sk->rs);

	if (rc == DP_RSP_BAD)
		return 0;
	tcp_client_response_end(nw, sk, rc == DP_RSP_2XX ? DP_C_HTTP_2XX : DP_C_HTTP_ERR);
	return 1;
}

/* A connection that ends with a response unfinished: httpErr. */
static void
http_unfinished(struct netw *nw, const struct sock *sk)
{
	if (sk->inflight > 0)
		CNT(&nw->cnt, HTTP_ERR);
}

static void
runs_add(struct req_runs *r, uint8_t kind)
{
	if (r->n > 0 && r->kind[r->n - 1] == kind) {
		r->count[r->n - 1]++;
	} else {
		if (r->n == MAX_RUNS - 1)
			kind = DP_REQ_BAD; /* the last run: 400, then close */
		r->kind[r->n] = kind;
		r->count[r->n++] = 1;
	}
	r->total++;
}

/* The requests that end in data, counted by method (httpGet, httpPost;
 * one not GET, HEAD or POST is httpErr and the last read); one asking to
 * close marks the connection (SKF_CLOSE). */
static void
http_server_requests(struct netw *nw, struct sock *sk, const uint8_t *data, uint32_t dlen,
		     struct req_runs *r)
{
	uint32_t off = 0;
	int done;

	while (off < dlen) {
		off += dp_http_scan_request_paths(&sk->rq, nw->msg.paths, data + off, dlen - off,
						  &done);
		if (!done)
			break;
		runs_add(r, sk->rq.kind); /* its key: method and object (stream_scan.h) */
		if (r->kind[r->n - 1] == DP_REQ_BAD)
			break;
	}
	for (uint32_t i = 0; i < r->n; i++) {
		uint8_t m = DP_REQ_METHOD(r->kind[i]);

		if (m == DP_REQ_POST)
			CNT_ADD(&nw->cnt, HTTP_POST, r->count[i]);
		else if (m == DP_REQ_BAD)
			CNT_ADD(&nw->cnt, HTTP_ERR, r->count[i]);
		else
			CNT_ADD(&nw->cnt, HTTP_GET, r->count[i]);
		if (unlikely(DP_REQ_OBJ(r->kind[i]) == DP_OBJ_MISS))
			CNT_ADD(&nw->cnt, HTTP_404, r->count[i]);
		else if (unlikely(nw->tcp->oc != NULL) && m != DP_REQ_BAD) /* the object's requests */
			nw->tcp->oc->c[DP_REQ_OBJ(r->kind[i])][DP_OC_REQ] += r->count[i];
	}
	if (nw->keepalive && r->total > 0 && dp_http_wants_close(data, dlen))
		sk->flags |= SKF_CLOSE;
}

const struct tcp_app http_client_app = {
	.rcv = http_client_rcv,
	.fin = http_client_fin,
	.unfinished = http_unfinished,
	.asked = DP_C_HTTP_GET, /* app_bind: DP_C_HTTP_POST with http_method POST */
};

/* No .unfinished: a server socket's count is of requests waiting
 * (pend_n, in the client's inflight's place), none of them a response. */
const struct tcp_app http_server_app = {
	.requests = http_server_requests,
	.answered = DP_C_HTTP_2XX,
	.plain_kind = DP_REQ_GET,
};
