/* SPDX-License-Identifier: BSD-3-Clause
 * dperf-ctl: read a running primary's counters and change its test.
 *
 * Exit codes: 0 accepted, 1 refused (the primary's reason is printed),
 * 2 usage error, 3 no such primary, 4 the primary did not answer (the
 * change was not applied, and will not be: see DP_CTL_MAX_AGE_MS), 5 the
 * primary died under stats --watch or export, 6 the output could not be
 * written (closed pipe, full disk).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_cycles.h>

#include "attach.h"
#include "config.h"
#include "ctl_client.h"
#include "ctl_msg.h"
#include "ctl_merge.h"
#include "ctl_output.h"
#include "ctl_serve.h"
#include "ctl_target.h"
#include "stats_out.h"
#include "rates.h"
#include "version.h"

#define STATUS_PING_MS 1000

static volatile sig_atomic_t interrupted;

static void
on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

/* The text of `dperf-ctl --help`; docs/man/dperf-ctl.8.md carries the same
 * block, and tests/docs/check_docs.sh fails when they differ. */
static void
usage(FILE *f)
{
	fputs("usage: dperf-ctl [-p NAME] COMMAND\n"
	      "       dperf-ctl -h | --help | --version\n"
	      "  status [--json]                state, targets, workers, applied changes\n"
	      "  stats [--json|--csv] [--watch [S]]  counters and rates (every S seconds, default 1)\n"
	      "  set cps N | set cc N           change the target (dperf numbers: 200k, 1.5m)\n"
	      "  set duration T | +T | -T       run T at full rate after wait + slow start (dperf's duration),\n"
	      "                                 or move the end by T\n"
	      "  set weight KIND N              a traffic kind's weight in the pick of new connections,\n"
	      "                                 0 to 1000000 (kind lines: dperf.conf(5))\n"
	      "  pause | resume | stop          stop launching / launch again / end the test gracefully\n"
	      "  config                         the effective configuration\n"
	      "  serve ADDR:PORT [--token-file FILE] [--metrics-token]\n"
	      "                                 the HTTP API (/v1/, with the token) and /metrics\n"
	      "  export --prometheus [ADDR:PORT]  serve /metrics only (default 127.0.0.1:9470)\n"
	      "  merge A.json B.json ...        several instances' -o summaries as one\n"
	      "  -p NAME                        the instance (default: the only one running)\n",
	      f);
}

static int
usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "dperf-ctl: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n");
	usage(stderr);
	return DP_EXIT_USAGE;
}

/* A write that failed (closed pipe, full disk) ends a reader: once its
 * output goes nowhere, running on only hides that. */
static int
output_failed(void)
{
	int e;

	if (fflush(stdout) == 0 && !ferror(stdout))
		return 0;
	e = errno;
	fprintf(stderr, "dperf-ctl: writing the output failed: %s\n", strerror(e));
	return 1;
}

enum fmt { FMT_TEXT = 0, FMT_JSON, FMT_CSV };

static void
print_stats(int fmt, const struct dp_shm *s, const struct dp_snapshot *a, const struct dp_snapshot *b)
{
	static int rows;

	if (fmt == FMT_JSON)
		dp_stats_json(stdout, s, a, b);
	else if (fmt == FMT_CSV)
		dp_stats_csv(stdout, s, a, b, rows++ == 0);
	else
		ctl_print_stats_text(stdout, s, a, b);
}

static int
cmd_stats(const struct dp_shm *s, int json, int watch, double interval)
{
	static struct dp_snapshot a, b; /* large (the kinds' histograms): not on the stack */
	uint64_t hz = s->hdr.tsc_hz;

	/* One shot: the last second the primary completed, counters and
	 * latency as it recorded them. */
	if (!watch && s->hdr.state != DP_ST_DONE && dp_snapshot_last_second(s, rte_rdtsc(), &a, &b) == 0) {
		print_stats(json, s, &a, &b);
		return output_failed() ? DP_EXIT_OUTPUT : 0;
	}
	dp_snapshot_take(s, rte_rdtsc(), &a);
	if (!watch) {
		usleep(200000);
		dp_snapshot_take(s, rte_rdtsc(), &b);
		print_stats(json, s, &a, &b);
		return output_failed() ? DP_EXIT_OUTPUT : 0;
	}
	dp_background();
	while (!interrupted) {
		uint64_t until = a.tsc + (uint64_t)(interval * (double)hz);
		enum dp_end end;

		while (!interrupted && rte_rdtsc() < until && dp_primary_end(s) == DP_END_RUNNING)
			usleep(10000);
		if (interrupted)
			break;
		end = dp_primary_end(s);
		if (end != DP_END_RUNNING) {
			const char *what = end == DP_END_DONE ? "engine stopped" : "engine died";

			if (json == FMT_JSON)
				printf("{\"event\":\"%s\",\"name\":\"%s\",\"pid\":%d}\n", what, s->hdr.name,
				       (int)s->hdr.pid);
			else if (json == FMT_TEXT && end == DP_END_DONE)
				printf("%s: %s\n", s->hdr.name, what);
			else if (json == FMT_CSV && end == DP_END_DONE) /* not a CSV row */
				fprintf(stderr, "%s: %s\n", s->hdr.name, what);
			if (output_failed())
				return DP_EXIT_OUTPUT;
			return dp_report_end("dperf-ctl", s, end);
		}
		dp_snapshot_take(s, rte_rdtsc(), &b);
		print_stats(json, s, &a, &b);
		if (output_failed())
			return DP_EXIT_OUTPUT;
		dp_snapshot_copy(&a, &b);
	}
	return 0;
}

