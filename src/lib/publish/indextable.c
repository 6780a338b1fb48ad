#include "publish/indextable.h"
#include "values/format.h"
#include "base/textout.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Each column's key (in data-key, and in the URL's sort=) and the kind of
 * its sort key: "text" (the cell's text), "date" (data-v, ISO), "num"
 * (data-v, a number). */
static const struct {
	const char *key;
	const char *type;
} columns[INDEX_COLUMNS] = {
	{ "name", "text" }, { "org", "text" }, { "published", "date" }, { "params", "num" },
	{ "compute", "num" }, { "weights", "text" }, { "updated", "date" },
};

static int has(const char *s)
{
	return s && *s;
}

static void html_text(sbuf *out, const char *s)
{
	if (s)
		textout_html(out, s, strlen(s));
}

/* ---- order ---- */

static int row_compare(const void *a, const void *b)
{
	const index_table_row *x = a, *y = b;
	int c;

	if (has(x->published) != has(y->published))
		return has(x->published) ? -1 : 1;
	if (has(x->published) && (c = strcmp(y->published, x->published)) != 0)
		return c;   /* newest first; "2023" before "2023-01-01" is as good as any */
	return strcmp(x->name ? x->name : "", y->name ? y->name : "");
}

void index_table_sort(index_table_row *rows, size_t n)
{
	if (n > 1)
		qsort(rows, n, sizeof(*rows), row_compare);
}

/* ---- the options of the filters ---- */

/* The distinct items of lists ("A,B", trimmed, non-empty), sorted. */
typedef struct item_set {
	char **items;                /* owned */
	size_t n;                    /* entries used */
	size_t cap;                  /* entries allocated */
} item_set;

static void item_set_add(item_set *set, const char *s, size_t len)
{
	while (len && (*s == ' ' || *s == '\t')) {
		s++;
		len--;
	}
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t'))
		len--;
	if (!len)
		return;
	if (set->n == set->cap) {
		set->cap = set->cap ? set->cap * 2 : 64;
		set->items = xrealloc(set->items, set->cap * sizeof(*set->items));
	}
	set->items[set->n] = xmalloc(len + 1);
	memcpy(set->items[set->n], s, len);
	set->items[set->n][len] = '\0';
	set->n++;
}

static void item_set_add_list(item_set *set, const char *list)
{
	while (list && *list) {
		const char *comma = strchr(list, ',');
		size_t len = comma ? (size_t)(comma - list) : strlen(list);

		item_set_add(set, list, len);
		list += len + (comma ? 1 : 0);
	}
}

static int string_compare(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sort the items, repeats removed; reverse: largest first. */
static void item_set_finish(item_set *set, int reverse)
{
	size_t i, kept = 0;

	if (set->n)
		qsort(set->items, set->n, sizeof(*set->items), string_compare);
	for (i = 0; i < set->n; i++) {
		if (kept && !strcmp(set->items[kept - 1], set->items[i]))
			free(set->items[i]);
		else
			set->items[kept++] = set->items[i];
	}
	set->n = kept;
	for (i = 0; reverse && i < kept / 2; i++) {
		char *t = set->items[i];

		set->items[i] = set->items[kept - 1 - i];
		set->items[kept - 1 - i] = t;
	}
}

static void item_set_release(item_set *set)
{
	size_t i;

	for (i = 0; i < set->n; i++)
		free(set->items[i]);
	free(set->items);
	memset(set, 0, sizeof(*set));
}

/* The year of a stored date ("2023" of "2023-03-14"), or 0 chars. */
static size_t year_length(const char *date)
{
	size_t i;

	if (!date)
		return 0;
	for (i = 0; i < 4; i++)
		if (date[i] < '0' || date[i] > '9')
			return 0;
	return 4;
}

/* ---- the controls ---- */

static void control_open(sbuf *out, const char *name, const char *label, const char *tag)
{
	sbuf_addf(out, "<div><label for=\"f-%s\">", name);
	html_text(out, label);
	sbuf_addf(out, "</label><%s id=\"f-%s\" name=\"%s\"", tag, name, name);
}

static void option(sbuf *out, const char *value, const char *text)
{
	sbuf_adds(out, "<option");
	if (value) {
		sbuf_adds(out, " value=\"");
		html_text(out, value);
		sbuf_adds(out, "\"");
	}
	sbuf_adds(out, ">");
	html_text(out, text);
	sbuf_adds(out, "</option>");
}

static void select_items(sbuf *out, const char *name, const char *label, const item_set *set,
			 const char *any)
{
	size_t i;

	control_open(out, name, label, "select");
	sbuf_adds(out, ">");
	option(out, "", any);
	for (i = 0; i < set->n; i++)
		option(out, NULL, set->items[i]);
	sbuf_adds(out, "</select></div>\n");
}

static void controls(const index_table_row *rows, size_t n, const index_table_words *w,
		     sbuf *out)
{
	item_set orgs = { NULL, 0, 0 }, domains = { NULL, 0, 0 }, years = { NULL, 0, 0 };
	size_t i;

	for (i = 0; i < n; i++) {
		item_set_add_list(&orgs, rows[i].organisation);
		item_set_add_list(&domains, rows[i].domain);
		item_set_add(&years, rows[i].published, year_length(rows[i].published));
	}
	item_set_finish(&orgs, 0);
	item_set_finish(&domains, 0);
	item_set_finish(&years, 1);
	sbuf_adds(out, "<form class=\"filters\" id=\"filters\" hidden aria-label=\"");
	html_text(out, w->filters);
	sbuf_adds(out, "\">\n");
	control_open(out, "q", w->search, "input");
	sbuf_adds(out, " type=\"search\"></div>\n");
	/* the organisations (a thousand and more) not as options but as a
	 * list the script makes them from when the select is first used: a
	 * select measures every option it holds to size itself, some 60 ms
	 * of the index's loading. No name holds a comma (the lists are split
	 * on commas). */
	control_open(out, "org", w->columns[INDEX_COL_ORGANISATION], "select");
	sbuf_adds(out, " data-options=\"");
	for (i = 0; i < orgs.n; i++) {
		if (i)
			sbuf_adds(out, ",");
		html_text(out, orgs.items[i]);
	}
	sbuf_adds(out, "\">");
	option(out, "", w->any);
	sbuf_adds(out, "</select></div>\n");
	select_items(out, "domain", w->domain, &domains, w->any);
	control_open(out, "weights", w->columns[INDEX_COL_WEIGHTS], "select");
	sbuf_adds(out, ">");
	option(out, "", w->any);
	option(out, "open", w->open);
	option(out, "closed", w->closed);
	sbuf_adds(out, "</select></div>\n");
	select_items(out, "year", w->year, &years, w->any);
	sbuf_adds(out, "<div><button type=\"reset\">");
	html_text(out, w->reset);
	sbuf_adds(out, "</button></div>\n</form>\n");
	item_set_release(&orgs);
	item_set_release(&domains);
	item_set_release(&years);
}

/* ---- the table ---- */

/* A cell with its sort key (data-v, left out when NULL) and text. */
static void cell(sbuf *out, const char *key, const char *text)
{
	sbuf_adds(out, "<div role=\"cell\"");
	if (has(key)) {
		sbuf_adds(out, " data-v=\"");
		html_text(out, key);
		sbuf_adds(out, "\"");
	}
	sbuf_adds(out, ">");
	html_text(out, text);
	sbuf_adds(out, "</div>");
}

/* The cell of an unknown value that says so: the script sorts it last. */
static void cell_unknown(sbuf *out, const char *text)
{
	sbuf_adds(out, "<div role=\"cell\" data-u=\"\">");
	html_text(out, text);
	sbuf_adds(out, "</div>");
}

/* A number's cell: its plain notation as the key, written by format. */
static void number_cell(sbuf *out, double x, const format_lang *l,
			void (*format)(const format_lang *, double, sbuf *), sbuf *scratch)
{
	char key[40];

	if (isnan(x)) {
		sbuf_adds(out, "<div role=\"cell\"></div>");
		return;
	}
	mc_fmt(key, sizeof(key), "%.15g", x);
	sbuf_reset(scratch);
	format(l ? l : format_lang_of("en"), x, scratch);
	cell(out, key, scratch->data);
}

static void format_flop(const format_lang *l, double x, sbuf *out)
{
	format_power_of_ten(l, x, out);
	sbuf_adds(out, " FLOP");
}

/* The organisations as the table shows them: "A, B", repeats removed. */
static void organisations(sbuf *out, const char *list, sbuf *scratch)
{
	const char *p;

	sbuf_reset(scratch);
	if (list)
		format_list_unique(list, scratch);
	sbuf_adds(out, "<div role=\"cell\">");
	for (p = scratch->len ? scratch->data : ""; *p;) {
		size_t len = strcspn(p, ",");

		textout_html(out, p, len);
		p += len;
		if (*p == ',') {
			sbuf_adds(out, ", ");
			p++;
		}
	}
	sbuf_adds(out, "</div>");
}

/* The weights cell's words: open, closed, or that it is not known. */
static const char *weights_text(const index_table_row *r, const index_table_words *w)
{
	return r->open_weights == 1 ? w->open : r->open_weights == 0 ? w->closed : w->unknown;
}

static void row_html(sbuf *out, const index_table_row *r, const index_table_words *w,
		     sbuf *scratch)
{
	const char *weights = r->open_weights == 1 ? "open" : r->open_weights == 0 ? "closed" : "";

	sbuf_adds(out, "<div role=\"row\"");
	if (has(r->domain)) {
		sbuf_adds(out, " data-d=\"");
		html_text(out, r->domain);
		sbuf_adds(out, "\"");
	}
	if (has(r->formerly)) {
		sbuf_adds(out, " data-f=\"");
		html_text(out, r->formerly);
		sbuf_adds(out, "\"");
	}
	if (*weights)
		sbuf_addf(out, " data-w=\"%s\"", weights);
	sbuf_adds(out, "><div role=\"rowheader\">");
	if (has(r->file)) {
		sbuf_adds(out, "<a href=\"");
		html_text(out, r->file);
		sbuf_adds(out, "\">");
		html_text(out, r->name);
		sbuf_adds(out, "</a>");
	} else {
		html_text(out, r->name);
	}
	sbuf_adds(out, "</div>");
	organisations(out, r->organisation, scratch);
	cell(out, r->published, r->published_text);
	number_cell(out, r->parameters, w->lang, format_count, scratch);
	number_cell(out, r->compute, w->lang, format_flop, scratch);
	if (r->open_weights == 1 || r->open_weights == 0)
		cell(out, NULL, weights_text(r, w));
	else    /* said, but sorted as unknown (data-u: no key) */
		cell_unknown(out, weights_text(r, w));
	cell(out, r->updated, r->updated_text);
	sbuf_adds(out, "</div>\n");
}

/* ---- a chunk's height before the browser lays it out ---- */

/* The lines text takes when wrapped at words (a space, or after a comma)
 * into lines of cap characters, a longer word broken anywhere; widths in
 * tenths of a character, a capital letter 13 (wider than most). */
static size_t wrapped_lines(const char *s, size_t cap)
{
	size_t lines = 1, used = 0;

	cap *= 10;
	while (s && *s) {
		size_t len = 0;

		while (*s == ' ')
			s++;
		for (; *s && *s != ' ' && *s != ','; s++)
			if ((*s & 0xC0) != 0x80)   /* characters, not bytes */
				len += *s >= 'A' && *s <= 'Z' ? 13 : 10;
		if (*s == ',') {
			len += 20;   /* ", " as the table writes it */
			s++;
		}
		if (!len)
			continue;
		if (used && used + 10 + len > cap) {
			lines++;
			used = 0;
		}
		used += len + (used ? 10 : 0);
		for (; used > cap; used -= cap)
			lines++;
	}
	return lines;
}

/* The height of rows [from, to) in hundredths of a rem, as the narrowest
 * table (60rem) lays them out, rounded up: the name and organisation
 * columns hold about 13 characters a line, the dates' 15, the weights'
 * 9 (a generous width per character: "not recorded" and "niet
 * vastgelegd" take two lines there), a line is 1.38rem, a row's padding
 * and border .77rem. The
 * chunk's placeholder is this high until the browser has laid it out:
 * not less, so rows of a chunk laid out for a query off screen never
 * overlap the next chunk's. */
static size_t chunk_height(const index_table_row *rows, size_t from, size_t to,
			   const index_table_words *w)
{
	size_t i, sum = 0;

	for (i = from; i < to; i++) {
		size_t lines = wrapped_lines(rows[i].name, 13);
		size_t org = wrapped_lines(rows[i].organisation, 13);
		size_t published = wrapped_lines(rows[i].published_text, 15);
		size_t updated = wrapped_lines(rows[i].updated_text, 15);
		size_t weights = wrapped_lines(weights_text(&rows[i], w), 9);

		lines = org > lines ? org : lines;
		lines = published > lines ? published : lines;
		lines = weights > lines ? weights : lines;
		sum += (updated > lines ? updated : lines) * 138 + 77;
	}
	return sum;
}

static void table_head(sbuf *out, const index_table_words *w)
{
	size_t i;

	sbuf_adds(out, "<div role=\"rowgroup\" class=\"mh\"><div role=\"row\">");
	for (i = 0; i < INDEX_COLUMNS; i++) {
		sbuf_addf(out, "<div role=\"columnheader\" data-key=\"%s\" data-type=\"%s\"%s>",
			  columns[i].key, columns[i].type,
			  i == INDEX_COL_PUBLISHED ? " aria-sort=\"descending\"" : "");
		html_text(out, w->columns[i]);
		sbuf_adds(out, "</div>");
	}
	sbuf_adds(out, "</div></div>\n");
}

/* The chunk of rows [from, to): its height in rem until the browser lays
 * it out (chunk_height, rounded up), and its rows' HTML to html. */
static size_t chunk_rows(sbuf *html, const index_table_row *rows, size_t from, size_t to,
			 const index_table_words *w, sbuf *scratch)
{
	size_t i;

	for (i = from; i < to; i++)
		row_html(html, &rows[i], w, scratch);
	return (chunk_height(rows, from, to, w) + 99) / 100;
}

/* The chunks of rows [0, n) as row groups the browser lays out only near
 * the screen (content-visibility in index_table_style), each with its
 * height until then; with js, those after the first eager rows also as
 * index_table_rest's JavaScript. Each chunk's rows are made once. */
static void chunks_html(sbuf *out, sbuf *js, const index_table_row *rows, size_t n,
			size_t eager, const index_table_words *w)
{
	sbuf scratch, html;
	size_t i, end, height;

	sbuf_init(&scratch);
	sbuf_init(&html);
	for (i = 0; i < n; i = end) {
		end = n - i < INDEX_TABLE_CHUNK ? n : i + INDEX_TABLE_CHUNK;
		sbuf_reset(&html);
		height = chunk_rows(&html, rows, i, end, w, &scratch);
		sbuf_addf(out, "<div role=\"rowgroup\" class=\"c\" "
			  "style=\"contain-intrinsic-size:auto none auto %zurem\">\n", height);
		sbuf_add(out, html.data, html.len);
		sbuf_adds(out, "</div>\n");
		if (js && i >= eager) {
			sbuf_addf(js, "%s\n[%zu, ", i == eager ? "" : ",", height);
			textout_json_string(js, html.data, html.len);
			sbuf_adds(js, "]");
		}
	}
	sbuf_release(&html);
	sbuf_release(&scratch);
}

/* The table's start: its region, the table and its header row; attrs
 * (or NULL) are more attributes of the table, written as they are. */
static void table_open(sbuf *out, const index_table_words *w, const char *attrs)
{
	sbuf_adds(out, "<div class=\"table\" role=\"region\" tabindex=\"0\" aria-label=\"");
	html_text(out, w->caption);
	sbuf_adds(out, "\">\n<div class=\"models\" id=\"models\" role=\"table\" aria-label=\"");
	html_text(out, w->caption);
	sbuf_adds(out, "\"");
	if (attrs)
		sbuf_adds(out, attrs);
	sbuf_adds(out, ">\n");
	table_head(out, w);
}

/* The rows the index page itself holds. */
static size_t eager_rows(size_t n)
{
	return n < INDEX_TABLE_EAGER * INDEX_TABLE_CHUNK ? n : INDEX_TABLE_EAGER * INDEX_TABLE_CHUNK;
}

void index_table_html(const index_table_row *rows, size_t n, const index_table_words *w,
		      const char *rows_file, const char *all_file, sbuf *out)
{
	sbuf attrs;
	size_t eager = eager_rows(n);

	sbuf_init(&attrs);
	controls(rows, n, w, out);
	sbuf_adds(out, "<p class=\"shown\" id=\"shown\" role=\"status\" aria-live=\"polite\"></p>\n");
	sbuf_adds(&attrs, " data-shown=\"");
	html_text(&attrs, w->shown);
	sbuf_addf(&attrs, "\" data-count=\"%zu\"", n);
	/* the rest of the rows come from rows_file (index_table_rest) */
	if (eager < n) {
		sbuf_adds(&attrs, " data-rows=\"");
		html_text(&attrs, rows_file);
		sbuf_adds(&attrs, "\"");
	}
	table_open(out, w, attrs.data);
	chunks_html(out, NULL, rows, eager, eager, w);
	sbuf_adds(out, "</div>\n</div>\n<p class=\"all\"><a href=\"");
	html_text(out, all_file);
	sbuf_adds(out, "\">");
	html_text(out, w->all);
	sbuf_adds(out, "</a></p>\n<script>\n");
	sbuf_adds(out, index_table_script);
	sbuf_adds(out, "</script>\n");
	sbuf_release(&attrs);
}

void index_table_rest(const index_table_row *rows, size_t n, const index_table_words *w,
		      sbuf *all, sbuf *js)
{
	table_open(all, w, NULL);
	sbuf_addf(js, "modelcatRows(%zu, [", n);
	chunks_html(all, js, rows, n, eager_rows(n), w);
	sbuf_adds(all, "</div>\n</div>\n");
	sbuf_adds(js, "\n]);\n");
}
