/* SPDX-License-Identifier: BSD-3-Clause
 * Reading a config file (dperf -c FILE): a regular file or a pipe, text,
 * at most 1 MiB, never a wait without end; then dp_config_parse, which runs
 * the parser's phases in order (config_int.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "config_int.h"
#include "escape.h"

#define CONFIG_MAX_BYTES (1 << 20)
#define PIPE_WAIT_MS 10000

static int __attribute__((format(printf, 4, 5)))
read_err(char *err, size_t errlen, const char *path, const char *fmt, ...)
{
	char msg[DP_ERR_LEN], all[2 * DP_ERR_LEN];
	va_list ap;

	if (err == NULL || errlen == 0)
		return -1;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(all, sizeof(all), "%s: %s", path, msg);
	dp_escape(err, errlen, all);
	return -1;
}

/* A regular file, or a pipe (-c /dev/stdin, a FIFO). Not a directory or a
 * device (fopen + ftell used to answer "Cannot allocate memory" and
 * "Illegal seek"), and never a wait without end: the FIFO is opened
 * without blocking, and a pipe that stays silent PIPE_WAIT_MS is refused. */
static int
read_config_text(const char *path, char **out, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	size_t len = 0;
	struct stat st;
	char *text;

	if (fd < 0)
		return read_err(err, errlen, path, "cannot open: %s", strerror(errno));
	if (fstat(fd, &st) != 0) {
		close(fd);
		return read_err(err, errlen, path, "cannot read: %s", strerror(errno));
	}
	if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode)) {
		close(fd);
		return read_err(err, errlen, path, "cannot read: %s (expected a configuration file)",
				S_ISDIR(st.st_mode) ? "a directory" :
				S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device" : "a socket");
	}
	text = malloc(CONFIG_MAX_BYTES + 1);
	if (text == NULL) {
		close(fd);
		return read_err(err, errlen, path, "cannot read: %s", strerror(errno));
	}
	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		ssize_t n = read(fd, text + len, CONFIG_MAX_BYTES + 1 - len);

		if (n > 0 && (len += (size_t)n) <= CONFIG_MAX_BYTES)
			continue;
		if (n == 0 || len > CONFIG_MAX_BYTES)
			break;
		if (errno == EINTR)
			continue;
		if (errno == EAGAIN && poll(&pfd, 1, PIPE_WAIT_MS) > 0)
			continue;
		free(text);
		close(fd);
		if (errno == EAGAIN) /* poll timed out */
			return read_err(err, errlen, path, "cannot read: nothing came through the pipe in %d s",
					PIPE_WAIT_MS / 1000);
		return read_err(err, errlen, path, "cannot read: %s", strerror(errno));
	}
	close(fd);
	if (len > CONFIG_MAX_BYTES) {
		free(text);
		return read_err(err, errlen, path, "cannot read: larger than %d bytes (expected a configuration file)",
				CONFIG_MAX_BYTES);
	}
	if (len == 0 && S_ISFIFO(st.st_mode)) {
		free(text);
		return read_err(err, errlen, path, "cannot read: the pipe is empty (nothing writes to it?)");
	}
	text[len] = '\0';
	if (strlen(text) != len) {
		free(text);
		return read_err(err, errlen, path, "cannot read: binary file (expected text)");
	}
	*out = text;
	return 0;
}

int
dp_config_load(const char *path, struct dp_config *cfg, char *err, size_t errlen)
{
	static const char bom[] = "\xef\xbb\xbf"; /* editors on Windows write it */
	char *text = NULL;
	int rc;

	if (read_config_text(path, &text, err, errlen) != 0)
		return -1;
	rc = dp_config_parse(path, strncmp(text, bom, 3) == 0 ? text + 3 : text, cfg, err, errlen);
	free(text);
	return rc;
}

/* The phases in order: defaults, each line (config_parse.c), the rules
 * that need every line (config_check.c). */
int
dp_config_parse(const char *name, const char *text, struct dp_config *cfg, char *err,
		size_t errlen)
{
	struct dp_config tmp;
	struct pctx p;

	memset(&p, 0, sizeof(p));
	p.name = name;
	p.cfg = &tmp;
	p.err = err;
	p.errlen = errlen;
	if (err != NULL && errlen > 0)
		err[0] = '\0';
	dp_config_defaults(&tmp);
	snprintf(tmp.file, sizeof(tmp.file), "%s", name);
	while (*text != '\0') {
		size_t len = strcspn(text, "\n");

		p.line++;
		if (parse_line(&p, text, len) < 0)
			return -1;
		text += len;
		if (*text == '\n')
			text++;
	}
	if (config_check(&p) < 0)
		return -1;
	memcpy(tmp.kw_line, p.kw_line, sizeof(tmp.kw_line));
	*cfg = tmp;
	return 0;
}
