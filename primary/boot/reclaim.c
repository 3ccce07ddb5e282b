/* SPDX-License-Identifier: BSD-3-Clause */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <mntent.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "boot/hugedir.h"
#include "boot/reclaim.h"
#include "runtime_dir.h"

/* How long reclaim waits for another primary's EAL to finish mapping its
 * pages: legacy memory maps every free page, 5 ms each on a VM's first
 * touch (4,096 pages: 20 s). */
#define RECLAIM_LOCK_WAIT_MS 60000

/* The hugepage directory's lock, as EAL takes it (hugepage_info_init():
 * flock(LOCK_EX) on the directory) for as long as its start maps pages.
 * A page file is unlocked between its creation and EAL's flock(LOCK_SH),
 * which comes after its mmap: without this lock, a primary starting
 * beside another one still mapping (make demo's client beside its
 * server, on a fresh box) unlinked one of the other's files ("reclaimed
 * 2 MB"), which then no secondary could map. Waits in steps, so that a
 * stuck holder costs a line and a minute, not the start. */
static int
lock_hugedir(DIR *d, const char *dir)
{
	for (int ms = 0; ms < RECLAIM_LOCK_WAIT_MS; ms += 10) {
		if (flock(dirfd(d), LOCK_EX | LOCK_NB) == 0)
			return 0;
		if (errno != EWOULDBLOCK)
			return -1; /* not a holder to wait for */
		if (ms == 1000)
			fprintf(stderr, "reclaim: waiting for another DPDK process starting on %s\n", dir);
		usleep(10000);
	}
	fprintf(stderr, "reclaim: %s still locked by another DPDK process after %d s: nothing reclaimed there\n",
		dir, RECLAIM_LOCK_WAIT_MS / 1000);
	return -1;
}

/* EAL takes a shared flock on every hugepage file each process maps (see
 * its clear_hugedir(), which applies the same test to its own directory
 * but only once EAL runs: after our free-page check, and never after a
 * failed start). */
void
reclaim_hugedir(const char *dir, int dry_run, struct reclaimed *r)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	unsigned long bytes = 0;

	if (d == NULL)
		return;
	if (lock_hugedir(d, dir) < 0) {
		closedir(d);
		return;
	}
	while ((e = readdir(d)) != NULL) {
		struct stat st;
		int fd;

		if (strstr(e->d_name, "map_") == NULL)
			continue;
		fd = openat(dirfd(d), e->d_name, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (flock(fd, LOCK_EX | LOCK_NB) == 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
			bytes += (unsigned long)st.st_size;
			if (!dry_run)
				unlinkat(dirfd(d), e->d_name, 0);
		}
		close(fd);
	}
	closedir(d); /* and its lock */
	r->hugepage_mb += bytes >> 20;
}

/* A primary holds a write lock on its runtime directory's config file for
 * as long as it lives. A directory without that file belongs to a primary
 * still starting, or to one whose EAL failed early: dead once it is older
 * than any start-up takes to create the file. */
static int
dir_dead(const char *dir)
{
	struct flock lk = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	char path[700];
	struct stat st;
	int fd, dead;

	snprintf(path, sizeof(path), "%s/config", dir);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return stat(dir, &st) == 0 && S_ISDIR(st.st_mode) && st.st_mtime + 10 < time(NULL);
	dead = fcntl(fd, F_GETLK, &lk) == 0 && lk.l_type == F_UNLCK;
	close(fd);
	return dead;
}

static void
remove_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (d == NULL)
		return;
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			unlinkat(dirfd(d), e->d_name, 0);
	closedir(d);
	rmdir(dir);
}

static void
reclaim_runtime_dirs(int dry_run, struct reclaimed *r)
{
	char base[256], dir[600];
	DIR *d = opendir(dp_runtime_base(base, sizeof(base)));
	struct dirent *e;

	if (d == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(dir, sizeof(dir), "%s/%s", base, e->d_name);
		if (!dir_dead(dir))
			continue;
		r->dirs++;
		if (!dry_run)
			remove_dir(dir);
	}
	closedir(d);
}

void
reclaim_dead(int dry_run, struct reclaimed *r)
{
	FILE *f = setmntent("/proc/mounts", "r");
	struct mntent *m;

	memset(r, 0, sizeof(*r));
	hugedir_reclaim_dead(dry_run, r); /* before the walk below: a dead one's mount goes whole */
	if (f != NULL) {
		while ((m = getmntent(f)) != NULL)
			if (strcmp(m->mnt_type, "hugetlbfs") == 0)
				reclaim_hugedir(m->mnt_dir, dry_run, r);
		endmntent(f);
	}
	reclaim_runtime_dirs(dry_run, r);
}
