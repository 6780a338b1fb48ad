#include "publish/page_internal.h"
#include "publish/page.h"
#include "db/query.h"
#include "values/format.h"
#include "values/normalise.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- the values of label/value pairs ---- */

/* Write the value of a pair into out: 1 when there is one. */
typedef int value_fn(builder *b, const char *field_name, sbuf *out);

static int value_text(builder *b, const char *name, sbuf *out)
{
	const char *v = page_builder_field(b, name);

	if (!v)
		return 0;
	format_fold(v, out);
	return out->len > 0;
}

/* A list field with repeats removed, its items joined for a pair (", ")
 * or, in_sentence, for a sentence ("A, B and C"); with lower, each item
 * lower-cased at its start, acronyms kept (format_list_join()). */
static int list_of(builder *b, const char *name, int in_sentence, int lower, sbuf *out)
{
	const char *v = page_builder_field(b, name);
	sbuf unique, joined;

	if (!v)
		return 0;
	sbuf_init(&unique);
	sbuf_init(&joined);
	format_list_unique(v, &unique);
	format_list_join(&b->lang, unique.data ? unique.data : "", in_sentence, lower, &joined);
	format_fold(joined.data ? joined.data : "", out);
	sbuf_release(&unique);
	sbuf_release(&joined);
	return out->len > 0;
}

/* A list pair's value: "A, B". */
static int value_list(builder *b, const char *name, sbuf *out)
{
	return list_of(b, name, 0, 0, out);
}

/* A number field written by format, or as text when it is not a number. */
static int value_formatted(builder *b, const char *name,
			   void (*format)(const format_lang *, double, sbuf *), sbuf *out)
{
	double x;

	if (!page_builder_field_number(b, name, &x))
		return value_text(b, name, out);
	format(&b->lang, x, out);
	return 1;
}

static int value_date(builder *b, const char *name, sbuf *out)
{
	return page_builder_add_date(b, page_builder_field(b, name), 0, out) || value_text(b, name, out);
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

	if (!page_builder_field_number(b, name, &x))
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

		page_builder_expand_values(b, id, pairs, out);
	}
	sbuf_release(&hours);
	sbuf_release(&days);
	return out->len > 0;
}

static int value_mfu(builder *b, const char *name, sbuf *out)
{
	sbuf percent;
	double x;

	if (!page_builder_field_number(b, name, &x))
		return value_text(b, name, out);
	sbuf_init(&percent);
	format_percent(&b->lang, x, &percent);
	{
		const char *pairs[] = { "percent", percent.data, NULL };

		page_builder_expand_values(b, PT_VALUE_MFU, pairs, out);
	}
	sbuf_release(&percent);
	return out->len > 0;
}

/* The unit a dataset size counts, by the model's domains. */
static page_text_id dataset_unit(const builder *b)
{
	const char *domain = page_builder_field(b, "Domain");
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

/* The training data: "{size} {unit}"; when only the notes speak of the
 * dataset, "not recorded" (the seed's bare unit "tokens" said nothing). */
static int value_dataset(builder *b, const char *name, sbuf *out)
{
	sbuf size;
	double x;

	if (!page_builder_field(b, name) && !page_builder_field(b, "Dataset size notes"))
		return 0;
	sbuf_init(&size);
	if (page_builder_field_number(b, name, &x))
		format_count(&b->lang, x, &size);
	else if (page_builder_field(b, name))
		format_number_list(&b->lang, name, page_builder_field(b, name), &size);
	if (size.len) {
		const char *pairs[] = { "size", size.data, "unit", page_builder_text(b, dataset_unit(b)), NULL };

		page_builder_expand_values(b, PT_VALUE_DATASET, pairs, out);
	} else if (!value_text(b, name, out)) {
		page_builder_expand(b, PT_VALUE_NOT_RECORDED, out);
	}
	sbuf_release(&size);
	return out->len > 0;
}

static int value_weights(builder *b, const char *name, sbuf *out)
{
	(void)name;
	if (b->weights == WEIGHTS_UNKNOWN)
		return 0;
	page_builder_expand(b, b->weights == WEIGHTS_CLOSED ? PT_VALUE_WEIGHTS_CLOSED :
			    PT_VALUE_WEIGHTS_OPEN, out);
	return out->len > 0;
}

static int value_above_1e23(builder *b, const char *name, sbuf *out)
{
	double x;

	(void)name;
	if (!page_builder_field_number(b, "Training compute (FLOP)", &x))
		return 0;
	format_bool(&b->lang, x >= 1e23, out);
	return 1;
}

/* The first URL of the Link field, when it is a safe http(s) URL. */
static char *first_link(const builder *b)
{
	const char *link = page_builder_field(b, "Link");
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
	return b->m->last_updated[0] && page_builder_add_date(b, b->m->last_updated, 0, out);
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
		v += *v == ' ';
	}
}

