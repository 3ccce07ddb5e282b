/* SPDX-License-Identifier: BSD-3-Clause */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime_dir.h"

const char *
dp_runtime_base(char *buf, size_t len)
{
	const char *xdg = getenv("XDG_RUNTIME_DIR");

	/* Same rule as EAL's eal_create_runtime_dir(). */
	if (getuid() == 0)
		snprintf(buf, len, "/var/run/dpdk");
	else if (xdg != NULL)
		snprintf(buf, len, "%s/dpdk", xdg);
	else
		snprintf(buf, len, "/tmp/dpdk");
	return buf;
}

int
dp_instance_alive(const char *name)
{
	char base[256], path[512];
	struct flock lk = { .l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 0 };
	int fd, alive;

	snprintf(path, sizeof(path), "%s/%s/%s", dp_runtime_base(base, sizeof(base)), name,
		 DP_INSTANCE_MARKER);
	if (access(path, F_OK) != 0)
		return 0;
	snprintf(path, sizeof(path), "%s/%s/config", base, name);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	/* The primary holds a write lock on its config file while it runs. */
	alive = fcntl(fd, F_GETLK, &lk) == 0 && lk.l_type != F_UNLCK;
	close(fd);
	return alive;
}

int
dp_instances(char names[][64], int max)
{
	char base[256];
	DIR *d = opendir(dp_runtime_base(base, sizeof(base)));
	struct dirent *e;
	int n = 0;

	if (d == NULL)
		return 0;
	while ((e = readdir(d)) != NULL && n < max) {
		if (e->d_name[0] == '.' || strlen(e->d_name) >= 64)
			continue;
		if (dp_instance_alive(e->d_name)) {
			memcpy(names[n], e->d_name, strlen(e->d_name) + 1);
			n++;
		}
	}
	closedir(d);
	return n;
}

void
dp_remove_prefixed(const char *dir, const char *prefix)
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
