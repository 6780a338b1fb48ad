/*
 * hwaudit: why the hardware pages changed between two dates, for the
 * audit (audit.h). A card's page lists the open-weights models that fit
 * in its memory at 16, 8 and 4 bits and the models trained on it
 * (hwpage.h); those lists change with the models (added, removed,
 * renamed, their weights or parameter count changed) as well as with the
 * card. For every card on record on both dates whose lists differ, the
 * models each list gained and lost, and those it kept whose parameter
 * count (the figure the list prints) changed. A card added, removed or
 * renamed, or whose own values changed, is named by the audit's lists of
 * records. docs/operations.md, "What explains a changed page".
 *
 * Computed from what the pages are made from (hwlink_load and the models'
 * index entries on each date), so that the audit and the pages agree.
 */
#ifndef MODELCAT_HWAUDIT_H
#define MODELCAT_HWAUDIT_H

#include <stddef.h>
#include "base/sbuf.h"
#include "db/catalogue.h"

struct page_texts;               /* page.h */

/* Model names, in the order of the page that lists them. */
typedef struct hwaudit_names {
	char **v;
	size_t n;
} hwaudit_names;

#define HWAUDIT_WIDTHS 3             /* 16, 8 and 4 bits */

/* One card whose page's lists changed. */
typedef struct hwaudit_card {
	char *name;                  /* the card's name */
	hwaudit_names added[HWAUDIT_WIDTHS];   /* fit now, at each width */
	hwaudit_names removed[HWAUDIT_WIDTHS]; /* fit no longer */
	hwaudit_names figures[HWAUDIT_WIDTHS]; /* listed both times, parameter count changed */
	hwaudit_names trained_added;   /* "Models trained on it" gained */
	hwaudit_names trained_removed; /* and lost */
} hwaudit_card;

typedef struct hwaudit {
	hwaudit_card *cards;         /* sorted by name */
	size_t n;
} hwaudit;

/* The bits of width k (0: 16, 1: 8, 2: 4). */
int hwaudit_bits(size_t k);

/* The cards whose lists differ between the pages of date before
 * (YYYY-MM-DD; NULL or "": none, so nothing differs) and of date after,
 * into *a (released by the caller with hwaudit_release, also on
 * failure). 0, or -1 (err). */
int hwaudit_compare(catalogue *cat, const char *before, const char *after, hwaudit *a,
		    mc_err *err);
void hwaudit_release(hwaudit *a);

/* The audit's section of them: text (long lists end "and N more"), JSON
 * (`,\n "hardware": [...]`, every name), HTML (each card linked to its
 * page in pages + "/hardware/"; NULL: no link; its words from texts, else
 * english, both NULL: the English of the text audit). Nothing for text and
 * HTML when no card changed. */
void hwaudit_text(const hwaudit *a, sbuf *out);
void hwaudit_json(const hwaudit *a, sbuf *out);
void hwaudit_html(const hwaudit *a, const char *pages, const struct page_texts *texts,
		  const struct page_texts *english, sbuf *out);

#endif
