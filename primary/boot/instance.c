/* SPDX-License-Identifier: BSD-3-Clause */
#define _GNU_SOURCE /* sched_getaffinity, CPU_ISSET */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <mntent.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "boot/eal_args.h"
#include "boot/hugedir.h"
#include "boot/instance.h"
#include "meminfo.h"
#include "boot/reclaim.h"
#include "runtime_dir.h"

void
instance_default_name(const char *path, char *out, size_t len)
{
	char tmp[DP_DEV_LEN], *base, *dot;

	snprintf(tmp, sizeof(tmp), "%s", path);
	base = basename(tmp);
	dot = strrchr(base, '.');
	if (dot != NULL && dot != base)
		*dot = '\0';
	snprintf(out, len, "%s", base);
}

int
instance_check_name(const char *name, char *err, size_t errlen)
{
	size_t n = strlen(name);

	if (n == 0 || n >= 40) {
		snprintf(err, errlen, "instance name '%s': expected 1 to 39 characters", name);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)name[i]) && name[i] != '-' && name[i] != '_') {
			snprintf(err, errlen, "instance name '%s': expected letters, digits, '-' or '_'",
				 name);
			return -1;
		}
	return 0;
}

static unsigned long
free_hugepage_mb(void)
{
	static const char *const sizes[] = { "hugepages-2048kB", "hugepages-1048576kB" };
	static const unsigned long mb[] = { 2, 1024 };
	unsigned long total = 0;

	for (int i = 0; i < 2; i++) {
		char path[128];
		unsigned long n = 0;
		FILE *f;

		snprintf(path, sizeof(path), "/sys/kernel/mm/hugepages/%s/free_hugepages", sizes[i]);
		f = fopen(path, "r");
		if (f == NULL)
			continue;
		if (fscanf(f, "%lu", &n) == 1)
			total += n * mb[i];
		fclose(f);
	}
	return total;
}

static int
hugetlbfs_mounted(void)
{
	FILE *f = setmntent("/proc/mounts", "r");
	struct mntent *e;
	int found = 0;

	if (f == NULL)
		return 0;
	while ((e = getmntent(f)) != NULL)
		if (strcmp(e->mnt_type, "hugetlbfs") == 0)
			found = 1;
	endmntent(f);
	return found;
}

/* mkdir -p of the directory of a memif "socket=" argument. */
static int
memif_dirs(const struct dp_config *cfg, char *err, size_t errlen)
{
	for (uint32_t i = 0; i < cfg->n_ports; i++) {
		const char *s = strstr(cfg->ports[i].dev, "socket=");
		char dir[DP_DEV_LEN];
		char *end;

		if (strncmp(cfg->ports[i].dev, "net_memif", 9) != 0 || s == NULL)
			continue;
		snprintf(dir, sizeof(dir), "%s", s + 7);
		end = strchr(dir, ',');
		if (end)
			*end = '\0';
		end = strrchr(dir, '/');
		if (end == NULL || end == dir)
			continue;
		*end = '\0';
		for (char *p = dir + 1; *p; p++) {
			if (*p != '/')
				continue;
			*p = '\0';
			mkdir(dir, 0700);
			*p = '/';
		}
		if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
			snprintf(err, errlen, "%s:%u: port: cannot create memif socket directory %s: %s",
				 cfg->file, cfg->ports[i].line, dir, strerror(errno));
			return -1;
		}
	}
	return 0;
}

/* A cc target must fit this box's memory (the client tuples: a config
 * rule, config_rules.c). */
static int
cc_fits(const struct dp_config *cfg, char *err, size_t errlen)
{
	unsigned long need_mb, have_mb;

	if (cfg->mode != DP_MODE_CLIENT || cfg->cc == 0)
		return 0;
	need_mb = (unsigned long)(cfg->cc * 64 / (1024 * 1024)) + 1;
	have_mb = mem_available_mb();
	if (have_mb && need_mb > have_mb) {
		snprintf(err, errlen,
			 "cc %lu needs about %lu MB for connection state (64 bytes each), %lu MB of memory are available",
			 (unsigned long)cfg->cc, need_mb, have_mb);
		return -1;
	}
	return 0;
}

/* EAL needs root for hugepages, /var/run/dpdk and devices; without it,
 * all it says is "Cannot init memory". */
static int
is_root(char *err, size_t errlen)
{
	if (geteuid() == 0)
		return 0;
	snprintf(err, errlen,
		 "dperf runs as root (uid 0): it maps hugepages, writes /var/run/dpdk and opens devices; you are uid %d (run it with sudo)",
		 (int)geteuid());
	return -1;
}

/* Cores that do not exist or that we may not run on: EAL would answer
 * with a hundred lines of usage. */
static int
cores_usable(const struct dp_config *cfg, char *err, size_t errlen)
{
	long n = sysconf(_SC_NPROCESSORS_CONF);
	cpu_set_t set;
	int have_set = sched_getaffinity(0, sizeof(set), &set) == 0;

	for (uint32_t i = 0; i < cfg->n_cpus; i++) {
		unsigned int c = cfg->cpus[i];

		if (n > 0 && c >= (unsigned long)n) {
			snprintf(err, errlen, "%s:%u: cpu %u: this machine has CPUs 0-%ld", cfg->file,
				 cfg->cpu_line, c, n - 1);
			return -1;
		}
		if (have_set && (c >= CPU_SETSIZE || !CPU_ISSET(c, &set))) {
			snprintf(err, errlen,
				 "%s:%u: cpu %u is not in the set this process may run on (%d CPUs allowed; see taskset or the cgroup's cpuset)",
				 cfg->file, cfg->cpu_line, c, CPU_COUNT(&set));
			return -1;
		}
	}
	return 0;
}

