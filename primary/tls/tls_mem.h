/* SPDX-License-Identifier: BSD-3-Clause
 * OpenSSL's heap, counted: the bytes a TLS connection holds (its SSL
 * object, session, buffers, our ciphertext buffer) are the live bytes of
 * the thread that made it, measured rather than guessed.
 */
#ifndef DPERF_TLS_MEM_H
#define DPERF_TLS_MEM_H

#include <stdint.h>

/* Routes OpenSSL's allocations through the counter. Must come before
 * anything else of OpenSSL allocates (first thing in main, or a test):
 * returns -1 when it came too late (nothing is counted then). */
int tls_mem_init(void);

/* Counting ends for good: the primary calls it once every worker's
 * connection is measured, before the workers start, so that none of the
 * hundreds of allocations a handshake makes pays malloc_usable_size
 * (about 2% of a client core's full handshakes in a perf profile). The
 * allocations still go through tls_mem_init's functions (OpenSSL cannot
 * take them back), uncounted; tls_mem_live keeps its last figure. */
void tls_mem_stop(void);

/* Whether tls_mem_init came in time and tls_mem_stop was not called:
 * tls_mem_live counts everything. */
int tls_mem_counted(void);

/* Bytes OpenSSL (and tls_conn's buffer) holds, allocated minus freed by
 * the calling thread: malloc_usable_size, what the heap really gave. */
int64_t tls_mem_live(void);

#endif
