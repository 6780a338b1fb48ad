#include "publish/chart_peers.h"
#include "publish/page.h"
#include "publish/template.h"
#include "values/format.h"
#include "values/normalise.h"
#include "base/textout.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The year of point p. */
static int point_year(const chart_point *p)
{
	return (int)floor(p->x);
}

static int int_cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return x < y ? -1 : x > y;
}

size_t chart_peers_years(const chart_catalogue *cc, int **years)
{
	int *y = xcalloc(cc->ncompute + 1, sizeof(*y));
	size_t i, n = 0;

	for (i = 0; i < cc->ncompute; i++)
		y[i] = point_year(&cc->compute[i]);
	qsort(y, cc->ncompute, sizeof(*y), int_cmp);
	for (i = 0; i < cc->ncompute; i++)
		if (!n || y[n - 1] != y[i])
			y[n++] = y[i];
	*years = y;
	return n;
}

/* ---- the ranking ---- */

/* A model of the ranking: its point, and that point's index. */
typedef struct ranked {
	const chart_point *p;        /* its point */
	size_t at;                   /* its index in the catalogue's points */
} ranked;

/* The most compute first, then by name (no state outside the items: the
 * languages' indexes are made at the same time). */
static int rank_cmp(const void *a, const void *b)
{
	const chart_point *x = ((const ranked *)a)->p, *y = ((const ranked *)b)->p;

	if (x->y != y->y)
		return x->y > y->y ? -1 : 1;
	return strcmp(x->label ? x->label : "", y->label ? y->label : "");
}

void chart_peers_csv(const chart_catalogue *cc, int year, sbuf *out)
{
	ranked *order = xcalloc(cc->ncompute + 1, sizeof(*order));
	size_t i, n = 0, rank = 0;

	for (i = 0; i < cc->ncompute; i++)
		if (point_year(&cc->compute[i]) == year) {
			order[n].p = &cc->compute[i];
			order[n++].at = i;
		}
	qsort(order, n, sizeof(*order), rank_cmp);
	sbuf_adds(out, "rank,model,published,training_compute_flop\n");
	for (i = 0; i < n; i++) {
		const chart_point *p = order[i].p;
		const char *name = p->label ? p->label : "";
		const char *published = cc->entries[cc->compute_entry[order[i].at]].published;

		if (!i || order[i - 1].p->y != p->y)
			rank = i + 1;
		sbuf_addf(out, "%zu,", rank);
		textout_csv_field(out, name, strlen(name));
		sbuf_addf(out, ",%s,", published);
		norm_number_format(p->y, out);
		sbuf_addc(out, '\n');
	}
	free(order);
}

/* ---- the chart ---- */

/* Text id filled in from pairs (its key when it cannot be), into a new
 * string. */
/* Year's chart in the language of texts, count its models: the compute
 * chart's vertical axis, the year on the horizontal one (no ticks of the
 * writer's: the months are drawn by peers_months); title, description and
 * axis titles new strings (chart_texts_release). */
static void peers_chart(const chart_catalogue *cc, int year, size_t count,
			const page_texts *texts, const page_texts *english, chart *c)
{
	char y[16], n[32];
	const char *pairs[] = { "year", y, "count", n, NULL };
	sbuf number;

	mc_fmt(y, sizeof(y), "%d", year);
	sbuf_init(&number);
	format_number(format_lang_of(texts->lang), (double)count, &number);
	mc_fmt(n, sizeof(n), "%s", number.data ? number.data : "0");
	sbuf_release(&number);
	chart_init(c);
	c->lang = format_lang_of(texts->lang);
	c->x.scale = CHART_LINEAR;
	c->x.ticks = CHART_TICKS_YEAR;
	c->x.min = year;
	c->x.max = year + 1;
	c->x.step = 0;
	c->y = cc->compute_all_y;
	chart_fit_height(c);
	c->title = page_text_string(texts, english, PT_CHART_PEERS_TITLE, pairs);
	c->desc = page_text_string(texts, english, PT_CHART_PEERS_DESC, pairs);
	c->x.label = page_text_string(texts, english, PT_CHART_PEERS_AXIS, pairs);
	c->y.label = page_text_string(texts, english, PT_CHART_AXIS_COMPUTE, NULL);
}

/* The months of c's year: a grid line at the start of each, its short
 * name (chart.peers.months: twelve words) under its middle; nothing when
 * the text is not twelve words. */
static void peers_months(const chart *c, int year, const char *months, sbuf *out)
{
	char copy[256], *word[12], *save = NULL, *t;
	double top, bottom, px, ignored;
	size_t n = 0, m;

	mc_fmt(copy, sizeof(copy), "%s", months);
	for (t = strtok_r(copy, " ", &save); t && n < 13; t = strtok_r(NULL, " ", &save))
		if (n++ < 12)
			word[n - 1] = t;
	if (n != 12 || chart_place(c, year, c->y.min, &px, &bottom) ||
	    chart_place(c, year, c->y.max, &ignored, &top))
		return;
	sbuf_adds(out, "<g class=\"months\" text-anchor=\"middle\" fill=\"#333\">\n");
	for (m = 0; m < 12; m++) {
		double start, mid;

		if (chart_place(c, year + m / 12.0, c->y.min, &start, &ignored) ||
		    chart_place(c, year + (m + 0.5) / 12.0, c->y.min, &mid, &ignored))
			continue;
		if (m)
			sbuf_addf(out, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" "
				  "stroke=\"#e3e6ea\"/>", start, start, top, bottom);
		sbuf_addf(out, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\">", mid, bottom + 18);
		textout_html(out, word[m], strlen(word[m]));
		sbuf_adds(out, "</text>\n");
	}
	sbuf_adds(out, "</g>\n");
}

