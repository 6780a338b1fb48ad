#include "publish/site_fs.h"
#include "base/fileout.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

struct linux_dirent64 {
	unsigned long long d_ino;
	long long d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

/* Remove name in the folder dirfd and, when it is a folder (never through
 * a symbolic link), everything in it; last (or NULL), an entry of that
 * folder, only once nothing else is left in it. Only system calls:
 * async-signal-safe. */
static void remove_at(int dirfd, const char *name, const char *last)
{
	/* aligned for the records getdents64 writes */
	char buf[2048] __attribute__((aligned(8)));
	int fd, pass;
	long n, others;

	if (!unlinkat(dirfd, name, 0) || (errno != EISDIR && errno != EPERM))
		return;
	fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return;
	/* entries removed while reading may hide others: read again, a few times */
	for (pass = 0; pass < 5; pass++) {
		others = 0;
		lseek(fd, 0, SEEK_SET);
		while ((n = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0) {
			long at = 0;

			while (at < n) {
				struct linux_dirent64 *e = (struct linux_dirent64 *)(buf + at);

				at += e->d_reclen;
				if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
				    (last && !strcmp(e->d_name, last)))
					continue;
				others++;
				remove_at(fd, e->d_name, NULL);
			}
		}
		if (last && !others)
			unlinkat(fd, last, 0);
		if (!unlinkat(dirfd, name, AT_REMOVEDIR) || errno != ENOTEMPTY)
			break;
	}
	close(fd);
}

void site_fs_remove_tree(const char *path)
{
	/* the mark last: a removal stopped half-way (a kill) leaves a folder
	 * still marked, which the next publish removes */
	remove_at(AT_FDCWD, path, SITE_MADE);
}

/* ---- small file helpers ---- */

int site_fs_make_dir(const char *path, mc_err *err)
{
	if (mkdir(path, 0755) && errno != EEXIST)
		return mc_error(err, "%s: cannot create: %s", path, strerror(errno));
	return 0;
}

int site_fs_write_file(const char *path, const void *data, size_t len, mc_err *err)
{
	/* a new file, never one shared with the published version by a link */
	return file_write_new(path, data, len, err);
}

/* A whole file into out (appended); 0, or -1 (errno) */
int site_fs_read_file(const char *path, sbuf *out)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW), rc, saved;

	if (fd < 0)
		return -1;
	rc = mc_read_fd(fd, out);
	saved = errno;
	close(fd);
	errno = saved;
	return rc;
}

/* Is name PREFIX<pid> with pid a process that no longer runs (or this one)? */
int site_fs_dead_pid_name(const char *name, const char *prefix)
{
	size_t k = strlen(prefix);
	char *end;
	long pid;

	if (strncmp(name, prefix, k))
		return 0;
	errno = 0;
	pid = strtol(name + k, &end, 10);
	if (errno || pid <= 0 || end == name + k || (*end && *end != '-'))
		return 0;
	if (pid == (long)getpid())
		return 1;
	return kill((pid_t)pid, 0) != 0 && errno == ESRCH;
}

/* The published version's name (site-ID) from DIR/.modelcat/current, or "". */
void site_fs_current_name(const char *state, char name[64])
{
	char path[PATH_MAX];
	ssize_t n;

	mc_fmt(path, sizeof(path), "%s/current", state);
	n = readlink(path, name, 63);
	name[n > 0 ? n : 0] = '\0';
	if (strncmp(name, "site-", 5) || strchr(name, '/') || strstr(name, ".."))
		name[0] = '\0';
}

/* A name in a folder and its type as the folder gives it (DT_REG, DT_DIR,
 * ...; DT_UNKNOWN when it does not say: lstat() it). */
typedef struct dir_name {
	char *name;
	unsigned char type;
} dir_name;

static int names_cmp(const void *a, const void *b)
{
	return strcmp(((const dir_name *)a)->name, ((const dir_name *)b)->name);
}

/* The names in folder path (no "." and ".."), sorted; NULL when
 * unreadable. With types, their types into *types (the caller frees it):
 * a file of the folder's type DT_REG needs no lstat() to be known for one. */
char **site_fs_list_names(const char *path, size_t *n, unsigned char **types)
{
	DIR *d = opendir(path);
	struct dirent *e;
	dir_name *all = NULL;
	char **names;
	size_t i, cap = 0;

	*n = 0;
	if (types)
		*types = NULL;
	if (!d)
		return NULL;
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		all = xgrow(all, &cap, *n + 1, sizeof(*all));
		all[*n].name = xstrdup(e->d_name);
		all[(*n)++].type = e->d_type;
	}
	closedir(d);
	if (!*n)
		return NULL;
	qsort(all, *n, sizeof(*all), names_cmp);
	names = xcalloc(*n, sizeof(*names));
	if (types)
		*types = xcalloc(*n, 1);
	for (i = 0; i < *n; i++) {
		names[i] = all[i].name;
		if (types)
			(*types)[i] = all[i].type;
	}
	free(all);
	return names;
}