static unsigned long
socket_mem_mb(const char *s)
{
	unsigned long total = 0;

	while (*s) {
		total += strtoul(s, (char **)&s, 10);
		if (*s == ',')
			s++;
	}
	return total;
}

/* Free hugepages, counting those dead primaries hold (removed at start
 * before this check; counted only, by dperf -t). */
unsigned long
instance_hugepage_mb(const struct dp_config *cfg)
{
	return cfg->socket_mem[0] ? socket_mem_mb(cfg->socket_mem) : eal_mem_needed_mb(cfg);
}

static int
hugepages_enough(const struct dp_config *cfg, int check_only, char *err, size_t errlen)
{
	unsigned long need = instance_hugepage_mb(cfg);
	unsigned long have = free_hugepage_mb();
	struct reclaimed r = { 0 };

	if (!hugetlbfs_mounted()) {
		snprintf(err, errlen, "no hugetlbfs is mounted (run scripts/hugepages.sh as root)");
		return -1;
	}
	if (check_only)
		reclaim_dead(1, &r);
	have += r.hugepage_mb;
	if (have >= need)
		return 0;
	if (cfg->socket_mem[0])
		snprintf(err, errlen,
			 "%s:%u: socket_mem %s asks for %lu MB of hugepages, %lu MB are free (lower it, or HUGEPAGES_MB=%lu scripts/hugepages.sh)",
			 cfg->file, cfg->socket_mem_line, cfg->socket_mem, need, have, need * 2);
	else
		snprintf(err, errlen,
			 "not enough hugepages: this configuration needs about %lu MB, %lu MB are free (run scripts/hugepages.sh, or HUGEPAGES_MB=%lu scripts/hugepages.sh)",
			 need, have, need * 2);
	return -1;
}

/* -o: a path we cannot write would lose the results after the whole run. */
static int
out_writable(const char *path, char *err, size_t errlen)
{
	char tmp[1024], *dir;

	if (path == NULL)
		return 0;
	if (access(path, F_OK) == 0) {
		if (access(path, W_OK) == 0)
			return 0;
	} else {
		snprintf(tmp, sizeof(tmp), "%s", path);
		dir = dirname(tmp);
		if (access(dir, W_OK | X_OK) == 0)
			return 0;
	}
	snprintf(err, errlen, "-o %s: cannot write there: %s", path, strerror(errno));
	return -1;
}

int
instance_preflight(const struct dp_config *cfg, const char *name, const char *out_path,
		   int check_only, char *err, size_t errlen)
{
	if (cc_fits(cfg, err, errlen) != 0 || is_root(err, errlen) != 0 ||
	    cores_usable(cfg, err, errlen) != 0 || out_writable(out_path, err, errlen) != 0)
		return -1;
	if (!check_only && dp_instance_alive(name)) {
		snprintf(err, errlen, "an instance named '%s' is already running (choose another with -p NAME)",
			 name);
		return -1;
	}
	if (hugepages_enough(cfg, check_only, err, errlen) != 0)
		return -1;
	return check_only ? 0 : memif_dirs(cfg, err, errlen);
}

int
instance_mark(const char *runtime_dir)
{
	char path[512];
	int fd;

	chmod(runtime_dir, 0700);
	snprintf(path, sizeof(path), "%s/%s", runtime_dir, DP_INSTANCE_MARKER);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		return -1;
	dprintf(fd, "%d\n", (int)getpid());
	close(fd);
	return 0;
}

void
instance_cleanup_failed(const char *name)
{
	struct flock lk = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	char base[256], dir[512], path[600];
	int fd, other = 0;

	snprintf(dir, sizeof(dir), "%s/%s", dp_runtime_base(base, sizeof(base)), name);
	snprintf(path, sizeof(path), "%s/config", dir);
	/* Our own lock does not show in F_GETLK: only another primary's does. */
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		other = fcntl(fd, F_GETLK, &lk) == 0 && lk.l_type != F_UNLCK;
		close(fd);
	}
	hugedir_unmount(); /* ours, whatever else runs under this name */
	if (!other)
		instance_cleanup(dir, name);
}

void
instance_cleanup(const char *runtime_dir, const char *name)
{
	char prefix[128];
	FILE *f;
	struct mntent *e;

	hugedir_unmount();
	if (runtime_dir != NULL && runtime_dir[0]) {
		dp_remove_prefixed(runtime_dir, "");
		rmdir(runtime_dir);
	}
	snprintf(prefix, sizeof(prefix), "%smap_", name);
	f = setmntent("/proc/mounts", "r");
	if (f == NULL)
		return;
	while ((e = getmntent(f)) != NULL)
		if (strcmp(e->mnt_type, "hugetlbfs") == 0)
			dp_remove_prefixed(e->mnt_dir, prefix);
	endmntent(f);
}
