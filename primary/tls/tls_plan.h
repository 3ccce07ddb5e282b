/* SPDX-License-Identifier: BSD-3-Clause
 * How a message of ours is cut into TLS records, and how long a message a
 * connection can hold: pure arithmetic, no OpenSSL (the configuration's
 * check, control/config_rules.c, applies the limit before anything starts).
 *
 * Records sized to the segments (issue 38): the TCP sender cuts a
 * connection's records into segments of mss bytes from the message's
 * first byte (tls_src.h). A message's last record (or its only one: any
 * message of at most 16 KB) is written whole: splitting it would only add
 * a record's overhead. Every record before it is the longest whose
 * ciphertext ends on a segment boundary within 16 KB of plaintext (with
 * mss 1460 and TLS 1.3's 22 bytes, 16,038 bytes filling 11 segments
 * exactly), so that no record leaves a part of a segment to the next one
 * and the records add no segment the 16 KB records would not. The first
 * record of a message over 16 KB fills only its first segment: the peer
 * reads the message's head from the first segment instead of after the
 * 11 a 16 KB record spans (more than the initial congestion window's 10).
 * (A 1460-byte answer is a 1482-byte record: two segments whatever its
 * cut, since its ciphertext is more than one.)
 */
#ifndef DPERF_TLS_PLAN_H
#define DPERF_TLS_PLAN_H

#include <stdint.h>

/* The largest plaintext record (RFC 8446 5.1): tls_ctx.h's TLS_PLAIN_MAX. */
#define TLS_RECORD_PLAIN_MAX 16384u

/* A record's bytes beyond its plaintext, at most: header 5, TLS 1.3's
 * content type 1 and tag 16, TLS 1.2 CBC's IV, MAC and padding; OpenSSL
 * allows 256 (SSL3_RT_MAX_ENCRYPTED_OVERHEAD), so do we. */
#define TLS_RECORD_OVERHEAD 261u

/* The records not yet acknowledged a connection may hold: a peer that
 * reads nothing fails the connection beyond it. */
#define TLS_OUT_MAX (1u << 22)

/* What a connection's buffer may hold beside one message's records: a
 * TLS 1.3 server's tickets written after its handshake, our close_notify. */
#define TLS_OUT_SLACK 4096u

/* The plaintext of a message's next record: left bytes of it still to
 * write, the record's first byte at offset at (0 .. mss - 1) of its
 * segment, ovh the bytes a record adds with the connection's cipher,
 * first when it is the message's first record. A record aligned so would
 * be under half of 16 KB (a jumbo mss): 16 KB, unaligned. */
static inline uint32_t
tls_record_plain(uint32_t left, uint32_t at, uint32_t mss, uint32_t ovh, int first)
{
	uint32_t end;

	if (left <= TLS_RECORD_PLAIN_MAX)
		return left;
	if (first && mss - at >= ovh + 512)
		return mss - at - ovh; /* the rest of its segment */
	end = (at + TLS_RECORD_PLAIN_MAX + ovh) / mss * mss; /* the last boundary a full record reaches */
	if (end < at + ovh + TLS_RECORD_PLAIN_MAX / 2)
		return TLS_RECORD_PLAIN_MAX;
	return end - at - ovh;
}

/* The bytes a connection holds for a message of len bytes, at most: its
 * records (but the first and the last, each at least 8 KB of plaintext;
 * each at most TLS_RECORD_OVERHEAD more) and TLS_OUT_SLACK. */
static inline uint64_t
tls_msg_hold_max(uint64_t len)
{
	return len + (2 + len / (TLS_RECORD_PLAIN_MAX / 2)) * TLS_RECORD_OVERHEAD + TLS_OUT_SLACK;
}

/* The longest message a connection can hold whole until it is acknowledged
 * (tls_msg_hold_max within TLS_OUT_MAX): about 4.06 MB. */
static inline uint32_t
tls_msg_max(void)
{
	uint64_t len = (uint64_t)(TLS_OUT_MAX - TLS_OUT_SLACK - 2 * TLS_RECORD_OVERHEAD) * (TLS_RECORD_PLAIN_MAX / 2) /
		       (TLS_RECORD_PLAIN_MAX / 2 + TLS_RECORD_OVERHEAD);

	while (tls_msg_hold_max(len + 1) <= TLS_OUT_MAX)
		len++;
	while (tls_msg_hold_max(len) > TLS_OUT_MAX)
		len--;
	return (uint32_t)len;
}

#endif
