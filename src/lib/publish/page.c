#include "publish/page.h"
#include "db/query.h"
#include "values/format.h"
#include "values/normalise.h"
#include "publish/template.h"
#include "base/textout.h"
#include "base/strmap.h"
#include "publish/frame.h"
#include "publish/indextable.h"

#include <stdlib.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

#define PAGE_TEXT_KEY(id, key) key,
static const char *const text_keys[PT_COUNT] = { PAGE_TEXTS(PAGE_TEXT_KEY) };
#undef PAGE_TEXT_KEY

/* Every placeholder the page builder fills in. */
static const char *const placeholders[] = {
	"name", "organisations", "countries", "month", "org_type", "domain", "task",
	"compute", "hardware", "notability", "params", "params_notes", "mem4", "mem8",
	"mem16", "licence", "day", "month_name", "year", "hours", "days", "percent",
	"size", "unit", "count", "date", "names", "memory", "precision", "bits", "shown", "from", "to",
	"field", "old", "new", "export",
};

const char *page_text_key(page_text_id id)
{
	return id < PT_COUNT ? text_keys[id] : "";
}

int page_text_find(const char *key, page_text_id *id)
{
	size_t i;

	for (i = 0; i < PT_COUNT; i++) {
		if (!strcmp(text_keys[i], key)) {
			*id = (page_text_id)i;
			return 0;
		}
	}
	return -1;
}

int page_placeholder_known(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < sizeof(placeholders) / sizeof(placeholders[0]); i++)
		if (strlen(placeholders[i]) == len && !memcmp(placeholders[i], name, len))
			return 1;
	return 0;
}

void page_texts_init(page_texts *t, const char *lang)
{
	memset(t, 0, sizeof(*t));
	mc_fmt(t->lang, sizeof(t->lang), "%s", lang);
}

void page_texts_release(page_texts *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < PT_COUNT; i++) {
		free(t->text[i]);
		template_compiled_free(t->compiled[i]);
	}
	memset(t, 0, sizeof(*t));
}

void page_init(page *p, const char *lang)
{
	memset(p, 0, sizeof(*p));
	mc_fmt(p->lang, sizeof(p->lang), "%s", lang);
}

void page_release(page *p)
{
	size_t i;

	if (!p)
		return;
	free(p->formerly);
	free(p->citation);
	free(p->description);
	mc_free_strings(p->hardware_links, 2 * p->nhardware_links);
	free(p->hardware_index);
	free(p->charts);
	for (i = 0; i < p->n; i++)
		mc_free_strings(p->blocks[i].item_links, p->blocks[i].nitems);
	free(p->blocks);
	strpool_release(&p->texts);
	memset(p, 0, sizeof(*p));
}

int page_safe_url(const char *url)
{
	const unsigned char *p;
	size_t scheme;

	if (!url)
		return 0;
	if (!strncasecmp(url, "https://", 8))
		scheme = 8;
	else if (!strncasecmp(url, "http://", 7))
		scheme = 7;
	else
		return 0;
	if (!url[scheme])
		return 0;
	for (p = (const unsigned char *)url; *p; p++)
		if (*p <= 0x20 || *p == 0x7F || strchr("\"'<>\\`", *p))
			return 0;
	return 1;
}

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
static void vars_set(vars *v, const char *name, const char *value)
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

/* The template of a text: the language's, else English. */
static const char *text_of(builder *b, page_text_id id)
{
	const char *t = page_text_of(b->texts, b->english, id);

	if (t)
		return t;
	if (!b->failed)
		mc_error(b->err, "no text for '%s' in language %s or in English "
			 "(run modelcat translate)", text_keys[id],
			 b->texts ? b->texts->lang : "?");
	b->failed = 1;
	return "";
}

/* Append text id filled in from v: 0, or 1 when a required value is
 * missing (nothing appended). */
static int expand_with(builder *b, page_text_id id, vars *v, sbuf *out)
{
	int rc;

	text_of(b, id);   /* (says when there is none) */
	rc = page_text_expand(b->texts, b->english, id, vars_lookup, v, out);

	if (rc < 0) {
		if (!b->failed)
			mc_error(b->err, "the text '%s' is not a valid template",
				 text_keys[id]);
		b->failed = 1;
		return 1;
	}
	return rc;
}

static int expand(builder *b, page_text_id id, sbuf *out)
{
	return expand_with(b, id, &b->page_vars, out);
}

/* Append text id filled in from pairs (name, value, ..., NULL) rather
 * than the page's placeholders: 0, or 1 when a required value is missing. */
static int expand_values(builder *b, page_text_id id, const char *const *pairs, sbuf *out)
{
	vars v;
	size_t i;

	v.n = 0;       /* the values are the caller's: nothing to release */
	for (i = 0; pairs[i]; i += 2)
		vars_borrow(&v, pairs[i], pairs[i + 1]);
	return expand_with(b, id, &v, out);
}

page_block *page_grow(page *p, size_t more)
{
	if (p->n + more > p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 32;

		while (cap < p->n + more)
			cap *= 2;
		p->blocks = xrealloc(p->blocks, cap * sizeof(*p->blocks));
		p->cap = cap;
	}
	return &p->blocks[p->n];
}

char *page_strdup(page *p, const char *s)
{
	return strpool_dup(&p->texts, s);
}

page_block *page_add(page *p, page_kind kind, int level, const char *role, const char *text)
{
	page_block *blk = page_grow(p, 1);

	p->n++;
	memset(blk, 0, sizeof(*blk));
	blk->kind = kind;
	blk->level = level;
	blk->role = role;
	blk->text = page_strdup(p, text);
	return blk;
}

static page_block *add_block(builder *b, page_kind kind, int level, const char *role,
			     const char *text)
{
	return page_add(b->p, kind, level, role, text);
}

/* A heading or paragraph from a text: 1 added, 0 left out (a value it
 * needs is missing). */
static int add_text(builder *b, page_kind kind, int level, const char *role, page_text_id id)
{
	sbuf_reset(&b->line);
	if (expand(b, id, &b->line))
		return 0;
	add_block(b, kind, level, role, b->line.data);
	return 1;
}

/* The page's meta description from text id (left out when no language
 * has the text: a catalogue translated before it existed). */
static void set_description(builder *b, page_text_id id)
{
	sbuf s;

	if (!(b->texts && b->texts->text[id]) && !(b->english && b->english->text[id]))
		return;
	sbuf_init(&s);
	if (expand(b, id, &s) == 0 && s.len) {
		free(b->p->description);
		b->p->description = sbuf_detach(&s, NULL);
	}
	sbuf_release(&s);
}

