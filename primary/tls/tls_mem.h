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

/* Whether tls_mem_init came in time: tls_mem_live counts everything. */
int tls_mem_counted(void);

/* Bytes OpenSSL (and tls_conn's buffer) holds, allocated minus freed by
 * the calling thread: malloc_usable_size, what the heap really gave. */
int64_t tls_mem_live(void);

#endif
