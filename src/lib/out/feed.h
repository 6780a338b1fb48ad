/*
 * feed: the published audits of past snapshots: an Atom feed (written
 * with libxml2's text writer) and an HTML index of the audit pages. What
 * the entries are (which snapshots, which withdrawals, their ids) is
 * out/site's choice; this module only writes them.
 */
#ifndef MODELCAT_FEED_H
#define MODELCAT_FEED_H

#include "db/query.h"

/* Most entries the feed lists. */
#define FEED_ENTRIES 20

/* One entry of the feed. */
typedef struct feed_entry {
	const char *id;              /* unique and stable: a URN */
	const char *title;           /* one line */
	const char *updated;         /* ISO 8601, UTC */
	const char *link;            /* the audit page, relative (NULL: none) */
	const char *text;            /* the content, plain text */
} feed_entry;

/* The plain-text summary of one snapshot's changes: counts, then up to 50
 * models of each kind. */
void feed_entry_text(const diff_result *d, sbuf *out);

/* The Atom feed of the n entries (newest first; at most FEED_ENTRIES are
 * written) into out; feed_id is the feed's own id. 0, or -1 (err). */
int feed_atom(const char *feed_id, const feed_entry *e, size_t n, sbuf *out, mc_err *err);

/* The audit index page: the n audit labels (newest first), each linking
 * to LABEL.html, .txt and .json, then the nw withdrawn snapshot labels. */
void feed_index_html(char *const *labels, size_t n, char *const *withdrawn, size_t nw,
		     sbuf *out);

#endif