/* The model's value in field name, NULL when it has none (or an empty
 * one): one look in the index builder_init() made, whatever the number of
 * fields. */
static const char *field(const builder *b, const char *name)
{
	const size_t *at = strmap_find(b->fields_of, name, strlen(name));
	const char *value = at ? b->m->values.items[*at - 1].value : NULL;

	return value && value[0] ? value : NULL;
}

static int field_number(const builder *b, const char *name, double *value)
{
	return format_parse_number(field(b, name), value) == 0;
}

/* A date as the page writes it (format_date): 1 written, 0 not a date. */
static int add_date(builder *b, const char *iso, int month_only, sbuf *out)
{
	return format_date(&b->lang, iso, month_only, out);
}

/* ---- the values of label/value pairs ---- */

/* Write the value of a pair into out: 1 when there is one. */
typedef int value_fn(builder *b, const char *field_name, sbuf *out);

static int value_text(builder *b, const char *name, sbuf *out)
{
	const char *v = field(b, name);

	if (!v)
		return 0;
	format_fold(v, out);
	return out->len > 0;
}

static int value_list(builder *b, const char *name, sbuf *out)
{
	const char *v = field(b, name);
	sbuf unique;

	if (!v)
		return 0;
	sbuf_init(&unique);
	format_list_unique(v, &unique);
	format_fold(unique.data, out);
	sbuf_release(&unique);
	return out->len > 0;
}

/* A number field written by format, or as text when it is not a number. */
static int value_formatted(builder *b, const char *name,
			   void (*format)(const format_lang *, double, sbuf *), sbuf *out)
{
	double x;

	if (!field_number(b, name, &x))
		return value_text(b, name, out);
	format(&b->lang, x, out);
	return 1;
}

static int value_date(builder *b, const char *name, sbuf *out)
{
	return add_date(b, field(b, name), 0, out) || value_text(b, name, out);
}

static int value_count(builder *b, const char *name, sbuf *out)
{
	return value_formatted(b, name, format_count, out);
}

static int value_number(builder *b, const char *name, sbuf *out)
{
	return value_formatted(b, name, format_number, out);
}

static int value_dollars(builder *b, const char *name, sbuf *out)
{
	return value_formatted(b, name, format_dollars, out);
}

static void format_flop(const format_lang *l, double x, sbuf *out)
{
	format_power_of_ten(l, x, out);
	sbuf_adds(out, " FLOP");
}

static int value_compute(builder *b, const char *name, sbuf *out)
{
	return value_formatted(b, name, format_flop, out);
}

static void format_watts(const format_lang *l, double x, sbuf *out)
{
	format_si(l, x, "W", out);
}

static int value_power(builder *b, const char *name, sbuf *out)
{
	return value_formatted(b, name, format_watts, out);
}

static int value_hours(builder *b, const char *name, sbuf *out)
{
	sbuf hours, days;
	double x;
	page_text_id id = PT_VALUE_HOURS;

	if (!field_number(b, name, &x))
		return value_text(b, name, out);
	sbuf_init(&hours);
	sbuf_init(&days);
	format_number(&b->lang, x, &hours);
	if (x == 1) {
		id = PT_VALUE_ONE_HOUR;
	} else if (x >= 48) {
		format_decimal(&b->lang, x / 24, x / 24 >= 10 ? 0 : 1, 1, &days);
		id = PT_VALUE_HOURS_DAYS;
	}
	{
		const char *pairs[] = { "hours", hours.data, "days", days.data, NULL };

		expand_values(b, id, pairs, out);
	}
	sbuf_release(&hours);
	sbuf_release(&days);
	return out->len > 0;
}

static int value_mfu(builder *b, const char *name, sbuf *out)
{
	sbuf percent;
	double x;

	if (!field_number(b, name, &x))
		return value_text(b, name, out);
	sbuf_init(&percent);
	format_percent(&b->lang, x, &percent);
	{
		const char *pairs[] = { "percent", percent.data, NULL };

		expand_values(b, PT_VALUE_MFU, pairs, out);
	}
	sbuf_release(&percent);
	return out->len > 0;
}

/* The unit a dataset size counts, by the model's domains. */
static page_text_id dataset_unit(const builder *b)
{
	const char *domain = field(b, "Domain");
	char *copy, *item, *save = NULL;
	page_text_id id = PT_VALUE_UNIT_DATAPOINTS;

	if (!domain)
		return id;
	copy = xstrdup(domain);
	for (item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		if (!strcmp(item, "Language")) {
			id = PT_VALUE_UNIT_TOKENS;
			break;
		}
		if (!strcmp(item, "Vision") || !strcmp(item, "Image generation"))
			id = PT_VALUE_UNIT_IMAGES;
	}
	free(copy);
	return id;
}

/* The training data: "{size} {unit}", or the unit alone when only the
 * notes speak of the dataset (the seed's "tokens"). */
static int value_dataset(builder *b, const char *name, sbuf *out)
{
	sbuf size;
	double x;

	if (!field(b, name) && !field(b, "Dataset size notes"))
		return 0;
	sbuf_init(&size);
	if (field_number(b, name, &x))
		format_count(&b->lang, x, &size);
	else if (field(b, name))
		format_number_list(&b->lang, name, field(b, name), &size);
	if (size.len) {
		const char *pairs[] = { "size", size.data, "unit", text_of(b, dataset_unit(b)), NULL };

		expand_values(b, PT_VALUE_DATASET, pairs, out);
	} else {
		sbuf_adds(out, text_of(b, dataset_unit(b)));
	}
	sbuf_release(&size);
	return out->len > 0;
}

static int value_weights(builder *b, const char *name, sbuf *out)
{
	(void)name;
	if (b->weights == WEIGHTS_UNKNOWN)
		return 0;
	expand(b, b->weights == WEIGHTS_CLOSED ? PT_VALUE_WEIGHTS_CLOSED : PT_VALUE_WEIGHTS_OPEN, out);
	return out->len > 0;
}

static int value_above_1e23(builder *b, const char *name, sbuf *out)
{
	double x;

	(void)name;
	if (!field_number(b, "Training compute (FLOP)", &x))
		return 0;
	format_bool(&b->lang, x >= 1e23, out);
	return 1;
}

/* The first URL of the Link field, when it is a safe http(s) URL. */
static char *first_link(const builder *b)
{
	const char *link = field(b, "Link");
	size_t len;
	char *url;

	if (!link)
		return NULL;
	len = strcspn(link, " \t\r\n");
	while (len && link[len - 1] == ',')
		len--;
	url = xstrndup(link, len);
	if (page_safe_url(url))
		return url;
	free(url);
	return NULL;
}

