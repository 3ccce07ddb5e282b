/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdio.h>
#include <string.h>

#include "app/app.h"
#include "http/messages.h"
#include "net/pkt.h"
#include "boot/worker_msgs.h"

/* sums: room for a sum per mss-sized segment, used when len > mss.
 * stored: the bytes of it in buf; a longer message is sent by the
 * content rule of http/messages.h. */
static void
make_msg(struct msg *m, uint32_t len, const uint8_t *buf, uint32_t mss, uint32_t *sums, size_t stored)
{
	uint32_t have = len, s, last;

	m->seg_stored = 0;
	if (len > stored) {
		m->seg_stored = DP_RSP_STORED / mss;
		have = m->seg_stored * mss;
	}
	m->data = buf;
	m->len = len;
	m->sum = pkt_sum(buf, have);
	m->seg_sum = NULL;
	if (len <= mss || sums == NULL)
		return;
	for (uint32_t k = 0; k * mss < have; k++)
		sums[k] = pkt_sum(buf + k * mss, have - k * mss < mss ? have - k * mss : mss);
	m->seg_sum = sums;
	if (m->seg_stored && len % mss) { /* the cut last segment's own sum */
		s = m->seg_stored;
		last = (len - 1) / mss;
		sums[s] = pkt_sum(buf + (size_t)(s / 2 + (last - s) % (s - s / 2)) * mss, len % mss);
	}
}

/* The kinds' requests (a client's kind lines), each one segment; without
 * kind lines kreq[0] is the request itself, copied. */
static int
worker_kind_msgs(struct netw *net, const struct dp_config *cfg, const struct dp_ip *srv,
		 uint8_t *buf, const struct msg_layout *l, char *err, size_t errlen)
{
	struct msg *km = (struct msg *)(void *)(buf + l->kmsg);
	char why[DP_ERR_LEN];

	net->msg.kreq = km;
	if (cfg->n_kinds == 0) {
		km[0] = net->msg.req;
		return 0;
	}
	for (uint32_t k = 0; k < cfg->n_kinds; k++) {
		/* Host: the kind's own server (its pool's address q), as the
		 * others name the server line's */
		struct dp_ip ks = cfg->kinds[k].has_srv ? dp_range_addr(&cfg->kinds[k].srv,
									net->txq.queue) : *srv;
		uint32_t len = msg_compose_kind(cfg, &ks, k, buf, why, sizeof(why));

		if (len == 0) {
			snprintf(err, errlen, "kind: %s", why);
			return -1;
		}
		make_msg(&km[k], len, buf + l->kinds + (size_t)k * DP_MSG_MAX, cfg->mss, NULL,
			 DP_MSG_MAX);
	}
	return 0;
}

/* A server's objects: each one's answers (with their sums), the 404s,
 * and the paths the request scanner reads; nothing without object lines
 * (msgs.paths NULL: every path gets the one answer). */
