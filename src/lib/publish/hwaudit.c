#include "publish/hwaudit.h"
#include "publish/hwpage.h"
#include "publish/render.h"
#include "publish/render_internal.h"
#include "publish/page.h"
#include "base/textout.h"

#include <stdlib.h>
#include <string.h>

/* The widths of the weights the pages list, in hwpage.c's order. */
static const int widths[HWAUDIT_WIDTHS] = { 16, 8, 4 };

/* A long list in the text and HTML audits: this many names, then "and N
 * more" (the JSON names every one). */
#define HWAUDIT_SHOWN 8

int hwaudit_bits(size_t k)
{
	return k < HWAUDIT_WIDTHS ? widths[k] : 0;
}

/* ---- the pages of one date ---- */

/* What the hardware pages of a date are made from. */
typedef struct day_pages {
	render_run r;                /* its links (r.links) and the models' entries */
	render_stats stats;
	hwpage_models models;        /* the entries, the runnable ones largest first */
} day_pages;

/* The pages of day (NULL or "": none) into s; no card: no model read.
 * 0, or -1 (err); day_release() in both cases. */
static int day_load(catalogue *cat, const char *day, day_pages *s, mc_err *err)
{
	memset(s, 0, sizeof(*s));
	strmap_init(&s->models.by_name);
	s->r.cat = cat;
	s->r.as_of = day;
	s->r.stats = &s->stats;
	if (!day || !day[0])
		return 0;
	if (hwlink_load(cat, day, &s->r.links, err))
		return -1;
	if (!s->r.links.ncards)
		return 0;
	if (render_models_entries(&s->r, err))
		return -1;
	strmap_release(&s->models.by_name);
	hwpage_models_init(&s->models, s->r.entries, s->r.nentries);
	return 0;
}

static void day_release(day_pages *s)
{
	hwpage_models_release(&s->models);
	render_run_release(&s->r);
}

/* ---- one card ---- */

static void names_add(hwaudit_names *l, const char *name)
{
	l->v = xrealloc(l->v, (l->n + 1) * sizeof(*l->v));
	l->v[l->n++] = xstrdup(name);
}

static void names_release(hwaudit_names *l)
{
	mc_free_strings(l->v, l->n);
	memset(l, 0, sizeof(*l));
}

/* Card c's list at width k on both dates (memory 0: the card has no
 * memory figure, so lists nothing): what it gained, lost, and kept with
 * another parameter count. */
static void fits_compare(const day_pages *b, double mb, const day_pages *a, double ma,
			 size_t k, hwaudit_card *c)
{
	const hwpage_models *mb_ = &b->models, *ma_ = &a->models;
	strmap was;
	size_t i, *slot;
	int added;

	strmap_init(&was);
	for (i = 0; mb > 0 && i < mb_->nrunnable; i++) {
		const page_index_entry *e = &mb_->entries[mb_->runnable[i]];

		if (hwpage_fits(e->parameters, widths[k], mb))
			*strmap_get_or_add(&was, e->name, strlen(e->name), &added) = mb_->runnable[i] + 1;
	}
	for (i = 0; ma > 0 && i < ma_->nrunnable; i++) {
		const page_index_entry *e = &ma_->entries[ma_->runnable[i]];

		if (!hwpage_fits(e->parameters, widths[k], ma))
			continue;
		if (!(slot = strmap_find(&was, e->name, strlen(e->name)))) {
			names_add(&c->added[k], e->name);
			continue;
		}
		if (mb_->entries[*slot - 1].parameters != e->parameters)
			names_add(&c->figures[k], e->name);
		*slot = 0;           /* listed on both dates */
	}
	for (i = 0; mb > 0 && i < mb_->nrunnable; i++) {
		const page_index_entry *e = &mb_->entries[mb_->runnable[i]];

		slot = strmap_find(&was, e->name, strlen(e->name));
		if (slot && *slot)
			names_add(&c->removed[k], e->name);
	}
	strmap_release(&was);
}

/* The models d links to card into *set (name -> 1). */
static void trained_set(const hwlink_day *d, size_t card, strmap *set)
{
	size_t i;
	int added;

	for (i = 0; i < d->nlinks; i++)
		if (d->links[i].card == card)
			*strmap_get_or_add(set, d->links[i].model, strlen(d->links[i].model), &added) = 1;
}

