/*
 * Unit tests for page: the page rules on records the seed does not show
 * (open weights, missing fields, partial dates, short runs...), built with
 * the bundled English catalogue and checked line by line; the HTML form;
 * the index page; a text missing from every catalogue; a model with
 * 20,000 fields.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "publish/page.h"
#include "db/query.h"
#include "publish/xliff.h"
#include "unit.h"

static page_texts english;

static int load_english(void)
{
	xliff_catalogue en;
	mc_err err = { "" };
	size_t i;

	page_texts_init(&english, "en");
	if (xliff_read("translations/en.xlf", &en, &err)) {
		printf("# %s\n", err.msg);
		return -1;
	}
	for (i = 0; i < PT_COUNT; i++) {
		const xliff_unit *u = xliff_find(&en, page_text_key((page_text_id)i));

		if (u)
			english.text[i] = strdup(u->source);
	}
	xliff_release(&en);
	return 0;
}

/* A model from NULL-terminated field, value pairs. */
static void model_make(model_view *m, const char *name, const char *as_of, const char *const *fields)
{
	size_t i;

	memset(m, 0, sizeof(*m));
	m->name = strdup(name);
	mc_fmt(m->as_of, sizeof(m->as_of), "%s", as_of);
	mc_fmt(m->last_updated, sizeof(m->last_updated), "%s", as_of);
	for (i = 0; fields[i]; i += 2)
		;
	/* all at once: grown a field at a time, the array of a model of
	 * many fields is copied at every one under AddressSanitizer */
	m->values.items = calloc(i / 2 + 1, sizeof(*m->values.items));
	for (i = 0; fields[i]; i += 2) {
		model_value *v;

		v = &m->values.items[m->values.n++];
		v->field = strpool_dup(&m->texts, fields[i]);
		v->value = strpool_dup(&m->texts, fields[i + 1]);
		v->export = strpool_dup(&m->texts, "notable_ai_models");
		v->since = strpool_dup(&m->texts, as_of);
	}
}

/* The text page of a model, as one string (caller frees), or NULL. */
static char *render(const char *name, const char *as_of, const char *const *fields, int html)
{
	model_view m;
	page p;
	sbuf out;
	mc_err err = { "" };

	model_make(&m, name, as_of, fields);
	page_init(&p, "en");
	sbuf_init(&out);
	if (page_build(&p, &m, &english, &english, &err) == 0) {
		if (html)
			page_render_html(&p, &out);
		else
			page_render_text(&p, &out);
	} else {
		printf("# %s\n", err.msg);
	}
	page_release(&p);
	model_view_release(&m);
	return sbuf_detach(&out, NULL);
}

/* Is line (a whole line) in text? */
static int has_line(const char *text, const char *line)
{
	size_t len = strlen(line);
	const char *p = text;

	while ((p = strstr(p, line))) {
		if ((p == text || p[-1] == '\n') && (p[len] == '\n' || !p[len]))
			return 1;
		p++;
	}
	return 0;
}

/* Is "- label\n- value" in text? */
static int has_pair(const char *text, const char *label, const char *value)
{
	char buf[1024];

	mc_fmt(buf, sizeof(buf), "- %s\n- %s", label, value);
	return has_line(text, buf);
}

/* The line after the title: the hardware block's figure. */
static const char *second_line(const char *text, char *buf, size_t len)
{
	const char *nl = strchr(text, '\n');
	const char *end = nl ? strchr(nl + 1, '\n') : NULL;

	mc_fmt(buf, len, "%.*s", end ? (int)(end - nl - 1) : 0, nl ? nl + 1 : "");
	return buf;
}

