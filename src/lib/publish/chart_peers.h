/*
 * chart_peers: a model among the models published in the same year
 * (docs/pages.md, "Charts").
 *
 * One chart per year and language, shared by that year's model pages: the
 * training compute of the year's models (chart_catalogue's compute points
 * whose publication date falls in it) against the date within the year,
 * on the compute chart's own vertical axis, the months marked. It is a
 * file beside the index (CHART_PEERS_SVG), with the year's models ranked
 * as CSV beside it (CHART_PEERS_CSV). A model page shows the file as an
 * <img> with its own mark over it (chart_place) and a sentence of its own
 * values: nothing on the page counts the other models, so that it
 * changes only with its model's values, as the compute chart's figure.
 */
#ifndef MODELCAT_CHART_PEERS_H
#define MODELCAT_CHART_PEERS_H

#include <stddef.h>
#include "base/util.h"
#include "publish/chart.h"

struct page_index_entry;
struct page_texts;

/* The files of year YEAR's chart and ranking, beside a language's index. */
#define CHART_PEERS_SVG "index.compute-%d.svg"
#define CHART_PEERS_CSV "index.compute-%d.csv"

/* The years of cc's compute points (the floor of their decimal years),
 * ascending, into a new array *years (the caller frees it): their number. */
size_t chart_peers_years(const chart_catalogue *cc, int **years);

/* The models of year's points, ranked: a header
 * (rank,model,published,training_compute_flop), then a row per model,
 * the most compute first (then by name), rank 1 + the models of the year
 * with more compute (equal values share a rank), the date as stored and
 * the compute as a plain number, into out. */
void chart_peers_csv(const chart_catalogue *cc, int year, sbuf *out);

/* Year's chart in one language (texts, falling back to english) as a
 * complete SVG document, into svg. 0, or -1 (err). */
int chart_peers_svg(const chart_catalogue *cc, int year, const struct page_texts *texts,
		    const struct page_texts *english, sbuf *svg, mc_err *err);

/* The figure of model m among its year's models, for its page (beside
 * the index): heading, the year's file as an <img>, m's mark over it, a
 * sentence (its year and compute) and a link to the year's ranking.
 * Appended to html; nothing when m has no publication date or training
 * compute. 0, or -1 (err). */
int chart_peers_model(const chart_catalogue *cc, const struct page_index_entry *m,
		      const struct page_texts *texts, const struct page_texts *english,
		      sbuf *html, mc_err *err);

/* A model page's charts, appended to html: the compute chart with m's
 * mark (chart_catalogue_model), then m among its year's models
 * (chart_peers_model). 0, or -1 (err). */
int chart_peers_model_figures(const chart_catalogue *cc, const struct page_index_entry *m,
			      const struct page_texts *texts, const struct page_texts *english,
			      sbuf *html, mc_err *err);

#endif
