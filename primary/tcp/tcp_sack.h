/* SPDX-License-Identifier: BSD-3-Clause
 * Selective acknowledgments: the options (RFC 2018), read from hostile
 * segments and written from the out-of-order queue (tcp_ooo.h), and the
 * sender's scoreboard (RFC 6675): which bytes the peer holds above the
 * cumulative ACK, which holes are lost, how much is in the network, and
 * which segment goes next.
 *
 * The scoreboard is a few ranges, not a bit per segment: the peer reports
 * at most four blocks per ACK and its queue holds a window's worth, so the
 * holes of one window are few. It lives beside the sender's other state
 * (tcp_send.h's struct sk_snd, allocated only for senders of messages over
 * several segments), never in the 64-byte socket. When more ranges arrive
 * than it keeps, the highest go: what they covered is then taken as not
 * SACKed, which may cost a needless retransmission but never a lost byte.
 *
 * Segments are the sender's: whole segments of mss bytes from the
 * message's first byte (base), the last one shorter; every question is
 * asked of those boundaries, as the peer's blocks fall on them.
 */
#ifndef DPERF_TCP_SACK_H
#define DPERF_TCP_SACK_H

#include <stdint.h>

#include "tcp/tcp_seq.h"

#define TCPOPT_SACK_OK  4 /* SACK-permitted, in a SYN (RFC 2018 2) */
#define TCPOPT_SACK     5
#define SACK_MAX_BLOCKS 4 /* 2 + 4 x 8 = 34 of the 40 bytes of options */
#define SACK_DUPTHRESH  3 /* RFC 6675 2: DupThresh */

/* What a segment's options say about SACK. */
struct sack_opts {
	uint8_t ok;  /* SACK-permitted present */
	uint8_t n;   /* blocks in b (0..SACK_MAX_BLOCKS) */
	uint8_t bad; /* an option with an impossible length: the walk stopped there */
	struct sack_block b[SACK_MAX_BLOCKS];
};

/* Read the options (len bytes from opt, the TCP header's after its first
 * 20). Never reads past opt + len, whatever the lengths inside say. */
void sack_parse(const uint8_t *opt, uint32_t len, struct sack_opts *out);

/* The most blocks an ACK carries beside the other options we send: 3
 * with timestamps (10 bytes and 2 of padding), else 4. */
static inline uint32_t
sack_max_blocks(int timestamps)
{
	return timestamps ? 3 : SACK_MAX_BLOCKS;
}

/* Bytes the option takes for n blocks (0 for none), padding included:
 * two no-operations, then kind, length and the blocks, on a word. */
static inline uint32_t
sack_opt_len(uint32_t n)
{
	return n ? 4 + 8 * n : 0;
}

/* Write the option for blocks b[0..n) at o (sack_opt_len(n) bytes). */
void sack_opt_write(uint8_t *o, const struct sack_block *b, uint32_t n);

/* RFC 2883: the first block reports data received twice (a duplicate
 * SACK): below the cumulative ACK, or inside the second block. */
int sack_is_dsack(const struct sack_opts *o, uint32_t ack);

#define SB_RANGES 6

/* The sender's scoreboard. */
struct sack_board {
	struct sack_block r[SB_RANGES]; /* SACKed, above the cumulative ACK: sorted, apart */
	uint32_t high_rxt; /* RFC 6675 HighRxt: the end of the last retransmission in this recovery */
	uint32_t rxt_fence; /* the highest byte sent when the last retransmission went (tcp_send.c) */
	uint8_t n;
	uint8_t rxt_acked; /* a retransmission of this recovery acknowledged (tcp_send.c) */
};

/* The message's segments: k covers [base + k x mss, base + min((k + 1) x mss, len)). */
struct sb_msg {
	uint32_t base, mss, len;
};

/* A new message, or a new recovery: nothing SACKed, nothing resent. */
void sb_reset(struct sack_board *sb, uint32_t una);

/* An ACK of una, with blocks b[0..n) (read from hostile segments: those
 * not within (una, snd_nxt] are ignored). Returns the bytes newly SACKed. */
uint32_t sb_update(struct sack_board *sb, uint32_t una, uint32_t snd_nxt, const struct sack_block *b,
		   uint32_t n);

/* Whether all of [start, end) is SACKed. */
int sb_sacked(const struct sack_board *sb, uint32_t start, uint32_t end);

/* RFC 6675 4 IsLost(seq): DupThresh discontiguous SACKed ranges above it,
 * or more than (DupThresh - 1) x mss bytes SACKed above it. */
int sb_is_lost(const struct sack_board *sb, uint32_t seq, uint32_t mss);

/* RFC 6675 4 SetPipe: bytes in the network from una to high (the highest
 * byte sent): a segment not SACKed counts when it is not lost, and again
 * when it was retransmitted. */
uint32_t sb_pipe(const struct sack_board *sb, const struct sb_msg *m, uint32_t una, uint32_t high);

/* RFC 6675 4 NextSeg rule 1: the first segment at or above una, not
 * SACKed, not yet resent (at or above high_rxt), below the highest SACKed
 * byte and lost. Rule 3 (lost): 0, the same without IsLost: a segment to
 * resend when no new data may go. Returns 1 with its first byte in *seq. */
int sb_next_seg(const struct sack_board *sb, const struct sb_msg *m, uint32_t una, int lost,
		uint32_t *seq);

/* A segment ending at end was resent. */
static inline void
sb_resent(struct sack_board *sb, uint32_t end)
{
	if (seq_gt(end, sb->high_rxt))
		sb->high_rxt = end;
}

/* The highest SACKed byte + 1, or una when none. */
static inline uint32_t
sb_high_sacked(const struct sack_board *sb, uint32_t una)
{
	return sb->n ? sb->r[sb->n - 1].end : una;
}

#endif
