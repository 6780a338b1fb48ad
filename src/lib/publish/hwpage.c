#include "publish/hwpage.h"
#include "base/textout.h"
#include "publish/chart.h"
#include "values/format.h"
#include "values/value.h"
#include "publish/template.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int hwpage_fits(double params, int bits, double memory)
{
	return params * bits * 10 <= memory * 72;
}

int hwpage_memory(const hwlink_card *card, double *bytes)
{
	return value_parse_number(hwlink_value(card, "Memory (bytes)"), bytes) == 0 && *bytes > 0;
}

/* The widths of the weights, in bits, the pages tell what fits at. */
static const int fit_widths[] = { 16, 8, 4 };

/* ---- the models ---- */

static const page_index_entry *sort_entries;

/* Most parameters first, then by name. */
static int runnable_cmp(const void *a, const void *b)
{
	const page_index_entry *x = &sort_entries[*(const size_t *)a];
	const page_index_entry *y = &sort_entries[*(const size_t *)b];

	if (x->parameters != y->parameters)
		return x->parameters > y->parameters ? -1 : 1;
	return strcmp(x->name, y->name);
}

void hwpage_models_init(hwpage_models *m, const page_index_entry *entries, size_t n)
{
	size_t i;

	memset(m, 0, sizeof(*m));
	m->entries = entries;
	m->n = n;
	strmap_init(&m->by_name);
	strmap_reserve(&m->by_name, n);
	m->runnable = xcalloc(n + 1, sizeof(*m->runnable));
	for (i = 0; i < n; i++) {
		int added;

		*strmap_get_or_add(&m->by_name, entries[i].name, strlen(entries[i].name), &added) =
			i + 1;
		if (entries[i].open_weights == 1 && !isnan(entries[i].parameters) &&
		    entries[i].parameters > 0)
			m->runnable[m->nrunnable++] = i;
	}
	sort_entries = entries;
	qsort(m->runnable, m->nrunnable, sizeof(*m->runnable), runnable_cmp);
	sort_entries = NULL;
}

void hwpage_models_release(hwpage_models *m)
{
	if (!m)
		return;
	strmap_release(&m->by_name);
	free(m->runnable);
	memset(m, 0, sizeof(*m));
}

/* ---- texts ---- */

#define HW_VARS 8
#define HW_SHOWN 10                 /* items of a long list on a card's page */

/* What a hardware page is built with. */
typedef struct hwbuild {
	page *p;                     /* the page */
	const page_texts *texts;     /* its language */
	const page_texts *english;   /* the fallback */
	mc_err *err;                 /* the first failure */
	int failed;                  /* a text was missing or broken */
	format_lang lang;            /* how its values are written */
	const char *all_stem;        /* the complete lists' pages: STEM-models-BITS.html
					and STEM-trained.html (NULL: none) */
	int all;                     /* this is a complete list's page */
	int only_bits;               /* on it, the width listed (0: the trained) */
	const char *vars[2 * HW_VARS + 1]; /* the placeholders set: name, value
					(borrowed), ..., NULL (template_pairs) */
} hwbuild;

static const char *text_of(hwbuild *b, page_text_id id)
{
	const char *t = page_text_of(b->texts, b->english, id);

	if (t)
		return t;
	if (!b->failed)
		mc_error(b->err, "no text for '%s' in language %s or in English "
			 "(run modelcat translate)", page_text_key(id), b->texts->lang);
	b->failed = 1;
	return "";
}

/* Set the placeholders: pairs of name and value (NULL or "": none), ended
 * by NULL. */
static void set_vars(hwbuild *b, const char *const *pairs)
{
	size_t i, n = 0;

	for (i = 0; pairs[i] && n < 2 * HW_VARS; i += 2) {
		if (!pairs[i + 1] || !pairs[i + 1][0])
			continue;
		b->vars[n++] = pairs[i];
		b->vars[n++] = pairs[i + 1];
	}
	b->vars[n] = NULL;
}

/* No placeholder set. */
static void clear_vars(hwbuild *b)
{
	b->vars[0] = NULL;
}

/* Text id filled in from the placeholders set, into out: 0, or 1 when a
 * required value is missing. */
