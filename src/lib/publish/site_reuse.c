#include "publish/site_internal.h"
#include "publish/site.h"
#include "publish/site_fs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- the published version's manifest and keys, read beside ---- */

static void keys_read(publish *p);

static void old_read_all(publish *p)
{
	p->old_rc = site_manifest_read(p->prev, &p->old, &p->old_err);
	keys_read(p);
}

static void *old_main(void *arg)
{
	old_read_all(arg);
	return NULL;
}

/* Read the published version's MANIFEST (333,783 lines at the bench's
 * size, a third of a second) and keys.tsv on a thread of their own, so
 * the catalogue is read meanwhile; on this thread when none starts. */
void site_reuse_old_start(publish *p)
{
	p->old_live = !mc_thread_start(&p->old_thread, old_main, p);
	if (!p->old_live) {
		old_read_all(p);
		atomic_store(&p->old_ready, 1);
	}
}

/* Wait for site_reuse_old_start()'s reading (any thread may ask; the
 * first joins): 0 with p->old and p->prev_keys read, or -1 (err, when not
 * NULL) when the manifest could not be read. Nothing was started: 0. */
int site_reuse_old_wait(publish *p, mc_err *err)
{
	if (!atomic_load(&p->old_ready)) {
		pthread_mutex_lock(&p->old_lock);
		if (p->old_live) {
			pthread_join(p->old_thread, NULL);
			p->old_live = 0;
		}
		atomic_store(&p->old_ready, 1);
		pthread_mutex_unlock(&p->old_lock);
	}
	if (p->old_rc < 0) {
		if (err)
			*err = p->old_err;
		return -1;
	}
	return 0;
}

/* ---- model files made before (render_reuse) ---- */

/* The keys the published version's model files were made from (its
 * keys.tsv: STEM TAB KEY lines) into p->prev_keys; none, or a line not of
 * that form: those models are made again. */
static void keys_read(publish *p)
{
	char path[PATH_MAX], *line, *next;
	sbuf text;

	sbuf_init(&text);
	mc_fmt(path, sizeof(path), "%s/keys.tsv", p->prev);
	for (line = site_fs_read_file(path, &text) ? NULL : text.data; line && *line; line = next) {
		char *end = strchr(line, '\n'), *tab;
		size_t *at;
		int added;

		next = end ? end + 1 : NULL;
		if (end)
			*end = '\0';
		tab = strchr(line, '\t');
		if (!tab || strlen(tab + 1) != 64)
			continue;
		at = strmap_get_or_add(&p->prev_keys, line, (size_t)(tab - line), &added);
		if (!added)
			continue;
		p->prev_keyv = xgrow(p->prev_keyv, &p->prev_keys_cap, p->nprev_keys + 1,
				     sizeof(*p->prev_keyv));
		p->prev_keyv[p->nprev_keys] = xstrdup(tab + 1);
		*at = ++p->nprev_keys;
	}
	sbuf_release(&text);
}

const char *site_reuse_prev_key(void *ctx, const char *stem)
{
	publish *p = ctx;
	const size_t *at;

	if (site_reuse_old_wait(p, NULL))
		return NULL;   /* (the manifest's failure comes with the files) */
	at = strmap_find(&p->prev_keys, stem, strlen(stem));
	return at ? p->prev_keyv[*at - 1] : NULL;
}

void site_reuse_made(void *ctx, const char *stem, const char *key)
{
	publish *p = ctx;
	sbuf line;

	sbuf_init(&line);
	sbuf_addf(&line, "%s\t%s\n", stem, key);
	pthread_mutex_lock(&p->lock);
	p->keys_now = xgrow(p->keys_now, &p->keys_now_cap, p->nkeys_now + 1, sizeof(*p->keys_now));
	p->keys_now[p->nkeys_now++] = sbuf_detach(&line, NULL);
	pthread_mutex_unlock(&p->lock);
}

/*
 * A folder model files are taken from (the published version's) and into
 * (the build's), both open: a file is then found and linked by its name
 * in them (fstatat(), linkat()), not by a walk of its whole path, twice,
 * for each of a version's few hundred thousand files. A publish has a few
 * (pages/LANG, downloads/models); at most REUSE_DIRS.
 */
#define REUSE_DIRS 32
typedef struct reuse_dir {
	char rel[128];               /* the folder, relative to a version */
	int prev;                    /* it in the published version, or -1 */
	int build;                   /* it in the build, or -1 */
} reuse_dir;

/* The entry for rel (len bytes) among the first n, or NULL. */
static reuse_dir *reuse_dir_find(const publish *p, size_t n, const char *rel, size_t len)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strlen(p->dirs[i].rel) == len && !memcmp(p->dirs[i].rel, rel, len))
			return &p->dirs[i];
	return NULL;
}

