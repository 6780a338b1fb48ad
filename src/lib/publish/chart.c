#include "publish/chart.h"
#include "publish/page.h"
#include "values/format.h"
#include "publish/template.h"
#include "values/normalise.h"
#include "base/textout.h"
#include "base/text.h"
#include "publish/chartscript.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The plot area's margins, in SVG units: room for the tick labels and
 * the axis titles. */
enum { MARGIN_LEFT = 74, MARGIN_RIGHT = 24, MARGIN_TOP = 14, MARGIN_BOTTOM = 58 };

/* The height of every text, in SVG units. A chart shown 368 px wide (a
 * page 400 px wide less its margins) has its text 16 * 368 / 480 = 12.3
 * px high. */
enum { FONT = 16 };

/* A mark's radius, in SVG units. */
#define MARK_R 3.5

#define MAX_TICKS 64

static const char mark_colour[] = "#0b57d0";
static const char highlight_colour[] = "#d93025";

void chart_init(chart *c)
{
	memset(c, 0, sizeof(*c));
	c->x.max = c->y.max = 1;
	c->x.step = c->y.step = 0.25;
	c->width = 480;
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
		if ((hi - lo) / steps[i] <= 40)
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
	static const int steps[] = { 1, 2, 4, 5, 10, 20, 25, 50 };
	double lo = floor(min), hi = floor(max) + 1;
	size_t i;

	a->scale = CHART_LINEAR;
	a->ticks = CHART_TICKS_YEAR;
	for (i = 0; i + 1 < sizeof(steps) / sizeof(steps[0]); i++)
		if (ceil(hi / steps[i]) - floor(lo / steps[i]) <= 8)
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

void chart_fit_height(chart *c)
{
	double lo, hi, need;

	if (c->y.scale != CHART_LOG10 || axis_units(&c->y, c->y.min, &lo) ||
	    axis_units(&c->y, c->y.max, &hi) || !(c->y.step > 0))
		return;
	need = MARGIN_TOP + MARGIN_BOTTOM + ceil((hi - lo) / c->y.step - 1e-9) * (FONT + 3);
	if (need > c->height)
		c->height = (int)need;
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
		  "chart-desc\" font-family=\"system-ui,sans-serif\" font-size=\"%d\">\n"
		  "<title id=\"chart-title\">", c->width, c->height, c->width, c->height, FONT);
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
			  c->height - MARGIN_BOTTOM + 4 + FONT + 2, label.data);
	}
	if (c->x.label) {
		sbuf_addf(out, "<text class=\"label\" x=\"%.1f\" y=\"%d\" font-weight=\"600\">",
			  plot_x(c, 0.5), c->height - 8);
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
		sbuf_addf(out, "<text class=\"label\" transform=\"translate(%d %.1f) rotate(-90)\" "
			  "text-anchor=\"middle\" font-weight=\"600\">", FONT, plot_y(c, 0.5));
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

/* The marks' colours and shapes, group by group (chart.h): colours
 * that people with the common colour blindnesses tell apart, and a shape
 * each, filled or hollow, for grey. */
static const struct {
	const char *colour;
	enum { DOT, SQUARE, UP, DIAMOND, DOWN, RING, BOX, PLUS, SMALL } shape;
} marks[CHART_GROUPS] = {
	{ "#0b57d0", DOT }, { "#d55e00", SQUARE }, { "#009e73", UP }, { "#cc79a7", DIAMOND },
	{ "#b07800", DOWN }, { "#0072b2", RING }, { "#333333", BOX }, { "#8c564b", PLUS },
	{ "#8a8a8a", SMALL },
};

void chart_mark(int g, double x, double y, sbuf *attrs, sbuf *d)
{
	const double r = MARK_R, t = r * 0.45;

	if (g < 0 || g >= CHART_GROUPS)
		g = CHART_GROUPS - 1;
	if (attrs) {
		if (marks[g].shape == RING || marks[g].shape == BOX)
			sbuf_addf(attrs, "fill=\"none\" stroke=\"%s\" stroke-width=\"1.6\"",
				  marks[g].colour);
		else
			sbuf_addf(attrs, "fill=\"%s\" fill-opacity=\"%s\"", marks[g].colour,
				  marks[g].shape == SMALL ? "0.6" : "0.75");
	}
	if (!d)
		return;
	switch (marks[g].shape) {
	case DOT:
	case RING:
		sbuf_addf(d, "M%.1f %.1fa%.1f %.1f 0 1 0 %.1f 0a%.1f %.1f 0 1 0-%.1f 0", x - r, y, r,
			  r, 2 * r, r, r, 2 * r);
		break;
	case SMALL:
		sbuf_addf(d, "M%.1f %.1fa2 2 0 1 0 4 0a2 2 0 1 0-4 0", x - 2, y);
		break;
	case SQUARE:
	case BOX:
		sbuf_addf(d, "M%.1f %.1fh%.1fv%.1fh-%.1fz", x - r * 0.9, y - r * 0.9, 1.8 * r,
			  1.8 * r, 1.8 * r);
		break;
	case UP:
		sbuf_addf(d, "M%.1f %.1fl%.1f %.1fh-%.1fz", x, y - 1.2 * r, 1.15 * r, 2 * r,
			  2.3 * r);
		break;
	case DOWN:
		sbuf_addf(d, "M%.1f %.1fl%.1f -%.1fh-%.1fz", x, y + 1.2 * r, 1.15 * r, 2 * r,
			  2.3 * r);
		break;
	case DIAMOND:
		sbuf_addf(d, "M%.1f %.1fl%.1f %.1fl-%.1f %.1fl-%.1f -%.1fz", x, y - 1.3 * r, 1.3 * r,
			  1.3 * r, 1.3 * r, 1.3 * r, 1.3 * r, 1.3 * r);
		break;
	case PLUS:
		sbuf_addf(d, "M%.1f %.1fh%.1fv%.1fh%.1fv%.1fh-%.1fv%.1fh-%.1fv-%.1fh-%.1fv-%.1fz",
			  x - t, y - r, 2 * t, r - t, r - t, 2 * t, r - t, r - t, 2 * t, r - t,
			  r - t, 2 * t);
		break;
	}
}

void chart_geometry(const chart *c, sbuf *out)
{
	double x0 = 0, x1 = 1, y0 = 0, y1 = 1;

	axis_units(&c->x, c->x.min, &x0);
	axis_units(&c->x, c->x.max, &x1);
	axis_units(&c->y, c->y.min, &y0);
	axis_units(&c->y, c->y.max, &y1);
	sbuf_addf(out, "%.6g %.6g %.6g %.6g %d %d %d %d %d %d %d", x0, x1, y0, y1, MARGIN_LEFT,
		  MARGIN_TOP, c->width - MARGIN_RIGHT, c->height - MARGIN_BOTTOM, c->width,
		  c->height, c->y.scale == CHART_LOG10);
}

/* A landmark's label: a box in SVG units, to keep labels apart. */
typedef struct label_box {
	double x0, y0, x1, y1;
} label_box;

/* The labels of the landmarks among p (n), beside their marks, each
 * where it overlaps no label before it and stays inside the chart. */
static void landmark_labels(const chart *c, const chart_point *p, size_t n, sbuf *out)
{
	label_box boxes[16];
	size_t i, k, nboxes = 0;
	int opened = 0;

	for (i = 0; i < n && nboxes < sizeof(boxes) / sizeof(boxes[0]); i++) {
		double px, py, w;
		label_box b;
		int left, clear = 1;

		if (!p[i].landmark || !p[i].label || chart_place(c, p[i].x, p[i].y, &px, &py))
			continue;
		/* wide glyphs: a generous guess of the label's width */
		w = 0.6 * FONT * (double)mc_utf8_chars(p[i].label, strlen(p[i].label));
		left = px + 8 + w > c->width - MARGIN_RIGHT;
		b.x0 = left ? px - 8 - w : px + 8;
		b.x1 = b.x0 + w;
		b.y0 = py - 6 - FONT;
		b.y1 = py - 2;
		if (b.x0 < MARGIN_LEFT || b.y0 < 0)
			continue;
		for (k = 0; k < nboxes; k++)
			if (b.x0 < boxes[k].x1 && boxes[k].x0 < b.x1 && b.y0 < boxes[k].y1 &&
			    boxes[k].y0 < b.y1)
				clear = 0;
		if (!clear)
			continue;
		boxes[nboxes++] = b;
		if (!opened++)
			sbuf_adds(out, "<g class=\"landmarks\" fill=\"#222\" stroke=\"#fff\" "
				  "stroke-width=\"3\" paint-order=\"stroke\">\n");
		sbuf_addf(out, "<text x=\"%.1f\" y=\"%.1f\"%s>", left ? px - 8 : px + 8, py - 6,
			  left ? " text-anchor=\"end\"" : "");
		xml_text(out, p[i].label);
		sbuf_adds(out, "</text>\n");
	}
	if (opened)
		sbuf_adds(out, "</g>\n");
}

/* The marks of group g among p (n) as one path: their number. */
static size_t group_path(const chart *c, const chart_point *p, size_t n, int g, sbuf *out)
{
	size_t i, drawn = 0;

	for (i = 0; i < n; i++) {
		double px, py;
		int pg = p[i].group < 0 || p[i].group >= CHART_GROUPS ? CHART_GROUPS - 1 : p[i].group;

		if (pg != g || chart_place(c, p[i].x, p[i].y, &px, &py))
			continue;
		if (!drawn++) {
			sbuf_adds(out, "<path ");
			chart_mark(g, 0, 0, out, NULL);
			sbuf_adds(out, " d=\"");
		} else {
			sbuf_addc(out, '\n');
		}
		chart_mark(g, px, py, NULL, out);
	}
	if (drawn)
		sbuf_adds(out, "\"/>\n");
	return drawn;
}

size_t chart_scatter_svg(const chart *c, const chart_point *points, size_t n, sbuf *out)
{
	size_t i, drawn = 0, rings = 0;
	int g;

	svg_open(c, out);
	svg_x_axis(c, out);
	svg_y_axis(c, out);
	svg_frame(c, out);
	/* every mark of a group a subpath of one path: an element per mark
	 * made the index's two charts cost its page a tenth of a second of
	 * layout on every load. Where marks overlap, the overlap is not
	 * darker. */
	sbuf_adds(out, "<g class=\"marks\">\n");
	for (g = 0; g < CHART_GROUPS; g++)
		drawn += group_path(c, points, n, g, out);
	for (i = 0; i < n; i++) {
		double px, py, r = MARK_R + 2.5;

		if (!points[i].stand_out || chart_place(c, points[i].x, points[i].y, &px, &py))
			continue;
		sbuf_adds(out, rings++ ? "\n" : "<path class=\"stand-out\" fill=\"none\" "
			  "stroke=\"#222\" stroke-width=\"1.1\" stroke-opacity=\"0.8\" d=\"");
		sbuf_addf(out, "M%.1f %.1fa%.1f %.1f 0 1 0 %.1f 0a%.1f %.1f 0 1 0-%.1f 0", px - r, py,
			  r, r, 2 * r, r, r, 2 * r);
	}
	if (rings)
		sbuf_adds(out, "\"/>\n");
	sbuf_adds(out, "</g>\n");
	landmark_labels(c, points, n, out);
	sbuf_adds(out, "</svg>\n");
	return drawn;
}

/* Bars: where their labels start, in SVG units. */
enum { BAR_LABEL_X = 8 };

/* The width of label s at the chart's font size (12), estimated: 7 units
 * a character. */
static double label_width(const char *s)
{
	return 7.0 * (double)mc_utf8_chars(s, strlen(s));
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

/* Models labelled on the charts where they are points of them (and
 * their labels have room): turns in the history of the field that a
 * reader looks for first. */
static const char *const landmarks[] = {
	"Theseus", "Perceptron Mark I", "LeNet-5", "AlexNet", "Transformer", "AlphaGo Zero",
	"GPT-3 175B (davinci)", "GPT-4", "Grok 4",
};

static int is_landmark(const char *name)
{
	size_t i;

	for (i = 0; name && i < sizeof(landmarks) / sizeof(landmarks[0]); i++)
		if (!strcmp(name, landmarks[i]))
			return 1;
	return 0;
}

/* The points (decimal year, value) of the entries with both; *count
 * their number, (*entry_of)[i] point i's entry. The point's label is the
 * entry's name; its group is group_of[entry]. */
static chart_point *points_of(const page_index_entry *e, size_t n, int compute,
			      const int *group_of, size_t *count, size_t **entry_of)
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
		p[*count].group = group_of[i];
		p[*count].stand_out = e[i].frontier;
		p[*count].landmark = is_landmark(e[i].name);
		(*entry_of)[*count] = i;
		(*count)++;
	}
	return p;
}

