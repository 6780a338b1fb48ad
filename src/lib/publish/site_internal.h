/*
 * site_internal: what the modules that publish the site share; internal
 * to them (site.c and site_*.c of publish/), included by nothing else:
 * their interface is site.h.
 *
 *   site.c          the assembly: where things are, the build of a new
 *                   version in order, the switch, site_up_to_date()
 *   site_retire.c   retiring an old version: only what modelcat wrote goes
 *   site_reuse.c    the published version read beside, and the model files
 *                   made before taken from it (render_reuse)
 *   site_files.c    the new version's files into its manifest, linked from
 *                   the published one when the same; the user's carried
 *   site_audits.c   every snapshot's audit, the withdrawn ones, the feed
 *   site_changes.c  what explains the changed pages (changes.h)
 *   site_root.c     the root page
 *   site_own.c      what publish owns: DIR/.modelcat checked, its lock,
 *                   the MADE mark of every folder it makes
 * (site_verify.c, site_fs.c and site_manifest.c need none of this.)
 */
#ifndef MODELCAT_SITE_INTERNAL_H
#define MODELCAT_SITE_INTERNAL_H

#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include "base/fileout.h"
#include "base/strmap.h"
#include "db/catalogue.h"
#include "db/snapshot.h"
#include "publish/changes.h"
#include "publish/cite.h"
#include "publish/download.h"
#include "publish/frame.h"
#include "publish/render.h"
#include "publish/site_manifest.h"
#include "publish/translate.h"

struct site_options;   /* site.h */
struct site_stats;     /* site.h */
struct reuse_dir;      /* site_reuse.c */

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
	const struct site_options *o; /* how (site.h) */
	struct site_stats *stats;     /* what it did (site.h) */
	char out[PATH_MAX];          /* DIR */
	char state[PATH_MAX];        /* DIR/.modelcat */
	char build[PATH_MAX];        /* DIR/.modelcat/build-PID */
	char prev[PATH_MAX];         /* the published version's folder (DIR when legacy; "" none) */
	char prev_name[64];          /* its name, site-ID ("" when none or legacy) */
	char site[PATH_MAX];         /* the new version, once renamed */
	char as_of[11];              /* the audits' last date (the latest snapshot's) */
	char data_day[11];           /* the date the pages, indexes, downloads and root
					page are rendered for: the latest snapshot up
					to as_of that applied a file (a held night
					changes only the audit) */
	char id[40];                 /* the site's id */
	int lock_fd;                 /* DIR/.modelcat/lock, held (site_own_lock()); -1 */
	int legacy;                  /* DIR/pages or DIR/audit are folders of their own */
	site_manifest old;           /* the published version's manifest */
	/* old and prev_keys are read on a thread of their own while the
	   catalogue is read (site_reuse_old_start()); site_reuse_old_wait() before either is used */
	pthread_t old_thread;
	int old_live;                /* old_thread is running or not joined */
	int old_rc;                  /* site_manifest_read()'s: 0 old is its MANIFEST,
					1 it has none, -1 failed */
	mc_err old_err;              /* its failure */
	atomic_int old_ready;        /* old_rc and old_err are final */
	pthread_mutex_t old_lock;    /* the join */
	site_manifest now;           /* the new one's */
	pthread_mutex_t lock;        /* now and stats, for site_files_put() */
	file_out files;              /* the pages' and downloads' way out (site_files_put) */
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
	struct audit_lang *alangs;   /* the audits' languages, English first
					(site_audits.c) */
	size_t nalangs;
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

/* ---- site.c ---- */

/* A log line of p (site_options.log). */
void site_note(const publish *p, const char *fmt, ...) MC_PRINTF(2, 3);

/* Set by site_signal_cleanup() before it removes the version:
 * site_files_put() then writes nothing more (site.c). */
extern atomic_int site_stopping;

/* ---- site_retire.c ---- */

