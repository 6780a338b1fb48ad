/*
 * The SVG charts (out/chart.h): positions on linear and log axes; ticks
 * on powers of ten and on years; every string escaped; a point outside
 * the range, NaN or not positive on a log axis is left out; no points
 * still makes a well-formed picture; bars; decimal years of stored dates;
 * the catalogue's charts from index entries (marks, data table, a
 * model's mark and sentence, a model not on the chart); the same input
 * gives the same bytes. Every SVG is parsed as XML.
 */
#include "publish/chart.h"
#include "publish/page.h"
#include "unit.h"

#include <libxml/parser.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int well_formed(const sbuf *s)
{
	xmlDocPtr doc = xmlReadMemory(s->data, (int)s->len, "chart.svg", NULL,
				      XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
	int ok = doc != NULL;

	xmlFreeDoc(doc);
	return ok;
}

/* the arcs that close a mark, one per circle drawn (chart_scatter_svg) */
#define CIRCLE "a3 3 0 1 0 6 0a3 3 0 1 0-6 0"

static size_t count(const char *s, const char *what)
{
	size_t n = 0;

	while ((s = strstr(s, what))) {
		n++;
		s += strlen(what);
	}
	return n;
}

static int near(double a, double b)
{
	return fabs(a - b) < 1e-6;
}

static void scales(void)
{
	chart c;
	double px, py;

	chart_init(&c);
	c.x.min = 0;
	c.x.max = 10;
	c.y.scale = CHART_LOG10;
	c.y.min = 1;
	c.y.max = 1e4;
	/* plot area: x 76..620 (544 wide), y 348..16 (332 high) */
	CHECK(!chart_place(&c, 5, 100, &px, &py) && near(px, 348) && near(py, 182),
	      "the middle of both axes (x linear, y log) is the plot's middle: %g %g", px, py);
	CHECK(!chart_place(&c, 0, 1, &px, &py) && near(px, 76) && near(py, 348),
	      "the minimum of both is the bottom left corner: %g %g", px, py);
	CHECK(!chart_place(&c, 10, 1e4, &px, &py) && near(px, 620) && near(py, 16),
	      "the maximum of both is the top right corner: %g %g", px, py);
	CHECK(!chart_place(&c, 2.5, 10, &px, &py) && near(px, 76 + 544 / 4.0) &&
	      near(py, 348 - 332 / 4.0), "a quarter along each: %g %g", px, py);
	CHECK(chart_place(&c, 11, 10, &px, &py) == -1, "x past its maximum: not placed");
	CHECK(chart_place(&c, 5, 1e5, &px, &py) == -1, "y past its maximum: not placed");
	CHECK(chart_place(&c, 5, 0, &px, &py) == -1, "0 on a log axis: not placed");
	CHECK(chart_place(&c, 5, -3, &px, &py) == -1, "a negative value on a log axis: not placed");
	CHECK(chart_place(&c, NAN, 10, &px, &py) == -1, "NaN: not placed");
	c.x.max = c.x.min;
	CHECK(chart_place(&c, 0, 10, &px, &py) == -1, "an empty range places nothing");
}

static void ticks(void)
{
	chart c;
	sbuf out;

	chart_init(&c);
	chart_axis_log(&c.y, 150, 3e26);
	CHECK(near(c.y.min, 1) && near(c.y.max / 1e30, 1) && near(c.y.step, 5),
	      "log axis over 1.5e2..3e26: 10^0..10^30, a tick every 5 decades (%g %g %g)",
	      c.y.min, c.y.max, c.y.step);
	chart_axis_log(&c.y, 2, 3);
	CHECK(near(c.y.min, 1) && near(c.y.max, 10) && near(c.y.step, 1),
	      "log axis within one decade: 10^0..10^1, every decade");
	chart_axis_years(&c.x, 1950.3, 2025.5);
	CHECK(near(c.x.min, 1950) && near(c.x.max, 2030) && near(c.x.step, 10),
	      "years 1950.3..2025.5: 1950..2030, a tick every 10 years");
	chart_axis_years(&c.x, 1951.3, 2024.5);
	CHECK(near(c.x.min, 1950) && near(c.x.max, 2030),
	      "the ends stay on ticks when the data's ends move a little");
	chart_axis_years(&c.x, 2020.2, 2020.7);
	CHECK(near(c.x.min, 2020) && near(c.x.max, 2021) && near(c.x.step, 1),
	      "within one year: that year, ticks on both ends");
	chart_axis_years(&c.x, 1950.3, 2025.5);
	chart_axis_log(&c.y, 150, 3e26);
	sbuf_init(&out);
	chart_scatter_svg(&c, NULL, 0, &out);
	CHECK(strstr(out.data, ">10\xE2\x81\xB0<") && strstr(out.data, ">10\xC2\xB2\xE2\x81\xB5<") &&
	      strstr(out.data, ">10\xC2\xB3\xE2\x81\xB0<") && !strstr(out.data, ">10\xC2\xB3\xE2\x81\xB5<"),
	      "ticks 10⁰ ... 10³⁰, none past the range");
	CHECK(count(out.data, "<text class=\"tick\"") == 9 + 7,
	      "9 year ticks (1950..2030) and 7 power ticks: %zu",
	      count(out.data, "<text class=\"tick\""));
	CHECK(strstr(out.data, "<text class=\"tick\" x=\"76.0\" y=\"366\">1950</text>") != NULL,
	      "1950 at the left edge");
	CHECK(strstr(out.data, "<text class=\"tick\" x=\"620.0\" y=\"366\">2030</text>") &&
	      !strstr(out.data, ">2040</text>"), "2030 at the right edge, the last year tick");
	sbuf_release(&out);
}

static void escaping(void)
{
	chart c;
	chart_point p = { 0.5, 0.5, "<GPT>" };
	sbuf out;

	chart_init(&c);
	c.title = "Compute <script>alert(1)</script> & co";
	c.desc = "x < y & 'z'";
	c.x.label = "\"date\"";
	c.y.label = "a&b";
	sbuf_init(&out);
	CHECK(chart_scatter_svg(&c, &p, 1, &out) == 1, "one mark");
	CHECK(!strstr(out.data, "<script") && !strstr(out.data, "GPT") &&
	      strstr(out.data, "Compute &lt;script&gt;alert(1)&lt;/script&gt; &amp; co") &&
	      strstr(out.data, ">&quot;date&quot;<") && strstr(out.data, ">a&amp;b<"),
	      "title, description and labels are escaped; a mark's name is not drawn");
	CHECK(well_formed(&out), "the SVG parses as XML");
	CHECK(strstr(out.data, "<title id=\"chart-title\">") && strstr(out.data, "<desc id=\"chart-desc\">") &&
	      strstr(out.data, "role=\"img\""), "it has a title, a description and role img");
	sbuf_release(&out);
}

static void outside(void)
{
	chart c;
	chart_point p[] = {
		{ 0.5, 0.5, NULL }, { 1.5, 0.5, NULL }, { 0.2, -0.1, NULL }, { NAN, 0.5, NULL },
		{ 1, 1, NULL },
	};
	sbuf out;

	chart_init(&c);
	sbuf_init(&out);
	CHECK(chart_scatter_svg(&c, p, 5, &out) == 2, "points outside the range or NaN are left out");
	CHECK(count(out.data, CIRCLE) == 2, "two circles: %zu", count(out.data, CIRCLE));
	/* a circle of radius 3 about (x, y) starts at its left, (x - 3, y) */
	CHECK(strstr(out.data, "<path d=\"M345.0 182.0" CIRCLE "\nM617.0 16.0" CIRCLE "\"/>") != NULL,
	      "about the middle and about the top right corner");
	CHECK(well_formed(&out), "it parses as XML");
	sbuf_release(&out);
}

static void no_points(void)
{
	chart c;
	sbuf out, again;

	chart_init(&c);
	c.title = "Empty";
	sbuf_init(&out);
	sbuf_init(&again);
	CHECK(chart_scatter_svg(&c, NULL, 0, &out) == 0, "no points: no marks");
	CHECK(!strstr(out.data, CIRCLE) && strstr(out.data, "<g class=\"marks\" fill=\"#0b57d0\" fill-opacity=\"0.45\">\n</g>"),
	      "an empty group of marks");
	CHECK(well_formed(&out), "still a well-formed SVG");
	chart_scatter_svg(&c, NULL, 0, &again);
	CHECK(out.len == again.len && !memcmp(out.data, again.data, out.len), "the same bytes twice");
	sbuf_release(&out);
	sbuf_release(&again);
}

static void bars(void)
{
	chart c;
	chart_bar b[] = { { "H100 <80GB>", 80, 1 }, { "A100", 40, 0 }, { "Too big", 500, 0 } };
	sbuf out;

	chart_init(&c);
	c.title = "Memory";
	c.x.min = 0;
	c.x.max = 100;
	c.x.step = 20;
	c.x.label = "GB";
	sbuf_init(&out);
	CHECK(chart_bars_svg(&c, b, 3, &out) == 2, "a bar past the range gets no bar");
	CHECK(count(out.data, "<rect x=") == 2 && strstr(out.data, "Too big</text>"),
	      "two bars, three labels");
	CHECK(strstr(out.data, "width=\"435.2\"") && strstr(out.data, "width=\"217.6\""),
	      "bar lengths: 80%% and 40%% of 544");
	CHECK(count(out.data, "fill=\"#d93025\"") == 1, "one bar highlighted");
	CHECK(strstr(out.data, "H100 &lt;80GB&gt;") != NULL, "labels escaped");
	CHECK(well_formed(&out), "it parses as XML");
	sbuf_release(&out);
}

static void decimal_years(void)
{
	double y;

	CHECK(!chart_decimal_year("2023-03-14", &y) && near(y, 2023 + (31 + 28 + 14 - 0.5) / 365),
	      "a day: the middle of its day of the year");
	CHECK(!chart_decimal_year("2024-12-31", &y) && near(y, 2024 + 365.5 / 366),
	      "a leap year has 366 days");
	CHECK(!chart_decimal_year("2023-03", &y) && near(y, 2023 + 2.5 / 12), "a month: its middle");
	CHECK(!chart_decimal_year("2023", &y) && near(y, 2023.5), "a year: its middle");
	CHECK(chart_decimal_year("March", &y) == -1 && chart_decimal_year("", &y) == -1 &&
	      chart_decimal_year(NULL, &y) == -1, "not a date: -1");
}

static void set(page_texts *t, page_text_id id, const char *text)
{
	page_text_set(t, id, text);
}

static void english(page_texts *t)
{
	static const char *const months[] = { "January", "February", "March", "April", "May",
		"June", "July", "August", "September", "October", "November", "December" };
	int i;

	page_texts_init(t, "en");
	for (i = 0; i < 12; i++)
		set(t, (page_text_id)(PT_VALUE_MONTH_1 + i), months[i]);
	set(t, PT_VALUE_DATE_DAY, "{day} {month_name} {year}");
	set(t, PT_VALUE_DATE_MONTH, "{month_name} {year}");
	set(t, PT_LABEL_PUBLISHED, "Published");
	set(t, PT_LABEL_TRAINING_COMPUTE, "Training compute");
	set(t, PT_LABEL_PARAMETERS, "Parameters");
	set(t, PT_CHART_COMPUTE_TITLE, "Compute");
	set(t, PT_CHART_COMPUTE_DESC, "{count} models, {from} to {to}");
	set(t, PT_CHART_PARAMETERS_TITLE, "Params");
	set(t, PT_CHART_PARAMETERS_DESC, "{count} sized models, {from} to {to}");
	set(t, PT_CHART_AXIS_DATE, "Date");
	set(t, PT_CHART_AXIS_COMPUTE, "FLOP");
	set(t, PT_CHART_AXIS_PARAMETERS, "Parameters");
	set(t, PT_CHART_TABLE_MODEL, "Model");
	set(t, PT_CHART_DATA_LINK, "Data");
	set(t, PT_CHART_MODEL_ON, "{name}: {month}, {compute}");
	set(t, PT_CHART_MODEL_OFF, "{name} is not on the chart");
}

static void catalogue(void)
{
	page_index_entry e[] = {
		{ "B <big>", "b.html", NULL, NULL, "2023-03-14", 1.8e12, 2.1e25, 0, "", NULL },
		{ "A", "a.html", NULL, NULL, "2017-06", 6.5e7, 7.4e18, 1, "", NULL },
		{ "No compute", "n.html", NULL, NULL, "2020", 1e9, NAN, 1, "", NULL },
		{ "No date", "d.html", NULL, NULL, "", 1e9, 1e20, 1, "", NULL },
	};
	page_texts en;
	chart_catalogue cc;
	sbuf compute, params, html, again, tables;
	mc_err err;
	const char *t;

	english(&en);
	chart_catalogue_init(&cc, e, 4);
	CHECK(cc.ncompute == 2 && cc.nparameters == 3, "2 models with compute and date, 3 with "
	      "parameters and date: %zu %zu", cc.ncompute, cc.nparameters);
	sbuf_init(&compute);
	sbuf_init(&params);
	sbuf_init(&html);
	sbuf_init(&again);
	sbuf_init(&tables);
	CHECK(chart_catalogue_index(&cc, &en, &en, &compute, &params, &html, &tables, &err) == 0,
	      "the index's charts");
	CHECK(count(compute.data, CIRCLE) == 2 && count(params.data, CIRCLE) == 3,
	      "one mark per model on each chart");
	CHECK(well_formed(&compute) && well_formed(&params), "both parse as XML");
	CHECK(strstr(compute.data, "<desc id=\"chart-desc\">2 models, 2017 to 2023</desc>") != NULL,
	      "the description counts the models and names the years");
	CHECK(strstr(html.data, "<img src=\"index.compute.svg\" alt=\"Compute\"") &&
	      strstr(html.data, "<img src=\"index.parameters.svg\""), "the index shows both files");
	CHECK(strstr(html.data, "<a href=\"index.charts.html#compute\">Data</a>") &&
	      strstr(html.data, "<a href=\"index.charts.html#parameters\">Data</a>") &&
	      !strstr(html.data, "<table"), "and links to their data, not in the index");
	CHECK(strstr(tables.data, "<h2 id=\"compute\">Compute</h2>") &&
	      strstr(tables.data, "<h2 id=\"parameters\">Params</h2>"), "the data: a heading per chart");
	t = strstr(tables.data, "<tbody>");
	CHECK(t && strstr(t, "<tr><th scope=\"row\">A</th><td>June 2017</td><td>7.4 \xC3\x97 10\xC2\xB9\xE2\x81\xB8 FLOP</td></tr>\n"
			     "<tr><th scope=\"row\">B &lt;big&gt;</th><td>14 March 2023</td>") == t + 8,
	      "the data table: by date, the dates and values as the pages write them, escaped");
	CHECK(count(tables.data, "<tr><th scope=\"row\">") == 5, "2 + 3 rows of data");
	sbuf_reset(&html);
	CHECK(chart_catalogue_model(&cc, &e[0], &en, &en, &html, &err) == 0, "a model's chart");
	CHECK(strstr(html.data, "<span class=\"chart-mark\" style=\"left:") != NULL, "its mark");
	CHECK(strstr(html.data, "<p class=\"chart-note\">B &lt;big&gt;: March 2023, 2.1 \xC3\x97 10\xC2\xB2\xE2\x81\xB5 FLOP</p>") != NULL,
	      "its sentence: its month and compute, escaped");
	sbuf_reset(&html);
	CHECK(chart_catalogue_model(&cc, &e[1], &en, &en, &html, &err) == 0 &&
	      strstr(html.data, ">A: June 2017, 7.4 \xC3\x97 10\xC2\xB9\xE2\x81\xB8 FLOP<"),
	      "the other's");
	sbuf_reset(&html);
	CHECK(chart_catalogue_model(&cc, &e[2], &en, &en, &html, &err) == 0 &&
	      !strstr(html.data, "chart-mark") && strstr(html.data, "No compute is not on the chart"),
	      "a model without compute: no mark, and says so");
	sbuf_reset(&html);
	sbuf_reset(&tables);
	chart_catalogue_index(&cc, &en, &en, &again, &params, &html, &tables, &err);
	CHECK(again.len == compute.len && !memcmp(again.data, compute.data, compute.len),
	      "the same entries give the same bytes");
	sbuf_release(&compute);
	sbuf_release(&params);
	sbuf_release(&html);
	sbuf_release(&again);
	sbuf_release(&tables);
	chart_catalogue_release(&cc);
	chart_catalogue_init(&cc, e, 0);
	sbuf_init(&html);
	CHECK(chart_catalogue_model(&cc, &e[0], &en, &en, &html, &err) == 0 && html.len == 0,
	      "no models with compute: no figure on a model page");
	sbuf_release(&html);
	chart_catalogue_release(&cc);
	set(&en, PT_CHART_COMPUTE_DESC, "{broken");
	chart_catalogue_init(&cc, e, 4);
	sbuf_init(&html);
	sbuf_init(&compute);
	sbuf_init(&params);
	sbuf_init(&tables);
	CHECK(chart_catalogue_index(&cc, &en, &en, &compute, &params, &html, &tables, &err) == -1 &&
	      strstr(err.msg, "chart.compute.desc"), "a broken text: an error naming it (%s)", err.msg);
	sbuf_release(&html);
	sbuf_release(&compute);
	sbuf_release(&params);
	sbuf_release(&tables);
	chart_catalogue_release(&cc);
	page_texts_release(&en);
}

static void linear_axis(double max, double step, double end)
{
	chart_axis a;

	chart_axis_linear(&a, max);
	CHECK(a.scale == CHART_LINEAR && a.min == 0 && fabs(a.step - step) < 1e-12 &&
	      fabs(a.max - end) < 1e-9, "[0, %g]: a tick every %g, to %g (%g, %g)", max, step, end,
	      a.step, a.max);
}

static void linear_axes(void)
{
	linear_axis(24, 5, 25);           /* 24 GB: 5 intervals of 5 */
	linear_axis(80, 10, 80);          /* a whole number of steps ends on max */
	linear_axis(192, 25, 200);        /* 8 intervals of 25 */
	linear_axis(8, 1, 8);
	linear_axis(0.3, 0.05, 0.3);      /* below 1, ending on max despite rounding */
	linear_axis(0, 0.2, 1);           /* no range: [0, 1] */
}

int main(void)
{
	scales();
	ticks();
	escaping();
	outside();
	no_points();
	bars();
	linear_axes();
	decimal_years();
	catalogue();
	return unit_done();
}
