/* SPDX-License-Identifier: BSD-3-Clause */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <mntent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "eal_args.h"
#include "instance.h"
#include "meminfo.h"
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

/* A cc target must fit the client tuples and this box's memory. */
static int
cc_fits(const struct dp_config *cfg, char *err, size_t errlen)
{
	uint64_t tuples = dp_config_tuple_space(cfg) * cfg->n_cpus;
	unsigned long need_mb, have_mb;

	if (cfg->mode != DP_MODE_CLIENT || cfg->cc == 0)
		return 0;
	if (cfg->cc > tuples) {
		snprintf(err, errlen,
			 "cc %lu exceeds the %lu client tuples (client addresses x local ports x listen ports x cores): add addresses or ports",
			 (unsigned long)cfg->cc, (unsigned long)tuples);
		return -1;
	}
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

int
instance_preflight(const struct dp_config *cfg, const char *name, char *err, size_t errlen)
{
	unsigned long need = eal_mem_needed_mb(cfg), have;

	if (cc_fits(cfg, err, errlen) != 0)
		return -1;

	if (dp_instance_alive(name)) {
		snprintf(err, errlen, "an instance named '%s' is already running (choose another with -p NAME)",
			 name);
		return -1;
	}
	if (!hugetlbfs_mounted()) {
		snprintf(err, errlen, "no hugetlbfs is mounted (run scripts/hugepages.sh as root)");
		return -1;
	}
	have = free_hugepage_mb();
	if (have < need) {
		snprintf(err, errlen,
			 "not enough hugepages: this configuration needs about %lu MB, %lu MB are free (run scripts/hugepages.sh, or HUGEPAGES_MB=%lu scripts/hugepages.sh)",
			 need, have, need * 2);
		return -1;
	}
	return memif_dirs(cfg, err, errlen);
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

static void
remove_prefixed(const char *dir, const char *prefix)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = strlen(prefix);

	if (d == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		char path[1024];
		if (e->d_name[0] == '.' || strncmp(e->d_name, prefix, n) != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		unlink(path);
	}
	closedir(d);
}

void
instance_cleanup(const char *runtime_dir, const char *name)
{
	char prefix[128];
	FILE *f;
	struct mntent *e;

	if (runtime_dir != NULL && runtime_dir[0]) {
		remove_prefixed(runtime_dir, "");
		rmdir(runtime_dir);
	}
	snprintf(prefix, sizeof(prefix), "%smap_", name);
	f = setmntent("/proc/mounts", "r");
	if (f == NULL)
		return;
	while ((e = getmntent(f)) != NULL)
		if (strcmp(e->mnt_type, "hugetlbfs") == 0)
			remove_prefixed(e->mnt_dir, prefix);
	endmntent(f);
}
