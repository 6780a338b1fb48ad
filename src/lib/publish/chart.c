#include "publish/chart.h"
#include "publish/page.h"
#include "values/format.h"
#include "publish/template.h"
#include "values/normalise.h"
#include "base/textout.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The plot area's margins, in SVG units: room for the tick labels and
 * the axis titles. */
enum { MARGIN_LEFT = 76, MARGIN_RIGHT = 20, MARGIN_TOP = 16, MARGIN_BOTTOM = 52 };

#define MAX_TICKS 64

static const char mark_colour[] = "#0b57d0";
static const char highlight_colour[] = "#d93025";

void chart_init(chart *c)
{
	memset(c, 0, sizeof(*c));
	c->x.max = c->y.max = 1;
	c->x.step = c->y.step = 0.25;
	c->width = 640;
	c->height = 400;
}

void chart_axis_log(chart_axis *a, double min, double max)
{
	static const int steps[] = { 1, 2, 3, 5, 10 };
	double lo = floor(log10(min)), hi = ceil(log10(max));
	size_t i;

	if (hi <= lo)
		hi = lo + 1;
	a->scale = CHART_LOG10;
	a->ticks = CHART_TICKS_POWER;
	for (i = 0; i < sizeof(steps) / sizeof(steps[0]); i++)
		if ((hi - lo) / steps[i] <= 8)
			break;
	a->step = steps[i < sizeof(steps) / sizeof(steps[0]) ? i : i - 1];
	lo = floor(lo / a->step) * a->step;
	hi = ceil(hi / a->step) * a->step;
	a->min = pow(10, lo);
	a->max = pow(10, hi);
}

void chart_axis_linear(chart_axis *a, double max)
{
	static const double steps[] = { 1, 2, 2.5, 5, 10 };
	double unit;
	size_t i;

	if (!(max > 0) || isinf(max))
		max = 1;
	unit = pow(10, floor(log10(max / 8)));
	for (i = 0; i + 1 < sizeof(steps) / sizeof(steps[0]); i++)
		if (max / (steps[i] * unit) <= 8 + 1e-9)
			break;
	a->scale = CHART_LINEAR;
	a->ticks = CHART_TICKS_NUMBER;
	a->step = steps[i] * unit;
	a->min = 0;
	a->max = ceil(max / a->step - 1e-9) * a->step;
}

void chart_axis_years(chart_axis *a, double min, double max)
{
	static const int steps[] = { 1, 2, 5, 10, 20, 25, 50 };
	double lo = floor(min), hi = floor(max) + 1;
	size_t i;

	a->scale = CHART_LINEAR;
	a->ticks = CHART_TICKS_YEAR;
	for (i = 0; i + 1 < sizeof(steps) / sizeof(steps[0]); i++)
		if (ceil(hi / steps[i]) - floor(lo / steps[i]) <= 10)
			break;
	a->step = steps[i];
	a->min = floor(lo / a->step) * a->step;
	a->max = ceil(hi / a->step) * a->step;
}

/* v on axis a in the axis's own units (log10 on a log axis): 0, or -1
 * when it has none. */
static int axis_units(const chart_axis *a, double v, double *t)
{
	if (isnan(v) || isinf(v))
		return -1;
	if (a->scale == CHART_LOG10) {
		if (v <= 0)
			return -1;
		v = log10(v);
	}
	*t = v;
	return 0;
}

/* Where v falls on a, from 0 (min) to 1 (max): 0, or -1 outside. */
static int axis_fraction(const chart_axis *a, double v, double *f)
{
	double lo, hi, t, slack;

	if (axis_units(a, a->min, &lo) || axis_units(a, a->max, &hi) || !(hi > lo) ||
	    axis_units(a, v, &t))
		return -1;
	slack = (hi - lo) * 1e-9;
	if (t < lo - slack || t > hi + slack)
		return -1;
	*f = (t - lo) / (hi - lo);
	*f = *f < 0 ? 0 : *f > 1 ? 1 : *f;
	return 0;
}

static double plot_x(const chart *c, double f)
{
	return MARGIN_LEFT + f * (c->width - MARGIN_LEFT - MARGIN_RIGHT);
}