/* The models trained on it one date lists and the other does not. */
static void trained_compare(const hwlink_day *b, size_t cb, const hwlink_day *a, size_t ca,
			    hwaudit_card *c)
{
	strmap was, is;
	size_t i;

	strmap_init(&was);
	strmap_init(&is);
	trained_set(b, cb, &was);
	trained_set(a, ca, &is);
	for (i = 0; i < a->nlinks; i++)
		if (a->links[i].card == ca &&
		    !strmap_find(&was, a->links[i].model, strlen(a->links[i].model)))
			names_add(&c->trained_added, a->links[i].model);
	for (i = 0; i < b->nlinks; i++)
		if (b->links[i].card == cb &&
		    !strmap_find(&is, b->links[i].model, strlen(b->links[i].model)))
			names_add(&c->trained_removed, b->links[i].model);
	strmap_release(&was);
	strmap_release(&is);
}

static int card_changed(const hwaudit_card *c)
{
	size_t k;

	for (k = 0; k < HWAUDIT_WIDTHS; k++)
		if (c->added[k].n || c->removed[k].n || c->figures[k].n)
			return 1;
	return c->trained_added.n || c->trained_removed.n;
}

static void card_release(hwaudit_card *c)
{
	size_t k;

	free(c->name);
	for (k = 0; k < HWAUDIT_WIDTHS; k++) {
		names_release(&c->added[k]);
		names_release(&c->removed[k]);
		names_release(&c->figures[k]);
	}
	names_release(&c->trained_added);
	names_release(&c->trained_removed);
}

/* Every card of a also on record in b, compared (cards sorted by name). */
static void cards_compare(const day_pages *b, const day_pages *a, hwaudit *out)
{
	const hwlink_day *la = &a->r.links, *lb = &b->r.links;
	size_t i, k;

	for (i = 0; i < la->ncards; i++) {
		const hwlink_card *ca = &la->cards[i], *cb = hwlink_card_named(lb, ca->name);
		double ma = 0, mb = 0;
		hwaudit_card c;

		if (!cb)
			continue;    /* a card added: the audit's records name it */
		memset(&c, 0, sizeof(c));
		if (!hwpage_memory(ca, &ma))
			ma = 0;
		if (!hwpage_memory(cb, &mb))
			mb = 0;
		for (k = 0; k < HWAUDIT_WIDTHS; k++)
			fits_compare(b, mb, a, ma, k, &c);
		trained_compare(lb, (size_t)(cb - lb->cards), la, i, &c);
		if (!card_changed(&c)) {
			card_release(&c);
			continue;
		}
		c.name = xstrdup(ca->name);
		out->cards = xrealloc(out->cards, (out->n + 1) * sizeof(*out->cards));
		out->cards[out->n++] = c;
	}
}

int hwaudit_compare(catalogue *cat, const char *before, const char *after, hwaudit *a,
		    mc_err *err)
{
	day_pages b, n;
	int rc;

	memset(a, 0, sizeof(*a));
	rc = day_load(cat, before, &b, err);
	/* no card before: every card of after is new, and named as such
	 * (day_load() of no day only sets n up) */
	if (day_load(cat, !rc && b.r.links.ncards ? after : NULL, &n, err))
		rc = -1;
	if (!rc && b.r.links.ncards && n.r.links.ncards)
		cards_compare(&b, &n, a);
	day_release(&n);
	day_release(&b);
	return rc;
}

void hwaudit_release(hwaudit *a)
{
	size_t i;

	for (i = 0; a && i < a->n; i++)
		card_release(&a->cards[i]);
	if (a) {
		free(a->cards);
		memset(a, 0, sizeof(*a));
	}
}

/* ---- the audit's section ---- */

/* A name in the text or the HTML audit. */
static void put(sbuf *out, const char *s, int html)
{
	if (html)
		textout_html(out, s, strlen(s));
	else
		sbuf_adds(out, s);
}

/* The words of the section: texts (else english; both NULL: the English
 * built in, as the text audit writes it). */
typedef struct words {
	const page_texts *texts, *english;
	int html;
} words;

/* Text id (builtin: its English built in) filled from pairs, into out. */
static void say(const words *w, page_text_id id, const char *builtin, const char *const *pairs,
		sbuf *out)
{
	sbuf s;

	if (!w->texts && !w->english) {
		put(out, builtin, w->html);
		return;
	}
	sbuf_init(&s);
	page_text_plain(w->texts, w->english, id, pairs, &s);
	put(out, s.data ? s.data : "", w->html);
	sbuf_release(&s);
}

