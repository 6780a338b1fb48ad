#include "publish/site_internal.h"
#include "publish/site.h"
#include "publish/site_fs.h"
#include "base/lockfile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ---- what publish owns under DIR/.modelcat: the folder, its lock, the marks ---- */

/* DIR/.modelcat as it must be: a folder (not a symbolic link) of this
 * user's. 0, or -1 (p->err naming it; nothing touched). */
static int state_check(publish *p)
{
	char target[PATH_MAX];
	struct stat st;
	ssize_t n;

	if (lstat(p->state, &st))
		return mc_error(p->err, "%s: %s", p->state, strerror(errno));
	if (S_ISLNK(st.st_mode)) {
		n = readlink(p->state, target, sizeof(target) - 1);
		target[n > 0 ? n : 0] = '\0';
		return mc_error(p->err, "%s: a symbolic link (to %s), not modelcat's folder: publish"
				" never follows it; move it away to publish here", p->state, target);
	}
	if (!S_ISDIR(st.st_mode))
		return mc_error(p->err, "%s: not a folder: move it away to publish here", p->state);
	if (st.st_uid != geteuid())
		return mc_error(p->err, "%s: owned by uid %ld, not by this user (uid %ld): move it"
				" away to publish here", p->state, (long)st.st_uid, (long)geteuid());
	return 0;
}

/* Lock fd, waiting up to p->o->wait seconds: 0 held, 1 held by another
 * (p->err), -1 failed (p->err). */
static int lock_wait(publish *p, int fd, const char *path)
{
	char holder[PATH_MAX];
	struct timespec start, now;
	int said = 0;

	clock_gettime(CLOCK_MONOTONIC, &start);
	while (flock(fd, LOCK_EX | LOCK_NB)) {
		if (errno != EWOULDBLOCK)
			return mc_error(p->err, "%s: cannot lock: %s", path, strerror(errno));
		lockfile_holder(fd, holder, sizeof(holder));
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec - start.tv_sec >= p->o->wait) {
			mc_error(p->err, "%s: held by %s: another publish into %s is under way (try"
				 " again later, or give --wait SECONDS)", path, holder, p->out);
			return 1;
		}
		if (!said++)
			site_note(p, "%s: held by %s; waiting up to %ld s", path, holder, p->o->wait);
		usleep(100 * 1000);
	}
	return 0;
}

/* DIR/.modelcat checked, and its lock taken for the whole publish:
 * another publish into DIR, of any catalogue, waits for it. 0, 1 (held by
 * another), or -1 (p->err). */
int site_own_lock(publish *p)
{
	char path[PATH_MAX], who[PATH_MAX + 64];
	int rc;

	p->lock_fd = -1;
	if (state_check(p))
		return -1;
	mc_fmt(path, sizeof(path), "%s/lock", p->state);
	p->lock_fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (p->lock_fd < 0)
		return mc_error(p->err, "%s: cannot open the lock: %s", path, strerror(errno));
	if ((rc = lock_wait(p, p->lock_fd, path))) {
		site_own_unlock(p);
		return rc;
	}
	mc_fmt(who, sizeof(who), "%s, catalogue %s", p->o->program ? p->o->program : "modelcat",
	       p->cat->path);
	lockfile_claim(p->lock_fd, who);
	return 0;
}

void site_own_unlock(publish *p)
{
	if (p->lock_fd >= 0)
		close(p->lock_fd);   /* (the file stays: a lock, never removed) */
	p->lock_fd = -1;
}

/* The mark's text: the same in every site (sites published from the same
 * data have the same files, tests/e2e/t0134-publish-reuse.sh). */
#define MARK_TEXT "made by modelcat publish: it removes this folder when done with it\n"

int site_own_mark(publish *p, const char *dir)
{
	char path[PATH_MAX];
	size_t len = strlen(MARK_TEXT);
	int fd;

	mc_fmt(path, sizeof(path), "%s/" SITE_MADE, dir);
	/* never over a file already there */
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return mc_error(p->err, "%s: cannot create: %s", path, strerror(errno));
	if (write(fd, MARK_TEXT, len) != (ssize_t)len) {
		close(fd);
		unlink(path);
		return mc_error(p->err, "%s: cannot write", path);
	}
	close(fd);
	return 0;
}

/* Does dir hold the entry name and nothing else? */
static int only_entry(const char *dir, const char *name)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int others = 0, seen = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (!strcmp(e->d_name, name))
			seen = 1;
		else
			others++;
	}
	closedir(d);
	return seen && !others;
}

int site_marked(const char *dir)
{
	char path[PATH_MAX], got[128];
	struct stat st;
	ssize_t n;
	int fd;

	if (lstat(dir, &st) || !S_ISDIR(st.st_mode) || st.st_uid != geteuid())
		return 0;
	mc_fmt(path, sizeof(path), "%s/" SITE_MADE, dir);
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = (fstat(fd, &st) || !S_ISREG(st.st_mode)) ? -1 : read(fd, got, sizeof(got) - 1);
	close(fd);
	if (n < 0)
		return 0;
	got[n] = '\0';
	if (!strcmp(got, MARK_TEXT))
		return 1;
	/* a publish killed between creating its mark and writing it leaves
	 * the mark's start (or nothing) in it, alone in the folder: that too
	 * is publish's own */
	return !strncmp(got, MARK_TEXT, (size_t)n) && only_entry(dir, SITE_MADE);
}

void site_remove_marked(const char *dir)
{
	site_fs_remove_tree(dir);
}
