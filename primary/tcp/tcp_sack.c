/* SPDX-License-Identifier: BSD-3-Clause
 * SACK options and the sender's scoreboard (tcp_sack.h).
 */
#include "tcp/tcp_sack.h"

static inline uint32_t
get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static inline void
put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

void
sack_parse(const uint8_t *opt, uint32_t len, struct sack_opts *out)
{
	const uint8_t *o = opt, *end = opt + len;

	out->ok = out->n = out->bad = 0;
	while (o < end) {
		uint32_t l;

		if (o[0] == 0) /* end of options */
			break;
		if (o[0] == 1) { /* no-operation */
			o++;
			continue;
		}
		if (end - o < 2 || o[1] < 2 || o[1] > end - o) {
			out->bad = 1;
			break;
		}
		l = o[1];
		if (o[0] == TCPOPT_SACK_OK) {
			if (l == 2)
				out->ok = 1;
			else
				out->bad = 1;
		} else if (o[0] == TCPOPT_SACK) {
			/* 2 + 8n bytes, 1 <= n <= 4; the first such option only */
			if (l < 10 || (l - 2) % 8 != 0 || (l - 2) / 8 > SACK_MAX_BLOCKS)
				out->bad = 1;
			else if (out->n == 0) {
				out->n = (uint8_t)((l - 2) / 8);
				for (uint32_t i = 0; i < out->n; i++) {
					out->b[i].start = get32(o + 2 + 8 * i);
					out->b[i].end = get32(o + 6 + 8 * i);
				}
			}
		}
		o += l;
	}
}

void
sack_opt_write(uint8_t *o, const struct sack_block *b, uint32_t n)
{
	if (n == 0)
		return;
	o[0] = o[1] = 1; /* no-operations: the blocks start on a word */
	o[2] = TCPOPT_SACK;
	o[3] = (uint8_t)(2 + 8 * n);
	for (uint32_t i = 0; i < n; i++) {
		put32(o + 4 + 8 * i, b[i].start);
		put32(o + 8 + 8 * i, b[i].end);
	}
}

int
sack_is_dsack(const struct sack_opts *o, uint32_t ack)
{
	if (o->n == 0)
		return 0;
	if (seq_lt(o->b[0].start, ack))
		return 1;
	return o->n > 1 && seq_ge(o->b[0].start, o->b[1].start) && seq_le(o->b[0].end, o->b[1].end);
}

void
sb_reset(struct sack_board *sb, uint32_t una)
{
	sb->n = 0;
	sb->rxt_acked = 0;
	sb->high_rxt = una;
	sb->rxt_fence = una;
}

/* Bytes of [s, e) already in the board. */
static uint32_t
overlap(const struct sack_board *sb, uint32_t s, uint32_t e)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < sb->n; i++) {
		uint32_t a = seq_gt(sb->r[i].start, s) ? sb->r[i].start : s;
		uint32_t z = seq_lt(sb->r[i].end, e) ? sb->r[i].end : e;

		if (seq_lt(a, z))
			n += z - a;
	}
	return n;
}

/* Add [s, e): merged with the ranges it overlaps or touches; the highest
 * range goes when there is no room. Returns the bytes it added. */
static uint32_t
sack_add(struct sack_board *sb, uint32_t s, uint32_t e)
{
	uint32_t added = (e - s) - overlap(sb, s, e), i = 0, j, k;

	while (i < sb->n && seq_lt(sb->r[i].end, s))
		i++;
	/* ranges i..j-1 overlap or touch [s, e) */
	for (j = i; j < sb->n && seq_le(sb->r[j].start, e); j++) {
		if (seq_lt(sb->r[j].start, s))
			s = sb->r[j].start;
		if (seq_gt(sb->r[j].end, e))
			e = sb->r[j].end;
	}
	if (j == i) { /* apart from all: make room at i */
		if (sb->n == SB_RANGES) {
			if (i == SB_RANGES)
				return 0; /* above all we keep */
			sb->n--;
		}
		for (k = sb->n; k > i; k--)
			sb->r[k] = sb->r[k - 1];
		sb->n++;
	} else { /* i takes them all */
		for (k = 0; j + k < sb->n; k++)
			sb->r[i + 1 + k] = sb->r[j + k];
		sb->n = (uint8_t)(sb->n - (j - i - 1));
	}
	sb->r[i].start = s;
	sb->r[i].end = e;
	return added;
}

