/* SPDX-License-Identifier: BSD-3-Clause */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "boot/hugedir.h"

/* EAL rounds nothing up: the mount gets the pages of -m and this many MB
 * more (its own bookkeeping within them). */
#define HUGEDIR_SLACK_MB 16

static char mounted[256];
static int lock_fd = -1;

static int
mkdir_p(const char *path)
{
	char p[256];

	snprintf(p, sizeof(p), "%s", path);
	for (char *s = p + 1; *s; s++)
		if (*s == '/') {
			*s = 0;
			if (mkdir(p, 0755) != 0 && errno != EEXIST)
				return -1;
			*s = '/';
		}
	return mkdir(p, 0755) != 0 && errno != EEXIST ? -1 : 0;
}

/* Whether this process sees the mounts its parent sees: `ip netns exec`
 * runs it in a mount namespace of its own, and a mount made there is
 * invisible to a secondary started outside (dperf-ctl could not attach to
 * a tap server in a namespace). The parent, not pid 1: in a sandbox pid
 * 1's namespace may not be readable (every primary had fallen back). A
 * parent whose namespace cannot be read (a daemon's, pid 1's): the same. */
static int
parent_mount_ns(void)
{
	struct stat self, parent;
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/ns/mnt", (int)getppid());
	if (stat("/proc/self/ns/mnt", &self) != 0 || stat(path, &parent) != 0)
		return 1;
	return self.st_ino == parent.st_ino && self.st_dev == parent.st_dev;
}

int
hugedir_mount(const char *name, unsigned long mb, char *dir, size_t len)
{
	char lock[300], opts[64];

	dir[0] = 0;
	if (!parent_mount_ns())
		return -1; /* the box's hugetlbfs, which every namespace shares */
	snprintf(lock, sizeof(lock), "%s/%s.lock", DP_HUGEDIR_BASE, name);
	snprintf(mounted, sizeof(mounted), "%s/%s", DP_HUGEDIR_BASE, name);
	if (mkdir_p(mounted) != 0)
		goto fail;
	lock_fd = open(lock, O_CREAT | O_RDWR | O_CLOEXEC, 0600);
	if (lock_fd < 0 || flock(lock_fd, LOCK_EX | LOCK_NB) != 0)
		goto fail; /* another primary of this name: preflight said no already */
	umount2(mounted, MNT_DETACH); /* a dead one's, if reclaim missed it */
	snprintf(opts, sizeof(opts), "pagesize=2M,size=%luM", (mb + HUGEDIR_SLACK_MB + 1) & ~1UL);
	if (mount("nodev", mounted, "hugetlbfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, opts) != 0)
		goto fail;
	snprintf(dir, len, "%s", mounted);
	return 0;
fail:
	if (lock_fd >= 0) {
		close(lock_fd);
		unlink(lock);
		lock_fd = -1;
	}
	rmdir(mounted);
	mounted[0] = 0;
	return -1;
}

/* A mount's pages in use, from its statfs: what detaching it frees. */
static unsigned long
used_mb(const char *dir)
{
	struct statfs st;

	if (statfs(dir, &st) != 0 || (unsigned long)st.f_type != 0x958458f6UL /* HUGETLBFS_MAGIC */)
		return 0;
	return (unsigned long)((st.f_blocks - st.f_bfree) * (unsigned long)st.f_bsize >> 20);
}

static void
remove_mount(const char *dir, const char *lock)
{
	umount2(dir, MNT_DETACH);
	rmdir(dir);
	unlink(lock);
}

void
hugedir_unmount(void)
{
	char lock[300];

	if (!mounted[0])
		return;
	snprintf(lock, sizeof(lock), "%s.lock", mounted);
	remove_mount(mounted, lock);
	mounted[0] = 0;
	if (lock_fd >= 0) {
		close(lock_fd);
		lock_fd = -1;
	}
}

void
hugedir_reclaim_dead(int dry_run, struct reclaimed *r)
{
	DIR *d = opendir(DP_HUGEDIR_BASE);
	struct dirent *e;

	if (d == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		char dir[300], lock[300];
		size_t n = strlen(e->d_name);
		int fd;

		if (n < 6 || strcmp(e->d_name + n - 5, ".lock") != 0)
			continue;
		snprintf(lock, sizeof(lock), "%s/%s", DP_HUGEDIR_BASE, e->d_name);
		snprintf(dir, sizeof(dir), "%s/%.*s", DP_HUGEDIR_BASE, (int)(n - 5), e->d_name);
		fd = open(lock, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (flock(fd, LOCK_EX | LOCK_NB) == 0) { /* its primary is gone */
			r->hugepage_mb += used_mb(dir);
			if (!dry_run)
				remove_mount(dir, lock);
		}
		close(fd);
	}
	closedir(d);
}
