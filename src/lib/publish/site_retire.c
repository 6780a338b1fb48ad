#include "publish/site_internal.h"
#include "publish/site.h"
#include "publish/site_fs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- retiring an old version: only what modelcat wrote goes ---- */

/* Where an old version's folder is retired into. */
typedef struct retire_ctx {
	const publish *p;
	const char *old_base;        /* the old folder */
	const char *new_base;        /* the new version's matching folder */
	const char *prefix;          /* manifest paths of old_base's files start with it */
	const site_manifest *mine;   /* the files modelcat wrote (by prefix + path) */
	int blocked;                 /* the new version has a non-folder where this
					folder is: nothing is moved under it */
	size_t kept;                 /* files left in place */
	atomic_int *helping;         /* 1 while a second thread retires a folder */
} retire_ctx;

/* A folder found in the folder being retired. */
typedef struct retire_sub {
	char *sub;                   /* its path, relative; owned */
	int made;                    /* its twin in the new version was made for it */
	int blocked;                 /* retire_ctx.blocked for it */
} retire_sub;

/*
 * The folders found in one folder, retired by the thread that found them
 * and by a second one while it is free, each taking the next not taken:
 * the kernel removes the files of two folders at once faster than one
 * after the other, and a version is mostly three folders of a file or two
 * a model (the two languages' pages, the downloads).
 */
typedef struct retire_list {
	retire_ctx base;             /* the finder's, as it was */
	retire_sub *subs;
	size_t n;
	atomic_size_t next;          /* the next folder not taken */
} retire_list;

/* The second thread on a list, and what it left in place. */
typedef struct retire_helper {
	retire_list *list;
	size_t kept;
	pthread_t thread;
} retire_helper;

static void retire_dir(retire_ctx *c, const char *rel);

/* Retire folder i of l, then remove it (and its twin made for it). */
static void retire_one(const retire_list *l, size_t i, size_t *kept)
{
	const retire_sub *s = &l->subs[i];
	retire_ctx c = l->base;
	char path[PATH_MAX];

	c.blocked = s->blocked;
	c.kept = 0;
	retire_dir(&c, s->sub);
	mc_fmt(path, sizeof(path), "%s/%s", c.old_base, s->sub);
	rmdir(path);
	if (s->made) {
		mc_fmt(path, sizeof(path), "%s/%s", c.new_base, s->sub);
		rmdir(path);
	}
	*kept += c.kept;
}

static void *retire_help(void *arg)
{
	retire_helper *h = arg;
	retire_list *l = h->list;
	size_t i;

	while ((i = atomic_fetch_add(&l->next, 1)) < l->n)
		retire_one(l, i, &h->kept);
	atomic_store(l->base.helping, 0);
	return NULL;
}

/* Retire the folders subs[0..n) c found (and free them): on this thread,
 * and on a second one whenever none is at work and two or more are left. */
static void retire_subs(retire_ctx *c, retire_sub *subs, size_t n)
{
	retire_list l;
	retire_helper **helpers = NULL;
	size_t nhelpers = 0, cap = 0, i;

	l.base = *c;
	l.subs = subs;
	l.n = n;
	atomic_init(&l.next, 0);
	for (;;) {
		if (c->helping && atomic_load(&l.next) + 1 < n && !atomic_exchange(c->helping, 1)) {
			retire_helper *h = xcalloc(1, sizeof(*h));

			h->list = &l;
			if (mc_thread_start(&h->thread, retire_help, h)) {
				atomic_store(c->helping, 0);
				free(h);
			} else {
				helpers = xgrow(helpers, &cap, nhelpers + 1, sizeof(*helpers));
				helpers[nhelpers++] = h;
			}
		}
		if ((i = atomic_fetch_add(&l.next, 1)) >= n)
			break;
		retire_one(&l, i, &c->kept);
	}
	for (i = 0; i < nhelpers; i++) {   /* before the caller removes the folder */
		pthread_join(helpers[i]->thread, NULL);
		c->kept += helpers[i]->kept;
		free(helpers[i]);
	}
	free(helpers);
	for (i = 0; i < n; i++)
		free(subs[i].sub);
	free(subs);
}

/* Remove the regular file rel of the old folder when modelcat wrote it,
 * as name relative to dirfd (unlinkat(): the open folder that holds it
 * and its one name, not a walk of the whole path for each of a version's
 * hundreds of thousands of files; or AT_FDCWD and its path): 1 removed
 * (or gone), 0 not modelcat's. */
static int retire_mine(const retire_ctx *c, const char *rel, int dirfd, const char *name)
{
	char path[PATH_MAX];

	mc_fmt(path, sizeof(path), "%s%s", c->prefix, rel);
	if (!site_manifest_find(c->mine, path))
		return 0;
	unlinkat(dirfd, name, 0);
	return 1;
}

