/* SPDX-License-Identifier: BSD-3-Clause
 * dperf: the primary. Reads the configuration, starts EAL, ports and
 * workers, publishes everything in the memzone, runs the control loop.
 *
 *   dperf -c FILE [-p NAME] [-t] [-- EAL args...]
 */
#define _GNU_SOURCE /* sched_getaffinity, CPU_ISSET */
#include <pthread.h>
#include <sched.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_memzone.h>

#include "config.h"
#include "control/config_rules.h"
#include "control/control_loop.h"
#include "control/ctl_server.h"
#include "dev/dev_fault.h"
#include "boot/eal_args.h"
#include "escape.h"
#include "numbers.h"
#include "boot/instance.h"
#include "dev/port.h"
#include "boot/hugedir.h"
#include "boot/reclaim.h"
#include "boot/shm_init.h"
#include "control/telemetry.h"
#include "version.h"
#include "boot/worker_setup.h"
#include "tls/tls_mem.h"
#include "tls/tls_tcp.h"
#include "engine/worker.h"

#define EXIT_CONFIG 2
#define EXIT_RUNTIME 1
/* How long closing the ports and EAL may take once the results are out
 * (a PCI NIC's close can take a second or two). */
#define DP_TEARDOWN_S 10

/* DPERF_TEARDOWN_S (whole seconds, 1 to 10) shortens it: for
 * test_secondary_stuck, whose client's teardown is made to hang and so
 * always waits the whole watchdog. */
static unsigned int
teardown_s(void)
{
	return dp_env_seconds("DPERF_TEARDOWN_S", DP_TEARDOWN_S);
}

/* Every message may quote the configuration or the command line: what is
 * not printable is shown escaped, never sent to the terminal raw. */
static void
print_err(const char *prog, const char *err)
{
	char safe[2 * DP_ERR_LEN];

	dp_escape(safe, sizeof(safe), err);
	if (prog != NULL)
		fprintf(stderr, "%s: %s\n", prog, safe);
	else
		fprintf(stderr, "%s\n", safe);
}

/* The text of `dperf --help`; docs/man/dperf.8.md carries the same block,
 * and tests/docs/check_docs.sh fails when they differ. */
static void
usage(FILE *f)
{
	fputs("usage: dperf -c FILE [-p NAME] [-o JSON] [-t] [-- EAL-ARGS...]\n"
	      "       dperf -h | --help | --version | -k | --keywords\n"
	      "  -c FILE     configuration (dperf's format, see dperf.conf(5))\n"
	      "  -p NAME     instance name (EAL file prefix; default: FILE's base name)\n"
	      "  -o JSON     write the final summary there as one JSON object\n"
	      "  -t          check the configuration and exit (0 valid, 2 invalid)\n"
	      "  -k, --keywords  every configuration keyword with its range and default\n"
	      "  -h, --help  this help\n"
	      "  --version   the version\n",
	      f);
}

struct app {
	struct dp_config cfg;
	char name[64];
	char runtime_dir[512];
	const char *out; /* -o, or NULL */
	FILE *summary;   /* -o opened before EAL starts (an unwritable path fails first) */
	struct dp_shm *shm;
	struct control ctl;       /* a running test's changes (control/) */
	struct control_loop loop; /* the main lcore's loop over it */
	struct port_set ports;
	struct worker *workers[DP_MAX_WORKERS];
	uint32_t n_workers;
	int eal_up;
};