static int
worker_obj_msgs(struct netw *net, const struct dp_config *cfg, uint8_t *buf,
		const struct msg_layout *l, char *err, size_t errlen)
{
	struct msg *om = (struct msg *)(void *)(buf + l->omsg);
	struct dp_obj_paths *op = (struct dp_obj_paths *)(void *)(buf + l->paths);
	uint32_t n = cfg->n_objects, mss = cfg->mss;
	char why[DP_ERR_LEN];

	net->msg.n_obj = 0;
	net->msg.obj = NULL;
	net->msg.paths = NULL;
	net->msg.obj_big = 0;
	if (n == 0 || cfg->mode != DP_MODE_SERVER)
		return 0;
	op->n = n;
	for (uint32_t j = 0; j < n; j++) {
		uint8_t *ka = buf + l->obj_off[j];
		uint32_t *sums = (uint32_t *)(void *)(buf + l->obj_sums[j]);
		uint32_t half = (uint32_t)(l->obj_cap[j] / 536 + 2), lens[4];

		if (msg_compose_object(cfg, j, buf, lens, why, sizeof(why)) != 0) {
			snprintf(err, errlen, "object: %s", why);
			return -1;
		}
		make_msg(&om[4 * j], lens[0], ka, mss, sums, l->obj_cap[j]);
		make_msg(&om[4 * j + 1], lens[1], ka + l->obj_cap[j], mss, sums + half, l->obj_cap[j]);
		make_msg(&om[4 * j + 2], lens[2], ka, mss, NULL, l->obj_cap[j]);
		make_msg(&om[4 * j + 3], lens[3], ka + l->obj_cap[j], mss, NULL, l->obj_cap[j]);
		net->msg.obj_big |= om[4 * j].seg_sum != NULL || om[4 * j + 1].seg_sum != NULL;
		op->len[j] = (uint8_t)strlen(cfg->objects[j].path);
		op->path[j] = cfg->objects[j].path;
	}
	make_msg(&om[4 * n], MSG_NOT_FOUND_KA_LEN, (const uint8_t *)msg_not_found_ka, mss, NULL,
		 MSG_NOT_FOUND_KA_LEN);
	make_msg(&om[4 * n + 1], MSG_NOT_FOUND_CLOSE_LEN, (const uint8_t *)msg_not_found_close, mss,
		 NULL, MSG_NOT_FOUND_CLOSE_LEN);
	net->msg.n_obj = n;
	net->msg.obj = om;
	net->msg.paths = op;
	return 0;
}

int
worker_msgs(struct worker *wk, const struct dp_config *cfg, const struct dp_ip *srv, uint8_t *buf,
	    char *err, size_t errlen)
{
	struct msg_lens ml;
	struct msg_layout l;
	const char *kw;
	char why[DP_ERR_LEN];
	uint32_t mss = cfg->mss, *sums, half;
	struct netw *net = &wk->net;

	if (msg_compose(cfg, srv, buf, &ml, &kw, why, sizeof(why)) != 0) {
		snprintf(err, errlen, "%s: %s", kw, why);
		return -1;
	}
	msg_layout(cfg, &l);
	sums = (uint32_t *)(void *)(buf + l.sums);
	half = (uint32_t)(l.rsp_cap / 536 + 2);
	net->is_http = ml.is_http;
	/* The connections' application, bound once: TCP calls it through
	 * this table (tcp/tcp_app.h), never branching on HTTP per segment. */
	app_bind(&wk->tcp.app, cfg, net->is_client, ml.is_http);
	memset(&net->msg.rsp_head, 0, sizeof(net->msg.rsp_head));
	/* a POST body over several segments (messages.c: big_post) */
	make_msg(&net->msg.req, ml.req, buf, mss, net->is_client ? sums + 2 * half : NULL, l.req_cap);
	make_msg(&net->msg.rsp_ka, ml.rsp_ka, buf + l.ka, mss, sums, l.rsp_cap);
	make_msg(&net->msg.rsp_close, ml.rsp_close, ml.is_http ? buf + l.close : buf + l.ka, mss, sums + half, l.rsp_cap);
	/* A HEAD's answer: the head of a GET's, the same bytes. */
	make_msg(&net->msg.rsp_head_ka, ml.head_ka, buf + l.ka, mss, NULL, l.rsp_cap);
	make_msg(&net->msg.rsp_head_close, ml.head_close, buf + l.close, mss, NULL, l.rsp_cap);
	make_msg(&net->msg.rsp_bad, MSG_BAD_REQUEST_LEN, (const uint8_t *)msg_bad_request, mss, NULL, MSG_BAD_REQUEST_LEN);
	if (!ml.is_http)
		net->msg.req_size = net->msg.rsp_size = cfg->payload_size;
	if (worker_kind_msgs(net, cfg, srv, buf, &l, err, errlen) != 0)
		return -1;
	return worker_obj_msgs(net, cfg, buf, &l, err, errlen);
}