/* One entry that is not a folder: removed when modelcat's or already
 * carried, moved into the new version when its name is free there, else
 * left (and said). */
static void retire_file(retire_ctx *c, const char *rel, const struct stat *st)
{
	char from[PATH_MAX], to[PATH_MAX], a[PATH_MAX], b[PATH_MAX];
	struct stat nst;
	int exists, free_name;
	ssize_t na, nb;

	mc_fmt(from, sizeof(from), "%s/%s", c->old_base, rel);
	mc_fmt(to, sizeof(to), "%s/%s", c->new_base, rel);
	if (S_ISREG(st->st_mode) && retire_mine(c, rel, AT_FDCWD, from))
		return;
	if (c->blocked) {
		c->kept++;
		site_note(c->p, "left %s in place: not modelcat's, and the published version has"
		     " no folder for it", from);
		return;
	}
	exists = !lstat(to, &nst);
	free_name = !exists && errno == ENOENT;
	if (exists && S_ISREG(st->st_mode) && S_ISREG(nst.st_mode) &&
	    st->st_dev == nst.st_dev && st->st_ino == nst.st_ino) {
		unlink(from);             /* carried already: the same file */
		return;
	}
	if (exists && S_ISLNK(st->st_mode) && S_ISLNK(nst.st_mode)) {
		na = readlink(from, a, sizeof(a) - 1);
		nb = readlink(to, b, sizeof(b) - 1);
		if (na >= 0 && na == nb && !memcmp(a, b, (size_t)na)) {
			unlink(from);     /* made again already: the same link */
			return;
		}
	}
	if (free_name && (S_ISREG(st->st_mode) || S_ISLNK(st->st_mode)) && !rename(from, to)) {
		site_note(c->p, "moved %s, not modelcat's, into the published version", to);
		return;
	}
	c->kept++;
	site_note(c->p, "left %s in place: not modelcat's, and the published version has that name",
	     from);
}

static void retire_dir(retire_ctx *c, const char *rel)
{
	char path[PATH_MAX], sub[PATH_MAX], to[PATH_MAX];
	unsigned char *types;
	size_t n, i, nsubs = 0, subs_cap = 0;
	retire_sub *subs = NULL;
	char **names;
	int dirfd;

	mc_fmt(path, sizeof(path), "%s%s%s", c->old_base, *rel ? "/" : "", rel);
	names = site_fs_list_names(path, &n, &types);
	dirfd = n ? open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) : -1;
	if (dirfd < 0)
		dirfd = AT_FDCWD;
	for (i = 0; i < n; i++) {
		struct stat st, nst;
		retire_sub *s;

		mc_fmt(sub, sizeof(sub), "%s%s%s", rel, *rel ? "/" : "", names[i]);
		mc_fmt(path, sizeof(path), "%s/%s", c->old_base, sub);
		if (!*rel && (!strcmp(names[i], "MANIFEST") || !strcmp(names[i], SITE_MADE)))
			continue;   /* (the caller's, once nothing else is left) */
		if (types[i] == DT_REG &&
		    retire_mine(c, sub, dirfd, dirfd == AT_FDCWD ? path : names[i]))
			continue;   /* (most of a version: no lstat() for them) */
		if (lstat(path, &st))
			continue;
		if (!S_ISDIR(st.st_mode)) {
			retire_file(c, sub, &st);
			continue;
		}
		/* a folder: after the files (retire_subs()) */
		mc_fmt(to, sizeof(to), "%s/%s", c->new_base, sub);
		subs = xgrow(subs, &subs_cap, nsubs + 1, sizeof(*subs));
		s = &subs[nsubs++];
		s->sub = xstrdup(sub);
		s->made = !c->blocked && !mkdir(to, st.st_mode & 07777);
		/* never move anything through a symbolic link (or into a file) */
		s->blocked = c->blocked ||
			     (!s->made && (lstat(to, &nst) || !S_ISDIR(nst.st_mode)));
	}
	if (dirfd != AT_FDCWD)
		close(dirfd);
	mc_free_strings(names, n);
	free(types);
	retire_subs(c, subs, nsubs);
}

/* Retire old_base into new_base; 0 when nothing was left in it. */
size_t site_retire_folder(const publish *p, const char *old_base, const char *new_base,
			  const char *prefix, const site_manifest *mine)
{
	atomic_int helping;
	retire_ctx c = { p, old_base, new_base, prefix, mine, 0, 0, &helping };

	atomic_init(&helping, 0);
	retire_dir(&c, "");
	return c.kept;
}

/* Remove the folder path's MANIFEST (when manifest), then its mark, then
 * it, when nothing else is left in it but the two: 0; else nothing is
 * removed: 1 (the caller says why). */