/* n as the words' language writes it ("1,234", "1.234"; the English
 * built in: "1234", as the text audit always wrote it). */
static void count(const words *w, size_t n, sbuf *out)
{
	const page_texts *t = w->texts ? w->texts : w->english;

	if (!t) {
		sbuf_addf(out, "%zu", n);
		return;
	}
	format_decimal(format_lang_of(t ? t->lang : "en"), (double)n, 0, 0, out);
}

/* " and N more" after the first HWAUDIT_SHOWN of n names. */
static void more(const words *w, size_t n, sbuf *out)
{
	sbuf c;
	const char *pairs[] = { "count", "", NULL };

	if (n <= HWAUDIT_SHOWN)
		return;
	sbuf_init(&c);
	count(w, n - HWAUDIT_SHOWN, &c);
	pairs[1] = c.data;
	if (!w->texts && !w->english) {
		sbuf_addf(out, " and %s more", c.data);
	} else {
		sbuf_addc(out, ' ');
		say(w, PT_AUDIT_MORE, "", pairs, out);
	}
	sbuf_release(&c);
}

/* "; LABEL: " (the first: "LABEL: "). */
static void label_put(const words *w, page_text_id label, const char *builtin, int *first,
		      sbuf *out)
{
	sbuf_adds(out, *first ? "" : "; ");
	say(w, label, builtin, NULL, out);
	sbuf_adds(out, ": ");
	*first = 0;
}

/* "; LABEL: A (16, 8, 4 bits), B (4 bits) and N more" for the models of
 * lists[0..HWAUDIT_WIDTHS) (a model once, with every width it is in),
 * in the order the lists name them. Nothing when they are empty. */
static void describe_widths(const hwaudit_names *lists, const words *w, page_text_id label,
			    const char *builtin, int *first, sbuf *out)
{
	strmap seen;
	const char **names = NULL;
	int *mask = NULL, added;
	size_t n = 0, k, i;

	strmap_init(&seen);
	for (k = 0; k < HWAUDIT_WIDTHS; k++)
		for (i = 0; i < lists[k].n; i++) {
			size_t *slot = strmap_get_or_add(&seen, lists[k].v[i], strlen(lists[k].v[i]),
							 &added);

			if (added) {
				names = xrealloc(names, (n + 1) * sizeof(*names));
				mask = xrealloc(mask, (n + 1) * sizeof(*mask));
				names[n] = lists[k].v[i];
				mask[n] = 0;
				*slot = n++;
			}
			mask[*slot] |= 1 << k;
		}
	if (n)
		label_put(w, label, builtin, first, out);
	for (i = 0; i < n && i < HWAUDIT_SHOWN; i++) {
		int one = 1;

		sbuf_adds(out, i ? ", " : "");
		put(out, names[i], w->html);
		sbuf_adds(out, " (");
		for (k = 0; k < HWAUDIT_WIDTHS; k++)
			if (mask[i] & (1 << k))
				sbuf_addf(out, "%s%d", one ? "" : ", ", widths[k]), one = 0;
		sbuf_adds(out, " bits)");
	}
	more(w, n, out);
	strmap_release(&seen);
	free(names);
	free(mask);
}

/* "; LABEL: A, B and N more", nothing when l is empty. */
static void describe_names(const hwaudit_names *l, const words *w, page_text_id label,
			   const char *builtin, int *first, sbuf *out)
{
	size_t i;

	if (!l->n)
		return;
	label_put(w, label, builtin, first, out);
	for (i = 0; i < l->n && i < HWAUDIT_SHOWN; i++) {
		sbuf_adds(out, i ? ", " : "");
		put(out, l->v[i], w->html);
	}
	more(w, l->n, out);
}

/* What changed on card c's page, one line without its name. */
static void describe(const hwaudit_card *c, const words *w, sbuf *out)
{
	int first = 1;

	describe_widths(c->added, w, PT_AUDIT_HARDWARE_FITS_NOW, "fits now", &first, out);
	describe_widths(c->removed, w, PT_AUDIT_HARDWARE_FITS_NO_LONGER, "fits no longer", &first,
			out);
	describe_widths(c->figures, w, PT_AUDIT_HARDWARE_PARAMETERS, "parameter count changed",
			&first, out);
	describe_names(&c->trained_added, w, PT_AUDIT_HARDWARE_TRAINED_ADDED,
		       "trained on it, now listed", &first, out);
	describe_names(&c->trained_removed, w, PT_AUDIT_HARDWARE_TRAINED_REMOVED,
		       "trained on it, no longer listed", &first, out);
}