static int expand(hwbuild *b, page_text_id id, sbuf *out)
{
	int rc = template_expand(text_of(b, id), template_pairs, (void *)b->vars, out);

	if (rc < 0 && !b->failed) {
		mc_error(b->err, "the text '%s' is not a valid template", page_text_key(id));
		b->failed = 1;
	}
	return rc;
}

/* A block of text id: the block, or NULL when left out. */
static page_block *add_text(hwbuild *b, page_kind kind, int level, const char *role,
			    page_text_id id)
{
	page_block *blk = NULL;
	sbuf s;

	sbuf_init(&s);
	if (expand(b, id, &s) == 0)
		blk = page_add(b->p, kind, level, role, s.data);
	sbuf_release(&s);
	return blk;
}

/* A date as the model pages write it: 1 written, 0 not a date. */
static int add_date(hwbuild *b, const char *iso, sbuf *out)
{
	return format_date(&b->lang, iso, 0, out);
}

/* ---- the specifications ---- */

typedef struct spec_row {
	page_text_id label;          /* its label */
	const char *precision;       /* PT_HWP_LABEL_COMPUTE: the precision's name */
	const char *field;           /* the card's field (format_value() writes its value) */
} spec_row;

static const spec_row spec_rows[] = {
	{ PT_HWP_LABEL_MANUFACTURER, NULL, "Manufacturer" },
	{ PT_HWP_LABEL_TYPE, NULL, "Type" },
	{ PT_HWP_LABEL_MEMORY, NULL, "Memory (bytes)" },
	{ PT_HWP_LABEL_BANDWIDTH, NULL, "Memory bandwidth (byte/s)" },
	{ PT_HWP_LABEL_COMPUTE, "FP64", "FP64 (double precision) performance (FLOP/s)" },
	{ PT_HWP_LABEL_COMPUTE, "FP32", "FP32 (single precision) performance (FLOP/s)" },
	{ PT_HWP_LABEL_COMPUTE, "TF32", "TF32 (TensorFloat-32) performance (FLOP/s)" },
	{ PT_HWP_LABEL_COMPUTE, "FP16", "FP16 (half precision) performance (FLOP/s)" },
	{ PT_HWP_LABEL_COMPUTE, "FP16/BF16 (tensor)", "Tensor-FP16/BF16 performance (FLOP/s)",
	},
	{ PT_HWP_LABEL_COMPUTE, "FP8", "FP8 performance (FLOP/s)" },
	{ PT_HWP_LABEL_COMPUTE, "FP4", "FP4 performance (FLOP/s)" },
	{ PT_HWP_LABEL_COMPUTE, "INT8", "INT8 performance (OP/s)" },
	{ PT_HWP_LABEL_COMPUTE, "INT4", "INT4/FP4 performance (OP/s)" },
	{ PT_HWP_LABEL_POWER, NULL, "TDP (W)" },
	{ PT_HWP_LABEL_RELEASED, NULL, "Release date" },
	{ PT_HWP_LABEL_PRICE, NULL, "Release price (USD)" },
};

/* The value of a specification row into out: 1 when it has one. */
static int spec_value(hwbuild *b, const hwlink_card *card, const spec_row *row, sbuf *out)
{
	const char *v = hwlink_value(card, row->field);

	if (!v)
		return 0;
	format_value(&b->lang, row->field, v, out);
	return out->len > 0;
}

static void add_specs(hwbuild *b, const hwlink_card *card)
{
	sbuf value, label;
	size_t i;

	sbuf_init(&value);
	sbuf_init(&label);
	page_add(b->p, PAGE_OPEN, 0, "spec", NULL);
	add_text(b, PAGE_HEADING, 2, NULL, PT_HWP_SPEC_HEADING);
	for (i = 0; i < sizeof(spec_rows) / sizeof(spec_rows[0]); i++) {
		const spec_row *row = &spec_rows[i];
		const char *pairs[] = { "precision", row->precision, NULL };

		sbuf_reset(&value);
		sbuf_reset(&label);
		if (!spec_value(b, card, row, &value))
			continue;
		set_vars(b, pairs);
		if (expand(b, row->label, &label) == 0)
			page_add(b->p, PAGE_PAIR, 0, NULL, label.data)->value = page_strdup(b->p, value.data);
	}
	sbuf_reset(&value);
	sbuf_reset(&label);
	if (card->since[0] && add_date(b, card->since, &value)) {
		clear_vars(b);
		if (expand(b, PT_LABEL_LAST_UPDATED, &label) == 0)
			page_add(b->p, PAGE_PAIR, 0, NULL, label.data)->value = page_strdup(b->p, value.data);
	}
	page_add(b->p, PAGE_CLOSE, 0, NULL, NULL);
	sbuf_release(&value);
	sbuf_release(&label);
}

