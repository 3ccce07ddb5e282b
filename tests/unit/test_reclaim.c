/* SPDX-License-Identifier: BSD-3-Clause
 * Reclaiming dead primaries' hugepage files (primary/boot/reclaim.c) beside
 * a primary still starting: EAL creates each page file, maps it, and only
 * then takes its shared lock, all under its lock on the directory. A
 * reclaim that ran meanwhile unlinked a file the other primary had just
 * made (make demo's first run: "reclaimed 2 MB"). Here a child stands in
 * for that EAL: it holds the directory's lock, makes an unlocked page file,
 * then locks the file and lets the directory go. The reclaim must wait and
 * leave the file; a file nobody locks is still reclaimed. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "boot/reclaim.h"

// links: primary/boot/reclaim.c primary/boot/hugedir.c

static char dir[] = "/tmp/test_reclaim.XXXXXX";

static void
make_file(const char *name, size_t size)
{
	char path[256];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_CREAT | O_RDWR, 0600);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, (off_t)size), 0);
	close(fd);
}

static int
exists(const char *name)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return access(path, F_OK) == 0;
}

static void
dead_file_reclaimed(void **state)
{
	struct reclaimed r = { 0 };

	(void)state;
	make_file("deadprefixmap_0", 2 << 20);
	reclaim_hugedir(dir, 0, &r);
	assert_false(exists("deadprefixmap_0"));
	assert_int_equal(r.hugepage_mb, 2);
}

static void
starting_primary_file_kept(void **state)
{
	struct reclaimed r = { 0 };
	int ready[2], go[2];
	char c;
	pid_t pid;

	(void)state;
	assert_int_equal(pipe(ready), 0);
	assert_int_equal(pipe(go), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) { /* EAL's order: directory lock, file, mmap, file lock, unlock */
		int dfd = open(dir, O_RDONLY), fd;
		char path[256];

		close(go[1]); /* a parent that fails ends this child (EOF) */
		if (dfd < 0 || flock(dfd, LOCK_EX) != 0)
			_exit(1);
		snprintf(path, sizeof(path), "%s/livemap_0", dir);
		fd = open(path, O_CREAT | O_RDWR, 0600);
		if (fd < 0 || write(ready[1], "r", 1) != 1)
			_exit(1);
		usleep(300000); /* the page's mmap: 5 ms on a first touch, longer here */
		if (flock(fd, LOCK_SH) != 0)
			_exit(1);
		close(dfd);
		if (read(go[0], &c, 1) != 1) /* holds the file until told */
			_exit(1);
		_exit(0);
	}
	assert_int_equal(read(ready[0], &c, 1), 1); /* the file exists, unlocked */
	reclaim_hugedir(dir, 0, &r);
	assert_true(exists("livemap_0"));
	assert_int_equal(r.hugepage_mb, 0);
	assert_int_equal(write(go[1], "g", 1), 1);
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	/* its process gone, the file is dead and goes */
	reclaim_hugedir(dir, 0, &r);
	assert_false(exists("livemap_0"));
}

static int
setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int
teardown(void **state)
{
	(void)state;
	return rmdir(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(dead_file_reclaimed),
		cmocka_unit_test(starting_primary_file_kept),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