/* After "Hardware pages (N): " in the text; a sentence of its own, its
 * first letter a capital, in the HTML. */
static const char section_intro[] =
	"the cards whose pages list other models: the open-weights models that fit in"
	" their memory (at 16, 8 and 4 bits) or the models trained on them";

void hwaudit_text(const hwaudit *a, sbuf *out)
{
	const words w = { NULL, NULL, 0 };
	size_t i;

	if (!a || !a->n)
		return;
	sbuf_addf(out, "\nHardware pages (%zu): %s\n", a->n, section_intro);
	for (i = 0; i < a->n; i++) {
		sbuf_addf(out, "  %s: ", a->cards[i].name);
		describe(&a->cards[i], &w, out);
		sbuf_addc(out, '\n');
	}
}

static void json_names(sbuf *out, const char *key, const hwaudit_names *l)
{
	size_t i;

	sbuf_addf(out, "\"%s\": [", key);
	for (i = 0; i < l->n; i++) {
		sbuf_adds(out, i ? ", " : "");
		textout_json_string(out, l->v[i], strlen(l->v[i]));
	}
	sbuf_addc(out, ']');
}

void hwaudit_json(const hwaudit *a, sbuf *out)
{
	size_t i, k;

	sbuf_adds(out, ",\n \"hardware\": [");
	for (i = 0; a && i < a->n; i++) {
		const hwaudit_card *c = &a->cards[i];
		int first = 1;

		sbuf_adds(out, i ? ",\n   {\"name\": " : "\n   {\"name\": ");
		textout_json_string(out, c->name, strlen(c->name));
		sbuf_adds(out, ", \"fits\": [");
		for (k = 0; k < HWAUDIT_WIDTHS; k++) {
			if (!c->added[k].n && !c->removed[k].n && !c->figures[k].n)
				continue;
			sbuf_addf(out, "%s{\"bits\": %d, ", first ? "" : ", ", widths[k]);
			first = 0;
			json_names(out, "added", &c->added[k]);
			sbuf_adds(out, ", ");
			json_names(out, "removed", &c->removed[k]);
			sbuf_adds(out, ", ");
			json_names(out, "parameters_changed", &c->figures[k]);
			sbuf_addc(out, '}');
		}
		sbuf_adds(out, "], \"trained\": {");
		json_names(out, "added", &c->trained_added);
		sbuf_adds(out, ", ");
		json_names(out, "removed", &c->trained_removed);
		sbuf_adds(out, "}}");
	}
	sbuf_addc(out, ']');
}

void hwaudit_html(const hwaudit *a, const char *pages, const page_texts *texts,
		  const page_texts *english, sbuf *out)
{
	const words w = { texts, english, 1 };
	char stem[128];
	size_t i;

	if (!a || !a->n)
		return;
	sbuf_adds(out, "<h2 id=\"hardware\">");
	say(&w, PT_AUDIT_HARDWARE, "Hardware pages", NULL, out);
	sbuf_adds(out, " (");
	count(&w, a->n, out);
	sbuf_adds(out, ")</h2>\n<p>");
	if (!texts && !english) {
		sbuf_addc(out, (char)(section_intro[0] - 'a' + 'A'));
		sbuf_adds(out, section_intro + 1);
		sbuf_addc(out, '.');
	} else {
		say(&w, PT_AUDIT_HARDWARE_INTRO, "", NULL, out);
	}
	sbuf_adds(out, "</p>\n<ul>\n");
	for (i = 0; i < a->n; i++) {
		sbuf_adds(out, "<li>");
		if (pages) {
			render_file_stem(a->cards[i].name, stem, sizeof(stem));
			sbuf_adds(out, "<a href=\"");
			put(out, pages, 1);
			sbuf_adds(out, "/hardware/");
			put(out, stem, 1);
			sbuf_adds(out, ".html\">");
		}
		put(out, a->cards[i].name, 1);
		sbuf_adds(out, pages ? "</a>: " : ": ");
		describe(&a->cards[i], &w, out);
		sbuf_adds(out, "</li>\n");
	}
	sbuf_adds(out, "</ul>\n");
}
