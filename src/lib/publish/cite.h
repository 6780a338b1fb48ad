/*
 * cite: how a published page credits and cites its data (docs/pages.md,
 * "Downloads and citation"): "Data: Epoch AI, CC BY 4.0" with a link to
 * the licence, the snapshot's date, the SHA-256 of each source file's
 * content, the bundle's README citation when there is one, and a BibTeX
 * entry whose urldate is the snapshot's date (the day the data was taken),
 * not the day it was published.
 *
 * What is cited:
 *   a model page  for each export its values come from, that export's
 *                 file of the snapshot that opened the version shown (so
 *                 a page changes only when its model does);
 *   an index, the root page
 *                 each export's latest file on or before the date.
 * The snapshot's date is the newest date among the files cited.
 *
 * The files of every snapshot are read once (cite_load): no query per page.
 * Every string is escaped here (HTML; BibTeX inside the entry).
 */
#ifndef MODELCAT_CITE_H
#define MODELCAT_CITE_H

#include "db/catalogue.h"
#include "db/provenance.h"
#include "publish/page.h"

struct model_view;

#define CITE_LICENCE "CC BY 4.0"
#define CITE_LICENCE_URL "https://creativecommons.org/licenses/by/4.0/"
#define CITE_AUTHOR "Epoch AI"
#define CITE_TITLE "Data on AI Models"
#define CITE_URL "https://epoch.ai/data/ai-models"
/* Epoch's own citation text (as its bundle's README words it) */
#define CITE_EPOCH "Epoch AI, ‘Data on AI Models’. Published online at epoch.ai." \
	" Retrieved from ‘" CITE_URL "’ [online resource]."

/* What a render cites from. */
typedef struct cite_set {
	provenance_file *files;      /* every export file up to the date (provenance.h) */
	size_t n;                    /* entries in files */
	char *readme;                /* the bundle's README citation (db/credit.h), or NULL */
} cite_set;

/* Read the files of every snapshot on or before as_of and the latest
 * README citation into c (release with cite_release). 0, or -1 (err). */
int cite_load(catalogue *cat, const char *as_of, cite_set *c, mc_err *err);
void cite_release(cite_set *c);

/* The latest file of each export into out (room for c->n entries; they
 * point into c). Returns how many. */
size_t cite_latest(const cite_set *c, const provenance_file **out);
/* The same among the files dated on or before day (the data of that
 * day's snapshot). */
size_t cite_latest_on(const cite_set *c, const char *day, const provenance_file **out);

/* The files model m's values come from (see above) into out (room for
 * c->n entries). Returns how many. */
size_t cite_model(const cite_set *c, const struct model_view *m, const provenance_file **out);

/* The newest date of files[0..n) into day ("" when n is 0). */
void cite_day(const provenance_file *const *files, size_t n, char day[11]);

/* Append s as the text of a BibTeX value (inside braces): { } \ % & $ #
 * _ ^ ~ escaped, control characters as spaces; UTF-8 kept. */
void cite_bibtex_escape(sbuf *out, const char *s);

/* The page's own address, base_url and path (from the site root) joined,
 * new; NULL when base_url is NULL or "" (the BibTeX then gives Epoch's). */
char *cite_page_url(const char *base_url, const char *path);

/* The short hash of files[0..n) (12 hex digits, into hash): of one file,
 * the start of its SHA-256; of several, of the SHA-256 of their
 * "EXPORT SHA256\n" lines in the order given. */
void cite_short_hash(const provenance_file *const *files, size_t n, char hash[13]);

/* Append a BibTeX @misc entry: key (letters, digits, '-', '_', ':' only;
 * others become '-'), the dataset's title (CITE_TITLE), author Epoch AI,
 * the year and urldate of the snapshot, url (the page's own address;
 * NULL or "": Epoch's; as it is, but braces, backslash, space and control
 * characters percent-encoded), and one note: the licence, the snapshot's date
 * and the short hash of the files (cite_short_hash). */
void cite_bibtex(sbuf *out, const char *key, const char *url,
		 const provenance_file *const *files, size_t n);

/* Append the citation block (HTML, <div class="cite">) in the language of
 * texts (english for a text it lacks): heading of level (2 or 3), the
 * credit and licence, the snapshot's date, the files and their SHA-256,
 * Epoch's own citation text (readme, the bundle's; NULL: CITE_EPOCH), and
 * the BibTeX entry (key, url). */
void cite_html(sbuf *out, int level, const page_texts *texts, const page_texts *english,
	       const char *key, const char *url, const provenance_file *const *files, size_t n,
	       const char *readme);

#endif
