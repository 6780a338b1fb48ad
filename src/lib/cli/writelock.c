#include "cli/writelock.h"
#include "db/catalogue.h"
#include "base/printf.h"
#include "base/cleanup.h"
#include "base/textout.h"
#include "base/lockfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The lock this process holds, for writelock_hand_on(): its descriptor and
 * the "NAME=N:DEV:INO" string its children get. */
static int held_fd = -1;
static char held_env[96];

/* Is the lock named by WRITELOCK_ENV ours (open descriptor, same file)?
 * Its descriptor, or -1. */
static int inherited_fd(void)
{
	const char *v = getenv(WRITELOCK_ENV);
	unsigned long long dev, ino;
	struct stat st;
	int fd, used = 0;

	if (!v || sscanf(v, "%d:%llu:%llu%n", &fd, &dev, &ino, &used) != 3 || v[used] || fd < 0)
		return -1;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || (unsigned long long)st.st_dev != dev ||
	    (unsigned long long)st.st_ino != ino)
		return -1;
	return fd;
}

static void remember(writelock *l, int inherited)
{
	struct stat st;

	l->inherited = inherited;
	held_fd = l->fd;
	held_env[0] = '\0';
	if (!fstat(l->fd, &st))
		mc_fmt(held_env, sizeof(held_env), "%s=%d:%llu:%llu", WRITELOCK_ENV, l->fd,
		       (unsigned long long)st.st_dev, (unsigned long long)st.st_ino);
}

/* One attempt: 0 held (l->fd set), 1 held by another (holder set), -1 err. */
static int try_lock(writelock *l, char *holder, size_t len, mc_err *err)
{
	struct stat a, b;
	int fd = open(l->path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);

	if (fd < 0)
		return mc_error(err, "%s: cannot open the lock: %s", l->path, strerror(errno));
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		int e = errno;

		if (e == EWOULDBLOCK)
			lockfile_holder(fd, holder, len);
		close(fd);
		if (e == EWOULDBLOCK)
			return 1;
		return mc_error(err, "%s: cannot lock: %s", l->path, strerror(e));
	}
	/* the holder before us removes the file before it lets go: a lock on
	 * a file no longer at the path is no lock; try again */
	if (fstat(fd, &a) || stat(l->path, &b) || a.st_dev != b.st_dev || a.st_ino != b.st_ino) {
		close(fd);
		mc_fmt(holder, len, "another process");
		return 2;
	}
	l->fd = fd;
	return 0;
}

int writelock_take(writelock *l, const char *db, const char *program, long wait, mc_err *err)
{
	char target[PATH_MAX], holder[256];
	struct timespec start, now;
	int rc;

	memset(l, 0, sizeof(*l));
	l->fd = -1;
	if (catalogue_target(db, target, sizeof(target), err))
		return -1;
	mc_fmt(l->path, sizeof(l->path), "%s.lock", target);
	if ((l->fd = inherited_fd()) >= 0) {
		remember(l, 1);
		return 0;
	}
	clock_gettime(CLOCK_MONOTONIC, &start);
	for (;;) {
		rc = try_lock(l, holder, sizeof(holder), err);
		if (rc == 2)
			continue;
		if (rc != 1)
			break;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec - start.tv_sec >= wait) {
			if (wait > 0)
				mc_error(err, "%s: held by %s (waited %ld s)", l->path, holder, wait);
			else
				mc_error(err, "%s: held by %s", l->path, holder);
			return 1;
		}
		usleep(100 * 1000);
	}
	if (rc)
		return -1;
	lockfile_claim(l->fd, program);
	remember(l, 0);
	/* killed by a signal stage_init() catches: the file goes too */
	mc_cleanup_add(l->path);
	return 0;
}

void writelock_release(writelock *l)
{
	if (!l || l->fd < 0)
		return;
	if (held_fd == l->fd) {
		held_fd = -1;
		held_env[0] = '\0';
	}
	if (!l->inherited) {
		mc_cleanup_remove(l->path);
		unlink(l->path);
		close(l->fd);
	}
	l->fd = -1;
}

int writelock_stage(writelock *l, const char *program, const char *db, long wait)
{
	mc_err err;
	int rc = writelock_take(l, db, program, wait, &err);

	if (!rc)
		return MC_EXIT_OK;
	if (rc > 0) {
		textout_line(stderr, "%s: %s; another program is writing the catalogue (try again"
			     " later, or give --wait SECONDS)", program, err.msg);
		return MC_EXIT_LOCKED;
	}
	textout_line(stderr, "%s: %s", program, err.msg);
	return MC_EXIT_FAILURE;
}

void writelock_hand_on(void)
{
	int flags;

	if (held_fd < 0 || !held_env[0])
		return;
	flags = fcntl(held_fd, F_GETFD);
	if (flags >= 0)
		fcntl(held_fd, F_SETFD, flags & ~FD_CLOEXEC);
	putenv(held_env);
}
