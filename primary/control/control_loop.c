/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <rte_cycles.h>

#include "control/control_loop.h"
#include "ctl_msg.h"
#include "control/control.h"
#include "rates.h"
#include "control/report.h"
#include "stats_out.h"

#define TICK_US 10000

/* Signal handlers take no context: the count is the one static here. */
static volatile sig_atomic_t signals_seen;

static void
on_signal(int sig)
{
	(void)sig;
	signals_seen++;
}

/* A fault signal raised by our own code (or abort()) keeps its default
 * action: the handler steps aside and the fault recurs. Sent by another
 * process with kill, it is a request to stop like any other. */
static void
on_fault_signal(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	if (si->si_code == SI_USER && si->si_pid != getpid()) {
		signals_seen++;
		return;
	}
	signal(sig, SIG_DFL);
	if (si->si_code <= 0) /* raise()/abort(): no instruction to re-run */
		raise(sig);
}

/* Only SIGKILL may leave hugepage files and a runtime directory behind:
 * every signal whose default action ends the process stops the test
 * gracefully instead (summary, files removed; a second one skips the
 * grace period). Two are not reasons to stop a headless test at all:
 * SIGPIPE (our output piped into `head`) and SIGHUP (the ssh session that
 * started us closed) are ignored; the write to the closed pipe or the
 * hung-up terminal then fails and the per-second output stops (noted once
 * on stderr), while the test runs to its end. SIGXFSZ likewise: the
 * oversized write fails instead. SIGSEGV belongs to dev_fault.c. */
