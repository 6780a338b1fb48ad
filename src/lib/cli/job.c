#include "cli/job.h"
#include "base/sbuf.h"
#include "base/printf.h"
#include "base/textout.h"
#include "base/cleanup.h"
#include "cli/stage.h"
#include "publish/site.h"
#include "cli/writelock.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <signal.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/* The stage job_run() is waiting for (0: none), for a signal handler. */
static volatile pid_t running_child;

pid_t job_child(void)
{
	return running_child;
}

/* SIGINT, SIGTERM, SIGHUP during run or publish: the stage running gets
 * the signal and is waited for, the half-built site version and the files
 * on the cleanup list (the catalogue copy) are removed; the published site
 * and the catalogue stay as they were. Exit 128 + the signal's number. */
static void on_job_signal(int sig)
{
	pid_t child = running_child;

	if (child > 0) {
		kill(child, sig);
		while (waitpid(child, NULL, 0) < 0 && errno == EINTR)
			;
	}
	site_signal_cleanup();
	mc_cleanup_run();
	_exit(128 + sig);
}

void job_catch_signals(void)
{
	stage_catch_signals(on_job_signal);
}

void job_log(const char *program, const char *fmt, ...)
{
	char when[128];
	time_t now = time(NULL);
	struct tm tm;
	va_list ap;

	gmtime_r(&now, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ ", &tm);
	mc_fmt(when + strlen(when), sizeof(when) - strlen(when), "%s", program);
	va_start(ap, fmt);
	textout_vline(stderr, when, fmt, ap);
	va_end(ap);
	fflush(stderr);
}

/* A stage's line as the run logs it: without the "NAME: " the stage's own
 * messages start with, since job_log() puts the name before every line. */
static const char *unprefixed(const char *name, const char *line)
{
	size_t n = strlen(name);

	if (!strncmp(line, name, n) && line[n] == ':' && line[n + 1] == ' ')
		return line + n + 2;
	return line;
}

/* Log the complete lines in buf (from the child's stream), keep the rest. */
static void log_lines(const char *name, sbuf *buf, sbuf *out, int flush)
{
	size_t start = 0, i;

	for (i = 0; i < buf->len; i++) {
		if (buf->data[i] != '\n')
			continue;
		buf->data[i] = '\0';
		job_log(name, "%s", unprefixed(name, buf->data + start));
		if (out) {
			sbuf_add(out, buf->data + start, i - start);
			sbuf_addc(out, '\n');
		}
		start = i + 1;
	}
	if (flush && start < buf->len) {
		sbuf_addc(buf, '\0');
		buf->len--;
		job_log(name, "%s", unprefixed(name, buf->data + start));
		if (out) {
			sbuf_add(out, buf->data + start, buf->len - start);
			sbuf_addc(out, '\n');
		}
		start = buf->len;
	}
	memmove(buf->data, buf->data + start, buf->len - start);
	buf->len -= start;
	if (buf->cap)
		buf->data[buf->len] = '\0';
}

/* Read what a child wrote on *fd and log its complete lines (also into
 * out); at the end of the stream close *fd, set it to -1 and return 1. */
static int drain(int *fd, sbuf *buf, const char *name, sbuf *out)
{
	char chunk[4096];
	ssize_t n = read(*fd, chunk, sizeof(chunk));

	if (n > 0) {
		sbuf_add(buf, chunk, (size_t)n);
		log_lines(name, buf, out, 0);
		return 0;
	}
	if (n < 0 && errno == EINTR)
		return 0;
	close(*fd);
	*fd = -1;
	return 1;
}

int job_run(const char *bindir, char *const *argv, char *const *env, sbuf *out, mc_err *err)
{
	int outpipe[2] = { -1, -1 }, errpipe[2] = { -1, -1 }, status, open_pipes = 2;
	char path[PATH_MAX], name[64];
	sbuf outbuf, errbuf;
	pid_t pid, parent;

	mc_fmt(path, sizeof(path), "%s/%s", bindir, argv[0]);
	mc_fmt(name, sizeof(name), "%s", argv[0]);
	if (pipe2(outpipe, O_CLOEXEC) || pipe2(errpipe, O_CLOEXEC)) {
		mc_error(err, "cannot run %s: %s", path, strerror(errno));
		goto fail;
	}
	fflush(NULL);
	parent = getpid();
	pid = fork();
	if (pid < 0) {
		mc_error(err, "cannot run %s: %s", path, strerror(errno));
		goto fail;
	}
	if (pid == 0) {
		size_t i;

		/* a stage dies with the run that started it: a killed run must
		 * not leave a stage writing into its build folder */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(127);
		dup2(outpipe[1], STDOUT_FILENO);
		dup2(errpipe[1], STDERR_FILENO);
		for (i = 0; env && env[i]; i++)
			putenv(env[i]);
		/* a stage of a job that holds the catalogue's writer lock
		 * writes under it: it gets the lock, not a wait for it */
		writelock_hand_on();
		execv(path, argv);
		fprintf(stderr, "cannot run %s: %s\n", path, strerror(errno));
		_exit(127);
	}
	running_child = pid;
	close(outpipe[1]);
	close(errpipe[1]);
	outpipe[1] = errpipe[1] = -1;
	sbuf_init(&outbuf);
	sbuf_init(&errbuf);
	while (open_pipes) {
		fd_set fds;
		int maxfd = -1;

		FD_ZERO(&fds);
		if (outpipe[0] >= 0) {
			FD_SET(outpipe[0], &fds);
			maxfd = outpipe[0];
		}
		if (errpipe[0] >= 0) {
			FD_SET(errpipe[0], &fds);
			if (errpipe[0] > maxfd)
				maxfd = errpipe[0];
		}
		if (select(maxfd + 1, &fds, NULL, NULL, NULL) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (outpipe[0] >= 0 && FD_ISSET(outpipe[0], &fds))
			open_pipes -= drain(&outpipe[0], &outbuf, name, out);
		if (errpipe[0] >= 0 && FD_ISSET(errpipe[0], &fds))
			open_pipes -= drain(&errpipe[0], &errbuf, name, NULL);
	}
	log_lines(name, &outbuf, out, 1);
	log_lines(name, &errbuf, NULL, 1);
	sbuf_release(&outbuf);
	sbuf_release(&errbuf);
	if (outpipe[0] >= 0)
		close(outpipe[0]);
	if (errpipe[0] >= 0)
		close(errpipe[0]);
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			running_child = 0;
			mc_error(err, "%s: %s", path, strerror(errno));
			return -1;
		}
	}
	running_child = 0;
	if (WIFSIGNALED(status)) {
		mc_error(err, "%s was killed by signal %d", path, WTERMSIG(status));
		return -1;
	}
	return WEXITSTATUS(status);
fail:
	if (outpipe[0] >= 0)
		close(outpipe[0]);
	if (outpipe[1] >= 0)
		close(outpipe[1]);
	if (errpipe[0] >= 0)
		close(errpipe[0]);
	if (errpipe[1] >= 0)
		close(errpipe[1]);
	return -1;
}

