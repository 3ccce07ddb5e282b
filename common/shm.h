/* SPDX-License-Identifier: BSD-3-Clause
 * The shared memzone: the one contract between the primary and every
 * secondary. Defined once here; every size and alignment the code relies
 * on is asserted below.
 *
 * Writers:
 *   header, config_text, ports, history: the primary's main lcore.
 * The configuration itself (struct dp_config) stays in the primary: a
 * secondary reads the effective configuration as text (config_text, the
 * parser's dump), so a new keyword does not change this contract.
 *   control: the main lcore (on an accepted IPC request); workers only read.
 *   workers[i]: worker i only. Its counters (c, sk_cur, busy_tsc, loop_tsc)
 *   are copies of the worker's own, stored with release stores after each
 *   busy loop iteration (at least every millisecond) and when it stops;
 *   read them with dp_load (acquire).
 * Readers (secondaries) never write anything here.
 */
#ifndef DPERF_SHM_H
#define DPERF_SHM_H

#include <stdint.h>

#include "config.h"
#include "counters.h"
#include "hist.h"

#define DP_SHM_NAME "dperf_shm"
#define DP_SHM_MAGIC 0x6468707265664d5aULL /* "ZMferphd" */
#define DP_SHM_ABI 25 /* 15: the loss recovery counters; 16: sRTT and TLS handshake histograms; 17: pipeFull; 18: the TLS counters; 19: rto; 20: features; 21: http404; 22: per-kind counters, config_text 32 KB; 23: the kinds' weights, a change's kind; 24: a server's per-object counters (dp_objects, wobjects); 25: latency histograms per traffic kind (klat) */
#define DP_MAX_WORKERS DP_MAX_CPUS
#define DP_HISTORY_LEN 600 /* seconds kept in the history ring */
#define DP_CHANGES_LEN 32  /* applied control changes kept */
#define DP_CACHE_LINE 64

/* Names: dp_state_name() (figures.h). */
enum dp_state {
	DP_ST_INIT = 0,
	DP_ST_WAIT,       /* waiting for the gateway / "wait" seconds */
	DP_ST_SLOW_START,
	DP_ST_RUNNING,
	DP_ST_PAUSED,
	DP_ST_LINK_DOWN,  /* a port lost its link (or its memif peer) after it was up */
	DP_ST_STOPPING,
	DP_ST_DONE,
	DP_ST__COUNT
};

/* The features a run uses (hdr.features): their counters are shown in the
 * text counter block even while 0; a feature's counters on a run that
 * does not use it only once one is not 0 (dp_counters_text). */
#define DP_FEAT_TLS 0x1u /* protocol https or tls: the tls* counters */

struct dp_shm_header {
	uint64_t magic;
	uint32_t abi;
	uint32_t size;      /* sizeof(struct dp_shm) */
	int32_t pid;
	volatile uint32_t state; /* enum dp_state */
	uint64_t tsc_hz;
	uint64_t start_tsc;      /* when workers began */
	volatile uint64_t stop_tsc; /* 0 while running */
	uint64_t start_unix_us;
	uint32_t mode;           /* enum dp_mode */
	uint32_t n_workers;
	uint32_t n_ports;
	uint32_t features;       /* DP_FEAT_*: what this run uses (the counter block hides the rest while 0) */
	char name[48];           /* instance name (the file prefix) */
} __attribute__((aligned(DP_CACHE_LINE)));

/* One applied change, for the audit trail printed by the primary. */
struct dp_change {
	uint64_t tsc;
	uint32_t what; /* enum dp_ctl_op */
	uint32_t kind; /* set weight: the kind's number (kinds.name); else 0 */
	int64_t old_value;
	int64_t new_value;
};

struct dp_control {
	volatile uint64_t generation;  /* bumped after each applied change */
	volatile uint64_t target_cps;  /* total over all workers */
	volatile uint64_t target_cc;
	volatile uint64_t duration_us; /* at full rate: from start_tsc + lead_s (dperf's) */
	volatile uint32_t paused;
	volatile uint32_t stop;        /* graceful stop requested */
	volatile uint64_t request_tsc; /* when the last change was accepted */
	volatile uint32_t n_changes;   /* total; entries kept modulo DP_CHANGES_LEN */
	uint32_t lead_s;               /* fixed: a client's wait + slow_start, 0 on a server */
	struct dp_change changes[DP_CHANGES_LEN];
} __attribute__((aligned(DP_CACHE_LINE)));

