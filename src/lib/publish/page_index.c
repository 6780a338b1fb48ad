#include "publish/page_internal.h"
#include "publish/page.h"
#include "publish/indextable.h"
#include "values/format.h"

#include <stdlib.h>
#include <string.h>

/* ---- the index pages, and a page of raw HTML ---- */

/* The words of the index table and the strings they point to. */
typedef struct index_words {
	index_table_words w;         /* what the table writer reads */
	char *owned[INDEX_COLUMNS + 12]; /* the strings of w */
	size_t n;                    /* entries of owned used */
} index_words;

/* Text id expanded from pairs (NULL: the page's placeholders), kept in
 * words; returns it. */
static const char *index_word(builder *b, index_words *words, page_text_id id,
			      const char *const *pairs)
{
	sbuf s;

	sbuf_init(&s);
	if (pairs)
		page_builder_expand_values(b, id, pairs, &s);
	else
		page_builder_expand(b, id, &s);
	return words->owned[words->n++] = sbuf_detach(&s, NULL);
}

/* Every text the index table uses (w.shown keeps its placeholders for
 * the script); free with index_words_release. */
static void index_words_init(builder *b, index_words *words)
{
	static const char *const keep[] = { "shown", "{shown}", "count", "{count}", NULL };
	static const page_text_id columns[INDEX_COLUMNS] = {
		PT_INDEX_COLUMN_NAME, PT_LABEL_ORGANISATION, PT_LABEL_PUBLISHED, PT_LABEL_PARAMETERS,
		PT_LABEL_TRAINING_COMPUTE, PT_LABEL_WEIGHTS, PT_LABEL_LAST_UPDATED,
	};
	index_table_words *w = &words->w;
	size_t i;

	memset(words, 0, sizeof(*words));
	for (i = 0; i < INDEX_COLUMNS; i++)
		w->columns[i] = index_word(b, words, columns[i], NULL);
	w->caption = index_word(b, words, PT_INDEX_TITLE, NULL);
	w->filters = index_word(b, words, PT_INDEX_FILTERS, NULL);
	w->search = index_word(b, words, PT_INDEX_SEARCH, NULL);
	w->domain = index_word(b, words, PT_LABEL_DOMAIN, NULL);
	w->year = index_word(b, words, PT_INDEX_YEAR, NULL);
	w->any = index_word(b, words, PT_INDEX_ANY, NULL);
	w->open = index_word(b, words, PT_INDEX_OPEN, NULL);
	w->closed = index_word(b, words, PT_INDEX_CLOSED, NULL);
	w->unknown = index_word(b, words, PT_INDEX_UNKNOWN, NULL);
	w->reset = index_word(b, words, PT_INDEX_RESET, NULL);
	w->shown = index_word(b, words, PT_INDEX_SHOWN, keep);
	w->all = index_word(b, words, PT_INDEX_ALL_LINK, NULL);
	w->lang = &b->lang;
}

static void index_words_release(index_words *words)
{
	size_t i;

	for (i = 0; i < words->n; i++)
		free(words->owned[i]);
	memset(words, 0, sizeof(*words));
}

/* A stored date as the page writes it ("" when there is none), new. */
static char *date_text(builder *b, const char *iso)
{
	sbuf s;

	sbuf_init(&s);
	if (iso && *iso && !page_builder_add_date(b, iso, 0, &s))
		sbuf_adds(&s, iso);
	return sbuf_detach(&s, NULL);
}

/* The HTML index: the table of the entries (indextable.h), one raw block;
 * with rest_js and rest_table, index_table_rest's to them. */
