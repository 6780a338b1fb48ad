#include "publish/site.h"
#include "publish/site_internal.h"
#include "publish/site_fs.h"
#include "publish/changes.h"
#include "publish/render.h"
#include "publish/cite.h"
#include "publish/download.h"
#include "publish/translate.h"
#include "db/snapshot.h"
#include "base/fileout.h"
#include "base/paths.h"
#include "base/sha256.h"
#include "base/strmap.h"

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
#include <time.h>
#include <unistd.h>

/* ---- the version being built, and a signal ---- */

/* The version this process builds: removed by site_signal_cleanup(). */
static char building[PATH_MAX];
static volatile sig_atomic_t building_set;
/* Set by site_signal_cleanup() before it removes the version:
 * site_files_put() then writes nothing more, so that the render threads
 * still running (the signal stops only the thread it lands on) cannot fill
 * the folder again while it is removed; each may finish the one file it is
 * creating, which site_fs_remove_tree()'s passes take. */
atomic_int site_stopping;

void site_signal_cleanup(void)
{
	atomic_store(&site_stopping, 1);
	if (building_set)
		site_fs_remove_tree(building);
}

void site_note(const publish *p, const char *fmt, ...)
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
	if (site_fs_read_file(path, &text)) {
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
	rc = site_fs_write_file(path, text.data, text.len, err);
	sbuf_release(&text);
	return rc;
}

/* DIR/NAME: absent, modelcat's symbolic link, or a folder (the layout of
 * before versions: *legacy). Anything else is refused. */
static int check_entry(publish *p, const char *name)
{
	char path[PATH_MAX], want[64], got[PATH_MAX];
	struct stat st;
	ssize_t n;

	mc_fmt(path, sizeof(path), "%s/%s", p->out, name);
	mc_fmt(want, sizeof(want), SITE_STATE "/current/%s", name);
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
	if (site_fs_read_file(path, &text) || text.len < 16) {
		char hex[17];

		if (getrandom(bytes, sizeof(bytes), 0) != (ssize_t)sizeof(bytes))
			return mc_error(p->err, "%s: no random bytes: %s", path, strerror(errno));
		for (i = 0; i < sizeof(bytes); i++)
			mc_fmt(hex + 2 * i, 3, "%02x", bytes[i]);
		mc_fmt(tmp, sizeof(tmp), "%s/id.new-%ld", p->state, (long)getpid());
		if (site_fs_write_file(tmp, hex, 16, p->err))
			return -1;
		if (link(tmp, path) && errno != EEXIST) {
			unlink(tmp);
			return mc_error(p->err, "%s: cannot create: %s", path, strerror(errno));
		}
		unlink(tmp);
		sbuf_reset(&text);
		if (site_fs_read_file(path, &text) || text.len < 16) {
			sbuf_release(&text);
			return mc_error(p->err, "%s: cannot read", path);
		}
	}
	mc_fmt(p->id, sizeof(p->id), "%.16s", text.data);
	sbuf_release(&text);
	return 0;
}

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
	cite_html(&now, 2, &p->english, &p->english, key, NULL, files, n, p->cite.readme);
	p->cite_now = sbuf_detach(&now, NULL);
	free(files);
	return 0;
}

/*
 * The pages' files into the new manifest (site_files_hash_build(): most
 * are there already, a walk of two folders of 133,500 files each at the
 * bench's size) and keys.tsv, on a thread of their own while the audits and the
 * root page are made and the downloads walked: those write only audit/,
 * entries/ and index.html, and enter files under the lock, where the
 * walks look them up.
 */