/* dperf's clock, the one every reader and "set duration" speaks of: a
 * client waits, ramps up for slow_start, then runs `duration` at full
 * rate; the run ends lead + duration after start_tsc. */
static inline uint64_t
dp_run_end_us(const struct dp_control *c)
{
	return (uint64_t)c->lead_s * 1000000 + c->duration_us;
}

/* A counter the workers publish (struct dp_worker_stats), as published. */
static inline uint64_t
dp_load(const uint64_t *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

struct dp_worker_stats {
	uint64_t c[DP_C__COUNT];           /* published (dp_load) */
	uint64_t sk_cur;                   /* sockets currently open (published) */
	uint64_t busy_tsc;                 /* cycles spent doing work (published) */
	uint64_t loop_tsc;                 /* cycles in the loop, total (published) */
	volatile uint64_t applied_gen;     /* control generation last applied */
	volatile uint64_t applied_tsc;     /* when it was applied */
	volatile uint64_t cps_now;         /* this worker's current launch rate */
	volatile uint32_t lcore;
	volatile uint32_t port;
} __attribute__((aligned(DP_CACHE_LINE)));

/* One member of a bonded port: its own device's counters (main lcore),
 * so that a reader sees which links carry the bond's traffic. */
struct dp_member_stats {
	char name[32];
	volatile uint64_t ipackets;
	volatile uint64_t opackets;
	volatile uint64_t ibytes;
	volatile uint64_t obytes;
};

struct dp_port_stats {
	volatile uint64_t c[DP_PC__COUNT];
	char name[64];
	uint8_t mac[6];
	uint8_t link_up;
	uint8_t gw_resolved;
	/* The port's mbuf pool (gauges, main lcore): its size, mbufs free now
	 * (ring plus per-lcore caches), and free once the port had started
	 * and filled its RX rings, before any traffic. With every worker
	 * stopped, free == free_start, or mbufs leaked. */
	uint64_t mbuf_total;
	volatile uint64_t mbuf_free;
	uint64_t mbuf_free_start;
	uint32_t n_members; /* a bond's members, 0 for a port of one device */
	struct dp_member_stats members[DP_BOND_MAX_MEMBERS];
} __attribute__((aligned(DP_CACHE_LINE)));

/* The latency kinds, in that order: the index of a worker's histograms
 * (struct dp_worker_lat), of a history entry's lat[] and of
 * dp_lat_between (lib/rates.h). Names and meanings: dp_lat_kinds
 * (lib/figures.h), the one table every output reads. */
enum dp_lat_kind {
	DP_LAT_CONNECT,    /* SYN sent to SYN+ACK received (client) */
	DP_LAT_RESPONSE,   /* request sent to the last byte of its response (client) */
	DP_LAT_SERVER,     /* the request's packet polled to its response queued (server) */
	DP_LAT_FIRST_BYTE, /* request sent to the first byte of its response (client; of the
			    * first response of a pipelined batch) */
	DP_LAT_SRTT,       /* a connection's smoothed RTT (RFC 6298) at each of its samples */
	DP_LAT_TLS_HS,     /* SYN sent (client) or received (server) to the TLS Finished */
	DP_LAT__COUNT
};

/* Latency histograms of one worker (written by it only), TSC ticks,
 * indexed by enum dp_lat_kind. */
struct dp_worker_lat {
	struct dp_hist h[DP_LAT__COUNT];
} __attribute__((aligned(DP_CACHE_LINE)));

/* Per-second totals written by the main lcore at the end of each second. */
struct dp_history_entry {
	uint64_t sec;   /* seconds since start, 1-based; 0 = empty slot */
	uint64_t tsc;
	uint64_t c[DP_C__COUNT]; /* cumulative totals at that second */
	uint64_t sk_cur;
	uint64_t target_cps;
	/* Latency over that second (enum dp_lat_kind): a histogram per
	 * entry would not fit 600 of them, percentiles do. */
	struct dp_lat lat[DP_LAT__COUNT];
};

/* A client's traffic kinds (config.h's kind lines), when it has two or
 * more: their names, in the order of the lines (main lcore, at start),
 * and their weights now (the control, under its lock: the file's, then
 * each accepted set weight). */
struct dp_kinds {
	uint32_t n; /* 2..DP_MAX_KINDS; 0: no per-kind counters (no kind lines, or one) */
	uint32_t pad;
	char name[DP_MAX_KINDS][DP_KIND_NAME_LEN];
	volatile uint32_t weight[DP_MAX_KINDS];
} __attribute__((aligned(DP_CACHE_LINE)));

/* Worker i's counters per kind (enum dp_kind_counter), rows 0..n-1,
 * published with its other counters (dp_load). */
struct dp_worker_kinds {
	uint64_t c[DP_MAX_KINDS][DP_KC__COUNT];
} __attribute__((aligned(DP_CACHE_LINE)));

/* A server's objects (config.h's object lines, issue 37), one or more:
 * their paths, in the order of the lines (main lcore, at start). A
 * path is printable ASCII without spaces (the parse's rule). */
struct dp_objects {
	uint32_t n; /* 1..DP_MAX_OBJECTS; 0: no per-object counters (no object lines, a client) */
	uint32_t pad;
	char path[DP_MAX_OBJECTS][DP_KIND_PATH_LEN];
} __attribute__((aligned(DP_CACHE_LINE)));

/* Worker i's counters per object (enum dp_object_counter), rows 0..n-1,
 * published with its other counters (dp_load). */
struct dp_worker_objects {
	uint64_t c[DP_MAX_OBJECTS][DP_OC__COUNT];
} __attribute__((aligned(DP_CACHE_LINE)));

/* The latencies measured per traffic kind (issue 37: a client's kind
 * lines, two or more), the rows of struct dp_worker_klat; each is one of
 * enum dp_lat_kind (dp_klat_lat: its name, lib/figures.h). */
enum dp_klat {
	DP_KLAT_CONNECT,
	DP_KLAT_FIRST_BYTE,
	DP_KLAT_RESPONSE,
	DP_KLAT_TLS_HS,
	DP_KLAT__COUNT
};

/* The row of a latency kind in the per-kind histograms, -1 for one not
 * measured per kind (the server's, sRTT). */
static inline int
dp_lat_klat(int k)
{
	return k == DP_LAT_CONNECT ? DP_KLAT_CONNECT : k == DP_LAT_FIRST_BYTE ? DP_KLAT_FIRST_BYTE
		: k == DP_LAT_RESPONSE ? DP_KLAT_RESPONSE : k == DP_LAT_TLS_HS ? DP_KLAT_TLS_HS : -1;
}

/* Worker i's latency histograms per traffic kind (TSC ticks, worker i
 * only), rows 0..kinds.n-1: each sample goes to its connection's kind
 * here and to the total (struct dp_worker_lat) at the same place, so a
 * latency's kinds add up to its total, bucket by bucket. */
struct dp_worker_klat {
	struct dp_hist h[DP_MAX_KINDS][DP_KLAT__COUNT];
} __attribute__((aligned(DP_CACHE_LINE)));

struct dp_shm {
	struct dp_shm_header hdr;
	struct dp_control ctl;
	/* The dump of the largest configuration fits: 16 kind lines and 31
	 * object lines with file paths alone are about 16 KB (issue 37). */
	char config_text[32768];
	struct dp_port_stats ports[DP_MAX_PORTS];
	struct dp_worker_stats workers[DP_MAX_WORKERS];
	volatile uint64_t history_head; /* number of entries written */
	struct dp_history_entry history[DP_HISTORY_LEN];
	struct dp_worker_lat lat[DP_MAX_WORKERS];
	struct dp_kinds kinds;
	struct dp_worker_kinds wkinds[DP_MAX_WORKERS];
	struct dp_objects objects;
	struct dp_worker_objects wobjects[DP_MAX_WORKERS];
	/* issue 37's latency per kind (21 MB: 16 workers x 16 kinds x 4) */
	struct dp_worker_klat klat[DP_MAX_WORKERS];
} __attribute__((aligned(DP_CACHE_LINE)));

_Static_assert(sizeof(struct dp_worker_stats) % DP_CACHE_LINE == 0, "worker stats not cache aligned");
_Static_assert(sizeof(struct dp_port_stats) % DP_CACHE_LINE == 0, "port stats not cache aligned");
_Static_assert(sizeof(struct dp_member_stats) == DP_CACHE_LINE, "member stats layout changed: bump DP_SHM_ABI");
_Static_assert(sizeof(struct dp_shm_header) == DP_CACHE_LINE * 2, "header layout changed: bump DP_SHM_ABI");
_Static_assert(__builtin_offsetof(struct dp_shm, workers) % DP_CACHE_LINE == 0, "workers misaligned");
_Static_assert(sizeof(uint64_t) == 8 && sizeof(void *) == 8, "64-bit target required");
_Static_assert(sizeof(struct dp_worker_kinds) % DP_CACHE_LINE == 0, "kind stats not cache aligned");
_Static_assert(sizeof(struct dp_worker_objects) % DP_CACHE_LINE == 0, "object stats not cache aligned");
_Static_assert(__builtin_offsetof(struct dp_shm, wobjects) % DP_CACHE_LINE == 0, "object stats misaligned");
_Static_assert(sizeof(struct dp_worker_klat) % DP_CACHE_LINE == 0, "kind latency not cache aligned");
_Static_assert(__builtin_offsetof(struct dp_shm, klat) % DP_CACHE_LINE == 0, "kind latency misaligned");

/* The workers every sum runs over: the primary's, bounded by the memzone. */
static inline uint32_t
dp_shm_n_workers(const struct dp_shm *s)
{
	return s->hdr.n_workers < DP_MAX_WORKERS ? s->hdr.n_workers : DP_MAX_WORKERS;
}

/* Sum of one counter over all workers. */
static inline uint64_t
dp_shm_sum(const struct dp_shm *s, enum dp_counter c)
{
	uint64_t t = 0;
	for (uint32_t i = 0; i < dp_shm_n_workers(s); i++)
		t += dp_load(&s->workers[i].c[c]);
	return t;
}

/* Sum of one kind's counter over all workers. */
static inline uint64_t
dp_shm_kind_sum(const struct dp_shm *s, uint32_t kind, enum dp_kind_counter c)
{
	uint64_t t = 0;
	for (uint32_t i = 0; i < dp_shm_n_workers(s); i++)
		t += dp_load(&s->wkinds[i].c[kind][c]);
	return t;
}

/* out = one kind's histogram of latency row j (enum dp_klat) summed
 * over the workers. */
static inline void
dp_shm_klat_sum(const struct dp_shm *s, uint32_t kind, int j, struct dp_hist *out)
{
	for (uint32_t i = 0; i < DP_HIST_BUCKETS; i++)
		out->b[i] = 0;
	out->count = out->max = 0;
	for (uint32_t i = 0; i < dp_shm_n_workers(s); i++)
		dp_hist_merge(out, &s->klat[i].h[kind][j]);
}

/* The kinds counted: 0, or 2..DP_MAX_KINDS, bounded by the memzone. */
static inline uint32_t
dp_shm_n_kinds(const struct dp_shm *s)
{
	return s->kinds.n <= DP_MAX_KINDS ? s->kinds.n : DP_MAX_KINDS;
}

/* Sum of one object's counter over all workers. */
static inline uint64_t
dp_shm_object_sum(const struct dp_shm *s, uint32_t obj, enum dp_object_counter c)
{
	uint64_t t = 0;
	for (uint32_t i = 0; i < dp_shm_n_workers(s); i++)
		t += dp_load(&s->wobjects[i].c[obj][c]);
	return t;
}

/* The objects counted: 0..DP_MAX_OBJECTS, bounded by the memzone. */
static inline uint32_t
dp_shm_n_objects(const struct dp_shm *s)
{
	return s->objects.n <= DP_MAX_OBJECTS ? s->objects.n : DP_MAX_OBJECTS;
}

#endif