static void add_index_table(builder *b, const page_index_entry *entries, size_t n,
			    sbuf *rest_js, sbuf *rest_table)
{
	index_table_row *rows = xcalloc(n + 1, sizeof(*rows));
	index_words words;
	char **texts = xcalloc(2 * n + 1, sizeof(*texts));
	sbuf html;
	size_t i;

	for (i = 0; i < n; i++) {
		const page_index_entry *e = &entries[i];

		rows[i].name = e->name;
		rows[i].file = page_safe_href(e->file) ? e->file : NULL;
		rows[i].organisation = e->organisation;
		rows[i].domain = e->domain;
		rows[i].formerly = e->formerly;
		rows[i].published = e->published;
		rows[i].published_text = texts[2 * i] = date_text(b, e->published);
		rows[i].parameters = e->parameters;
		rows[i].compute = e->compute;
		rows[i].open_weights = e->open_weights;
		rows[i].updated = e->last_updated;
		rows[i].updated_text = texts[2 * i + 1] = date_text(b, e->last_updated);
	}
	index_table_sort(rows, n);
	index_words_init(b, &words);
	sbuf_init(&html);
	index_table_html(rows, n, &words.w, PAGE_INDEX_ROWS, PAGE_INDEX_ALL ".html", &html);
	if (rest_js && rest_table)
		index_table_rest(rows, n, &words.w, rest_table, rest_js);
	page_builder_add_block(b, PAGE_RAW, 0, NULL, html.data)->html_only = 1;
	sbuf_release(&html);
	index_words_release(&words);
	mc_free_strings(texts, 2 * n);
	free(rows);
	b->p->style = index_table_style;
}

int page_build_index(page *p, const page_index_entry *entries, size_t n, const char *date,
		     const char *table, sbuf *rest_js, sbuf *rest_table, const page_texts *texts,
		     const page_texts *english, mc_err *err)
{
	model_view none;
	builder b;
	sbuf s;
	size_t i;

	memset(&none, 0, sizeof(none));
	page_builder_init(&b, p, &none, texts, english, err);
	sbuf_init(&s);
	format_number(&b.lang, (double)n, &s);
	page_builder_vars_set(&b.page_vars, "count", s.data);
	sbuf_reset(&s);
	if (page_builder_add_date(&b, date, 0, &s))
		page_builder_vars_set(&b.page_vars, "date", s.data);
	sbuf_reset(&s);
	page_builder_expand(&b, table ? PT_INDEX_ALL_TITLE : PT_INDEX_TITLE, &s);
	page_builder_add_block(&b, PAGE_TITLE, 1, NULL, s.data);
	page_builder_set_description(&b, PT_META_INDEX);
	page_builder_add_text(&b, PAGE_PARAGRAPH, 0, "intro", PT_INDEX_INTRO);
	/* the charts of the entries, between the intro and the table */
	if (p->charts && !table)
		page_builder_add_block(&b, PAGE_RAW, 0, NULL, p->charts);
	page_builder_add_block(&b, PAGE_OPEN, 0, "index", NULL);
	if (table) {
		page_block *raw = page_builder_add_block(&b, PAGE_RAW, 0, NULL,
							 table == PAGE_INDEX_HOLE ? "" : table);

		raw->html_only = 1;
		raw->hole = table == PAGE_INDEX_HOLE;
		p->style = index_table_style;
	} else {
		add_index_table(&b, entries, n, rest_js, rest_table);
	}
	/* (the page of every row has no text page) */
	for (i = 0; !table && i < n; i++)
		page_builder_add_block(&b, PAGE_LINK, 0, NULL, entries[i].name)->text_only = 1;
	page_builder_add_block(&b, PAGE_CLOSE, 0, NULL, NULL);
	sbuf_release(&s);
	return page_builder_finish(&b);
}

void page_build_raw(page *p, const char *title, const char *html)
{
	builder b;
	model_view none;

	memset(&none, 0, sizeof(none));
	page_builder_init(&b, p, &none, NULL, NULL, NULL);
	page_builder_add_block(&b, PAGE_TITLE, 1, NULL, title);
	page_builder_add_block(&b, PAGE_RAW, 0, NULL, html ? html : "");
	free(p->description);
	p->description = xstrdup(title);
	page_builder_finish(&b);
}