/* Retire old_base into new_base: modelcat's files (those mine lists, by
 * prefix + path) removed, the others moved into new_base when their name
 * is free there; 0 when nothing was left in it. */
size_t site_retire_folder(const publish *p, const char *old_base, const char *new_base,
			  const char *prefix, const site_manifest *mine);
/* Retire the old version folder name (a site-ID) into the published one;
 * known: its MANIFEST as read already (NULL: read it). */
void site_retire_version(publish *p, const char *name, const char *into,
			 const site_manifest *known);
/* Under the lock, before building: what killed publishes left (build
 * folders, links being made) and old versions not yet removed. */
void site_retire_stale(publish *p);

/* ---- site_own.c ---- */

/* DIR/.modelcat (p->state) checked: a folder, not a symbolic link, of this
 * user's; then its lock taken for the whole publish, waiting up to
 * p->o->wait seconds. 0, 1 (another publish holds it: p->err), or -1
 * (p->err; nothing touched). */
int site_own_lock(publish *p);
/* Let the lock go. */
void site_own_unlock(publish *p);
/* Mark the folder dir, just made, as publish's (its SITE_MADE file, never
 * over one there): 0, or -1 (p->err). */
int site_own_mark(publish *p, const char *dir);

/* ---- site_reuse.c ---- */

/* Read the published version's MANIFEST and keys.tsv on a thread of
 * their own; site_reuse_old_wait() before either is used: 0, or -1 (err,
 * when not NULL) when the manifest could not be read. */
void site_reuse_old_start(publish *p);
int site_reuse_old_wait(publish *p, mc_err *err);
/* render_reuse's prev_key, take and made (render.h), ctx a publish */
const char *site_reuse_prev_key(void *ctx, const char *stem);
int site_reuse_take(void *ctx, char *const *paths, size_t n, mc_err *err);
void site_reuse_made(void *ctx, const char *stem, const char *key);
/* Close the folders site_reuse_take() opened. */
void site_reuse_dirs_close(publish *p);
/* The new version's keys.tsv, in the order of the stems. 0, or -1 (err). */
int site_reuse_keys_write(publish *p, mc_err *err);

/* ---- site_files.c ---- */

/* Hash every file of the build folder rel into the new manifest (linked
 * from the published version when it has the same bytes). 0, or -1. */
int site_files_hash_build(publish *p, const char *rel, mc_err *err);
/* The new version's file_out (fileout.h): put and placed, ctx a publish */
int site_files_put(void *ctx, const char *path, const void *data, size_t len, mc_err *err);
int site_files_placed(void *ctx, const char *path, const char *sha, unsigned long long len,
		      mc_err *err);
/* Carry the files under the published version's folder rel that modelcat
 * did not write into the build. 0, or -1 (p->err). */
int site_files_carry(publish *p, const char *rel);

/* ---- site_audits.c ---- */

/* Has model name a page (p->models)? (arg: a publish) */
int site_audits_has_page(void *arg, const char *name);
/* Every snapshot's audit: linked when unchanged, computed otherwise; and
 * the rows of published.tsv. 0, or -1 (p->err). */
int site_audits_build(publish *p, site_row *rows, const render_stats *rs);
/* The published snapshots no longer in the catalogue join the withdrawn. */
void site_audits_find_withdrawn(publish *p);
/* audit/feed.atom and audit/index.html of the build. 0, or -1. */
int site_audits_feed(publish *p);
/* Release the audits' languages (p->alangs). */
void site_audits_release(publish *p);

/* ---- site_changes.c ---- */

/* The page files changed that no new snapshot's audit explains: one
 * site-wide change appended to p->changes. */
void site_changes_pages(publish *p);
/* render.tsv, changes.tsv and audit/site.{txt,json,html} of the build. */
int site_changes_write(publish *p);
/* The published version's render.tsv and changes.tsv. */
void site_changes_read(publish *p);

/* ---- site_root.c ---- */

/* The root page, DIR/index.html. 0, or -1 (p->err). */
int site_root_write(publish *p);

#endif