/* ---- the models it trained ---- */

/* A model's page from the hardware folder, kept by p, or NULL when it
 * has none. */
static char *model_href(page *p, const hwpage_models *models, const char *name)
{
	const size_t *at = strmap_find(&models->by_name, name, strlen(name));
	char *href;
	sbuf s;

	if (!at)
		return NULL;
	sbuf_init(&s);
	sbuf_addf(&s, "../%s", models->entries[*at - 1].file);
	href = page_strdup(p, s.data);
	sbuf_release(&s);
	return href;
}

/* After a list cut at HW_SHOWN of n items: the link to the complete
 * lists' page, text id filled in with count (and the set placeholders). */
static void add_more(hwbuild *b, size_t n, page_text_id id, const char *bits)
{
	page_block *blk;
	sbuf count, href;

	if (b->all || !b->all_stem || n <= HW_SHOWN)
		return;
	sbuf_init(&count);
	sbuf_init(&href);
	if (bits)
		sbuf_addf(&href, "%s-models-%s.html", b->all_stem, bits);
	else
		sbuf_addf(&href, "%s-trained.html", b->all_stem);
	format_number(&b->lang, (double)n, &count);
	{
		const char *pairs[] = { "count", count.data, "bits", bits, NULL };

		set_vars(b, pairs);
	}
	if ((blk = add_text(b, PAGE_PARAGRAPH, 0, "more", id)))
		blk->link = page_strdup(b->p, href.data);
	sbuf_release(&count);
	sbuf_release(&href);
}

static void add_trained(hwbuild *b, const hwlink_day *d, size_t card,
			const hwpage_models *models)
{
	size_t i, shown = 0, n = 0;

	clear_vars(b);
	page_add(b->p, PAGE_OPEN, 0, "trained", NULL);
	add_text(b, PAGE_HEADING, 2, NULL, PT_HWP_TRAINED_HEADING);
	add_text(b, PAGE_PARAGRAPH, 0, "intro", PT_HWP_TRAINED_INTRO);
	for (i = 0; i < d->nlinks; i++) {
		if (d->links[i].card != card)
			continue;
		n++;
		if (!b->all && shown >= HW_SHOWN)
			continue;
		page_add(b->p, PAGE_LINK, 0, NULL, d->links[i].model)->link =
			model_href(b->p, models, d->links[i].model);
		shown++;
	}
	if (!shown)
		add_text(b, PAGE_PARAGRAPH, 0, "empty", PT_HWP_TRAINED_NONE);
	add_more(b, n, PT_HWP_TRAINED_ALL, NULL);
	page_add(b->p, PAGE_CLOSE, 0, NULL, NULL);
}

/* ---- what it will run ---- */

