/* SPDX-License-Identifier: BSD-3-Clause */
#include <dirent.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_memzone.h>

#include "attach.h"
#include "numbers.h"
#include "runtime_dir.h"

#define MAX_INSTANCES 16

static int eal_up;

/* A primary started by root keeps its runtime directory, hugepage files
 * and control socket in /var/run/dpdk, mode 0700: other users cannot
 * attach or send requests. Say so rather than only "not running". */
static const char *
access_note(char *buf, size_t len)
{
	struct stat st;

	buf[0] = 0;
	if (getuid() != 0 && stat("/var/run/dpdk", &st) == 0 && st.st_uid != getuid())
		snprintf(buf, len,
			 " that uid %u can see (/var/run/dpdk belongs to uid %u, mode %04o: only a primary's owner can attach)",
			 (unsigned)getuid(), (unsigned)st.st_uid, (unsigned)(st.st_mode & 07777));
	return buf;
}

static int
pick_instance(const char *prog, const char *name, char *out, size_t len)
{
	char names[MAX_INSTANCES][64], note[160];
	int n;

	if (name != NULL) {
		if (!dp_instance_alive(name)) {
			fprintf(stderr, "%s: no dperf primary named '%s' is running%s\n", prog, name,
				access_note(note, sizeof(note)));
			return DP_EXIT_NOPRIMARY;
		}
		snprintf(out, len, "%s", name);
		return 0;
	}
	n = dp_instances(names, MAX_INSTANCES);
	if (n == 0) {
		fprintf(stderr, "%s: no dperf primary is running%s\n", prog,
			access_note(note, sizeof(note)));
		return DP_EXIT_NOPRIMARY;
	}
	if (n > 1) {
		fprintf(stderr, "%s: %d dperf primaries are running, choose one with -p NAME:", prog, n);
		for (int i = 0; i < n; i++)
			fprintf(stderr, " %s", names[i]);
		fprintf(stderr, "\n");
		return DP_EXIT_USAGE;
	}
	snprintf(out, len, "%s", names[0]);
	return 0;
}

/* A start that failed because the primary was ending: EAL made the
 * runtime directory again (the primary had just removed it) and put our
 * IPC socket in it. Remove both, or the directory outlives everyone; a
 * directory that holds anything else is not ours to remove. */
static void
forget_own_files(const char *name)
{
	char base[256], dir[512], mine[64];

	snprintf(dir, sizeof(dir), "%s/%s", dp_runtime_base(base, sizeof(base)), name);
	snprintf(mine, sizeof(mine), "mp_socket_%d_", (int)getpid());
	dp_remove_prefixed(dir, mine);
	(void)rmdir(dir);
}

/*
 * A primary that ends while we attach: EAL's secondary start then waits on
 * requests it will not answer (the vdev scan's, 5 s) before failing. A
 * thread looks every 50 ms whether the primary is still there (its marker
 * and its lock on its config file: dp_instance_alive) and ends the tool
 * with exit 3 as soon as it is not. (A CI run's test_ctl saw a request
 * racing a stop take 11.9 s to say the primary had ended.)
 */
static pthread_mutex_t watch_lock = PTHREAD_MUTEX_INITIALIZER;
static int watching;
static char watch_prog[64], watch_name[64];

static void forget_own_files(const char *name);

static void *
watch_primary(void *arg)
{
	(void)arg;
	for (;;) {
		usleep(50 * 1000);
		pthread_mutex_lock(&watch_lock);
		if (!watching) {
			pthread_mutex_unlock(&watch_lock);
			return NULL;
		}
		if (!dp_instance_alive(watch_name)) {
			fprintf(stderr, "%s: cannot attach to '%s': the primary exited while we attached\n",
				watch_prog, watch_name);
			forget_own_files(watch_name);
			_exit(DP_EXIT_NOPRIMARY);
		}
		pthread_mutex_unlock(&watch_lock);
	}
}

static void
watch_start(const char *prog, const char *name)
{
	pthread_t t;

	snprintf(watch_prog, sizeof(watch_prog), "%s", prog);
	snprintf(watch_name, sizeof(watch_name), "%s", name);
	watching = 1;
	if (pthread_create(&t, NULL, watch_primary, NULL) == 0)
		pthread_detach(t);
	else
		watching = 0;
}

/* The thread ends by itself within 50 ms; it ends nothing after this. */
static void
watch_stop(void)
{
	pthread_mutex_lock(&watch_lock);
	watching = 0;
	pthread_mutex_unlock(&watch_lock);
}

static int
start_eal(const char *prog, const char *name)
{
	char prefix[96], lcores[64], argv0[64];
	char *argv[] = { argv0, "--proc-type=secondary", prefix, lcores, "--no-pci",
			 "--no-telemetry", "--log-level=lib.*:error", "--log-level=user*:error", NULL };
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	snprintf(argv0, sizeof(argv0), "%s", prog);
	snprintf(prefix, sizeof(prefix), "--file-prefix=%s", name);
	/* Float over every CPU: a viewer must not sit on a worker's core. */
	snprintf(lcores, sizeof(lcores), "--lcores=0@(0-%ld)", ncpu > 1 ? ncpu - 1 : 0);
	if (rte_eal_init((int)RTE_DIM(argv) - 1, argv) < 0) {
		fprintf(stderr, "%s: cannot attach to '%s': %s\n", prog, name,
			rte_errno ? rte_strerror(rte_errno) : "the primary exited while we attached");
		forget_own_files(name);
		return -1;
	}
	eal_up = 1;
	return 0;
}