static void test_open_weights(void)
{
	static const char *const fields[] = {
		"Organization", "Meta AI", "Country (of organization)", "United States of America",
		"Organization categorization", "Industry", "Publication date", "2023-07-18",
		"Domain", "Language", "Task", "Language modelling", "Parameters", "7000000000",
		"Training compute (FLOP)", "8.1e+22", "Model accessibility", "Open weights (unrestricted)",
		"Training dataset size (total)", "1500000000000", NULL,
	};
	char *t = render("Small Open", "2025-05-06", fields, 0);
	char buf[256];

	CHECK_STR(second_line(t, buf, sizeof(buf)), "About 3.5 GB at 4-bit", "open weights: the memory at 4-bit");
	CHECK(has_line(t, "Memory needed to run this model"), "open weights: the hardware heading");
	CHECK(strstr(t, "Its 7B parameters take about 3.5 GB of graphics memory at 4-bit, the compression "
		     "most people use, about 7 GB at 8-bit and about 14 GB at full 16-bit precision."),
	      "open weights: the estimate at 4, 8 and 16 bit");
	CHECK(has_pair(t, "Weights", "Open — unrestricted licence"), "open weights: the licence kind");
	CHECK(has_pair(t, "Training data", "1.5T tokens"), "a dataset size with its unit");
	CHECK(has_pair(t, "Likely above 10²³ FLOP", "No"), "8.1e22 FLOP is not above 10²³");
	CHECK(has_line(t, "What GPU do I need to run Small Open?"), "the GPU question is asked");
	CHECK(strstr(t, "One with enough memory to hold its weights: about 3.5 GB at 4-bit"),
	      "and answered with the estimate");
	CHECK(strstr(t, "Its weights are published (unrestricted licence), so Small Open can be downloaded"),
	      "the open-source answer names the licence");
	CHECK(strstr(t, "Its weights are published (unrestricted licence), so anyone with enough graphics "
		     "memory can run it — about 3.5 GB at 4-bit."), "the weights sentence");
	CHECK(!strstr(t, "Closed"), "nothing says closed");
	free(t);
}

static void test_open_unsized_and_unknown(void)
{
	static const char *const open[] = { "Open model weights?", "True", "Domain", "Vision",
					    "Dataset size notes", "About a million images.", NULL };
	static const char *const unknown[] = { "Domain", "Vision", NULL };
	char *t = render("Open Unsized", "2025-05-06", open, 0);
	char buf[256];

	CHECK_STR(second_line(t, buf, sizeof(buf)), "No estimate", "open weights without a size: no estimate");
	CHECK(has_line(t, "No hardware estimate for this model"), "and says why in the heading");
	CHECK(strstr(t, "but the source records no parameter count"), "and in the text");
	CHECK(has_pair(t, "Weights", "Open — licence not recorded"), "open weights, licence unknown");
	CHECK(has_pair(t, "Training data", "not recorded"), "no size but notes: said, not a bare unit");
	CHECK(strstr(t, "Open Unsized has published weights, but the source records no parameter count"),
	      "the GPU answer says no estimate");
	free(t);
	t = render("Unknown Weights", "2025-05-06", unknown, 0);
	CHECK(strstr(t, "The source does not record whether the weights"), "unknown weights: said so");
	CHECK(!strstr(t, "- Weights\n"), "unknown weights: no Weights pair");
	CHECK(!strstr(t, "What GPU do I need"), "unknown weights: no GPU question");
	CHECK(!strstr(t, "- Training data\n"), "no size and no notes: no Training data pair");
	free(t);
}