static double plot_y(const chart *c, double f)
{
	return c->height - MARGIN_BOTTOM - f * (c->height - MARGIN_TOP - MARGIN_BOTTOM);
}

int chart_place(const chart *c, double x, double y, double *px, double *py)
{
	double fx, fy;

	if (axis_fraction(&c->x, x, &fx) || axis_fraction(&c->y, y, &fy))
		return -1;
	*px = plot_x(c, fx);
	*py = plot_y(c, fy);
	return 0;
}

/* The ticks of a, in the axis's units, into ticks (at most MAX_TICKS):
 * their number. */
static size_t axis_ticks(const chart_axis *a, double *ticks)
{
	double lo, hi, first;
	size_t n = 0;

	if (axis_units(a, a->min, &lo) || axis_units(a, a->max, &hi) || !(hi > lo) ||
	    !(a->step > 0))
		return 0;
	first = ceil(lo / a->step - 1e-9);
	while (n < MAX_TICKS && (first + (double)n) * a->step <= hi + (hi - lo) * 1e-9) {
		ticks[n] = (first + (double)n) * a->step;
		n++;
	}
	return n;
}

/* Where tick t (axis units) of a falls, from 0 (min) to 1 (max). */
static double tick_fraction(const chart_axis *a, double t)
{
	double lo = 0, hi = 1;

	if (axis_units(a, a->min, &lo) || axis_units(a, a->max, &hi) || !(hi > lo))
		return 0;
	return (t - lo) / (hi - lo);
}

/* "10²⁴", "10⁻³" */
static void power_label(long exponent, sbuf *out)
{
	static const char *const superscript[] = {
		"\xE2\x81\xB0", "\xC2\xB9", "\xC2\xB2", "\xC2\xB3", "\xE2\x81\xB4",
		"\xE2\x81\xB5", "\xE2\x81\xB6", "\xE2\x81\xB7", "\xE2\x81\xB8", "\xE2\x81\xB9",
	};
	char digits[24];
	const char *d;

	sbuf_adds(out, "10");
	if (exponent < 0)
		sbuf_adds(out, "\xE2\x81\xBB");
	mc_fmt(digits, sizeof(digits), "%ld", labs(exponent));
	for (d = digits; *d; d++)
		sbuf_adds(out, superscript[*d - '0']);
}

/* The label of tick t (axis units) of a. */
static void tick_label(const chart *c, const chart_axis *a, double t, sbuf *out)
{
	double v = a->scale == CHART_LOG10 ? pow(10, t) : t;
	const format_lang *l = c->lang ? c->lang : format_lang_of("en");

	if (a->ticks == CHART_TICKS_POWER && a->scale == CHART_LOG10)
		power_label(lround(t), out);
	else if (a->ticks == CHART_TICKS_YEAR)
		sbuf_addf(out, "%ld", lround(v));
	else
		format_number(l, v, out);
}

static void xml_text(sbuf *out, const char *s)
{
	if (s)
		textout_html(out, s, strlen(s));
}

/* The document's start: size, accessible name and description, background. */
static void svg_open(const chart *c, sbuf *out)
{
	sbuf_addf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %d\" "
		  "width=\"%d\" height=\"%d\" role=\"img\" aria-labelledby=\"chart-title "
		  "chart-desc\" font-family=\"system-ui,sans-serif\" font-size=\"12\">\n"
		  "<title id=\"chart-title\">", c->width, c->height, c->width, c->height);
	xml_text(out, c->title);
	sbuf_adds(out, "</title>\n<desc id=\"chart-desc\">");
	xml_text(out, c->desc);
	sbuf_addf(out, "</desc>\n<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n", c->width,
		  c->height);
}

