/*
 * changes: the site-wide changes of a published site (docs/operations.md,
 * "What explains a changed page").
 *
 * Every page file a publication changes is explained by the audit of a
 * snapshot it publishes (its model was added, removed, renamed, changed,
 * returned or held, or a new or removed column gave or took one of its
 * values) or by one site-wide change of that publication, stated once with
 * its reason and the models whose pages it changed: the page texts changed
 * (modelcat translate), another modelcat version renders pages, or
 * snapshots were withdrawn from the catalogue. A site keeps its site-wide
 * changes, oldest first, in changes.tsv and publishes them as
 * audit/site.txt, audit/site.json and audit/site.html.
 *
 * Ownership: a site_change's strings are its own (changes_release).
 */
#ifndef MODELCAT_CHANGES_H
#define MODELCAT_CHANGES_H

#include <stddef.h>
#include "base/util.h"
#include "publish/frame.h"

/* One publication's site-wide change. */
typedef struct site_change {
	char *when;                  /* the publication, UTC: YYYY-MM-DDTHH:MM:SSZ */
	char *snapshot;              /* the newest snapshot it published (DATE or DATE.N) */
	char *reason;                /* why the pages changed, in words */
	char **names;                /* the models whose pages it changed, sorted */
	size_t n;                    /* entries in names */
} site_change;

/* What the pages were made with: the site records it in render.tsv. */
typedef struct render_stamp {
	char version[32];            /* the modelcat version ("" not known) */
	char texts[65];              /* SHA-256 of the page texts of every language */
} render_stamp;

/* The stamp as render.tsv's text ("version\tV\ntexts\tSHA\n"), and back
 * (a missing or unreadable line leaves its field ""). */
void changes_stamp_tsv(const render_stamp *s, sbuf *out);
void changes_stamp_parse(const char *text, render_stamp *s);

/* The reason pages changed with no snapshot's audit naming their model,
 * into out: the withdrawn snapshots (labels), the page texts, the
 * renderer's version, as they apply; "no known cause" when none does. */
void changes_reason(const render_stamp *was, const render_stamp *now, char *const *withdrawn,
		    size_t nw, sbuf *out);

/* changes.tsv: one line per change, "WHEN\tSNAPSHOT\tREASON\tNAME..."
 * (a tab, a newline or a backslash in a field as \t, \n, \\). */
void changes_tsv(const site_change *c, size_t n, sbuf *out);
/* Parse changes.tsv's text into *list (appended; *n counts). Lines that
 * are not one are skipped. */
void changes_parse(const char *text, site_change **list, size_t *n);

/* The published forms, newest first. pages: the folder of the English
 * pages relative to the audit ("../pages/en"); has_page(arg, name) says
 * whether a model has a page to link; f: the site's frame around the HTML
 * (frame.h; NULL: none); cite: the citation block the HTML ends with
 * (cite.h; NULL: none). */
void changes_text(const site_change *c, size_t n, sbuf *out);
void changes_json(const site_change *c, size_t n, sbuf *out);
void changes_html(const site_change *c, size_t n, const char *pages,
		  int (*has_page)(void *arg, const char *name), void *arg, const frame *f,
		  const char *cite, sbuf *out);

void changes_release(site_change *c, size_t n);

#endif