/* The models that fit at bits bits: a heading and a list. */
static void add_fitting(hwbuild *b, double memory, int bits, const hwpage_models *models)
{
	sbuf count, limit, need, item;
	char bits_text[8];
	size_t i, n = 0, shown = 0;

	sbuf_init(&count);
	sbuf_init(&limit);
	sbuf_init(&need);
	sbuf_init(&item);
	for (i = 0; i < models->nrunnable; i++)
		n += (size_t)hwpage_fits(models->entries[models->runnable[i]].parameters, bits, memory);
	mc_fmt(bits_text, sizeof(bits_text), "%d", bits);
	format_number(&b->lang, (double)n, &count);
	format_count(&b->lang, memory * 72 / (bits * 10.0), &limit);
	{
		const char *pairs[] = { "bits", bits_text, "count", count.data, "params", limit.data,
					NULL };

		set_vars(b, pairs);
		add_text(b, PAGE_HEADING, 3, NULL, PT_HWP_RUN_BITS);
	}
	for (i = 0; i < models->nrunnable; i++) {
		const page_index_entry *e = &models->entries[models->runnable[i]];

		if (!hwpage_fits(e->parameters, bits, memory))
			continue;
		if (!b->all && shown >= HW_SHOWN)
			break;
		shown++;
		sbuf_reset(&limit);
		sbuf_reset(&need);
		sbuf_reset(&item);
		format_count(&b->lang, e->parameters, &limit);
		format_bytes(&b->lang, e->parameters * bits / 8, &need);
		{
			const char *pairs[] = { "name", e->name, "params", limit.data,
						"memory", need.data, NULL };

			set_vars(b, pairs);
		}
		if (expand(b, PT_HWP_RUN_ITEM, &item) == 0)
			page_add(b->p, PAGE_LINK, 0, NULL, item.data)->link =
				model_href(b->p, models, e->name);
	}
	if (!n) {
		clear_vars(b);
		add_text(b, PAGE_PARAGRAPH, 0, "empty", PT_HWP_RUN_NONE);
	}
	add_more(b, n, PT_HWP_RUN_ALL, bits_text);
	sbuf_release(&count);
	sbuf_release(&limit);
	sbuf_release(&need);
	sbuf_release(&item);
}

/* ---- the chart of memory against the models that fit ---- */

/* The bar chart's width in SVG units. It is drawn as wide as the page's
 * column (at most HW_CHART_MAX px), 353 px on a page 400 px wide: at this
 * width its text (the chart's 12 units) is rendered at 12 x 353 / 360 = 11.8
 * px there, and larger on a wider page. */
#define HW_CHART_WIDTH 360
/* and at most this wide in CSS px (its text at 12 x 480 / 360 = 16 px) */
#define HW_CHART_MAX 480

static void html_of(sbuf *out, const char *s)
{
	textout_html(out, s, strlen(s));
}

/* The figure's HTML (chart_figure_open: heading, description, the image
 * in the page), and a table of its n bars (name, memory) for screen
 * readers. */
static void memory_figure(hwbuild *b, const chart *c, const sbuf *names, const sbuf *sizes,
			  size_t n, const sbuf *svg, sbuf *out)
{
	size_t i, at = out->len;
	char *frame;

	chart_figure_open(c, 3, NULL, svg, out);
	/* at most HW_CHART_MAX px wide: on a wide screen its text would
	   otherwise be drawn at 640 / HW_CHART_WIDTH times its size */
	if ((frame = strstr(out->data + at, "<div class=\"chart-frame\">"))) {
		size_t cut = (size_t)(frame - out->data) + strlen("<div class=\"chart-frame\"");
		sbuf rest;

		sbuf_init(&rest);
		sbuf_adds(&rest, out->data + cut);
		out->len = cut;
		sbuf_addf(out, " style=\"max-width:%dpx\"", HW_CHART_MAX);
		sbuf_add(out, rest.data, rest.len);
		sbuf_release(&rest);
	}
	sbuf_adds(out, "<div class=\"chart-data\"><table>\n<caption>");
	html_of(out, c->title);
	sbuf_adds(out, "</caption>\n<thead><tr><th scope=\"col\">");
	html_of(out, text_of(b, PT_HWP_CHART_COLUMN));
	sbuf_adds(out, "</th><th scope=\"col\">");
	html_of(out, text_of(b, PT_HWP_LABEL_MEMORY));
	sbuf_adds(out, "</th></tr></thead>\n<tbody>\n");
	for (i = 0; i < n; i++) {
		sbuf_adds(out, "<tr><th scope=\"row\">");
		html_of(out, names[i].data);
		sbuf_adds(out, "</th><td>");
		html_of(out, sizes[i].data);
		sbuf_adds(out, "</td></tr>\n");
	}
	sbuf_adds(out, "</tbody>\n</table></div>\n</div>\n");
}