/* The horizontal axis: grid lines, tick labels and title. */
static void svg_x_axis(const chart *c, sbuf *out)
{
	double ticks[MAX_TICKS], f;
	size_t n = axis_ticks(&c->x, ticks), i;
	sbuf label;

	sbuf_init(&label);
	sbuf_adds(out, "<g class=\"x-axis\" text-anchor=\"middle\" fill=\"#333\">\n");
	for (i = 0; i < n; i++) {
		f = tick_fraction(&c->x, ticks[i]);
		sbuf_reset(&label);
		tick_label(c, &c->x, ticks[i], &label);
		sbuf_addf(out, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"#e3e6ea\"/>"
			  "<text class=\"tick\" x=\"%.1f\" y=\"%d\">%s</text>\n", plot_x(c, f),
			  plot_x(c, f), MARGIN_TOP, c->height - MARGIN_BOTTOM + 4, plot_x(c, f),
			  c->height - MARGIN_BOTTOM + 18, label.data);
	}
	if (c->x.label) {
		sbuf_addf(out, "<text class=\"label\" x=\"%.1f\" y=\"%d\" font-weight=\"600\">",
			  plot_x(c, 0.5), c->height - 10);
		xml_text(out, c->x.label);
		sbuf_adds(out, "</text>\n");
	}
	sbuf_adds(out, "</g>\n");
	sbuf_release(&label);
}

/* The vertical axis: grid lines, tick labels and title. */
static void svg_y_axis(const chart *c, sbuf *out)
{
	double ticks[MAX_TICKS];
	size_t n = axis_ticks(&c->y, ticks), i;
	sbuf label;

	sbuf_init(&label);
	sbuf_adds(out, "<g class=\"y-axis\" text-anchor=\"end\" fill=\"#333\">\n");
	for (i = 0; i < n; i++) {
		double y = plot_y(c, tick_fraction(&c->y, ticks[i]));

		sbuf_reset(&label);
		tick_label(c, &c->y, ticks[i], &label);
		sbuf_addf(out, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#e3e6ea\"/>"
			  "<text class=\"tick\" x=\"%d\" y=\"%.1f\" dominant-baseline=\"central\">"
			  "%s</text>\n", MARGIN_LEFT - 4, c->width - MARGIN_RIGHT, y, y,
			  MARGIN_LEFT - 8, y, label.data);
	}
	if (c->y.label) {
		sbuf_addf(out, "<text class=\"label\" transform=\"translate(16 %.1f) rotate(-90)\" "
			  "text-anchor=\"middle\" font-weight=\"600\">", plot_y(c, 0.5));
		xml_text(out, c->y.label);
		sbuf_adds(out, "</text>\n");
	}
	sbuf_adds(out, "</g>\n");
	sbuf_release(&label);
}

/* The plot area's frame: the two axis lines. */
static void svg_frame(const chart *c, sbuf *out)
{
	sbuf_addf(out, "<path d=\"M%d %dV%dH%d\" fill=\"none\" stroke=\"#888\"/>\n", MARGIN_LEFT,
		  MARGIN_TOP, c->height - MARGIN_BOTTOM, c->width - MARGIN_RIGHT);
}

size_t chart_scatter_svg(const chart *c, const chart_point *points, size_t n, sbuf *out)
{
	size_t i, drawn = 0;

	svg_open(c, out);
	svg_x_axis(c, out);
	svg_y_axis(c, out);
	svg_frame(c, out);
	/* every mark a circle of radius 3 drawn as a subpath of one path
	 * ("M x-3 y" and two half-circle arcs): an element per mark made the
	 * index's two charts cost its page a tenth of a second of layout on
	 * every load. Where marks overlap, the overlap is not darker. */
	sbuf_addf(out, "<g class=\"marks\" fill=\"%s\" fill-opacity=\"0.45\">\n", mark_colour);
	for (i = 0; i < n; i++) {
		double px, py;

		if (chart_place(c, points[i].x, points[i].y, &px, &py))
			continue;
		sbuf_adds(out, drawn ? "\n" : "<path d=\"");
		sbuf_addf(out, "M%.1f %.1fa3 3 0 1 0 6 0a3 3 0 1 0-6 0", px - 3, py);
		drawn++;
	}
	if (drawn)
		sbuf_adds(out, "\"/>\n");
	sbuf_adds(out, "</g>\n</svg>\n");
	return drawn;
}

/* Bars: where their labels start, in SVG units. */
enum { BAR_LABEL_X = 8 };

/* The width of label s at the chart's font size (12), estimated: 7 units
 * a character. */
