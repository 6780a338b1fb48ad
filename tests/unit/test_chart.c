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
#include "values/normalise.h"
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

/* the arcs that close a mark, one per circle drawn (chart_scatter_svg,
 * the first group), and one per small dot (the last group, "other") */
#define CIRCLE "a3.5 3.5 0 1 0 7.0 0a3.5 3.5 0 1 0-7.0 0"
#define SMALL "a2 2 0 1 0 4 0a2 2 0 1 0-4 0"

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
	/* plot area: x 74..456 (382 wide), y 342..14 (328 high) */
	CHECK(!chart_place(&c, 5, 100, &px, &py) && near(px, 265) && near(py, 178),
	      "the middle of both axes (x linear, y log) is the plot's middle: %g %g", px, py);
	CHECK(!chart_place(&c, 0, 1, &px, &py) && near(px, 74) && near(py, 342),
	      "the minimum of both is the bottom left corner: %g %g", px, py);
	CHECK(!chart_place(&c, 10, 1e4, &px, &py) && near(px, 456) && near(py, 14),
	      "the maximum of both is the top right corner: %g %g", px, py);
	CHECK(!chart_place(&c, 2.5, 10, &px, &py) && near(px, 74 + 382 / 4.0) &&
	      near(py, 342 - 328 / 4.0), "a quarter along each: %g %g", px, py);
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
	CHECK(near(c.y.min, 100) && near(c.y.max / 1e27, 1) && near(c.y.step, 1),
	      "log axis over 1.5e2..3e26 (25 decades): 10^2..10^27, a tick every decade "
	      "(%g %g %g)", c.y.min, c.y.max, c.y.step);
	chart_fit_height(&c);
	CHECK(c.height == 14 + 58 + 25 * 19, "25 decades: the chart grows to 19 units a decade (%d)",
	      c.height);
	c.height = 400;
	chart_axis_log(&c.y, 1.5e10, 5e26);
	CHECK(near(c.y.min, 1e10) && near(c.y.max / 1e27, 1) && near(c.y.step, 1),
	      "over 17 decades: a tick on every power of ten (%g %g %g)", c.y.min, c.y.max,
	      c.y.step);
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
	chart_axis_years(&c.x, 2009.5, 2025.5);
	CHECK(near(c.x.min, 2008) && near(c.x.max, 2028) && near(c.x.step, 4),
	      "2009.5..2025.5: a tick every 4 years, 2008..2028 (%g %g %g)", c.x.min, c.x.max,
	      c.x.step);
	chart_axis_years(&c.x, 1950.3, 2025.5);
	chart_axis_log(&c.y, 150, 3e26);
	sbuf_init(&out);
	chart_scatter_svg(&c, NULL, 0, &out);
	CHECK(strstr(out.data, ">10\xC2\xB2<") && strstr(out.data, ">10\xC2\xB2\xE2\x81\xB7<") &&
	      !strstr(out.data, ">10\xE2\x81\xB0<") && !strstr(out.data, ">10\xC2\xB2\xE2\x81\xB8<"),
	      "ticks 10² ... 10²⁷, none past the range");
	CHECK(count(out.data, "<text class=\"tick\"") == 9 + 26,
	      "9 year ticks (1950..2030) and 26 power ticks: %zu",
	      count(out.data, "<text class=\"tick\""));
	CHECK(strstr(out.data, "<text class=\"tick\" x=\"74.0\" y=\"364\">1950</text>") != NULL,
	      "1950 at the left edge");
	CHECK(strstr(out.data, "<text class=\"tick\" x=\"456.0\" y=\"364\">2030</text>") &&
	      !strstr(out.data, ">2040</text>"), "2030 at the right edge, the last year tick");
	CHECK(strstr(out.data, "font-size=\"16\"") && count(out.data, "font-size=") == 1,
	      "one size of text, 16 units: 12 px on a chart shown 368 px wide");
	sbuf_release(&out);
}

