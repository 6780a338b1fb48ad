#include "publish/page_internal.h"
#include "publish/page.h"
#include "values/format.h"
#include "values/value.h"

#include <stdlib.h>
#include <string.h>

/* name's value (an empty or missing one is no value) as it is, kept by
 * the caller while v is used. */
static void vars_borrow(vars *v, const char *name, const char *value)
{
	if (!value || !*value || v->n == VARS_MAX)
		return;
	v->name[v->n] = name;
	v->value[v->n] = value;
	v->n++;
}

/* name's value, copied. */
void page_builder_vars_set(vars *v, const char *name, const char *value)
{
	if (value && *value && v->n < VARS_MAX)
		vars_borrow(v, name, strpool_dup(&v->copies, value));
}

static void vars_release(vars *v)
{
	strpool_release(&v->copies);
	v->n = 0;
}

static const char *vars_lookup(void *ctx, const char *name, size_t len)
{
	const vars *v = ctx;
	size_t i;

	/* (a name's bytes compared only while they match: no strlen() of
	   each name at each placeholder) */
	for (i = 0; i < v->n; i++)
		if (!strncmp(v->name[i], name, len) && !v->name[i][len])
			return v->value[i];
	return NULL;
}

/* The template of a text: the language's, else English. */
const char *page_builder_text(builder *b, page_text_id id)
{
	const char *t = page_text_of(b->texts, b->english, id);

	if (t)
		return t;
	if (!b->failed)
		mc_error(b->err, "no text for '%s' in language %s or in English "
			 "(run modelcat translate)", page_text_key(id),
			 b->texts ? b->texts->lang : "?");
	b->failed = 1;
	return "";
}

/* Append text id filled in from v: 0, or 1 when a required value is
 * missing (nothing appended). */
static int expand_with(builder *b, page_text_id id, vars *v, sbuf *out)
{
	int rc;

	page_builder_text(b, id);   /* (says when there is none) */
	rc = page_text_expand(b->texts, b->english, id, vars_lookup, v, out);

	if (rc < 0) {
		if (!b->failed)
			mc_error(b->err, "the text '%s' is not a valid template",
				 page_text_key(id));
		b->failed = 1;
		return 1;
	}
	return rc;
}

int page_builder_expand(builder *b, page_text_id id, sbuf *out)
{
	return expand_with(b, id, &b->page_vars, out);
}

/* Append text id filled in from pairs (name, value, ..., NULL) rather
 * than the page's placeholders: 0, or 1 when a required value is missing. */
int page_builder_expand_values(builder *b, page_text_id id, const char *const *pairs, sbuf *out)
{
	vars v;
	size_t i;

	v.n = 0;       /* the values are the caller's: nothing to release */
	for (i = 0; pairs[i]; i += 2)
		vars_borrow(&v, pairs[i], pairs[i + 1]);
	return expand_with(b, id, &v, out);
}

page_block *page_builder_add_block(builder *b, page_kind kind, int level, const char *role,
				   const char *text)
{
	return page_add(b->p, kind, level, role, text);
}

/* A heading or paragraph from a text: 1 added, 0 left out (a value it
 * needs is missing). */
int page_builder_add_text(builder *b, page_kind kind, int level, const char *role, page_text_id id)
{
	sbuf_reset(&b->line);
	if (page_builder_expand(b, id, &b->line))
		return 0;
	page_builder_add_block(b, kind, level, role, b->line.data);
	return 1;
}

/* The page's meta description from text id (left out when no language
 * has the text: a catalogue translated before it existed). */
void page_builder_set_description(builder *b, page_text_id id)
{
	sbuf s;

	if (!(b->texts && b->texts->text[id]) && !(b->english && b->english->text[id]))
		return;
	sbuf_init(&s);
	if (page_builder_expand(b, id, &s) == 0 && s.len) {
		free(b->p->description);
		b->p->description = sbuf_detach(&s, NULL);
	}
	sbuf_release(&s);
}

/* The model's value in field name, NULL when it has none (or an empty
 * one): one look in the index page_builder_init() made, whatever the
 * number of fields. */
const char *page_builder_field(const builder *b, const char *name)
{
	const size_t *at = strmap_find(b->fields_of, name, strlen(name));
	const char *value = at ? b->m->values.items[*at - 1].value : NULL;

	return value && value[0] ? value : NULL;
}

int page_builder_field_number(const builder *b, const char *name, double *value)
{
	return value_parse_number(page_builder_field(b, name), value) == 0;
}

/* A date as the page writes it (format_date): 1 written, 0 not a date. */
int page_builder_add_date(builder *b, const char *iso, int month_only, sbuf *out)
{
	return format_date(&b->lang, iso, month_only, out);
}

void page_builder_init(builder *b, page *p, const model_view *m, const page_texts *texts,
		       const page_texts *english, mc_err *err)
{
	size_t i;

	memset(b, 0, sizeof(*b));
	b->p = p;
	b->m = m;
	/* one pass over the fields: each lookup after it is one probe. A
	   looked-up model has its map already (query_model: every field
	   once, as here); one made by hand gets its own */
	strmap_init(&b->fields);
	b->fields_of = &m->fields;
	if (m->fields.count != m->values.n) {
		b->fields_of = &b->fields;
		strmap_reserve(&b->fields, m->values.n);
		for (i = 0; i < m->values.n; i++) {
			const char *name = m->values.items[i].field;
			int added;
			size_t *at = strmap_get_or_add(&b->fields, name, strlen(name), &added);

			if (added)          /* a repeated field: its first value */
				*at = i + 1;
		}
	}
	b->texts = texts;
	b->english = english;
	b->err = err;
	page_format_lang(texts, english, &b->lang);
	sbuf_init(&b->line);
}

/* The end of a build: 0, or -1 with the page emptied. */
int page_builder_finish(builder *b)
{
	vars_release(&b->page_vars);
	strmap_release(&b->fields);
	sbuf_release(&b->line);
	free(b->link);
	b->link = NULL;
	if (!b->failed)
		return 0;
	page_release(b->p);
	return -1;
}

int page_date(const char *iso, int month_only, const page_texts *texts,
	      const page_texts *english, sbuf *out, mc_err *err)
{
	model_view nothing;
	page none;
	builder b;
	int written;

	memset(&nothing, 0, sizeof(nothing));
	page_init(&none, texts ? texts->lang : "en");
	page_builder_init(&b, &none, &nothing, texts, english, err);
	written = page_builder_add_date(&b, iso, month_only, out);
	if (b.failed)
		written = -1;
	page_builder_finish(&b);
	page_release(&none);
	return written;
}
