#include "publish/history_page.h"
#include "db/query.h"
#include "values/format.h"
#include "publish/template.h"
#include "base/textout.h"

#include <stdlib.h>
#include <string.h>

/* What a section is built with. */
typedef struct section {
	page blocks;                  /* the section's blocks, added to the page at the end */
	const timeline_model *life;   /* the model's life */
	const model_view *m;          /* the model */
	const char *audit_root;       /* where audit pages are, or NULL */
	const page_texts *texts;      /* the language */
	const page_texts *english;    /* the fallback */
	mc_err *err;                  /* where a failure goes */
} section;

/* Append text id filled in from pairs. 0, or -1 (err). */
static int expand(const section *s, page_text_id id, const char *const *pairs, sbuf *out)
{
	const char *t = page_text_of(s->texts, s->english, id);

	if (!t || page_text_expand(s->texts, s->english, id, template_pairs, (void *)pairs, out) < 0)
		return mc_error(s->err, "the text '%s' is missing or not a valid template "
				"(run modelcat translate)", page_text_key(id));
	return 0;
}

/* A value of a change as the page writes it, or the text for none. */
static int change_value(const section *s, const char *field, const char *value, sbuf *out)
{
	static const char *const none[] = { NULL };
	sbuf label;
	int rc;

	if (!value || !*value)
		return expand(s, PT_HISTORY_NONE, none, out);
	sbuf_init(&label);
	rc = page_field_value(field, value, s->m, s->texts, s->english, &label, out, s->err);
	sbuf_release(&label);
	return rc;
}

/* Did event i's field change in another export on its day too? (Each
 * export logs its own change, from its own value before: the sentence
 * then names the export.) */
static int changed_elsewhere(const timeline_model *life, size_t i)
{
	const timeline_event *e = &life->events[i];
	size_t k;

	if (e->kind != TIMELINE_CHANGED || !e->field)
		return 0;
	for (k = i; k > 0 && !strcmp(life->events[k - 1].date, e->date); k--)
		;
	for (; k < life->n && !strcmp(life->events[k].date, e->date); k++) {
		const timeline_event *o = &life->events[k];

		if (k != i && o->kind == TIMELINE_CHANGED && o->field && !strcmp(o->field, e->field) &&
		    o->export && e->export && strcmp(o->export, e->export))
			return 1;
	}
	return 0;
}

/* The sentence telling event e (the first event is the model's addition);
 * named: name its export in a change. *same: 1 when e is a change whose
 * old and new values are written alike (nothing to tell). value (reset)
 * gets the value the sentence tells of a field: the new one, or for a
 * column gone the old one. */
static int event_text(const section *s, const timeline_event *e, int first, int named,
		      sbuf *out, int *same, sbuf *value)
{
	static const page_text_id ids[] = {
		PT_HISTORY_ADDED_EXPORT, PT_HISTORY_RETURNED, PT_HISTORY_RENAMED,
		PT_HISTORY_CHANGED, PT_HISTORY_NEW_COLUMN, PT_HISTORY_COLUMN_REMOVED,
		PT_HISTORY_REMOVED, PT_HISTORY_HELD,
	};
	sbuf label, old, new, ignored;
	const char *pairs[9];
	int rc = 0;

	sbuf_init(&label);
	sbuf_init(&old);
	sbuf_init(&new);
	sbuf_init(&ignored);
	if (e->kind == TIMELINE_RENAMED) {
		format_fold(e->old ? e->old : "", &old);
		format_fold(e->new ? e->new : "", &new);
	} else if (e->field) {
		rc = page_field_value(e->field, NULL, s->m, s->texts, s->english, &label, &ignored,
				      s->err) ||
		     (e->kind != TIMELINE_NEW_COLUMN && change_value(s, e->field, e->old, &old)) ||
		     (e->kind != TIMELINE_COLUMN_REMOVED && change_value(s, e->field, e->new, &new));
	}
	*same = !rc && e->kind == TIMELINE_CHANGED && !first && old.len == new.len &&
		(!old.len || !strcmp(old.data, new.data));
	sbuf_reset(value);
	if (e->field && e->kind != TIMELINE_RENAMED)
		sbuf_adds(value, e->kind == TIMELINE_COLUMN_REMOVED ? (old.data ? old.data : "")
								  : (new.data ? new.data : ""));
	pairs[0] = "export";
	pairs[1] = e->export && (e->kind != TIMELINE_CHANGED || named) ? e->export : "";
	pairs[2] = "field";
	pairs[3] = label.data;
	pairs[4] = "old";
	pairs[5] = old.data;
	pairs[6] = "new";
	pairs[7] = new.data;
	pairs[8] = NULL;
	if (!rc)
		rc = expand(s, first ? PT_HISTORY_ADDED : ids[e->kind], pairs, out);
	sbuf_release(&label);
	sbuf_release(&old);
	sbuf_release(&new);
	sbuf_release(&ignored);
	return rc ? -1 : 0;
}