static void test_partial_records(void)
{
	static const char *const fields[] = {
		"Organization", "OpenAI,OpenAI", "Publication date", "2024-02",
		"Model accessibility", "API access", "Training time (hours)", "100",
		"Hardware quantity", "12288", "Notability criteria", "SOTA improvement", NULL,
	};
	static const char *const year_only[] = { "Publication date", "2019", "Training time (hours)", "1",
						 "Link", "javascript:alert(1)", "Reference", "R", NULL };
	static const char *const hours30[] = { "Training time (hours)", "30", "Link",
					       "https://a.example/x, https://b.example/y", "Reference", "R",
					       "Publication date", "2026-01-10", NULL };
	char *t = render("Partial", "2026-05-25", fields, 0);

	CHECK(has_pair(t, "Organisation", "OpenAI"), "a list's repeats are removed");
	CHECK(has_pair(t, "Published", "February 2024"), "a date known to the month");
	CHECK(has_pair(t, "Wall-clock time", "100 hours (4.2 days)"), "under ten days: days to one decimal");
	CHECK(has_pair(t, "Weights", "Closed — provider access only"), "API access is closed");
	CHECK(!strstr(t, "- Country\n"), "no country: no Country pair");
	CHECK(has_line(t, "Partial was published by OpenAI, in February 2024."),
	      "the origin sentence leaves out what is missing");
	CHECK(!strstr(t, "What is Partial used for?"), "no domain: the use question is left out");
	CHECK(has_line(t, "Who created Partial?") && has_line(t, "Partial was published by OpenAI."),
	      "the creator answer without country and type");
	CHECK(has_line(t, "The reason it appears in this catalogue at all is SOTA improvement."),
	      "an acronym keeps its case mid-sentence");
	CHECK(has_line(t, "Nothing is on record here for this model yet."), "an empty section says so");
	CHECK(has_line(t, "What it does"), "and keeps its heading");
	CHECK(has_line(t, "Partial was published in February 2024. Capability per parameter has improved "
		       "considerably since, so a newer model of the same size is often the better use of "
		       "the same hardware."), "over a year old: the sentence on newer models");
	free(t);
	t = render("Year Only", "2025-05-06", year_only, 0);
	CHECK(has_pair(t, "Published", "2019"), "a date known to the year");
	CHECK(has_pair(t, "Wall-clock time", "1 hour"), "one hour");
	free(t);
	t = render("Year Only", "2025-05-06", year_only, 1);
	CHECK(strstr(t, "<dt>Reference</dt><dd>R</dd>"), "a javascript: link is no link");
	free(t);
	t = render("Recent", "2026-05-25", hours30, 0);
	CHECK(has_pair(t, "Wall-clock time", "30 hours"), "under two days: hours only");
	CHECK(has_line(t, "Recent was published in January 2026."), "under a year old: no sentence on newer models");
	free(t);
	t = render("Recent", "2026-05-25", hours30, 1);
	CHECK(strstr(t, "<dd><a href=\"https://a.example/x\" rel=\"nofollow noopener noreferrer\">R</a></dd>"),
	      "of several links, the first");
	free(t);
}

static void test_html(void)
{
	static const char *const fields[] = { "Organization", "A & B <Labs>", "Model accessibility",
					      "Unreleased", NULL };
	char *t = render("Q&A \"model\"", "2025-05-06", fields, 1);

	CHECK(!strncmp(t, "<!DOCTYPE html>\n<html lang=\"en\">\n", 32), "an HTML5 document with its language");
	CHECK(strstr(t, "<title>Q&amp;A &quot;model&quot;</title>"), "the title escaped");
	CHECK(strstr(t, "<h1>Q&amp;A &quot;model&quot;</h1>"), "the heading escaped");
	CHECK(strstr(t, "<dl>\n<dt>Organisation</dt><dd>A &amp; B &lt;Labs&gt;</dd>\n</dl>"),
	      "pairs as a definition list, values escaped");
	CHECK(strstr(t, "<p class=\"empty\">Nothing is on record here for this model yet.</p>"),
	      "an empty section as a paragraph");
	CHECK(strstr(t, "<h4>Is Q&amp;A &quot;model&quot; open source?</h4>"), "questions as headings");
	CHECK(strstr(t, "</div>\n</body>\n</html>\n"), "the document is closed");
	free(t);
}

/* A model with 20,000 fields of its own before the ones the page shows,
 * a field given twice and an empty one: the page looks each up in the
 * index it builds once, and comes out as it does without the extra
 * fields (the first of a repeated field, an empty one as missing). */