/*
 * A tool SIGKILLed inside EAL's secondary start-up (e.g. in its memzone
 * init, which write-locks the memzone table in the primary's shared
 * memory) leaves that lock held for good: every later rte_eal_init of a
 * secondary then spins forever (seen once in test_secondary_kill's 100
 * kills). DPDK cannot recover it; we at least say so and exit instead of
 * spinning. The engine is not affected.
 */
#define ATTACH_TIMEOUT_S 15
static char stuck_msg[512];

/* DPERF_ATTACH_TIMEOUT_S (whole seconds, 1 to 15) shortens it: for
 * test_secondary_stuck, which makes the stuck lock certain and would
 * otherwise wait the whole 15 s. */
static unsigned int
attach_timeout_s(void)
{
	return dp_env_seconds("DPERF_ATTACH_TIMEOUT_S", ATTACH_TIMEOUT_S);
}

static void
on_attach_stuck(int sig)
{
	ssize_t rc;

	(void)sig;
	rc = write(STDERR_FILENO, stuck_msg, strlen(stuck_msg));
	(void)rc;
	_exit(DP_EXIT_NOPRIMARY);
}

static void
attach_watchdog(const char *prog, const char *inst)
{
	struct sigaction sa;
	unsigned int timeout_s = attach_timeout_s();

	snprintf(stuck_msg, sizeof(stuck_msg),
		 "%s: attaching to '%s' is stuck inside DPDK after %d s: a tool killed while it attached can leave a lock in the primary's shared memory held; the engine keeps running, but no tool can attach until it restarts\n",
		 prog, inst, (int)timeout_s);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_attach_stuck;
	sigaction(SIGALRM, &sa, NULL);
	alarm(timeout_s);
}

int
dp_attach(const char *prog, const char *name, const struct dp_shm **out)
{
	char inst[64];
	const struct rte_memzone *mz = NULL;
	const struct dp_shm *s;
	int rc = pick_instance(prog, name, inst, sizeof(inst));

	if (rc != 0)
		return rc;
	attach_watchdog(prog, inst);
	watch_start(prog, inst);
	if (start_eal(prog, inst) != 0) {
		watch_stop();
		alarm(0);
		return DP_EXIT_NOPRIMARY;
	}
	watch_stop();
	/* The memzone may not exist yet right after the primary's EAL init. */
	for (int i = 0; i < 50 && mz == NULL; i++) {
		mz = rte_memzone_lookup(DP_SHM_NAME);
		if (mz == NULL)
			usleep(100 * 1000);
	}
	alarm(0);
	if (mz == NULL) {
		fprintf(stderr, "%s: '%s' is a DPDK primary without a dperf memzone\n", prog, inst);
		return DP_EXIT_NOPRIMARY;
	}
	s = mz->addr;
	if (mz->len < sizeof(s->hdr) || s->hdr.magic != DP_SHM_MAGIC) {
		fprintf(stderr, "%s: '%s': memzone %s has a foreign layout (bad magic)\n", prog,
			inst, DP_SHM_NAME);
		return DP_EXIT_REFUSED;
	}
	if (s->hdr.abi != DP_SHM_ABI || s->hdr.size != sizeof(struct dp_shm)) {
		fprintf(stderr,
			"%s: '%s' runs memzone ABI %u (%u bytes), this tool speaks ABI %u (%zu bytes): use the tools of the same build\n",
			prog, inst, s->hdr.abi, s->hdr.size, DP_SHM_ABI, sizeof(struct dp_shm));
		return DP_EXIT_REFUSED;
	}
	*out = s;
	return 0;
}

void
dp_background(void)
{
	/* Readers share the workers' cores on small boxes: at nice 19 the
	 * scheduler gives a busy-polling worker ~98% of a shared core. Done
	 * after EAL init, which then stays quick. Every thread of the
	 * process is lowered (EAL's too). */
	char path[64];
	DIR *d;
	struct dirent *e;

	if (getenv("DPERF_NO_NICE") != NULL)
		return;
	snprintf(path, sizeof(path), "/proc/%d/task", (int)getpid());
	d = opendir(path);
	if (d == NULL) {
		(void)setpriority(PRIO_PROCESS, 0, 19);
		return;
	}
	while ((e = readdir(d)) != NULL)
		if (e->d_name[0] != '.')
			(void)setpriority(PRIO_PROCESS, (id_t)atoi(e->d_name), 19);
	closedir(d);
}

int
dp_primary_alive(void)
{
	return rte_eal_primary_proc_alive(NULL);
}

enum dp_end
dp_primary_end(const struct dp_shm *s)
{
	int alive = dp_primary_alive();

	/* Alive first: a primary that sets done and then exits is read as done. */
	if (__atomic_load_n(&s->hdr.state, __ATOMIC_ACQUIRE) == DP_ST_DONE)
		return DP_END_DONE;
	return alive ? DP_END_RUNNING : DP_END_DIED;
}

int
dp_report_end(const char *prog, const struct dp_shm *s, enum dp_end how)
{
	if (how != DP_END_DIED)
		return DP_EXIT_OK;
	fprintf(stderr, "%s: the primary '%s' (pid %d) died before its test ended: no summary, figures end here\n",
		prog, s->hdr.name, (int)s->hdr.pid);
	return DP_EXIT_DIED;
}

/* We deliberately do not call rte_eal_cleanup(): it takes the primary's
 * shared memory-hotplug lock for writing, and a secondary killed inside
 * it would leave that lock held and hang every later attach and the
 * primary's own exit. Our mappings go with the process. */
void
dp_detach(void)
{
	eal_up = 0;
}