#define CHART_PER_WIDTH 3       /* models drawn at each width of the weights */
#define CHART_BARS (1 + sizeof(fit_widths) / sizeof(fit_widths[0]) * CHART_PER_WIDTH)

/* The chart's bars: the card's memory (highlighted), then the largest
 * CHART_PER_WIDTH models that fit at 16, 8 and 4 bits, each at the memory
 * its weights take; labels (the table's first column) into names[],
 * their memory as the pages write it into sizes[]. Returns the bars. */
static size_t chart_bars(hwbuild *b, const hwlink_card *card, double memory,
			 const hwpage_models *models, chart_bar *bars, sbuf *names, sbuf *sizes)
{
	size_t i, w, n = 1;

	sbuf_adds(&names[0], card->name);
	format_bytes(&b->lang, memory, &sizes[0]);
	bars[0].value = memory / 1e9;
	bars[0].highlight = 1;
	for (w = 0; w < sizeof(fit_widths) / sizeof(fit_widths[0]); w++) {
		size_t shown = 0;
		char bits[8];

		mc_fmt(bits, sizeof(bits), "%d", fit_widths[w]);
		for (i = 0; i < models->nrunnable && shown < CHART_PER_WIDTH; i++) {
			const page_index_entry *e = &models->entries[models->runnable[i]];
			const char *pairs[] = { "name", e->name, "bits", bits, NULL };

			if (!hwpage_fits(e->parameters, fit_widths[w], memory))
				continue;
			set_vars(b, pairs);
			if (expand(b, PT_HWP_CHART_MODEL, &names[n]) != 0)
				continue;
			format_bytes(&b->lang, e->parameters * fit_widths[w] / 8, &sizes[n]);
			bars[n].value = e->parameters * fit_widths[w] / 8 / 1e9;
			n++;
			shown++;
		}
	}
	return n;
}

/* The figure: its title, its description, the chart as an SVG image (in
 * the page, as a data: URL: it is this page's alone) and its data as a
 * table. Nothing when no model fits. */
static void add_memory_chart(hwbuild *b, const hwlink_card *card, double memory,
			     const hwpage_models *models)
{
	chart_bar bars[CHART_BARS];
	sbuf names[CHART_BARS], sizes[CHART_BARS], labels[CHART_BARS], title, desc, axis, rule, svg,
	     html;
	size_t i, n;

	memset(bars, 0, sizeof(bars));
	for (i = 0; i < CHART_BARS; i++) {
		sbuf_init(&names[i]);
		sbuf_init(&sizes[i]);
		sbuf_init(&labels[i]);
	}
	sbuf_init(&title);
	sbuf_init(&desc);
	sbuf_init(&axis);
	sbuf_init(&rule);
	sbuf_init(&svg);
	sbuf_init(&html);
	n = chart_bars(b, card, memory, models, bars, names, sizes);
	{
		const char *pairs[] = { "name", card->name, "memory", sizes[0].data, NULL };

		set_vars(b, pairs);
		expand(b, PT_HWP_CHART_TITLE, &title);
		expand(b, PT_HWP_CHART_DESC, &desc);
		clear_vars(b);
		expand(b, PT_HWP_CHART_AXIS, &axis);
		expand(b, PT_HWP_CHART_RULE, &rule);
	}
	if (n > 1 && !b->failed) {
		chart c;

		chart_init(&c);
		c.lang = &b->lang;
		c.title = title.data;
		c.desc = desc.data;
		c.x.label = axis.data;
		chart_axis_linear(&c.x, memory / 1e9);
		/* the fit rule's limit (hwpage_fits), with its label in a row
		   of its own above the bars */
		c.rule = memory * 0.9 / 1e9;
		c.rule_label = rule.data;
		c.width = HW_CHART_WIDTH;
		c.height = 16 + 52 + 36 * (int)(n + 1);
		for (i = 0; i < n; i++) {
			sbuf_addf(&labels[i], "%s: %s", names[i].data, sizes[i].data);
			bars[i].label = labels[i].data;
		}
		chart_bars_svg(&c, bars, n, &svg);
		memory_figure(b, &c, names, sizes, n, &svg, &html);
		page_add(b->p, PAGE_RAW, 0, NULL, html.data);
	}
	for (i = 0; i < CHART_BARS; i++) {
		sbuf_release(&names[i]);
		sbuf_release(&sizes[i]);
		sbuf_release(&labels[i]);
	}
	sbuf_release(&title);
	sbuf_release(&desc);
	sbuf_release(&axis);
	sbuf_release(&rule);
	sbuf_release(&svg);
	sbuf_release(&html);
}

