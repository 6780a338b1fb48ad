/*
 * history_page: the "History" section of a model page (docs/pages.md,
 * "History"): the model's life as db/timeline.h reads it, date by date,
 * each date linking to that snapshot's audit when the site publishes
 * one; the words from the page texts (history.*), field names as the
 * page labels them, values written as the page writes them.
 *
 * In the HTML page always; in the text page only when the model has more
 * to tell than its addition (so that the text page of a model with one
 * version, the seed's among them, stays as it was).
 *
 * Ownership: the blocks added belong to the page (page_release).
 */
#ifndef MODELCAT_HISTORY_PAGE_H
#define MODELCAT_HISTORY_PAGE_H

#include "db/timeline.h"
#include "publish/page.h"

/*
 * Add the History section of life (the model m's) to p, right after its
 * specification part (at the end when it has none), in the language of
 * texts (English where it lacks a text). audit_root: where the audit
 * pages are from the page ("../../audit/": a date links to
 * audit_root DATE.html), NULL for no links. No life, or page texts
 * stored before the section existed (no history.* texts): nothing is
 * added. 0, or -1 (err).
 */
int history_page_add(page *p, const timeline_model *life, const struct model_view *m,
		     const char *audit_root, const page_texts *texts, const page_texts *english,
		     mc_err *err);

#endif
