/* SPDX-License-Identifier: BSD-3-Clause
 * libFuzzer harness: TLS records as our TCP delivers them (primary/tls/).
 * The first byte chooses the end that receives the rest and how it is cut:
 *   bit 0     0: our server receives it as a client's bytes;
 *             1: our client, its ClientHello sent, receives it as a server's
 *   bits 1-2  version: 0 and 3 both, 1 TLS 1.2 only, 2 TLS 1.3 only
 *   bits 3-7  segment size: 0 the whole input in one, else 1 << (n % 12)
 * Checked after every input: every byte given was read, the connection's
 * state and failure kind are coherent, a handshake left open fails as the
 * peer's close; memory by ASan/LSan (test_tls counts OpenSSL's heap).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <stdio.h>

#include "tls/tls_conn.h"
#include "tls/tls_ctx.h"
#include "tls/tls_mem.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CERT DP_SOURCE_DIR "/build/tls/test-cert.pem"
#define KEY  DP_SOURCE_DIR "/build/tls/test-key.pem"

/* [role][version] */
static struct tls_side sides[2][3];

static void
plain(void *arg, const uint8_t *data, uint32_t len)
{
	(void)arg;
	(void)data;
	if (len == 0 || len > TLS_PLAIN_MAX)
		abort();
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	if (tls_mem_init() != 0)
		abort();
	for (int role = 0; role < 2; role++)
		for (int v = 0; v < 3; v++) {
			struct tls_opts o = {.server = role == 0, .version = v == 0 ? 0 : 11 + v,
					     .resume = DP_TLS_RESUME_TICKETS};
			char err[256];

			if (o.server) {
				o.cert = CERT;
				o.key = KEY;
			}
			if (tls_side_init(&sides[role][v], &o, err, sizeof(err)) != 0) {
				fprintf(stderr, "fuzz_tls: %s (make build/tls/test-key.pem)\n", err);
				abort();
			}
		}
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tls_conn c;
	uint8_t mode, *p;
	uint32_t seg, len;
	int r = 0;

	if (size < 1)
		return 0;
	mode = data[0];
	len = (uint32_t)(size - 1);
	seg = (mode >> 3) ? 1u << ((mode >> 3) % 12) : (len ? len : 1);
	/* an exact-size copy: ASan catches any read past the segment */
	p = malloc(len ? len : 1);
	if (p == NULL)
		return 0;
	memcpy(p, data + 1, len);
	if (tls_open(&c, &sides[mode & 1][((mode >> 1) & 3) % 3]) != 0)
		abort();
	for (uint32_t off = 0; off < len && r >= 0; off += seg) {
		uint32_t n = len - off < seg ? len - off : seg;

		r = tls_input(&c, p + off, n, plain, NULL);
		if (c.in_len != 0 || c.in != NULL)
			abort(); /* every byte given was read */
		tls_acked(&c, c.out_len); /* as the peer acknowledges what we sent */
	}
	if (r < 0 && (c.state != TLS_FAILED || -r != c.fail || c.fail >= TLS_F__COUNT))
		abort();
	if (r >= 0 && c.state == TLS_FAILED)
		abort();
	if (c.state == TLS_HS && tls_eof(&c) != -TLS_F_EOF)
		abort();
	tls_close(&c);
	free(p);
	return 0;
}
