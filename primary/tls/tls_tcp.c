/* SPDX-License-Identifier: BSD-3-Clause
 * TLS carried by our TCP: the worker's part and the steps both roles
 * share (tls_tcp.h).
 */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "meminfo.h"
#include "net/lat.h"

#include "tcp/tcp_common.h"
#include "tcp/tcp_send.h"
#include "tls/tls_measure.h"
#include "tls/tls_src.h"
#include "tls/tls_tcp.h"

/* enum tls_fail and the counters of its kinds are in the same order. */
_Static_assert(DP_C_TLS_F_PROTO - DP_C_TLS_F_ALERT == TLS_F_PROTO - TLS_F_ALERT &&
		       DP_C_TLS_F_INTERNAL - DP_C_TLS_F_ALERT == TLS_F_INTERNAL - TLS_F_ALERT &&
		       TLS_F__COUNT == TLS_F_INTERNAL + 1,
	       "tlsFail* counters follow enum tls_fail");


static void
part_closed(struct netw *nw, struct sock *sk)
{
	struct tls_conn *c = tls_conn_of(nw, sk);

	if (c->state == TLS_IDLE)
		return; /* no SSL: never started (a plain connection of a mix, a SYN unanswered) */
	if (c->state == TLS_PLAIN) {
		c->state = TLS_IDLE;
		return;
	}
	if (c->state == TLS_HS) { /* a path that did not say why: the peer's close */
		tls_eof(c);
		tls_failed(nw, c, TLS_HS);
	}
	tls_close(c);
}

int
tls_part_init(struct tls_part *p, struct netw *nw, char *err, size_t errlen)
{
	struct tls_opts o;
	size_t bytes = nw->skt.n_sk * sizeof(struct tls_conn);
	void *m;

	memset(p, 0, sizeof(*p));
	tls_opts_of(nw->cfg, &o);
	if (tls_side_init(&p->side, &o, err, errlen) != 0)
		return -1;
	p->conn_bytes = tls_conn_bytes(&p->side, err, errlen);
	if (p->conn_bytes < 0)
		goto bad;
	if (tls_cc_check(nw->cfg, p->conn_bytes, mem_available_mb(), err, errlen) != 0)
		goto bad;
	m = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (m == MAP_FAILED) {
		snprintf(err, errlen, "cannot map %zu MB for the TLS state of %lu sockets", bytes >> 20,
			 (unsigned long)nw->skt.n_sk);
		goto bad;
	}
	p->conn = m;
	p->n_conn = nw->skt.n_sk;
	nw->tls = p;
	/* the worker's segments and timers, bound once over the role's */
	p->under_input = nw->seg_in;
	nw->seg_in = nw->is_client ? tls_client_input : tls_server_input;
	p->under_timer = nw->tcp->timer;
	nw->tcp->timer = nw->is_client ? tls_client_timer : tls_server_timer;
	nw->tcp->over_closed = part_closed;
	p->on_plain = nw->is_client ? NULL : tls_server_plain(nw);
	/* a mix of http and https: which connections are plain */
	for (uint32_t k = 0; k < nw->cfg->n_kinds; k++)
		if (nw->cfg->kinds[k].has_proto && nw->cfg->kinds[k].proto == DP_PROTO_HTTP)
			p->plain_kinds |= 1u << k;
	p->sniff = !nw->is_client && nw->cfg->plain_http;
	return 0;
bad:
	tls_side_free(&p->side);
	return -1;
}

void
tls_part_fini(struct tls_part *p, struct netw *nw)
{
	if (p->conn != NULL) {
		for (uint64_t i = 0; i < p->n_opened; i++)
			if (p->conn[i].ssl != NULL)
				tls_close(&p->conn[i]);
		munmap(p->conn, p->n_conn * sizeof(struct tls_conn));
	}
	tls_side_free(&p->side);
	if (nw->tls == p) {
		nw->tls = NULL;
		nw->seg_in = p->under_input;
		nw->tcp->timer = p->under_timer;
		nw->tcp->over_closed = NULL;
	}
	memset(p, 0, sizeof(*p));
}

int
tls_cc_check(const struct dp_config *cfg, int64_t bytes, uint64_t avail_mb, char *err, size_t errlen)
{
	uint64_t need_mb = ((uint64_t)cfg->cc * (uint64_t)bytes + (1u << 20) - 1) >> 20;

	if (cfg->mode != DP_MODE_CLIENT || cfg->cc == 0 || need_mb <= avail_mb)
		return 0;
	snprintf(err, errlen, "cc %llu: TLS connections of %lld bytes each (measured) need %llu MB, "
		 "%llu MB available (expected cc at most %llu)", (unsigned long long)cfg->cc, (long long)bytes,
		 (unsigned long long)need_mb, (unsigned long long)avail_mb,
		 (unsigned long long)(((uint64_t)avail_mb << 20) / (uint64_t)bytes));
	return -1;
}