static double label_width(const char *s)
{
	size_t chars = 0;

	for (; *s; s++)
		chars += ((unsigned char)*s & 0xC0) != 0x80;
	return 7.0 * (double)chars;
}

/* Bars: the rule of c at x, from the top of the plot area to its
 * bottom, its label in the first row (of height row), right-aligned on it. */
static void svg_rule(const chart *c, double x, double row, sbuf *out)
{
	sbuf_addf(out, "<g class=\"rule\" fill=\"#333\"><line x1=\"%.1f\" x2=\"%.1f\" "
		  "y1=\"%d\" y2=\"%d\" stroke=\"#333\" stroke-width=\"1.5\" "
		  "stroke-dasharray=\"5 3\"/>", x, x, MARGIN_TOP, c->height - MARGIN_BOTTOM);
	if (c->rule_label) {
		sbuf_addf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" "
			  "dominant-baseline=\"central\">", x - 4, MARGIN_TOP + row * 0.5);
		xml_text(out, c->rule_label);
		sbuf_adds(out, "</text>");
	}
	sbuf_adds(out, "</g>\n");
}

size_t chart_bars_svg(const chart *c, const chart_bar *bars, size_t n, sbuf *out)
{
	double rule_f = 0;
	int ruled = c->rule > 0 && !axis_fraction(&c->x, c->rule, &rule_f);
	size_t rows = n + (size_t)(ruled && n), i, drawn = 0;
	double row = rows ? (double)(c->height - MARGIN_TOP - MARGIN_BOTTOM) / (double)rows : 0;
	double zero = plot_x(c, 0);

	svg_open(c, out);
	svg_x_axis(c, out);
	/* the x axis's line alone: the labels run from the left edge, over
	 * where a y axis would be */
	sbuf_addf(out, "<path d=\"M%.1f %dH%d\" fill=\"none\" stroke=\"#888\"/>\n", zero,
		  c->height - MARGIN_BOTTOM, c->width - MARGIN_RIGHT);
	/* a row per bar: its label on the upper part (labels are long, the
	 * names of models), from the chart's left edge, the bar on the lower;
	 * the labels in the chart's own font size, so that they are as
	 * readable as its ticks, a label too long for the width squeezed into
	 * it */
	sbuf_adds(out, "<g class=\"bars\">\n");
	for (i = 0; i < n; i++) {
		double y = MARGIN_TOP + row * (double)(i + rows - n), f;
		double room = c->width - 2 * BAR_LABEL_X;

		sbuf_addf(out, "<text x=\"%d\" y=\"%.1f\" dominant-baseline=\"central\" "
			  "fill=\"#333\"", BAR_LABEL_X, y + row * 0.3);
		if (bars[i].label && label_width(bars[i].label) > room)
			sbuf_addf(out, " textLength=\"%.0f\" lengthAdjust=\"spacingAndGlyphs\"", room);
		sbuf_addc(out, '>');
		xml_text(out, bars[i].label);
		sbuf_adds(out, "</text>");
		if (!axis_fraction(&c->x, bars[i].value, &f)) {
			sbuf_addf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
				  "fill=\"%s\"/>", zero, y + row * 0.55, plot_x(c, f) - zero,
				  row * 0.35, bars[i].highlight ? highlight_colour : mark_colour);
			drawn++;
		}
		sbuf_addc(out, '\n');
	}
	sbuf_adds(out, "</g>\n");
	if (ruled && n)
		svg_rule(c, plot_x(c, rule_f), row, out);
	sbuf_adds(out, "</svg>\n");
	return drawn;
}

/* ---- the catalogue's charts ---- */

int chart_decimal_year(const char *published, double *year)
{
	static const int before[] = { 0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334 };
	struct norm_date d;
	int leap, days;

	if (!published || !*published ||
	    norm_date_parse(published, strlen(published), &d, NULL) != NORM_OK)
		return -1;
	if (d.precision == DATE_YEAR || d.month < 1 || d.month > 12) {
		*year = d.year + 0.5;
		return 0;
	}
	if (d.precision == DATE_MONTH || d.day < 1) {
		*year = d.year + (d.month - 0.5) / 12.0;
		return 0;
	}
	leap = (d.year % 4 == 0 && d.year % 100 != 0) || d.year % 400 == 0;
	days = before[d.month - 1] + d.day + (leap && d.month > 2);
	*year = d.year + (days - 0.5) / (leap ? 366.0 : 365.0);
	return 0;
}

