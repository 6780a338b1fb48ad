#include "publish/hwpage.h"
#include "publish/chart.h"
#include "publish/template.h"
#include "base/textout.h"
#include "values/format.h"
#include "values/value.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- the hardware index's charts ---- */

/* The columns of a card's 16-bit compute, the first on record taken. */
static const char *const flops16_fields[] = {
	"Tensor-FP16/BF16 performance (FLOP/s)",
	"FP16 (half precision) performance (FLOP/s)",
};

/* One of the charts: its files and texts. */
typedef struct hwchart_kind {
	const char *svg, *csv;       /* its files, beside the index */
	const char *header;          /* its CSV's header line */
	page_text_id title, desc, axis; /* its words */
} hwchart_kind;

static const hwchart_kind kinds[] = {
	{ HWPAGE_MEMORY_SVG, HWPAGE_MEMORY_CSV, "hardware,release_date,memory_bytes\n",
	  PT_HWP_INDEX_MEMORY_TITLE, PT_HWP_INDEX_MEMORY_DESC, PT_HWP_CHART_AXIS },
	{ HWPAGE_FLOPS16_SVG, HWPAGE_FLOPS16_CSV,
	  "hardware,release_date,flops_16bit,column\n",
	  PT_HWP_INDEX_FLOPS_TITLE, PT_HWP_INDEX_FLOPS_DESC, PT_HWP_INDEX_FLOPS_AXIS },
};

/* Card c's point on chart kind: 1 and its release date (as stored), its
 * value as stored and its column (the 16-bit chart's), the point (year,
 * value: memory in GB, compute in FLOP/s); 0 when it has none. */
static int card_point(const hwlink_card *c, int kind, const char **date, const char **value,
		      const char **column, chart_point *p)
{
	const char *fields[2] = { "Memory (bytes)", NULL };
	double v;
	size_t i;

	*date = hwlink_value(c, "Release date");
	if (!*date || chart_decimal_year(*date, &p->x))
		return 0;
	if (kind) {
		fields[0] = flops16_fields[0];
		fields[1] = flops16_fields[1];
	}
	for (i = 0; i < 2 && fields[i]; i++) {
		*value = hwlink_value(c, fields[i]);
		*column = fields[i];
		if (*value && value_parse_number(*value, &v) == 0 && v > 0 && !isinf(v)) {
			p->y = kind ? v : v / 1e9;
			p->label = c->name;
			return 1;
		}
	}
	return 0;
}

/* A point of a chart and its card, for sorting. */
typedef struct card_at {
	const chart_point *p;        /* its point */
	size_t card;                 /* its card */
} card_at;

/* By release date, then by name (no state outside the items). */
static int point_cmp(const void *a, const void *b)
{
	const chart_point *x = ((const card_at *)a)->p, *y = ((const card_at *)b)->p;

	if (x->x != y->x)
		return x->x < y->x ? -1 : 1;
	return strcmp(x->label, y->label);
}

/* The points of chart kind of d's cards into p (their number returned),
 * and its CSV into csv. */
static size_t chart_data(const hwlink_day *d, int kind, chart_point *p, sbuf *csv)
{
	card_at *order = xcalloc(d->ncards + 1, sizeof(*order));
	size_t i, n = 0;

	for (i = 0; i < d->ncards; i++) {
		const char *date, *value, *column;

		if (card_point(&d->cards[i], kind, &date, &value, &column, &p[n]))
			order[n++].card = i;
	}
	for (i = 0; i < n; i++)
		order[i].p = &p[i];
	qsort(order, n, sizeof(*order), point_cmp);
	sbuf_adds(csv, kinds[kind].header);
	for (i = 0; i < n; i++) {
		const hwlink_card *c = &d->cards[order[i].card];
		const char *date, *value, *column;
		chart_point ignored;

		card_point(c, kind, &date, &value, &column, &ignored);
		textout_csv_field(csv, c->name, strlen(c->name));
		sbuf_addc(csv, ',');
		textout_csv_field(csv, date, strlen(date));
		sbuf_addc(csv, ',');
		textout_csv_field(csv, value, strlen(value));
		if (kind) {
			sbuf_addc(csv, ',');
			textout_csv_field(csv, column, strlen(column));
		}
		sbuf_addc(csv, '\n');
	}
	free(order);
	return n;
}

/* Text id filled in from pairs, into a new string (its key when it cannot
 * be). */
int hwpage_index_chart(const hwlink_day *d, int kind, const page_texts *texts,
		       const page_texts *english, sbuf *svg, sbuf *csv, sbuf *html)
{
	chart_point *p = xcalloc(d->ncards + 1, sizeof(*p));
	size_t n = chart_data(d, kind, p, csv), i;
	double x0, x1, y0, y1;
	char count[32], from[16], to[16], *more;
	const char *pairs[] = { "count", count, "from", from, "to", to, NULL };
	sbuf number;
	chart c;

	if (!n) {
		free(p);
		return 0;
	}
	x0 = x1 = p[0].x;
	y0 = y1 = p[0].y;
	for (i = 1; i < n; i++) {
		x0 = fmin(x0, p[i].x);
		x1 = fmax(x1, p[i].x);
		y0 = fmin(y0, p[i].y);
		y1 = fmax(y1, p[i].y);
	}
	sbuf_init(&number);
	format_number(format_lang_of(texts->lang), (double)n, &number);
	mc_fmt(count, sizeof(count), "%s", number.data);
	sbuf_release(&number);
	mc_fmt(from, sizeof(from), "%d", (int)floor(x0));
	mc_fmt(to, sizeof(to), "%d", (int)floor(x1));
	chart_init(&c);
	c.lang = format_lang_of(texts->lang);
	chart_axis_years(&c.x, x0, x1);
	chart_axis_log(&c.y, y0, y1);
	if (!kind)                   /* memory: "1", "10", "100" GB */
		c.y.ticks = CHART_TICKS_NUMBER;
	c.title = page_text_string(texts, english, kinds[kind].title, NULL);
	c.desc = page_text_string(texts, english, kinds[kind].desc, pairs);
	c.x.label = page_text_string(texts, english, PT_HWP_INDEX_DATE_AXIS, NULL);
	c.y.label = page_text_string(texts, english, kinds[kind].axis, NULL);
	more = page_text_string(texts, english, PT_HWP_INDEX_CSV, NULL);
	chart_scatter_svg(&c, p, n, svg);
	chart_figure_open(&c, 2, kinds[kind].svg, NULL, html);
	sbuf_addf(html, "<p class=\"chart-more\"><a href=\"%s\">", kinds[kind].csv);
	textout_html(html, more, strlen(more));
	sbuf_adds(html, "</a></p>\n</div>\n");
	free(more);
	chart_texts_release(&c);
	free(p);
	return (int)n;
}

const char *hwpage_index_chart_file(int kind, int csv)
{
	return csv ? kinds[kind].csv : kinds[kind].svg;
}