static int pages_walk(void *arg, mc_err *err)
{
	publish *p = arg;

	return site_files_hash_build(p, "pages", err) || site_reuse_keys_write(p, err) ? -1 : 0;
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
	mc_fmt(target, sizeof(target), SITE_STATE "/current/%s", name);
	mc_fmt(tmp, sizeof(tmp), "%s/link-%ld", p->state, (long)getpid());
	if (!lstat(path, &st) && S_ISLNK(st.st_mode))
		return;
	unlink(tmp);
	if (symlink(target, tmp)) {
		site_note(p, "%s: cannot create: %s", tmp, strerror(errno));
		return;
	}
	if (lstat(path, &st) && errno == ENOENT) {
		if (rename(tmp, path))
			site_note(p, "%s: cannot create: %s", path, strerror(errno));
		return;
	}
	mc_fmt(old, sizeof(old), "%s/old-%s-%ld", p->state, name, (long)getpid());
	if (renameat2(AT_FDCWD, tmp, AT_FDCWD, path, RENAME_EXCHANGE)) {
		/* no exchange on this file system: two renames */
		if (rename(path, old) || rename(tmp, path)) {
			site_note(p, "%s: cannot replace by a symbolic link: %s", path, strerror(errno));
			unlink(tmp);
			return;
		}
	} else if (rename(tmp, old)) {
		site_note(p, "%s: cannot rename: %s", tmp, strerror(errno));
		return;
	}
	site_note(p, "%s is now a symbolic link to %s; its files that modelcat did not write were"
	     " carried over", path, target);
	/* the user's folder of before, moved here: marked, so that a later
	   publish retires what this one leaves of it (only that) */
	if (site_own_mark(p, old))
		site_note(p, "%s", p->err->msg);
	mc_fmt(into, sizeof(into), "%s/%s", p->site, name);
	mc_fmt(tmp, sizeof(tmp), "%s/", name);
	if (!site_retire_folder(p, old, into, tmp, &p->now)) {
		mc_fmt(tmp, sizeof(tmp), "%s/" SITE_MADE, old);
		unlink(tmp);
		rmdir(old);
	}
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
		if (n < 0 || strcmp(target, SITE_STATE "/current/index.html"))
			site_note(p, "%s is a file of yours: kept (the root page is "
			     SITE_STATE "/current/index.html)", path);
		return;
	}
	mc_fmt(tmp, sizeof(tmp), "%s/link-%ld", p->state, (long)getpid());
	unlink(tmp);
	if (symlink(SITE_STATE "/current/index.html", tmp) || rename(tmp, path)) {
		site_note(p, "%s: cannot create: %s", path, strerror(errno));
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
		site_fs_remove_tree(p->site);
		goto out;
	}
	install_link(p, "pages");
	install_link(p, "audit");
	install_link(p, "downloads");
	install_root(p);
	/* (p->old: its MANIFEST, read under the lock this publish holds) */
	if (p->prev_name[0])
		site_retire_version(p, p->prev_name, p->site, !p->old_rc ? &p->old : NULL);
	return 0;
out:
	sigprocmask(SIG_SETMASK, &saved, NULL);
	return -1;
}

/* ---- publish ---- */

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

/* Where things are, what is published, what the catalogue holds; DIR's
 * lock taken. 0, 1 (another publish holds the lock), or -1 (p->err). */

