/* SPDX-License-Identifier: BSD-3-Clause
 * The bytes one TLS connection of a side holds, measured before the test
 * starts, so that a cc its memory cannot hold is refused with the figure.
 */
#ifndef DPERF_TLS_MEASURE_H
#define DPERF_TLS_MEASURE_H

#include <stddef.h>
#include <stdint.h>

#include "tls/tls_ctx.h"

/* One connection of side s is made in memory against a throwaway peer
 * (a client with OpenSSL's defaults for a server side; a server with a
 * fresh P-256 certificate for a client side), taken through its handshake
 * and one request and answer, and its bytes on OpenSSL's heap counted
 * while it is idle, as a keepalive connection between requests is, plus
 * struct tls_conn. Not counted: the session a client keeps to resume
 * (one per worker), and a real server's longer certificate chain, which
 * a client's connection holds parsed. Returns the bytes, or -1 with one line in err (OpenSSL
 * could not make the peer, the handshake failed with these settings, or
 * tls_mem_init came too late to count). */
int64_t tls_conn_bytes(struct tls_side *s, char *err, size_t errlen);

#endif