/* The start of one date's entry in HTML: the date, linked to its audit. */
static void html_date(const section *s, const char *date, const char *shown, sbuf *html)
{
	sbuf href;

	sbuf_init(&href);
	if (s->audit_root)
		sbuf_addf(&href, "%s%s.html", s->audit_root, date);
	sbuf_adds(html, "<dt>");
	if (href.len && page_safe_href(href.data)) {
		sbuf_adds(html, "<a href=\"");
		textout_html(html, href.data, href.len);
		sbuf_adds(html, "\">");
		textout_html(html, shown, strlen(shown));
		sbuf_adds(html, "</a>");
	} else {
		textout_html(html, shown, strlen(shown));
	}
	sbuf_adds(html, "</dt><dd><ul style=\"margin:0;padding-left:1.1rem\">\n");
	sbuf_release(&href);
}

/* One entry of a date: the field it tells (NULL: not a field's), its
 * sentence, and the values its sentences tell, each ended by a NUL. */
typedef struct entry {
	const char *field;
	sbuf line;
	sbuf values;
} entry;

/* Does entry e already tell value? */
static int entry_tells(const entry *e, const sbuf *value)
{
	size_t at = 0;

	while (at < e->values.len) {
		const char *told = e->values.data + at;
		size_t len = strlen(told);

		if (len == value->len && !memcmp(told, value->data, len))
			return 1;
		at += len + 1;
	}
	return 0;
}

static void entry_release(entry *e)
{
	sbuf_release(&e->line);
	sbuf_release(&e->values);
}

/* The entry of the date's entries[0..n) that tells field, or NULL. */
static entry *entry_of(entry *entries, size_t n, const char *field)
{
	size_t k;

	for (k = 0; field && k < n; k++)
		if (entries[k].field && !strcmp(entries[k].field, field))
			return &entries[k];
	return NULL;
}

/* The entries of the date of events [from, to): one per field (a second
 * event of a field already told on the date — another export's change, a
 * column new in one export — joins its entry after "; ", or is left out
 * when the entry already holds its sentence's value), none for a change
 * whose values are written alike. *n entries; 0 or -1. */
static int date_entries(const section *s, size_t from, size_t to, entry *entries, size_t *n)
{
	const timeline_event *ev = s->life->events;
	size_t i;
	sbuf line, value;
	int same, rc = 0;

	*n = 0;
	sbuf_init(&line);
	sbuf_init(&value);
	for (i = from; !rc && i < to; i++) {
		const timeline_event *e = &ev[i];
		const char *field = e->kind == TIMELINE_RENAMED ? NULL : e->field;
		entry *told = entry_of(entries, *n, field);

		sbuf_reset(&line);
		rc = event_text(s, e, i == 0, changed_elsewhere(s->life, i), &line, &same, &value);
		if (rc || same)
			continue;
		/* a column new or gone in one export, its value told already */
		if (told && e->kind != TIMELINE_CHANGED && value.len && entry_tells(told, &value))
			continue;
		if (told) {
			sbuf_adds(&told->line, "; ");
		} else {
			told = &entries[(*n)++];
			told->field = field;
			sbuf_init(&told->line);
			sbuf_init(&told->values);
		}
		sbuf_add(&told->line, line.data, line.len);
		sbuf_add(&told->values, value.data ? value.data : "", value.len);
		sbuf_addc(&told->values, '\0');
	}
	sbuf_release(&line);
	sbuf_release(&value);
	return rc;
}

