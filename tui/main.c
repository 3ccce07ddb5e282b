/* SPDX-License-Identifier: BSD-3-Clause
 * dperf-top: a live, top-like view of a running dperf-live primary.
 * Options, attach, the refresh loop, signals and the engine's end.
 */
#include <errno.h>
#include <getopt.h>
#include <locale.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "attach.h"
#include "curses.h"
#include "top.h"
#include "version.h"

struct opts {
	const char *name;
	double interval_s;
	int once;
	int exit_on_stop;
};

static volatile sig_atomic_t got_signal;

static void
on_signal(int sig)
{
	(void)sig;
	got_signal = 1;
}

/* The text of `dperf-top --help`; docs/man/dperf-top.8.md carries the same
 * block, and tests/docs/check_docs.sh fails when they differ. */
static void
usage(FILE *out)
{
	fputs("usage: dperf-top [-p NAME] [-d SECONDS] [--once] [--exit-on-stop]\n"
	      "       dperf-top -h | --help | --version\n"
	      "  -p NAME          instance to watch (default: the only one running)\n"
	      "  -d SECONDS       refresh interval, fractions allowed (0.01 to 3600, default 1)\n"
	      "  --once           print one plain-text frame and exit (works without a terminal)\n"
	      "  --exit-on-stop   exit as soon as the engine stops\n"
	      "  -h, --help       this help\n"
	      "  --version        the version\n",
	      out);
}

static int
bad_usage(const char *fmt, const char *arg)
{
	fprintf(stderr, "dperf-top: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n");
	usage(stderr);
	return DP_EXIT_USAGE;
}

/* Returns -1 to go on, else the exit code. */
static int
parse_opts(int argc, char **argv, struct opts *o)
{
	static const struct option longs[] = {
		{ "once", no_argument, NULL, 'o' },
		{ "exit-on-stop", no_argument, NULL, 'x' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	char *end;
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":p:d:h", longs, NULL)) != -1) {
		switch (c) {
		case 'p':
			o->name = optarg;
			break;
		case 'd':
			errno = 0;
			o->interval_s = strtod(optarg, &end);
			if (errno || end == optarg || *end != '\0' || !isfinite(o->interval_s) ||
			    o->interval_s < 0.01 || o->interval_s > 3600)
				return bad_usage("-d: not an interval in seconds (0.01 to 3600): '%s'", optarg);
			break;
		case 'o':
			o->once = 1;
			break;
		case 'x':
			o->exit_on_stop = 1;
			break;
		case 'h':
			usage(stdout);
			return DP_EXIT_OK;
		case 'V':
			printf("%s\n", dp_version());
			return DP_EXIT_OK;
		case ':':
			return bad_usage("option '%s' needs a value", argv[optind - 1]);
		default:
			return bad_usage("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		return bad_usage("unexpected argument '%s'", argv[optind]);
	return -1;
}

static void
sleep_s(double s)
{
	struct timespec ts = { .tv_sec = (time_t)s, .tv_nsec = (long)((s - (double)(time_t)s) * 1e9) };

	while (nanosleep(&ts, &ts) != 0 && errno == EINTR && !got_signal)
		;
}

static void
take(struct top *t)
{
	dp_snapshot_take(t->shm, top_tsc(), &t->b);
}

/* The engine is gone or done: freeze the figures. */
static void
check_engine(struct top *t)
{
	enum dp_end end = dp_primary_end(t->shm);

	if (end == DP_END_RUNNING)
		return;
	t->stopped = 1;
	t->end = end;
	t->prompt = PROMPT_NONE;
	t->help = 0;
	if (end == DP_END_DONE)
		top_status(t, MSG_ERR, "engine stopped (test done): final totals shown; press any key to exit");
	else
		top_status(t, MSG_ERR, "engine died (pid %d, before its test ended): last figures shown; press any key to exit",
			   (int)t->shm->hdr.pid);
}

static int
run_once(struct top *t)
{
	take(t);
	dp_snapshot_copy(&t->a, &t->b);
	sleep_s(t->interval_s);
	take(t);
	t->have_rates = 1;
	plain_frame(t, stdout);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "dperf-top: writing the output failed: %s\n", strerror(errno));
		return DP_EXIT_OUTPUT;
	}
	return DP_EXIT_OK;
}

static void
loop(struct top *t, int exit_on_stop)
{
	uint64_t tick = (uint64_t)(t->interval_s * (double)t->hz), next, now;
	int dirty = 1, ch, ms;

	if (tick == 0)
		tick = 1;
	take(t);
	dp_snapshot_copy(&t->a, &t->b);
	next = t->b.tsc + tick;
	check_engine(t);
	while (!got_signal && !t->quit && !(t->stopped && exit_on_stop)) {
		if (dirty)
			top_draw(t);
		dirty = 0;
		now = top_tsc();
		if (!t->stopped && now >= next) {
			dp_snapshot_copy(&t->a, &t->b);
			take(t);
			t->have_rates = 1;
			next = next + tick > now ? next + tick : now + tick;
			check_engine(t);
			dirty = 1;
			continue;
		}
		ms = t->stopped ? 250 : (int)((next - now) * 1000 / t->hz) + 1;
		timeout(ms > 250 ? 250 : ms);
		ch = getch();
		if (ch == ERR)
			continue;
		dirty = 1;
		if (t->stopped) {
			if (ch != KEY_RESIZE)
				break;
			continue;
		}
		keys_handle(t, ch);
	}
}

int
main(int argc, char **argv)
{
	struct opts o = { .interval_s = 1.0 };
	static struct top t;
	struct sigaction sa;
	int rc;

	rc = parse_opts(argc, argv, &o);
	if (rc >= 0)
		return rc;
	if (!o.once && !isatty(STDOUT_FILENO)) {
		fprintf(stderr, "dperf-top: standard output is not a terminal (use --once for a plain-text frame)\n");
		return DP_EXIT_USAGE;
	}
	rc = dp_attach(argv[0], o.name, &t.shm);
	if (rc != 0)
		return rc;
	dp_background();
	t.hz = t.shm->hdr.tsc_hz ? t.shm->hdr.tsc_hz : top_local_tsc_hz();
	t.interval_s = o.interval_s;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	if (o.once) {
		rc = run_once(&t);
		dp_detach();
		return rc;
	}
	setlocale(LC_ALL, "");
	if (ui_init() != 0) {
		fprintf(stderr, "dperf-top: cannot initialise the terminal (TERM=%s)\n",
			getenv("TERM") ? getenv("TERM") : "");
		dp_detach();
		return DP_EXIT_USAGE;
	}
	top_status(&t, MSG_INFO, "attached to '%.48s'; h for help", t.shm->hdr.name);
	loop(&t, o.exit_on_stop);
	ui_end();
	dp_detach();
	/* After the screen is restored, so the line stays on the terminal. */
	return t.stopped ? dp_report_end("dperf-top", t.shm, (enum dp_end)t.end) : DP_EXIT_OK;
}
