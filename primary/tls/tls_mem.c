/* SPDX-License-Identifier: BSD-3-Clause
 * OpenSSL's heap, counted (tls_mem.h).
 *
 * Why per thread: every worker allocates and frees its connections on its
 * own core, so a thread's count is exact for what it made, and counting
 * costs a plain add (no shared cache line bouncing between workers on each
 * of the dozens of allocations a handshake makes). A block freed by
 * another thread (an SSL_CTX made at setup, freed at exit) moves bytes
 * between two threads' counts; no figure is read across threads.
 */
#include <malloc.h>
#include <stdlib.h>

#include <openssl/crypto.h>

#include "tls/tls_mem.h"

static __thread int64_t live;
/* Set once at the start, cleared by tls_mem_stop before any worker
 * starts: read by every allocation, written by no worker. */
static int counted;

static void *
mem_malloc(size_t n, const char *file, int line)
{
	void *p = malloc(n);

	(void)file;
	(void)line;
	if (p != NULL && counted)
		live += (int64_t)malloc_usable_size(p);
	return p;
}

static void *
mem_realloc(void *p, size_t n, const char *file, int line)
{
	size_t was = p != NULL && counted ? malloc_usable_size(p) : 0;
	void *q = realloc(p, n);

	(void)file;
	(void)line;
	if (!counted)
		return q;
	if (q != NULL)
		live += (int64_t)malloc_usable_size(q) - (int64_t)was;
	else if (n == 0)
		live -= (int64_t)was; /* realloc(p, 0) freed p */
	return q;
}

static void
mem_free(void *p, const char *file, int line)
{
	(void)file;
	(void)line;
	if (p != NULL && counted)
		live -= (int64_t)malloc_usable_size(p);
	free(p);
}

int
tls_mem_init(void)
{
	counted = CRYPTO_set_mem_functions(mem_malloc, mem_realloc, mem_free);
	return counted ? 0 : -1;
}

void
tls_mem_stop(void)
{
	counted = 0;
}

int
tls_mem_counted(void)
{
	return counted;
}

int64_t
tls_mem_live(void)
{
	return live;
}