static void add_run(hwbuild *b, const hwlink_card *card, const hwpage_models *models)
{
	double memory;
	size_t i;

	clear_vars(b);
	page_add(b->p, PAGE_OPEN, 0, "run", NULL);
	add_text(b, PAGE_HEADING, 2, NULL, PT_HWP_RUN_HEADING);
	if (!hwpage_memory(card, &memory)) {
		add_text(b, PAGE_PARAGRAPH, 0, "empty", PT_HWP_NO_MEMORY);
	} else {
		sbuf mem;

		sbuf_init(&mem);
		format_bytes(&b->lang, memory, &mem);
		{
			const char *pairs[] = { "memory", mem.data, NULL };

			set_vars(b, pairs);
			add_text(b, PAGE_PARAGRAPH, 0, "intro", PT_HWP_RUN_RULE);
		}
		sbuf_release(&mem);
		if (!b->all)
			add_memory_chart(b, card, memory, models);
		for (i = 0; i < sizeof(fit_widths) / sizeof(fit_widths[0]); i++)
			if (!b->all || b->only_bits == fit_widths[i])
				add_fitting(b, memory, fit_widths[i], models);
	}
	page_add(b->p, PAGE_CLOSE, 0, NULL, NULL);
}

/* The end of a build: 0, or -1 with the page emptied. */
static int finish(hwbuild *b)
{
	if (!b->failed)
		return 0;
	page_release(b->p);
	return -1;
}

/* The page's meta description from text id. */
static void set_description(hwbuild *b, page_text_id id)
{
	sbuf s;

	sbuf_init(&s);
	if (expand(b, id, &s) == 0 && s.len) {
		free(b->p->description);
		b->p->description = sbuf_detach(&s, NULL);
	}
	sbuf_release(&s);
}

static void hwbuild_init(hwbuild *b, page *p, const page_texts *texts, const page_texts *english,
			 mc_err *err)
{
	memset(b, 0, sizeof(*b));
	b->p = p;
	b->texts = texts;
	b->english = english;
	b->err = err;
	page_format_lang(texts, english, &b->lang);
}

int hwpage_build(page *p, const hwlink_day *d, size_t card, const hwpage_models *models,
		 const char *all_stem, const page_texts *texts, const page_texts *english,
		 mc_err *err)
{
	const hwlink_card *c = &d->cards[card];
	hwbuild b;

	hwbuild_init(&b, p, texts, english, err);
	b.all_stem = all_stem;
	page_add(p, PAGE_TITLE, 1, NULL, c->name);
	{
		const char *pairs[] = { "name", c->name, NULL };

		set_vars(&b, pairs);
		set_description(&b, PT_HWP_META);
	}
	add_specs(&b, c);
	add_run(&b, c, models);
	add_trained(&b, d, card, models);
	return finish(&b);
}

int hwpage_build_all(page *p, const hwlink_day *d, size_t card, const hwpage_models *models,
		     int bits, const char *card_href, const char *csv_href,
		     const page_texts *texts, const page_texts *english, mc_err *err)
{
	const hwlink_card *c = &d->cards[card];
	char bits_text[8];
	const char *pairs[] = { "name", c->name, "bits", bits_text, NULL };
	page_block *blk;
	hwbuild b;

	snprintf(bits_text, sizeof(bits_text), "%d", bits);
	hwbuild_init(&b, p, texts, english, err);
	b.all = 1;
	b.only_bits = bits;
	set_vars(&b, pairs);
	add_text(&b, PAGE_TITLE, 1, NULL, bits ? PT_HWP_ALL_TITLE : PT_HWP_ALL_TRAINED_TITLE);
	set_description(&b, PT_HWP_ALL_META);
	if ((blk = add_text(&b, PAGE_PARAGRAPH, 0, "intro", PT_HWP_ALL_BACK)))
		blk->link = page_strdup(p, card_href);
	clear_vars(&b);
	if (csv_href && bits && (blk = add_text(&b, PAGE_PARAGRAPH, 0, "intro", PT_HWP_ALL_CSV)))
		blk->link = page_strdup(p, csv_href);
	if (bits)
		add_run(&b, c, models);
	else
		add_trained(&b, d, card, models);
	return finish(&b);
}