void
control_loop_signals(void)
{
	static const int stop[] = { SIGINT, SIGTERM, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM,
				    SIGVTALRM, SIGPROF, SIGXCPU, SIGPWR, SIGSTKFLT, SIGIO };
	static const int fault[] = { SIGABRT, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGSYS };
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	for (size_t i = 0; i < sizeof(stop) / sizeof(stop[0]); i++)
		sigaction(stop[i], &sa, NULL);
	for (int s = SIGRTMIN; s <= SIGRTMAX; s++)
		sigaction(s, &sa, NULL);
	sa.sa_handler = NULL;
	sa.sa_sigaction = on_fault_signal;
	sa.sa_flags = SA_SIGINFO;
	for (size_t i = 0; i < sizeof(fault) / sizeof(fault[0]); i++)
		sigaction(fault[i], &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	signal(SIGXFSZ, SIG_IGN);
}

/* After each write to the per-second output: once it fails (closed pipe,
 * hung-up terminal, full disk), say so once on stderr and stop printing;
 * the test goes on. */
static int
output_ok(FILE *f)
{
	int e;

	if (fflush(f) == 0 && !ferror(f))
		return 1;
	e = errno;
	fprintf(stderr, "dperf: writing the per-second output failed (%s): it stops here, the test goes on\n",
		strerror(e));
	return 0;
}

static int
gateways_ok(const struct port_set *ps)
{
	for (uint32_t i = 0; i < ps->n; i++)
		if (!ps->np[i].gw_ok)
			return 0;
	return 1;
}

static uint32_t
state_now(const struct dp_shm *shm, const struct dp_config *cfg, const struct port_set *ps,
	  uint64_t elapsed_us)
{
	uint64_t wait_us = (uint64_t)cfg->wait * 1000000;

	if (shm->ctl.stop)
		return DP_ST_STOPPING;
	if (ps->ever_up & ~ps->link_up)
		return DP_ST_LINK_DOWN;
	if (shm->hdr.mode != DP_MODE_CLIENT)
		return DP_ST_RUNNING;
	if (!gateways_ok(ps) || elapsed_us < wait_us)
		return DP_ST_WAIT;
	if (shm->ctl.paused)
		return DP_ST_PAUSED;
	if (elapsed_us < wait_us + (uint64_t)cfg->slow_start * 1000000)
		return DP_ST_SLOW_START;
	return DP_ST_RUNNING;
}

static void
history_push(struct dp_shm *shm, const struct dp_snapshot *prev, const struct dp_snapshot *s,
	     uint64_t sec)
{
	uint64_t head = shm->history_head;
	struct dp_history_entry *e = &shm->history[head % DP_HISTORY_LEN];

	e->sec = sec;
	e->tsc = s->tsc;
	memcpy(e->c, s->c, sizeof(e->c));
	e->sk_cur = s->sk_cur;
	e->target_cps = shm->ctl.target_cps;
	for (int k = 0; k < DP_LAT__COUNT; k++)
		dp_lat_between(prev, s, k, shm->hdr.tsc_hz, &e->lat[k]);
	__atomic_store_n(&shm->history_head, head + 1, __ATOMIC_RELEASE);
}

/* A UDP client that stopped sending still receives the answers in
 * flight for this long (a peer answers in microseconds; a datagram lost
 * never is, so this is the bound, not a wait for all). */
#define UDP_DRAIN_US 500000

static int
is_udp_client(const struct dp_shm *shm, const struct dp_config *cfg)
{
	return shm->hdr.mode == DP_MODE_CLIENT && cfg->protocol == DP_PROTO_UDP && !cfg->flood;
}

/* How long a stop may take before connections are abandoned. */
static uint64_t
grace_us(const struct dp_shm *shm, const struct dp_config *cfg)
{
	uint64_t g = 2 * cfg->retransmit_timeout_us + 1000000;

	if (shm->hdr.mode != DP_MODE_CLIENT)
		g = 1000000;
	if (is_udp_client(shm, cfg))
		g = UDP_DRAIN_US;
	return g > 10000000 ? 10000000 : g;
}

/* What a stop waits for: open connections, or for a UDP client the
 * datagrams sent and not answered yet. */
static uint64_t
outstanding(const struct dp_shm *shm, const struct dp_config *cfg)
{
	if (is_udp_client(shm, cfg))
		return dp_delta(dp_shm_sum(shm, DP_C_UDP_RX), dp_shm_sum(shm, DP_C_UDP_TX));
	return dp_open_sockets(shm, NULL);
}

/* A client's links get this long after "wait" to come up and resolve
 * their gateways; then the test ends with an error rather than run its
 * whole duration sending nothing. */
#define LINK_WAIT_S 5

static const char *
port_dev_name(const struct dp_config *cfg, uint32_t p)
{
	return cfg->ports[p].dev;
}

/* Link changes after the first up: counted per port and logged. */
static void
note_links(struct control_loop *l, uint32_t changed, uint64_t now)
{
	struct dp_shm *shm = l->shm;

	for (uint32_t p = 0; p < l->ps->n && p < DP_EV_LINK_PORTS; p++) {
		uint32_t bit = 1u << p;
		int up = !!(l->ps->link_up & bit);

		if (!(changed & bit) || !(l->seen_up & bit)) {
			l->seen_up |= l->ps->link_up & bit;
			continue;
		}
		shm->ports[p].c[up ? DP_PC_LINK_UP : DP_PC_LINK_DOWN]++;
		control_note(l->ctl, DP_EV_LINK0 + p, !up, up, now);
	}
}

/* A client whose links never came up, or whose gateway never answered,
 * by wait + LINK_WAIT_S: one line saying which and why, and a stop. */
static void
check_ready(struct control_loop *l, uint64_t elapsed_us, uint64_t now)
{
	const struct port_set *ps = l->ps;
	struct dp_shm *shm = l->shm;
	const struct dp_config *cfg = l->ctl->cfg;
	char *why = l->not_ready;

	if (l->ready || shm->hdr.mode != DP_MODE_CLIENT || shm->ctl.stop)
		return;
	if (ps->link_up == (1u << ps->n) - 1 && gateways_ok(ps)) {
		l->ready = 1;
		return;
	}
	if (elapsed_us < ((uint64_t)cfg->wait + LINK_WAIT_S) * 1000000)
		return;
	for (uint32_t p = 0; p < ps->n; p++) {
		char gw[64];

		if (!(ps->link_up & (1u << p))) {
			snprintf(why, sizeof(l->not_ready), "port %u (%s): the link never came up in %u s%s", p,
				 port_dev_name(cfg, p), cfg->wait + LINK_WAIT_S,
				 (ps->memif_client & (1u << p))
					 ? " (a memif client: does its server already have a client?)"
					 : cfg->ports[p].is_bond && cfg->ports[p].bond_mode == 4
					 ? " (an 802.3ad bond: its link is up once its peer answers LACP)"
					 : "");
			break;
		}
		if (!ps->np[p].gw_ok) {
			snprintf(why, sizeof(l->not_ready), "port %u (%s): the gateway %s never answered in %u s (expected the device under test at that address, or its MAC on the port line)",
				 p, port_dev_name(cfg, p), dp_ip_str(&cfg->ports[p].gw, gw, sizeof(gw)),
				 cfg->wait + LINK_WAIT_S);
			break;
		}
	}
	fprintf(stderr, "dperf: %s\n", why);
	l->failed = why;
	control_local(l->ctl, DP_OP_STOP, 0, now);
}

void
control_loop_begin(struct control_loop *l, struct control *ctl, struct port_set *ps)
{
	l->shm = ctl->shm;
	l->ctl = ctl;
	l->ps = ps;
	l->out = stdout;
	dp_snapshot_take(l->shm, l->shm->hdr.start_tsc, &l->first);
}

void
control_loop_run(struct control_loop *l)
{
	struct dp_shm *shm = l->shm;
	const struct dp_config *cfg = l->ctl->cfg;
	uint64_t hz = shm->hdr.tsc_hz, start = shm->hdr.start_tsc, stop_at = 0, sec = 0;
	uint32_t changes_printed = 0;
	int print = !cfg->quiet;

	dp_snapshot_copy(&l->prev, &l->first);
	if (l->summary != NULL)
		dp_run_log_begin(&l->log, shm, &l->first, 0);
	for (;;) {
		uint64_t now, elapsed_us;

		rte_delay_us_sleep(TICK_US);
		now = rte_rdtsc();
		elapsed_us = (now - start) / (hz / 1000000);
		if (signals_seen >= 2)
			break;
		if ((signals_seen || elapsed_us >= dp_run_end_us(&shm->ctl)) && !shm->ctl.stop)
			control_local(l->ctl, DP_OP_STOP, 0, now);
		note_links(l, ports_watch_links(l->ps, elapsed_us), now);
		check_ready(l, elapsed_us, now);
		shm->hdr.state = state_now(shm, cfg, l->ps, elapsed_us);
		if (shm->ctl.stop) {
			if (stop_at == 0)
				stop_at = now;
			/* Nothing open counts only once every worker has seen
			 * the stop: before, one may still open a connection
			 * (a CI run's client exited with one in SYN_SENT). */
			if ((control_stop_applied(l->ctl) && outstanding(shm, cfg) == 0) ||
			    (now - stop_at) / (hz / 1000000) >= grace_us(shm, cfg))
				break;
		}
		if (print) {
			report_changes(l->out, shm, &changes_printed);
			print = output_ok(l->out);
		}
		if (l->summary != NULL)
			dp_run_log_changes(&l->log, shm);
		if (elapsed_us / 1000000 > sec) {
			sec = elapsed_us / 1000000;
			ports_read_stats(l->ps, shm);
			dp_snapshot_take(shm, now, &l->cur);
			history_push(shm, &l->prev, &l->cur, sec);
			if (l->summary != NULL)
				dp_run_log_second(&l->log, shm, &l->prev, &l->cur);
			if (print) {
				report_second(l->out, shm, cfg, &l->prev, &l->cur, sec);
				print = output_ok(l->out);
			}
			dp_snapshot_copy(&l->prev, &l->cur);
		}
	}
	report_changes(l->out, shm, &changes_printed);
}

int
control_loop_finish(struct control_loop *l)
{
	struct dp_shm *shm = l->shm;
	int rc = 0;

	shm->hdr.stop_tsc = rte_rdtsc();
	ports_read_stats(l->ps, shm);
	dp_snapshot_take(shm, shm->hdr.stop_tsc, &l->last);
	shm->hdr.state = DP_ST_DONE;
	report_summary(l->out, shm, &l->first, &l->last);
	/* A client that lost its peer and did not get it back did not run
	 * the test it was asked to: its exit says so, as does the summary. */
	if (l->failed == NULL && shm->hdr.mode == DP_MODE_CLIENT && (l->ps->ever_up & ~l->ps->link_up))
		l->failed = "a port's link was down at the end of the test (its peer was lost)";
	if (l->failed != NULL) {
		fprintf(l->out, "failed   %s\n", l->failed);
		rc = -1;
	}
	if (l->summary != NULL) {
		dp_run_log_changes(&l->log, shm);
		dp_summary_json(l->summary, shm, &l->first, &l->last, &l->log);
		dp_run_log_free(&l->log);
		/* A full disk shows only here: the results are lost, say so. */
		if (ferror(l->summary) | fclose(l->summary)) {
			fprintf(stderr, "dperf: -o %s: writing the summary failed: %s\n", l->summary_path,
				strerror(errno));
			rc = -1;
		}
		l->summary = NULL;
	}
	return rc;
}
