#include "publish/site_internal.h"
#include "publish/site.h"
#include "publish/site_fs.h"
#include "base/fileout.h"
#include "base/sha256.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- the new version's files, into its manifest ---- */

/* The digest the published version's manifest gives its file rel, when
 * that file is there (a regular file, its path in from and its stat in
 * st), else NULL. */
static const char *published_file(const publish *p, const char *rel, char from[PATH_MAX],
				  struct stat *st)
{
	const char *had = site_manifest_find(&p->old, rel);

	if (!had || !p->prev[0])
		return NULL;
	mc_fmt(from, PATH_MAX, "%s/%s", p->prev, rel);
	return !lstat(from, st) && S_ISREG(st->st_mode) ? had : NULL;
}

/* Has the published version the file rel with the bytes sha (size bytes)?
 * 1 with its path in from and its stat in st, else 0. */
static int published_same(const publish *p, const char *rel, const char *sha,
			  unsigned long long size, char from[PATH_MAX], struct stat *st)
{
	const char *had = published_file(p, rel, from, st);

	return had && !strcmp(had, sha) && (unsigned long long)st->st_size == size;
}

/* Count rel, a file of the new version, as written anew. */
static void count_written(publish *p, const char *rel)
{
	pthread_mutex_lock(&p->lock);
	p->stats->written++;
	if (!strncmp(rel, "pages/", 6))
		p->stats->pages++;
	pthread_mutex_unlock(&p->lock);
}

/* rel, of SHA-256 sha, into the new manifest (from any thread). */
static void manifest_enter(publish *p, const char *rel, const char *sha)
{
	pthread_mutex_lock(&p->lock);
	site_manifest_add(&p->now, rel, sha);
	p->stats->files++;
	pthread_mutex_unlock(&p->lock);
}

/* Has the new manifest rel yet? Under the lock: another thread may be
 * entering files (site_files_hash_build() runs on two at once). */
static int now_has(publish *p, const char *rel)
{
	int has;

	pthread_mutex_lock(&p->lock);
	has = site_manifest_find(&p->now, rel) != NULL;
	pthread_mutex_unlock(&p->lock);
	return has;
}

/* rel, written at path (of size bytes and SHA-256 sha; st, its lstat(),
 * or NULL: just written), into the new manifest. When the published
 * version has the same bytes under the same name, they are linked in its
 * place (they keep their time; one copy of them), else it counts as
 * written. */
static void enter_written(publish *p, const char *rel, const char *path, const char *sha,
			  unsigned long long size, const struct stat *st)
{
	char from[PATH_MAX], tmp[PATH_MAX];
	struct stat pst;

	manifest_enter(p, rel, sha);
	if (published_same(p, rel, sha, size, from, &pst)) {
		if (st && pst.st_ino == st->st_ino && pst.st_dev == st->st_dev)
			return;
		mc_fmt(tmp, sizeof(tmp), "%s.link", path);
		if (!link(from, tmp) && !rename(tmp, path))
			return;
		unlink(tmp);
	}
	count_written(p, rel);
}

/* Hash every file of the build folder rel into the new manifest; a file
 * whose bytes the published version has under the same name is linked
 * from it instead (it keeps its time; nothing is written twice). 0, or -1
 * (err). */
int site_files_hash_build(publish *p, const char *rel, mc_err *err)
{
	char path[PATH_MAX], sub[PATH_MAX], sha[65];
	unsigned char *types;
	size_t n, i;
	char **names;
	int rc = 0;

	mc_fmt(path, sizeof(path), "%s/%s", p->build, rel);
	names = site_fs_list_names(path, &n, &types);
	for (i = 0; !rc && i < n; i++) {
		struct stat st;

		mc_fmt(sub, sizeof(sub), "%s/%s", rel, names[i]);
		if (types[i] == DT_REG && now_has(p, sub))
			continue;   /* site_files_put() had it (no lstat() for most) */
		mc_fmt(path, sizeof(path), "%s/%s", p->build, sub);
		if (lstat(path, &st))
			continue;
		if (S_ISDIR(st.st_mode)) {
			rc = site_files_hash_build(p, sub, err);
			continue;
		}
		if (S_ISREG(st.st_mode) && now_has(p, sub))
			continue;   /* site_files_put() had it */
		if (!S_ISREG(st.st_mode) || sha256_file(path, sha, NULL, err)) {
			rc = S_ISREG(st.st_mode) ? -1 : 0;
			continue;
		}
		enter_written(p, sub, path, sha, (unsigned long long)st.st_size, &st);
	}
	mc_free_strings(names, n);
	free(types);
	return rc;
}