void hwpage_csv(const hwlink_day *d, size_t card, const hwpage_models *models, sbuf *out)
{
	double memory;
	size_t w, i;

	sbuf_adds(out, "bits,model,parameters,weights_bytes\n");
	if (!hwpage_memory(&d->cards[card], &memory))
		return;
	for (w = 0; w < sizeof(fit_widths) / sizeof(fit_widths[0]); w++)
		for (i = 0; i < models->nrunnable; i++) {
			const page_index_entry *e = &models->entries[models->runnable[i]];

			if (!hwpage_fits(e->parameters, fit_widths[w], memory))
				continue;
			sbuf_addf(out, "%d,", fit_widths[w]);
			textout_csv_field(out, e->name, strlen(e->name));
			sbuf_addf(out, ",%.17g,%.17g\n", e->parameters,
				  e->parameters * fit_widths[w] / 8);
		}
}

static const hwlink_day *sort_day;

/* Most memory first; cards without a figure last; then by name. */
static int index_cmp(const void *a, const void *b)
{
	const hwlink_card *x = &sort_day->cards[*(const size_t *)a];
	const hwlink_card *y = &sort_day->cards[*(const size_t *)b];
	double mx = -1, my = -1;

	if (!hwpage_memory(x, &mx))
		mx = -1;
	if (!hwpage_memory(y, &my))
		my = -1;
	if (mx != my)
		return mx > my ? -1 : 1;
	return strcmp(x->name, y->name);
}

int hwpage_build_index(page *p, const hwlink_day *d, char (*files)[140], const char *date,
		       const char *charts, const page_texts *texts, const page_texts *english,
		       mc_err *err)
{
	size_t *order = xcalloc(d->ncards + 1, sizeof(*order)), i;
	sbuf count, day, s;
	hwbuild b;

	hwbuild_init(&b, p, texts, english, err);
	sbuf_init(&count);
	sbuf_init(&day);
	sbuf_init(&s);
	format_number(&b.lang, (double)d->ncards, &count);
	add_date(&b, date, &day);
	{
		const char *pairs[] = { "count", count.data, "date", day.data, NULL };

		set_vars(&b, pairs);
		add_text(&b, PAGE_TITLE, 1, NULL, PT_HWP_INDEX_TITLE);
		set_description(&b, PT_HWP_INDEX_META);
		add_text(&b, PAGE_PARAGRAPH, 0, "intro", PT_HWP_INDEX_INTRO);
	}
	if (charts && *charts)
		page_add_raw(p, xstrdup(charts));
	for (i = 0; i < d->ncards; i++)
		order[i] = i;
	sort_day = d;
	qsort(order, d->ncards, sizeof(*order), index_cmp);
	sort_day = NULL;
	page_add(p, PAGE_OPEN, 0, "index", NULL);
	for (i = 0; i < d->ncards; i++) {
		const hwlink_card *c = &d->cards[order[i]];
		double memory;
		sbuf mem;

		sbuf_init(&mem);
		if (hwpage_memory(c, &memory))
			format_bytes(&b.lang, memory, &mem);
		{
			const char *pairs[] = { "name", c->name, "memory", mem.data, NULL };

			set_vars(&b, pairs);
		}
		sbuf_reset(&s);
		if (expand(&b, PT_HWP_INDEX_ITEM, &s) == 0)
			page_add(p, PAGE_LINK, 0, NULL, s.data)->link = page_strdup(p, files[order[i]]);
		sbuf_release(&mem);
	}
	page_add(p, PAGE_CLOSE, 0, NULL, NULL);
	free(order);
	sbuf_release(&count);
	sbuf_release(&day);
	sbuf_release(&s);
	return finish(&b);
}