void
tls_hs_done(struct netw *nw, const struct sock *sk, const struct tls_conn *c)
{
	/* the handshake time: SYN sent or received to Finished (sk->t_start
	 * holds the SYN's TSC until a client's first request: net/lat.h) */
	lat_tls_handshake(nw, sk->kind, (nw->now - sk->t_start) * 1000 / nw->tsc_per_ms);
	CNT(&nw->cnt, TLS_HS_DONE);
	if (c->resumed)
		CNT(&nw->cnt, TLS_RESUMED);
}

void
tls_failed(struct netw *nw, const struct tls_conn *c, uint8_t was)
{
	if (c->state != TLS_FAILED)
		return;
	if (was == TLS_HS)
		nw->cnt.c[DP_C_TLS_F_ALERT + (c->fail - TLS_F_ALERT)]++;
	else if (was == TLS_UP || was == TLS_SHUT)
		CNT(&nw->cnt, TLS_ERR);
}

void
tls_unfinished(struct netw *nw, const struct sock *sk)
{
	struct tls_conn *c = tls_conn_of(nw, sk);

	if (c->state != TLS_HS)
		return;
	if (sk->retries > DP_MAX_RETRIES)
		tls_timeout(c);
	else
		tls_eof(c);
	tls_failed(nw, c, TLS_HS);
}

void
tls_settle(const struct netw *nw, const struct sock *sk, struct tls_conn *c)
{
	if (c->out_len != 0 && !snd_active(nw, sk))
		tls_acked(c, c->out_len);
}

void
tls_send(struct netw *nw, struct sock *sk, uint32_t idx, const struct tuple *t, struct tls_conn *c,
	 int close)
{
	int fin = close && sk->state == SK_ESTABLISHED;
	struct snd_src src;

	tls_src(&src, c);
	if (snd_active(nw, sk)) {
		/* more of the message in progress (its FIN, if asked, goes
		 * with its last byte, or alone once it is all acknowledged) */
		if (src.len == sk->snd_nxt - sk_snd_of(nw, sk)->base)
			return;
		snd_output(nw, sk, t, &src, fin);
	} else if (c->out_len != 0) {
		snd_begin(nw, sk, t, &src, fin);
	} else if (fin) {
		sk_ctl(nw, t, sk, TH_FIN | TH_ACK);
		sk_fin_sent(sk);
	} else {
		return;
	}
	sk->retries = 0;
	snd_arm_rt(nw, sk, idx);
}

int
tls_write_msg(const struct netw *nw, struct tls_conn *c, const struct msg *m)
{
	uint32_t ovh;
	struct msg seg;

	/* One record: a message of at most 16 KB (stored whole: the stored
	 * prefix is 64 MiB), the common case */
	if (m->len <= TLS_RECORD_PLAIN_MAX)
		return tls_write(c, m->data, m->len);
	if (__builtin_expect(m->seg_stored != 0, 0)) {
		/* longer than what is stored of it: not over TLS (config_rules.c
		 * refuses a message beyond tls_msg_max, far below the 64 MiB
		 * stored), kept for completeness: a record per segment */
		for (uint32_t k = 0; (uint64_t)k * nw->mss < m->len; k++) {
			int r;

			msg_segment(m, nw->mss, k, &seg);
			r = tls_write(c, seg.data, seg.len);
			if (r < 0)
				return r;
		}
		return 0;
	}
	/* Records sized to the segments (tls_plan.h): the sender cuts c->out
	 * at multiples of mss from its first byte */
	ovh = tls_record_overhead(c);
	/* its records' room at once (at most two records under 8 KB: tls_plan.h) */
	(void)tls_out_reserve(c, m->len + (2 + m->len / (TLS_RECORD_PLAIN_MAX / 2)) * ovh);
	if (ovh != TLS_RECORD_OVERHEAD) {
		/* an AEAD: the first record now (with whatever OpenSSL had
		 * waiting to write), the others planned, each written as the
		 * sender reaches it (tls_write_later): the message (a template
		 * of the worker's) stays put while it is sent */
		uint32_t first = tls_record_plain(m->len, c->out_len % nw->mss, nw->mss, ovh, 1), end;
		int r = tls_write(c, m->data, first);

		if (r < 0)
			return r;
		end = c->out_len;
		for (uint32_t off = first, n; off < m->len; off += n) {
			n = tls_record_plain(m->len - off, end % nw->mss, nw->mss, ovh, 0);
			end += n + ovh;
		}
		nw->tls->side.mss = nw->mss;
		return tls_write_later(c, m->data + first, m->len - first, end);
	}
	for (uint32_t off = 0; off < m->len;) {
		uint32_t n = tls_record_plain(m->len - off, c->out_len % nw->mss, nw->mss, ovh, off == 0);
		int r = tls_write(c, m->data + off, n);

		if (r < 0)
			return r;
		off += n;
	}
	return 0;
}

void
tls_close_after(struct sock *sk, struct tls_conn *c)
{
	if (c->ssl != NULL && !(SSL_get_shutdown(c->ssl) & SSL_SENT_SHUTDOWN))
		tls_shutdown(c);
	sk->flags |= SKF_CLOSE;
}
