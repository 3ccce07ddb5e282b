/* SPDX-License-Identifier: BSD-3-Clause
 * tls_ref: OpenSSL's own TLS handshake on one core, the reference that
 * make bench sets the engine's TLS CPS against (scripts/bench.py, tls_ref).
 *
 * N connections of a client side and a server side made as the engine
 * makes them (primary/tls/: tls_side_init from the same tls_* settings,
 * tls_open, tls_input, tls_close over the engine's BIO), in one thread,
 * each side's records handed whole to the other in memory: no TCP, no
 * packets, no device. Each connection is a handshake, one HTTP request
 * and its answer (what a bench connection carries), then closed. The
 * time is read (the TSC: see cpu_ns) around every call of one side, so
 * each side's cost per connection is apart. Each side's figure is its
 * connections per CPU-second (over the mean connection): what one core
 * could do with nothing but OpenSSL and this BIO, the ceiling an engine
 * can approach. The median connection is printed beside it (_us, and
 * median_per_cpu_s): it drops the slices the thread lost to the host,
 * which an engine's rate cannot drop, so it was 3 to 17% above the rate
 * here (session 15) and is not what an engine is set against.
 *
 *   tls_ref [-m hs|keepalive|bulk] [-s BYTES] [-n N] [-p PER_S] [-r none|tickets] [-g GROUPS] [-v 12|13] [-S SEG] CERT KEY
 *
 * -m hs (the default): prints one JSON object: per side the microseconds
 * of CPU per connection and the connections per CPU-second; the share
 * resumed. With -r tickets the first connection is full and every later
 * one offers the latest ticket, as the engine's client does.
 *
 * -p PER_S (-m hs): connections started at that rate, the thread
 * spinning between them as an engine's polling worker waits for its next
 * packet, instead of back to back. Set beside an engine's level of that
 * rate (make bench): a handshake made after a gap costs this VM's core
 * more (3 ms of spinning between connections: 1.1-1.6x the server's and
 * 1.2-1.8x the client's CPU per connection, six pairs, 2026-12-05), so
 * the back-to-back rate is no reference for a core that is partly idle.
 * Behind the pace (the handshakes cost more than its gap), connections
 * follow at once, with no burst to catch up: back to back.
 *
 * -m keepalive and -m bulk (issue 38): one connection (its handshake not
 * counted) carries N requests, each answered with an HTTP answer of BYTES
 * (keepalive: 1460 by default, one record, as the engine's server writes
 * an answer of at most 16 KB; bulk: 1000000, in the engine's records for
 * mss 1460, tls_plan.h: the first filling a segment, then 16,038 bytes
 * each). Per side: the microseconds of its median answer (read on the
 * TSC: see cpu_ns), answers per CPU-second and the answers' Gbit/s per
 * core (over the mean answer), and the cipher negotiated.
 *
 * -S SEG (not the reference, which make bench runs without it): the
 * client reads the server's records SEG bytes at a time (1460: as the
 * engine's client reads a segment at a time), to see what reading a
 * record in pieces costs beside reading it whole.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <x86intrin.h>

#include <openssl/err.h>

#include "tls/tls_conn.h"
#include "tls/tls_ctx.h"

/* Connections made first and not counted: OpenSSL's first use of a path
 * loads and caches (providers, the certificate's key, method tables). */
#define WARMUP 50

static const char request[] = "GET / HTTP/1.1\r\nHost: dperf\r\n\r\n";
static const char answer[] = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n";

/* Each side's calls are timed on the TSC (tsc_ns > 0, once calibrated):
 * reading the thread's CPU clock instead (a system call, about 1.5
 * microseconds in this VM, six or more per answer) was two thirds of what
 * a 1460-byte answer measured (issue 38: 9 to 11 us against 3.1). The TSC
 * counts the slices the thread lost (to other processes, to the host), as
 * an engine's rate does; the median connection drops them. */
static double tsc_ns;