/* One date's part of the HTML list, kept until the fold is known. */
typedef struct dated {
	sbuf shown;       /* the date as the page writes it */
	sbuf html;        /* its <dt> and <dd> */
	size_t entries;   /* how many entries it tells */
} dated;

/* The latest dates History shows; the earlier ones are folded. */
#define HISTORY_SHOWN 3

/* The summary of the fold of dates d[0..n): "Earlier changes (N): FIRST
 * to LAST" (history.earlier; the last left out when n is 1). 0 or -1. */
static int fold_summary(const section *s, const dated *d, size_t n, sbuf *out)
{
	const char *pairs[7];
	format_lang lang;
	sbuf count;
	size_t k, entries = 0;
	int rc;

	for (k = 0; k < n; k++)
		entries += d[k].entries;
	sbuf_init(&count);
	page_format_lang(s->texts, s->english, &lang);
	format_number(&lang, (double)entries, &count);
	pairs[0] = "count";
	pairs[1] = count.data;
	pairs[2] = "from";
	pairs[3] = d[0].shown.data;
	pairs[4] = "to";
	pairs[5] = n > 1 ? d[n - 1].shown.data : "";
	pairs[6] = NULL;
	rc = expand(s, PT_HISTORY_EARLIER, pairs, out);
	sbuf_release(&count);
	return rc;
}

/* The HTML list of dates d[0..n): the latest HISTORY_SHOWN dates in view,
 * oldest first, then the earlier ones, oldest first, folded in a
 * <details> under fold_summary(). 0 or -1. */
static int write_dates(const section *s, const dated *d, size_t n, sbuf *html)
{
	size_t folded = n > HISTORY_SHOWN ? n - HISTORY_SHOWN : 0, k;
	sbuf summary;
	int rc = 0;

	sbuf_init(&summary);
	sbuf_adds(html, "<dl class=\"history\">\n");
	for (k = folded; k < n; k++)
		sbuf_add(html, d[k].html.data, d[k].html.len);
	sbuf_adds(html, "</dl>\n");
	if (folded && !(rc = fold_summary(s, d, folded, &summary))) {
		sbuf_adds(html, "<details class=\"history-earlier\"><summary>");
		textout_html(html, summary.data, summary.len);
		sbuf_adds(html, "</summary>\n<dl class=\"history\">\n");
		for (k = 0; k < folded; k++)
			sbuf_add(html, d[k].html.data, d[k].html.len);
		sbuf_adds(html, "</dl></details>\n");
	}
	sbuf_release(&summary);
	return rc;
}

/* The entries of a date into its HTML, and (with text) the text page's
 * "- " lines; each entry released. */
static void write_entries(section *s, int text, entry *entries, size_t n, sbuf *html)
{
	size_t k;

	for (k = 0; k < n; k++) {
		sbuf_adds(html, "<li");
		if (entries[k].field) {
			/* the field the entry tells: the hook of docs/pages.md */
			sbuf_adds(html, " data-field=\"");
			textout_html(html, entries[k].field, strlen(entries[k].field));
			sbuf_adds(html, "\"");
		}
		sbuf_adds(html, ">");
		textout_html(html, entries[k].line.data, entries[k].line.len);
		sbuf_adds(html, "</li>\n");
		if (text)
			page_add(&s->blocks, PAGE_LINK, 0, NULL, entries[k].line.data)->text_only = 1;
		entry_release(&entries[k]);
	}
	sbuf_adds(html, "</ul></dd>\n");
}

/* Every date and its events: in HTML the lists of write_dates() (html),
 * in the text page (with text) a line per date and a "- " line per entry,
 * every date in view. 0 or -1. */