static void test_many_fields(void)
{
	static const char *const known[] = {
		"Organization", "Meta AI", "Publication date", "2023-07-18",
		"Parameters", "7000000000", "Model accessibility", "Open weights (unrestricted)",
		"Link", "https://example.org/paper", NULL,
	};
	enum { EXTRA = 20000 };
	size_t nknown = sizeof(known) / sizeof(known[0]) - 1, i, n = 0;
	const char **wide = calloc(2 * EXTRA + nknown + 5, sizeof(*wide));
	char **names = calloc(EXTRA, sizeof(*names));
	char *narrow_text, *narrow_html, *wide_text, *wide_html;

	if (!CHECK(wide && names, "memory for the wide model"))
		goto out;
	for (i = 0; i < EXTRA; i++) {
		char buf[32];

		mc_fmt(buf, sizeof(buf), "Extra column %zu", i + 1);
		names[i] = strdup(buf);
		wide[n++] = names[i];
		wide[n++] = "a value the page does not show";
	}
	wide[n++] = "Domain";       /* empty: as if it had none */
	wide[n++] = "";
	for (i = 0; i < nknown; i++)
		wide[n++] = known[i];
	wide[n++] = "Parameters";   /* again: the first one counts */
	wide[n++] = "1000";
	narrow_text = render("Wide Open", "2025-05-06", known, 0);
	narrow_html = render("Wide Open", "2025-05-06", known, 1);
	wide_text = render("Wide Open", "2025-05-06", wide, 0);
	wide_html = render("Wide Open", "2025-05-06", wide, 1);
	CHECK(has_pair(wide_text, "Parameters", "7B"), "20,000 fields: the first Parameters is shown");
	CHECK(has_pair(wide_text, "Published", "18 July 2023"), "and the date after them");
	CHECK(!strstr(wide_text, "Extra column"), "and none of the extra fields");
	CHECK_STR(wide_text, narrow_text, "the text page is the one without the extra fields");
	CHECK_STR(wide_html, narrow_html, "the HTML page is the one without the extra fields");
	free(narrow_text);
	free(narrow_html);
	free(wide_text);
	free(wide_html);
out:
	for (i = 0; names && i < EXTRA; i++)
		free(names[i]);
	free(names);
	free(wide);
}

static void test_hrefs_and_html_only(void)
{
	static const struct { const char *link; int ok; } links[] = {
		{ "x.html", 1 }, { "../../audit/2024-07-16.html", 1 }, { "hw/a_b-c.html", 1 },
		{ "https://example.org/a b", 0 }, { "https://example.org/", 1 },
		{ "/etc/passwd", 0 }, { ".hidden", 0 }, { "a//b", 0 }, { "a/", 0 },
		{ "...", 0 }, { "../.x", 0 }, { "javascript:alert(1)", 0 }, { "a?b", 0 },
		{ "", 0 },
	};
	page p;
	page_block blocks[2];
	sbuf out;
	size_t i;

	for (i = 0; i < sizeof(links) / sizeof(links[0]); i++)
		CHECK(page_safe_href(links[i].link) == links[i].ok, "href %s: %s", links[i].link,
		      links[i].ok ? "allowed" : "refused");
	page_init(&p, "en");
	memset(blocks, 0, sizeof(blocks));
	blocks[0].kind = PAGE_PARAGRAPH;
	blocks[0].text = (char *)"only in HTML";
	blocks[0].html_only = 1;
	blocks[1].kind = PAGE_RAW;
	blocks[1].text = (char *)"<svg role=\"img\"></svg>";
	p.blocks = blocks;
	p.n = 2;
	sbuf_init(&out);
	page_render_text(&p, &out);
	CHECK_STR(out.data ? out.data : "", "", "html-only and raw blocks stay out of the text page");
	sbuf_reset(&out);
	page_render_html(&p, &out);
	CHECK(strstr(out.data, "<p>only in HTML</p>") && strstr(out.data, "<svg role=\"img\"></svg>"),
	      "and are in the HTML page, the raw block as is");
	sbuf_release(&out);
}

/* The full index with its table left as a hole: the HTML around the hole
 * with the table written into it is the page built with the table. */