static int value_reference(builder *b, const char *name, sbuf *out)
{
	free(b->link);
	b->link = first_link(b);
	if (value_text(b, name, out))
		return 1;
	if (b->link)
		sbuf_adds(out, b->link);
	return out->len > 0;
}

static int value_last_updated(builder *b, const char *name, sbuf *out)
{
	(void)name;
	return b->m->last_updated[0] && add_date(b, b->m->last_updated, 0, out);
}

/* ---- sections ---- */

typedef struct section_row {
	page_text_id label;          /* the label */
	const char *field;           /* the field it shows (derived: may be NULL) */
	value_fn *value;             /* how its value is written */
} section_row;

typedef struct section {
	page_text_id heading;        /* heading (h3) */
	page_text_id intro;          /* the sentence under it */
	const section_row *rows;     /* its pairs */
	size_t nrows;                /* how many */
	const char *notes[3];        /* note fields after the pairs, in order */
} section;

static const section_row origin_rows[] = {
	{ PT_LABEL_ORGANISATION, "Organization", value_list },
	{ PT_LABEL_ORGANISATION_TYPE, "Organization categorization", value_list },
	{ PT_LABEL_COUNTRY, "Country (of organization)", value_list },
	{ PT_LABEL_PUBLISHED, "Publication date", value_date },
	{ PT_LABEL_AUTHORS, "Authors", value_text },
};
static const section_row purpose_rows[] = {
	{ PT_LABEL_DOMAIN, "Domain", value_list },
	{ PT_LABEL_TASK, "Task", value_list },
	{ PT_LABEL_APPROACH, "Approach", value_text },
};
static const section_row size_rows[] = {
	{ PT_LABEL_PARAMETERS, "Parameters", value_count },
	{ PT_LABEL_TRAINING_DATA, "Training dataset size (total)", value_dataset },
};
static const section_row compute_rows[] = {
	{ PT_LABEL_TRAINING_COMPUTE, "Training compute (FLOP)", value_compute },
	{ PT_LABEL_COMPUTE_METHOD, "Training compute estimation method", value_list },
};
static const section_row run_rows[] = {
	{ PT_LABEL_HARDWARE, "Training hardware", value_list },
	{ PT_LABEL_CHIPS, "Hardware quantity", value_number },
	{ PT_LABEL_WALL_CLOCK, "Training time (hours)", value_hours },
	{ PT_LABEL_UTILISATION, "Hardware utilization (MFU)", value_mfu },
	{ PT_LABEL_POWER, "Training power draw (W)", value_power },
	{ PT_LABEL_COMPUTE_COST, "Training compute cost (2023 USD)", value_dollars },
	{ PT_LABEL_DATA_CENTRE, "Training data center", value_text },
};
static const section_row availability_rows[] = {
	{ PT_LABEL_WEIGHTS, NULL, value_weights },
	{ PT_LABEL_MODEL_ACCESS, "Model accessibility", value_text },
	{ PT_LABEL_TRAINING_CODE, "Training code accessibility", value_text },
};
static const section_row classification_rows[] = {
	{ PT_LABEL_ABOVE_1E23, NULL, value_above_1e23 },
	{ PT_LABEL_TRACKED, "Notability criteria", value_list },
	{ PT_LABEL_CONFIDENCE, "Confidence", value_text },
	{ PT_LABEL_CITATIONS, "Citations", value_number },
};
static const section_row sources_rows[] = {
	{ PT_LABEL_REFERENCE, "Reference", value_reference },
	{ PT_LABEL_LAST_UPDATED, NULL, value_last_updated },
};

#define ROWS(r) r, sizeof(r) / sizeof(r[0])
static const section sections[] = {
	{ PT_ORIGIN_HEADING, PT_ORIGIN_INTRO, ROWS(origin_rows), { NULL } },
	{ PT_PURPOSE_HEADING, PT_PURPOSE_INTRO, ROWS(purpose_rows), { NULL } },
	{ PT_SIZE_HEADING, PT_SIZE_INTRO, ROWS(size_rows),
	  { "Parameters notes", "Dataset size notes", NULL } },
	{ PT_COMPUTE_HEADING, PT_COMPUTE_INTRO, ROWS(compute_rows),
	  { "Training compute notes", NULL } },
	{ PT_RUN_HEADING, PT_RUN_INTRO, ROWS(run_rows),
	  { "Training time notes", "Utilization notes", NULL } },
	{ PT_AVAILABILITY_HEADING, PT_AVAILABILITY_INTRO, ROWS(availability_rows),
	  { "Accessibility notes", NULL } },
	{ PT_CLASSIFICATION_HEADING, PT_CLASSIFICATION_INTRO, ROWS(classification_rows),
	  { "Notability criteria notes", NULL } },
	{ PT_SOURCES_HEADING, PT_SOURCES_INTRO, ROWS(sources_rows), { NULL } },
};
#undef ROWS

/* Give each item of the list pair blk the link p->hardware_links has for
 * it (HTML only: the text page keeps the list as it is). */
static void link_items(const page *p, page_block *blk)
{
	const char *v = blk->value;

	if (!p->nhardware_links)
		return;
	while (*v) {
		size_t len = strcspn(v, ","), i;
		const char *href = NULL;

		for (i = 0; i < p->nhardware_links && !href; i++)
			if (strlen(p->hardware_links[2 * i]) == len &&
			    !memcmp(p->hardware_links[2 * i], v, len))
				href = p->hardware_links[2 * i + 1];
		blk->item_links = xrealloc(blk->item_links,
					   (blk->nitems + 1) * sizeof(*blk->item_links));
		blk->item_links[blk->nitems++] = href ? xstrdup(href) : NULL;
		v += len + (v[len] == ',');
	}
}