static int publish_prepare(publish *p, const char *out)
{
	int rc;

	mc_fmt(p->out, sizeof(p->out), "%s", out);
	mc_fmt(p->state, sizeof(p->state), "%s/" SITE_STATE, out);
	mc_fmt(p->build, sizeof(p->build), "%s/build-%ld", p->state, (long)getpid());
	if (site_fs_make_dir(p->out, p->err) || site_fs_make_dir(p->state, p->err))
		return -1;
	/* .modelcat checked, and one publish into DIR at a time, of any catalogue */
	if ((rc = site_own_lock(p)))
		return rc;
	if (check_entry(p, "pages") || check_entry(p, "audit") || check_entry(p, "downloads") ||
	    site_id(p))
		return -1;
	site_fs_current_name(p->state, p->prev_name);
	if (p->prev_name[0]) {
		p->legacy = 0;
		mc_fmt(p->prev, sizeof(p->prev), "%s/%s", p->state, p->prev_name);
		if (rows_read(p->prev, "published.tsv", &p->published, &p->npublished, p->err) ||
		    rows_read(p->prev, "withdrawn.tsv", &p->withdrawn, &p->nwithdrawn, p->err))
			return -1;
		site_changes_read(p);
		site_reuse_old_start(p);
	} else if (p->legacy) {
		mc_fmt(p->prev, sizeof(p->prev), "%s", p->out);
	}
	site_retire_stale(p);
	if (base_url_find(p))
		return -1;
	if (p->o->as_of && *p->o->as_of) {
		mc_fmt(p->as_of, sizeof(p->as_of), "%s", p->o->as_of);
	} else {
		rc = snapshot_latest_day(p->cat, p->as_of, p->err);

		if (rc)
			return rc < 0 ? -1 : mc_error(p->err, "%s: the catalogue holds no snapshot",
						      p->cat->path);
	}
	/* (none applied yet: the pages of that date, empty) */
	rc = snapshot_applied_upto(p->cat, p->as_of, p->data_day, p->err);
	if (rc < 0)
		return -1;
	if (rc)
		mc_fmt(p->data_day, sizeof(p->data_day), "%s", p->as_of);
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
	/* (a build-PID there now is not modelcat's: site_retire_stale()
	   removed the marked ones; it stays, and this publish fails) */
	for (k = 0; k < 4; k++) {
		mc_fmt(path, sizeof(path), "%s%s", p->build, dirs[k]);
		if (mkdir(path, 0755)) {
			mc_error(p->err, "%s: cannot create: %s%s", path, strerror(errno),
				 !k && errno == EEXIST ? " (not made by modelcat: move it away)" : "");
			goto out;
		}
		if (!k) {
			building_set = 1;   /* made here: this publish's to remove */
			if (site_own_mark(p, p->build))
				goto out;
		}
	}
	/* (the downloads are written by render_all(), beside the index
	   entries) */
	mc_fmt(downloads, sizeof(downloads), "%s/downloads", p->build);
	mc_fmt(path, sizeof(path), "%s/pages", p->build);
	if (render_all(p->cat, p->data_day, path, &site, &rs, p->err) || site_reuse_old_wait(p, p->err))
		goto out;
	/* the downloads' walk here, beside the pages' (after the audits,
	   which the walks take as long as) */
	mc_job_start(&pages, pages_walk, p, 1);
	if (mc_job_wait(&pages,
			frame_load(p) || cite_prepare(p) || site_audits_build(p, rows, &rs) ||
				site_root_write(p) || site_files_hash_build(p, "downloads", p->err),
			p->err))
		goto out;
	p->stats->models = rs.models;
	p->stats->models_made = rs.models - rs.reused;
	mc_fmt(p->stamp_now.version, sizeof(p->stamp_now.version), "%s", MODELCAT_VERSION);
	mc_fmt(p->stamp_now.texts, sizeof(p->stamp_now.texts), "%s", rs.texts_sha);
	p->nwithdrawn_before = p->nwithdrawn;
	site_audits_find_withdrawn(p);
	site_changes_pages(p);
	if (site_changes_write(p) || site_audits_feed(p) ||
	    rows_write(p->build, "published.tsv", rows, p->nsnaps, p->err) ||
	    rows_write(p->build, "withdrawn.tsv", p->withdrawn, p->nwithdrawn, p->err) ||
	    site_files_hash_build(p, "audit", p->err) || site_files_hash_build(p, "entries", p->err))
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
			site_manifest_add(&p->now, name, sha);
		}
	}
	if (p->prev[0] && (site_files_carry(p, "pages") || site_files_carry(p, "audit") ||
			   site_files_carry(p, "downloads")))
		goto out;
	if (site_manifest_write(p->build, &p->now, p->err))
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
	site_manifest_init(&p.old);
	site_manifest_init(&p.now);
	pthread_mutex_init(&p.lock, NULL);
	pthread_mutex_init(&p.old_lock, NULL);
	p.files.put = site_files_put;
	p.files.placed = site_files_placed;
	p.files.ctx = &p;
	p.reuse.prev_key = site_reuse_prev_key;
	p.reuse.take = site_reuse_take;
	p.reuse.made = site_reuse_made;
	p.reuse.ctx = &p;
	strmap_init(&p.prev_keys);
	strmap_init(&p.models);
	strmap_init(&p.explained);
	atomic_init(&p.ndirs, 0);
	p.lock_fd = -1;
	if ((rc = publish_prepare(&p, out)))
		goto out;
	rc = -1;
	if (publish_build(&p) || (o->before_switch && o->before_switch(o->arg, err)) ||
	    switch_version(&p)) {
		if (building_set)
			site_fs_remove_tree(p.build);
		goto out;
	}
	rc = 0;
out:
	site_reuse_old_wait(&p, NULL);   /* (a failure before the build: joined here) */
	site_reuse_dirs_close(&p);
	building_set = 0;
	site_manifest_release(&p.old);
	site_manifest_release(&p.now);
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
	site_audits_release(&p);
	page_texts_release(&p.english);
	free(p.cite_now);
	free(p.alts);
	mc_free_strings(p.volatile_fields, p.nvolatile);
	free(p.snaps);
	free(p.published);
	free(p.withdrawn);
	site_own_unlock(&p);
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
	mc_fmt(state, sizeof(state), "%s/" SITE_STATE, out);
	site_fs_current_name(state, name);
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
		changes_stamp_parse(site_fs_read_file(root, &text) ? "" : text.data, &stamp);
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
