/*
 * page_internal: the builder the pages' modules share (page.h); internal
 * to them (page_builder.c, page_build.c, page_index.c of publish/),
 * included by nothing else: their interface is page.h.
 *
 *   page.c          the page and its texts
 *   page_builder.c  the builder: placeholders, texts filled in, blocks
 *                   added, a model's fields and dates
 *   page_build.c    a model's page: its values, sections and parts
 *   page_index.c    the index pages, and a page of raw HTML
 *   page_write.c    a page written as text or HTML
 */
#ifndef MODELCAT_PAGE_INTERNAL_H
#define MODELCAT_PAGE_INTERNAL_H

#include <stddef.h>
#include "base/strmap.h"
#include "base/util.h"
#include "db/query.h"
#include "publish/page.h"
#include "values/format.h"

/* ---- values for placeholders ---- */

#define VARS_MAX 32

/* Named values a template is filled in from. */
typedef struct vars {
	const char *name[VARS_MAX];  /* placeholder names (static strings) */
	const char *value[VARS_MAX]; /* their values: copies in copies, or the
					caller's (vars_borrow()) */
	size_t n;                    /* entries used */
	strpool copies;              /* the values vars_set() copied */
} vars;

/* ---- the builder ---- */

enum weights { WEIGHTS_UNKNOWN, WEIGHTS_CLOSED, WEIGHTS_OPEN };

typedef struct builder {
	page *p;                     /* the page being described */
	const model_view *m;         /* the model */
	strmap fields;               /* m's fields: name -> position in m->values + 1,
					when m has no such map of its own */
	const strmap *fields_of;     /* the map used: m's, or fields */
	const page_texts *texts;     /* its language */
	const page_texts *english;   /* the fallback */
	mc_err *err;                 /* where the first failure's message goes */
	int failed;                  /* a text was missing or broken */
	format_lang lang;            /* how its values are written */
	vars page_vars;              /* the page's placeholders */
	enum weights weights;        /* published weights? */
	page_text_id licence;        /* with WEIGHTS_OPEN: the licence kind */
	int has_params;              /* a parameter count is known */
	char *link;                  /* the link of the next pair, if any */
	sbuf line;                   /* add_text()'s text: one buffer for the page */
} builder;

/* name's value, copied (an empty or missing one is no value). */
void page_builder_vars_set(vars *v, const char *name, const char *value);
/* The template of a text: the language's, else English ("" and a
 * failure when neither has it). */
const char *page_builder_text(builder *b, page_text_id id);
/* Append text id filled in from the page's placeholders, or from pairs
 * (name, value, ..., NULL): 0, or 1 when a required value is missing. */
int page_builder_expand(builder *b, page_text_id id, sbuf *out);
int page_builder_expand_values(builder *b, page_text_id id, const char *const *pairs, sbuf *out);
page_block *page_builder_add_block(builder *b, page_kind kind, int level, const char *role,
				   const char *text);
/* A heading or paragraph from a text: 1 added, 0 left out. */
int page_builder_add_text(builder *b, page_kind kind, int level, const char *role,
			  page_text_id id);
/* The page's meta description from text id. */
void page_builder_set_description(builder *b, page_text_id id);
/* The model's value in field name, NULL when it has none (or an empty one). */
const char *page_builder_field(const builder *b, const char *name);
int page_builder_field_number(const builder *b, const char *name, double *value);
/* A date as the page writes it: 1 written, 0 not a date. */
int page_builder_add_date(builder *b, const char *iso, int month_only, sbuf *out);
void page_builder_init(builder *b, page *p, const model_view *m, const page_texts *texts,
		       const page_texts *english, mc_err *err);
/* The end of a build: 0, or -1 with the page emptied. */
int page_builder_finish(builder *b);

#endif