uint32_t
sb_update(struct sack_board *sb, uint32_t una, uint32_t snd_nxt, const struct sack_block *b, uint32_t n)
{
	uint32_t i, k = 0, added = 0;

	/* the cumulative ACK takes what is below it */
	for (i = 0; i < sb->n; i++) {
		if (seq_le(sb->r[i].end, una))
			continue;
		sb->r[k] = sb->r[i];
		if (seq_lt(sb->r[k].start, una))
			sb->r[k].start = una;
		k++;
	}
	sb->n = (uint8_t)k;
	if (seq_lt(sb->high_rxt, una))
		sb->high_rxt = una;
	for (i = 0; i < n; i++) {
		uint32_t s = b[i].start, e = b[i].end;

		if (!seq_lt(s, e) || seq_gt(e, snd_nxt) || seq_le(e, una) || e - s > snd_nxt - una)
			continue; /* impossible, or a D-SACK of what was acknowledged */
		if (seq_lt(s, una))
			s = una;
		added += sack_add(sb, s, e);
	}
	return added;
}

int
sb_sacked(const struct sack_board *sb, uint32_t start, uint32_t end)
{
	for (uint32_t i = 0; i < sb->n; i++)
		if (seq_le(sb->r[i].start, start) && seq_le(end, sb->r[i].end))
			return 1;
	return 0;
}

/* IsLost for a byte with part SACKed bytes above it in its own range,
 * then ranges i.. . For every byte of the hole below range i it is the
 * same (none is SACKed there): part 0, ranges i.. . */
static int
lost_above(const struct sack_board *sb, uint32_t i, uint32_t part, uint32_t mss)
{
	uint32_t bytes = part, segs = (part + mss - 1) / mss;

	for (; i < sb->n; i++) {
		uint32_t l = sb->r[i].end - sb->r[i].start;

		bytes += l;
		segs += (l + mss - 1) / mss;
	}
	return segs >= SACK_DUPTHRESH || bytes > (SACK_DUPTHRESH - 1) * mss;
}

int
sb_is_lost(const struct sack_board *sb, uint32_t seq, uint32_t mss)
{
	uint32_t i = 0;

	while (i < sb->n && seq_le(sb->r[i].end, seq))
		i++;
	if (i < sb->n && seq_le(sb->r[i].start, seq)) /* seq is SACKed: the rest of its range */
		return lost_above(sb, i + 1, sb->r[i].end - seq - 1, mss);
	return lost_above(sb, i, 0, mss);
}

uint32_t
sb_pipe(const struct sack_board *sb, const struct sb_msg *m, uint32_t una, uint32_t high)
{
	uint32_t pipe = 0, s = una, msg_end = m->base + m->len;

	if (seq_gt(high, msg_end))
		high = msg_end; /* the FIN's sequence number is no data */
	/* The holes: below each range, then above the last (not lost:
	 * nothing is SACKed above it). Per byte, as RFC 6675 counts. */
	for (uint32_t i = 0; i <= sb->n && seq_lt(s, high); i++) {
		uint32_t e = i < sb->n ? sb->r[i].start : high;

		if (seq_gt(e, high))
			e = high;
		if (seq_lt(s, e)) {
			if (i == sb->n || !lost_above(sb, i, 0, m->mss))
				pipe += e - s;
			if (seq_lt(s, sb->high_rxt)) /* retransmitted */
				pipe += (seq_lt(sb->high_rxt, e) ? sb->high_rxt : e) - s;
		}
		if (i < sb->n)
			s = sb->r[i].end;
	}
	return pipe;
}

int
sb_next_seg(const struct sack_board *sb, const struct sb_msg *m, uint32_t una, int lost, uint32_t *seq)
{
	uint32_t s = una;

	/* the holes below the highest SACKed byte (NextSeg 1.b) */
	for (uint32_t i = 0; i < sb->n; i++) {
		uint32_t e = sb->r[i].start, from = seq_gt(sb->high_rxt, s) ? sb->high_rxt : s;

		if (seq_lt(from, e) && (!lost || lost_above(sb, i, 0, m->mss))) {
			*seq = m->base + (from - m->base) / m->mss * m->mss;
			return 1;
		}
		s = sb->r[i].end;
	}
	return 0;
}