static int
start_workers(struct app *a, char *err, size_t errlen)
{
	uint32_t per_port = a->cfg.n_cpus / a->cfg.n_ports;
	unsigned int lcore = 0;

	for (uint32_t i = 0; i < a->cfg.n_cpus; i++) {
		struct worker_params wp = {
			.cfg = &a->cfg, .shm = a->shm, .mixp = &a->ctl.mix, .np = &a->ports.np[i / per_port],
			.mp = a->ports.mp[i / per_port], .id = i, .port_idx = i / per_port,
			.queue = (uint16_t)(i % per_port),
		};
		struct worker *wk;

		lcore = rte_get_next_lcore(lcore, 1, 0);
		wk = rte_zmalloc_socket("dp_worker", sizeof(*wk), 64, (int)rte_lcore_to_socket_id(lcore));
		if (wk == NULL) {
			snprintf(err, errlen, "out of hugepage memory for worker %u", i);
			return -1;
		}
		a->workers[i] = wk;
		a->n_workers = i + 1;
		if (worker_setup(wk, &wp, err, errlen) != 0)
			return -1;
		if (DP_PROTO_IS_TLS(a->cfg.protocol)) {
			if (tls_part_init(&wk->tls, &wk->net, err, errlen) != 0)
				return -1;
			if (i == 0)
				printf("TLS: %lld bytes per connection (measured, idle between requests)\n",
				       (long long)wk->tls.conn_bytes);
		}
	}
	/* Every connection's bytes measured: the workers' allocations go
	 * uncounted from here (tls_mem.h). */
	tls_mem_stop();
	ports_mark_pools(&a->ports, a->shm);
	if (dev_fault_install() != 0) {
		snprintf(err, errlen, "sigaction(SIGSEGV): %s", strerror(errno));
		return -1;
	}
	for (uint32_t i = 0; i < a->n_workers; i++)
		dev_fault_find_pmd(&a->workers[i]->fault, a->workers[i]->net.txq.port_id);
	a->shm->hdr.start_tsc = rte_rdtsc();
	control_loop_begin(&a->loop, &a->ctl, &a->ports);
	a->loop.summary = a->summary;
	a->loop.summary_path = a->out;
	lcore = 0;
	for (uint32_t i = 0; i < a->n_workers; i++) {
		a->workers[i]->start_tsc = a->shm->hdr.start_tsc;
		lcore = rte_get_next_lcore(lcore, 1, 0);
		rte_eal_remote_launch(worker_main, a->workers[i], lcore);
	}
	return 0;
}

/* The CPUs we may run on, for the main lcore's placement. */
static void
set_affinity_known(struct eal_args *ea)
{
	cpu_set_t set;

	memset(ea, 0, sizeof(*ea));
	if (sched_getaffinity(0, sizeof(set), &set) != 0)
		return;
	ea->affinity_known = 1;
	for (int c = 0; c < EAL_MAX_CPU && c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set))
			ea->allowed[c / 64] |= 1ULL << (c % 64);
}

/* The exit status the watchdog below ends the process with: the test's. */
static volatile sig_atomic_t teardown_exit;

static void
on_cleanup_timeout(int sig)
{
	static const char msg[] = "dperf: shutting down timed out (a secondary died holding a lock in DPDK's shared memory); exiting\n";

	(void)sig;
	if (write(STDERR_FILENO, msg, sizeof(msg) - 1) < 0)
		_exit(teardown_exit);
	_exit(teardown_exit);
}

/* Once the workers have stopped, their cores are idle: the main thread
 * moves there to close the ports, rather than preempt whatever else runs
 * on the core it was on (on a shared box, often the peer's worker, which
 * DPDK 22.11's memif PMD does not survive mid-burst at a disconnect). */
static void
move_to_idle_worker_cores(const struct dp_config *cfg)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	for (uint32_t i = 0; i < cfg->n_cpus; i++)
		if (cfg->cpus[i] < CPU_SETSIZE)
			CPU_SET(cfg->cpus[i], &set);
	if (CPU_COUNT(&set) > 0)
		(void)pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

