/*
 * Unit tests for history_page: the History section built from a model's
 * life, with the bundled English catalogue: values written as the page
 * writes them, every value and name escaped in the HTML (and left as it
 * is in the text page), dates linked to the audit only through a safe
 * root, the section placed after the specification, a model with one
 * version adding nothing to the text page, and page texts without the
 * history entries adding nothing at all.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "publish/history_page.h"
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

static void model_make(model_view *m)
{
	static const char *const fields[] = { "Domain", "Language", "Citations", "5290", NULL };
	size_t i;

	memset(m, 0, sizeof(*m));
	m->name = strdup("X <model>");
	mc_fmt(m->as_of, sizeof(m->as_of), "2025-05-06");
	mc_fmt(m->last_updated, sizeof(m->last_updated), "2025-05-06");
	for (i = 0; fields[i]; i += 2) {
		model_value *v;

		m->values.items = realloc(m->values.items, (m->values.n + 1) * sizeof(*v));
		v = &m->values.items[m->values.n++];
		v->field = strpool_dup(&m->texts, fields[i]);
		v->value = strpool_dup(&m->texts, fields[i + 1]);
		v->export = strpool_dup(&m->texts, "notable_ai_models");
		v->since = strpool_dup(&m->texts, "2025-05-06");
	}
}

static void event(timeline_model *life, const char *date, enum timeline_kind kind,
		  const char *export, const char *field, const char *old, const char *new)
{
	timeline_event *e;

	life->events = realloc(life->events, (life->n + 1) * sizeof(*e));
	e = &life->events[life->n++];
	memset(e, 0, sizeof(*e));
	mc_fmt(e->date, sizeof(e->date), "%s", date);
	e->kind = kind;
	e->export = export ? strdup(export) : NULL;
	e->field = field ? strdup(field) : NULL;
	e->old = old ? strdup(old) : NULL;
	e->new = new ? strdup(new) : NULL;
}

static void life_release(timeline_model *life)
{
	size_t i;

	for (i = 0; i < life->n; i++) {
		free(life->events[i].export);
		free(life->events[i].field);
		free(life->events[i].old);
		free(life->events[i].new);
	}
	free(life->events);
	memset(life, 0, sizeof(*life));
}

/* The page of m with the History of life, as text and HTML. */
static int render(const model_view *m, const timeline_model *life, const char *root,
		  const page_texts *texts, sbuf *text, sbuf *html)
{
	page p;
	mc_err err = { "" };
	int rc;

	page_init(&p, "en");
	rc = page_build(&p, m, texts, &english, &err) ||
	     history_page_add(&p, life, m, root, texts, &english, &err);
	if (rc)
		printf("# %s\n", err.msg);
	page_render_text(&p, text);
	page_render_html(&p, html);
	page_release(&p);
	return rc;
}