/* After an accepted change: wait (up to 1 s) until every worker has
 * applied it and report how long that took from the request's send. */
static void
report_apply(const struct dp_shm *s, uint64_t gen, uint64_t sent_tsc)
{
	uint64_t deadline = rte_rdtsc() + s->hdr.tsc_hz, last = 0;
	uint32_t nw = dp_shm_n_workers(s);

	for (;;) {
		uint32_t done = 0;
		for (uint32_t w = 0; w < nw; w++) {
			if (s->workers[w].applied_gen >= gen) {
				done++;
				if (s->workers[w].applied_tsc > last)
					last = s->workers[w].applied_tsc;
			}
		}
		if (done == nw)
			break;
		if (rte_rdtsc() > deadline) {
			printf("applied by %u of %u workers within 1 s\n", done, nw);
			return;
		}
		usleep(100);
	}
	printf("applied by all %u workers %.1f us after it was sent\n", nw,
	       last > sent_tsc ? (double)(last - sent_tsc) * 1e6 / (double)s->hdr.tsc_hz : 0.0);
}

static int
send_op(const struct dp_shm *s, uint32_t op, int64_t value, const char *kind)
{
	struct dp_ctl_rep rep;
	uint64_t sent = rte_rdtsc();
	int timeout_ms = dp_ctl_timeout_ms();

	if (dp_ctl_send_kind(op, value, kind, &rep, timeout_ms) != 0) {
		/* A primary that ended meanwhile is no longer one to ask. */
		if (dp_primary_end(s) != DP_END_RUNNING) {
			fprintf(stderr, "dperf-ctl: the primary '%s' ended before answering: %s was not applied\n",
				s->hdr.name, dp_ctl_op_name(op));
			return DP_EXIT_NOPRIMARY;
		}
		fprintf(stderr, "dperf-ctl: %s within %d s: %s was not applied and will not be (the primary refuses requests older than %d s)\n",
			rep.msg, timeout_ms / 1000, dp_ctl_op_name(op), DP_CTL_MAX_AGE_MS / 1000);
		return DP_EXIT_NOANSWER;
	}
	if (rep.status != DP_CTL_OK) {
		fprintf(stderr, "refused: %s\n", rep.msg);
		return DP_EXIT_REFUSED;
	}
	printf("accepted: %s (generation %lu)\n", rep.msg, (unsigned long)rep.generation);
	if (op != DP_OP_PING && s->hdr.state < DP_ST_STOPPING)
		report_apply(s, rep.generation, sent);
	return DP_EXIT_OK;
}

/* status reads the memzone, which a stopped primary still shows: a ping
 * tells whether the figures are live. */
static int
cmd_status(const struct dp_shm *s, int json)
{
	struct dp_ctl_rep rep;
	int alive = dp_ctl_send(DP_OP_PING, 0, &rep, STATUS_PING_MS) == 0;

	ctl_print_status(stdout, s, rte_rdtsc(), json);
	if (alive)
		return DP_EXIT_OK;
	fflush(stdout);
	fprintf(stderr, "dperf-ctl: %s within %.1f s (stopped, or too busy): the figures above may be stale\n",
		rep.msg, STATUS_PING_MS / 1000.0);
	return DP_EXIT_NOANSWER;
}

/* Parse "set ..." into an operation before attaching. */
static int
parse_set(int argc, char **argv, uint32_t *op, int64_t *value, char *kind, size_t kl)
{
	char err[160];

	if (argc == 4 && strcmp(argv[1], "weight") == 0) {
		if (ctl_parse_weight(argv[2], argv[3], op, value, kind, kl, err, sizeof(err)) != 0)
			return usage_error("set weight: %s", err);
		return 0;
	}
	if (argc != 3)
		return usage_error("set: expected 'set cps N', 'set cc N', 'set duration T' or 'set weight KIND N'%s", "");
	if (ctl_parse_target(argv[1], argv[2], op, value, err, sizeof(err)) != 0)
		return usage_error("set: %s", err);
	return 0;
}