/* path's name within the version being built, once the old manifest is
 * read; NULL (err) when a signal stops the publication or path is not in
 * the version. */
static const char *build_rel(publish *p, const char *path, mc_err *err)
{
	size_t blen = strlen(p->build);

	if (atomic_load(&site_stopping)) {
		mc_error(err, "%s: stopped by a signal", path);
		return NULL;
	}
	if (site_reuse_old_wait(p, err))
		return NULL;
	if (strncmp(path, p->build, blen) || path[blen] != '/') {
		mc_error(err, "%s: not in the version being built", path);
		return NULL;
	}
	return path + blen + 1;
}

/* The new version's file_out (fileout.h) for the pages and downloads:
 * each file is hashed as it is made and entered in the new manifest, and
 * linked from the published version when that has the same bytes under
 * the same name (it keeps its time; nothing is written twice), else
 * written. site_files_hash_build() then passes over it. */
int site_files_put(void *ctx, const char *path, const void *data, size_t len, mc_err *err)
{
	publish *p = ctx;
	char sha[65], from[PATH_MAX];
	const char *rel = build_rel(p, path, err);
	sha256_ctx h;
	struct stat st;

	if (!rel)
		return -1;
	sha256_init(&h);
	sha256_update(&h, data, len);
	sha256_final_hex(&h, sha);
	manifest_enter(p, rel, sha);
	/* (the old manifest is only read while the pages are made) */
	if (published_same(p, rel, sha, len, from, &st)) {
		unlink(path);
		if (!link(from, path))
			return 0;
	}
	if (file_write_new(path, data, len, err))
		return -1;
	count_written(p, rel);
	return 0;
}

/* The new version's file_out's placed(): a file written in parts (the
 * downloads) into the new manifest as site_files_put() enters one. */
int site_files_placed(void *ctx, const char *path, const char *sha, unsigned long long len,
		      mc_err *err)
{
	publish *p = ctx;
	const char *rel = build_rel(p, path, err);

	if (!rel)
		return -1;
	enter_written(p, rel, path, sha, len, NULL);
	return 0;
}

/* Carry the files under the published version's folder rel that modelcat
 * did not write into the build: hard links, symbolic links made again
 * (never followed), folders made. */
int site_files_carry(publish *p, const char *rel)
{
	char from[PATH_MAX], to[PATH_MAX], sub[PATH_MAX], target[PATH_MAX];
	size_t n, i;
	char **names;
	int rc = 0;

	mc_fmt(from, sizeof(from), "%s/%s", p->prev, rel);
	names = site_fs_list_names(from, &n, NULL);
	for (i = 0; !rc && i < n; i++) {
		struct stat st, nst;
		int there;
		ssize_t len;

		mc_fmt(sub, sizeof(sub), "%s/%s", rel, names[i]);
		mc_fmt(from, sizeof(from), "%s/%s", p->prev, sub);
		mc_fmt(to, sizeof(to), "%s/%s", p->build, sub);
		/* (modelcat's files first: most of them, and no lstat() for them) */
		if ((p->prev_name[0] && site_manifest_find(&p->old, sub)) || lstat(from, &st))
			continue;
		there = !lstat(to, &nst);
		if (S_ISDIR(st.st_mode)) {
			if (there && !S_ISDIR(nst.st_mode))
				continue;
			if (!there && mkdir(to, st.st_mode & 07777))
				rc = mc_error(p->err, "%s: cannot create: %s", to, strerror(errno));
			else
				rc = site_files_carry(p, sub);
		} else if (there) {
			continue;
		} else if (S_ISREG(st.st_mode)) {
			if (link(from, to))
				rc = mc_error(p->err, "%s: cannot link to %s: %s", to, from, strerror(errno));
		} else if (S_ISLNK(st.st_mode)) {
			len = readlink(from, target, sizeof(target) - 1);
			if (len >= 0) {
				target[len] = '\0';
				if (symlink(target, to))
					rc = mc_error(p->err, "%s: cannot create: %s", to, strerror(errno));
			}
		}
	}
	mc_free_strings(names, n);
	return rc;
}
