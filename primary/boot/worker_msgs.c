/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdio.h>

#include "http/messages.h"
#include "net/pkt.h"
#include "boot/worker_msgs.h"

static void
make_msg(struct msg *m, uint32_t len, const uint8_t *buf)
{
	m->data = buf;
	m->len = len;
	m->sum = pkt_sum(buf, len);
}

int
worker_msgs(struct worker *w, const struct dp_config *cfg, const struct dp_ip *srv, uint8_t *buf,
	    char *err, size_t errlen)
{
	struct msg_lens ml;
	const char *kw;
	char why[DP_ERR_LEN];

	if (msg_compose(cfg, srv, buf, &ml, &kw, why, sizeof(why)) != 0) {
		snprintf(err, errlen, "%s: %s", kw, why);
		return -1;
	}
	w->is_http = ml.is_http;
	make_msg(&w->req, ml.req, buf);
	make_msg(&w->rsp_ka, ml.rsp_ka, buf + DP_MSG_MAX);
	make_msg(&w->rsp_close, ml.rsp_close, ml.is_http ? buf + 2 * DP_MSG_MAX : buf + DP_MSG_MAX);
	/* A HEAD's answer: the head of a GET's, the same bytes. */
	make_msg(&w->rsp_head_ka, ml.head_ka, buf + DP_MSG_MAX);
	make_msg(&w->rsp_head_close, ml.head_close, buf + 2 * DP_MSG_MAX);
	make_msg(&w->rsp_bad, MSG_BAD_REQUEST_LEN, (const uint8_t *)msg_bad_request);
	if (!ml.is_http)
		w->req_size = w->rsp_size = cfg->payload_size;
	return 0;
}