static int
parse_stats(int argc, char **argv, int *json, int *watch, double *interval)
{
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--json") == 0) {
			*json = FMT_JSON;
		} else if (strcmp(argv[i], "--csv") == 0) {
			*json = FMT_CSV;
		} else if (strcmp(argv[i], "--watch") == 0) {
			*watch = 1;
			if (i + 1 < argc && argv[i + 1][0] != '-') {
				char *end;
				*interval = strtod(argv[++i], &end);
				if (*end != '\0' || *interval < 0.01 || *interval > 3600)
					return usage_error("stats --watch: bad interval \"%s\" (expected seconds, 0.01 to 3600)", argv[i]);
			}
		} else {
			return usage_error("stats: unknown option \"%s\"", argv[i]);
		}
	}
	return 0;
}

int
main(int argc, char **argv)
{
	const char *name = NULL, *cmd;
	const struct dp_shm *s;
	int json = 0, watch = 0, rc;
	double interval = 1.0;
	uint32_t op = DP_OP_NONE;
	int64_t value = 0;
	char kind[DP_CTL_KIND_LEN] = "";
	const char *serve_addr = NULL, *token_file = NULL;
	int metrics_token = 0, serve = 0;
	struct ctl_serve sv;

	if (argc >= 3 && strcmp(argv[1], "-p") == 0) {
		name = argv[2];
		argc -= 2;
		argv += 2;
	}
	if (argc < 2)
		return usage_error("missing COMMAND%s", "");
	cmd = argv[1];
	argc--;
	argv++;
	if (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "help") == 0) {
		usage(stdout);
		return 0;
	}
	if (strcmp(cmd, "--version") == 0) {
		printf("%s\n", dp_version());
		return 0;
	}
	/* Files only: no primary to attach to. */
	if (strcmp(cmd, "merge") == 0) {
		if (argc < 2)
			return usage_error("merge: expected 'merge A.json B.json ...'%s", "");
		return ctl_merge(stdout, stderr, argc - 1, argv + 1);
	}
	if (strcmp(cmd, "set") == 0) {
		if ((rc = parse_set(argc, argv, &op, &value, kind, sizeof(kind))) != 0)
			return rc;
	} else if (strcmp(cmd, "pause") == 0 || strcmp(cmd, "resume") == 0 || strcmp(cmd, "stop") == 0) {
		if (argc != 1)
			return usage_error("%s takes no argument", cmd);
		op = cmd[0] == 'p' ? DP_OP_PAUSE : cmd[0] == 'r' ? DP_OP_RESUME : DP_OP_STOP;
	} else if (strcmp(cmd, "stats") == 0) {
		if ((rc = parse_stats(argc, argv, &json, &watch, &interval)) != 0)
			return rc;
	} else if (strcmp(cmd, "export") == 0) {
		if (argc < 2 || argc > 3 || strcmp(argv[1], "--prometheus") != 0)
			return usage_error("export: expected 'export --prometheus [ADDR:PORT]'%s", "");
		serve_addr = argc == 3 ? argv[2] : NULL;
		serve = 1;
	} else if (strcmp(cmd, "serve") == 0) {
		if (argc < 2 || argv[1][0] == '-')
			return usage_error("serve: expected 'serve ADDR:PORT [--token-file FILE] [--metrics-token]'%s", "");
		serve_addr = argv[1];
		serve = 1;
		for (int i = 2; i < argc; i++) {
			if (strcmp(argv[i], "--token-file") == 0 && i + 1 < argc)
				token_file = argv[++i];
			else if (strcmp(argv[i], "--metrics-token") == 0)
				metrics_token = 1;
			else
				return usage_error("serve: unknown option \"%s\"", argv[i]);
		}	} else if (strcmp(cmd, "status") == 0) {
		for (int i = 1; i < argc; i++) {
			if (strcmp(argv[i], "--json") != 0)
				return usage_error("status: unknown option \"%s\" (expected --json)", argv[i]);
			json = FMT_JSON;
		}
	} else if (strcmp(cmd, "config") == 0) {
		if (argc != 1)
			return usage_error("config: unexpected argument \"%s\"", argv[1]);
	} else {
		return usage_error("unknown command \"%s\"", cmd);
	}
	/* The token and the address are checked before attaching: nothing
	 * half-started on bad input. */
	if (serve && (rc = ctl_serve_prepare(&sv, serve_addr, token_file, metrics_token)) != 0)
		return rc;
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	/* A closed pipe shows as a failed write, which ends a reader with a
	 * message; a scraper hanging up only ends its own connection. */
	signal(SIGPIPE, SIG_IGN);
	if ((rc = dp_attach("dperf-ctl", name, &s)) != 0)
		return rc;
	if (op != DP_OP_NONE)
		rc = send_op(s, op, value, kind[0] ? kind : NULL);
	else if (strcmp(cmd, "status") == 0)
		rc = cmd_status(s, json == FMT_JSON);
	else if (strcmp(cmd, "config") == 0)
		fputs(s->config_text, stdout);
	else if (serve) {
		dp_background();
		rc = ctl_serve_run(&sv, s, &interrupted);
	}
	else
		rc = cmd_stats(s, json, watch, interval);
	dp_detach();
	return rc;
}