static void add_section(builder *b, const section *s)
{
	size_t i, shown = 0;
	sbuf value, label;

	sbuf_init(&value);
	sbuf_init(&label);
	add_block(b, PAGE_OPEN, 0, "section", NULL);
	add_text(b, PAGE_HEADING, 3, NULL, s->heading);
	add_text(b, PAGE_PARAGRAPH, 0, "intro", s->intro);
	for (i = 0; i < s->nrows; i++) {
		const section_row *row = &s->rows[i];

		sbuf_reset(&value);
		sbuf_reset(&label);
		free(b->link);
		b->link = NULL;
		if (!row->value(b, row->field, &value) || expand(b, row->label, &label))
			continue;
		add_block(b, PAGE_PAIR, 0, NULL, label.data)->value = page_strdup(b->p, value.data);
		b->p->blocks[b->p->n - 1].link = page_strdup(b->p, b->link);
		free(b->link);
		b->link = NULL;
		if (row->label == PT_LABEL_HARDWARE)
			link_items(b->p, &b->p->blocks[b->p->n - 1]);
		shown++;
	}
	for (i = 0; i < sizeof(s->notes) / sizeof(s->notes[0]) && s->notes[i]; i++) {
		sbuf_reset(&value);
		if (value_text(b, s->notes[i], &value)) {
			add_block(b, PAGE_PARAGRAPH, 0, "note", value.data);
			shown++;
		}
	}
	if (!shown)
		add_text(b, PAGE_PARAGRAPH, 0, "empty", PT_SECTION_EMPTY);
	/* the data's citation: HTML only (page_render_text skips it) */
	if (s->heading == PT_SOURCES_HEADING && b->p->citation)
		add_block(b, PAGE_PARAGRAPH, 0, "credit", b->p->citation)->html_only = 1;
	/* the compute chart (chart.h): HTML only */
	if (s->heading == PT_COMPUTE_HEADING && b->p->charts)
		add_block(b, PAGE_RAW, 0, NULL, b->p->charts)->html_only = 1;
	add_block(b, PAGE_CLOSE, 0, NULL, NULL);
	sbuf_release(&value);
	sbuf_release(&label);
}

/* ---- what the model is: weights, placeholders ---- */

static void classify_weights(builder *b)
{
	static const struct { const char *access; enum weights weights; page_text_id licence; }
	access_kinds[] = {
		{ "Unreleased", WEIGHTS_CLOSED, PT_COUNT },
		{ "API access", WEIGHTS_CLOSED, PT_COUNT },
		{ "Hosted access (no API)", WEIGHTS_CLOSED, PT_COUNT },
		{ "Open source", WEIGHTS_OPEN, PT_VALUE_LICENCE_OPEN_SOURCE },
		{ "Open weights (unrestricted)", WEIGHTS_OPEN, PT_VALUE_LICENCE_UNRESTRICTED },
		{ "Open weights (non-commercial)", WEIGHTS_OPEN, PT_VALUE_LICENCE_NON_COMMERCIAL },
		{ "Open access (non-commercial)", WEIGHTS_OPEN, PT_VALUE_LICENCE_NON_COMMERCIAL },
		{ "Open weights (restricted use)", WEIGHTS_OPEN, PT_VALUE_LICENCE_RESTRICTED },
		{ "Open access (restricted use)", WEIGHTS_OPEN, PT_VALUE_LICENCE_RESTRICTED },
	};
	const char *access = field(b, "Model accessibility");
	const char *open = field(b, "Open model weights?");
	size_t i;

	b->weights = WEIGHTS_UNKNOWN;
	b->licence = PT_VALUE_LICENCE_UNKNOWN;
	for (i = 0; access && i < sizeof(access_kinds) / sizeof(access_kinds[0]); i++) {
		if (!strcmp(access, access_kinds[i].access)) {
			b->weights = access_kinds[i].weights;
			if (access_kinds[i].licence != PT_COUNT)
				b->licence = access_kinds[i].licence;
			return;
		}
	}
	if (open && !strcmp(open, "True"))
		b->weights = WEIGHTS_OPEN;
	else if (open && !strcmp(open, "False"))
		b->weights = WEIGHTS_CLOSED;
}

/* A list field with repeats removed, first letter lower-cased if asked. */
static void set_list(builder *b, const char *name, const char *field_name, int lower)
{
	sbuf s;

	sbuf_init(&s);
	if (value_list(b, field_name, &s)) {
		if (lower)
			format_lower_first(&s, 0);
		vars_set(&b->page_vars, name, s.data);
	}
	sbuf_release(&s);
}

static void set_memory(builder *b, const char *name, double params, double bits)
{
	sbuf s;

	sbuf_init(&s);
	format_bytes(&b->lang, params * bits / 8, &s);
	vars_set(&b->page_vars, name, s.data);
	sbuf_release(&s);
}

static void set_placeholders(builder *b)
{
	vars *v = &b->page_vars;
	sbuf s;
	double params;

	sbuf_init(&s);
	vars_set(v, "name", b->m->name);
	set_list(b, "organisations", "Organization", 0);
	set_list(b, "countries", "Country (of organization)", 0);
	set_list(b, "org_type", "Organization categorization", 1);
	set_list(b, "domain", "Domain", 0);
	set_list(b, "task", "Task", 1);
	set_list(b, "hardware", "Training hardware", 0);
	set_list(b, "notability", "Notability criteria", 1);
	if (add_date(b, field(b, "Publication date"), 1, &s))
		vars_set(v, "month", s.data);
	sbuf_reset(&s);
	if (value_compute(b, "Training compute (FLOP)", &s))
		vars_set(v, "compute", s.data);
	sbuf_reset(&s);
	if (value_text(b, "Parameters notes", &s))
		vars_set(v, "params_notes", s.data);
	sbuf_reset(&s);
	b->has_params = field_number(b, "Parameters", &params) && params > 0;
	if (b->has_params) {
		format_count(&b->lang, params, &s);
		vars_set(v, "params", s.data);
		sbuf_reset(&s);
	}
	if (b->weights == WEIGHTS_OPEN) {
		expand(b, b->licence, &s);
		vars_set(v, "licence", s.data);
		if (b->has_params) {
			set_memory(b, "mem4", params, 4);
			set_memory(b, "mem8", params, 8);
			set_memory(b, "mem16", params, 16);
		}
	}
	sbuf_release(&s);
}

/* Was the model published at least a year before the page's "Last
 * updated" date (the snapshot in which a value the page shows last
 * changed; the snapshot's date when it has none)? Not the snapshot's own
 * date: the page would then change, with no value changed, on the night a
 * model turns one year old. */
static int published_long_ago(const builder *b)
{
	struct norm_date pub, now;
	const model_view *m = b->m;
	const char *date = field(b, "Publication date");
	const char *ref = m->last_updated[0] ? m->last_updated : m->as_of;

	if (!date || norm_date_parse(date, strlen(date), &pub, NULL) != NORM_OK ||
	    norm_date_parse(ref, strlen(ref), &now, NULL) != NORM_OK)
		return 0;
	return (now.year - pub.year) * 12 + (now.month - (pub.month ? pub.month : 1)) >= 12;
}

/* ---- the parts of the page ---- */

