/*
 * render: model pages out of the catalogue: one page on demand, or every
 * model on record in every stored language and both formats, with an index
 * page per language (modelcat render --all).
 *
 * File names (docs/pages.md): OUT/LANG/STEM.txt and OUT/LANG/STEM.html,
 * plus OUT/LANG/index.txt and OUT/LANG/index.html. STEM is the model's name
 * with ASCII letters lower-cased, digits kept and every other run of bytes
 * turned into one '-' (at most 60 bytes, no '-' at either end; "model" when
 * nothing is left), then '-' and the first 10 hex digits of the SHA-256 of
 * the name: "MegaScale (Production)" -> "megascale-production-" + hash.
 * A STEM never holds '/' or "..", never starts with '.', and two names
 * that slug alike still get different files.
 */
#ifndef MODELCAT_RENDER_H
#define MODELCAT_RENDER_H

#include <stdio.h>
#include "base/fileout.h"
#include "db/catalogue.h"
#include "db/query.h"
#include "publish/page.h"
#include "publish/frame.h"
#include "db/hwlink.h"
#include "db/timeline.h"

/* Where a published model page (pages/LANG/) finds the audit of a
 * snapshot: RENDER_AUDIT_ROOT "DATE.html" (site.c publishes the audit of
 * every snapshot as audit/LABEL.html, the day's first as audit/DATE.html). */
#define RENDER_AUDIT_ROOT "../../audit/"

/* The file stem of a model's pages (see above) into buf (at least 80 bytes). */
void render_file_stem(const char *name, char *buf, size_t len);

/* The former names of the model called name among formers (from
 * query_former_names), "A, B" oldest first, for its page's "Formerly:";
 * NULL when it has none. The caller frees it. */
char *render_formerly(const former_name *formers, size_t n, const char *name);

/* Append to p, the page of model m (the name it was asked by: name),
 * its citation block (cite.h) in the language of texts, as render_all's
 * pages have it. 0, or -1 (err). */
int render_page_cite(catalogue *cat, const char *name, const model_view *m,
		     const page_texts *texts, const page_texts *english, page *p, mc_err *err);
/* Add the History section (out/history_page.h) to p, the page of model m
 * called name (as query_models() names it, "NAME#2" for a repeated name's
 * second row) built on m's date: for a page on its own (no audit links),
 * its history read for it alone. 0, or -1 (err). */
int render_page_history(catalogue *cat, page *p, const model_view *m, const char *name,
			const page_texts *texts, const page_texts *english, mc_err *err);

/* For a page on its own, what render_all gives model m's page p before
 * page_build: its chart (chart.h: the compute chart with its mark; the
 * axes come from every model on m's date, so this reads them all) and the
 * links of its training hardware and of the hardware index. 0, or -1. */
int render_page_extras(catalogue *cat, const model_view *m, const char *name,
		       const page_texts *texts, const page_texts *english, page *p, mc_err *err);

/* What render_all did. */
typedef struct render_stats {
	size_t models;               /* models rendered */
	size_t languages;            /* languages */
	size_t files;                /* files written */
	size_t reused;               /* models whose files were taken (render_reuse) */
	char texts_sha[65];          /* SHA-256 of every language's page texts */
	size_t cards;                /* hardware pages, per language */
	size_t hardware_files;       /* their files and the hardware indexes' */
	/* the models on record, as query_models() gives them, when the
	   render_site asked for them (keep_names); the caller frees them
	   (mc_free_strings) */
	char **names;
	size_t nnames;
} render_stats;

/* The words of the site's frame (frame.h) in one language, from its page
 * texts (English where it lacks one). */
typedef struct render_words {
	char lang[36];               /* language code */
	char index[64];              /* its index from the site root (pages/LANG/index.html) */
	char *name;                  /* the language's name, in it (site.language) */
	char *site;                  /* the site's name (site.name) */
	char *nav;                   /* the header's name for screen readers (nav.label) */
	char *index_label;           /* the link to the index (nav.index) */
	char *audit;                 /* the link to the audit (nav.audit) */
	char *about;                 /* what the site is (site.about) */
	char *published;             /* "Last published from the snapshot of" (site.published) */
	char *hardware_label;        /* the link to the hardware index (nav.hardware) */
	char hardware_index[80];     /* its hardware index from the site root
					(pages/LANG/hardware/index.html) */
	char audit_index[64];        /* its audit index from the site root
					(audit/index.html; audit/LANG/index.html) */
} render_words;