static void test_changes(void)
{
	model_view m;
	timeline_model life;
	sbuf text, html;
	const char *history, *spec, *numbers;

	model_make(&m);
	memset(&life, 0, sizeof(life));
	event(&life, "2024-07-06", TIMELINE_ADDED, "notable_ai_models", NULL, NULL, NULL);
	event(&life, "2024-07-16", TIMELINE_CHANGED, "notable_ai_models", "Citations", "3280", "5290");
	event(&life, "2024-07-16", TIMELINE_CHANGED, "notable_ai_models", "Notes <b>",
	      "a<script>alert(1)</script>&", NULL);
	event(&life, "2024-12-24", TIMELINE_RENAMED, "notable_ai_models", NULL, "Old & <i>", "X <model>");
	event(&life, "2025-05-06", TIMELINE_CHANGED, "notable_ai_models", "Training compute (FLOP)",
	      "2.1e25", "3e25");
	event(&life, "2025-05-06", TIMELINE_HELD, "all<ai>", NULL, NULL, NULL);
	/* a change written alike on both sides is not told; a column new in
	   another export with the value a change just told is not told again */
	event(&life, "2025-11-01", TIMELINE_CHANGED, "notable_ai_models", "Training power draw (W)",
	      "10800000", "10800000.000000002");
	event(&life, "2025-11-01", TIMELINE_CHANGED, "notable_ai_models",
	      "Training compute cost (2023 USD)", NULL, "52885434.2");
	event(&life, "2025-11-01", TIMELINE_NEW_COLUMN, "frontier_ai_models",
	      "Training compute cost (2023 USD)", NULL, "52885434.2");
	event(&life, "2025-11-01", TIMELINE_NEW_COLUMN, "frontier_ai_models", "Last modified", NULL,
	      "2025-10-16T15:12:24+00:00");
	sbuf_init(&text);
	sbuf_init(&html);
	CHECK(render(&m, &life, "../../audit/", &english, &text, &html) == 0, "a page with a History builds");
	CHECK(strstr(html.data, "<li data-field=\"Citations\">Citations: 3,280 \xe2\x86\x92 5,290</li>") != NULL,
	      "a count is written as on the page, under the page's label");
	CHECK(strstr(html.data, "<li data-field=\"Notes &lt;b&gt;\">Notes &lt;b&gt;: a&lt;script&gt;alert(1)&lt;/script&gt;&amp; "
			  "\xe2\x86\x92 none</li>") != NULL,
	      "a field with no label is named by its column; values and names escaped; none for no value");
	CHECK(strstr(html.data, "<script>") == NULL, "no markup of a value reaches the HTML");
	CHECK(strstr(html.data, "10.8 MW") == NULL, "a change written alike on both sides is left out");
	CHECK(strstr(html.data, "Compute cost: none \xe2\x86\x92 $52,885,434</li>") != NULL &&
	      strstr(html.data, "$52,885,434 (new column)") == NULL,
	      "a field changed and new on one date is told once");
	CHECK(strstr(html.data, "Last modified: 16 October 2025 (new column)") != NULL,
	      "a date-time is written as its day");
	CHECK(strstr(html.data, "<li>Renamed from Old &amp; &lt;i&gt; to X &lt;model&gt;.</li>") != NULL,
	      "a rename names both names, escaped");
	CHECK(strstr(html.data, "2.1 \xc3\x97 10\xc2\xb2\xe2\x81\xb5 FLOP \xe2\x86\x92 3 \xc3\x97 10"
			  "\xc2\xb2\xe2\x81\xb5 FLOP") != NULL, "compute is written in FLOP as on the page");
	CHECK(strstr(html.data, "in all&lt;ai&gt; could not be read") != NULL, "an export's name is escaped");
	CHECK(strstr(html.data, "<dt><a href=\"../../audit/2024-07-16.html\">16 July 2024</a></dt>") != NULL,
	      "a date links to its audit page");
	history = strstr(html.data, "<div class=\"history\">");
	spec = strstr(html.data, "<div class=\"spec\">");
	numbers = strstr(html.data, "<div class=\"numbers\">");
	CHECK(history && spec && numbers && spec < history && history < numbers,
	      "the section comes right after the specification");
	CHECK(strstr(text.data, "\nHistory\n") != NULL, "a model that changed has a History in its text page");
	CHECK(strstr(text.data, "\n16 July 2024\n- Citations: 3,280 \xe2\x86\x92 5,290\n") != NULL,
	      "the text page has a line per date and one per event");
	CHECK(strstr(text.data, "- Notes <b>: a<script>alert(1)</script>& \xe2\x86\x92 none\n") != NULL,
	      "the text page has the values as they are");
	sbuf_reset(&text);
	sbuf_reset(&html);
	render(&m, &life, "javascript:alert(1)//", &english, &text, &html);
	CHECK(strstr(html.data, "javascript") == NULL && strstr(html.data, "<dt>16 July 2024</dt>") != NULL,
	      "an unsafe audit root links nothing");
	sbuf_release(&text);
	sbuf_release(&html);
	life_release(&life);
	model_view_release(&m);
}

static void test_one_version(void)
{
	model_view m;
	timeline_model life;
	sbuf text, html, plain, plain_html;
	page_texts old;
	size_t i;

	model_make(&m);
	memset(&life, 0, sizeof(life));
	event(&life, "2025-05-06", TIMELINE_ADDED, "notable_ai_models", NULL, NULL, NULL);
	sbuf_init(&text);
	sbuf_init(&html);
	sbuf_init(&plain);
	sbuf_init(&plain_html);
	render(&m, &life, NULL, &english, &text, &html);
	render(&m, NULL, NULL, &english, &plain, &plain_html);
	CHECK_STR(text.data, plain.data, "one version: the text page is the page without a History");
	CHECK(strstr(html.data, "<dt>6 May 2025</dt><dd><ul style=\"margin:0;padding-left:1.1rem\">\n"
			  "<li>Added to the catalogue.</li>\n</ul></dd>\n</dl>") != NULL,
	      "its HTML page tells its addition alone, with no link");
	/* page texts stored before the section existed: no section at all */
	page_texts_init(&old, "en");
	for (i = 0; i < PT_COUNT; i++)
		if (english.text[i] && strncmp(page_text_key((page_text_id)i), "history.", 8))
			old.text[i] = strdup(english.text[i]);
	sbuf_reset(&html);
	sbuf_reset(&text);
	{
		page_texts keep = english;

		english = old;
		render(&m, &life, NULL, &english, &text, &html);
		english = keep;
	}
	CHECK_STR(html.data, plain_html.data, "texts without history.* entries: no History section");
	page_texts_release(&old);
	sbuf_release(&text);
	sbuf_release(&html);
	sbuf_release(&plain);
	sbuf_release(&plain_html);
	life_release(&life);
	model_view_release(&m);
}

int main(void)
{
	if (!CHECK(load_english() == 0, "the English catalogue loads"))
		return unit_done();
	test_changes();
	test_one_version();
	page_texts_release(&english);
	return unit_done();
}
