/*
 * feed: the published audits of past snapshots: an Atom feed (written
 * with libxml2's text writer) and an HTML index of the audit pages. What
 * the entries are (which snapshots, which withdrawals, their ids) is
 * out/site's choice; this module only writes them.
 */
#ifndef MODELCAT_FEED_H
#define MODELCAT_FEED_H

#include "db/query.h"
#include "publish/frame.h"

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

/* The feed as a whole. */
typedef struct feed_site {
	const char *id;              /* the feed's own id (unique to the site) */
	const char *base_url;        /* the site's address, DIR's URL (NULL or "":
					unknown: links relative to the feed) */
} feed_site;

/* An entry's title: "LABEL: N added, N removed, N renamed, N changed, N
 * quarantined", every count of the audit (audit_changed_count's
 * definition). A new count is one more ", N kind" here. */
void feed_entry_title(const char *label, const diff_result *d, sbuf *out);

/* The plain-text summary of one snapshot's changes: counts, then up to 50
 * models of each kind. */
void feed_entry_text(const diff_result *d, sbuf *out);

/* The Atom feed (RFC 4287) of the n entries (newest first; at most
 * FEED_ENTRIES are written) into out. With a base URL every link is
 * absolute (BASE/audit/...), the feed's rel="self" too; without one they
 * are relative references, which RFC 4287 allows (resolved against the
 * feed's own address), and the generator text says so. 0, or -1 (err). */
int feed_atom(const feed_site *site, const feed_entry *e, size_t n, sbuf *out, mc_err *err);

/* The audit index page: the n audit labels (newest first), each linking
 * to LABEL.html, .txt and .json with its counts (counts[i], NULL: none),
 * then the nw withdrawn snapshot labels, then a link to site.html, the
 * nsite site-wide changes (changes.h); framed by f (NULL: no frame);
 * ending with cite, a citation block's HTML (cite.h; NULL: none). */
void feed_index_html(char *const *labels, const char *const *counts, size_t n,
		     char *const *withdrawn, size_t nw, size_t nsite, const frame *f,
		     const char *cite, sbuf *out);

#endif