static void add_section(builder *b, const section *s)
{
	size_t i, shown = 0;
	sbuf value, label;

	sbuf_init(&value);
	sbuf_init(&label);
	page_builder_add_block(b, PAGE_OPEN, 0, "section", NULL);
	page_builder_add_text(b, PAGE_HEADING, 3, NULL, s->heading);
	page_builder_add_text(b, PAGE_PARAGRAPH, 0, "intro", s->intro);
	for (i = 0; i < s->nrows; i++) {
		const section_row *row = &s->rows[i];

		sbuf_reset(&value);
		sbuf_reset(&label);
		free(b->link);
		b->link = NULL;
		if (!row->value(b, row->field, &value) || page_builder_expand(b, row->label, &label))
			continue;
		page_builder_add_block(b, PAGE_PAIR, 0, NULL, label.data)->value = page_strdup(b->p, value.data);
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
			page_builder_add_block(b, PAGE_PARAGRAPH, 0, "note", value.data);
			shown++;
		}
	}
	if (!shown)
		page_builder_add_text(b, PAGE_PARAGRAPH, 0, "empty", PT_SECTION_EMPTY);
	/* the data's citation: HTML only (page_render_text skips it) */
	if (s->heading == PT_SOURCES_HEADING && b->p->citation)
		page_builder_add_block(b, PAGE_PARAGRAPH, 0, "credit", b->p->citation)->html_only = 1;
	/* the compute chart (chart.h): HTML only */
	if (s->heading == PT_COMPUTE_HEADING && b->p->charts)
		page_builder_add_block(b, PAGE_RAW, 0, NULL, b->p->charts)->html_only = 1;
	page_builder_add_block(b, PAGE_CLOSE, 0, NULL, NULL);
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
	const char *access = page_builder_field(b, "Model accessibility");
	const char *open = page_builder_field(b, "Open model weights?");
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

/* A list field as a sentence writes it: repeats removed, the items joined
 * by ", " and the last by "and" ("en"); with lower, each item's first
 * letter lower-cased unless it starts an acronym ("SOTA improvement"). */
static void set_list(builder *b, const char *name, const char *field_name, int lower)
{
	sbuf s;

	sbuf_init(&s);
	if (list_of(b, field_name, 1, lower, &s))
		page_builder_vars_set(&b->page_vars, name, s.data);
	sbuf_release(&s);
}

static void set_memory(builder *b, const char *name, double params, double bits)
{
	sbuf s;

	sbuf_init(&s);
	format_bytes(&b->lang, params * bits / 8, &s);
	page_builder_vars_set(&b->page_vars, name, s.data);
	sbuf_release(&s);
}