int chart_peers_svg(const chart_catalogue *cc, int year, const page_texts *texts,
		    const page_texts *english, sbuf *svg, mc_err *err)
{
	chart_point *p = xcalloc(cc->ncompute + 1, sizeof(*p));
	size_t i, n = 0, at;
	char *months;
	const char *marks;
	sbuf drawn, grid;
	chart c;

	(void)err;
	for (i = 0; i < cc->ncompute; i++)
		if (point_year(&cc->compute[i]) == year)
			p[n++] = cc->compute[i];
	peers_chart(cc, year, n, texts, english, &c);
	sbuf_init(&drawn);
	sbuf_init(&grid);
	chart_scatter_svg(&c, p, n, &drawn);
	months = page_text_string(texts, english, PT_CHART_PEERS_MONTHS, NULL);
	peers_months(&c, year, months, &grid);
	/* the months under the marks: before the marks' group, else before
	   the document's end */
	marks = strstr(drawn.data, "<g class=\"marks\"");
	if (!marks)
		marks = strstr(drawn.data, "</svg>");
	at = marks ? (size_t)(marks - drawn.data) : drawn.len;
	sbuf_add(svg, drawn.data, at);
	sbuf_add(svg, grid.data ? grid.data : "", grid.len);
	sbuf_add(svg, drawn.data + at, drawn.len - at);
	free(months);
	sbuf_release(&drawn);
	sbuf_release(&grid);
	chart_texts_release(&c);
	free(p);
	return 0;
}

/* ---- a model's figure ---- */

int chart_peers_model(const chart_catalogue *cc, const page_index_entry *m,
		      const page_texts *texts, const page_texts *english,
		      sbuf *html, mc_err *err)
{
	char y[16], file[64];
	double x, px, py;
	int year, rc;
	sbuf compute, sentence;
	chart c;

	if (isnan(m->compute) || !(m->compute > 0) || isinf(m->compute) ||
	    chart_decimal_year(m->published, &x))
		return 0;
	year = (int)floor(x);
	peers_chart(cc, year, 0, texts, english, &c);
	if (chart_place(&c, x, m->compute, &px, &py)) {
		chart_texts_release(&c);
		return 0;
	}
	mc_fmt(y, sizeof(y), "%d", year);
	sbuf_init(&compute);
	sbuf_init(&sentence);
	format_power_of_ten(format_lang_of(texts->lang), m->compute, &compute);
	sbuf_adds(&compute, " FLOP");
	{
		const char *pairs[] = { "name", m->name, "year", y, "compute", compute.data, NULL };

		rc = page_text_expand(texts, english, PT_CHART_PEERS_ON, template_pairs,
				      (void *)pairs, &sentence);
	}
	if (rc < 0) {
		mc_error(err, "page text %s of %s: not a valid template",
			 page_text_key(PT_CHART_PEERS_ON), texts->lang);
	} else {
		const char *pairs[] = { "year", y, NULL };
		char *link = page_text_string(texts, english, PT_CHART_PEERS_CSV, pairs);

		mc_fmt(file, sizeof(file), CHART_PEERS_SVG, year);
		sbuf_adds(html, "<div class=\"chart\">\n<h4>");
		textout_html(html, c.title, strlen(c.title));
		sbuf_addf(html, "</h4>\n<div class=\"chart-frame\"><img src=\"%s\" alt=\"", file);
		textout_html(html, c.title, strlen(c.title));
		sbuf_addf(html, "\" width=\"%d\" height=\"%d\" loading=\"lazy\">"
			  "<span class=\"chart-mark\" style=\"left:%.2f%%;top:%.2f%%\"></span>"
			  "</div>\n<p class=\"chart-note\">", c.width, c.height,
			  px * 100 / c.width, py * 100 / c.height);
		textout_html(html, sentence.data ? sentence.data : "", sentence.len);
		mc_fmt(file, sizeof(file), CHART_PEERS_CSV, year);
		sbuf_addf(html, " <a href=\"%s\">", file);
		textout_html(html, link, strlen(link));
		sbuf_adds(html, "</a></p>\n</div>\n");
		free(link);
		rc = 0;
	}
	sbuf_release(&compute);
	sbuf_release(&sentence);
	chart_texts_release(&c);
	return rc < 0 ? -1 : 0;
}

int chart_peers_model_figures(const chart_catalogue *cc, const page_index_entry *m,
			      const page_texts *texts, const page_texts *english,
			      sbuf *html, mc_err *err)
{
	return chart_catalogue_model(cc, m, texts, english, html, err) ||
	       chart_peers_model(cc, m, texts, english, html, err) ? -1 : 0;
}