static int double_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Axes x and y holding every point of p whose x is from on. */
static void axes_from(const chart_point *p, size_t n, double from, chart_axis *x, chart_axis *y)
{
	double x0 = 0, x1 = 0, y0 = 0, y1 = 0;
	size_t i, k = 0;

	for (i = 0; i < n; i++) {
		if (p[i].x < from)
			continue;
		x0 = k ? fmin(x0, p[i].x) : p[i].x;
		x1 = k ? fmax(x1, p[i].x) : p[i].x;
		y0 = k ? fmin(y0, p[i].y) : p[i].y;
		y1 = k ? fmax(y1, p[i].y) : p[i].y;
		k++;
	}
	if (!k)
		return;
	chart_axis_years(x, x0, x1);
	chart_axis_log(y, y0, y1);
}

/* The axes over every point of p (all_x, all_y: the log axis's ends on
 * multiples of 5 decades) and over the latest 95 % of them, from the
 * start of the year of the point that begins them (x, y). */
static void axes_of(const chart_point *p, size_t n, chart_axis *x, chart_axis *y,
		    chart_axis *all_x, chart_axis *all_y)
{
	double *xs;
	size_t i;

	if (!n)
		return;
	xs = xcalloc(n, sizeof(*xs));
	for (i = 0; i < n; i++)
		xs[i] = p[i].x;
	qsort(xs, n, sizeof(*xs), double_cmp);
	axes_from(p, n, -INFINITY, all_x, all_y);
	/* the span over every point is what model pages place their marks
	 * on: its ends on multiples of 5 decades move seldom, so a page
	 * changes with its own values, not whenever the catalogue's largest
	 * or smallest value crosses a power of ten */
	if (all_y->scale == CHART_LOG10 && all_y->min > 0 && all_y->max > 0) {
		all_y->min = pow(10, floor(log10(all_y->min) / 5 + 1e-9) * 5);
		all_y->max = pow(10, ceil(log10(all_y->max) / 5 - 1e-9) * 5);
	}
	axes_from(p, n, floor(xs[n / 20]), x, y);
	free(xs);
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

/* ---- the groups of the marks: domains ---- */

/* A domain and how many entries on a chart have it. */
typedef struct domain_count {
	char *name;                  /* as stored; NULL: several domains */
	size_t n;
} domain_count;

static int domain_count_cmp(const void *a, const void *b)
{
	const domain_count *x = a, *y = b;

	if (x->n != y->n)
		return x->n > y->n ? -1 : 1;
	if (!x->name || !y->name)
		return !x->name - !y->name;
	return strcmp(x->name, y->name);
}

/* Entry e's domain for its mark: its one domain as stored (a new string),
 * NULL with *several set when it has several, NULL when none. */
static char *domain_of(const page_index_entry *e, int *several)
{
	const char *d = e->domain;

	*several = 0;
	if (!d || !*d)
		return NULL;
	if (strchr(d, ',')) {
		*several = 1;
		return NULL;
	}
	return xstrdup(d);
}

/* The groups: the CHART_GROUPS - 1 domains (or "several") most entries on
 * a chart have, by count then name, each its group; the rest the last.
 * group_of[i] entry i's group. */
static void groups_of(chart_catalogue *cc, const page_index_entry *e, size_t n, int *group_of)
{
	domain_count *counts = xcalloc(n + 2, sizeof(*counts));
	char **names = xcalloc(n + 1, sizeof(*names));
	int *is_several = xcalloc(n + 1, sizeof(*is_several));
	size_t i, k, ncounts = 0;

	cc->several = -1;
	for (i = 0; i < n; i++) {
		group_of[i] = CHART_GROUPS - 1;
		names[i] = domain_of(&e[i], &is_several[i]);
		if (!names[i] && !is_several[i])
			continue;
		for (k = 0; k < ncounts; k++)
			if (is_several[i] ? !counts[k].name
					  : counts[k].name && !strcmp(counts[k].name, names[i]))
				break;
		if (k == ncounts)
			counts[ncounts++].name = names[i] ? xstrdup(names[i]) : NULL;
		counts[k].n++;
	}
	qsort(counts, ncounts, sizeof(*counts), domain_count_cmp);
	for (k = 0; k < ncounts && k < CHART_GROUPS - 1; k++) {
		cc->groups[k] = counts[k].name;
		counts[k].name = NULL;
		if (!cc->groups[k])
			cc->several = (int)k;
	}
	for (i = 0; i < n; i++)
		for (k = 0; k < CHART_GROUPS - 1; k++)
			if ((is_several[i] && (int)k == cc->several) ||
			    (names[i] && cc->groups[k] && !strcmp(cc->groups[k], names[i])))
				group_of[i] = (int)k;
	for (i = 0; i < n; i++)
		free(names[i]);
	for (k = 0; k < ncounts; k++)
		free(counts[k].name);
	free(counts);
	free(names);
	free(is_several);
}

void chart_catalogue_init(chart_catalogue *cc, const page_index_entry *e, size_t n)
{
	chart blank;
	int *group_of = xcalloc(n + 1, sizeof(*group_of));

	memset(cc, 0, sizeof(*cc));
	chart_init(&blank);
	cc->entries = e;
	cc->n = n;
	cc->compute_x = cc->compute_y = cc->parameters_x = cc->parameters_y = blank.x;
	cc->compute_all_x = cc->compute_all_y = cc->parameters_all_x = blank.x;
	cc->parameters_all_y = blank.x;
	groups_of(cc, e, n, group_of);
	cc->compute = points_of(e, n, 1, group_of, &cc->ncompute, &cc->compute_entry);
	cc->parameters = points_of(e, n, 0, group_of, &cc->nparameters, &cc->parameters_entry);
	axes_of(cc->compute, cc->ncompute, &cc->compute_x, &cc->compute_y, &cc->compute_all_x,
		&cc->compute_all_y);
	axes_of(cc->parameters, cc->nparameters, &cc->parameters_x, &cc->parameters_y,
		&cc->parameters_all_x, &cc->parameters_all_y);
	years_of(cc->compute, cc->ncompute, cc->compute_years);
	years_of(cc->parameters, cc->nparameters, cc->parameters_years);
	free(group_of);
}

void chart_catalogue_release(chart_catalogue *cc)
{
	int g;

	if (!cc)
		return;
	free(cc->compute);
	free(cc->parameters);
	free(cc->compute_entry);
	free(cc->parameters_entry);
	for (g = 0; g < CHART_GROUPS; g++)
		free(cc->groups[g]);
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
	return page_text_string(w->texts, w->english, id, NULL);
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
	int k;                       /* 0 compute, 1 parameters (chart_file_names) */
	page_text_id title, desc, axis, trend; /* its texts */
	page_text_id column;         /* the value's column in the data table */
	const char *anchor;          /* its table's id on the data page */
	void (*format)(const format_lang *, double, sbuf *); /* a value as the pages write it */
} chart_kind;

static const chart_kind compute_kind = {
	0, PT_CHART_COMPUTE_TITLE, PT_CHART_COMPUTE_DESC, PT_CHART_AXIS_COMPUTE,
	PT_CHART_COMPUTE_TREND, PT_LABEL_TRAINING_COMPUTE, "compute", flop_words,
};
static const chart_kind parameters_kind = {
	1, PT_CHART_PARAMETERS_TITLE, PT_CHART_PARAMETERS_DESC, PT_CHART_AXIS_PARAMETERS,
	PT_CHART_PARAMETERS_TREND, PT_LABEL_PARAMETERS, "parameters", format_count,
};

/* The chart c of kind k over n points whose x run over years[0..1], its
 * words set: title, desc and axis titles are new strings
 * (chart_texts_release). 0 or -1. */
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
	chart_fit_height(c);
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

void chart_texts_release(chart *c)
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

/* The points p (n) in the order of their tables: by date, then name. A
 * new array of their indexes. */
static size_t *table_order(const chart_point *p, size_t n)
{
	table_row *rows = xcalloc(n + 1, sizeof(*rows));
	size_t *order = xcalloc(n + 1, sizeof(*order)), i;

	for (i = 0; i < n; i++) {
		rows[i].x = p[i].x;
		rows[i].name = p[i].label ? p[i].label : "";
		rows[i].point = i;
	}
	qsort(rows, n, sizeof(*rows), table_row_cmp);
	for (i = 0; i < n; i++)
		order[i] = rows[i].point;
	free(rows);
	return order;
}

/* The data of points p (n; point i is entry entry_of[i] of e) as a table,
 * by date: model, date as the pages write it, value; its heading's id is
 * k's anchor. */
static void data_table(const words *w, const chart_kind *k, const chart *c,
		       const chart_point *p, const size_t *entry_of, size_t n,
		       const page_index_entry *e, sbuf *out)
{
	size_t *order = table_order(p, n), i;
	char *model = word(w, PT_CHART_TABLE_MODEL), *date = word(w, PT_LABEL_PUBLISHED);
	char *value = word(w, k->column);
	sbuf cell;

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
		const chart_point *pt = &p[order[i]];

		sbuf_adds(out, "<tr><th scope=\"row\">");
		xml_text(out, pt->label);
		sbuf_adds(out, "</th><td>");
		sbuf_reset(&cell);
		date_words(w, e[entry_of[order[i]]].published, 0, &cell);
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

/* ---- the index's figures ---- */

void chart_file_names(int k, const char *names[4])
{
	static const char *const files[2][4] = {
		{ CHART_COMPUTE_FILE, CHART_COMPUTE_ALL_FILE, "index.compute.csv",
		  "index.compute.js" },
		{ CHART_PARAMETERS_FILE, "index.parameters.all.svg", "index.parameters.csv",
		  "index.parameters.js" },
	};

	memcpy(names, files[k ? 1 : 0], sizeof(files[0]));
}

/* One chart of the catalogue: its kind, points and axes. */
typedef struct series {
	const chart_kind *kind;
	const chart_point *p;        /* its points */
	size_t n;
	const size_t *entry;         /* p[i] is entries[entry[i]] */
	const chart_axis *x, *y;     /* over the latest 95 % */
	const chart_axis *all_x, *all_y; /* over every point */
	const double *years;         /* the first and last x */
} series;

static void series_of(const chart_catalogue *cc, int k, series *s)
{
	if (!k) {
		*s = (series){ &compute_kind, cc->compute, cc->ncompute, cc->compute_entry,
			       &cc->compute_x, &cc->compute_y, &cc->compute_all_x,
			       &cc->compute_all_y, cc->compute_years };
	} else {
		*s = (series){ &parameters_kind, cc->parameters, cc->nparameters,
			       cc->parameters_entry, &cc->parameters_x, &cc->parameters_y,
			       &cc->parameters_all_x, &cc->parameters_all_y,
			       cc->parameters_years };
	}
}

/* The chart's data as CSV, in the order of its table: the source's own
 * columns, the values as the catalogue holds them (a number as its
 * stored text: norm_number_format), and the model's page. */
static void points_csv(const series *s, const page_index_entry *e, sbuf *out)
{
	size_t *order = table_order(s->p, s->n), i;

	sbuf_addf(out, "Model,Publication date,%s,Domain,Frontier model,Page\n",
		  s->kind->k ? "Parameters" : "Training compute (FLOP)");
	for (i = 0; i < s->n; i++) {
		const page_index_entry *m = &e[s->entry[order[i]]];
		const char *d = m->domain ? m->domain : "";

		textout_csv_field(out, m->name, strlen(m->name));
		sbuf_addc(out, ',');
		textout_csv_field(out, m->published, strlen(m->published));
		sbuf_addc(out, ',');
		norm_number_format(s->p[order[i]].y, out);
		sbuf_addc(out, ',');
		textout_csv_field(out, d, strlen(d));
		sbuf_addf(out, ",%s,", m->frontier ? "True" : "");
		textout_csv_field(out, m->file, strlen(m->file));
		sbuf_addc(out, '\n');
	}
	free(order);
}

/* The chart's points for the index's script (chartscript.c): the file
 * calls modelcatPoints(its name, [[x, y, name, page, date, value], ...])
 * in the order of the table, the date and value as the pages write
 * them. */
static void points_js(const words *w, const series *s, const page_index_entry *e,
		      const char *file, sbuf *out)
{
	size_t *order = table_order(s->p, s->n), i;
	sbuf cell;

	sbuf_init(&cell);
	sbuf_adds(out, "modelcatPoints(");
	textout_json_string(out, file, strlen(file));
	sbuf_adds(out, ", [");
	for (i = 0; i < s->n; i++) {
		const chart_point *pt = &s->p[order[i]];
		const page_index_entry *m = &e[s->entry[order[i]]];

		sbuf_addf(out, "%s\n[%.4f,%.6g,", i ? "," : "", pt->x, pt->y);
		textout_json_string(out, m->name, strlen(m->name));
		sbuf_addc(out, ',');
		textout_json_string(out, m->file, strlen(m->file));
		sbuf_addc(out, ',');
		sbuf_reset(&cell);
		date_words(w, m->published, 0, &cell);
		textout_json_string(out, cell.data, cell.len);
		sbuf_addc(out, ',');
		sbuf_reset(&cell);
		s->kind->format(format_lang_of(w->texts->lang), pt->y, &cell);
		textout_json_string(out, cell.data, cell.len);
		sbuf_addc(out, ']');
	}
	sbuf_adds(out, "\n]);\n");
	sbuf_release(&cell);
	free(order);
}

/* How many times a year the largest value of each year grew from the
 * year `from` on: 10 to the slope of a least-squares line through the
 * log10 of each year's largest value (years with points only); 0 when
 * fewer than two years have points. */
static double yearly_growth(const series *s, double from)
{
	double sx = 0, sy = 0, sxx = 0, sxy = 0, k = 0, year, top = 0, n = 0;
	size_t i;

	for (year = floor(from); year <= floor(s->years[1]); year++) {
		int any = 0;

		for (i = 0; i < s->n; i++)
			if (floor(s->p[i].x) == year && (!any++ || s->p[i].y > top))
				top = s->p[i].y;
		if (!any)
			continue;
		sx += year;
		sy += log10(top);
		sxx += year * year;
		sxy += year * log10(top);
		n++;
	}
	k = n * sxx - sx * sx;
	return n < 2 || !(k > 0) ? 0 : pow(10, (n * sxy - sx * sy) / k);
}

/* The sentences under the description: where the chart starts, how the
 * largest value of each year grew, and the largest so far. 0, or -1. */
static int trend_words(const words *w, const series *s, const page_index_entry *e, sbuf *out)
{
	const format_lang *l = format_lang_of(w->texts->lang);
	const char *pairs[13];
	char start[16], to[16];
	size_t i, top = 0;
	sbuf factor, value, month;
	int rc;

	for (i = 1; i < s->n; i++)
		if (s->p[i].y > s->p[top].y)
			top = i;
	sbuf_init(&factor);
	sbuf_init(&value);
	sbuf_init(&month);
	format_decimal(l, yearly_growth(s, s->x->min), 1, 1, &factor);
	s->kind->format(l, s->p[top].y, &value);
	date_words(w, e[s->entry[top]].published, 1, &month);
	mc_fmt(start, sizeof(start), "%d", (int)floor(s->x->min));
	mc_fmt(to, sizeof(to), "%d", (int)floor(s->years[1]));
	pairs[0] = "start";
	pairs[1] = start;
	pairs[2] = "to";
	pairs[3] = to;
	pairs[4] = "factor";
	pairs[5] = factor.data;
	pairs[6] = "name";
	pairs[7] = s->p[top].label;
	pairs[8] = "value";
	pairs[9] = value.data;
	pairs[10] = "month";
	pairs[11] = month.data;
	pairs[12] = NULL;
	rc = expand(w, s->kind->trend, pairs, out);
	sbuf_release(&factor);
	sbuf_release(&value);
	sbuf_release(&month);
	return rc < 0 ? -1 : 0;
}

/* A legend's item: the mark (a small SVG as the background of an empty
 * span, so that the page holds no element HTML 4 lacks; g -1 the ring of a
 * point that stands out), its words and count. */
static void legend_item(const words *w, int g, const char *name, size_t count, sbuf *out)
{
	char n[32];
	sbuf num, svg;

	sbuf_init(&svg);
	sbuf_adds(&svg, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"14\" height=\"14\" "
		  "viewBox=\"-7 -7 14 14\"><path ");
	if (g < 0)
		sbuf_adds(&svg, "fill=\"none\" stroke=\"#222\" stroke-width=\"1.4\" "
			  "d=\"M-6 0a6 6 0 1 0 12 0a6 6 0 1 0-12 0\"");
	else {
		chart_mark(g, 0, 0, &svg, NULL);
		sbuf_adds(&svg, " d=\"");
		chart_mark(g, 0, 0, NULL, &svg);
		sbuf_adds(&svg, "\"");
	}
	sbuf_adds(&svg, "/></svg>");
	sbuf_adds(out, "<li><span class=\"chart-key\" style=\"background-image:url(data:image/svg+xml;base64,");
	textout_base64(out, svg.data, svg.len);
	sbuf_adds(out, ")\"></span>");
	xml_text(out, name);
	sbuf_init(&num);
	format_number(format_lang_of(w->texts->lang), (double)count, &num);
	mc_fmt(n, sizeof(n), " (%s)</li>\n", num.data);
	sbuf_adds(out, n);
	sbuf_release(&num);
	sbuf_release(&svg);
}

/* The chart's legend: each group with points, its mark, name and count;
 * the ring of the frontier models. */
static void legend_html(const words *w, const chart_catalogue *cc, const series *s, sbuf *out)
{
	size_t counts[CHART_GROUPS] = { 0 }, frontier = 0, i;
	char *label = word(w, PT_CHART_LEGEND);
	int g;

	for (i = 0; i < s->n; i++) {
		g = s->p[i].group < 0 || s->p[i].group >= CHART_GROUPS ? CHART_GROUPS - 1
								       : s->p[i].group;
		counts[g]++;
		frontier += s->p[i].stand_out != 0;
	}
	sbuf_adds(out, "<ul class=\"chart-legend\" aria-label=\"");
	xml_text(out, label);
	sbuf_adds(out, "\">\n");
	for (g = 0; g < CHART_GROUPS; g++) {
		char *name = NULL;

		if (!counts[g])
			continue;
		if (!cc->groups[g] || g == CHART_GROUPS - 1)
			name = word(w, g == cc->several ? PT_CHART_SEVERAL : PT_CHART_OTHER);
		legend_item(w, g, name ? name : cc->groups[g], counts[g], out);
		free(name);
	}
	if (frontier) {
		char *name = word(w, PT_CHART_FRONTIER);

		legend_item(w, -1, name, frontier, out);
		free(name);
	}
	sbuf_adds(out, "</ul>\n");
	free(label);
}

/* A picture of the index (src, c's geometry) in its frame, which the
 * script makes a chart a reader can point at (data-points: the file of
 * its points; data-keys: its name with how to use it). */
static int chart_frame(const words *w, const chart *c, const char *src, const char *points,
		       int lazy, sbuf *out)
{
	const char *pairs[] = { "title", c->title, NULL };
	sbuf keys;
	int rc;

	sbuf_init(&keys);
	rc = expand(w, PT_CHART_KEYS, pairs, &keys);
	sbuf_adds(out, "<div class=\"chart-frame\" data-points=\"");
	xml_text(out, points);
	sbuf_adds(out, "\" data-geometry=\"");
	chart_geometry(c, out);
	sbuf_adds(out, "\" data-keys=\"");
	xml_text(out, keys.data);
	sbuf_adds(out, "\"><img src=\"");
	xml_text(out, src);
	sbuf_adds(out, "\" alt=\"");
	xml_text(out, c->title);
	sbuf_addf(out, "\" width=\"%d\" height=\"%d\"%s></div>\n", c->width, c->height,
		  lazy ? " loading=\"lazy\"" : "");
	sbuf_release(&keys);
	return rc < 0 ? -1 : 0;
}

/* The index's figure of one chart: heading, description and trend, the
 * picture of the latest years with its legend, the picture of every
 * year folded, links to its data; its files into f, its table into
 * tables. 0, or -1. */
static int index_figure(const words *w, const chart_catalogue *cc, const series *s,
			chart *c, chart_files *f, sbuf *html, sbuf *tables)
{
	const char *names[4], *pairs[5];
	char from[16], to[16], *more = word(w, PT_CHART_DATA_LINK), *csv = word(w, PT_CHART_CSV_LINK);
	const char *xlabel, *ylabel;
	sbuf all_words;
	int rc;

	chart_file_names(s->kind->k, names);
	sbuf_init(&all_words);
	mc_fmt(from, sizeof(from), "%d", (int)floor(s->years[0]));
	mc_fmt(to, sizeof(to), "%d", (int)floor(s->years[1]));
	pairs[0] = "from";
	pairs[1] = from;
	pairs[2] = "to";
	pairs[3] = to;
	pairs[4] = NULL;
	sbuf_addf(html, "<div class=\"chart\">\n<h2>");
	xml_text(html, c->title);
	sbuf_adds(html, "</h2>\n<p class=\"chart-desc\">");
	xml_text(html, c->desc);
	sbuf_adds(html, " ");
	rc = trend_words(w, s, cc->entries, &all_words);
	xml_text(html, all_words.data);
	sbuf_adds(html, "</p>\n");
	rc = rc || chart_frame(w, c, names[0], names[3], 0, html);
	legend_html(w, cc, s, html);
	sbuf_reset(&all_words);
	rc = rc || expand(w, PT_CHART_ALL_YEARS, pairs, &all_words) < 0;
	sbuf_adds(html, "<details class=\"chart-all\"><summary>");
	xml_text(html, all_words.data);
	sbuf_adds(html, "</summary>\n");
	chart_scatter_svg(c, s->p, s->n, &f->svg);
	/* (the axis titles, the chart's own strings, kept) */
	xlabel = c->x.label;
	ylabel = c->y.label;
	c->x = *s->all_x;
	c->y = *s->all_y;
	c->x.label = xlabel;
	c->y.label = ylabel;
	chart_fit_height(c);
	rc = rc || chart_frame(w, c, names[1], names[3], 1, html);
	chart_scatter_svg(c, s->p, s->n, &f->all);
	sbuf_addf(html, "</details>\n<p class=\"chart-more\"><a href=\"%s.html#%s\">",
		  CHART_DATA_PAGE, s->kind->anchor);
	xml_text(html, more);
	sbuf_addf(html, "</a> \xC2\xB7 <a href=\"%s\" download>", names[2]);
	xml_text(html, csv);
	sbuf_adds(html, "</a></p>\n</div>\n");
	c->x = *s->x;
	c->y = *s->y;
	c->x.label = xlabel;
	c->y.label = ylabel;
	data_table(w, s->kind, c, s->p, s->entry, s->n, cc->entries, tables);
	points_csv(s, cc->entries, &f->csv);
	points_js(w, s, cc->entries, names[3], &f->points);
	free(more);
	free(csv);
	sbuf_release(&all_words);
	return rc ? -1 : 0;
}

int chart_catalogue_index(const chart_catalogue *cc, const page_texts *texts,
			  const page_texts *english, chart_files files[2], sbuf *html,
			  sbuf *tables, mc_err *err)
{
	words w = { texts, english, err };
	chart c;
	series s;
	int k, rc = 0, any = 0;

	for (k = 0; k < 2 && !rc; k++) {
		series_of(cc, k, &s);
		chart_init(&c);
		if (chart_words(&w, s.kind, s.n, s.years, s.x, s.y, &c))
			rc = -1;
		else if (s.n) {
			rc = index_figure(&w, cc, &s, &c, &files[k], html, tables);
			any = 1;
		} else {
			chart_scatter_svg(&c, s.p, 0, &files[k].svg);
			chart_scatter_svg(&c, s.p, 0, &files[k].all);
		}
		chart_texts_release(&c);
	}
	if (!rc && any) {
		sbuf_adds(html, "<script>\n");
		sbuf_adds(html, chart_script);
		sbuf_adds(html, "</script>\n");
	}
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
	if (chart_words(&w, &compute_kind, cc->ncompute, cc->compute_years, &cc->compute_all_x,
			&cc->compute_all_y, &c))
		goto out;
	placed = !chart_decimal_year(m->published, &year) &&
		 !chart_place(&c, year, m->compute, &px, &py);
	if (model_sentence(&w, m, placed, &sentence))
		goto out;
	sbuf_adds(html, "<div class=\"chart\">\n<h4>");
	xml_text(html, c.title);
	sbuf_addf(html, "</h4>\n<div class=\"chart-frame\"><img src=\"%s\" alt=\"",
		  CHART_COMPUTE_ALL_FILE);
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
	chart_texts_release(&c);
	sbuf_release(&sentence);
	return rc;
}
