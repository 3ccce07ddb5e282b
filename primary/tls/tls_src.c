/* SPDX-License-Identifier: BSD-3-Clause
 * A TLS connection's records as a source of the TCP sender (tls_src.h).
 */
#include "net/pkt.h"
#include "tls/tls_src.h"

static void
src_seg(const struct snd_src *src, uint32_t k, uint32_t mss, struct msg *out)
{
	const struct tls_conn *c = src->ctx;
	uint32_t off = k * mss, len = src->len - off < mss ? src->len - off : mss;

	out->data = c->out + off;
	out->len = len;
	out->sum = 0;
	out->sum_on_copy = 1; /* summed as tcp_out copies it into the packet (issue 38) */
	out->seg_sum = NULL;
	out->seg_stored = 0;
}

void
tls_src(struct snd_src *src, const struct tls_conn *c)
{
	src->len = c->out_len;
	src->seg = src_seg;
	src->ctx = c;
}