static void escaping(void)
{
	chart c;
	chart_point p = { 0.5, 0.5, "<GPT>", 0, 0, 0 };
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
		{ 0.5, 0.5, NULL, 0, 0, 0 }, { 1.5, 0.5, NULL, 0, 0, 0 }, { 0.2, -0.1, NULL, 0, 0, 0 },
		{ NAN, 0.5, NULL, 0, 0, 0 }, { 1, 1, NULL, 0, 0, 0 },
	};
	sbuf out;

	chart_init(&c);
	sbuf_init(&out);
	CHECK(chart_scatter_svg(&c, p, 5, &out) == 2, "points outside the range or NaN are left out");
	CHECK(count(out.data, CIRCLE) == 2, "two circles: %zu", count(out.data, CIRCLE));
	/* a circle of radius 3.5 about (x, y) starts at its left, (x - 3.5, y) */
	CHECK(strstr(out.data, "<path fill=\"#0b57d0\" fill-opacity=\"0.75\" d=\"M261.5 178.0" CIRCLE
		     "\nM452.5 14.0" CIRCLE "\"/>") != NULL,
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
	CHECK(!strstr(out.data, CIRCLE) && strstr(out.data, "<g class=\"marks\">\n</g>"),
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
	CHECK(strstr(out.data, "width=\"305.6\"") && strstr(out.data, "width=\"152.8\""),
	      "bar lengths: 80%% and 40%% of 382");
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
	set(t, PT_CHART_COMPUTE_TREND, "From {start} to {to}: x{factor}; top {name}, {value}, {month}.");
	set(t, PT_CHART_PARAMETERS_TREND, "From {start}: x{factor}; top {name}.");
	set(t, PT_CHART_ALL_YEARS, "Every year: {from} to {to}");
	set(t, PT_CHART_CSV_LINK, "CSV");
	set(t, PT_CHART_KEYS, "{title}: keys");
	set(t, PT_CHART_SEVERAL, "Several");
	set(t, PT_CHART_OTHER, "Other");
	set(t, PT_CHART_FRONTIER, "Frontier");
	set(t, PT_CHART_LEGEND, "Domains");
}

static void files_init(chart_files f[2])
{
	memset(f, 0, 2 * sizeof(*f));
}

static void files_release(chart_files f[2])
{
	int k;

	for (k = 0; k < 2; k++) {
		sbuf_release(&f[k].svg);
		sbuf_release(&f[k].all);
		sbuf_release(&f[k].csv);
		sbuf_release(&f[k].points);
	}
}

static void catalogue(void)
{
	page_index_entry e[] = {
		{ "B <big>", "b.html", NULL, NULL, "2023-03-14", 1.8e12, 2.1e25, 0, "", NULL, 0 },
		{ "A", "a.html", NULL, NULL, "2017-06", 6.5e7, 7.4e18, 1, "", NULL, 0 },
		{ "No compute", "n.html", NULL, NULL, "2020", 1e9, NAN, 1, "", NULL, 0 },
		{ "No date", "d.html", NULL, NULL, "", 1e9, 1e20, 1, "", NULL, 0 },
	};
	page_texts en;
	chart_catalogue cc;
	chart_files f[2], again[2];
	sbuf html, tables, want;
	mc_err err;
	const char *t;

	english(&en);
	chart_catalogue_init(&cc, e, 4);
	CHECK(cc.ncompute == 2 && cc.nparameters == 3, "2 models with compute and date, 3 with "
	      "parameters and date: %zu %zu", cc.ncompute, cc.nparameters);
	files_init(f);
	files_init(again);
	sbuf_init(&html);
	sbuf_init(&tables);
	sbuf_init(&want);
	CHECK(chart_catalogue_index(&cc, &en, &en, f, &html, &tables, &err) == 0,
	      "the index's charts");
	CHECK(count(f[0].svg.data, SMALL) == 2 && count(f[1].svg.data, SMALL) == 3,
	      "one mark per model on each chart (no domain: the small grey dot of 'other')");
	CHECK(well_formed(&f[0].svg) && well_formed(&f[1].svg) && well_formed(&f[0].all) &&
	      well_formed(&f[1].all), "all four pictures parse as XML");
	CHECK(strstr(f[0].svg.data, "<desc id=\"chart-desc\">2 models, 2017 to 2023</desc>") != NULL,
	      "the description counts the models and names the years");
	CHECK(strstr(html.data, "<img src=\"index.compute.svg\" alt=\"Compute\"") &&
	      strstr(html.data, "<img src=\"index.parameters.svg\"") &&
	      strstr(html.data, "<img src=\"index.compute.all.svg\""), "the index shows the files");
	CHECK(strstr(html.data, "<a href=\"index.charts.html#compute\">Data</a>") &&
	      strstr(html.data, "<a href=\"index.charts.html#parameters\">Data</a>") &&
	      strstr(html.data, "<a href=\"index.compute.csv\" download>CSV</a>") &&
	      !strstr(html.data, "<table"), "and links to their data, not in the index");
	/* two points: the oldest 5 % is none, the chart starts in 2017 */
	CHECK(strstr(html.data, "From 2017 to 2023: x") &&
	      strstr(html.data, "; top B &lt;big&gt;, 2.1 \xC3\x97 10\xC2\xB2\xE2\x81\xB5 FLOP, March 2023."),
	      "the trend in words: where the chart starts, the largest, escaped");
	CHECK(strstr(html.data, "data-points=\"index.compute.js\"") &&
	      strstr(html.data, "data-keys=\"Compute: keys\"") && strstr(html.data, "<script>"),
	      "the frames name their points and keys; the script follows");
	sbuf_adds(&want, "Model,Publication date,Training compute (FLOP),Domain,Frontier model,"
		  "Page\nA,2017-06,");
	norm_number_format(7.4e18, &want);
	sbuf_adds(&want, ",,,a.html\nB <big>,2023-03-14,");
	norm_number_format(2.1e25, &want);
	sbuf_adds(&want, ",,,b.html\n");
	CHECK(!strcmp(f[0].csv.data, want.data),
	      "the CSV: a row per point, by date, the values as the catalogue stores them: %s",
	      f[0].csv.data);
	CHECK(strstr(f[1].points.data, "modelcatPoints(\"index.parameters.js\", [\n[2017.4583,") &&
	      strstr(f[1].points.data, "\"A\",\"a.html\",\"June 2017\",\"65M\"]"),
	      "the points for the script: file, position, name, page, date and value in words");
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
	chart_catalogue_index(&cc, &en, &en, again, &html, &tables, &err);
	CHECK(again[0].svg.len == f[0].svg.len && !memcmp(again[0].svg.data, f[0].svg.data, f[0].svg.len) &&
	      again[1].points.len == f[1].points.len,
	      "the same entries give the same bytes");
	files_release(f);
	files_release(again);
	sbuf_release(&html);
	sbuf_release(&tables);
	sbuf_release(&want);
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
	sbuf_init(&tables);
	files_init(f);
	CHECK(chart_catalogue_index(&cc, &en, &en, f, &html, &tables, &err) == -1 &&
	      strstr(err.msg, "chart.compute.desc"), "a broken text: an error naming it (%s)", err.msg);
	sbuf_release(&html);
	sbuf_release(&tables);
	files_release(f);
	chart_catalogue_release(&cc);
	page_texts_release(&en);
}

/* Domains make the groups: the most common first, several domains a
 * group of their own, the rest "other"; frontier models ringed, the
 * landmarks labelled; the default range leaves out the oldest 5 %. */
static void groups(void)
{
	page_index_entry e[40];
	char names[40][16];
	page_texts en;
	chart_catalogue cc;
	chart_files f[2];
	sbuf html, tables;
	mc_err err;
	int i;

	memset(e, 0, sizeof(e));
	for (i = 0; i < 40; i++) {
		mc_fmt(names[i], sizeof(names[i]), "M%d", i);
		e[i].name = i == 39 ? "GPT-4" : names[i];
		e[i].file = "m.html";
		/* 20 Language, 10 Vision, 6 of two domains, 4 Games */
		e[i].domain = (char *)(i < 20 ? "Language" : i < 30 ? "Vision" :
				       i < 36 ? "Language,Vision" : "Games");
		/* one model in 1990, the rest from 2010 on */
		mc_fmt(e[i].published, sizeof(e[i].published), "%d-06-01", i ? 2010 + i % 15 : 1990);
		e[i].compute = 1e18 * (1 + i);
		e[i].parameters = NAN;
		e[i].frontier = i >= 37;
	}
	english(&en);
	chart_catalogue_init(&cc, e, 40);
	CHECK(cc.groups[0] && !strcmp(cc.groups[0], "Language") && cc.groups[1] &&
	      !strcmp(cc.groups[1], "Vision") && cc.several == 2 && !cc.groups[2] &&
	      cc.groups[3] && !strcmp(cc.groups[3], "Games"), "groups by count: Language, Vision, "
	      "several, Games (%s %s %d)", cc.groups[0], cc.groups[1], cc.several);
	CHECK(cc.compute_all_y.min == 1e15 && cc.compute_all_y.max == 1e20 &&
	      cc.compute_all_y.step == 1,
	      "every year's axis: ends on multiples of 5 decades (1e18..4e19: 10^15..10^20), "
	      "a tick each decade (%g %g %g)", cc.compute_all_y.min, cc.compute_all_y.max,
	      cc.compute_all_y.step);
	CHECK(cc.compute_all_x.min <= 1990 && cc.compute_x.min >= 2008,
	      "every year from 1990; the latest 95 %% from 2010 (%g, %g)", cc.compute_all_x.min,
	      cc.compute_x.min);
	files_init(f);
	sbuf_init(&html);
	sbuf_init(&tables);
	CHECK(chart_catalogue_index(&cc, &en, &en, f, &html, &tables, &err) == 0, "charts made");
	CHECK(strstr(f[0].svg.data, "<path class=\"stand-out\"") &&
	      count(strstr(f[0].svg.data, "<path class=\"stand-out\""), "a6.0 6.0") == 6,
	      "three frontier models ringed (two arcs each)");
	CHECK(strstr(f[0].svg.data, "<g class=\"landmarks\"") && strstr(f[0].svg.data, ">GPT-4</text>"),
	      "a landmark labelled");
	CHECK(strstr(f[0].all.data, ">Date</text>") && strstr(f[0].all.data, ">FLOP</text>") &&
	      strstr(f[0].svg.data, ">Date</text>"),
	      "both pictures have their axis titles");
	CHECK(strstr(html.data, "Language (20)</li>") && strstr(html.data, "Vision (10)</li>") &&
	      strstr(html.data, "Several (6)</li>") && strstr(html.data, "Games (4)</li>") &&
	      strstr(html.data, "Frontier (3)</li>"), "the legend: each group with its count");
	CHECK(count(f[0].csv.data, "\n") == 41 && count(f[0].points.data, "\n[") == 40,
	      "every point in the CSV and the script's points, the 1990 one too");
	files_release(f);
	sbuf_release(&html);
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
	groups();
	return unit_done();
}
