/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdio.h>

#include "http/messages.h"
#include "net/pkt.h"
#include "boot/worker_msgs.h"

/* sums: room for a sum per mss-sized segment, used when len > mss. */
static void
make_msg(struct msg *m, uint32_t len, const uint8_t *buf, uint32_t mss, uint32_t *sums)
{
	m->data = buf;
	m->len = len;
	m->sum = pkt_sum(buf, len);
	m->seg_sum = NULL;
	if (len <= mss || sums == NULL)
		return;
	for (uint32_t k = 0; k * mss < len; k++)
		sums[k] = pkt_sum(buf + k * mss, len - k * mss < mss ? len - k * mss : mss);
	m->seg_sum = sums;
}

int
worker_msgs(struct worker *w, const struct dp_config *cfg, const struct dp_ip *srv, uint8_t *buf,
	    char *err, size_t errlen)
{
	struct msg_lens ml;
	struct msg_layout l;
	const char *kw;
	char why[DP_ERR_LEN];
	uint32_t mss = cfg->mss, *sums, half;

	if (msg_compose(cfg, srv, buf, &ml, &kw, why, sizeof(why)) != 0) {
		snprintf(err, errlen, "%s: %s", kw, why);
		return -1;
	}
	msg_layout(cfg, &l);
	sums = (uint32_t *)(void *)(buf + l.sums);
	half = (uint32_t)(l.rsp_cap / 536 + 1);
	w->is_http = ml.is_http;
	make_msg(&w->req, ml.req, buf, mss, NULL);
	make_msg(&w->rsp_ka, ml.rsp_ka, buf + l.ka, mss, sums);
	make_msg(&w->rsp_close, ml.rsp_close, ml.is_http ? buf + l.close : buf + l.ka, mss, sums + half);
	/* A HEAD's answer: the head of a GET's, the same bytes. */
	make_msg(&w->rsp_head_ka, ml.head_ka, buf + l.ka, mss, NULL);
	make_msg(&w->rsp_head_close, ml.head_close, buf + l.close, mss, NULL);
	make_msg(&w->rsp_bad, MSG_BAD_REQUEST_LEN, (const uint8_t *)msg_bad_request, mss, NULL);
	if (!ml.is_http)
		w->req_size = w->rsp_size = cfg->payload_size;
	return 0;
}