static void set_placeholders(builder *b)
{
	vars *v = &b->page_vars;
	sbuf s;
	double params;

	sbuf_init(&s);
	page_builder_vars_set(v, "name", b->m->name);
	set_list(b, "organisations", "Organization", 0);
	set_list(b, "countries", "Country (of organization)", 0);
	set_list(b, "org_type", "Organization categorization", 1);
	set_list(b, "domain", "Domain", 0);
	set_list(b, "task", "Task", 1);
	set_list(b, "hardware", "Training hardware", 0);
	set_list(b, "notability", "Notability criteria", 1);
	if (page_builder_add_date(b, page_builder_field(b, "Publication date"), 1, &s))
		page_builder_vars_set(v, "month", s.data);
	sbuf_reset(&s);
	if (value_compute(b, "Training compute (FLOP)", &s))
		page_builder_vars_set(v, "compute", s.data);
	sbuf_reset(&s);
	if (value_text(b, "Parameters notes", &s))
		page_builder_vars_set(v, "params_notes", s.data);
	sbuf_reset(&s);
	b->has_params = page_builder_field_number(b, "Parameters", &params) && params > 0;
	if (b->has_params) {
		format_count(&b->lang, params, &s);
		page_builder_vars_set(v, "params", s.data);
		sbuf_reset(&s);
	}
	if (b->weights == WEIGHTS_OPEN) {
		page_builder_expand(b, b->licence, &s);
		page_builder_vars_set(v, "licence", s.data);
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
	const char *date = page_builder_field(b, "Publication date");
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
	page_builder_add_block(b, PAGE_OPEN, 0, "hardware", NULL);
	page_builder_add_text(b, PAGE_PARAGRAPH, 0, "figure", figure);
	page_builder_add_text(b, PAGE_HEADING, 2, NULL, title);
	page_builder_add_text(b, PAGE_PARAGRAPH, 0, NULL, text);
	page_builder_add_block(b, PAGE_CLOSE, 0, NULL, NULL);
}

/* A heading and the paragraphs under it that have their values; with none,
 * the page says the part is empty. */
static void add_paragraphs(builder *b, page_text_id heading, const page_text_id *texts, size_t n)
{
	size_t i, shown = 0;

	page_builder_add_text(b, PAGE_HEADING, 3, NULL, heading);
	for (i = 0; i < n; i++)
		shown += (size_t)page_builder_add_text(b, PAGE_PARAGRAPH, 0, NULL, texts[i]);
	if (!shown)
		page_builder_add_text(b, PAGE_PARAGRAPH, 0, "empty", PT_SECTION_EMPTY);
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
	page_builder_add_block(b, PAGE_OPEN, 0, "numbers", NULL);
	page_builder_add_text(b, PAGE_HEADING, 2, NULL, PT_NUMBERS_HEADING);
	add_paragraphs(b, PT_NUMBERS_ORIGIN_HEADING, origin, norigin);
	add_paragraphs(b, PT_NUMBERS_BUILD_HEADING, build, sizeof(build) / sizeof(build[0]));
	page_builder_add_block(b, PAGE_CLOSE, 0, NULL, NULL);
}

/* A question and its answer (answer, then more if given): both left out
 * when the answer lacks a value it needs. 1 added, 0 left out. */
static int add_answer(builder *b, page_text_id question, page_text_id answer, page_text_id more)
{
	sbuf q, a;
	int added = 0;

	sbuf_init(&q);
	sbuf_init(&a);
	if (page_builder_expand(b, answer, &a) == 0 && page_builder_expand(b, question, &q) == 0) {
		if (more != PT_COUNT) {
			sbuf_addc(&a, ' ');
			if (page_builder_expand(b, more, &a))
				a.data[--a.len] = '\0';
		}
		page_builder_add_block(b, PAGE_HEADING, 4, NULL, q.data);
		page_builder_add_block(b, PAGE_PARAGRAPH, 0, "answer", a.data);
		added = 1;
	}
	sbuf_release(&q);
	sbuf_release(&a);
	return added;
}

static void add_faq(builder *b)
{
	int shown = 0;

	page_builder_add_block(b, PAGE_OPEN, 0, "faq", NULL);
	page_builder_add_text(b, PAGE_HEADING, 2, NULL, PT_FAQ_HEADING);
	page_builder_add_text(b, PAGE_HEADING, 3, NULL, PT_FAQ_TITLE);
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
		page_builder_add_text(b, PAGE_PARAGRAPH, 0, "empty", PT_SECTION_EMPTY);
	page_builder_add_block(b, PAGE_CLOSE, 0, NULL, NULL);
}

static void add_closing(builder *b)
{
	page_builder_add_block(b, PAGE_OPEN, 0, "closing", NULL);
	page_builder_add_text(b, PAGE_HEADING, 2, NULL, PT_CLOSING_HEADING);
	page_builder_add_text(b, PAGE_PARAGRAPH, 0, "lead", PT_CLOSING_LEAD);
	/* its last sentence ("start from the hardware instead") links to the
	 * hardware index, in HTML */
	if (page_builder_add_text(b, PAGE_PARAGRAPH, 0, NULL, PT_CLOSING_TEXT) && b->p->hardware_index)
		b->p->blocks[b->p->n - 1].link = page_strdup(b->p, b->p->hardware_index);
	page_builder_add_block(b, PAGE_CLOSE, 0, NULL, NULL);
}

static char *field_copy(const builder *b, const char *name)
{
	const char *v = page_builder_field(b, name);

	return v ? xstrdup(v) : NULL;
}

void page_index_entry_fill(page_index_entry *e, const model_view *m)
{
	page none;
	builder b;
	double x;
	const char *v;

	page_init(&none, "en");
	page_builder_init(&b, &none, m, NULL, NULL, NULL);
	classify_weights(&b);
	e->organisation = field_copy(&b, "Organization");
	e->domain = field_copy(&b, "Domain");
	v = page_builder_field(&b, "Publication date");
	mc_fmt(e->published, sizeof(e->published), "%s", v ? v : "");
	e->parameters = page_builder_field_number(&b, "Parameters", &x) ? x : NAN;
	e->compute = page_builder_field_number(&b, "Training compute (FLOP)", &x) ? x : NAN;
	e->open_weights = b.weights == WEIGHTS_OPEN ? 1 : b.weights == WEIGHTS_CLOSED ? 0 : -1;
	v = page_builder_field(&b, "Frontier model");
	e->frontier = v && (!strcmp(v, "True") || !strcmp(v, "true"));
	/* the row's own date: when the source last changed it */
	v = page_builder_field(&b, "Last modified");
	if (v && strlen(v) >= 10 && v[4] == '-' && v[7] == '-')
		mc_fmt(e->last_updated, sizeof(e->last_updated), "%.10s", v);
	else
		mc_fmt(e->last_updated, sizeof(e->last_updated), "%s", m->last_updated);
	page_builder_finish(&b);
	page_release(&none);
}

void page_index_entry_release(page_index_entry *e)
{
	free(e->organisation);
	free(e->domain);
	free(e->formerly);
	e->organisation = e->domain = e->formerly = NULL;
}

int page_build(page *p, const model_view *m, const page_texts *texts,
	       const page_texts *english, mc_err *err)
{
	builder b;
	size_t i;

	page_builder_init(&b, p, m, texts, english, err);
	classify_weights(&b);
	set_placeholders(&b);
	page_builder_add_block(&b, PAGE_TITLE, 1, NULL, m->name);
	page_builder_set_description(&b, PT_META_MODEL);
	if (p->formerly) {
		page_builder_vars_set(&b.page_vars, "names", p->formerly);
		page_builder_add_text(&b, PAGE_PARAGRAPH, 0, "formerly", PT_FORMERLY);
	}
	add_hardware(&b);
	page_builder_add_text(&b, PAGE_PARAGRAPH, 0, "band", PT_BAND);
	page_builder_add_block(&b, PAGE_OPEN, 0, "spec", NULL);
	page_builder_add_text(&b, PAGE_HEADING, 2, NULL, PT_SPEC_HEADING);
	page_builder_add_text(&b, PAGE_PARAGRAPH, 0, "intro", PT_SPEC_INTRO);
	for (i = 0; i < sizeof(sections) / sizeof(sections[0]); i++)
		add_section(&b, &sections[i]);
	page_builder_add_block(&b, PAGE_CLOSE, 0, NULL, NULL);
	add_numbers(&b);
	add_faq(&b);
	add_closing(&b);
	return page_builder_finish(&b);
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

/* The label of a field the page shows no pair for: its text "field.KEY"
 * (KEY: the name in lower case, each run of other characters than a-z and
 * 0-9 one "_", none at either end: "Last modified" is field.last_modified),
 * else the name as the source writes it (a column no catalogue names, or
 * texts stored before there were any). */
static void field_label(builder *b, const char *name, sbuf *label)
{
	char key[200] = "field.";
	size_t n = strlen(key);
	page_text_id id;
	const char *c;

	for (c = name; *c && n + 2 < sizeof(key); c++) {
		char ch = *c >= 'A' && *c <= 'Z' ? (char)(*c - 'A' + 'a') : *c;

		if ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9'))
			key[n++] = ch;
		else if (key[n - 1] != '_' && key[n - 1] != '.')
			key[n++] = '_';
	}
	if (key[n - 1] == '_')
		n--;
	key[n] = '\0';
	if (*c || page_text_find(key, &id) || !page_text_of(b->texts, b->english, id) ||
	    page_builder_expand(b, id, label))
		sbuf_adds(label, name);
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
	page_builder_init(&b, &none, &one, texts, english, err);
	if (!row)
		field_label(&b, name, label);
	else if (page_builder_expand(&b, row->label, label))
		sbuf_adds(label, name);
	if (value && *value && (!row || !row->value(&b, name, out)))
		format_value(&b.lang, name, value, out);
	rc = page_builder_finish(&b);
	page_release(&none);
	return rc;
}