static void test_index_hole(const page_index_entry *entries, size_t n)
{
	sbuf js, table, whole, around, spliced;
	page with, holed;
	mc_err err = { "" };
	size_t hole = 0, plain = 0;

	sbuf_init(&js);
	sbuf_init(&table);
	sbuf_init(&whole);
	sbuf_init(&around);
	sbuf_init(&spliced);
	page_init(&with, "en");
	page_init(&holed, "en");
	with.html_only = holed.html_only = 1;
	CHECK(page_build_index(&with, entries, n, "2025-05-06", NULL, &js, &table, &english, &english,
			       &err) == 0 && table.len > 0, "the index's table is made (%s)", err.msg);
	page_release(&with);
	page_init(&with, "en");
	with.html_only = 1;
	CHECK(page_build_index(&with, entries, n, "2025-05-06", table.data, NULL, NULL, &english,
			       &english, &err) == 0 &&
	      page_build_index(&holed, entries, n, "2025-05-06", PAGE_INDEX_HOLE, NULL, NULL,
			       &english, &english, &err) == 0,
	      "the full index builds with its table and with a hole for it (%s)", err.msg);
	page_render_html(&with, &whole);
	page_render_html_hole(&holed, &around, &hole);
	CHECK(hole != SIZE_MAX && hole < around.len, "the hole is inside the HTML (%zu of %zu)", hole,
	      around.len);
	if (hole != SIZE_MAX && hole <= around.len) {
		sbuf_add(&spliced, around.data, hole);
		sbuf_add(&spliced, table.data, table.len);
		sbuf_add(&spliced, around.data + hole, around.len - hole);
	}
	CHECK(spliced.len == whole.len && !memcmp(spliced.data, whole.data, whole.len),
	      "the table written into the hole gives the page built with it (%zu, %zu bytes)",
	      spliced.len, whole.len);
	CHECK(around.len + table.len == whole.len && !strstr(around.data, table.data),
	      "and the holed page holds no copy of the table");
	sbuf_reset(&around);
	page_render_html_hole(&with, &around, &plain);
	CHECK(plain == SIZE_MAX, "a page without a hole says so");
	page_release(&with);
	page_release(&holed);
	sbuf_release(&js);
	sbuf_release(&table);
	sbuf_release(&whole);
	sbuf_release(&around);
	sbuf_release(&spliced);
}

static void test_index_and_missing(void)
{
	static const page_index_entry entries[] = {
		{ .name = "GPT-4", .file = "gpt-4-0123456789.html" },
		{ .name = "<evil>", .file = "javascript:alert(1)" },
	};
	page p;
	sbuf out;
	mc_err err = { "" };
	page_texts none;
	model_view m;
	static const char *const fields[] = { NULL };

	page_init(&p, "en");
	sbuf_init(&out);
	CHECK(page_build_index(&p, entries, 2, "2025-05-06", NULL, NULL, NULL, &english, &english, &err) == 0,
	      "the index builds");
	page_render_text(&p, &out);
	CHECK_STR(out.data, "AI models\n2 models on record on 6 May 2025. Each page describes one model: where "
		  "it came from, how it was trained, and whether you can run it yourself.\n- GPT-4\n- <evil>\n",
		  "the text index");
	sbuf_reset(&out);
	page_render_html(&p, &out);
	CHECK(strstr(out.data, "<div role=\"rowheader\"><a href=\"gpt-4-0123456789.html\">GPT-4</a></div>") &&
	      strstr(out.data, "<div role=\"rowheader\">&lt;evil&gt;</div>") && !strstr(out.data, "javascript:") &&
	      !strstr(out.data, "<li>"), "the HTML index is a table, linking file names only");
	page_release(&p);
	sbuf_release(&out);
	test_index_hole(entries, 2);

	page_texts_init(&none, "xx");
	free(english.text[PT_BAND]);
	english.text[PT_BAND] = NULL;
	model_make(&m, "M", "2025-05-06", fields);
	page_init(&p, "xx");
	CHECK(page_build(&p, &m, &none, &english, &err) == -1 && strstr(err.msg, "'band'"),
	      "a text no catalogue has fails the page, naming the key (%s)", err.msg);
	CHECK(p.n == 0, "and leaves no half page");
	page_release(&p);
	model_view_release(&m);
	page_texts_release(&none);
}

int main(void)
{
	test_hrefs_and_html_only();
	if (!CHECK(load_english() == 0, "the English catalogue loads"))
		return unit_done();
	test_open_weights();
	test_open_unsized_and_unknown();
	test_partial_records();
	test_html();
	test_many_fields();
	test_index_and_missing();
	page_texts_release(&english);
	return unit_done();
}