/* The points (decimal year, value) of the entries with both; *count
 * their number, (*entry_of)[i] point i's entry. The point's label is the
 * entry's name. */
static chart_point *points_of(const page_index_entry *e, size_t n, int compute, size_t *count,
			      size_t **entry_of)
{
	chart_point *p = xcalloc(n + 1, sizeof(*p));
	size_t i;

	*entry_of = xcalloc(n + 1, sizeof(**entry_of));
	*count = 0;
	for (i = 0; i < n; i++) {
		double year, v = compute ? e[i].compute : e[i].parameters;

		if (isnan(v) || !(v > 0) || isinf(v) || chart_decimal_year(e[i].published, &year))
			continue;
		p[*count].x = year;
		p[*count].y = v;
		p[*count].label = e[i].name;
		(*entry_of)[*count] = i;
		(*count)++;
	}
	return p;
}

/* Axes x and y holding every point of p. */
static void axes_of(const chart_point *p, size_t n, chart_axis *x, chart_axis *y)
{
	double x0, x1, y0, y1;
	size_t i;

	if (!n)
		return;
	x0 = x1 = p[0].x;
	y0 = y1 = p[0].y;
	for (i = 1; i < n; i++) {
		x0 = fmin(x0, p[i].x);
		x1 = fmax(x1, p[i].x);
		y0 = fmin(y0, p[i].y);
		y1 = fmax(y1, p[i].y);
	}
	chart_axis_years(x, x0, x1);
	chart_axis_log(y, y0, y1);
}

/* The least and greatest x of p (n; 0 and 0 when none) into years. */
static void years_of(const chart_point *p, size_t n, double years[2])
{
	size_t i;

	years[0] = years[1] = n ? p[0].x : 0;
	for (i = 1; i < n; i++) {
		years[0] = fmin(years[0], p[i].x);
		years[1] = fmax(years[1], p[i].x);
	}
}

void chart_catalogue_init(chart_catalogue *cc, const page_index_entry *e, size_t n)
{
	chart blank;

	memset(cc, 0, sizeof(*cc));
	chart_init(&blank);
	cc->entries = e;
	cc->n = n;
	cc->compute_x = cc->compute_y = cc->parameters_x = cc->parameters_y = blank.x;
	cc->compute = points_of(e, n, 1, &cc->ncompute, &cc->compute_entry);
	cc->parameters = points_of(e, n, 0, &cc->nparameters, &cc->parameters_entry);
	axes_of(cc->compute, cc->ncompute, &cc->compute_x, &cc->compute_y);
	axes_of(cc->parameters, cc->nparameters, &cc->parameters_x, &cc->parameters_y);
	years_of(cc->compute, cc->ncompute, cc->compute_years);
	years_of(cc->parameters, cc->nparameters, cc->parameters_years);
}

void chart_catalogue_release(chart_catalogue *cc)
{
	if (!cc)
		return;
	free(cc->compute);
	free(cc->parameters);
	free(cc->compute_entry);
	free(cc->parameters_entry);
	memset(cc, 0, sizeof(*cc));
}

/* ---- the catalogue's charts in words ---- */

/* One language's texts, falling back to English. */
typedef struct words {
	const page_texts *texts;     /* the language's */
	const page_texts *english;   /* the fallback */
	mc_err *err;                 /* where a failure is told */
} words;


/* Text id filled in from pairs, appended to out: 0; 1 when a value it
 * needs is missing (out unchanged); -1 (w->err) when there is no such
 * text or it is broken. */