/* Returns -1 when the summary could not be written (-o). */
static int
shutdown_app(struct app *a, int finished)
{
	int rc = 0;

	dp_workers_quit = 1;
	if (a->eal_up)
		rte_eal_mp_wait_lcore();
	if (a->n_workers > 0)
		move_to_idle_worker_cores(&a->cfg);
	if (finished) /* totals once no worker counts anymore */
		rc = control_loop_finish(&a->loop);
	ctl_server_stop();
	fflush(stdout);
	if (a->eal_up) {
		/* The results are out. Everything from here on touches DPDK's
		 * shared memory, whose locks a secondary killed at the wrong
		 * moment can leave held for good (a CI run's client was still
		 * running 30 s after SIGINT once a tool killed inside its EAL
		 * start had left one held). So our files go first, and a
		 * watchdog ends the process with the test's status if the rest
		 * hangs; ending releases it all. */
		instance_cleanup(a->runtime_dir, a->name);
		teardown_exit = finished && rc == 0 ? 0 : EXIT_RUNTIME;
		signal(SIGALRM, on_cleanup_timeout);
		alarm(teardown_s());
	}
	telemetry_stop();
	for (uint32_t i = 0; i < a->n_workers; i++) {
		tls_part_fini(&a->workers[i]->tls, &a->workers[i]->net);
		worker_teardown(a->workers[i]);
	}
	ports_close(&a->ports);
	fflush(stdout);
	if (a->eal_up) {
		rte_eal_cleanup();
		alarm(0);
	}
	return rc;
}

/* dperf's "daemon": run in the background, output to a log file. The
 * parent returns once the child is detached and says where to look. */
static int
daemonize(const char *name, char *err, size_t errlen)
{
	char path[256];
	pid_t pid;
	int fd;

	mkdir("/var/log/dperf", 0755);
	snprintf(path, sizeof(path), "/var/log/dperf/dperf-%s.log", name);
	fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0644);
	if (fd < 0) {
		snprintf(err, errlen, "daemon: cannot open %s: %s", path, strerror(errno));
		return -1;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		snprintf(err, errlen, "daemon: fork: %s", strerror(errno));
		return -1;
	}
	if (pid > 0) {
		printf("dperf %s: running in the background, pid %d, output in %s\n", name, (int)pid, path);
		exit(0);
	}
	setsid();
	dup2(fd, STDOUT_FILENO);
	dup2(fd, STDERR_FILENO);
	close(fd);
	fd = open("/dev/null", O_RDONLY);
	if (fd >= 0) {
		dup2(fd, STDIN_FILENO);
		close(fd);
	}
	return 0;
}

/* Before the free-page check: what dead primaries (killed with SIGKILL,
 * crashed) still hold is free for us. */
static void
reclaim_at_start(const char *prog)
{
	struct reclaimed r;

	reclaim_dead(0, &r);
	if (r.hugepage_mb > 0 || r.dirs > 0)
		printf("%s: reclaimed %lu MB of hugepages and %u runtime director%s left by dead primaries\n",
		       prog, r.hugepage_mb, r.dirs, r.dirs == 1 ? "y" : "ies");
}

/* dperf -k: the keyword table's own listing (one source for parse and help). */
static void
print_keywords(void)
{
	static char buf[16384];

	dp_config_keywords(buf, sizeof(buf));
	fputs(buf, stdout);
}