static int add_dates(section *s, int text, sbuf *html)
{
	size_t i = 0, j, k, n = 0, nd = 0;
	entry *entries = xcalloc(s->life->n + 1, sizeof(*entries));
	dated *d = xcalloc(s->life->n + 1, sizeof(*d));
	int rc = 0;

	for (; !rc && i < s->life->n; i = j) {
		const char *date = s->life->events[i].date;
		dated *at = &d[nd];

		for (j = i; j < s->life->n && !strcmp(s->life->events[j].date, date); j++)
			;
		sbuf_init(&at->shown);
		sbuf_init(&at->html);
		nd++;
		n = 0;
		if (page_date(date, 0, s->texts, s->english, &at->shown, s->err) < 0 ||
		    date_entries(s, i, j, entries, &n)) {
			rc = -1;
			for (k = 0; k < n; k++)
				entry_release(&entries[k]);
			break;
		}
		if (!n) {
			sbuf_release(&at->shown);
			sbuf_release(&at->html);
			nd--;
			continue;
		}
		if (!at->shown.len)
			sbuf_adds(&at->shown, date);
		at->entries = n;
		html_date(s, date, at->shown.data, &at->html);
		if (text)
			page_add(&s->blocks, PAGE_PARAGRAPH, 0, NULL, at->shown.data)->text_only = 1;
		write_entries(s, text, entries, n, &at->html);
	}
	if (!rc)
		rc = write_dates(s, d, nd, html);
	for (k = 0; k < nd; k++) {
		sbuf_release(&d[k].shown);
		sbuf_release(&d[k].html);
	}
	free(d);
	free(entries);
	return rc;
}

/* Where the section goes: right after the specification part. */
static size_t insert_at(const page *p)
{
	size_t i;
	int depth = 0, inside = 0;

	for (i = 0; i < p->n; i++) {
		const page_block *b = &p->blocks[i];

		if (b->kind == PAGE_OPEN && !inside && b->role && !strcmp(b->role, "spec")) {
			inside = 1;
			depth = 0;
		}
		if (!inside)
			continue;
		if (b->kind == PAGE_OPEN)
			depth++;
		else if (b->kind == PAGE_CLOSE && --depth == 0)
			return i + 1;
	}
	return p->n;
}

/* Move the section's blocks into p at insert_at(p). */
static void insert(page *p, section *s)
{
	size_t at = insert_at(p);

	page_grow(p, s->blocks.n);
	memmove(&p->blocks[at + s->blocks.n], &p->blocks[at], (p->n - at) * sizeof(*p->blocks));
	memcpy(&p->blocks[at], s->blocks.blocks, s->blocks.n * sizeof(*p->blocks));
	p->n += s->blocks.n;
	free(s->blocks.blocks);
	s->blocks.blocks = NULL;
	s->blocks.n = s->blocks.cap = 0;
	strpool_adopt(&p->texts, &s->blocks.texts);
}

int history_page_add(page *p, const timeline_model *life, const model_view *m,
		     const char *audit_root, const page_texts *texts, const page_texts *english,
		     mc_err *err)
{
	static const char *const none[] = { NULL };
	section s;
	sbuf t, html;
	int text, rc = -1;

	if (!life || !life->n || !english->text[PT_HISTORY_HEADING])
		return 0;
	memset(&s, 0, sizeof(s));
	page_init(&s.blocks, p->lang);
	s.life = life;
	s.m = m;
	s.audit_root = audit_root;
	s.texts = texts;
	s.english = english;
	s.err = err;
	text = life->n > 1;
	sbuf_init(&t);
	sbuf_init(&html);
	page_add(&s.blocks, PAGE_OPEN, 0, "history", NULL);
	if (expand(&s, PT_HISTORY_HEADING, none, &t))
		goto out;
	page_add(&s.blocks, PAGE_HEADING, 2, NULL, t.data)->html_only = !text;
	sbuf_reset(&t);
	if (expand(&s, PT_HISTORY_INTRO, none, &t))
		goto out;
	page_add(&s.blocks, PAGE_PARAGRAPH, 0, "intro", t.data)->html_only = !text;
	if (add_dates(&s, text, &html))
		goto out;
	page_add(&s.blocks, PAGE_RAW, 0, NULL, html.data);
	page_add(&s.blocks, PAGE_CLOSE, 0, NULL, NULL);
	insert(p, &s);
	rc = 0;
out:
	page_release(&s.blocks);
	sbuf_release(&t);
	sbuf_release(&html);
	return rc;
}
