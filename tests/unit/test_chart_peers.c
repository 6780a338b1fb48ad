/*
 * A model among the models of its year (publish/chart_peers.h) and the
 * bar chart's rule (chart_bars_svg with chart.rule): the years of the
 * compute points; a year's ranking (most compute first, equal values
 * sharing a rank, names escaped as CSV, values in the fewest digits that
 * read back); a year's SVG (twelve months under the marks, its
 * description counting the year's models, well formed); a model's figure (the year's
 * file, its mark, its sentence and link, no count of the others; nothing
 * without compute); the rule at its value, labelled, and none outside the
 * range or unset.
 */
#include "publish/chart.h"
#include "publish/chart_peers.h"
#include "publish/page.h"
#include "unit.h"

#include <libxml/parser.h>
#include <math.h>
#include <stdio.h>
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

static size_t count(const char *s, const char *what)
{
	size_t n = 0;

	while ((s = strstr(s, what))) {
		n++;
		s += strlen(what);
	}
	return n;
}

static void texts(page_texts *t)
{
	page_texts_init(t, "en");
	page_text_set(t, PT_CHART_AXIS_COMPUTE, "FLOP");
	page_text_set(t, PT_CHART_PEERS_TITLE, "Models of {year}");
	page_text_set(t, PT_CHART_PEERS_DESC, "{count} models of {year}");
	page_text_set(t, PT_CHART_PEERS_AXIS, "In {year}");
	page_text_set(t, PT_CHART_PEERS_MONTHS, "J F M A M J J A S O N D");
	page_text_set(t, PT_CHART_PEERS_ON, "{name}: {year}, {compute}");
	page_text_set(t, PT_CHART_PEERS_CSV, "Ranking of {year}");
}

static void peers(void)
{
	page_index_entry e[] = {
		{ "B, \"big\"", "b.html", NULL, NULL, "2023-03-14", NAN, 2.1e25, 0, "", NULL, 0 },
		{ "A", "a.html", NULL, NULL, "2023-06", NAN, 7.4e18, 1, "", NULL, 0 },
		{ "C", "c.html", NULL, NULL, "2023-11-02", NAN, 2.1e25, 1, "", NULL, 0 },
		{ "D", "d.html", NULL, NULL, "2017", NAN, 1e20, 1, "", NULL, 0 },
		{ "No compute", "n.html", NULL, NULL, "2023", NAN, NAN, 1, "", NULL, 0 },
	};
	page_texts en;
	chart_catalogue cc;
	sbuf csv, svg, html;
	mc_err err;
	int *years = NULL;
	size_t n;

	texts(&en);
	chart_catalogue_init(&cc, e, 5);
	n = chart_peers_years(&cc, &years);
	CHECK(n == 2 && years[0] == 2017 && years[1] == 2023, "two years, in order: %zu", n);
	free(years);
	sbuf_init(&csv);
	sbuf_init(&svg);
	sbuf_init(&html);
	chart_peers_csv(&cc, 2023, &csv);
	CHECK_STR(csv.data, "rank,model,published,training_compute_flop\n"
		  "1,\"B, \"\"big\"\"\",2023-03-14,2.1e+25\n"
		  "1,C,2023-11-02,2.1e+25\n"
		  "3,A,2023-06,7.4e+18\n",
		  "the ranking: most compute first, equal values share a rank, then by name");
	CHECK(chart_peers_svg(&cc, 2023, &en, &en, &svg, &err) == 0, "the year's chart");
	CHECK(well_formed(&svg), "it parses as XML");
	CHECK(strstr(svg.data, "<desc id=\"chart-desc\">3 models of 2023</desc>") != NULL,
	      "its description counts the year's models");
	CHECK(count(svg.data, "<g class=\"months\"") == 1 &&
	      count(strstr(svg.data, "<g class=\"months\""), "<text class=\"tick\"") >= 12,
	      "twelve months");
	CHECK(!strstr(svg.data, "<g class=\"marks\"") ||
	      strstr(svg.data, "<g class=\"months\"") < strstr(svg.data, "<g class=\"marks\""),
	      "drawn under the marks");
	CHECK(chart_peers_model(&cc, &e[1], &en, &en, &html, &err) == 0 &&
	      strstr(html.data, "<img src=\"index.compute-2023.svg\" alt=\"Models of 2023\"") &&
	      strstr(html.data, "<span class=\"chart-mark\" style=\"left:") &&
	      strstr(html.data, "<p class=\"chart-note\">A: 2023, 7.4 \xC3\x97 10\xC2\xB9\xE2\x81\xB8 FLOP "
			     "<a href=\"index.compute-2023.csv\">Ranking of 2023</a></p>"),
	      "a model's figure: the year's file, its mark, its own values, the ranking's link");
	CHECK(!strstr(html.data, "3 models"), "no count of the others on the page");
	sbuf_reset(&html);
	CHECK(chart_peers_model(&cc, &e[4], &en, &en, &html, &err) == 0 && html.len == 0,
	      "no compute: no figure");
	sbuf_release(&csv);
	sbuf_release(&svg);
	sbuf_release(&html);
	chart_catalogue_release(&cc);
	page_texts_release(&en);
}

static void rule(void)
{
	chart c;
	chart_bar b[] = { { "Card", 80, 1 }, { "Model", 70, 0 } };
	char want[96];
	double px, py;
	sbuf out;

	chart_init(&c);
	c.x.min = 0;
	c.x.max = 100;
	c.x.step = 20;
	c.rule = 72;
	c.rule_label = "90% <of> memory";
	sbuf_init(&out);
	CHECK(chart_bars_svg(&c, b, 2, &out) == 2, "two bars");
	/* where the writer places 72 */
	CHECK(chart_place(&c, 72, 0.5, &px, &py) == 0, "72 is on the axis");
	snprintf(want, sizeof(want), "<line x1=\"%.1f\" x2=\"%.1f\"", px, px);
	CHECK(strstr(out.data, "<g class=\"rule\"") &&
	      strstr(strstr(out.data, "<g class=\"rule\""), want), "the rule at its value (%s)", want);
	CHECK(strstr(out.data, ">90% &lt;of&gt; memory</text>") != NULL, "labelled, escaped");
	CHECK(well_formed(&out), "it parses as XML");
	sbuf_reset(&out);
	c.rule = 150;
	chart_bars_svg(&c, b, 2, &out);
	CHECK(!strstr(out.data, "class=\"rule\""), "no rule outside the range");
	sbuf_reset(&out);
	c.rule = 0;
	chart_bars_svg(&c, b, 2, &out);
	CHECK(!strstr(out.data, "class=\"rule\""), "none unset");
	sbuf_release(&out);
}

int main(void)
{
	peers();
	rule();
	return unit_done();
}