/* Every stored language's frame words, English first, into *words (*n
 * entries; free with render_words_free). 0, or -1 (err). */
int render_words_load(catalogue *cat, render_words **words, size_t *n, mc_err *err);
void render_words_free(render_words *words, size_t n);

/* The frame of a page in language lang (an index into words[0..n)): its
 * labels, root ("../../" from pages/LANG/, "../" from audit/, "" at the
 * root) and base_url; alts (n - 1 entries, the caller's) get the other
 * languages, with no translated page (set alts[k].page and f->page for a
 * page that has one). f borrows words and alts. */
void render_frame(frame *f, frame_alt *alts, const render_words *words, size_t n, size_t lang,
		  const char *root, const char *base_url);

/*
 * Pages made before, taken again (render_site.reuse). A model's files (its
 * pages in every language and its JSON twin) are made from a key: the
 * SHA-256 of all they are made from (the program itself, the page texts,
 * the site's URL, the citation, and the model's values, sources, history,
 * former names, hardware links, chart and citation block). When the
 * published version made them from the same key, they are taken from it,
 * not made again.
 */
typedef struct render_reuse {
	/* The key the published version made model stem's files from, or
	 * NULL (none, or no such model). */
	const char *(*prev_key)(void *ctx, const char *stem);
	/* Take the files paths[0..n) (paths in the new version) from the
	 * published version, all or none: 1 taken, 0 it has not them all,
	 * -1 (err). */
	int (*take)(void *ctx, char *const *paths, size_t n, mc_err *err);
	/* Model stem's files are made from key (for the next publish). */
	void (*made)(void *ctx, const char *stem, const char *key);
	void *ctx;
	/* May be called from more than one thread at once: the callee locks. */
} render_reuse;

/* Where render_all's pages are published (NULL: pages on their own, with
 * no frame, as render --all writes them). */
typedef struct render_site {
	const char *base_url;        /* the site's URL (NULL or "": not known) */
	/* the publication's downloads (download.h): listed on the indexes,
	 * and each model's JSON twin written beside them; NULL: none. With
	 * downloads_dir, render_all() writes them there first (download_write(),
	 * beside the index entries, on the threads that make those) */
	struct download_set *downloads;
	const char *downloads_dir;
	/* where the files go (fileout.h): each is handed over whole, never
	 * written under a temporary name; NULL: as render without a site */
	const file_out *out;
	/* pages made before (NULL: every page is made) */
	const render_reuse *reuse;
	/* 1: the models on record are handed over in render_stats.names */
	int keep_names;
} render_site;

/*
 * Write every model on record on as_of in every stored language, as text
 * and HTML, and an index page per language, under outdir (created if
 * needed). Each file is written under a temporary name (NAME.tmpPID,
 * registered with mc_cleanup_add() while it exists, so that the signals
 * stage_init() catches remove it) and renamed into place; such names that
 * a process killed outright left are removed first. Returns 0, or -1 with err. (The models on record: query_models();
 * the date of the latest snapshot: snapshot_latest_day().) With site, the
 * HTML pages are those of the published site (outdir is its pages/): each
 * gets the site's frame (frame.h).
 */
int render_all(catalogue *cat, const char *as_of, const char *outdir, const render_site *site,
	       render_stats *stats, mc_err *err);

/* $MODELCAT_RENDER_THREADS, the number of threads that make a site's
 * pages: unset or empty (as many as the cores, at most 4), or a whole
 * number from 1 to 8. 0, or -1 with a message in err naming it. */
int render_threads_check(mc_err *err);

/*
 * The page of the card called name (hwpage.h) as it stood on as_of, in
 * lang, as text or (html) HTML into out. Returns 0, 1 when no card of
 * that name was on record on that date (nothing written), -1 (err): no
 * texts stored for lang, or a failure.
 */
int render_hardware(catalogue *cat, const char *name, const char *lang, int html,
		    const char *as_of, sbuf *out, mc_err *err);

/* The SHA-256 of every stored language's page texts (render_stats'
 * texts_sha of a render_all now) into sha. 0, or -1 (err). */
int render_texts_digest(catalogue *cat, char sha[65], mc_err *err);

#endif