static int remove_emptied(const publish *p, const char *path, int manifest)
{
	char file[PATH_MAX];
	size_t n, i, others = 0;
	char **names = site_fs_list_names(path, &n, NULL);

	for (i = 0; i < n; i++)
		others += strcmp(names[i], SITE_MADE) && (!manifest || strcmp(names[i], "MANIFEST"));
	mc_free_strings(names, n);
	if (others)
		return 1;
	if (manifest) {
		mc_fmt(file, sizeof(file), "%s/MANIFEST", path);
		unlink(file);
	}
	mc_fmt(file, sizeof(file), "%s/" SITE_MADE, path);
	unlink(file);
	if (rmdir(path))
		site_note(p, "left %s in place: %s", path, strerror(errno));
	return 0;
}

/* Retire the old version folder name (a site-ID) into the published one;
 * known: its MANIFEST as read already (NULL: read it). */
void site_retire_version(publish *p, const char *name, const char *into,
			 const site_manifest *known)
{
	char path[PATH_MAX];
	site_manifest m;
	mc_err err;
	int rc = 0;

	mc_fmt(path, sizeof(path), "%s/%s", p->state, name);
	site_manifest_init(&m);
	if (!known)
		rc = site_manifest_read(path, &m, &err);
	if (rc) {
		/* (nothing but its mark: a retire stopped after its MANIFEST went) */
		if (rc < 0 || !site_marked(path) || remove_emptied(p, path, 0))
			site_note(p, "left %s in place: %s", path,
				  rc < 0 ? err.msg : "it has no MANIFEST");
		site_manifest_release(&m);
		return;
	}
	if (site_retire_folder(p, path, into, "", known ? known : &m) ||
	    remove_emptied(p, path, 1))
		site_note(p, "left the old version %s in place: it holds files that are not"
			  " modelcat's", path);
	site_manifest_release(&m);
}

/* A temporary name of a publish that no longer runs, of the kind it is:
 * current.new-PID and link-PID symbolic links, id.new-PID a file. */
static int stale_temp(const char *path, const char *name)
{
	struct stat st;

	if (lstat(path, &st))
		return 0;
	if (site_fs_dead_pid_name(name, "current.new-") || site_fs_dead_pid_name(name, "link-"))
		return S_ISLNK(st.st_mode);
	return site_fs_dead_pid_name(name, "id.new-") && S_ISREG(st.st_mode);
}

/* A folder of the kinds publish makes that site_marked() does not
 * know: removed when empty, else left, and said. 1 when it was one. */
static int not_made(const publish *p, const char *path)
{
	if (site_marked(path))
		return 0;
	if (rmdir(path) && errno != ENOENT)
		site_note(p, "left %s in place: not made by modelcat's publish (no " SITE_MADE
			  " in it)", path);
	return 1;
}

/*
 * Under DIR's lock, before building: what killed publishes left (build
 * folders, links being made) and old versions not yet removed. No other
 * publish runs (the lock), so every build-PID it marked is left over;
 * a folder it did not mark is never removed (but an empty one), whatever
 * its name. The published version may be one of a modelcat that made no
 * marks: current names it, and it loses only what its MANIFEST lists.
 */
void site_retire_stale(publish *p)
{
	char path[PATH_MAX], into[PATH_MAX];
	size_t n, i;
	char **names = site_fs_list_names(p->state, &n, NULL);

	for (i = 0; i < n; i++) {
		const char *name = names[i];
		/* the folders publish makes: a version being built, an old one
		   (not the published one), a folder of the layout before */
		int build = !strncmp(name, "build-", 6);
		int version = !strncmp(name, "site-", 5) && strcmp(name, p->prev_name);
		int old = !strncmp(name, "old-pages-", 10) || !strncmp(name, "old-audit-", 10);

		mc_fmt(path, sizeof(path), "%s/%s", p->state, name);
		if (stale_temp(path, name)) {
			unlink(path);
			continue;
		}
		if ((!build && !version && !old) || not_made(p, path))
			continue;
		if (build || (version && !p->prev_name[0])) {
			/* a half-built version, or one never published: modelcat's
			   files and links only */
			site_fs_remove_tree(path);
		} else if (version) {
			mc_fmt(into, sizeof(into), "%s/%s", p->state, p->prev_name);
			site_retire_version(p, name, into, NULL);
		} else if (p->prev_name[0] && !site_reuse_old_wait(p, NULL)) {
			mc_fmt(into, sizeof(into), "%s/%s/%.5s", p->state, p->prev_name, name + 4);
			if (site_retire_folder(p, path, into, name[4] == 'p' ? "pages/" : "audit/", &p->old) ||
			    remove_emptied(p, path, 0))
				site_note(p, "left %s in place: it holds files that are not modelcat's",
					  path);
		}
	}
	mc_free_strings(names, n);
}