static void add_hardware(builder *b)
{
	page_text_id figure = PT_HW_NO_ESTIMATE, title = PT_HW_UNSIZED_TITLE, text = PT_HW_UNKNOWN_TEXT;

	if (b->weights == WEIGHTS_CLOSED) {
		title = PT_HW_CLOSED_TITLE;
		text = PT_HW_CLOSED_TEXT;
	} else if (b->weights == WEIGHTS_OPEN && b->has_params) {
		figure = PT_HW_OPEN_FIGURE;
		title = PT_HW_OPEN_TITLE;
		text = PT_HW_OPEN_TEXT;
	} else if (b->weights == WEIGHTS_OPEN) {
		text = PT_HW_OPEN_UNSIZED_TEXT;
	}
	add_block(b, PAGE_OPEN, 0, "hardware", NULL);
	add_text(b, PAGE_PARAGRAPH, 0, "figure", figure);
	add_text(b, PAGE_HEADING, 2, NULL, title);
	add_text(b, PAGE_PARAGRAPH, 0, NULL, text);
	add_block(b, PAGE_CLOSE, 0, NULL, NULL);
}

/* A heading and the paragraphs under it that have their values; with none,
 * the page says the part is empty. */
static void add_paragraphs(builder *b, page_text_id heading, const page_text_id *texts, size_t n)
{
	size_t i, shown = 0;

	add_text(b, PAGE_HEADING, 3, NULL, heading);
	for (i = 0; i < n; i++)
		shown += (size_t)add_text(b, PAGE_PARAGRAPH, 0, NULL, texts[i]);
	if (!shown)
		add_text(b, PAGE_PARAGRAPH, 0, "empty", PT_SECTION_EMPTY);
}

static void add_numbers(builder *b)
{
	page_text_id origin[3] = { PT_NUMBERS_ORIGIN, PT_NUMBERS_PURPOSE, PT_NUMBERS_WEIGHTS_CLOSED };
	static const page_text_id build[] = { PT_NUMBERS_COMPUTE, PT_NUMBERS_TRACKED };
	size_t norigin = 3;

	if (b->weights == WEIGHTS_OPEN)
		origin[2] = PT_NUMBERS_WEIGHTS_OPEN;
	else if (b->weights == WEIGHTS_UNKNOWN)
		norigin = 2;
	add_block(b, PAGE_OPEN, 0, "numbers", NULL);
	add_text(b, PAGE_HEADING, 2, NULL, PT_NUMBERS_HEADING);
	add_paragraphs(b, PT_NUMBERS_ORIGIN_HEADING, origin, norigin);
	add_paragraphs(b, PT_NUMBERS_BUILD_HEADING, build, sizeof(build) / sizeof(build[0]));
	add_block(b, PAGE_CLOSE, 0, NULL, NULL);
}

/* A question and its answer (answer, then more if given): both left out
 * when the answer lacks a value it needs. 1 added, 0 left out. */
static int add_answer(builder *b, page_text_id question, page_text_id answer, page_text_id more)
{
	sbuf q, a;
	int added = 0;

	sbuf_init(&q);
	sbuf_init(&a);
	if (expand(b, answer, &a) == 0 && expand(b, question, &q) == 0) {
		if (more != PT_COUNT) {
			sbuf_addc(&a, ' ');
			if (expand(b, more, &a))
				a.data[--a.len] = '\0';
		}
		add_block(b, PAGE_HEADING, 4, NULL, q.data);
		add_block(b, PAGE_PARAGRAPH, 0, "answer", a.data);
		added = 1;
	}
	sbuf_release(&q);
	sbuf_release(&a);
	return added;
}

static void add_faq(builder *b)
{
	int shown = 0;

	add_block(b, PAGE_OPEN, 0, "faq", NULL);
	add_text(b, PAGE_HEADING, 2, NULL, PT_FAQ_HEADING);
	add_text(b, PAGE_HEADING, 3, NULL, PT_FAQ_TITLE);
	shown += add_answer(b, PT_FAQ_USE_Q, PT_FAQ_USE_A, PT_COUNT);
	shown += add_answer(b, PT_FAQ_COMPUTE_Q, PT_FAQ_COMPUTE_A, PT_COUNT);
	if (b->weights == WEIGHTS_CLOSED) {
		shown += add_answer(b, PT_FAQ_GPU_Q, PT_FAQ_GPU_CLOSED, PT_COUNT);
		shown += add_answer(b, PT_FAQ_OPEN_Q, PT_FAQ_OPEN_CLOSED, PT_COUNT);
	} else if (b->weights == WEIGHTS_OPEN) {
		shown += add_answer(b, PT_FAQ_GPU_Q, b->has_params ? PT_FAQ_GPU_OPEN
								  : PT_FAQ_GPU_UNSIZED, PT_COUNT);
		shown += add_answer(b, PT_FAQ_OPEN_Q, PT_FAQ_OPEN_OPEN, PT_COUNT);
	}
	shown += add_answer(b, PT_FAQ_PARAMS_Q, PT_FAQ_PARAMS_A, PT_COUNT);
	shown += add_answer(b, PT_FAQ_CREATOR_Q, PT_FAQ_CREATOR_A, PT_COUNT);
	shown += add_answer(b, PT_FAQ_RELEASED_Q, PT_FAQ_RELEASED_A,
			    published_long_ago(b) ? PT_FAQ_RELEASED_NEWER : PT_COUNT);
	if (!shown)
		add_text(b, PAGE_PARAGRAPH, 0, "empty", PT_SECTION_EMPTY);
	add_block(b, PAGE_CLOSE, 0, NULL, NULL);
}

static void add_closing(builder *b)
{
	add_block(b, PAGE_OPEN, 0, "closing", NULL);
	add_text(b, PAGE_HEADING, 2, NULL, PT_CLOSING_HEADING);
	add_text(b, PAGE_PARAGRAPH, 0, "lead", PT_CLOSING_LEAD);
	/* its last sentence ("start from the hardware instead") links to the
	 * hardware index, in HTML */
	if (add_text(b, PAGE_PARAGRAPH, 0, NULL, PT_CLOSING_TEXT) && b->p->hardware_index)
		b->p->blocks[b->p->n - 1].link = page_strdup(b->p, b->p->hardware_index);
	add_block(b, PAGE_CLOSE, 0, NULL, NULL);
}

