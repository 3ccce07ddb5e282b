/* SPDX-License-Identifier: BSD-3-Clause
 * A TLS connection's records as a source of the TCP sender (tcp_send.h):
 * segment k is c->out's bytes from k x mss (the records planned up to
 * its end written first: tls_fill), summed as the packet writer
 * copies them (sum_on_copy: the bytes are this connection's own, so no
 * sum is precomputed, and the copy and the sum are one pass).
 */
#ifndef DPERF_TLS_SRC_H
#define DPERF_TLS_SRC_H

#include "tcp/tcp_send.h"
#include "tls/tls_conn.h"

/* The message is c->out as it is now: from the first byte not yet
 * acknowledged (the sender's snd_una) to the last written. */
void tls_src(struct snd_src *src, struct tls_conn *c);

/* The role's sending step (tcp_input.h) over TLS, client and server
 * alike: while a message is in progress its bytes are c's records, and
 * our FIN follows its last byte when fin_after says so. */
static inline int
tls_sending(const struct netw *nw, const struct sock *sk, struct tls_conn *c,
	    struct snd_src *src, int *fin, int fin_after)
{
	if (!snd_active(nw, sk))
		return 0;
	tls_src(src, c);
	*fin = fin_after;
	return 1;
}

#endif
