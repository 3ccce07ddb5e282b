/* SPDX-License-Identifier: BSD-3-Clause
 * A TLS connection's records as a source of the TCP sender (tls_src.h).
 */
#include "net/pkt.h"
#include "tls/tls_src.h"

static void
src_seg(const struct snd_src *src, uint32_t k, uint32_t mss, struct msg *out)
{
	struct tls_conn *c = (struct tls_conn *)src->ctx; /* (tls_src's, not const) */
	uint32_t off = k * mss, len = src->len - off < mss ? src->len - off : mss;

	tls_fill(c, off + len); /* a planned record's bytes written now, hot for the copy */

	out->data = c->out + off;
	out->len = len;
	out->sum = 0;
	out->sum_on_copy = 1; /* summed as tcp_out copies it into the packet (issue 38) */
	out->seg_sum = NULL;
	out->seg_stored = 0;
}

void
tls_src(struct snd_src *src, struct tls_conn *c)
{
	src->len = c->out_len;
	src->seg = src_seg;
	src->ctx = c;
}
