#include "base/cleanup.h"
#include "base/text.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The files mc_cleanup_run() removes: empty slots are "". Fixed arrays,
 * so that removing them needs no allocation (it runs when there is no
 * memory, or in a signal handler). */
static char cleanup_paths[MC_CLEANUP_MAX][PATH_MAX];

void mc_cleanup_add(const char *path)
{
	size_t i, n = strlen(path);

	if (n >= PATH_MAX - 16)
		return;
	for (i = 0; i < MC_CLEANUP_MAX; i++) {
		if (!cleanup_paths[i][0]) {
			memcpy(cleanup_paths[i], path, n + 1);
			return;
		}
	}
}

void mc_cleanup_remove(const char *path)
{
	size_t i;

	for (i = 0; i < MC_CLEANUP_MAX; i++)
		if (!strcmp(cleanup_paths[i], path))
			cleanup_paths[i][0] = '\0';
}

/* Remove path and its SQLite journals, with no allocation and nothing but
 * async-signal-safe calls. */
void mc_remove_with_journals(const char *path)
{
	static const char *const sides[] = { "-journal", "-wal", "-shm" };
	char name[PATH_MAX];
	size_t i, n = strlen(path), k;

	for (i = 0; i < sizeof(sides) / sizeof(sides[0]); i++) {
		k = strlen(sides[i]);
		if (n + k >= sizeof(name))
			continue;
		memcpy(name, path, n);
		memcpy(name + n, sides[i], k + 1);
		unlink(name);
	}
	unlink(path);
}

void mc_cleanup_run(void)
{
	size_t i;

	for (i = 0; i < MC_CLEANUP_MAX; i++) {
		if (cleanup_paths[i][0]) {
			mc_remove_with_journals(cleanup_paths[i]);
			cleanup_paths[i][0] = '\0';
		}
	}
}

void mc_remove_stale(const char *prefix)
{
	char dir[PATH_MAX], path[PATH_MAX];
	const char *slash = strrchr(prefix, '/'), *base;
	struct dirent *e;
	size_t blen, dlen;
	DIR *d;

	if (slash) {
		dlen = (size_t)(slash - prefix);
		if (dlen >= sizeof(dir))
			return;
		memcpy(dir, prefix, dlen);
		dir[dlen] = '\0';
		if (!dlen)
			memcpy(dir, "/", 2);
		base = slash + 1;
	} else {
		memcpy(dir, ".", 2);
		base = prefix;
	}
	blen = strlen(base);
	d = opendir(dir);
	if (!d)
		return;
	while ((e = readdir(d))) {
		const char *p;
		char *end;
		long pid;

		if (strncmp(e->d_name, base, blen))
			continue;
		p = e->d_name + blen;
		if (*p < '1' || *p > '9')
			continue;
		errno = 0;
		pid = strtol(p, &end, 10);
		if (errno || pid <= 0 || pid > INT_MAX)
			continue;
		/* a journal goes with its database file */
		if (mc_ends_with(end, "-journal") || mc_ends_with(end, "-wal") ||
		    mc_ends_with(end, "-shm"))
			continue;
		if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		if (snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) >= (int)sizeof(path))
			continue;
		mc_remove_with_journals(path);
	}
	closedir(d);
}