static uint64_t
cpu_ns(void)
{
	struct timespec t;

	if (tsc_ns > 0)
		return (uint64_t)((double)__rdtsc() * tsc_ns);
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static uint64_t
mono_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC_RAW, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* tsc_ns: nanoseconds per TSC tick, over 50 ms of the monotonic clock. */
static void
tsc_calibrate(void)
{
	uint64_t t0 = mono_ns(), c0 = __rdtsc(), t1;

	while ((t1 = mono_ns()) - t0 < 50000000u)
		;
	tsc_ns = (double)(t1 - t0) / (double)(__rdtsc() - c0);
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The mean: every slice the thread lost counted, as an engine's rate
 * counts it (bench.py sets the engine beside both). */
static double
mean_ns(const uint64_t *v, long n)
{
	double sum = 0;

	for (long i = 0; i < n; i++)
		sum += (double)v[i];
	return sum / (double)n;
}

static double
median_ns(uint64_t *v, long n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_u64);
	return n % 2 ? (double)v[n / 2] : ((double)v[n / 2 - 1] + (double)v[n / 2]) / 2;
}

static void
discard(void *arg, const uint8_t *data, uint32_t len)
{
	(void)arg;
	(void)data;
	(void)len;
}

struct end {
	struct tls_side side;
	struct tls_conn conn;
	uint64_t ns; /* CPU spent in this side's calls */
};

/* from's records to to, whole, to's time counted; < 0 when to failed. */
static int
deliver(struct end *from, struct end *to, uint32_t *moved)
{
	uint64_t t0;
	int r;

	if (from->conn.out_len == 0)
		return 0;
	t0 = cpu_ns();
	r = tls_input(&to->conn, from->conn.out, from->conn.out_len, discard, NULL);
	to->ns += cpu_ns() - t0;
	*moved += from->conn.out_len;
	t0 = cpu_ns();
	tls_acked(&from->conn, from->conn.out_len);
	from->ns += cpu_ns() - t0;
	return r;
}

/* Back and forth until nothing moves. */
static int
pump(struct end *cli, struct end *srv)
{
	for (int i = 0; i < 16; i++) {
		uint32_t moved = 0;

		if (deliver(cli, srv, &moved) < 0 || deliver(srv, cli, &moved) < 0)
			return -1;
		if (moved == 0)
			return 0;
	}
	return -1;
}

static int
timed_write(struct end *e, const char *msg, uint32_t len)
{
	uint64_t t0 = cpu_ns();
	int r = tls_write(&e->conn, msg, len);

	e->ns += cpu_ns() - t0;
	return r;
}

static int
timed_open(struct end *e)
{
	uint64_t t0 = cpu_ns();
	int r = tls_open(&e->conn, &e->side);

	e->ns += cpu_ns() - t0;
	return r;
}

static void
timed_close(struct end *e)
{
	uint64_t t0 = cpu_ns();

	tls_close(&e->conn);
	e->ns += cpu_ns() - t0;
}

/* An answer of the mode's: len bytes written as the engine's server
 * writes them (tls_tcp.c's tls_write_msg for mss 1460). */
#define REF_MSS 1460
static int
timed_answer(struct end *e, const uint8_t *msg, uint32_t len)
{
	uint64_t t0 = cpu_ns();
	uint32_t ovh = tls_record_overhead(&e->conn);
	int r = 0;

	if (len > TLS_RECORD_PLAIN_MAX)
		(void)tls_out_reserve(&e->conn, len + (2 + len / (TLS_RECORD_PLAIN_MAX / 2)) * ovh);
	for (uint32_t off = 0; off < len && r == 0;) {
		uint32_t n = tls_record_plain(len - off, e->conn.out_len % REF_MSS, REF_MSS, ovh, off == 0);

		r = tls_write(&e->conn, msg + off, n);
		off += n;
	}
	e->ns += cpu_ns() - t0;
	return r;
}

/* -p: TSC ticks between two connections' starts (0: back to back). */
static uint64_t pace_ticks;

/* Spins until the next connection's start; its start after that. */
static uint64_t
pace(uint64_t next)
{
	uint64_t now;

	if (pace_ticks == 0)
		return 0;
	while ((int64_t)((now = __rdtsc()) - next) < 0)
		_mm_pause();
	return (now - next > pace_ticks ? now : next) + pace_ticks;
}

/* Plaintext bytes the client read (the answers whole, checked at the end). */
static uint64_t got_bytes;

static void
count(void *arg, const uint8_t *data, uint32_t len)
{
	(void)arg;
	(void)data;
	got_bytes += len;
}

/* -S: the client reads the server's records in pieces of this many
 * bytes, one tls_input each, as the engine's client reads a segment at a
 * time (0: whole, the reference). */
static uint32_t seg_bytes;

static int
client_input(struct end *cli, const uint8_t *data, uint32_t len)
{
	uint32_t step = seg_bytes ? seg_bytes : len;
	int r = 0;

	for (uint32_t off = 0; off < len && r >= 0; off += step)
		r = tls_input(&cli->conn, data + off, len - off < step ? len - off : step, count, NULL);
	return r;
}

/* A request and its answer on the connection open: 0, or -1. */
static int
exchange(struct end *cli, struct end *srv, const uint8_t *answer_msg, uint32_t len)
{
	uint64_t t0;
	int r;

	if (timed_write(cli, request, sizeof(request) - 1) != 0)
		return -1;
	t0 = cpu_ns();
	r = tls_input(&srv->conn, cli->conn.out, cli->conn.out_len, discard, NULL);
	tls_acked(&cli->conn, cli->conn.out_len);
	srv->ns += cpu_ns() - t0;
	if (r < 0 || timed_answer(srv, answer_msg, len) != 0)
		return -1;
	t0 = cpu_ns();
	r = client_input(cli, srv->conn.out, srv->conn.out_len);
	cli->ns += cpu_ns() - t0;
	t0 = cpu_ns();
	tls_acked(&srv->conn, srv->conn.out_len);
	srv->ns += cpu_ns() - t0;
	return r < 0 ? -1 : 0;
}

/* -m keepalive and bulk: n answers of len bytes on one connection. */
static int
answers(struct end *cli, struct end *srv, long n, uint32_t len, const char *mode)
{
	uint8_t *msg = malloc(len);
	uint64_t *s_ns = calloc((size_t)n, sizeof(uint64_t)), *c_ns = calloc((size_t)n, sizeof(uint64_t));
	double s_med, c_med, s_mean, c_mean;
	int head;
	const char *cipher;

	if (msg == NULL || s_ns == NULL || c_ns == NULL) {
		free(msg);
		free(s_ns);
		free(c_ns);
		return 1;
	}
	memset(msg, 'a', len);
	head = snprintf((char *)msg, len, "HTTP/1.1 200 OK\r\nContent-Length: %10u\r\n\r\n", 0u);
	if (head < 0 || (uint32_t)head >= len) {
		fprintf(stderr, "tls_ref: -s %u: at least %d bytes (an HTTP head)\n", len, head + 1);
		free(msg);
		free(s_ns);
		free(c_ns);
		return 2;
	}
	snprintf((char *)msg, len, "HTTP/1.1 200 OK\r\nContent-Length: %10u\r\n", len - (uint32_t)head);
	msg[head - 2] = '\r'; /* snprintf's NUL over the blank line's first byte */
	if (timed_open(cli) != 0 || timed_open(srv) != 0 || pump(cli, srv) != 0 || cli->conn.state != TLS_UP ||
	    srv->conn.state != TLS_UP) {
		fprintf(stderr, "tls_ref: the handshake failed\n");
		free(msg);
		free(s_ns);
		free(c_ns);
		return 1;
	}
	cipher = SSL_get_cipher_name(srv->conn.ssl);
	tsc_calibrate();
	for (long i = 0; i < WARMUP + n; i++) {
		if (i == WARMUP)
			got_bytes = 0;
		cli->ns = srv->ns = 0;
		if (exchange(cli, srv, msg, len) != 0) {
			fprintf(stderr, "tls_ref: answer %ld failed (client state %d fail %d, server state %d fail %d)\n",
				i, cli->conn.state, cli->conn.fail, srv->conn.state, srv->conn.fail);
			free(msg);
			free(s_ns);
			free(c_ns);
			return 1;
		}
		if (i >= WARMUP) {
			s_ns[i - WARMUP] = srv->ns;
			c_ns[i - WARMUP] = cli->ns;
		}
	}
	free(msg);
	s_mean = mean_ns(s_ns, n);
	c_mean = mean_ns(c_ns, n);
	s_med = median_ns(s_ns, n);
	c_med = median_ns(c_ns, n);
	free(s_ns);
	free(c_ns);
	if (got_bytes != (uint64_t)n * len) {
		fprintf(stderr, "tls_ref: the client read %llu bytes, expected %llu\n", (unsigned long long)got_bytes,
			(unsigned long long)n * len);
		return 1;
	}
	printf("{\"mode\":\"%s\",\"answers\":%ld,\"answer_bytes\":%u,\"cipher\":\"%s\","
	       "\"server_us\":%.2f,\"client_us\":%.2f,\"server_per_cpu_s\":%.0f,\"client_per_cpu_s\":%.0f,"
	       "\"server_gbps\":%.3f,\"client_gbps\":%.3f,\"server_mean_us\":%.2f,\"client_mean_us\":%.2f,"
	       "\"server_median_per_cpu_s\":%.0f,\"client_median_per_cpu_s\":%.0f}\n",
	       mode, n, len, cipher, s_med / 1e3, c_med / 1e3, 1e9 / s_mean, 1e9 / c_mean, len * 8 / s_mean,
	       len * 8 / c_mean, s_mean / 1e3, c_mean / 1e3, 1e9 / s_med, 1e9 / c_med);
	timed_close(cli);
	timed_close(srv);
	return 0;
}

/* One connection: 1 when resumed, 0 full, -1 failed. */
static int
connection(struct end *cli, struct end *srv)
{
	int ok, resumed;

	ok = timed_open(cli) == 0 && timed_open(srv) == 0 && pump(cli, srv) == 0 &&
	     cli->conn.state == TLS_UP && srv->conn.state == TLS_UP &&
	     timed_write(cli, request, sizeof(request) - 1) == 0 && pump(cli, srv) == 0 &&
	     timed_write(srv, answer, sizeof(answer) - 1) == 0 && pump(cli, srv) == 0;
	resumed = cli->conn.resumed;
	if (!ok)
		fprintf(stderr, "tls_ref: a connection failed (client state %d fail %d, server state %d fail %d)\n",
			cli->conn.state, cli->conn.fail, srv->conn.state, srv->conn.fail);
	timed_close(cli);
	timed_close(srv);
	return ok ? resumed : -1;
}

static void
usage(void)
{
	fprintf(stderr, "usage: tls_ref [-m hs|keepalive|bulk] [-s BYTES] [-n N] [-p PER_S] [-r none|tickets] [-g GROUPS] "
			"[-v 12|13] [-S SEG] CERT KEY\n");
	exit(2);
}

/* -OPT's argument (optarg) into *v: a whole number from lo to hi, else one
 * line naming the option and the range, and -1. */
static int
num_arg(char opt, long lo, long hi, const char *unit, long *v)
{
	char *end;

	errno = 0;
	*v = strtol(optarg, &end, 10);
	if (errno || *end || *v < lo || *v > hi) {
		fprintf(stderr, "tls_ref: -%c %s: %ld to %ld %s\n", opt, optarg, lo, hi, unit);
		return -1;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	struct end cli = {0}, srv = {0};
	struct tls_opts so = {.server = 1, .version = 13, .groups = "X25519"}, co;
	char err[512];
	long n = 2000, size = 0, size_seg = 0, per_s = 0;
	int opt, resumed = 0;
	uint64_t *s_ns, *c_ns, next, wall0 = 0;
	double s_med, c_med, s_mean, c_mean, wall;
	const char *mode = "hs";

	while ((opt = getopt(argc, argv, "m:s:n:p:r:g:v:S:")) != -1) {
		switch (opt) {
		case 'm':
			if (strcmp(optarg, "hs") != 0 && strcmp(optarg, "keepalive") != 0 && strcmp(optarg, "bulk") != 0) {
				fprintf(stderr, "tls_ref: -m %s: hs, keepalive or bulk\n", optarg);
				return 2;
			}
			mode = optarg;
			break;
		case 's':
			if (num_arg('s', 64, 4000000, "bytes", &size) < 0)
				return 2;
			break;
		case 'n':
			if (num_arg('n', 1, 10000000, "connections", &n) < 0)
				return 2;
			break;
		case 'p':
			if (num_arg('p', 1, 10000000, "connections per second", &per_s) < 0)
				return 2;
			break;
		case 'r':
			if (strcmp(optarg, "none") == 0)
				so.resume = DP_TLS_RESUME_NONE;
			else if (strcmp(optarg, "tickets") == 0)
				so.resume = DP_TLS_RESUME_TICKETS;
			else {
				fprintf(stderr, "tls_ref: -r %s: none or tickets\n", optarg);
				return 2;
			}
			break;
		case 'g':
			so.groups = optarg;
			break;
		case 'v':
			so.version = atoi(optarg);
			break;
		case 'S':
			if (num_arg('S', 1, 65536, "bytes", &size_seg) < 0)
				return 2;
			seg_bytes = (uint32_t)size_seg;
			break;
		default:
			usage();
		}
	}
	if (argc - optind != 2)
		usage();
	if (per_s != 0 && strcmp(mode, "hs") != 0) {
		fprintf(stderr, "tls_ref: -p %ld: paces handshakes (-m hs), not -m %s\n", per_s, mode);
		return 2;
	}
	so.cert = argv[optind];
	so.key = argv[optind + 1];
	co = so;
	co.server = 0;
	co.cert = co.key = NULL;
	if (tls_side_init(&srv.side, &so, err, sizeof(err)) < 0 ||
	    tls_side_init(&cli.side, &co, err, sizeof(err)) < 0) {
		fprintf(stderr, "tls_ref: %s\n", err);
		return 1;
	}
	if (strcmp(mode, "hs") != 0) {
		int rc = answers(&cli, &srv, n, (uint32_t)(size ? size : strcmp(mode, "bulk") == 0 ? 1000000 : 1460),
				 mode);

		tls_side_free(&cli.side);
		tls_side_free(&srv.side);
		return rc;
	}
	s_ns = calloc((size_t)n, sizeof(uint64_t));
	c_ns = calloc((size_t)n, sizeof(uint64_t));
	if (s_ns == NULL || c_ns == NULL)
		return 1;
	tsc_calibrate();
	pace_ticks = per_s ? (uint64_t)(1e9 / tsc_ns / (double)per_s) : 0;
	next = __rdtsc();
	for (long i = 0; i < WARMUP + n; i++) {
		int r;

		next = pace(next);
		if (i == WARMUP)
			wall0 = __rdtsc();
		cli.ns = srv.ns = 0;
		r = connection(&cli, &srv);
		if (r < 0)
			return 1;
		resumed += i >= WARMUP && r;
		if (i >= WARMUP) {
			s_ns[i - WARMUP] = srv.ns;
			c_ns[i - WARMUP] = cli.ns;
		}
	}
	wall = (double)(__rdtsc() - wall0) * tsc_ns;
	wall = (double)(__rdtsc() - wall0) * tsc_ns;
	s_mean = mean_ns(s_ns, n);
	c_mean = mean_ns(c_ns, n);
	s_med = median_ns(s_ns, n);
	c_med = median_ns(c_ns, n);
	free(s_ns);
	free(c_ns);
	printf("{\"connections\":%ld,\"resume\":\"%s\",\"groups\":\"%s\",\"resumed\":%d,"
	       "\"server_us\":%.1f,\"client_us\":%.1f,\"server_per_cpu_s\":%.0f,\"client_per_cpu_s\":%.0f,"
	       "\"server_mean_us\":%.1f,\"client_mean_us\":%.1f,"
	       "\"server_median_per_cpu_s\":%.0f,\"client_median_per_cpu_s\":%.0f,"
	       "\"per_s\":%ld,\"achieved_per_s\":%.0f}\n",
	       n, so.resume == DP_TLS_RESUME_NONE ? "none" : "tickets", so.groups, resumed,
	       s_med / 1e3, c_med / 1e3, 1e9 / s_mean, 1e9 / c_mean, s_mean / 1e3, c_mean / 1e3,
	       1e9 / s_med, 1e9 / c_med, per_s, (double)n * 1e9 / wall);
	tls_side_free(&cli.side);
	tls_side_free(&srv.side);
	return 0;
}