void job_remove_tree(const char *path)
{
	struct stat top;
	struct dirent *e;
	DIR *d;

	/* a symbolic link (to a folder or not) is removed, never followed */
	if (lstat(path, &top) || !S_ISDIR(top.st_mode)) {
		unlink(path);
		return;
	}
	d = opendir(path);
	if (!d)
		return;
	while ((e = readdir(d))) {
		char sub[PATH_MAX];
		struct stat st;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		mc_fmt(sub, sizeof(sub), "%s/%s", path, e->d_name);
		if (!lstat(sub, &st) && S_ISDIR(st.st_mode))
			job_remove_tree(sub);
		else
			unlink(sub);
	}
	closedir(d);
	rmdir(path);
}

/* Is name FILE.tmp-PID with PID a process that no longer runs? */
static int stale_temp(const char *name)
{
	const char *mark = strstr(name, ".tmp-"), *next;
	char *end;
	long pid;

	if (!mark)
		return 0;
	while ((next = strstr(mark + 1, ".tmp-")))
		mark = next;
	errno = 0;
	pid = strtol(mark + 5, &end, 10);
	if (errno || pid <= 0 || *end || mark == name)
		return 0;
	return kill((pid_t)pid, 0) != 0 && errno == ESRCH;
}

void job_note_stale_temps(const char *program, const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		char sub[PATH_MAX];
		struct stat st;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		mc_fmt(sub, sizeof(sub), "%s/%s", path, e->d_name);
		if (lstat(sub, &st))
			continue;
		if (S_ISDIR(st.st_mode))
			job_note_stale_temps(program, sub);
		else if (S_ISREG(st.st_mode) && stale_temp(e->d_name))
			job_log(program, "left %s in place: named as a file a killed run wrote"
				" (FILE.tmp-PID), but nothing shows that modelcat made it", sub);
	}
	closedir(d);
}
