/*
 * audit: what changed between two dates (a diff_result), written for an
 * editor: as text for a terminal, as JSON (docs/diff-json.md), or as one
 * self-contained HTML page.
 */
#ifndef MODELCAT_AUDIT_H
#define MODELCAT_AUDIT_H

#include "db/query.h"
#include "publish/frame.h"
#include "publish/page.h"

/*
 * One definition of each count (docs/history.md): a model is counted once,
 * under its first kind of added, removed, renamed, changed; "changed" are
 * the models whose values changed under the same name (a renamed model's
 * value changes are shown with its rename), as ingest counts them.
 */
size_t audit_changed_count(const diff_result *d);

/* The lists of a diff (added, removed, renamed, changed) sorted by name,
 * made once for the three audits of it: a site's first audit names every
 * model, and each audit sorted each list again (four sorts of the added
 * list in all). */
#define AUDIT_LISTS 4
typedef struct audit_order {
	const diff_model *items[AUDIT_LISTS];   /* the diff's lists */
	size_t n[AUDIT_LISTS];                  /* their lengths */
	const diff_model **sorted[AUDIT_LISTS]; /* each sorted (malloc'd) */
} audit_order;

void audit_order_make(audit_order *o, const diff_result *d);
void audit_order_release(audit_order *o);

/* What the published audit links to (NULL members: no link). */
typedef struct audit_links {
	const char *prev;            /* the previous audit's label */
	const char *next;            /* the next audit's label */
	int index;                   /* link the audit index (index.html) */
	const char *pages;           /* the English pages' folder, relative to the
					audit ("../pages/en") */
	/* does name have a page (NULL: every model has)? */
	int (*has_page)(void *arg, const char *name);
	void *arg;                   /* has_page's argument */
	/* the volatile fields (pipelines/columns.tsv's flag): a model whose
	 * only changes are in them is listed in a compact section of its own */
	char *const *volatile_fields;
	size_t nvolatile;
	/* the citation stored with the snapshot (a bundle's README.md,
	 * db/credit.h), printed "Source: ..."; NULL: none */
	const char *citation;
	/* the citation block (cite.h's HTML) at the end of the HTML audit;
	 * NULL: none */
	const char *cite;
	const frame *frame;          /* the site's frame around the HTML (NULL: none) */
	const audit_order *order;    /* the diff's lists sorted (NULL: sorted by
					each audit) */
	/* the hardware pages whose lists changed (hwaudit.h), a section of
	 * each audit; NULL: none (the JSON has no "hardware") */
	const struct hwaudit *hardware;
	/* the site's audit (audit_html_site): its language, its words (texts,
	 * else english; both NULL: the English built in), its label (the
	 * folder of its pages of their own) and, for those pages, one folder
	 * deeper, their frame and the pages' folder */
	const char *lang;
	const page_texts *texts, *english;
	const char *label;
	const frame *frame_sub;
	const char *pages_sub;
} audit_links;

/* The text and JSON audits with links' volatile fields (links NULL: none;
 * audit_text and audit_json are these with NULL). */
void audit_text_with(const diff_result *d, const audit_links *links, sbuf *out);
void audit_json_with(const diff_result *d, const audit_links *links, sbuf *out);

/* Counts first, then each change, `field: old -> new`; models sorted by
 * name, values formatted as pages show them (format_field_value); no path
 * of the machine (a quarantined row: export, line and model name). */
void audit_text(const diff_result *d, sbuf *out);
/* One JSON object (see docs/diff-json.md). */
void audit_json(const diff_result *d, sbuf *out);
/* One HTML page, no external resources, every value escaped. */
void audit_html(const diff_result *d, sbuf *out);
/* The same with links: each model to its page, the previous and next
 * audit (links NULL: none). */
void audit_html_linked(const diff_result *d, const audit_links *links, sbuf *out);

/* The site's audit, sized for reading (docs/pages.md, "Audit pages"): a
 * summary (per export: added, removed, renamed, changed, held,
 * quarantined; the models with the most substantive changes), then a
 * section per export, each list folded (<details>) and, when long, on
 * pages of their own (LABEL/EXPORT-KIND-N.html), every page within
 * AUDIT_PAGE_BYTES and AUDIT_PAGE_ELEMENTS of its lists. In links->lang,
 * with links->texts. out->v[0] is the audit's own page (name ""). */
typedef struct audit_page {
	char name[192];              /* from the audit's folder; "" its own page */
	sbuf html;
} audit_page;
typedef struct audit_pages {
	audit_page *v;
	size_t n;
} audit_pages;

void audit_html_site(const diff_result *d, const audit_links *links, audit_pages *out);
void audit_pages_release(audit_pages *p);

#endif
