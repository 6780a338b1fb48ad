/*
 * hwpage: the page of one accelerator (a record of the hardware family)
 * and the hardware index, described as page blocks (page.h) and written
 * by page_render_text and page_render_html like the model pages.
 *
 * A card's page: its specifications (memory, bandwidth, compute per
 * precision, power, release date and price), the models it trained (both
 * directions of db/hwlink.h's links), and "what it will run": the ten
 * largest open-weights models whose weights fit in its memory at 16, 8
 * and 4 bits (hwpage_fits), each long list ending in a link to a page of
 * its own with every item (hwpage_build_all) and a CSV (hwpage_csv). The
 * index lists every card by memory, largest first. docs/pages.md,
 * "Hardware pages".
 *
 * Links: the pages live in LANG/hardware/ beside the model pages of
 * LANG/; a model's page is "../" + its file.
 */
#ifndef MODELCAT_HWPAGE_H
#define MODELCAT_HWPAGE_H

#include <stddef.h>
#include "base/strmap.h"
#include "db/hwlink.h"
#include "publish/page.h"

/* The fit rule: do weights of params parameters at bits bits (params x
 * bits / 8 bytes) take at most 90 % of memory bytes? Computed as params x
 * bits x 10 <= memory x 72, so that the boundary (24 GB at 4 bits: 43.2B
 * parameters) is exact. */
int hwpage_fits(double params, int bits, double memory);

/* The card's memory in bytes: 1 and *bytes, or 0 when it has none. */
int hwpage_memory(const hwlink_card *card, double *bytes);

/* The models the hardware pages link to. */
typedef struct hwpage_models {
	const page_index_entry *entries; /* every model with a page (borrowed) */
	size_t n;                    /* entries in entries */
	strmap by_name;              /* name -> index + 1 */
	size_t *runnable;            /* open weights and a parameter count:
					indexes, most parameters first */
	size_t nrunnable;            /* entries in runnable */
} hwpage_models;

/* Index n entries (page_index_entry_fill's values, file relative to the
 * model pages' folder); the entries must outlive m. */
void hwpage_models_init(hwpage_models *m, const page_index_entry *entries, size_t n);
void hwpage_models_release(hwpage_models *m);

/* Describe the page of card d->cards[card] in the language of texts
 * (English where it lacks a text): each long list (the models that fit at
 * a width, the models trained on it) cut at its ten first items, then a
 * link to the complete list's page, all_stem + "-models-BITS.html" or
 * "-trained.html" (all_stem NULL: no link). 0, or -1 (err). */
int hwpage_build(page *p, const hwlink_day *d, size_t card, const hwpage_models *models,
		 const char *all_stem, const page_texts *texts, const page_texts *english,
		 mc_err *err);

/* Describe the page of one of the card's complete lists: every model that
 * fits at bits bits (16, 8 or 4; with a link to csv_href, NULL: none), or
 * (bits 0) every model trained on it; with a link back to card_href. 0,
 * or -1 (err). */
int hwpage_build_all(page *p, const hwlink_day *d, size_t card, const hwpage_models *models,
		     int bits, const char *card_href, const char *csv_href,
		     const page_texts *texts, const page_texts *english, mc_err *err);

/* The models that fit in the card's memory as CSV into out: a header
 * (bits,model,parameters,weights_bytes), then a row per width and model,
 * 16, 8 then 4 bits, each largest first; only the header when the card
 * has no memory figure. */
void hwpage_csv(const hwlink_day *d, size_t card, const hwpage_models *models, sbuf *out);

/* Describe the hardware index on date: after its intro, charts (HTML
 * made by hwpage_index_chart, or NULL: none), then every card of d, by
 * memory, the largest first (cards without a memory figure last, by
 * name), linking to files[i] for d->cards[i]. 0, or -1 (err). */
int hwpage_build_index(page *p, const hwlink_day *d, char (*files)[140], const char *date,
		       const char *charts, const page_texts *texts, const page_texts *english,
		       mc_err *err);

/* The hardware index's charts (hwchart.c): memory (GB) and 16-bit
 * compute (FLOP/s, the tensor FP16/BF16 figure, else the FP16 one) of
 * every card with one and a release date, against its release date, on
 * log axes. Their files, beside the index: */
#define HWPAGE_CHART_MEMORY 0
#define HWPAGE_CHART_FLOPS16 1
#define HWPAGE_MEMORY_SVG "index.memory.svg"
#define HWPAGE_MEMORY_CSV "index.memory.csv"
#define HWPAGE_FLOPS16_SVG "index.flops16.svg"
#define HWPAGE_FLOPS16_CSV "index.flops16.csv"

/* Chart kind (HWPAGE_CHART_*) of d's cards in one language (texts, else
 * english): the SVG document into svg, its data as CSV into csv (a
 * header, then a row per point by release date, then name: the card's
 * name, release date and value as stored, and for 16-bit compute the
 * column it is from), and the index's figure of it (title, description,
 * the <img> of its file, a link to its CSV) into html. Returns the
 * number of points; with none, nothing is written. */
int hwpage_index_chart(const hwlink_day *d, int kind, const page_texts *texts,
		       const page_texts *english, sbuf *svg, sbuf *csv, sbuf *html);
/* The file of chart kind: its SVG (csv 0) or its CSV. */
const char *hwpage_index_chart_file(int kind, int csv);

#endif
