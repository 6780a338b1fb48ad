#include "publish/site.h"
#include "publish/audit.h"
#include "publish/feed.h"
#include "publish/changes.h"
#include "publish/render.h"
#include "publish/cite.h"
#include "publish/download.h"
#include "publish/translate.h"
#include "db/credit.h"
#include "db/query.h"
#include "db/snapshot.h"
#include "base/day.h"
#include "base/fileout.h"
#include "base/paths.h"
#include "values/colmap.h"
#include "base/sha256.h"
#include "base/strmap.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define STATE ".modelcat"

/* ---- removing a tree without following symbolic links ---- */

/* The version this process builds: removed by site_signal_cleanup(). */
static char building[PATH_MAX];
static volatile sig_atomic_t building_set;
/* Set by site_signal_cleanup() before it removes the version: put_file()
 * then writes nothing more, so that the render threads still running (the
 * signal stops only the thread it lands on) cannot fill the folder again
 * while it is removed; each may finish the one file it is creating, which
 * remove_at()'s passes take. */
static atomic_int stopping;

struct linux_dirent64 {
	unsigned long long d_ino;
	long long d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

/* Remove name in the folder dirfd and, when it is a folder (never through
 * a symbolic link), everything in it. Only system calls: async-signal-safe. */
static void remove_at(int dirfd, const char *name)
{
	/* aligned for the records getdents64 writes */
	char buf[2048] __attribute__((aligned(8)));
	int fd, pass;
	long n;

	if (!unlinkat(dirfd, name, 0) || (errno != EISDIR && errno != EPERM))
		return;
	fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return;
	/* entries removed while reading may hide others: read again, a few times */
	for (pass = 0; pass < 4; pass++) {
		lseek(fd, 0, SEEK_SET);
		while ((n = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0) {
			long at = 0;

			while (at < n) {
				struct linux_dirent64 *e = (struct linux_dirent64 *)(buf + at);

				at += e->d_reclen;
				if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
					remove_at(fd, e->d_name);
			}
		}
		if (!unlinkat(dirfd, name, AT_REMOVEDIR) || errno != ENOTEMPTY)
			break;
	}
	close(fd);
}

static void remove_tree(const char *path)
{
	remove_at(AT_FDCWD, path);
}

void site_signal_cleanup(void)
{
	atomic_store(&stopping, 1);
	if (building_set)
		remove_tree(building);
}

/* ---- small file helpers ---- */

static int make_dir(const char *path, mc_err *err)
{
	if (mkdir(path, 0755) && errno != EEXIST)
		return mc_error(err, "%s: cannot create: %s", path, strerror(errno));
	return 0;
}

static int write_file(const char *path, const void *data, size_t len, mc_err *err)
{
	/* a new file, never one shared with the published version by a link */
	return file_write_new(path, data, len, err);
}

/* A whole file into out (appended); 0, or -1 (errno) */
static int read_file(const char *path, sbuf *out)
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
static int dead_pid_name(const char *name, const char *prefix)
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

/* ---- the manifest: relative path -> SHA-256 ---- */

#define MANIFEST_BLOCK (1 << 20)   /* bytes of MANIFEST written at a time */

typedef struct manifest {
	strmap map;                  /* path -> index + 1 */
	const char **paths;          /* relative paths (the map's copies) */
	char (*sha)[65];             /* their hashes */
	size_t n;                    /* entries */
	size_t cap;                  /* room in paths and sha */
} manifest;

static void manifest_init(manifest *m)
{
	memset(m, 0, sizeof(*m));
	strmap_init(&m->map);
}

static void manifest_release(manifest *m)
{
	strmap_release(&m->map);
	free(m->paths);
	free(m->sha);
	manifest_init(m);
}

/* A hash (64 hex digits) into to. */
static void sha_copy(char to[65], const char *sha)
{
	size_t len = strnlen(sha, 64);

	memcpy(to, sha, len);
	to[len] = '\0';
}

/* (333,787 entries at the bench's size, in every publication's new
 * manifest and in the published one read back: no copy of the path
 * beside the map's, and no formatting of the hash) */
static void manifest_add(manifest *m, const char *path, const char *sha)
{
	int added;
	size_t *slot = strmap_get_or_add(&m->map, path, strlen(path), &added);

	if (!added) {
		sha_copy(m->sha[*slot - 1], sha);
		return;
	}
	*slot = m->n + 1;
	if (m->n == m->cap) {
		m->cap = m->cap ? 2 * m->cap : 1024;
		m->paths = xrealloc(m->paths, m->cap * sizeof(*m->paths));
		m->sha = xrealloc(m->sha, m->cap * sizeof(*m->sha));
	}
	m->paths[m->n] = strmap_key(slot);
	sha_copy(m->sha[m->n], sha);
	m->n++;
}

/* The hash of path in m, or NULL. */
static const char *manifest_find(const manifest *m, const char *path)
{
	size_t *slot = m ? strmap_find(&m->map, path, strlen(path)) : NULL;

	return slot ? m->sha[*slot - 1] : NULL;
}

/* Read root/MANIFEST ("SHA256  PATH" lines, each ended by a newline). 0,
 * 1 when there is none, -1 (err: the file and the line at fault). */
static int manifest_read(const char *root, manifest *m, mc_err *err)
{
	char path[PATH_MAX];
	sbuf text;
	char *line, *end;
	size_t number = 0, lines = 0;

	mc_fmt(path, sizeof(path), "%s/MANIFEST", root);
	sbuf_init(&text);
	if (read_file(path, &text)) {
		sbuf_release(&text);
		if (errno == ENOENT)
			return 1;
		return mc_error(err, "%s: cannot read: %s", path, strerror(errno));
	}
	/* room for every line at once */
	for (line = text.data; (line = memchr(line, '\n', (size_t)(text.data + text.len - line)));
	     line++)
		lines++;
	strmap_reserve(&m->map, m->n + lines + 1);
	if (m->n + lines + 1 > m->cap) {
		m->cap = m->n + lines + 1;
		m->paths = xrealloc(m->paths, m->cap * sizeof(*m->paths));
		m->sha = xrealloc(m->sha, m->cap * sizeof(*m->sha));
	}
	for (line = text.data; line < text.data + text.len; line = end + 1) {
		end = memchr(line, '\n', (size_t)(text.data + text.len - line));
		number++;
		if (!end)
			end = text.data + text.len;   /* the last line, unended */
		*end = '\0';
		if ((size_t)(end - line) < 67 || line[64] != ' ' || line[65] != ' ') {
			if (line == end)
				mc_error(err, "%s:%zu: an empty line, not a manifest line", path,
					 number);
			else
				mc_error(err, "%s:%zu: not a manifest line: %.40s", path, number, line);
			sbuf_release(&text);   /* (after: line is in it) */
			return -1;
		}
		line[64] = '\0';
		manifest_add(m, line + 66, line);
	}
	sbuf_release(&text);
	return 0;
}

/* One line of MANIFEST. */
typedef struct manifest_line {
	const char *path, *sha;
} manifest_line;

static int manifest_line_cmp(const void *a, const void *b)
{
	return strcmp(((const manifest_line *)a)->path, ((const manifest_line *)b)->path);
}

/* root/MANIFEST: m's lines in the order of their paths, written a block at
 * a time: in one buffer, 37 MB at the bench's size (333,787 lines), the
 * file took twice as long (fresh memory, and a copy at each growth). 0, or
 * -1 (err). */
static int manifest_write(const char *root, const manifest *m, mc_err *err)
{
	char path[PATH_MAX];
	manifest_line *lines = xcalloc(m->n + 1, sizeof(*lines));
	file_part f;
	sbuf block;
	size_t i;
	int rc;

	for (i = 0; i < m->n; i++) {
		lines[i].path = m->paths[i];
		lines[i].sha = m->sha[i];
	}
	qsort(lines, m->n, sizeof(*lines), manifest_line_cmp);
	mc_fmt(path, sizeof(path), "%s/MANIFEST", root);
	sbuf_init(&block);
	rc = file_part_open(&f, NULL, path, err);
	for (i = 0; !rc && i < m->n; i++) {
		sbuf_adds(&block, lines[i].sha);
		sbuf_add(&block, "  ", 2);
		sbuf_adds(&block, lines[i].path);
		sbuf_addc(&block, '\n');
		if (block.len >= MANIFEST_BLOCK || i + 1 == m->n) {
			rc = file_part_write(&f, block.data, block.len, err);
			sbuf_reset(&block);
		}
	}
	if (!rc)
		rc = file_part_close(&f, NULL, err);
	else if (f.fd >= 0)
		file_part_abort(&f);
	sbuf_release(&block);
	free(lines);
	return rc;
}

/* ---- one publish ---- */

/* A row of published.tsv (label, content, fingerprint, loaded) or of
 * withdrawn.tsv (label, content, when withdrawn, loaded). */
typedef struct site_row {
	char label[16];
	char content[65];
	char third[65];              /* fingerprint, or when withdrawn */
	char loaded[32];
} site_row;

typedef struct publish {
	catalogue *cat;
	const site_options *o;
	site_stats *stats;
	char out[PATH_MAX];          /* DIR */
	char state[PATH_MAX];        /* DIR/.modelcat */
	char build[PATH_MAX];        /* DIR/.modelcat/build-PID */
	char prev[PATH_MAX];         /* the published version's folder (DIR when legacy; "" none) */
	char prev_name[64];          /* its name, site-ID ("" when none or legacy) */
	char site[PATH_MAX];         /* the new version, once renamed */
	char as_of[11];              /* the date rendered */
	char id[40];                 /* the site's id */
	int legacy;                  /* DIR/pages or DIR/audit are folders of their own */
	manifest old;                /* the published version's manifest */
	/* old and prev_keys are read on a thread of their own while the
	   catalogue is read (old_start()); old_wait() before either is used */
	pthread_t old_thread;
	int old_live;                /* old_thread is running or not joined */
	int old_rc;                  /* manifest_read()'s: 0 old is its MANIFEST,
					1 it has none, -1 failed */
	mc_err old_err;              /* its failure */
	atomic_int old_ready;        /* old_rc and old_err are final */
	pthread_mutex_t old_lock;    /* the join */
	manifest now;                /* the new one's */
	pthread_mutex_t lock;        /* now and stats, for put_file() */
	file_out files;              /* the pages' and downloads' way out (put_file) */
	snapshot_entry *snaps;       /* the catalogue's snapshots, oldest first */
	size_t nsnaps;
	site_row *published;         /* what the published version was published from */
	size_t npublished;
	site_row *withdrawn;         /* withdrawn snapshots, oldest first */
	size_t nwithdrawn;
	char base_url[1024];         /* the site's URL ("": not known) */
	strmap models;               /* the models with a page (audit links) */
	char **volatile_fields;      /* columns.tsv's volatile fields */
	size_t nvolatile;
	char models_sha[65];         /* SHA-256 of the volatile fields' names */
	strmap explained;            /* page stems the new snapshots' audits explain */
	size_t nwithdrawn_before;    /* withdrawn before this publish */
	render_stamp stamp_was;      /* what the published pages were made with */
	render_stamp stamp_now;      /* what the new ones are */
	site_change *changes;        /* site-wide changes on record, oldest first */
	size_t nchanges;
	render_words *words;         /* the frame's words, every language (English first) */
	size_t nwords;
	frame frame;                 /* the frame of the audit pages (English) */
	frame_alt *alts;             /* its other languages */
	download_set downloads;      /* the version's downloads (download.h) */
	cite_set cite;               /* what the pages publish writes cite, read
					once (cite_prepare) */
	page_texts english;          /* the English words (audits, fallback) */
	char *cite_now;              /* the citation block of the newest data, in
					English: the audit index, the site-wide
					changes */
	render_reuse reuse;          /* the model files taken from the published
					version (render.h) */
	strmap prev_keys;            /* its keys.tsv: stem -> 1 + index in prev_keyv */
	char **prev_keyv;
	size_t nprev_keys, prev_keys_cap;
	char **keys_now;             /* the new version's keys.tsv lines */
	size_t nkeys_now, keys_now_cap;
	struct reuse_dir *dirs;      /* the folders model files are taken
					from and into, open (reuse_dir_of()) */
	atomic_size_t ndirs;         /* how many of them are ready */
	mc_err *err;
} publish;

static void note(const publish *p, const char *fmt, ...) MC_PRINTF(2, 3);
static void note(const publish *p, const char *fmt, ...)
{
	char msg[PATH_MAX + 256];
	va_list ap;

	if (!p->o->log)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	p->o->log(p->o->program, "%s", msg);
}

/* Read root/name (tab-separated rows) into *rows; a missing file is no rows. */
static int rows_read(const char *root, const char *name, site_row **rows, size_t *n, mc_err *err)
{
	char path[PATH_MAX];
	char *line, *save = NULL;
	sbuf text;

	*rows = NULL;
	*n = 0;
	mc_fmt(path, sizeof(path), "%s/%s", root, name);
	sbuf_init(&text);
	if (read_file(path, &text)) {
		sbuf_release(&text);
		return errno == ENOENT ? 0 : mc_error(err, "%s: cannot read: %s", path, strerror(errno));
	}
	for (line = strtok_r(text.data, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *f[4] = { NULL, NULL, NULL, NULL }, *fs = NULL;
		site_row *r;
		int k;

		for (k = 0; k < 4; k++)
			f[k] = strtok_r(k ? NULL : line, "\t", &fs);
		if (!f[3])
			continue;
		*rows = xrealloc(*rows, (*n + 1) * sizeof(**rows));
		r = &(*rows)[(*n)++];
		mc_fmt(r->label, sizeof(r->label), "%s", f[0]);
		mc_fmt(r->content, sizeof(r->content), "%s", f[1]);
		mc_fmt(r->third, sizeof(r->third), "%s", f[2]);
		mc_fmt(r->loaded, sizeof(r->loaded), "%s", f[3]);
	}
	sbuf_release(&text);
	return 0;
}

static int rows_write(const char *root, const char *name, const site_row *rows, size_t n,
		      mc_err *err)
{
	char path[PATH_MAX];
	sbuf text;
	size_t i;
	int rc;

	sbuf_init(&text);
	for (i = 0; i < n; i++)
		sbuf_addf(&text, "%s\t%s\t%s\t%s\n", rows[i].label, rows[i].content, rows[i].third,
			  rows[i].loaded);
	mc_fmt(path, sizeof(path), "%s/%s", root, name);
	rc = write_file(path, text.data, text.len, err);
	sbuf_release(&text);
	return rc;
}

/* The published version's name (site-ID) from DIR/.modelcat/current, or "". */
static void current_name(const char *state, char name[64])
{
	char path[PATH_MAX];
	ssize_t n;

	mc_fmt(path, sizeof(path), "%s/current", state);
	n = readlink(path, name, 63);
	name[n > 0 ? n : 0] = '\0';
	if (strncmp(name, "site-", 5) || strchr(name, '/') || strstr(name, ".."))
		name[0] = '\0';
}

/* DIR/NAME: absent, modelcat's symbolic link, or a folder (the layout of
 * before versions: *legacy). Anything else is refused. */
static int check_entry(publish *p, const char *name)
{
	char path[PATH_MAX], want[64], got[PATH_MAX];
	struct stat st;
	ssize_t n;

	mc_fmt(path, sizeof(path), "%s/%s", p->out, name);
	mc_fmt(want, sizeof(want), STATE "/current/%s", name);
	if (lstat(path, &st))
		return errno == ENOENT ? 0 : mc_error(p->err, "%s: %s", path, strerror(errno));
	if (S_ISDIR(st.st_mode)) {
		p->legacy = 1;
		return 0;
	}
	if (S_ISLNK(st.st_mode)) {
		n = readlink(path, got, sizeof(got) - 1);
		got[n > 0 ? n : 0] = '\0';
		if (!strcmp(got, want))
			return 0;
		return mc_error(p->err, "%s: a symbolic link to %s, not to %s: move it away to"
				" publish here", path, got, want);
	}
	return mc_error(p->err, "%s: neither a folder nor modelcat's symbolic link: move it away"
			" to publish here", path);
}

/* The site's id, made once (random) and kept in DIR/.modelcat/id. */
static int site_id(publish *p)
{
	char path[PATH_MAX], tmp[PATH_MAX];
	unsigned char bytes[8];
	sbuf text;
	size_t i;

	mc_fmt(path, sizeof(path), "%s/id", p->state);
	sbuf_init(&text);
	if (read_file(path, &text) || text.len < 16) {
		char hex[17];

		if (getrandom(bytes, sizeof(bytes), 0) != (ssize_t)sizeof(bytes))
			return mc_error(p->err, "%s: no random bytes: %s", path, strerror(errno));
		for (i = 0; i < sizeof(bytes); i++)
			mc_fmt(hex + 2 * i, 3, "%02x", bytes[i]);
		mc_fmt(tmp, sizeof(tmp), "%s/id.new-%ld", p->state, (long)getpid());
		if (write_file(tmp, hex, 16, p->err))
			return -1;
		if (link(tmp, path) && errno != EEXIST) {
			unlink(tmp);
			return mc_error(p->err, "%s: cannot create: %s", path, strerror(errno));
		}
		unlink(tmp);
		sbuf_reset(&text);
		if (read_file(path, &text) || text.len < 16) {
			sbuf_release(&text);
			return mc_error(p->err, "%s: cannot read", path);
		}
	}
	mc_fmt(p->id, sizeof(p->id), "%.16s", text.data);
	sbuf_release(&text);
	return 0;
}

/* ---- retiring an old version: only what modelcat wrote goes ---- */

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
static char **list_names(const char *path, size_t *n, unsigned char **types)
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

/* Where an old version's folder is retired into. */
typedef struct retire_ctx {
	const publish *p;
	const char *old_base;        /* the old folder */
	const char *new_base;        /* the new version's matching folder */
	const char *prefix;          /* manifest paths of old_base's files start with it */
	const manifest *mine;        /* the files modelcat wrote (by prefix + path) */
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
	if (!manifest_find(c->mine, path))
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
		note(c->p, "left %s in place: not modelcat's, and the published version has"
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
		note(c->p, "moved %s, not modelcat's, into the published version", to);
		return;
	}
	c->kept++;
	note(c->p, "left %s in place: not modelcat's, and the published version has that name",
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
	names = list_names(path, &n, &types);
	dirfd = n ? open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) : -1;
	if (dirfd < 0)
		dirfd = AT_FDCWD;
	for (i = 0; i < n; i++) {
		struct stat st, nst;
		retire_sub *s;

		mc_fmt(sub, sizeof(sub), "%s%s%s", rel, *rel ? "/" : "", names[i]);
		mc_fmt(path, sizeof(path), "%s/%s", c->old_base, sub);
		if (!*rel && !strcmp(names[i], "MANIFEST"))
			continue;
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
static size_t retire(const publish *p, const char *old_base, const char *new_base,
		     const char *prefix, const manifest *mine)
{
	atomic_int helping;
	retire_ctx c = { p, old_base, new_base, prefix, mine, 0, 0, &helping };

	atomic_init(&helping, 0);
	retire_dir(&c, "");
	return c.kept;
}

/* Retire the old version folder name (a site-ID) into the published one;
 * known: its MANIFEST as read already (NULL: read it). */
static void retire_version(publish *p, const char *name, const char *into,
			   const manifest *known)
{
	char path[PATH_MAX], file[PATH_MAX];
	manifest m;
	mc_err err;
	int rc = 0;

	mc_fmt(path, sizeof(path), "%s/%s", p->state, name);
	manifest_init(&m);
	if (!known)
		rc = manifest_read(path, &m, &err);
	if (rc) {
		note(p, "left %s in place: %s", path, rc < 0 ? err.msg : "it has no MANIFEST");
		manifest_release(&m);
		return;
	}
	if (!retire(p, path, into, "", known ? known : &m)) {
		mc_fmt(file, sizeof(file), "%s/MANIFEST", path);
		unlink(file);
		if (rmdir(path))
			note(p, "left %s in place: %s", path, strerror(errno));
	} else {
		note(p, "left the old version %s in place: it holds files that are not modelcat's",
		     path);
	}
	manifest_release(&m);
}

/* ---- the published version's manifest and keys, read beside ---- */

static void keys_read(publish *p);

static void old_read_all(publish *p)
{
	p->old_rc = manifest_read(p->prev, &p->old, &p->old_err);
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
static void old_start(publish *p)
{
	p->old_live = !mc_thread_start(&p->old_thread, old_main, p);
	if (!p->old_live) {
		old_read_all(p);
		atomic_store(&p->old_ready, 1);
	}
}

/* Wait for old_start()'s reading (any thread may ask; the first joins):
 * 0 with p->old and p->prev_keys read, or -1 (err, when not NULL) when
 * the manifest could not be read. Nothing was started: 0. */
static int old_wait(publish *p, mc_err *err)
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

/* Under the lock, before building: what killed publishes left (build
 * folders, links being made) and old versions not yet removed. */
static void remove_stale(publish *p)
{
	char path[PATH_MAX], into[PATH_MAX];
	size_t n, i;
	char **names = list_names(p->state, &n, NULL);

	for (i = 0; i < n; i++) {
		const char *name = names[i];

		mc_fmt(path, sizeof(path), "%s/%s", p->state, name);
		if (dead_pid_name(name, "build-")) {
			remove_tree(path);
		} else if (dead_pid_name(name, "current.new-") || dead_pid_name(name, "link-") ||
			   dead_pid_name(name, "id.new-")) {
			unlink(path);
		} else if (!strncmp(name, "site-", 5) && strcmp(name, p->prev_name)) {
			if (!p->prev_name[0]) {
				/* never published: nothing in it but modelcat's and links */
				remove_tree(path);
				continue;
			}
			mc_fmt(into, sizeof(into), "%s/%s", p->state, p->prev_name);
			retire_version(p, name, into, NULL);
		} else if (p->prev_name[0] && (!strncmp(name, "old-pages-", 10) ||
					       !strncmp(name, "old-audit-", 10)) &&
			   !old_wait(p, NULL)) {
			mc_fmt(into, sizeof(into), "%s/%s/%.5s", p->state, p->prev_name, name + 4);
			if (!retire(p, path, into, name[4] == 'p' ? "pages/" : "audit/", &p->old))
				rmdir(path);
		}
	}
	mc_free_strings(names, n);
}

/* ---- building the new version ---- */

static const char *const audit_kinds[] = { "txt", "json", "html" };

/* The audits' format: a new one makes every audit again. */
#define AUDIT_FORMAT "audit-5"   /* 5: the citation block */

/* What snapshot i's audit depends on: it, the snapshots before and after
 * it (its links), the volatile fields, the audit's format and the words
 * of its header (frame_load: every language's name, English labels). (Which of
 * the models it names have a page: entries/LABEL.links, audit_reuse.) */
static void fingerprint(const publish *p, size_t i, char fp[65])
{
	sha256_ctx h;
	const snapshot_entry *s = &p->snaps[i], *b = i ? &p->snaps[i - 1] : NULL;
	size_t k;

	sha256_init(&h);
	sha256_update(&h, s->label, strlen(s->label));
	sha256_update(&h, s->content, strlen(s->content));
	if (b) {
		sha256_update(&h, b->label, strlen(b->label));
		sha256_update(&h, b->content, strlen(b->content));
	}
	sha256_update(&h, "\n", 1);
	if (i + 1 < p->nsnaps)
		sha256_update(&h, p->snaps[i + 1].label, strlen(p->snaps[i + 1].label));
	sha256_update(&h, AUDIT_FORMAT, strlen(AUDIT_FORMAT));
	sha256_update(&h, p->models_sha, strlen(p->models_sha));
	for (k = 0; k < p->nwords; k++) {
		const render_words *w = &p->words[k];
		const char *const parts[] = { w->lang, w->name, w->site, w->nav, w->index_label,
					      w->audit, w->hardware_label };
		size_t j;

		for (j = 0; j < sizeof(parts) / sizeof(parts[0]); j++)
			sha256_update(&h, parts[j], strlen(parts[j]) + 1);
	}
	sha256_final_hex(&h, fp);
}

static int has_page(void *arg, const char *name)
{
	const publish *p = arg;

	return strmap_find(&p->models, name, strlen(name)) != NULL;
}

/* The models on record (they have pages) into p->models: names[0..n),
 * which render_all() read (render_stats.names); the volatile fields of
 * the column map, and their hash into p->models_sha. */
static int models_load(publish *p, char *const *names, size_t n)
{
	char dir[PATH_MAX];
	size_t i;
	sha256_ctx h;
	colmap map;
	int added;

	memset(&map, 0, sizeof(map));
	paths_data_file(dir, sizeof(dir), "pipelines");
	if (colmap_load(&map, dir, p->err))
		return -1;
	sha256_init(&h);
	for (i = 0; i < map.nfields; i++) {
		if (!map.fields[i].is_volatile)
			continue;
		p->volatile_fields = xrealloc(p->volatile_fields,
					      (p->nvolatile + 1) * sizeof(*p->volatile_fields));
		p->volatile_fields[p->nvolatile++] = xstrdup(map.fields[i].name);
		sha256_update(&h, map.fields[i].name, strlen(map.fields[i].name) + 1);
	}
	colmap_release(&map);
	sha256_update(&h, "\n", 1);
	strmap_reserve(&p->models, n);
	for (i = 0; i < n; i++)
		strmap_get_or_add(&p->models, names[i], strlen(names[i]), &added);
	sha256_final_hex(&h, p->models_sha);
	return 0;
}

/* The models an audit names with a link when they have a page, as lines
 * "1<TAB>NAME" (has a page: linked) or "0<TAB>NAME" into out. */
static void links_of(publish *p, const diff_result *d, sbuf *out)
{
	const diff_model *items[3] = { d->added.items, d->renamed.items, d->changed.items };
	size_t n[3] = { d->added.n, d->renamed.n, d->changed.n }, k, i;

	for (k = 0; k < 3; k++)
		for (i = 0; i < n[k]; i++)
			sbuf_addf(out, "%d\t%s\n", has_page(p, items[k][i].name), items[k][i].name);
}

/* Do the models the published audit of label names have a page now as
 * they had then (entries/LABEL.links)? 1 or 0. */
static int links_same(publish *p, const char *label)
{
	char path[PATH_MAX], *line, *nl;
	sbuf text;
	int same = 1;

	mc_fmt(path, sizeof(path), "%s/entries/%s.links", p->prev, label);
	sbuf_init(&text);
	if (read_file(path, &text)) {
		sbuf_release(&text);
		return 0;
	}
	for (line = text.data; same && (nl = strchr(line, '\n')); line = nl + 1) {
		*nl = 0;
		same = strlen(line) > 2 && line[1] == '\t' && (line[0] == '1') == has_page(p, line + 2);
	}
	sbuf_release(&text);
	return same;
}

/* Link snapshot label's audit and entry from the published version when
 * it was published with the same fingerprint and the models it names
 * have pages as they had. 1 linked, 0 not. */
static int audit_reuse(publish *p, const char *label, const char *fp)
{
	char from[PATH_MAX], to[PATH_MAX];
	size_t i, k;

	for (i = 0; i < p->npublished; i++)
		if (!strcmp(p->published[i].label, label) && !strcmp(p->published[i].third, fp))
			break;
	if (i == p->npublished || !p->prev_name[0] || !links_same(p, label))
		return 0;
	for (k = 0; k < 5; k++) {
		if (k < 3) {
			mc_fmt(from, sizeof(from), "%s/audit/%s.%s", p->prev, label, audit_kinds[k]);
			mc_fmt(to, sizeof(to), "%s/audit/%s.%s", p->build, label, audit_kinds[k]);
		} else {
			mc_fmt(from, sizeof(from), "%s/entries/%s%s", p->prev, label, k == 4 ? ".links" : "");
			mc_fmt(to, sizeof(to), "%s/entries/%s%s", p->build, label, k == 4 ? ".links" : "");
		}
		unlink(to);
		if (link(from, to))
			return 0;
	}
	return 1;
}

/* Was s published, with this content, by the published version? */
static int was_published(const publish *p, const snapshot_entry *s)
{
	size_t i;

	for (i = 0; i < p->npublished; i++)
		if (!strcmp(p->published[i].label, s->label) &&
		    !strcmp(p->published[i].content, s->content))
			return 1;
	return 0;
}

static void explain_name(publish *p, const char *name)
{
	char stem[128];
	int added;

	if (!name)
		return;
	render_file_stem(name, stem, sizeof(stem));
	strmap_get_or_add(&p->explained, stem, strlen(stem), &added);
}

/* The pages of every model d names (added, removed, returned, renamed,
 * changed, held or quarantined, given or losing a column's value) are
 * explained by it. */
static void explain(publish *p, const diff_result *d)
{
	const diff_model *items[4] = { d->added.items, d->removed.items, d->renamed.items,
				       d->changed.items };
	size_t n[4] = { d->added.n, d->removed.n, d->renamed.n, d->changed.n }, k, i;

	for (k = 0; k < 4; k++)
		for (i = 0; i < n[k]; i++) {
			explain_name(p, items[k][i].name);
			explain_name(p, items[k][i].old_name);
		}
	for (i = 0; i < d->held_models.n; i++)
		explain_name(p, d->held_models.items[i].name);
	/* a quarantined row is a "held" line in its model's History */
	for (i = 0; i < d->quarantined.n; i++)
		explain_name(p, d->quarantined.items[i].name);
	for (k = 0; k < d->column_values.n; k++)
		for (i = 0; i < d->column_values.items[k].n; i++)
			explain_name(p, d->column_values.items[k].names[i]);
}

/* Compute snapshot i's audit (from the snapshot before it) and its feed
 * entry text ("TITLE\nTEXT") into the build. */
static int audit_make(publish *p, size_t i)
{
	const snapshot_entry *s = &p->snaps[i];
	char path[PATH_MAX];
	diff_result d;
	sbuf text;
	size_t k;
	int rc = 0;

	audit_links links = { i ? p->snaps[i - 1].label : NULL,
			      i + 1 < p->nsnaps ? p->snaps[i + 1].label : NULL, 1, "../pages/en",
			      has_page, p, p->volatile_fields, p->nvolatile, NULL, NULL, &p->frame,
			      NULL };

	char *citation = NULL, key[40];
	const provenance_file **files = xcalloc(p->cite.n + 1, sizeof(*files));
	audit_order order;
	size_t nfiles = cite_latest_on(&p->cite, s->day, files);
	sbuf cite;

	/* the citation block of the data as it stood that day */
	sbuf_init(&cite);
	mc_fmt(key, sizeof(key), "epochai:%s", s->day);
	cite_html(&cite, 2, &p->english, &p->english, key, CITE_TITLE, files, nfiles, NULL);
	links.cite = cite.data;
	free(files);
	if (credit_citation(p->cat, s->id, &citation, p->err) < 0) {
		sbuf_release(&cite);
		return -1;
	}
	links.citation = citation;
	if (query_diff_snapshots(p->cat, i ? p->snaps[i - 1].id : 0, s->id, &d, p->err)) {
		free(citation);
		sbuf_release(&cite);
		return -1;
	}
	if (!was_published(p, s))
		explain(p, &d);
	audit_order_make(&order, &d);
	links.order = &order;
	sbuf_init(&text);
	for (k = 0; !rc && k < 4; k++) {
		sbuf_reset(&text);
		if (k == 0)
			audit_text_with(&d, &links, &text);
		else if (k == 1)
			audit_json_with(&d, &links, &text);
		else if (k == 2)
			audit_html_linked(&d, &links, &text);
		if (k < 3) {
			mc_fmt(path, sizeof(path), "%s/audit/%s.%s", p->build, s->label, audit_kinds[k]);
		} else {
			feed_entry_title(s->label, &d, &text);
			sbuf_addc(&text, '\n');
			feed_entry_text(&d, &text);
			mc_fmt(path, sizeof(path), "%s/entries/%s", p->build, s->label);
		}
		rc = write_file(path, text.data, text.len, p->err);
	}
	if (!rc) {
		sbuf_reset(&text);
		links_of(p, &d, &text);
		mc_fmt(path, sizeof(path), "%s/entries/%s.links", p->build, s->label);
		rc = write_file(path, text.data, text.len, p->err);
	}
	sbuf_release(&text);
	audit_order_release(&order);
	diff_result_release(&d);
	free(citation);
	sbuf_release(&cite);
	p->stats->audits++;
	return rc;
}

/* Every snapshot's audit: linked when unchanged, computed otherwise; and
 * the rows of published.tsv. */
/* What the audits, the root page, the audit index and the site-wide
 * changes cite, read once: every export file up to the date, and the
 * English words; the block of the newest data (cite_now). 0, or -1. */
static int cite_prepare(publish *p)
{
	const provenance_file **files;
	char key[40];
	sbuf now;
	size_t n;

	if (cite_load(p->cat, p->as_of, &p->cite, p->err) ||
	    translate_load(p->cat, "en", &p->english, p->err) < 0)
		return -1;
	files = xcalloc(p->cite.n + 1, sizeof(*files));
	n = cite_latest(&p->cite, files);
	sbuf_init(&now);
	mc_fmt(key, sizeof(key), "epochai:%s", p->as_of);
	cite_html(&now, 2, &p->english, &p->english, key, CITE_TITLE, files, n, p->cite.readme);
	p->cite_now = sbuf_detach(&now, NULL);
	free(files);
	return 0;
}

static int build_audits(publish *p, site_row *rows, const render_stats *rs)
{
	size_t i;
	int rc = 0;

	if (models_load(p, rs->names, rs->nnames))
		return -1;
	for (i = 0; !rc && i < p->nsnaps; i++) {
		site_row *r = &rows[i];

		mc_fmt(r->label, sizeof(r->label), "%s", p->snaps[i].label);
		mc_fmt(r->content, sizeof(r->content), "%s", p->snaps[i].content);
		mc_fmt(r->loaded, sizeof(r->loaded), "%s", p->snaps[i].loaded);
		fingerprint(p, i, r->third);
		if (!audit_reuse(p, r->label, r->third) && audit_make(p, i))
			rc = -1;
	}
	return rc;
}

/* The published snapshots no longer in the catalogue join the withdrawn. */
static void find_withdrawn(publish *p)
{
	char now[32];
	size_t i, j;

	day_now(now);
	for (i = 0; i < p->npublished; i++) {
		const site_row *r = &p->published[i];

		for (j = 0; j < p->nsnaps; j++)
			if (!strcmp(p->snaps[j].label, r->label) &&
			    !strcmp(p->snaps[j].content, r->content))
				break;
		if (j < p->nsnaps)
			continue;
		for (j = 0; j < p->nwithdrawn; j++)
			if (!strcmp(p->withdrawn[j].label, r->label) &&
			    !strcmp(p->withdrawn[j].content, r->content))
				break;
		if (j < p->nwithdrawn)
			continue;
		p->withdrawn = xrealloc(p->withdrawn, (p->nwithdrawn + 1) * sizeof(*p->withdrawn));
		p->withdrawn[p->nwithdrawn] = *r;
		mc_fmt(p->withdrawn[p->nwithdrawn].third, sizeof(r->third), "%s", now);
		p->nwithdrawn++;
		p->stats->withdrawn++;
		note(p, "snapshot %s is no longer in the catalogue: withdrawn", r->label);
	}
}

/* A feed entry with the strings it owns. */
typedef struct owned_entry {
	feed_entry e;
	char id[160];
	char link[40];
	sbuf title, text;
} owned_entry;

static int entry_newer(const void *a, const void *b)
{
	const owned_entry *x = a, *y = b;

	return strcmp(y->e.updated, x->e.updated);
}

/* Snapshot i's entry, from the entry text in the build. */
static int entry_of_snapshot(publish *p, size_t i, owned_entry *o)
{
	const snapshot_entry *s = &p->snaps[i];
	char path[PATH_MAX], *nl;
	sbuf text;

	mc_fmt(path, sizeof(path), "%s/entries/%s", p->build, s->label);
	sbuf_init(&text);
	if (read_file(path, &text)) {
		sbuf_release(&text);
		return mc_error(p->err, "%s: cannot read: %s", path, strerror(errno));
	}
	nl = strchr(text.data, '\n');
	sbuf_add(&o->title, text.data, nl ? (size_t)(nl - text.data) : text.len);
	sbuf_adds(&o->text, nl ? nl + 1 : "");
	sbuf_release(&text);
	mc_fmt(o->id, sizeof(o->id), "urn:modelcat:%s:snapshot:%s:%.12s", p->id, s->label, s->content);
	mc_fmt(o->link, sizeof(o->link), "%s.html", s->label);
	o->e.link = o->link;
	o->e.updated = s->loaded;
	return 0;
}

static void entry_of_withdrawal(publish *p, const site_row *r, owned_entry *o)
{
	sbuf_addf(&o->title, "Snapshot %s withdrawn", r->label);
	sbuf_addf(&o->text, "The snapshot %s (loaded %s) is no longer in the catalogue: its"
		  " audit was removed and the pages were published again without it.",
		  r->label, r->loaded);
	mc_fmt(o->id, sizeof(o->id), "urn:modelcat:%s:withdrawn:%s:%.12s", p->id, r->label,
	       r->content);
	o->e.link = NULL;
	o->e.updated = r->third;
}

/* audit/feed.atom and audit/index.html of the build. */
static int build_feed(publish *p)
{
	size_t n = 0, i, max = FEED_ENTRIES + p->nwithdrawn;
	owned_entry *o = xcalloc(max + 1, sizeof(*o));
	char **labels = xcalloc(p->nsnaps + 1, sizeof(*labels));
	char **gone = xcalloc(p->nwithdrawn + 1, sizeof(*gone));
	char path[PATH_MAX], feed_id[64];
	feed_entry *e = xcalloc(max + 1, sizeof(*e));
	sbuf *counts = xcalloc(p->nsnaps + 1, sizeof(*counts));
	const char **sums = xcalloc(p->nsnaps + 1, sizeof(*sums));
	feed_site site = { NULL, p->base_url };
	sbuf out;
	int rc = 0;

	for (i = 0; i < max; i++) {
		sbuf_init(&o[i].title);
		sbuf_init(&o[i].text);
	}
	for (i = p->nsnaps; !rc && i > 0 && n < FEED_ENTRIES; i--)
		rc = entry_of_snapshot(p, i - 1, &o[n++]);
	for (i = 0; i < p->nwithdrawn; i++)
		entry_of_withdrawal(p, &p->withdrawn[i], &o[n++]);
	qsort(o, n, sizeof(*o), entry_newer);
	for (i = 0; i < n; i++) {
		e[i] = o[i].e;
		e[i].id = o[i].id;
		e[i].title = o[i].title.data;
		e[i].text = o[i].text.data;
	}
	for (i = 0; i < p->nsnaps; i++) {
		char *nl;

		labels[i] = p->snaps[p->nsnaps - 1 - i].label;
		sbuf_init(&counts[i]);
		mc_fmt(path, sizeof(path), "%s/entries/%s", p->build, labels[i]);
		if (!read_file(path, &counts[i]) && (nl = strchr(counts[i].data, '\n')))
			counts[i].len = (size_t)(nl - counts[i].data), *nl = 0;
		sums[i] = counts[i].data;
	}
	for (i = 0; i < p->nwithdrawn; i++)
		gone[i] = p->withdrawn[p->nwithdrawn - 1 - i].label;
	sbuf_init(&out);
	mc_fmt(feed_id, sizeof(feed_id), "urn:modelcat:%s:audit", p->id);
	if (!rc)
		site.id = feed_id, rc = feed_atom(&site, e, n, &out, p->err);
	mc_fmt(path, sizeof(path), "%s/audit/feed.atom", p->build);
	if (!rc)
		rc = write_file(path, out.data, out.len, p->err);
	sbuf_reset(&out);
	feed_index_html(labels, sums, p->nsnaps, gone, p->nwithdrawn, p->nchanges, &p->frame,
			p->cite_now, &out);
	mc_fmt(path, sizeof(path), "%s/audit/index.html", p->build);
	if (!rc)
		rc = write_file(path, out.data, out.len, p->err);
	sbuf_release(&out);
	for (i = 0; i < max; i++) {
		sbuf_release(&o[i].title);
		sbuf_release(&o[i].text);
	}
	free(o);
	free(e);
	for (i = 0; i < p->nsnaps; i++)
		sbuf_release(&counts[i]);
	free(counts);
	free(sums);
	free(labels);
	free(gone);
	return rc;
}

/* The digest the published version's manifest gives its file rel, when
 * that file is there (a regular file, its path in from and its stat in
 * st), else NULL. */
static const char *published_file(const publish *p, const char *rel, char from[PATH_MAX],
				  struct stat *st)
{
	const char *had = manifest_find(&p->old, rel);

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
	manifest_add(&p->now, rel, sha);
	p->stats->files++;
	pthread_mutex_unlock(&p->lock);
}

/* Has the new manifest rel yet? Under the lock: another thread may be
 * entering files (hash_build() runs on two at once). */
static int now_has(publish *p, const char *rel)
{
	int has;

	pthread_mutex_lock(&p->lock);
	has = manifest_find(&p->now, rel) != NULL;
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
static int hash_build(publish *p, const char *rel, mc_err *err)
{
	char path[PATH_MAX], sub[PATH_MAX], sha[65];
	unsigned char *types;
	size_t n, i;
	char **names;
	int rc = 0;

	mc_fmt(path, sizeof(path), "%s/%s", p->build, rel);
	names = list_names(path, &n, &types);
	for (i = 0; !rc && i < n; i++) {
		struct stat st;

		mc_fmt(sub, sizeof(sub), "%s/%s", rel, names[i]);
		if (types[i] == DT_REG && now_has(p, sub))
			continue;   /* put_file() had it (no lstat() for most) */
		mc_fmt(path, sizeof(path), "%s/%s", p->build, sub);
		if (lstat(path, &st))
			continue;
		if (S_ISDIR(st.st_mode)) {
			rc = hash_build(p, sub, err);
			continue;
		}
		if (S_ISREG(st.st_mode) && now_has(p, sub))
			continue;   /* put_file() had it */
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

	if (atomic_load(&stopping)) {
		mc_error(err, "%s: stopped by a signal", path);
		return NULL;
	}
	if (old_wait(p, err))
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
 * written. hash_build() then passes over it. */
static int put_file(void *ctx, const char *path, const void *data, size_t len, mc_err *err)
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
 * downloads) into the new manifest as put_file() enters one. */
static int placed_file(void *ctx, const char *path, const char *sha, unsigned long long len,
		       mc_err *err)
{
	publish *p = ctx;
	const char *rel = build_rel(p, path, err);

	if (!rel)
		return -1;
	enter_written(p, rel, path, sha, len, NULL);
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
	for (line = read_file(path, &text) ? NULL : text.data; line && *line; line = next) {
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

static const char *reuse_prev_key(void *ctx, const char *stem)
{
	publish *p = ctx;
	const size_t *at;

	if (old_wait(p, NULL))
		return NULL;   /* (the manifest's failure comes with the files) */
	at = strmap_find(&p->prev_keys, stem, strlen(stem));
	return at ? p->prev_keyv[*at - 1] : NULL;
}

static void reuse_made(void *ctx, const char *stem, const char *key)
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

static void reuse_dirs_close(publish *p)
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
static int reuse_take(void *ctx, char *const *paths, size_t n, mc_err *err)
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

	if (atomic_load(&stopping))
		return mc_error(err, "%s: stopped by a signal", p->build);
	if (old_wait(p, err))
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
		    !(f[i].sha = manifest_find(&p->old, rel)) ||
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
			manifest_add(&p->now, paths[i] + blen + 1, f[i].sha);
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
static int keys_write(publish *p, mc_err *err)
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
	rc = write_file(path, text.data ? text.data : "", text.len, err);
	sbuf_release(&text);
	return rc;
}

/*
 * The pages' files into the new manifest (hash_build(): most are there
 * already, a walk of two folders of 133,500 files each at the bench's
 * size) and keys.tsv, on a thread of their own while the audits and the
 * root page are made and the downloads walked: those write only audit/,
 * entries/ and index.html, and enter files under the lock, where the
 * walks look them up.
 */
static int pages_walk(void *arg, mc_err *err)
{
	publish *p = arg;

	return hash_build(p, "pages", err) || keys_write(p, err) ? -1 : 0;
}

/* ---- what explains the changed pages (changes.h) ---- */

static int stem_explained(const publish *p, const char *name, size_t len)
{
	char stem[128], *copy = xstrndup(name, len);

	render_file_stem(copy, stem, sizeof(stem));
	free(copy);
	return strmap_find(&p->explained, stem, strlen(stem)) != NULL;
}

/* The first line of the page text root/rel: a model's name, or "OLD →
 * NEW: FILE" of a redirect. Is a name it gives explained? *name gets the
 * page's own name (malloc'd) when it has none yet. */
static int page_explained(const publish *p, const char *root, const char *rel, char **name)
{
	static const char arrow[] = " \xe2\x86\x92 ";
	char path[PATH_MAX];
	const char *a, *end;
	sbuf text;
	int ok = 0;

	mc_fmt(path, sizeof(path), "%s/%s", root, rel);
	sbuf_init(&text);
	if (!root[0] || read_file(path, &text)) {
		sbuf_release(&text);
		return 0;
	}
	end = text.data + strcspn(text.data, "\n");
	a = strstr(text.data, arrow);
	if (a && a < end) {
		const char *to = a + strlen(arrow), *colon = strstr(to, ": ");

		ok = colon && colon < end && stem_explained(p, to, (size_t)(colon - to));
		end = a;
	}
	if (!*name)
		*name = xstrndup(text.data, (size_t)(end - text.data));
	sbuf_release(&text);
	return ok;
}

/* Is the page file rel ("pages/LANG/STEM.EXT", not an index) explained by
 * the new snapshots' audits? Its stem, else a name its text gives in the
 * new version or the published one. *name: the page's name. */
static int page_file_explained(const publish *p, const char *rel, char **name)
{
	const char *lang = rel + 6, *file = strchr(lang, '/'), *dot;
	char txt[PATH_MAX];

	if (!file || !(dot = strrchr(file, '.')))
		return 1;
	if (strmap_find(&p->explained, file + 1, (size_t)(dot - file - 1)))
		return 1;
	mc_fmt(txt, sizeof(txt), "%.*s.txt", (int)(dot - rel), rel);
	return page_explained(p, p->build, txt, name) || page_explained(p, p->prev, txt, name);
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The page files that differ between the published version and the new
 * one (every one of a changed model's pages: text and HTML, every
 * language) whose model no new snapshot's audit names: one site-wide
 * change, with its reason, appended to p->changes. */
static void page_changes(publish *p)
{
	const manifest *m[2] = { &p->now, &p->old };
	site_change c;
	strmap seen;
	size_t k, i, w;
	sbuf reason;

	if (!p->prev_name[0])            /* a first publication changes nothing */
		return;
	memset(&c, 0, sizeof(c));
	strmap_init(&seen);
	for (k = 0; k < 2; k++)
		for (i = 0; i < m[k]->n; i++) {
			const char *rel = m[k]->paths[i], *had = manifest_find(m[!k], rel);
			const char *stem = strrchr(rel, '/');
			char *name = NULL;
			int added;

			/* a hardware page changes with its card or with the models
			   it lists: the audits name both */
			if (strncmp(rel, "pages/", 6) || (had && !strcmp(had, m[k]->sha[i])) ||
			    !strncmp(stem, "/index.", 7) || strstr(rel, "/hardware/"))
				continue;
			strmap_get_or_add(&seen, stem, strcspn(stem, "."), &added);
			if (!added || page_file_explained(p, rel, &name)) {
				free(name);
				continue;
			}
			c.names = xrealloc(c.names, (c.n + 1) * sizeof(*c.names));
			c.names[c.n++] = name ? name : xstrdup(stem + 1);
		}
	strmap_release(&seen);
	if (!c.n)
		return;
	qsort(c.names, c.n, sizeof(*c.names), name_cmp);
	sbuf_init(&reason);
	w = p->nwithdrawn - p->nwithdrawn_before;
	{
		char **labels = xcalloc(w + 1, sizeof(*labels));

		for (i = 0; i < w; i++)
			labels[i] = p->withdrawn[p->nwithdrawn_before + i].label;
		changes_reason(&p->stamp_was, &p->stamp_now, labels, w, &reason);
		free(labels);
	}
	c.reason = sbuf_detach(&reason, NULL);
	c.when = xcalloc(1, 32);
	day_now(c.when);
	c.snapshot = xstrdup(p->stats->label);
	note(p, "site-wide change: %s: the pages of %zu model%s", c.reason, c.n,
	     c.n == 1 ? "" : "s");
	p->changes = xrealloc(p->changes, (p->nchanges + 1) * sizeof(*p->changes));
	p->changes[p->nchanges++] = c;
}

/* render.tsv, changes.tsv and audit/site.{txt,json,html} of the build. */
static int write_changes(publish *p)
{
	static const char *const kinds[] = { "render.tsv", "changes.tsv", "audit/site.txt",
					     "audit/site.json", "audit/site.html" };
	char path[PATH_MAX];
	sbuf out;
	size_t k;
	int rc = 0;

	sbuf_init(&out);
	for (k = 0; !rc && k < 5; k++) {
		sbuf_reset(&out);
		if (k == 0)
			changes_stamp_tsv(&p->stamp_now, &out);
		else if (k == 1)
			changes_tsv(p->changes, p->nchanges, &out);
		else if (k == 2)
			changes_text(p->changes, p->nchanges, &out);
		else if (k == 3)
			changes_json(p->changes, p->nchanges, &out);
		else
			changes_html(p->changes, p->nchanges, "../pages/en", has_page, p,
				     &p->frame, p->cite_now, &out);
		mc_fmt(path, sizeof(path), "%s/%s", p->build, kinds[k]);
		rc = write_file(path, out.data, out.len, p->err);
	}
	sbuf_release(&out);
	return rc;
}

/* Carry the files under the published version's folder rel that modelcat
 * did not write into the build: hard links, symbolic links made again
 * (never followed), folders made. */
static int carry(publish *p, const char *rel)
{
	char from[PATH_MAX], to[PATH_MAX], sub[PATH_MAX], target[PATH_MAX];
	size_t n, i;
	char **names;
	int rc = 0;

	mc_fmt(from, sizeof(from), "%s/%s", p->prev, rel);
	names = list_names(from, &n, NULL);
	for (i = 0; !rc && i < n; i++) {
		struct stat st, nst;
		int there;
		ssize_t len;

		mc_fmt(sub, sizeof(sub), "%s/%s", rel, names[i]);
		mc_fmt(from, sizeof(from), "%s/%s", p->prev, sub);
		mc_fmt(to, sizeof(to), "%s/%s", p->build, sub);
		/* (modelcat's files first: most of them, and no lstat() for them) */
		if ((p->prev_name[0] && manifest_find(&p->old, sub)) || lstat(from, &st))
			continue;
		there = !lstat(to, &nst);
		if (S_ISDIR(st.st_mode)) {
			if (there && !S_ISDIR(nst.st_mode))
				continue;
			if (!there && mkdir(to, st.st_mode & 07777))
				rc = mc_error(p->err, "%s: cannot create: %s", to, strerror(errno));
			else
				rc = carry(p, sub);
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

/* ---- the switch ---- */

/* Make DIR/NAME modelcat's symbolic link .modelcat/current/NAME. A folder
 * there (the layout before versions) is exchanged with the link in one
 * rename, then retired into the new version. */
static void install_link(publish *p, const char *name)
{
	char path[PATH_MAX], tmp[PATH_MAX], target[64], old[PATH_MAX], into[PATH_MAX];
	struct stat st;

	mc_fmt(path, sizeof(path), "%s/%s", p->out, name);
	mc_fmt(target, sizeof(target), STATE "/current/%s", name);
	mc_fmt(tmp, sizeof(tmp), "%s/link-%ld", p->state, (long)getpid());
	if (!lstat(path, &st) && S_ISLNK(st.st_mode))
		return;
	unlink(tmp);
	if (symlink(target, tmp)) {
		note(p, "%s: cannot create: %s", tmp, strerror(errno));
		return;
	}
	if (lstat(path, &st) && errno == ENOENT) {
		if (rename(tmp, path))
			note(p, "%s: cannot create: %s", path, strerror(errno));
		return;
	}
	mc_fmt(old, sizeof(old), "%s/old-%s-%ld", p->state, name, (long)getpid());
	if (renameat2(AT_FDCWD, tmp, AT_FDCWD, path, RENAME_EXCHANGE)) {
		/* no exchange on this file system: two renames */
		if (rename(path, old) || rename(tmp, path)) {
			note(p, "%s: cannot replace by a symbolic link: %s", path, strerror(errno));
			unlink(tmp);
			return;
		}
	} else if (rename(tmp, old)) {
		note(p, "%s: cannot rename: %s", tmp, strerror(errno));
		return;
	}
	note(p, "%s is now a symbolic link to %s; its files that modelcat did not write were"
	     " carried over", path, target);
	mc_fmt(into, sizeof(into), "%s/%s", p->site, name);
	mc_fmt(tmp, sizeof(tmp), "%s/", name);
	if (!retire(p, old, into, tmp, &p->now))
		rmdir(old);
}

/* Make DIR/index.html the symbolic link .modelcat/current/index.html
 * (the root page), unless a file of the user's is there: it is kept. */
static void install_root(publish *p)
{
	char path[PATH_MAX], tmp[PATH_MAX];
	struct stat st;

	mc_fmt(path, sizeof(path), "%s/index.html", p->out);
	if (!lstat(path, &st)) {
		char target[PATH_MAX];
		ssize_t n = S_ISLNK(st.st_mode) ? readlink(path, target, sizeof(target) - 1) : -1;

		if (n >= 0)
			target[n] = '\0';
		if (n < 0 || strcmp(target, STATE "/current/index.html"))
			note(p, "%s is a file of yours: kept (the root page is "
			     STATE "/current/index.html)", path);
		return;
	}
	mc_fmt(tmp, sizeof(tmp), "%s/link-%ld", p->state, (long)getpid());
	unlink(tmp);
	if (symlink(STATE "/current/index.html", tmp) || rename(tmp, path)) {
		note(p, "%s: cannot create: %s", path, strerror(errno));
		unlink(tmp);
	}
}

/* Rename the build to site-ID and current to it; DIR/pages and DIR/audit
 * lead there; the old version is retired. Signals wait meanwhile; once
 * current is the new version they stay blocked: the publish has happened,
 * and a signal now would end the process with 128 + N as if it had not
 * (one pending is dropped when the process exits). */
static int switch_version(publish *p)
{
	char name[64], link_tmp[PATH_MAX], current[PATH_MAX];
	sigset_t block, saved;
	struct timespec now;

	clock_gettime(CLOCK_REALTIME, &now);
	mc_fmt(name, sizeof(name), "site-%ld-%lld%03ld", (long)getpid(), (long long)now.tv_sec,
	       now.tv_nsec / 1000000);
	mc_fmt(p->site, sizeof(p->site), "%s/%s", p->state, name);
	mc_fmt(link_tmp, sizeof(link_tmp), "%s/current.new-%ld", p->state, (long)getpid());
	mc_fmt(current, sizeof(current), "%s/current", p->state);
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigprocmask(SIG_BLOCK, &block, &saved);
	unlink(link_tmp);
	if (rename(p->build, p->site)) {
		mc_error(p->err, "%s: cannot rename: %s", p->build, strerror(errno));
		goto out;
	}
	building_set = 0;
	if (symlink(name, link_tmp) || rename(link_tmp, current)) {
		mc_error(p->err, "%s: cannot switch: %s", current, strerror(errno));
		unlink(link_tmp);
		remove_tree(p->site);
		goto out;
	}
	install_link(p, "pages");
	install_link(p, "audit");
	install_link(p, "downloads");
	install_root(p);
	/* (p->old: its MANIFEST, read under the lock this publish holds) */
	if (p->prev_name[0])
		retire_version(p, p->prev_name, p->site, !p->old_rc ? &p->old : NULL);
	return 0;
out:
	sigprocmask(SIG_SETMASK, &saved, NULL);
	return -1;
}

/* ---- publish ---- */

/* Where things are, what is published, what the catalogue holds. */
/* Is url an absolute http(s) URL with no space, quote or markup? */
static int url_ok(const char *url)
{
	if (strncmp(url, "http://", 7) && strncmp(url, "https://", 8))
		return 0;
	return !url[strcspn(url, " \t\r\n\"'<>\\")] && strlen(url) < 1000 &&
	       url[strchr(url, ':') - url + 3];
}

int site_base_url_ok(const char *url)
{
	return url_ok(url);
}

/* The site's URL: o->base_url, else the base-url line of
 * pipelines/site.tsv, else "". 0, or -1 (err: a bad line). */
static int base_url_find(publish *p)
{
	char path[PATH_MAX], line[2048];
	long n = 0;
	FILE *f;

	if (p->o->base_url && *p->o->base_url) {
		if (!url_ok(p->o->base_url))
			return mc_error(p->err, "--base-url %s: not an http:// or https:// URL",
					p->o->base_url);
		mc_fmt(p->base_url, sizeof(p->base_url), "%s", p->o->base_url);
		return 0;
	}
	paths_data_file(path, sizeof(path), "pipelines/site.tsv");
	if (!(f = fopen(path, "r")))
		return 0;
	while (fgets(line, sizeof(line), f)) {
		char *v;

		n++;
		line[strcspn(line, "\r\n")] = 0;
		if (line[0] == '#' || !line[0])
			continue;
		v = strchr(line, '\t');
		if (!v || strncmp(line, "base-url\t", 9) || !url_ok(v + 1)) {
			fclose(f);
			return mc_error(p->err, "%s:%ld: expected base-url<TAB>http(s)://...", path, n);
		}
		mc_fmt(p->base_url, sizeof(p->base_url), "%s", v + 1);
	}
	fclose(f);
	return 0;
}

/* The published version's render.tsv and changes.tsv (none: an empty
 * stamp, no changes). */
static void read_changes(publish *p)
{
	char path[PATH_MAX];
	sbuf text;

	sbuf_init(&text);
	mc_fmt(path, sizeof(path), "%s/render.tsv", p->prev);
	if (!read_file(path, &text))
		changes_stamp_parse(text.data, &p->stamp_was);
	sbuf_reset(&text);
	mc_fmt(path, sizeof(path), "%s/changes.tsv", p->prev);
	if (!read_file(path, &text))
		changes_parse(text.data, &p->changes, &p->nchanges);
	sbuf_release(&text);
}

static int publish_prepare(publish *p, const char *out)
{
	mc_fmt(p->out, sizeof(p->out), "%s", out);
	mc_fmt(p->state, sizeof(p->state), "%s/" STATE, out);
	mc_fmt(p->build, sizeof(p->build), "%s/build-%ld", p->state, (long)getpid());
	if (make_dir(p->out, p->err) || make_dir(p->state, p->err) ||
	    check_entry(p, "pages") || check_entry(p, "audit") || check_entry(p, "downloads") ||
	    site_id(p))
		return -1;
	current_name(p->state, p->prev_name);
	if (p->prev_name[0]) {
		p->legacy = 0;
		mc_fmt(p->prev, sizeof(p->prev), "%s/%s", p->state, p->prev_name);
		if (rows_read(p->prev, "published.tsv", &p->published, &p->npublished, p->err) ||
		    rows_read(p->prev, "withdrawn.tsv", &p->withdrawn, &p->nwithdrawn, p->err))
			return -1;
		read_changes(p);
		old_start(p);
	} else if (p->legacy) {
		mc_fmt(p->prev, sizeof(p->prev), "%s", p->out);
	}
	remove_stale(p);
	if (base_url_find(p))
		return -1;
	if (p->o->as_of && *p->o->as_of) {
		mc_fmt(p->as_of, sizeof(p->as_of), "%s", p->o->as_of);
	} else {
		int rc = snapshot_latest_day(p->cat, p->as_of, p->err);

		if (rc)
			return rc < 0 ? -1 : mc_error(p->err, "%s: the catalogue holds no snapshot",
						      p->cat->path);
	}
	if (snapshot_list(p->cat, p->as_of, &p->snaps, &p->nsnaps, p->err))
		return -1;
	if (!p->nsnaps)
		return mc_error(p->err, "%s: no snapshot on or before %s", p->cat->path, p->as_of);
	p->stats->snapshots = p->nsnaps;
	mc_fmt(p->stats->label, sizeof(p->stats->label), "%s", p->snaps[p->nsnaps - 1].label);
	return 0;
}

/* The words of the site's frame, and the frame of the audit pages
 * (English, under audit/). 0, or -1 (err). */
static int frame_load(publish *p)
{
	if (render_words_load(p->cat, &p->words, &p->nwords, p->err))
		return -1;
	p->alts = xcalloc(p->nwords, sizeof(*p->alts));
	render_frame(&p->frame, p->alts, p->words, p->nwords, 0, "../", p->base_url);
	return 0;
}

/* What the root page adds to language lang's part: the downloads with
 * their sizes and the citation block (each export's latest file), in
 * that language (*html, the caller frees it). 0, or -1 (err). */
static int root_more(publish *p, const char *lang, char **html)
{
	page_texts texts;
	const provenance_file **files;
	char key[40];
	size_t n;
	sbuf out;

	*html = NULL;
	if (translate_load(p->cat, lang, &texts, p->err) < 0)
		return -1;
	files = xcalloc(p->cite.n + 1, sizeof(*files));
	n = cite_latest(&p->cite, files);
	sbuf_init(&out);
	download_list_html(&p->downloads, "", &texts, &p->english, &out);
	mc_fmt(key, sizeof(key), "epochai:%s", p->as_of);
	cite_html(&out, 3, &texts, &p->english, key, CITE_TITLE, files, n, p->cite.readme);
	*html = sbuf_detach(&out, NULL);
	free(files);
	page_texts_release(&texts);
	return 0;
}

/* The root page, DIR/index.html through the link install_root makes:
 * every language's words, the newest snapshot's date. 0, or -1 (err). */
static int write_root(publish *p)
{
	frame *frames = xcalloc(p->nwords, sizeof(*frames));
	frame_alt *alts = xcalloc(p->nwords * p->nwords + 1, sizeof(*alts));
	frame_root_text *t = xcalloc(p->nwords, sizeof(*t));
	char **more = xcalloc(p->nwords + 1, sizeof(*more));
	char path[PATH_MAX], sha[65], day[11];
	size_t i;
	sbuf out;
	int rc = 0;

	for (i = 0; i < p->nwords; i++) {
		render_frame(&frames[i], alts + i * p->nwords, p->words, p->nwords, i, "",
			     p->base_url);
		t[i].f = &frames[i];
		t[i].name = p->words[i].name;
		t[i].about = p->words[i].about;
		t[i].published = p->words[i].published;
		if (!rc)
			rc = root_more(p, p->words[i].lang, &more[i]);
		t[i].more = more[i];
	}
	mc_fmt(day, sizeof(day), "%.10s", p->stats->label);
	sbuf_init(&out);
	frame_root_html(t, p->nwords, day, &out);
	mc_fmt(path, sizeof(path), "%s/index.html", p->build);
	if (!rc)
		rc = write_file(path, out.data, out.len, p->err);
	if (!rc && !(rc = sha256_file(path, sha, NULL, p->err))) {
		pthread_mutex_lock(&p->lock);   /* (the pages' job enters beside it) */
		manifest_add(&p->now, "index.html", sha);
		pthread_mutex_unlock(&p->lock);
	}
	sbuf_release(&out);
	mc_free_strings(more, p->nwords);
	free(t);
	free(alts);
	free(frames);
	return rc;
}

/* The new version, whole, in the build folder. */
static int publish_build(publish *p)
{
	static const char *const dirs[] = { "", "/pages", "/audit", "/entries" };
	site_row *rows = xcalloc(p->nsnaps + 1, sizeof(*rows));
	render_stats rs = { 0 };
	mc_job pages;
	char path[PATH_MAX], downloads[PATH_MAX];
	render_site site = { p->base_url, &p->downloads, downloads, &p->files, &p->reuse, 1 };
	size_t k;
	int rc = -1;

	mc_fmt(building, sizeof(building), "%s", p->build);
	building_set = 1;
	remove_tree(p->build);
	for (k = 0; k < 4; k++) {
		mc_fmt(path, sizeof(path), "%s%s", p->build, dirs[k]);
		if (mkdir(path, 0755)) {
			mc_error(p->err, "%s: cannot create: %s", path, strerror(errno));
			goto out;
		}
	}
	/* (the downloads are written by render_all(), beside the index
	   entries) */
	mc_fmt(downloads, sizeof(downloads), "%s/downloads", p->build);
	mc_fmt(path, sizeof(path), "%s/pages", p->build);
	if (render_all(p->cat, p->as_of, path, &site, &rs, p->err) || old_wait(p, p->err))
		goto out;
	/* the downloads' walk here, beside the pages' (after the audits,
	   which the walks take as long as) */
	mc_job_start(&pages, pages_walk, p, 1);
	if (mc_job_wait(&pages,
			frame_load(p) || cite_prepare(p) || build_audits(p, rows, &rs) ||
				write_root(p) || hash_build(p, "downloads", p->err),
			p->err))
		goto out;
	p->stats->models = rs.models;
	p->stats->models_made = rs.models - rs.reused;
	mc_fmt(p->stamp_now.version, sizeof(p->stamp_now.version), "%s", MODELCAT_VERSION);
	mc_fmt(p->stamp_now.texts, sizeof(p->stamp_now.texts), "%s", rs.texts_sha);
	p->nwithdrawn_before = p->nwithdrawn;
	find_withdrawn(p);
	page_changes(p);
	if (write_changes(p) || build_feed(p) ||
	    rows_write(p->build, "published.tsv", rows, p->nsnaps, p->err) ||
	    rows_write(p->build, "withdrawn.tsv", p->withdrawn, p->nwithdrawn, p->err) ||
	    hash_build(p, "audit", p->err) || hash_build(p, "entries", p->err))
		goto out;
	for (k = 0; k < 5; k++) {
		static const char *const names[] = { "published.tsv", "withdrawn.tsv", "render.tsv",
						     "changes.tsv", "keys.tsv" };
		const char *name = names[k];

		mc_fmt(path, sizeof(path), "%s/%s", p->build, name);
		{
			char sha[65];

			if (sha256_file(path, sha, NULL, p->err))
				goto out;
			manifest_add(&p->now, name, sha);
		}
	}
	if (p->prev[0] && (carry(p, "pages") || carry(p, "audit") || carry(p, "downloads")))
		goto out;
	if (manifest_write(p->build, &p->now, p->err))
		goto out;
	{
		int fd = open(p->build, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

		/* the new version is on disk before any reader can be sent to it */
		if (fd >= 0) {
			syncfs(fd);
			close(fd);
		}
	}
	rc = 0;
out:
	mc_free_strings(rs.names, rs.nnames);
	free(rows);
	return rc;
}

int site_publish(catalogue *cat, const char *out, const site_options *o, site_stats *stats,
		 mc_err *err)
{
	publish p;
	int rc = -1;

	memset(&p, 0, sizeof(p));
	memset(stats, 0, sizeof(*stats));
	p.cat = cat;
	p.o = o;
	p.stats = stats;
	p.err = err;
	manifest_init(&p.old);
	manifest_init(&p.now);
	pthread_mutex_init(&p.lock, NULL);
	pthread_mutex_init(&p.old_lock, NULL);
	p.files.put = put_file;
	p.files.placed = placed_file;
	p.files.ctx = &p;
	p.reuse.prev_key = reuse_prev_key;
	p.reuse.take = reuse_take;
	p.reuse.made = reuse_made;
	p.reuse.ctx = &p;
	strmap_init(&p.prev_keys);
	strmap_init(&p.models);
	strmap_init(&p.explained);
	atomic_init(&p.ndirs, 0);
	if (publish_prepare(&p, out) || publish_build(&p) ||
	    (o->before_switch && o->before_switch(o->arg, err)) || switch_version(&p)) {
		if (building_set)
			remove_tree(p.build);
		goto out;
	}
	rc = 0;
out:
	old_wait(&p, NULL);   /* (a failure before the build: joined here) */
	reuse_dirs_close(&p);
	building_set = 0;
	manifest_release(&p.old);
	manifest_release(&p.now);
	pthread_mutex_destroy(&p.lock);
	pthread_mutex_destroy(&p.old_lock);
	strmap_release(&p.models);
	strmap_release(&p.explained);
	strmap_release(&p.prev_keys);
	mc_free_strings(p.prev_keyv, p.nprev_keys);
	mc_free_strings(p.keys_now, p.nkeys_now);
	changes_release(p.changes, p.nchanges);
	render_words_free(p.words, p.nwords);
	download_release(&p.downloads);
	cite_release(&p.cite);
	page_texts_release(&p.english);
	free(p.cite_now);
	free(p.alts);
	mc_free_strings(p.volatile_fields, p.nvolatile);
	free(p.snaps);
	free(p.published);
	free(p.withdrawn);
	return rc;
}

int site_up_to_date(catalogue *cat, const char *out, const char *as_of, int *same, mc_err *err)
{
	char state[PATH_MAX], name[64], root[PATH_MAX], texts[65];
	snapshot_entry *snaps = NULL;
	site_row *rows = NULL;
	size_t nsnaps = 0, nrows = 0, i;
	int rc = -1;

	*same = 0;
	mc_fmt(state, sizeof(state), "%s/" STATE, out);
	current_name(state, name);
	if (!name[0])
		return 0;
	mc_fmt(root, sizeof(root), "%s/%s", state, name);
	if (rows_read(root, "published.tsv", &rows, &nrows, err) ||
	    snapshot_list(cat, as_of, &snaps, &nsnaps, err))
		goto out;
	*same = nrows == nsnaps;
	for (i = 0; *same && i < nsnaps; i++)
		*same = !strcmp(rows[i].label, snaps[i].label) &&
			!strcmp(rows[i].content, snaps[i].content);
	if (*same) {
		/* pages another modelcat version rendered are rendered again */
		render_stamp stamp;
		sbuf text;

		sbuf_init(&text);
		mc_fmt(root + strlen(root), sizeof(root) - strlen(root), "/render.tsv");
		changes_stamp_parse(read_file(root, &text) ? "" : text.data, &stamp);
		*same = !strcmp(stamp.version, MODELCAT_VERSION);
		sbuf_release(&text);
		/* and pages of other texts (modelcat translate since) */
		if (*same && render_texts_digest(cat, texts, err))
			goto out;
		*same = *same && !strcmp(stamp.texts, texts);
	}
	rc = 0;
out:
	free(rows);
	free(snaps);
	return rc;
}

/* A problem line; counts it. */
static void problem(FILE *report, size_t *problems, const char *fmt, ...) MC_PRINTF(3, 4);
static void problem(FILE *report, size_t *problems, const char *fmt, ...)
{
	va_list ap;

	(*problems)++;
	if (!report)
		return;
	va_start(ap, fmt);
	vfprintf(report, fmt, ap);
	va_end(ap);
	fputc('\n', report);
}

int site_verify(const char *out, FILE *report, size_t *problems, mc_err *err)
{
	char state[PATH_MAX], name[64], root[PATH_MAX], path[PATH_MAX], got[PATH_MAX], sha[65];
	static const char *const links[] = { "pages", "audit" };
	manifest m;
	size_t i;
	int rc;

	*problems = 0;
	mc_fmt(state, sizeof(state), "%s/" STATE, out);
	current_name(state, name);
	if (!name[0]) {
		problem(report, problems, "%s/current: no published site", state);
		return 0;
	}
	for (i = 0; i < 2; i++) {
		ssize_t n;

		mc_fmt(path, sizeof(path), "%s/%s", out, links[i]);
		n = readlink(path, got, sizeof(got) - 1);
		got[n > 0 ? n : 0] = '\0';
		if (strncmp(got, STATE "/current/", sizeof(STATE "/current/") - 1) ||
		    strcmp(got + sizeof(STATE "/current/") - 1, links[i]))
			problem(report, problems, "%s: not the symbolic link " STATE "/current/%s",
				path, links[i]);
	}
	mc_fmt(root, sizeof(root), "%s/%s", state, name);
	manifest_init(&m);
	rc = manifest_read(root, &m, err);
	if (rc) {
		manifest_release(&m);
		if (rc < 0)
			return -1;
		problem(report, problems, "%s/MANIFEST: missing", root);
		return 0;
	}
	for (i = 0; i < m.n; i++) {
		const char *rel = m.paths[i];
		char shown[PATH_MAX];
		struct stat st;
		mc_err ferr;

		/* named as a reader names it: DIR/pages/..., DIR/audit/... */
		mc_fmt(path, sizeof(path), "%s/%s", root, rel);
		if (!strncmp(rel, "pages/", 6) || !strncmp(rel, "audit/", 6))
			mc_fmt(shown, sizeof(shown), "%s/%s", out, rel);
		else
			mc_fmt(shown, sizeof(shown), "%s", path);
		if (lstat(path, &st) || !S_ISREG(st.st_mode))
			problem(report, problems, "%s: missing", shown);
		else if (sha256_file(path, sha, NULL, &ferr))
			problem(report, problems, "%s", ferr.msg);
		else if (strcmp(sha, m.sha[i]))
			problem(report, problems, "%s: SHA-256 %s, published as %s", shown, sha,
				m.sha[i]);
	}
	manifest_release(&m);
	return 0;
}