/* The open folder rel (len bytes) of both versions, opened on first use;
 * NULL when there is no room, or either cannot be opened (then the files
 * are made anew). Entries are ready before ndirs counts them, and never
 * change: readers take no lock. */
static const reuse_dir *reuse_dir_of(publish *p, const char *rel, size_t len)
{
	char path[PATH_MAX];
	reuse_dir *d = reuse_dir_find(p, atomic_load(&p->ndirs), rel, len);
	size_t n;

	if (!d && len < sizeof(d->rel)) {
		pthread_mutex_lock(&p->lock);
		n = atomic_load(&p->ndirs);
		d = reuse_dir_find(p, n, rel, len);   /* another thread's, opened meanwhile */
		if (!d && n < REUSE_DIRS) {
			if (!p->dirs)
				p->dirs = xcalloc(REUSE_DIRS, sizeof(*p->dirs));
			d = &p->dirs[n];
			memcpy(d->rel, rel, len);
			d->rel[len] = '\0';
			mc_fmt(path, sizeof(path), "%s/%s", p->prev, d->rel);
			d->prev = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			mc_fmt(path, sizeof(path), "%s/%s", p->build, d->rel);
			d->build = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			atomic_store(&p->ndirs, n + 1);
		}
		pthread_mutex_unlock(&p->lock);
	}
	return d && d->prev >= 0 && d->build >= 0 ? d : NULL;
}

void site_reuse_dirs_close(publish *p)
{
	size_t n = atomic_load(&p->ndirs), i;

	for (i = 0; i < n; i++) {
		if (p->dirs[i].prev >= 0)
			close(p->dirs[i].prev);
		if (p->dirs[i].build >= 0)
			close(p->dirs[i].build);
	}
	free(p->dirs);
}

/* Link paths[0..n) of the build from the published version, all or none,
 * each with the digest its manifest gives it: 1, 0 (it lacks one), -1. */
int site_reuse_take(void *ctx, char *const *paths, size_t n, mc_err *err)
{
	publish *p = ctx;
	size_t blen = strlen(p->build), i;
	struct taken {
		const reuse_dir *dir;    /* its folder */
		const char *name;        /* its name there */
		const char *sha;         /* its digest in the published manifest */
	} *f;
	struct stat st;
	int rc = 1;

	if (atomic_load(&site_stopping))
		return mc_error(err, "%s: stopped by a signal", p->build);
	if (site_reuse_old_wait(p, err))
		return -1;
	if (!p->prev[0])
		return 0;
	f = xcalloc(n + 1, sizeof(*f));
	for (i = 0; i < n && rc == 1; i++) {
		const char *rel = paths[i] + blen + 1, *slash;

		if (strncmp(paths[i], p->build, blen) || paths[i][blen] != '/') {
			rc = mc_error(err, "%s: not in the version being built", paths[i]);
			break;
		}
		slash = strrchr(rel, '/');
		f[i].name = slash ? slash + 1 : rel;
		/* (a file at the top, or a folder that cannot be opened: made anew) */
		if (!slash || !(f[i].dir = reuse_dir_of(p, rel, (size_t)(slash - rel))) ||
		    !(f[i].sha = site_manifest_find(&p->old, rel)) ||
		    fstatat(f[i].dir->prev, f[i].name, &st, AT_SYMLINK_NOFOLLOW) ||
		    !S_ISREG(st.st_mode))
			rc = 0;
	}
	for (i = 0; rc == 1 && i < n; i++)
		/* (the build is new: nothing is there before) */
		if (linkat(f[i].dir->prev, f[i].name, f[i].dir->build, f[i].name, 0))
			rc = mc_error(err, "%s: cannot link to %s/%s: %s", paths[i], p->prev,
				      paths[i] + blen + 1, strerror(errno));
	if (rc == 1) {
		/* one lock for the model's files: the threads take turns less */
		pthread_mutex_lock(&p->lock);
		for (i = 0; i < n; i++)
			site_manifest_add(&p->now, paths[i] + blen + 1, f[i].sha);
		p->stats->files += n;
		pthread_mutex_unlock(&p->lock);
	}
	free(f);
	return rc;
}

static int line_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The new version's keys.tsv, in the order of the stems. 0, or -1 (err). */
int site_reuse_keys_write(publish *p, mc_err *err)
{
	char path[PATH_MAX];
	sbuf text;
	size_t i;
	int rc;

	qsort(p->keys_now, p->nkeys_now, sizeof(*p->keys_now), line_cmp);
	sbuf_init(&text);
	for (i = 0; i < p->nkeys_now; i++)
		sbuf_adds(&text, p->keys_now[i]);
	mc_fmt(path, sizeof(path), "%s/keys.tsv", p->build);
	rc = site_fs_write_file(path, text.data ? text.data : "", text.len, err);
	sbuf_release(&text);
	return rc;
}
