/*
 * site: the published site under DIR, built whole and switched in one
 * rename (docs/operations.md, "Publish").
 *
 *   DIR/.modelcat/site-ID/      one version: pages/, audit/ (what readers
 *                               see), entries/ (the feed's entry texts),
 *                               published.tsv (the snapshots it was
 *                               published from), withdrawn.tsv (snapshots
 *                               withdrawn since), render.tsv (the modelcat
 *                               version and page texts the pages were made
 *                               with), changes.tsv (the site-wide changes,
 *                               changes.h), keys.tsv (what each model's
 *                               files were made from, render_reuse in
 *                               render.h), MANIFEST (every file modelcat
 *                               wrote in it, with its SHA-256)
 *   DIR/.modelcat/current       symbolic link "site-ID": the published one
 *   DIR/.modelcat/id            a random id of this site (feed entry ids)
 *   DIR/.modelcat/lock          held (flock) by the publish under way:
 *                               one publish into DIR at a time, of any
 *                               catalogue
 *   DIR/pages, DIR/audit        symbolic links .modelcat/current/pages and
 *                               .modelcat/current/audit, made once
 *
 * A version is built in DIR/.modelcat/build-PID, renamed to site-ID when
 * complete, and published by renaming a new symbolic link over current:
 * a reader resolving a path under DIR/pages or DIR/audit sees the old
 * version or the new one, never a mix, and never a temporary name. Files
 * modelcat did not write (in no MANIFEST) are carried from version to
 * version (hard links; a symbolic link is made again, never followed);
 * an old version loses only what its MANIFEST lists. DIR/.modelcat must be
 * a folder (not a symbolic link) of this user's, and every folder publish
 * makes in it carries a MADE mark: only marked folders
 * are ever removed (site_internal.h, site_own.c).
 *
 * The caller holds the catalogue's writer lock; site_publish() holds
 * DIR's lock too (another catalogue may publish into DIR).
 */
#ifndef MODELCAT_SITE_H
#define MODELCAT_SITE_H

#include <stdio.h>
#include "db/catalogue.h"

/* How to publish. */
typedef struct site_options {
	const char *as_of;           /* render as of this date (NULL or "": the latest) */
	const char *program;         /* the name log lines carry */
	/* where log lines go (job_log's signature; NULL: nowhere) */
	void (*log)(const char *program, const char *fmt, ...) MC_PRINTF(2, 3);
	/* called once the new version is built whole, just before the switch
	 * (NULL: nothing): run installs its catalogue copy here, so that the
	 * site never shows a snapshot the catalogue does not have. A failure
	 * (-1, err set) removes the new version; the published site stays. */
	int (*before_switch)(void *arg, mc_err *err);
	void *arg;                   /* before_switch's argument */
	/* where the site is read: the URL of DIR (NULL or "": not known; the
	 * feed's links stay relative) */
	const char *base_url;
	/* how long to wait for DIR's lock while another publish holds it, in
	 * seconds (0: not at all) */
	long wait;
} site_options;

/* What a publish did. */
typedef struct site_stats {
	unsigned long files;         /* files modelcat wrote in the new version */
	unsigned long written;       /* of those, written anew (not linked from the old one) */
	unsigned long pages;         /* page files written anew */
	size_t models;               /* models with a page */
	size_t models_made;          /* of those, made anew (not taken as the
					published version had them, render.h) */
	size_t audits;               /* audits computed (the others were linked) */
	size_t withdrawn;            /* snapshots this publish withdrew */
	size_t snapshots;            /* snapshots published */
	char label[16];              /* the newest snapshot's label */
} site_stats;

/* Build the site of cat (pages, audits of every snapshot, audit index,
 * feed) and publish it under out in one switch; then remove the old
 * version and what killed publishes left. 0; 1 (err) when another publish
 * held DIR's lock longer than o->wait seconds; or -1 (err). The published
 * site is as it was unless 0. */
int site_publish(catalogue *cat, const char *out, const site_options *o, site_stats *stats,
		 mc_err *err);

/* Is the site under out published from exactly the snapshots cat holds
 * (up to as_of), with its page texts, by this modelcat version (the
 * version's render.tsv)? *same 1 or 0. 0, or -1 (err). */
int site_up_to_date(catalogue *cat, const char *out, const char *as_of, int *same, mc_err *err);

/* Is url fit as a base URL (http:// or https://, a host, no space, quote
 * or markup)? 1 or 0. */
int site_base_url_ok(const char *url);

/* Is dir a folder of this user's that publish marked as made by it (its
 * MADE file, docs/operations.md, "Only what it made")? 1 or 0. Only such
 * a folder is ever removed, by publish or by run. A folder holding only
 * an empty or half-written MADE is one too: a publish killed between
 * creating its mark and writing it. */
int site_marked(const char *dir);
/* Remove the marked folder dir, its mark last: stopped half-way, it is
 * still marked, for the next publish or run to finish. */
void site_remove_marked(const char *dir);

/* Remove the version this process is building, if any. Async-signal-safe:
 * for a signal handler, which then ends the process. */
void site_signal_cleanup(void);

/* Check the published site under out: DIR/pages and DIR/audit lead to
 * the current version, and every file of its MANIFEST is there with its
 * SHA-256. One line per problem on report; *problems counts them. 0, or
 * -1 (err) when the check could not be made. */
int site_verify(const char *out, FILE *report, size_t *problems, mc_err *err);

#endif
