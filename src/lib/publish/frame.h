/*
 * frame: what every HTML page of the published site shares around its
 * content (docs/pages.md, "The site's frame"): in the head, the meta
 * description, the page in the other languages (<link rel="alternate"
 * hreflang>) and an empty icon (no request for /favicon.ico); at the top
 * of the body, a header with the site's name (a link to the root page),
 * the index of the page's language, the audit and a visible link to the
 * same page in each other language. Also the root page, DIR/index.html.
 *
 * Paths are given from the site root ("pages/nl/index.html") and written
 * relative to the page (f->root + path), or absolute under base_url for
 * the hreflang links when the site's URL is known. Every string is
 * escaped here; the caller passes plain text. The frame borrows every
 * string it points to.
 */
#ifndef MODELCAT_FRAME_H
#define MODELCAT_FRAME_H

#include <stddef.h>
#include "base/util.h"

/* Another language of the site. */
typedef struct frame_alt {
	const char *lang;            /* its code ("nl") */
	const char *name;            /* its name, in it ("Nederlands") */
	const char *page;            /* the same page in it, from the site root;
					NULL: the page has no translation */
	const char *index;           /* its index, from the site root */
} frame_alt;

/* The frame of one page. */
typedef struct frame {
	const char *lang;            /* the page's language */
	const char *root;            /* the site root, from the page ("../../", "../", "") */
	const char *base_url;        /* the site root's URL (NULL or "": not known) */
	const char *page;            /* this page from the site root, when it has
					translations (hreflang); else NULL */
	const char *site_name;       /* the site's name, in lang */
	const char *nav_label;       /* the header's name for screen readers */
	const char *index_label;     /* the link to the index */
	const char *audit_label;     /* the link to the audit */
	const char *index;           /* lang's index, from the site root */
	const frame_alt *alts;       /* every other language */
	size_t nalts;                /* entries in alts */
	/* the page's data as JSON, from the site root (a model page's JSON
	 * twin): <link rel="alternate" type="application/json"> in the head
	 * and a visible link, data_label, in the header; NULL: none */
	const char *data;
	const char *data_label;      /* the visible link's text */
	/* HTML made by modelcat's own writers (every data string in it
	 * escaped) under the header, before the page (an index's downloads);
	 * NULL: none */
	const char *lead;
	const char *hardware_label;  /* the link to the hardware index (NULL: none) */
	const char *hardware_index;  /* lang's hardware index, from the site root */
	const char *audit_index;     /* lang's audit index, from the site root
					(NULL: audit/index.html, the English one) */
} frame;

/* The header's CSS, print rules included: part of a framed page's <style>. */
extern const char frame_style[];
/* The CSS of the citation block (cite.h), for every page that carries one. */
extern const char cite_style[];

/* The head's shared lines: the meta description (NULL: none), then, with
 * a frame (f not NULL), the hreflang links and the empty icon. */
void frame_head(const frame *f, const char *description, sbuf *out);

/* The header at the top of the body (nothing when f is NULL). */
void frame_header(const frame *f, sbuf *out);

/* What the root page says in one language. */
typedef struct frame_root_text {
	const frame *f;              /* the language's frame (root ""): labels, index */
	const char *name;            /* the language's name, in it */
	const char *about;           /* what the site is */
	const char *published;       /* when it was last published (a sentence) */
	/* HTML made by modelcat's own writers (every data string in it
	 * escaped) at the end of the language's part (its downloads and
	 * citation); NULL: none */
	const char *more;
} frame_root_text;

/*
 * The root page: a complete HTML document in the language of t[0]
 * (English), its header, then one part per language (t[0..n)) in that
 * language: what the site is, when it was published, and links to the
 * language's index and to the audit. published_day (YYYY-MM-DD) is the
 * newest snapshot's date.
 */
void frame_root_html(const frame_root_text *t, size_t n, const char *published_day, sbuf *out);

#endif