static int expand(const words *w, page_text_id id, const char *const *pairs, sbuf *out)
{
	const char *t = page_text_of(w->texts, w->english, id);
	int rc;

	if (!t)
		return mc_error(w->err, "page text %s: missing in %s and in English",
				page_text_key(id), w->texts->lang);
	rc = page_text_expand(w->texts, w->english, id, template_pairs, (void *)pairs, out);
	if (rc < 0)
		return mc_error(w->err, "page text %s of %s: not a valid template",
				page_text_key(id), w->texts->lang);
	return rc;
}

/* Text id with no value into a new string (the key when it cannot be
 * expanded): the caller frees it. */
static char *word(const words *w, page_text_id id)
{
	sbuf s;

	sbuf_init(&s);
	page_text_plain(w->texts, w->english, id, NULL, &s);
	return sbuf_detach(&s, NULL);
}

/* A stored date as the pages write it (page_date; "March 2023" when
 * month_only); the date itself when it cannot be written. */
static void date_words(const words *w, const char *iso, int month_only, sbuf *out)
{
	size_t len = out->len;

	if (page_date(iso, month_only, w->texts, w->english, out, NULL) <= 0) {
		out->len = len;
		if (out->data)
			out->data[len] = '\0';
		sbuf_adds(out, iso ? iso : "");
	}
}

static void flop_words(const format_lang *l, double x, sbuf *out)
{
	format_power_of_ten(l, x, out);
	sbuf_adds(out, " FLOP");
}

/* One chart of the catalogue in one language's words. */
typedef struct chart_kind {
	page_text_id title, desc, axis;  /* its texts */
	page_text_id column;         /* the value's column in the data table */
	const char *file;            /* its SVG file, beside the index */
	const char *anchor;          /* its table's id on the data page */
	void (*format)(const format_lang *, double, sbuf *); /* a value as the pages write it */
} chart_kind;

static const chart_kind compute_kind = {
	PT_CHART_COMPUTE_TITLE, PT_CHART_COMPUTE_DESC, PT_CHART_AXIS_COMPUTE,
	PT_LABEL_TRAINING_COMPUTE, CHART_COMPUTE_FILE, "compute", flop_words,
};
static const chart_kind parameters_kind = {
	PT_CHART_PARAMETERS_TITLE, PT_CHART_PARAMETERS_DESC, PT_CHART_AXIS_PARAMETERS,
	PT_LABEL_PARAMETERS, CHART_PARAMETERS_FILE, "parameters", format_count,
};

/* The chart c of kind k over n points whose x run over years[0..1], its
 * words set: title, desc and axis titles are new strings
 * (chart_words_release). 0 or -1. */
static int chart_words(const words *w, const chart_kind *k, size_t n, const double years[2],
		       const chart_axis *x, const chart_axis *y, chart *c)
{
	char count[32], from[16], to[16];
	const char *pairs[7];
	sbuf s, number;
	double lo = years[0], hi = years[1];

	sbuf_init(&number);
	format_number(format_lang_of(w->texts->lang), (double)n, &number);
	mc_fmt(count, sizeof(count), "%s", number.data);
	sbuf_release(&number);
	mc_fmt(from, sizeof(from), "%d", (int)floor(lo));
	mc_fmt(to, sizeof(to), "%d", (int)floor(hi));
	chart_init(c);
	c->lang = format_lang_of(w->texts->lang);
	c->x = *x;
	c->y = *y;
	c->title = word(w, k->title);
	c->x.label = word(w, PT_CHART_AXIS_DATE);
	c->y.label = word(w, k->axis);
	pairs[0] = "count";
	pairs[1] = count;
	pairs[2] = "from";
	pairs[3] = from;
	pairs[4] = "to";
	pairs[5] = to;
	pairs[6] = NULL;
	sbuf_init(&s);
	if (expand(w, k->desc, pairs, &s) < 0) {
		sbuf_release(&s);
		return -1;
	}
	c->desc = sbuf_detach(&s, NULL);
	return 0;
}

static void chart_words_release(chart *c)
{
	free((char *)c->title);
	free((char *)c->desc);
	free((char *)c->x.label);
	free((char *)c->y.label);
	c->title = c->desc = c->x.label = c->y.label = NULL;
}

/* A row of a data table: its point's date and name, for sorting. */
typedef struct table_row {
	double x;                    /* the point's date */
	const char *name;            /* its label */
	size_t point;                /* its index */
} table_row;