static void builder_init(builder *b, page *p, const model_view *m, const page_texts *texts,
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
static int builder_finish(builder *b)
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

static char *field_copy(const builder *b, const char *name)
{
	const char *v = field(b, name);

	return v ? xstrdup(v) : NULL;
}

void page_index_entry_fill(page_index_entry *e, const model_view *m)
{
	page none;
	builder b;
	double x;
	const char *v;

	page_init(&none, "en");
	builder_init(&b, &none, m, NULL, NULL, NULL);
	classify_weights(&b);
	e->organisation = field_copy(&b, "Organization");
	e->domain = field_copy(&b, "Domain");
	v = field(&b, "Publication date");
	mc_fmt(e->published, sizeof(e->published), "%s", v ? v : "");
	e->parameters = field_number(&b, "Parameters", &x) ? x : NAN;
	e->compute = field_number(&b, "Training compute (FLOP)", &x) ? x : NAN;
	e->open_weights = b.weights == WEIGHTS_OPEN ? 1 : b.weights == WEIGHTS_CLOSED ? 0 : -1;
	mc_fmt(e->last_updated, sizeof(e->last_updated), "%s", m->last_updated);
	builder_finish(&b);
	page_release(&none);
}

void page_index_entry_release(page_index_entry *e)
{
	free(e->organisation);
	free(e->domain);
	e->organisation = e->domain = NULL;
}

int page_build(page *p, const model_view *m, const page_texts *texts,
	       const page_texts *english, mc_err *err)
{
	builder b;
	size_t i;

	builder_init(&b, p, m, texts, english, err);
	classify_weights(&b);
	set_placeholders(&b);
	add_block(&b, PAGE_TITLE, 1, NULL, m->name);
	set_description(&b, PT_META_MODEL);
	if (p->formerly) {
		vars_set(&b.page_vars, "names", p->formerly);
		add_text(&b, PAGE_PARAGRAPH, 0, "formerly", PT_FORMERLY);
	}
	add_hardware(&b);
	add_text(&b, PAGE_PARAGRAPH, 0, "band", PT_BAND);
	add_block(&b, PAGE_OPEN, 0, "spec", NULL);
	add_text(&b, PAGE_HEADING, 2, NULL, PT_SPEC_HEADING);
	add_text(&b, PAGE_PARAGRAPH, 0, "intro", PT_SPEC_INTRO);
	for (i = 0; i < sizeof(sections) / sizeof(sections[0]); i++)
		add_section(&b, &sections[i]);
	add_block(&b, PAGE_CLOSE, 0, NULL, NULL);
	add_numbers(&b);
	add_faq(&b);
	add_closing(&b);
	return builder_finish(&b);
}

void page_add_raw(page *p, char *html)
{
	page_block *blk = page_grow(p, 1);

	p->n++;
	memset(blk, 0, sizeof(*blk));
	blk->kind = PAGE_RAW;
	blk->text = page_strdup(p, html);
	blk->html_only = 1;
	free(html);
}

/* The words of the index table and the strings they point to. */
typedef struct index_words {
	index_table_words w;         /* what the table writer reads */
	char *owned[INDEX_COLUMNS + 11]; /* the strings of w */
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
		expand_values(b, id, pairs, &s);
	else
		expand(b, id, &s);
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
	if (iso && *iso && !add_date(b, iso, 0, &s))
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
	add_block(b, PAGE_RAW, 0, NULL, html.data)->html_only = 1;
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
	builder_init(&b, p, &none, texts, english, err);
	sbuf_init(&s);
	format_number(&b.lang, (double)n, &s);
	vars_set(&b.page_vars, "count", s.data);
	sbuf_reset(&s);
	if (add_date(&b, date, 0, &s))
		vars_set(&b.page_vars, "date", s.data);
	sbuf_reset(&s);
	expand(&b, table ? PT_INDEX_ALL_TITLE : PT_INDEX_TITLE, &s);
	add_block(&b, PAGE_TITLE, 1, NULL, s.data);
	set_description(&b, PT_META_INDEX);
	add_text(&b, PAGE_PARAGRAPH, 0, "intro", PT_INDEX_INTRO);
	/* the charts of the entries, between the intro and the table */
	if (p->charts && !table)
		add_block(&b, PAGE_RAW, 0, NULL, p->charts);
	add_block(&b, PAGE_OPEN, 0, "index", NULL);
	if (table) {
		page_block *raw = add_block(&b, PAGE_RAW, 0, NULL,
					    table == PAGE_INDEX_HOLE ? "" : table);

		raw->html_only = 1;
		raw->hole = table == PAGE_INDEX_HOLE;
		p->style = index_table_style;
	} else {
		add_index_table(&b, entries, n, rest_js, rest_table);
	}
	/* (the page of every row has no text page) */
	for (i = 0; !table && i < n; i++)
		add_block(&b, PAGE_LINK, 0, NULL, entries[i].name)->text_only = 1;
	add_block(&b, PAGE_CLOSE, 0, NULL, NULL);
	sbuf_release(&s);
	return builder_finish(&b);
}

void page_build_raw(page *p, const char *title, const char *html)
{
	builder b;
	model_view none;

	memset(&none, 0, sizeof(none));
	builder_init(&b, p, &none, NULL, NULL, NULL);
	add_block(&b, PAGE_TITLE, 1, NULL, title);
	add_block(&b, PAGE_RAW, 0, NULL, html ? html : "");
	free(p->description);
	p->description = xstrdup(title);
	builder_finish(&b);
}

/* The row of the page's sections that shows field, or NULL. */
static const section_row *row_of(const char *name)
{
	size_t i, k;

	for (i = 0; i < sizeof(sections) / sizeof(sections[0]); i++)
		for (k = 0; k < sections[i].nrows; k++)
			if (sections[i].rows[k].field && !strcmp(sections[i].rows[k].field, name))
				return &sections[i].rows[k];
	return NULL;
}

int page_field_value(const char *name, const char *value, const model_view *context,
		     const page_texts *texts, const page_texts *english, sbuf *label, sbuf *out,
		     mc_err *err)
{
	const section_row *row = row_of(name);
	model_value values[2];
	model_view one;
	page none;
	builder b;
	size_t i;
	int rc;

	memset(values, 0, sizeof(values));
	memset(&one, 0, sizeof(one));
	values[0].field = (char *)name;
	values[0].value = (char *)(value ? value : "");
	one.values.items = values;
	one.values.n = 1;
	for (i = 0; context && strcmp(name, "Domain") && i < context->values.n; i++)
		if (!strcmp(context->values.items[i].field, "Domain"))
			values[one.values.n++] = context->values.items[i];
	page_init(&none, texts->lang);
	builder_init(&b, &none, &one, texts, english, err);
	if (!row || expand(&b, row->label, label))
		sbuf_adds(label, name);
	if (value && *value && (!row || !row->value(&b, name, out)))
		format_value(&b.lang, name, value, out);
	rc = builder_finish(&b);
	page_release(&none);
	return rc;
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
	builder_init(&b, &none, &nothing, texts, english, err);
	written = add_date(&b, iso, month_only, out);
	if (b.failed)
		written = -1;
	builder_finish(&b);
	page_release(&none);
	return written;
}

void page_format_lang(const page_texts *texts, const page_texts *english, format_lang *l)
{
	const char *t;
	int i;

	format_lang_init(l, texts ? texts->lang : "en");
	for (i = 0; i < 12; i++)
		if ((t = page_text_of(texts, english, (page_text_id)(PT_VALUE_MONTH_1 + i))))
			l->month[i] = t;
	if ((t = page_text_of(texts, english, PT_VALUE_YES)))
		l->yes = t;
	if ((t = page_text_of(texts, english, PT_VALUE_NO)))
		l->no = t;
}

const char *page_text_of(const page_texts *texts, const page_texts *english, page_text_id id)
{
	if (texts && texts->text[id])
		return texts->text[id];
	if (english && english->text[id])
		return english->text[id];
	return NULL;
}

void page_text_set(page_texts *texts, page_text_id id, const char *text)
{
	free(texts->text[id]);
	template_compiled_free(texts->compiled[id]);
	texts->text[id] = xstrdup(text);
	texts->compiled[id] = template_compile(texts->text[id]);
}

int page_text_expand(const page_texts *texts, const page_texts *english, page_text_id id,
		     template_lookup_fn *lookup, void *ctx, sbuf *out)
{
	const page_texts *from = texts && texts->text[id] ? texts :
				 english && english->text[id] ? english : NULL;

	if (from && from->compiled[id])
		return template_expand_compiled(from->compiled[id], lookup, ctx, out);
	return template_expand(from ? from->text[id] : "", lookup, ctx, out);
}

void page_text_plain(const page_texts *texts, const page_texts *english, page_text_id id,
		     const char *const *pairs, sbuf *out)
{
	const char *t = page_text_of(texts, english, id);

	if (!t || page_text_expand(texts, english, id, template_pairs, (void *)pairs, out))
		sbuf_adds(out, page_text_key(id));
}

/* ---- writing ---- */

void page_render_text(const page *p, sbuf *out)
{
	size_t i;

	for (i = 0; i < p->n; i++) {
		const page_block *blk = &p->blocks[i];

		if (blk->html_only)
			continue;
		switch (blk->kind) {
		case PAGE_TITLE:
		case PAGE_HEADING:
		case PAGE_PARAGRAPH:
			sbuf_adds(out, blk->text);
			sbuf_addc(out, '\n');
			break;
		case PAGE_PAIR:
			sbuf_add(out, "- ", 2);
			sbuf_adds(out, blk->text);
			sbuf_add(out, "\n- ", 3);
			sbuf_adds(out, blk->value);
			sbuf_addc(out, '\n');
			break;
		case PAGE_LINK:
			sbuf_add(out, "- ", 2);
			sbuf_adds(out, blk->text);
			sbuf_addc(out, '\n');
			break;
		case PAGE_OPEN:
		case PAGE_CLOSE:
		case PAGE_RAW:
			break;
		}
	}
}

static const char page_style[] =
	"body{margin:0;font:16px/1.5 system-ui,-apple-system,\"Segoe UI\",Roboto,sans-serif;"
	"color:#1b1b1b;background:#fff}\n"
	".page{max-width:44rem;margin:0 auto;padding:1rem}\n"
	"h1{font-size:1.7rem;line-height:1.2;margin:.5rem 0 1rem;overflow-wrap:anywhere}\n"
	"h2{font-size:1.3rem;margin:2rem 0 .5rem}\n"
	"h3{font-size:1.1rem;margin:1.5rem 0 .25rem}\n"
	"h4{font-size:1rem;margin:1rem 0 .25rem}\n"
	".hardware{border:1px solid #ccc;border-radius:.5rem;padding:.75rem 1rem;background:#f5f6f8}\n"
	".hardware h2{margin-top:.25rem}\n"
	".figure{font-size:1.5rem;font-weight:700;margin:0}\n"
	".band{display:inline-block;margin:1.5rem 0 0;padding:.1rem .7rem;border-radius:1rem;"
	"background:#e6edf7;font-size:.9rem}\n"
	".intro,.empty{color:#444}\n"
	"dl{display:grid;grid-template-columns:minmax(7rem,1fr) 2fr;gap:.3rem 1rem;margin:.75rem 0}\n"
	"dt{font-weight:600}\n"
	"dd{margin:0;overflow-wrap:anywhere}\n"
	".note{font-size:.92rem;color:#444;border-left:3px solid #d5d9e0;padding-left:.75rem;"
	"overflow-wrap:anywhere}\n"
	"a{color:#0b57d0}\n"
	"ul.models{padding-left:1.2rem}\n"
	/* charts (chart.h): a picture, a mark placed over it, the data's
	 * tables */
	".chart-frame{position:relative;max-width:640px}\n"
	".chart-frame img{display:block;width:100%;height:auto}\n"
	".chart-mark{position:absolute;width:14px;height:14px;margin:-7px 0 0 -7px;"
	"border-radius:50%;background:#d93025;border:2px solid #fff;box-sizing:border-box;"
	"box-shadow:0 0 0 1px #d93025}\n"
	".chart-data{overflow-x:auto}\n"
	".chart-data table{border-collapse:collapse;font-size:.92rem}\n"
	".chart-data caption{text-align:left;color:#444;padding-bottom:.5rem}\n"
	".chart-data th,.chart-data td{text-align:left;padding:.15rem .6rem .15rem 0;"
	"border-bottom:1px solid #e3e6ea;vertical-align:top}\n"
	".chart-data tbody th{font-weight:400}\n"
	".chart-data td{white-space:nowrap}\n"
	/* a long index lays out the entries on screen first */
	"ul.models li{content-visibility:auto;contain-intrinsic-size:auto 1.5em}\n"
	/* the citation block (cite.h) */
	"@media (max-width:32rem){dl{grid-template-columns:1fr;gap:0}dd{margin-bottom:.5rem}"
	"h1{font-size:1.45rem}}\n"
	"@media print{body{font-size:11pt;color:#000}.page{max-width:none;padding:0}"
	".hardware{background:none}a{color:#000}"
	"a[href^=\"http\"]::after{content:\" <\" attr(href) \">\";font-size:.85em;overflow-wrap:anywhere}"
	"h2,h3,h4{break-after:avoid}dl,.note{break-inside:avoid}}\n";

static void html_text(sbuf *out, const char *s)
{
	textout_html(out, s, strlen(s));
}

int page_safe_href(const char *link)
{
	static const char plain[] =
		"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_";
	const char *seg = link;

	if (!link || !*link)
		return 0;
	if (page_safe_url(link))
		return 1;
	for (;;) {
		size_t len = strspn(seg, plain);

		if (!len || (seg[0] == '.' && !(len == 2 && seg[1] == '.')))
			return 0;
		if (!seg[len])
			return 1;
		if (seg[len] != '/')
			return 0;
		seg += len + 1;
	}
}

static void html_link(sbuf *out, const char *text, const char *link)
{
	if (!page_safe_href(link)) {
		html_text(out, text);
		return;
	}
	sbuf_adds(out, "<a href=\"");
	html_text(out, link);
	sbuf_adds(out, page_safe_url(link) ? "\" rel=\"nofollow noopener noreferrer\">" : "\">");
	html_text(out, text);
	sbuf_adds(out, "</a>");
}

/* A paragraph's text; with a link, its last sentence (after the last
 * ". ") is the link. */
static void html_paragraph(sbuf *out, const page_block *blk)
{
	const char *last = NULL, *at = blk->text;
	char *head;

	if (!blk->link || !page_safe_href(blk->link)) {
		html_text(out, blk->text);
		return;
	}
	while ((at = strstr(at, ". ")))
		last = at++ + 2;
	if (!last) {
		html_link(out, blk->text, blk->link);
		return;
	}
	head = xstrndup(blk->text, (size_t)(last - blk->text));
	html_text(out, head);
	html_link(out, last, blk->link);
	free(head);
}

/* A list pair's items, each linked to its page when it has one. */
static void html_items(sbuf *out, const page_block *blk)
{
	const char *v = blk->value;
	size_t i = 0;

	while (*v) {
		size_t len = strcspn(v, ",");
		char *item = xstrndup(v, len);

		if (i)
			sbuf_adds(out, ", ");
		if (i < blk->nitems && blk->item_links[i])
			html_link(out, item, blk->item_links[i]);
		else
			html_text(out, item);
		free(item);
		i++;
		v += len + (v[len] == ',');
	}
}

/* open, the heading's level, close: two of these for every heading of
 * every page, most of them a single digit. */
static void heading_tag(sbuf *out, const char *open, int level, const char *close)
{
	sbuf_adds(out, open);
	if (level >= 0 && level <= 9)
		sbuf_addc(out, (char)('0' + level));
	else
		sbuf_addf(out, "%d", level);
	sbuf_adds(out, close);
}

const char page_index_hole[] = "";

static void render_html(const page *p, sbuf *out, size_t *hole);

void page_render_html(const page *p, sbuf *out)
{
	render_html(p, out, NULL);
}

void page_render_html_hole(const page *p, sbuf *out, size_t *hole)
{
	*hole = SIZE_MAX;
	render_html(p, out, hole);
}

static void render_html(const page *p, sbuf *out, size_t *hole)
{
	const char *title = "";
	size_t i;
	page_kind list = PAGE_OPEN;   /* PAGE_PAIR or PAGE_LINK while a list is open */

	for (i = 0; i < p->n; i++)
		if (p->blocks[i].kind == PAGE_TITLE) {
			title = p->blocks[i].text;
			break;
		}
	sbuf_adds(out, "<!DOCTYPE html>\n<html lang=\"");
	html_text(out, p->lang);
	sbuf_adds(out, "\">\n<head>\n<meta charset=\"utf-8\">\n"
		  "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		  "<title>");
	html_text(out, title);
	sbuf_adds(out, "</title>\n");
	frame_head(p->frame, p->description, out);
	sbuf_adds(out, "<style>\n");
	sbuf_adds(out, page_style);
	sbuf_adds(out, cite_style);
	if (p->frame)
		sbuf_adds(out, frame_style);
	if (p->style)
		sbuf_adds(out, p->style);
	sbuf_adds(out, "</style>\n</head>\n<body>\n");
	frame_header(p->frame, out);
	sbuf_adds(out, "<div class=\"page\">\n");
	for (i = 0; i < p->n; i++) {
		const page_block *blk = &p->blocks[i];

		if (blk->text_only)
			continue;
		if (list != PAGE_OPEN && blk->kind != list) {
			sbuf_adds(out, list == PAGE_PAIR ? "</dl>\n" : "</ul>\n");
			list = PAGE_OPEN;
		}
		switch (blk->kind) {
		case PAGE_TITLE:
			sbuf_adds(out, "<h1>");
			html_text(out, blk->text);
			sbuf_adds(out, "</h1>\n");
			break;
		case PAGE_OPEN:
			sbuf_adds(out, "<div class=\"");
			html_text(out, blk->role ? blk->role : "part");
			sbuf_adds(out, "\">\n");
			break;
		case PAGE_CLOSE:
			sbuf_adds(out, "</div>\n");
			break;
		case PAGE_HEADING:
			heading_tag(out, "<h", blk->level, ">");
			html_text(out, blk->text);
			heading_tag(out, "</h", blk->level, ">\n");
			break;
		case PAGE_PARAGRAPH:
			if (blk->role) {
				sbuf_adds(out, "<p class=\"");
				html_text(out, blk->role);
				sbuf_adds(out, "\">");
			} else {
				sbuf_adds(out, "<p>");
			}
			html_paragraph(out, blk);
			sbuf_adds(out, "</p>\n");
			break;
		case PAGE_PAIR:
			if (list != PAGE_PAIR)
				sbuf_adds(out, "<dl>\n");
			list = PAGE_PAIR;
			sbuf_adds(out, "<dt>");
			html_text(out, blk->text);
			sbuf_adds(out, "</dt><dd>");
			if (blk->nitems)
				html_items(out, blk);
			else
				html_link(out, blk->value, blk->link);
			sbuf_adds(out, "</dd>\n");
			break;
		case PAGE_RAW:
			if (blk->hole && hole && *hole == SIZE_MAX)
				*hole = out->len;
			sbuf_adds(out, blk->text);
			break;
		case PAGE_LINK:
			if (list != PAGE_LINK)
				sbuf_adds(out, "<ul class=\"models\">\n");
			list = PAGE_LINK;
			sbuf_adds(out, "<li>");
			html_link(out, blk->text, blk->link);
			sbuf_adds(out, "</li>\n");
			break;
		}
	}
	if (list != PAGE_OPEN)
		sbuf_adds(out, list == PAGE_PAIR ? "</dl>\n" : "</ul>\n");
	sbuf_adds(out, "</div>\n</body>\n</html>\n");
}