static int
parse_args(int argc, char **argv, const char **file, const char **name, const char **out, int *check)
{
	static const struct option longs[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ "keywords", no_argument, NULL, 'k' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	while ((opt = getopt_long(argc, argv, "c:p:o:thk", longs, NULL)) != -1) {
		switch (opt) {
		case 'c': *file = optarg; break;
		case 'p': *name = optarg; break;
		case 'o': *out = optarg; break;
		case 't': *check = 1; break;
		case 'h': usage(stdout); exit(0);
		case 'V': printf("%s\n", dp_version()); exit(0);
		case 'k': print_keywords(); exit(0);
		default: usage(stderr); return -1;
		}
	}
	if (*file == NULL) {
		fprintf(stderr, "dperf: missing -c FILE\n");
		usage(stderr);
		return -1;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	static struct app a;
	const char *file = NULL, *name = NULL, *out = NULL;
	char err[DP_ERR_LEN];
	struct eal_args ea;
	int check = 0, rc;

	/* Before anything of OpenSSL allocates: its heap counted per thread
	 * (a TLS connection's bytes are measured, tls_measure.h). */
	(void)tls_mem_init();
	if (parse_args(argc, argv, &file, &name, &out, &check) != 0)
		return EXIT_CONFIG;
	if (dp_config_load(file, &a.cfg, err, sizeof(err)) != 0 ||
	    config_rules_check(&a.cfg, err, sizeof(err)) != 0) {
		print_err(NULL, err);
		return EXIT_CONFIG;
	}
	fputs(a.cfg.warnings, stderr); /* dperf prints them, -t included */
	if (name != NULL)
		snprintf(a.name, sizeof(a.name), "%s", name);
	else
		instance_default_name(file, a.name, sizeof(a.name));
	if (instance_check_name(a.name, err, sizeof(err)) != 0) {
		print_err(argv[0], err);
		return EXIT_CONFIG;
	}
	if (check) {
		if (instance_preflight(&a.cfg, a.name, out, 1, err, sizeof(err)) != 0) {
			print_err(argv[0], err);
			return EXIT_CONFIG;
		}
		printf("%s: ok\n", file);
		return 0;
	}
	/* Before the signal handlers: a Ctrl-C while reclaim waits for another
	 * primary's start (up to a minute) ends this one at once; nothing of
	 * it has started. */
	reclaim_at_start(argv[0]);
	/* From here on, a signal stops the test (or is ignored): see there. */
	control_loop_signals();
	if (instance_preflight(&a.cfg, a.name, out, 0, err, sizeof(err)) != 0) {
		print_err(argv[0], err);
		return EXIT_CONFIG;
	}
	a.out = out;
	if (out != NULL && (a.summary = fopen(out, "w")) == NULL) {
		snprintf(err, sizeof(err), "-o %s: %s", out, strerror(errno));
		print_err(argv[0], err);
		return EXIT_CONFIG;
	}
	if (a.cfg.daemon && daemonize(a.name, err, sizeof(err)) != 0) {
		print_err(argv[0], err);
		return EXIT_RUNTIME;
	}
	set_affinity_known(&ea);
	/* Its own hugetlbfs, so that EAL maps what it needs, not every page
	 * free (boot/hugedir.h); without one (no privilege), the box's. */
	(void)hugedir_mount(a.name, instance_hugepage_mb(&a.cfg), ea.huge_dir, sizeof(ea.huge_dir));
	if (eal_args_build(&ea, argv[0], &a.cfg, a.name, sysconf(_SC_NPROCESSORS_ONLN),
			   argc - optind, argv + optind) != 0) {
		fprintf(stderr, "%s: too many EAL arguments\n", argv[0]);
		return EXIT_CONFIG;
	}
	if (rte_eal_init(ea.argc, ea.argv) < 0) {
		fprintf(stderr, "%s: EAL initialisation failed: %s\n", argv[0], rte_strerror(rte_errno));
		/* It may have failed after creating its runtime directory and
		 * taking hugepages: nothing may stay behind. */
		instance_cleanup_failed(a.name);
		return EXIT_RUNTIME;
	}
	a.eal_up = 1;
	snprintf(a.runtime_dir, sizeof(a.runtime_dir), "%s", rte_eal_get_runtime_dir());
	a.shm = shm_create(&a.cfg, a.name, err, sizeof(err));
	rc = a.shm == NULL ? -1 : 0;
	if (rc == 0)
		rc = ports_init(&a.ports, &a.cfg, a.cfg.n_cpus / a.cfg.n_ports, err, sizeof(err));
	if (rc == 0) {
		control_init(&a.ctl, a.shm, &a.cfg);
		rc = ctl_server_start(&a.ctl, err, sizeof(err));
	}
	if (rc == 0)
		rc = start_workers(&a, err, sizeof(err));
	if (rc != 0) {
		print_err(argv[0], err);
		shutdown_app(&a, 0);
		return EXIT_RUNTIME;
	}
	telemetry_start(a.shm);
	instance_mark(a.runtime_dir);
	control_loop_run(&a.loop);
	return shutdown_app(&a, 1) == 0 ? 0 : EXIT_RUNTIME;
}