static int table_row_cmp(const void *a, const void *b)
{
	const table_row *x = a, *y = b;

	if (x->x != y->x)
		return x->x < y->x ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* The data of points p (n; point i is entry entry_of[i] of e) as a table,
 * by date: model, date as the pages write it, value; its heading's id is
 * k's anchor. */
static void data_table(const words *w, const chart_kind *k, const chart *c,
		       const chart_point *p, const size_t *entry_of, size_t n,
		       const page_index_entry *e, sbuf *out)
{
	table_row *order = xcalloc(n + 1, sizeof(*order));
	size_t i;
	char *model = word(w, PT_CHART_TABLE_MODEL), *date = word(w, PT_LABEL_PUBLISHED);
	char *value = word(w, k->column);
	sbuf cell;

	for (i = 0; i < n; i++) {
		order[i].x = p[i].x;
		order[i].name = p[i].label ? p[i].label : "";
		order[i].point = i;
	}
	qsort(order, n, sizeof(*order), table_row_cmp);
	sbuf_init(&cell);
	sbuf_addf(out, "<h2 id=\"%s\">", k->anchor);
	xml_text(out, c->title);
	sbuf_adds(out, "</h2>\n<div class=\"chart-data\"><table>\n<caption>");
	xml_text(out, c->desc);
	sbuf_adds(out, "</caption>\n<thead><tr><th scope=\"col\">");
	xml_text(out, model);
	sbuf_adds(out, "</th><th scope=\"col\">");
	xml_text(out, date);
	sbuf_adds(out, "</th><th scope=\"col\">");
	xml_text(out, value);
	sbuf_adds(out, "</th></tr></thead>\n<tbody>\n");
	for (i = 0; i < n; i++) {
		const chart_point *pt = &p[order[i].point];

		sbuf_adds(out, "<tr><th scope=\"row\">");
		xml_text(out, pt->label);
		sbuf_adds(out, "</th><td>");
		sbuf_reset(&cell);
		date_words(w, e[entry_of[order[i].point]].published, 0, &cell);
		xml_text(out, cell.data);
		sbuf_adds(out, "</td><td>");
		sbuf_reset(&cell);
		k->format(format_lang_of(w->texts->lang), pt->y, &cell);
		xml_text(out, cell.data);
		sbuf_adds(out, "</td></tr>\n");
	}
	sbuf_adds(out, "</tbody>\n</table></div>\n");
	sbuf_release(&cell);
	free(order);
	free(model);
	free(date);
	free(value);
}

void chart_figure_open(const chart *c, int level, const char *src, const sbuf *svg, sbuf *out)
{
	sbuf_addf(out, "<div class=\"chart\">\n<h%d>", level);
	xml_text(out, c->title);
	sbuf_addf(out, "</h%d>\n<p class=\"chart-desc\">", level);
	xml_text(out, c->desc);
	sbuf_adds(out, "</p>\n<div class=\"chart-frame\"><img src=\"");
	if (src) {
		xml_text(out, src);
	} else {
		sbuf_adds(out, "data:image/svg+xml;base64,");
		textout_base64(out, svg->data, svg->len);
	}
	sbuf_adds(out, "\" alt=\"");
	xml_text(out, c->title);
	sbuf_addf(out, "\" width=\"%d\" height=\"%d\"></div>\n", c->width, c->height);
}

/* The index's figure of one chart: heading, description, the picture
 * (its file), a link to its data table; the table into tables. */
static void index_figure(const words *w, const chart_kind *k, const chart *c,
			 const chart_point *p, const size_t *entry_of, size_t n,
			 const page_index_entry *e, sbuf *html, sbuf *tables)
{
	char *more = word(w, PT_CHART_DATA_LINK);

	chart_figure_open(c, 2, k->file, NULL, html);
	sbuf_addf(html, "<p class=\"chart-more\"><a href=\"%s.html#%s\">", CHART_DATA_PAGE,
		  k->anchor);
	xml_text(html, more);
	sbuf_adds(html, "</a></p>\n</div>\n");
	data_table(w, k, c, p, entry_of, n, e, tables);
	free(more);
}

int chart_catalogue_index(const chart_catalogue *cc, const page_texts *texts,
			  const page_texts *english, sbuf *compute_svg,
			  sbuf *parameters_svg, sbuf *html, sbuf *tables, mc_err *err)
{
	words w = { texts, english, err };
	chart compute, parameters;
	int rc = -1;

	chart_init(&compute);
	chart_init(&parameters);
	if (chart_words(&w, &compute_kind, cc->ncompute, cc->compute_years, &cc->compute_x,
			&cc->compute_y, &compute) ||
	    chart_words(&w, &parameters_kind, cc->nparameters, cc->parameters_years,
			&cc->parameters_x, &cc->parameters_y, &parameters))
		goto out;
	chart_scatter_svg(&compute, cc->compute, cc->ncompute, compute_svg);
	chart_scatter_svg(&parameters, cc->parameters, cc->nparameters, parameters_svg);
	if (cc->ncompute)
		index_figure(&w, &compute_kind, &compute, cc->compute, cc->compute_entry,
			     cc->ncompute, cc->entries, html, tables);
	if (cc->nparameters)
		index_figure(&w, &parameters_kind, &parameters, cc->parameters,
			     cc->parameters_entry, cc->nparameters, cc->entries, html, tables);
	rc = 0;
out:
	chart_words_release(&compute);
	chart_words_release(&parameters);
	return rc;
}

/* The sentence under a model's chart: where it sits, or that it is not
 * on the chart. 0, or -1. */
static int model_sentence(const words *w, const page_index_entry *m, int placed, sbuf *out)
{
	const char *pairs[7];
	sbuf month, compute;
	int rc;

	sbuf_init(&month);
	sbuf_init(&compute);
	if (placed) {
		date_words(w, m->published, 1, &month);
		flop_words(format_lang_of(w->texts->lang), m->compute, &compute);
	}
	pairs[0] = "name";
	pairs[1] = m->name;
	pairs[2] = "month";
	pairs[3] = month.data ? month.data : "";
	pairs[4] = "compute";
	pairs[5] = compute.data ? compute.data : "";
	pairs[6] = NULL;
	rc = expand(w, placed ? PT_CHART_MODEL_ON : PT_CHART_MODEL_OFF, pairs, out);
	sbuf_release(&month);
	sbuf_release(&compute);
	return rc < 0 ? -1 : 0;
}

int chart_catalogue_model(const chart_catalogue *cc, const page_index_entry *m,
			  const page_texts *texts, const page_texts *english,
			  sbuf *html, mc_err *err)
{
	words w = { texts, english, err };
	chart c;
	double year, px = 0, py = 0;
	int placed, rc = -1;
	sbuf sentence;

	if (!cc->ncompute)
		return 0;
	chart_init(&c);
	sbuf_init(&sentence);
	if (chart_words(&w, &compute_kind, cc->ncompute, cc->compute_years, &cc->compute_x,
			&cc->compute_y, &c))
		goto out;
	placed = !chart_decimal_year(m->published, &year) &&
		 !chart_place(&c, year, m->compute, &px, &py);
	if (model_sentence(&w, m, placed, &sentence))
		goto out;
	sbuf_adds(html, "<div class=\"chart\">\n<h4>");
	xml_text(html, c.title);
	sbuf_addf(html, "</h4>\n<div class=\"chart-frame\"><img src=\"%s\" alt=\"",
		  CHART_COMPUTE_FILE);
	xml_text(html, c.title);
	sbuf_addf(html, "\" width=\"%d\" height=\"%d\" loading=\"lazy\">", c.width, c.height);
	if (placed)
		sbuf_addf(html, "<span class=\"chart-mark\" style=\"left:%.2f%%;top:%.2f%%\"></span>",
			  px * 100 / c.width, py * 100 / c.height);
	sbuf_adds(html, "</div>\n<p class=\"chart-note\">");
	xml_text(html, sentence.data);
	sbuf_adds(html, "</p>\n</div>\n");
	rc = 0;
out:
	chart_words_release(&c);
	sbuf_release(&sentence);
	return rc;
}
