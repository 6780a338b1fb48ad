#include "publish/audit.h"
#include "publish/hwaudit.h"
#include "values/format.h"
#include "publish/render.h"
#include "base/textout.h"

#include <stdlib.h>
#include <string.h>

static void json_str(sbuf *out, const char *s);
static void html(sbuf *out, const char *s);
static const char *count_str(const audit_links *l, size_t n, char *buf, size_t size);

/* ---- held for review (text, JSON, HTML) ---- */

enum { HELD_TEXT, HELD_JSON, HELD_HTML };

static const char held_kept[] = "kept, not removed: its row is likely inside the broken row"
				" at line";

/* Text id in l's language (l NULL or without texts: builtin, the English
 * built in, followed by pairs' value of "count" when it has one), escaped. */
static void held_word(const audit_links *l, page_text_id id, const char *builtin,
		      const char *const *pairs, sbuf *out)
{
	sbuf s;

	sbuf_init(&s);
	if (l && (l->texts || l->english))
		page_text_plain(l->texts, l->english, id, pairs, &s);
	else if (pairs && !strcmp(pairs[0], "count"))
		sbuf_addf(&s, "%s %s", builtin, pairs[1]);
	else
		sbuf_adds(&s, builtin);
	html(out, s.data ? s.data : "");
	sbuf_release(&s);
}

/* The HTML of held_section(): words from l (NULL, or no texts: English). */
static void held_html(const diff_result *d, const audit_links *l, sbuf *out)
{
	size_t i, n = d->held_exports.n + d->held_models.n;
	char c[32];

	if (!n)
		return;
	sbuf_adds(out, "<h2 id=\"held\">");
	held_word(l, PT_AUDIT_HELD, "Held for review", NULL, out);
	if (l && (l->texts || l->english))
		count_str(l, n, c, sizeof(c));
	else
		mc_fmt(c, sizeof(c), "%zu", n);
	sbuf_addf(out, " (%s)</h2>\n<ul>\n", c);
	for (i = 0; i < n; i++) {
		const diff_held *h = i < d->held_exports.n ? &d->held_exports.items[i]
			: &d->held_models.items[i - d->held_exports.n];
		const char *kept[] = { "count", c, NULL }, *held[] = { "reason", h->reason, NULL };

		mc_fmt(c, sizeof(c), "%ld", h->line);
		sbuf_adds(out, "<li><span class=\"export\">");
		html(out, h->export);
		sbuf_adds(out, "</span> ");
		if (h->name) {
			html(out, h->name);
			sbuf_adds(out, ": ");
			held_word(l, PT_AUDIT_HELD_KEPT, held_kept, kept, out);
		} else if (l && (l->texts || l->english)) {
			held_word(l, PT_AUDIT_HELD_EXPORT, "", held, out);
		} else {
			html(out, "held, nothing applied: ");
			html(out, h->reason);
		}
		sbuf_adds(out, "</li>\n");
	}
	sbuf_adds(out, "</ul>\n");
}

/* The exports a guard held and the models kept because their row is
 * likely inside a quarantined one: a "Held for review" section (JSON: a
 * "held" member, after a comma; HTML: held_html()). */
static void held_section(const diff_result *d, sbuf *out, int format)
{
	size_t i, n = d->held_exports.n + d->held_models.n;

	if (format == HELD_JSON)
		sbuf_adds(out, ",\n \"held\": [");
	else if (n)
		sbuf_adds(out, "\nHeld for review\n");
	for (i = 0; i < n; i++) {
		const diff_held *h = i < d->held_exports.n ? &d->held_exports.items[i]
			: &d->held_models.items[i - d->held_exports.n];
		char line[32];

		mc_fmt(line, sizeof(line), "%ld", h->line);
		if (format == HELD_TEXT) {
			sbuf_addf(out, "  %s %s: ", h->as_of, h->export);
			if (h->name)
				sbuf_addf(out, "%s: %s %s\n", h->name, held_kept, line);
			else
				sbuf_addf(out, "held for review, nothing applied (guard %s): %s\n",
					  h->guard, h->reason);
		} else {
			sbuf_adds(out, i ? ",\n   {\"export\": " : "\n   {\"export\": ");
			json_str(out, h->export);
			sbuf_adds(out, ", \"snapshot\": ");
			json_str(out, h->as_of);
			if (h->name) {
				sbuf_adds(out, ", \"name\": ");
				json_str(out, h->name);
				sbuf_addf(out, ", \"line\": %ld}", h->line);
			} else {
				sbuf_adds(out, ", \"guard\": ");
				json_str(out, h->guard);
				sbuf_adds(out, ", \"reason\": ");
				json_str(out, h->reason);
				sbuf_addc(out, '}');
			}
		}
	}
	if (format == HELD_JSON)
		sbuf_addc(out, ']');
}

/* The values a new column gave, or a removed column took from, each
 * model: changes of those models, grouped by column ("New column X: N
 * models", each named). JSON: a "column_values" member, after a comma. */
static void column_values_section(const diff_result *d, sbuf *out, int format)
{
	size_t i, k;

	if (format == HELD_JSON)
		sbuf_adds(out, ",\n \"column_values\": [");
	for (i = 0; i < d->column_values.n; i++) {
		const diff_column_values *c = &d->column_values.items[i];
		const char *what = c->removed ? "Column removed" : "New column";

		if (format == HELD_JSON) {
			sbuf_adds(out, i ? ",\n   {\"export\": " : "\n   {\"export\": ");
			json_str(out, c->export);
			sbuf_adds(out, ", \"field\": ");
			json_str(out, c->field);
			sbuf_addf(out, ", \"kind\": \"%s\", \"models\": [", c->removed ? "removed" : "added");
		} else if (format == HELD_TEXT) {
			sbuf_addf(out, "\n%s %s (%s): %zu model%s\n", what, c->field, c->export, c->n,
				  c->n == 1 ? "" : "s");
		} else {
			sbuf_addf(out, "<h2>%s ", what);
			html(out, c->field);
			sbuf_addf(out, ": %zu model%s <span class=\"export\">", c->n, c->n == 1 ? "" : "s");
			html(out, c->export);
			sbuf_adds(out, "</span></h2>\n<ul>\n");
		}
		for (k = 0; k < c->n; k++) {
			if (format == HELD_JSON) {
				if (k)
					sbuf_adds(out, ", ");
				json_str(out, c->names[k]);
			} else if (format == HELD_TEXT) {
				sbuf_addf(out, "  %s\n", c->names[k]);
			} else {
				sbuf_adds(out, "<li>");
				html(out, c->names[k]);
				sbuf_adds(out, "</li>\n");
			}
		}
		sbuf_adds(out, format == HELD_JSON ? "]}" : format == HELD_HTML ? "</ul>\n" : "");
	}
	if (format == HELD_JSON)
		sbuf_addc(out, ']');
}

/* ---- order and counts ---- */

static int fold_cmp(const char *a, const char *b)
{
	for (; *a && *b; a++, b++) {
		int x = (*a >= 'A' && *a <= 'Z') ? *a + 32 : *a;
		int y = (*b >= 'A' && *b <= 'Z') ? *b + 32 : *b;

		if (x != y)
			return (unsigned char)x - (unsigned char)y;
	}
	return (unsigned char)*a - (unsigned char)*b;
}

static int model_cmp(const void *a, const void *b)
{
	const diff_model *x = *(const diff_model *const *)a, *y = *(const diff_model *const *)b;
	int c = fold_cmp(x->name, y->name);

	if (!c)
		c = strcmp(x->name, y->name);
	return c ? c : strcmp(x->export, y->export);
}

/* The n models of items sorted by name (case folded): a copy of l's
 * order when it has one of items (sorted once for the three audits of a
 * diff, audit_order_make), else sorted here. The caller frees the array. */
static const diff_model **sorted(const audit_links *l, const diff_model *items, size_t n)
{
	const diff_model **v = xcalloc(n + 1, sizeof(*v));
	size_t i;

	for (i = 0; l && l->order && i < AUDIT_LISTS; i++)
		if (l->order->items[i] == items && l->order->n[i] == n) {
			if (n)
				memcpy(v, l->order->sorted[i], n * sizeof(*v));
			return v;
		}
	for (i = 0; i < n; i++)
		v[i] = &items[i];
	qsort(v, n, sizeof(*v), model_cmp);
	return v;
}

void audit_order_make(audit_order *o, const diff_result *d)
{
	const diff_model *items[AUDIT_LISTS] = { d->added.items, d->removed.items,
						 d->renamed.items, d->changed.items };
	size_t n[AUDIT_LISTS] = { d->added.n, d->removed.n, d->renamed.n, d->changed.n }, i;

	for (i = 0; i < AUDIT_LISTS; i++) {
		o->items[i] = items[i];
		o->n[i] = n[i];
		o->sorted[i] = sorted(NULL, items[i], n[i]);
	}
}

void audit_order_release(audit_order *o)
{
	size_t i;

	for (i = 0; i < AUDIT_LISTS; i++) {
		free(o->sorted[i]);
		o->sorted[i] = NULL;
	}
}

/* The rename of changed model m (same export and new name), or NULL. */
static const diff_model *rename_of(const diff_result *d, const diff_model *m)
{
	size_t i;

	for (i = 0; i < d->renamed.n; i++)
		if (!strcmp(d->renamed.items[i].export, m->export) &&
		    !strcmp(d->renamed.items[i].name, m->name))
			return &d->renamed.items[i];
	return NULL;
}

/* The value changes of renamed model r, or NULL. */
static const diff_model *changes_of(const diff_result *d, const diff_model *r)
{
	size_t i;

	for (i = 0; i < d->changed.n; i++)
		if (!strcmp(d->changed.items[i].export, r->export) &&
		    !strcmp(d->changed.items[i].name, r->name))
			return &d->changed.items[i];
	return NULL;
}

size_t audit_changed_count(const diff_result *d)
{
	size_t i, n = 0;

	for (i = 0; i < d->changed.n; i++)
		n += !rename_of(d, &d->changed.items[i]);
	return n;
}

/* Are all of m's changes in volatile fields (l's)? */
static int volatile_only(const audit_links *l, const diff_model *m)
{
	size_t i, k;

	if (!l || !l->nvolatile || !m->nfields)
		return 0;
	for (i = 0; i < m->nfields; i++) {
		for (k = 0; k < l->nvolatile; k++)
			if (!strcmp(m->fields[i].field, l->volatile_fields[k]))
				break;
		if (k == l->nvolatile)
			return 0;
	}
	return 1;
}

/* The volatile fields, "A, B". */
static void volatile_names(const audit_links *l, sbuf *out)
{
	size_t k;

	for (k = 0; k < l->nvolatile; k++)
		sbuf_addf(out, "%s%s", k ? ", " : "", l->volatile_fields[k]);
}

/* ---- text ---- */

/* A value on one line: line breaks folded to spaces, cut at 300 bytes. */
static void text_value(sbuf *out, const char *field, const char *value)
{
	size_t i, n, cut;
	sbuf f;

	if (!value) {
		sbuf_adds(out, "(none)");
		return;
	}
	sbuf_init(&f);
	format_value(format_lang_of("en"), field, value, &f);
	value = f.data;
	n = f.len;
	cut = n > 300 ? 300 : n;
	while (cut < n && cut > 0 && ((unsigned char)value[cut] & 0xC0) == 0x80)
		cut--;
	for (i = 0; i < cut; i++)
		sbuf_addc(out, value[i] == '\n' || value[i] == '\r' || value[i] == '\t' ? ' ' : value[i]);
	if (cut < n)
		sbuf_adds(out, "...");
	sbuf_release(&f);
}

static void text_header(const diff_result *d, sbuf *out)
{
	sbuf_addf(out, "Changes from %s to %s\n", d->from[0] ? d->from : "(nothing)", d->to);
	sbuf_addf(out, "%zu added, %zu removed, %zu renamed, %zu changed, %zu quarantined;"
		  " columns: %zu added, %zu removed\n", d->added.n, d->removed.n,
		  d->renamed.n, audit_changed_count(d), d->quarantined.n, d->columns_added.n,
		  d->columns_removed.n);
}

static void text_fields(const diff_model *m, sbuf *out)
{
	size_t k;

	for (k = 0; m && k < m->nfields; k++) {
		sbuf_addf(out, "    %s: ", m->fields[k].field);
		text_value(out, m->fields[k].field, m->fields[k].old);
		sbuf_adds(out, " \xe2\x86\x92 ");
		text_value(out, m->fields[k].field, m->fields[k].new);
		sbuf_addc(out, '\n');
	}
}

static void text_names(sbuf *out, const audit_links *l, const char *title,
		       const diff_model *items, size_t n)
{
	const diff_model **v = sorted(l, items, n);
	size_t i;

	if (n)
		sbuf_addf(out, "\n%s\n", title);
	for (i = 0; i < n; i++)
		sbuf_addf(out, "  %s: %s%s\n", v[i]->export, v[i]->name,
			  v[i]->returned ? " (returned)" : "");
	free(v);
}

void audit_text(const diff_result *d, sbuf *out)
{
	audit_text_with(d, NULL, out);
}

/* Models whose only changes are volatile: one line each. */
static void text_volatile(const diff_result *d, const audit_links *l, const diff_model **v,
			  sbuf *out)
{
	size_t i, k, n = 0;

	for (i = 0; i < d->changed.n; i++) {
		if (rename_of(d, v[i]) || !volatile_only(l, v[i]))
			continue;
		if (!n++) {
			sbuf_adds(out, "\nChanged only in volatile fields (");
			volatile_names(l, out);
			sbuf_adds(out, ")\n");
		}
		sbuf_addf(out, "  %s: %s:", v[i]->export, v[i]->name);
		for (k = 0; k < v[i]->nfields; k++) {
			sbuf_addf(out, "%s %s ", k ? ";" : "", v[i]->fields[k].field);
			text_value(out, v[i]->fields[k].field, v[i]->fields[k].old);
			sbuf_adds(out, " \xe2\x86\x92 ");
			text_value(out, v[i]->fields[k].field, v[i]->fields[k].new);
		}
		sbuf_addc(out, '\n');
	}
}

/* q's reason less its field when the reason names it first, as the
 * parser words it ("Model: the row has no model name" for the field
 * Model): the audit names the field itself, in the page's language. */
static const char *reason_after_field(const diff_quarantine *q)
{
	size_t n = q->field ? strlen(q->field) : 0;

	if (n && q->reason && !strncmp(q->reason, q->field, n) && q->reason[n] == ':' &&
	    q->reason[n + 1] == ' ')
		return q->reason + n + 2;
	return q->reason;
}

void audit_text_with(const diff_result *d, const audit_links *l, sbuf *out)
{
	const diff_model **v;
	size_t i;

	text_header(d, out);
	if (l && l->citation)
		sbuf_addf(out, "Source: %s\n", l->citation);
	for (i = 0; i < d->columns_added.n; i++)
		sbuf_addf(out, "\ncolumn added    %s: %s", d->columns_added.items[i].export,
			  d->columns_added.items[i].new_header);
	for (i = 0; i < d->columns_removed.n; i++)
		sbuf_addf(out, "\ncolumn removed  %s: %s", d->columns_removed.items[i].export,
			  d->columns_removed.items[i].old_header);
	for (i = 0; i < d->headers_respelled.n; i++)
		sbuf_addf(out, "\nheader respelled (same field, not a change)  %s: %s -> %s",
			  d->headers_respelled.items[i].export,
			  d->headers_respelled.items[i].old_header, d->headers_respelled.items[i].new_header);
	if (d->columns_added.n || d->columns_removed.n || d->headers_respelled.n)
		sbuf_addc(out, '\n');
	text_names(out, l, "Added", d->added.items, d->added.n);
	text_names(out, l, "Removed", d->removed.items, d->removed.n);
	v = sorted(l, d->renamed.items, d->renamed.n);
	if (d->renamed.n)
		sbuf_adds(out, "\nRenamed\n");
	for (i = 0; i < d->renamed.n; i++) {
		sbuf_addf(out, "  %s: %s -> %s\n", v[i]->export, v[i]->old_name, v[i]->name);
		text_fields(changes_of(d, v[i]), out);
	}
	free(v);
	v = sorted(l, d->changed.items, d->changed.n);
	for (i = 0; i < d->changed.n; i++)
		if (!rename_of(d, v[i]) && !volatile_only(l, v[i]))
			break;
	if (i < d->changed.n)
		sbuf_adds(out, "\nChanged\n");
	for (i = 0; i < d->changed.n; i++) {
		if (rename_of(d, v[i]) || volatile_only(l, v[i]))
			continue;
		sbuf_addf(out, "  %s: %s\n", v[i]->export, v[i]->name);
		text_fields(v[i], out);
	}
	text_volatile(d, l, v, out);
	free(v);
	hwaudit_text(l ? l->hardware : NULL, out);
	if (d->quarantined.n)
		sbuf_adds(out, "\nQuarantined\n");
	for (i = 0; i < d->quarantined.n; i++) {
		const diff_quarantine *q = &d->quarantined.items[i];

		sbuf_addf(out, "  %s %s line %ld: %s: ", q->as_of, q->export, q->line,
			  q->name ? q->name : "(no model name)");
		if (q->field)
			sbuf_addf(out, "%s: ", q->field);
		text_value(out, "", reason_after_field(q));
		sbuf_addc(out, '\n');
	}
	column_values_section(d, out, HELD_TEXT);
	held_section(d, out, HELD_TEXT);
}

/* ---- JSON ---- */

static void json_str(sbuf *out, const char *s)
{
	if (!s)
		sbuf_adds(out, "null");
	else
		textout_json_string(out, s, strlen(s));
}

static void json_names(sbuf *out, const audit_links *l, const char *key,
		       const diff_model *items, size_t n)
{
	const diff_model **v = sorted(l, items, n);
	size_t i;
	int first = 1;

	sbuf_addf(out, ",\n \"%s\": [", key);
	for (i = 0; i < n; i++) {
		/* a model added to several exports is named once */
		if (i && !strcmp(v[i - 1]->name, v[i]->name))
			continue;
		sbuf_adds(out, first ? "" : ", ");
		first = 0;
		json_str(out, v[i]->name);
	}
	sbuf_addc(out, ']');
	free(v);
}

/* "key": [names of the models of one export] */
static void json_export_names(sbuf *out, const char *key, const diff_model *items, size_t n,
			      const char *export_name)
{
	size_t i;
	int first = 1;

	sbuf_addf(out, "\"%s\": [", key);
	for (i = 0; i < n; i++) {
		if (strcmp(items[i].export, export_name))
			continue;
		sbuf_adds(out, first ? "" : ", ");
		first = 0;
		json_str(out, items[i].name);
	}
	sbuf_addc(out, ']');
}

static void json_columns(sbuf *out, const char *key, const diff_column *items, size_t n)
{
	size_t i;

	sbuf_addf(out, "\"%s\": [", key);
	for (i = 0; i < n; i++) {
		sbuf_adds(out, i ? ", {\"export\": " : "{\"export\": ");
		json_str(out, items[i].export);
		sbuf_adds(out, ", \"field\": ");
		json_str(out, items[i].field);
		sbuf_adds(out, ", \"from\": ");
		json_str(out, items[i].old_header);
		sbuf_adds(out, ", \"to\": ");
		json_str(out, items[i].new_header);
		sbuf_addc(out, '}');
	}
	sbuf_addc(out, ']');
}

/* , "fields": [...] of m (none when m is NULL) */
static void json_fields(sbuf *out, const diff_model *m)
{
	size_t k;

	sbuf_adds(out, ", \"fields\": [");
	for (k = 0; m && k < m->nfields; k++) {
		sbuf_adds(out, k ? ", {\"field\": " : "{\"field\": ");
		json_str(out, m->fields[k].field);
		sbuf_adds(out, ", \"old\": ");
		json_str(out, m->fields[k].old);
		sbuf_adds(out, ", \"new\": ");
		json_str(out, m->fields[k].new);
		sbuf_addc(out, '}');
	}
	sbuf_addc(out, ']');
}

void audit_json(const diff_result *d, sbuf *out)
{
	audit_json_with(d, NULL, out);
}

/* The models that came back, by name: a "returned" member, after a comma. */
static void json_returned(const diff_result *d, const audit_links *l, sbuf *out)
{
	const diff_model **v = sorted(l, d->added.items, d->added.n);
	size_t i, k;

	sbuf_adds(out, ",\n \"returned\": [");
	for (i = 0, k = 0; i < d->added.n; i++) {
		if (!v[i]->returned)
			continue;
		sbuf_adds(out, k++ ? ", {\"name\": " : "{\"name\": ");
		json_str(out, v[i]->name);
		sbuf_adds(out, ", \"export\": ");
		json_str(out, v[i]->export);
		sbuf_addc(out, '}');
	}
	sbuf_addc(out, ']');
	free(v);
}

void audit_json_with(const diff_result *d, const audit_links *l, sbuf *out)
{
	const diff_model **v;
	size_t i, k;

	sbuf_adds(out, "{\"from\": ");
	json_str(out, d->from[0] ? d->from : NULL);
	sbuf_adds(out, ", \"to\": ");
	json_str(out, d->to);
	if (l && l->citation) {
		sbuf_adds(out, ",\n \"source\": ");
		json_str(out, l->citation);
	}
	json_names(out, l, "added", d->added.items, d->added.n);
	json_names(out, l, "removed", d->removed.items, d->removed.n);
	json_returned(d, l, out);
	v = sorted(l, d->renamed.items, d->renamed.n);
	sbuf_adds(out, ",\n \"renamed\": [");
	for (i = 0; i < d->renamed.n; i++) {
		sbuf_adds(out, i ? ",\n   {\"from\": " : "\n   {\"from\": ");
		json_str(out, v[i]->old_name);
		sbuf_adds(out, ", \"to\": ");
		json_str(out, v[i]->name);
		sbuf_adds(out, ", \"export\": ");
		json_str(out, v[i]->export);
		json_fields(out, changes_of(d, v[i]));
		sbuf_addc(out, '}');
	}
	free(v);
	v = sorted(l, d->changed.items, d->changed.n);
	sbuf_adds(out, "],\n \"changed\": [");
	for (i = 0, k = 0; i < d->changed.n; i++) {
		if (rename_of(d, v[i]))
			continue;
		sbuf_adds(out, k++ ? ",\n   {\"name\": " : "\n   {\"name\": ");
		json_str(out, v[i]->name);
		sbuf_adds(out, ", \"export\": ");
		json_str(out, v[i]->export);
		json_fields(out, v[i]);
		if (volatile_only(l, v[i]))
			sbuf_adds(out, ", \"volatile_only\": true");
		sbuf_addc(out, '}');
	}
	free(v);
	sbuf_adds(out, "],\n \"columns\": {");
	json_columns(out, "added", d->columns_added.items, d->columns_added.n);
	sbuf_adds(out, ", ");
	json_columns(out, "removed", d->columns_removed.items, d->columns_removed.n);
	sbuf_adds(out, ", ");
	/* a header spelled differently that maps onto the same field (an alias)
	 * is no column change: it is listed under headers_respelled */
	json_columns(out, "renamed", NULL, 0);
	sbuf_adds(out, "},\n \"headers_respelled\": {");
	json_columns(out, "list", d->headers_respelled.items, d->headers_respelled.n);
	sbuf_adds(out, "},\n \"quarantined\": [");
	for (i = 0; i < d->quarantined.n; i++) {
		const diff_quarantine *q = &d->quarantined.items[i];

		sbuf_adds(out, i ? ",\n   {\"export\": " : "\n   {\"export\": ");
		json_str(out, q->export);
		sbuf_addf(out, ", \"snapshot\": ");
		json_str(out, q->as_of);
		sbuf_addf(out, ", \"line\": %ld, \"name\": ", q->line);
		json_str(out, q->name);
		sbuf_adds(out, ", \"field\": ");
		json_str(out, q->field);
		sbuf_adds(out, ", \"reason\": ");
		json_str(out, q->reason);
		sbuf_addc(out, '}');
	}
	sbuf_adds(out, "],\n \"by_export\": {");
	for (i = 0; i < d->exports.n; i++) {
		const char *e = d->exports.items[i];
		size_t n = 0, c = 0, q = 0;

		for (k = 0; k < d->renamed.n; k++)
			n += !strcmp(d->renamed.items[k].export, e);
		for (k = 0; k < d->changed.n; k++)
			c += !strcmp(d->changed.items[k].export, e) && !rename_of(d, &d->changed.items[k]);
		for (k = 0; k < d->quarantined.n; k++)
			q += !strcmp(d->quarantined.items[k].export, e);
		sbuf_adds(out, i ? ",\n   " : "\n   ");
		json_str(out, e);
		sbuf_adds(out, ": {");
		json_export_names(out, "added", d->added.items, d->added.n, e);
		sbuf_adds(out, ", ");
		json_export_names(out, "removed", d->removed.items, d->removed.n, e);
		sbuf_addf(out, ", \"renamed\": %zu, \"changed\": %zu, \"quarantined\": %zu}", n, c, q);
	}
	sbuf_adds(out, "}");
	column_values_section(d, out, HELD_JSON);
	held_section(d, out, HELD_JSON);
	if (l && l->hardware)
		hwaudit_json(l->hardware, out);
	sbuf_adds(out, "}\n");
}

/* ---- HTML ---- */

static void html(sbuf *out, const char *s)
{
	if (s)
		textout_html(out, s, strlen(s));
}

/* Wide values wrap, tables fit the screen: no horizontal scrolling on a
 * narrow one (400 px). */
static const char audit_style[] =
	"body{font:15px/1.45 system-ui,sans-serif;margin:0 auto;max-width:60em;padding:1em;"
	"color:#222;overflow-wrap:anywhere}h1{font-size:1.5em}"
	"h2{font-size:1.2em;margin-top:1.6em;border-bottom:1px solid #ccc}h3{font-size:1em}"
	"table{border-collapse:collapse;width:100%;table-layout:fixed}"
	"td,th{border:1px solid #ccc;padding:.25em .4em;text-align:left;vertical-align:top;"
	"overflow-wrap:anywhere;word-break:break-word}th{background:#f4f4f4}td.n{text-align:right}"
	"td.field{width:30%}table.summary tr>:first-child{width:30%}"
	/* the counts' words whole ("toegevoegd", not "toegevoeg" and "d"):
	   on a narrow screen the table scrolls in its own box */
	".wide{overflow-x:auto}table.counts{table-layout:auto}"
	"table.counts th,table.counts td{overflow-wrap:normal;word-break:normal}"
	"table.counts tr>:first-child{width:auto}"
	"del{background:#fdd;text-decoration:line-through}ins{background:#dfd;text-decoration:none}"
	"details{margin:.3em 0}summary{padding:.3em 0;cursor:pointer}"
	"ul{padding-left:1.2em}.field{font-weight:600}.export{color:#666;font-size:.9em}"
	".nav{margin:.5em 0}.nav a{margin-right:1em}"
	".site{margin:-1em -1em 0}"
	"@media print{.nav{display:none}del,ins{background:none}}"
	/* the header reaches the screen's edges through the body's padding,
	   no further: at 1em against a padding of .5em it made the page 7 px
	   wider than a 400 px screen */
	"@media (max-width:40em){body{font-size:14px;padding:.5em}th,td{padding:.2em}"
	"table.summary{font-size:12px}.site{margin:-.5em -.5em 0}}";

/* The model's name, a link to its page when it has one. */
static void html_model(sbuf *out, const audit_links *l, const char *name, int linked)
{
	char stem[96];

	if (!linked || !l || !l->pages || (l->has_page && !l->has_page(l->arg, name))) {
		html(out, name);
		return;
	}
	render_file_stem(name, stem, sizeof(stem));
	sbuf_adds(out, "<a href=\"");
	html(out, l->pages);
	sbuf_adds(out, "/");
	html(out, stem);
	sbuf_adds(out, ".html\">");
	html(out, name);
	sbuf_adds(out, "</a>");
}

static void html_models(sbuf *out, const audit_links *l, const char *title,
			const diff_model *items, size_t n, const char *id, int linked)
{
	const diff_model **v = sorted(l, items, n);
	size_t i;

	if (n)
		sbuf_addf(out, "<h2 id=\"%s\">%s (%zu)</h2>\n<ul>\n", id, title, n);
	for (i = 0; i < n; i++) {
		sbuf_adds(out, "<li>");
		if (v[i]->old_name) {
			sbuf_adds(out, "<del>");
			html(out, v[i]->old_name);
			sbuf_adds(out, "</del> \xe2\x86\x92 <ins>");
			html_model(out, l, v[i]->name, linked);
			sbuf_adds(out, "</ins>");
		} else {
			html_model(out, l, v[i]->name, linked);
		}
		if (v[i]->returned)
			sbuf_adds(out, " <strong class=\"returned\">returned</strong>");
		sbuf_adds(out, " <span class=\"export\">");
		html(out, v[i]->export);
		sbuf_adds(out, "</span></li>\n");
	}
	if (n)
		sbuf_adds(out, "</ul>\n");
	free(v);
}

static void html_columns(sbuf *out, const char *verb, const diff_column *items, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		sbuf_addf(out, "<li>%s <span class=\"export\">", verb);
		html(out, items[i].export);
		sbuf_adds(out, "</span>: ");
		if (items[i].old_header) {
			sbuf_adds(out, "<del>");
			html(out, items[i].old_header);
			sbuf_adds(out, "</del> ");
		}
		if (items[i].new_header) {
			sbuf_adds(out, "<ins>");
			html(out, items[i].new_header);
			sbuf_adds(out, "</ins>");
		}
		sbuf_adds(out, "</li>\n");
	}
}

/* A value as pages show it, the stored one in its title. */
static void html_value(sbuf *out, const char *tag, const char *field, const char *value)
{
	sbuf f;

	if (!value)
		return;
	sbuf_init(&f);
	format_value(format_lang_of("en"), field, value, &f);
	if (strcmp(f.data, value)) {
		sbuf_addf(out, "<%s title=\"", tag);
		html(out, value);
		sbuf_adds(out, "\">");
	} else {
		sbuf_addf(out, "<%s>", tag);
	}
	html(out, f.data);
	sbuf_addf(out, "</%s>", tag);
	sbuf_release(&f);
}

/* One model's changed values, a table. */
static void html_fields(sbuf *out, const diff_model *m)
{
	size_t k;

	if (!m || !m->nfields)
		return;
	sbuf_adds(out, "<table>\n");
	for (k = 0; k < m->nfields; k++) {
		sbuf_adds(out, "<tr><td class=\"field\">");
		html(out, m->fields[k].field);
		sbuf_adds(out, "</td><td>");
		html_value(out, "del", m->fields[k].field, m->fields[k].old);
		sbuf_adds(out, "</td><td>");
		html_value(out, "ins", m->fields[k].field, m->fields[k].new);
		sbuf_adds(out, "</td></tr>\n");
	}
	sbuf_adds(out, "</table>\n");
}

static void html_summary(const diff_result *d, sbuf *out)
{
	size_t i, k;

	sbuf_adds(out, "<table class=\"summary\">\n<tr><th>export</th><th>added</th>"
		  "<th>removed</th><th>renamed</th><th>changed</th><th>quarantined</th></tr>\n");
	for (i = 0; i < d->exports.n; i++) {
		const char *e = d->exports.items[i];
		size_t c[5] = { 0 };

		for (k = 0; k < d->added.n; k++)
			c[0] += !strcmp(d->added.items[k].export, e);
		for (k = 0; k < d->removed.n; k++)
			c[1] += !strcmp(d->removed.items[k].export, e);
		for (k = 0; k < d->renamed.n; k++)
			c[2] += !strcmp(d->renamed.items[k].export, e);
		for (k = 0; k < d->changed.n; k++)
			c[3] += !strcmp(d->changed.items[k].export, e) && !rename_of(d, &d->changed.items[k]);
		for (k = 0; k < d->quarantined.n; k++)
			c[4] += !strcmp(d->quarantined.items[k].export, e);
		sbuf_adds(out, "<tr><td>");
		html(out, e);
		sbuf_addf(out, "</td><td class=\"n\">%zu</td><td class=\"n\">%zu</td>"
			  "<td class=\"n\">%zu</td><td class=\"n\">%zu</td><td class=\"n\">%zu</td></tr>\n",
			  c[0], c[1], c[2], c[3], c[4]);
	}
	sbuf_addf(out, "<tr><th>all</th><td class=\"n\" id=\"count-added\">%zu</td>"
		  "<td class=\"n\" id=\"count-removed\">%zu</td><td class=\"n\" id=\"count-renamed\">%zu</td>"
		  "<td class=\"n\" id=\"count-changed\">%zu</td>"
		  "<td class=\"n\" id=\"count-quarantined\">%zu</td></tr>\n</table>\n",
		  d->added.n, d->removed.n, d->renamed.n, audit_changed_count(d), d->quarantined.n);
}

static void html_nav(sbuf *out, const audit_links *l)
{
	if (!l || (!l->prev && !l->next && !l->index))
		return;
	sbuf_adds(out, "<div class=\"nav\" role=\"navigation\" aria-label=\"Audits\">");
	if (l->prev) {
		sbuf_adds(out, "<a rel=\"prev\" href=\"");
		html(out, l->prev);
		sbuf_adds(out, ".html\">\xe2\x86\x90 ");
		html(out, l->prev);
		sbuf_adds(out, "</a>");
	}
	if (l->index)
		sbuf_adds(out, "<a href=\"index.html\">all audits</a>");
	if (l->next) {
		sbuf_adds(out, "<a rel=\"next\" href=\"");
		html(out, l->next);
		sbuf_adds(out, ".html\">");
		html(out, l->next);
		sbuf_adds(out, " \xe2\x86\x92</a>");
	}
	sbuf_adds(out, "</div>\n");
}

static void html_quarantined(const diff_result *d, sbuf *out)
{
	size_t i;

	if (!d->quarantined.n)
		return;
	sbuf_addf(out, "<h2 id=\"quarantined\">Quarantined rows (%zu)</h2>\n<table>\n"
		  "<tr><th>snapshot</th><th>export</th><th>line</th><th>model</th>"
		  "<th>reason</th></tr>\n", d->quarantined.n);
	for (i = 0; i < d->quarantined.n; i++) {
		const diff_quarantine *q = &d->quarantined.items[i];

		sbuf_adds(out, "<tr><td>");
		html(out, q->as_of);
		sbuf_adds(out, "</td><td>");
		html(out, q->export);
		sbuf_addf(out, "</td><td class=\"n\">%ld</td><td>", q->line);
		html(out, q->name ? q->name : "(no model name)");
		sbuf_adds(out, "</td><td>");
		if (q->field) {
			html(out, q->field);
			sbuf_adds(out, ": ");
		}
		html(out, reason_after_field(q));
		sbuf_adds(out, "</td></tr>\n");
	}
	sbuf_adds(out, "</table>\n");
}

/* Models whose only changes are volatile: a compact list. */
static void html_volatile(const diff_result *d, const audit_links *l, const diff_model **v,
			  sbuf *out)
{
	size_t i, k, n = 0;
	sbuf names;

	for (i = 0; i < d->changed.n; i++)
		n += !rename_of(d, v[i]) && volatile_only(l, v[i]);
	if (!n)
		return;
	sbuf_init(&names);
	volatile_names(l, &names);
	sbuf_addf(out, "<h2 id=\"volatile\">Changed only in volatile fields (%zu)</h2>\n"
		  "<p>Models whose only change is in a field that changes on its own (", n);
	html(out, names.data);
	sbuf_adds(out, ").</p>\n<ul class=\"volatile\">\n");
	sbuf_release(&names);
	for (i = 0; i < d->changed.n; i++) {
		if (rename_of(d, v[i]) || !volatile_only(l, v[i]))
			continue;
		sbuf_adds(out, "<li>");
		html_model(out, l, v[i]->name, 1);
		for (k = 0; k < v[i]->nfields; k++) {
			sbuf_adds(out, k ? "; " : ": ");
			html(out, v[i]->fields[k].field);
			sbuf_adds(out, " ");
			html_value(out, "del", v[i]->fields[k].field, v[i]->fields[k].old);
			sbuf_adds(out, " \xe2\x86\x92 ");
			html_value(out, "ins", v[i]->fields[k].field, v[i]->fields[k].new);
		}
		sbuf_adds(out, "</li>\n");
	}
	sbuf_adds(out, "</ul>\n");
}

void audit_html_linked(const diff_result *d, const audit_links *l, sbuf *out)
{
	const diff_model **v;
	size_t i, k;

	const frame *f = l ? l->frame : NULL;
	sbuf description;

	sbuf_adds(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		  "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		  "<title>modelcat audit ");
	html(out, d->to);
	sbuf_adds(out, "</title>\n");
	sbuf_init(&description);
	sbuf_addf(&description, "What changed in the catalogue of AI models from %s to %s: "
		  "%zu added, %zu removed, %zu renamed, %zu changed.", d->from[0] ? d->from : "nothing",
		  d->to, d->added.n, d->removed.n, d->renamed.n, audit_changed_count(d));
	frame_head(f, description.data, out);
	sbuf_release(&description);
	sbuf_addf(out, "<style>%s%s%s</style>\n</head>\n<body>\n", audit_style, f ? frame_style : "",
		  l && l->cite ? cite_style : "");
	frame_header(f, out);
	html_nav(out, l);
	sbuf_adds(out, "<h1>Changes from ");
	html(out, d->from[0] ? d->from : "(nothing)");
	sbuf_adds(out, " to ");
	html(out, d->to);
	sbuf_adds(out, "</h1>\n");
	if (l && l->citation) {
		sbuf_adds(out, "<p class=\"source\">Source: ");
		html(out, l->citation);
		sbuf_adds(out, "</p>\n");
	}
	html_summary(d, out);
	if (d->columns_added.n || d->columns_removed.n || d->headers_respelled.n) {
		sbuf_adds(out, "<h2 id=\"columns\">Columns</h2>\n<ul>\n");
		html_columns(out, "added", d->columns_added.items, d->columns_added.n);
		html_columns(out, "removed", d->columns_removed.items, d->columns_removed.n);
		html_columns(out, "header respelled (same field, not a change)",
			     d->headers_respelled.items, d->headers_respelled.n);
		sbuf_adds(out, "</ul>\n");
	}
	/* in the text audit's order: added, removed, renamed, changed */
	html_models(out, l, "Added", d->added.items, d->added.n, "added", 1);
	html_models(out, l, "Removed", d->removed.items, d->removed.n, "removed", 0);
	v = sorted(l, d->renamed.items, d->renamed.n);
	if (d->renamed.n)
		sbuf_addf(out, "<h2 id=\"renamed\">Renamed (%zu)</h2>\n", d->renamed.n);
	for (i = 0; i < d->renamed.n; i++) {
		sbuf_adds(out, "<h3><del>");
		html(out, v[i]->old_name);
		sbuf_adds(out, "</del> \xe2\x86\x92 <ins>");
		html_model(out, l, v[i]->name, 1);
		sbuf_adds(out, "</ins> <span class=\"export\">");
		html(out, v[i]->export);
		sbuf_adds(out, "</span></h3>\n");
		html_fields(out, changes_of(d, v[i]));
	}
	free(v);
	v = sorted(l, d->changed.items, d->changed.n);
	for (i = 0, k = 0; i < d->changed.n; i++)
		k += !rename_of(d, v[i]) && !volatile_only(l, v[i]);
	if (k)
		sbuf_addf(out, "<h2 id=\"changed\">Changed (%zu)</h2>\n", k);
	for (i = 0; i < d->changed.n; i++) {
		if (rename_of(d, v[i]) || volatile_only(l, v[i]))
			continue;
		sbuf_adds(out, "<h3>");
		html_model(out, l, v[i]->name, 1);
		sbuf_adds(out, " <span class=\"export\">");
		html(out, v[i]->export);
		sbuf_adds(out, "</span></h3>\n");
		html_fields(out, v[i]);
	}
	html_volatile(d, l, v, out);
	free(v);
	hwaudit_html(l ? l->hardware : NULL, l ? l->pages : NULL, NULL, NULL, out);
	html_quarantined(d, out);
	column_values_section(d, out, HELD_HTML);
	held_html(d, NULL, out);
	if (l && l->cite)
		sbuf_adds(out, l->cite);
	html_nav(out, l);
	sbuf_adds(out, "</body>\n</html>\n");
}

void audit_html(const diff_result *d, sbuf *out)
{
	audit_html_linked(d, NULL, out);
}

/* ---- the site's audit, sized for reading ---- */

#define AUDIT_PAGE_BYTES (160 * 1024)   /* a page of a long list: its items */
#define AUDIT_PAGE_ELEMENTS 1600
#define AUDIT_MAIN_ELEMENTS 1200        /* the lists inline on the audit's page */
#define AUDIT_MAIN_BYTES (120 * 1024)
#define AUDIT_LIST_INLINE 150           /* a list inline up to this many elements */
#define AUDIT_TOP 10                    /* the most changed models */

enum { K_ADDED, K_REMOVED, K_RENAMED, K_CHANGED, K_VOLATILE, K_QUARANTINED, K_COLUMN };
static const char *const kind_slug[] = { "added", "removed", "renamed", "changed", "volatile",
					 "quarantined", "column" };

/* One list of an export's section: its items, HTML, one after another. */
typedef struct alist {
	char slug[96];               /* EXPORT-KIND[-K]: its id and its pages' names */
	sbuf title;                  /* HTML */
	sbuf plain;                  /* the same, plain text */
	const char *open, *close;    /* around the items */
	sbuf items;
	size_t *ends;                /* item i ends at ends[i] */
	size_t n;
} alist;

/* The number of start tags in s[0..len). */
static size_t elements(const char *s, size_t len)
{
	size_t i, n = 0;

	for (i = 0; i + 1 < len; i++)
		n += s[i] == '<' && ((s[i + 1] >= 'a' && s[i + 1] <= 'z') || (s[i + 1] >= 'A' && s[i + 1] <= 'Z'));
	return n;
}

/* Text id in the audit's language, filled from pairs, escaped. */
static void word(const audit_links *l, page_text_id id, const char *const *pairs, sbuf *out)
{
	sbuf s;

	sbuf_init(&s);
	page_text_plain(l->texts, l->english, id, pairs, &s);
	html(out, s.data ? s.data : "");
	sbuf_release(&s);
}

static const format_lang *lang_of(const audit_links *l)
{
	return format_lang_of(l->lang ? l->lang : "en");
}

/* A snapshot's label as the reader reads it: a plain day (YYYY-MM-DD) as
 * the page's language writes a date ("1 november 2025"), any other label
 * as it is; plain text, to be escaped. */
static const char *label_text(const audit_links *l, const char *label, sbuf *out)
{
	sbuf_reset(out);
	if (!(strlen(label) == 10 && label[4] == '-' && label[7] == '-' &&
	      format_date(lang_of(l), label, 0, out)))
		sbuf_adds(out, label);
	return out->data;
}

/* A count as the language writes it ("3,247", "3.247"), into buf. */
static const char *count_str(const audit_links *l, size_t n, char *buf, size_t size)
{
	sbuf s;

	sbuf_init(&s);
	format_decimal(lang_of(l), (double)n, 0, 0, &s);
	mc_fmt(buf, size, "%s", s.data ? s.data : "0");
	sbuf_release(&s);
	return buf;
}

/* Field as the History of a model page of the audit's language names it
 * (page_field_value: its label.* or field.* text), escaped; the English
 * audit, and a field no text names, keep the export's column name, as
 * the text and JSON audits write it. */
static int translated(const audit_links *l)
{
	return l && l->texts && l->lang && strcmp(l->lang, "en");
}

static void field_plain(const audit_links *l, const char *field, sbuf *out)
{
	sbuf label, ignored;
	mc_err err;

	if (!translated(l)) {
		sbuf_adds(out, field);
		return;
	}
	sbuf_init(&label);
	sbuf_init(&ignored);
	mc_err_clear(&err);
	if (page_field_value(field, NULL, NULL, l->texts, l->english, &label, &ignored, &err) ||
	    !label.len)
		sbuf_adds(out, field);
	else
		sbuf_add(out, label.data, label.len);
	sbuf_release(&label);
	sbuf_release(&ignored);
}

/* field_plain(), escaped. */
static void field_name(sbuf *out, const audit_links *l, const char *field)
{
	sbuf s;

	sbuf_init(&s);
	field_plain(l, field, &s);
	html(out, s.data ? s.data : "");
	sbuf_release(&s);
}

/* A value in the audit's language, the stored one in its title. */
static void site_value(sbuf *out, const audit_links *l, const char *tag, const char *field,
		       const char *value)
{
	sbuf f;

	if (!value)
		return;
	sbuf_init(&f);
	format_value(lang_of(l), field, value, &f);
	if (strcmp(f.data ? f.data : "", value)) {
		sbuf_addf(out, "<%s title=\"", tag);
		html(out, value);
		sbuf_adds(out, "\">");
	} else {
		sbuf_addf(out, "<%s>", tag);
	}
	html(out, f.data);
	sbuf_addf(out, "</%s>", tag);
	sbuf_release(&f);
}

static void site_fields(sbuf *out, const audit_links *l, const diff_model *m)
{
	size_t k;

	if (!m || !m->nfields)
		return;
	sbuf_adds(out, "<table>\n");
	for (k = 0; k < m->nfields; k++) {
		sbuf_adds(out, "<tr><td class=\"field\"");
		if (translated(l)) {         /* the column, for readers of the markup */
			sbuf_adds(out, " data-field=\"");
			html(out, m->fields[k].field);
			sbuf_addc(out, '"');
		}
		sbuf_addc(out, '>');
		field_name(out, l, m->fields[k].field);
		sbuf_adds(out, "</td><td>");
		site_value(out, l, "del", m->fields[k].field, m->fields[k].old);
		sbuf_adds(out, "</td><td>");
		site_value(out, l, "ins", m->fields[k].field, m->fields[k].new);
		sbuf_adds(out, "</td></tr>\n");
	}
	sbuf_adds(out, "</table>\n");
}

static void item_end(alist *a)
{
	if (!(a->n & (a->n + 1)) || !a->ends)
		a->ends = xrealloc(a->ends, (2 * a->n + 2) * sizeof(*a->ends));
	a->ends[a->n++] = a->items.len;
}

/* One model of kind k (not the column lists) as an item of a. */
static void model_item(alist *a, const diff_result *d, const audit_links *l, int k,
		       const diff_model *m)
{
	sbuf *o = &a->items;
	size_t f;

	sbuf_adds(o, "<li>");
	if (k == K_RENAMED) {
		sbuf_adds(o, "<del>");
		html(o, m->old_name);
		sbuf_adds(o, "</del> \xe2\x86\x92 <ins>");
		html_model(o, l, m->name, 1);
		sbuf_adds(o, "</ins>\n");
		site_fields(o, l, changes_of(d, m));
	} else if (k == K_CHANGED) {
		html_model(o, l, m->name, 1);
		sbuf_adds(o, "\n");
		site_fields(o, l, m);
	} else {
		html_model(o, l, m->name, k != K_REMOVED);
		if (m->returned) {
			sbuf_adds(o, " <strong class=\"returned\">");
			word(l, PT_AUDIT_RETURNED, NULL, o);
			sbuf_adds(o, "</strong>");
		}
		for (f = 0; k == K_VOLATILE && f < m->nfields; f++) {
			sbuf_adds(o, f ? "; " : ": ");
			field_name(o, l, m->fields[f].field);
			sbuf_adds(o, " ");
			site_value(o, l, "del", m->fields[f].field, m->fields[f].old);
			sbuf_adds(o, " \xe2\x86\x92 ");
			site_value(o, l, "ins", m->fields[f].field, m->fields[f].new);
		}
	}
	sbuf_adds(o, "</li>\n");
	item_end(a);
}

/* Does model m of list k belong to kind k's list of the site's audit? */
static int of_kind(const diff_result *d, const audit_links *l, int k, const diff_model *m)
{
	if (k == K_CHANGED)
		return !rename_of(d, m) && !volatile_only(l, m);
	if (k == K_VOLATILE)
		return !rename_of(d, m) && volatile_only(l, m);
	return 1;
}

/* The title of list k (column list c), escaped, into a->title. */
static void list_title(alist *a, const audit_links *l, int k, const diff_column_values *c)
{
	static const page_text_id ids[] = { PT_AUDIT_ADDED, PT_AUDIT_REMOVED, PT_AUDIT_RENAMED,
					    PT_AUDIT_CHANGED, PT_AUDIT_VOLATILE,
					    PT_AUDIT_QUARANTINED };
	const char *pairs[] = { "field", "", "names", "", NULL };
	sbuf names, field;
	size_t i;

	sbuf_init(&names);
	sbuf_init(&field);
	for (i = 0; k == K_VOLATILE && i < l->nvolatile; i++) {
		sbuf_adds(&names, i ? ", " : "");
		field_plain(l, l->volatile_fields[i], &names);
	}
	if (c)
		field_plain(l, c->field, &field);
	pairs[1] = field.data ? field.data : "";
	pairs[3] = names.data ? names.data : "";
	page_text_plain(l->texts, l->english, k == K_COLUMN ? (c->removed ? PT_AUDIT_COLUMN_REMOVED
			: PT_AUDIT_NEW_COLUMN) : ids[k], pairs, &a->plain);
	html(&a->title, a->plain.data ? a->plain.data : "");
	sbuf_release(&names);
	sbuf_release(&field);
}

/* List k of export e (K_COLUMN: column_values[c]) with links l. */
static void list_build(alist *a, const diff_result *d, const audit_links *l, const char *e,
		       int k, size_t c)
{
	const diff_model *items[] = { d->added.items, d->removed.items, d->renamed.items,
				      d->changed.items, d->changed.items };
	size_t n[] = { d->added.n, d->removed.n, d->renamed.n, d->changed.n, d->changed.n }, i;

	memset(a, 0, sizeof(*a));
	sbuf_init(&a->title);
	sbuf_init(&a->plain);
	sbuf_init(&a->items);
	a->open = "<ul>\n";
	a->close = "</ul>\n";
	if (k == K_COLUMN)
		mc_fmt(a->slug, sizeof(a->slug), "%s-column-%zu", e, c + 1);
	else
		mc_fmt(a->slug, sizeof(a->slug), "%s-%s", e, kind_slug[k]);
	list_title(a, l, k, k == K_COLUMN ? &d->column_values.items[c] : NULL);
	if (k < K_QUARANTINED) {
		const diff_model **v = sorted(l, items[k], n[k]);

		for (i = 0; i < n[k]; i++)
			if (!strcmp(v[i]->export, e) && of_kind(d, l, k, v[i]))
				model_item(a, d, l, k, v[i]);
		free(v);
	} else if (k == K_QUARANTINED) {
		for (i = 0; i < d->quarantined.n; i++) {
			const diff_quarantine *q = &d->quarantined.items[i];
			char line[32];
			const char *pairs[] = { "date", q->as_of, "count", line, NULL };

			if (strcmp(q->export, e))
				continue;
			mc_fmt(line, sizeof(line), "%ld", q->line);
			sbuf_adds(&a->items, "<li>");
			word(l, PT_AUDIT_QUARANTINED_ITEM, pairs, &a->items);
			sbuf_adds(&a->items, ": ");
			if (q->name)
				html(&a->items, q->name);
			else
				word(l, PT_AUDIT_NO_NAME, NULL, &a->items);
			sbuf_adds(&a->items, ": ");
			if (q->field) {
				field_name(&a->items, l, q->field);
				sbuf_adds(&a->items, ": ");
			}
			html(&a->items, reason_after_field(q));
			sbuf_adds(&a->items, "</li>\n");
			item_end(a);
		}
	} else {
		const diff_column_values *cv = &d->column_values.items[c];

		for (i = 0; i < cv->n; i++) {
			sbuf_adds(&a->items, "<li>");
			html_model(&a->items, l, cv->names[i], 1);
			sbuf_adds(&a->items, "</li>\n");
			item_end(a);
		}
	}
}

static void list_release(alist *a)
{
	sbuf_release(&a->title);
	sbuf_release(&a->plain);
	sbuf_release(&a->items);
	free(a->ends);
}

static size_t item_start(const alist *a, size_t i)
{
	return i ? a->ends[i - 1] : 0;
}

/* Where the pages of a start: first[0..*npages), the items of page j
 * from first[j] to first[j + 1] (or a->n). The caller frees it. */
static size_t *list_paged(const alist *a, size_t *npages)
{
	size_t *first = xcalloc(a->n + 1, sizeof(*first)), i, from = 0;

	*npages = 0;
	for (i = 0; i < a->n; i++) {
		size_t bytes = a->ends[i] - item_start(a, from);
		size_t els = elements(a->items.data + item_start(a, from), bytes);

		if (i > from && (bytes > AUDIT_PAGE_BYTES || els > AUDIT_PAGE_ELEMENTS)) {
			first[(*npages)++] = from;
			from = i;
		}
	}
	if (a->n)
		first[(*npages)++] = from;
	return first;
}

static audit_page *apage_add(audit_pages *out, const char *name)
{
	audit_page *pg;

	out->v = xrealloc(out->v, (out->n + 1) * sizeof(*out->v));
	pg = &out->v[out->n++];
	mc_fmt(pg->name, sizeof(pg->name), "%s", name);
	sbuf_init(&pg->html);
	return pg;
}

void audit_pages_release(audit_pages *p)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		sbuf_release(&p->v[i].html);
	free(p->v);
	p->v = NULL;
	p->n = 0;
}

/* The head and the header of a page of the site's audit, titled title
 * (plain text), framed by f. */
static void site_head(sbuf *out, const audit_links *l, const frame *f, const char *title,
		      const char *description)
{
	sbuf_addf(out, "<!DOCTYPE html>\n<html lang=\"%s\">\n<head>\n<meta charset=\"utf-8\">\n"
		  "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>",
		  l->lang ? l->lang : "en");
	html(out, title);
	sbuf_adds(out, "</title>\n");
	frame_head(f, description, out);
	sbuf_addf(out, "<style>%s%s%s</style>\n</head>\n<body>\n", audit_style, f ? frame_style : "",
		  l->cite ? cite_style : "");
	frame_header(f, out);
}

/* The links to the n pages of list a ("LABEL/SLUG-N.html" from the
 * audit; "SLUG-N.html" from one of them: from_sub), page current not a link. */
static void page_links(sbuf *out, const audit_links *l, const alist *a, size_t n, int from_sub,
		       size_t current)
{
	size_t j;

	for (j = 1; j <= n; j++) {
		char no[32];
		const char *pairs[] = { "count", no, NULL };

		mc_fmt(no, sizeof(no), "%zu", j);
		sbuf_adds(out, j > 1 ? ", " : " ");
		if (j == current) {
			word(l, PT_AUDIT_PAGE, pairs, out);
			continue;
		}
		sbuf_adds(out, "<a href=\"");
		if (!from_sub) {
			html(out, l->label);
			sbuf_addc(out, '/');
		}
		html(out, a->slug);
		sbuf_addf(out, "-%zu.html\">", j);
		word(l, PT_AUDIT_PAGE, pairs, out);
		sbuf_adds(out, "</a>");
	}
}

/* The pages of list a (made with the sub-pages' links) into out. */
static void list_pages(const diff_result *d, const audit_links *l, const char *e,
		       const alist *a, audit_pages *out)
{
	size_t np, j, *first = list_paged(a, &np);
	char total[32], name[256];

	mc_fmt(total, sizeof(total), "%zu", np);
	for (j = 0; j < np; j++) {
		size_t from = item_start(a, first[j]);
		size_t to = j + 1 < np ? item_start(a, first[j + 1]) : a->items.len;
		char no[32];
		sbuf title, plain, day_from, day_to;
		audit_page *pg;

		mc_fmt(no, sizeof(no), "%zu", j + 1);
		mc_fmt(name, sizeof(name), "%s/%s-%zu.html", l->label, a->slug, j + 1);
		pg = apage_add(out, name);
		sbuf_init(&title);
		sbuf_init(&plain);
		sbuf_init(&day_from);
		sbuf_init(&day_to);
		{
			const char *pairs[] = { "field", a->plain.data, "export", e, "from",
						d->from[0] ? label_text(l, d->from, &day_from) : "-",
						"to", label_text(l, d->to, &day_to), "count", no,
						"shown", total, NULL };

			page_text_plain(l->texts, l->english, PT_AUDIT_PAGE_TITLE, pairs, &plain);
		}
		site_head(&pg->html, l, l->frame_sub, plain.data, plain.data);
		sbuf_adds(&pg->html, "<div class=\"nav\" role=\"navigation\"><a href=\"../");
		html(&pg->html, l->label);
		sbuf_adds(&pg->html, ".html\">");
		{
			const char *pairs[] = { "to", day_to.data, NULL };

			word(l, PT_AUDIT_BACK, pairs, &pg->html);
		}
		sbuf_adds(&pg->html, "</a>");
		page_links(&pg->html, l, a, np, 1, j + 1);
		sbuf_adds(&pg->html, "</div>\n<h1>");
		html(&title, plain.data);
		sbuf_add(&pg->html, title.data, title.len);
		sbuf_adds(&pg->html, "</h1>\n");
		sbuf_adds(&pg->html, a->open);
		sbuf_add(&pg->html, a->items.data + from, to - from);
		sbuf_adds(&pg->html, a->close);
		sbuf_adds(&pg->html, "</body>\n</html>\n");
		sbuf_release(&title);
		sbuf_release(&plain);
		sbuf_release(&day_from);
		sbuf_release(&day_to);
	}
	free(first);
}

/* List k (column list c) of export e: inline in a <details> when it fits
 * the audit page's budget (*budget elements, *bytes), else on pages of its
 * own with links to them. */
static void list_put(const diff_result *d, const audit_links *l, const char *e, int k,
		     size_t c, size_t *budget, size_t *bytes, sbuf *out, audit_pages *pages)
{
	alist a;
	size_t els;
	char n[32];

	list_build(&a, d, l, e, k, c);
	if (!a.n) {
		list_release(&a);
		return;
	}
	els = elements(a.items.data, a.items.len);
	sbuf_adds(out, "<details id=\"");
	html(out, a.slug);
	sbuf_adds(out, "\"><summary>");
	sbuf_add(out, a.title.data, a.title.len);
	sbuf_addf(out, " (%s)</summary>\n", count_str(l, a.n, n, sizeof(n)));
	if (els <= AUDIT_LIST_INLINE && els <= *budget && a.items.len <= *bytes) {
		*budget -= els;
		*bytes -= a.items.len;
		sbuf_adds(out, a.open);
		sbuf_add(out, a.items.data, a.items.len);
		sbuf_adds(out, a.close);
	} else {
		audit_links sub = *l;
		alist s;
		size_t np, *first;
		const char *pairs[] = { "count", n, NULL };

		sub.pages = l->pages_sub;
		list_build(&s, d, &sub, e, k, c);
		first = list_paged(&s, &np);
		free(first);
		sbuf_adds(out, "<p>");
		word(l, PT_AUDIT_PAGES, pairs, out);
		page_links(out, l, &a, np, 0, 0);
		sbuf_adds(out, "</p>\n");
		list_pages(d, &sub, e, &s, pages);
		list_release(&s);
	}
	sbuf_adds(out, "</details>\n");
	list_release(&a);
}

/* The counts of export e: added, removed, renamed, changed, held,
 * quarantined (e NULL: all). */
static void export_counts(const diff_result *d, const char *e, size_t c[6])
{
	size_t k;

	memset(c, 0, 6 * sizeof(*c));
	for (k = 0; k < d->added.n; k++)
		c[0] += !e || !strcmp(d->added.items[k].export, e);
	for (k = 0; k < d->removed.n; k++)
		c[1] += !e || !strcmp(d->removed.items[k].export, e);
	for (k = 0; k < d->renamed.n; k++)
		c[2] += !e || !strcmp(d->renamed.items[k].export, e);
	for (k = 0; k < d->changed.n; k++)
		c[3] += (!e || !strcmp(d->changed.items[k].export, e)) && !rename_of(d, &d->changed.items[k]);
	for (k = 0; k < d->held_exports.n; k++)
		c[4] += !e || !strcmp(d->held_exports.items[k].export, e);
	for (k = 0; k < d->held_models.n; k++)
		c[4] += !e || !strcmp(d->held_models.items[k].export, e);
	for (k = 0; k < d->quarantined.n; k++)
		c[5] += !e || !strcmp(d->quarantined.items[k].export, e);
}

/* The summary table: a row per export, then the totals. */
static void site_summary(const diff_result *d, const audit_links *l, sbuf *out)
{
	static const page_text_id cols[] = { PT_AUDIT_COL_EXPORT, PT_AUDIT_COL_ADDED,
		PT_AUDIT_COL_REMOVED, PT_AUDIT_COL_RENAMED, PT_AUDIT_COL_CHANGED,
		PT_AUDIT_COL_HELD, PT_AUDIT_COL_QUARANTINED };
	static const char *const ids[] = { "added", "removed", "renamed", "changed", "held",
					   "quarantined" };
	size_t i, k, c[6];
	char n[32];

	sbuf_adds(out, "<h2 id=\"summary\">");
	word(l, PT_AUDIT_SUMMARY, NULL, out);
	sbuf_adds(out, "</h2>\n<div class=\"wide\"><table class=\"summary counts\">\n<tr>");
	for (k = 0; k < 7; k++) {
		sbuf_adds(out, "<th>");
		word(l, cols[k], NULL, out);
		sbuf_adds(out, "</th>");
	}
	sbuf_adds(out, "</tr>\n");
	for (i = 0; i <= d->exports.n; i++) {
		const char *e = i < d->exports.n ? d->exports.items[i] : NULL;

		export_counts(d, e, c);
		sbuf_adds(out, e ? "<tr><td>" : "<tr><th>");
		if (e) {
			sbuf_adds(out, "<a href=\"#export-");
			html(out, e);
			sbuf_adds(out, "\">");
			html(out, e);
			sbuf_adds(out, "</a></td>");
		} else {
			word(l, PT_AUDIT_COL_ALL, NULL, out);
			sbuf_adds(out, "</th>");
		}
		for (k = 0; k < 6; k++) {
			sbuf_adds(out, "<td class=\"n\"");
			if (!e)
				sbuf_addf(out, " id=\"count-%s\"", ids[k]);
			sbuf_addf(out, ">%s</td>", count_str(l, c[k], n, sizeof(n)));
		}
		sbuf_adds(out, "</tr>\n");
	}
	sbuf_adds(out, "</table></div>\n");
}

/* How many of m's changed fields are substantive (not volatile). */
static size_t substantive(const audit_links *l, const diff_model *m)
{
	size_t i, k, n = 0;

	for (i = 0; m && i < m->nfields; i++) {
		for (k = 0; k < l->nvolatile; k++)
			if (!strcmp(m->fields[i].field, l->volatile_fields[k]))
				break;
		n += k == l->nvolatile;
	}
	return n;
}

typedef struct top_entry {
	const diff_model *m;
	size_t n;
} top_entry;

static int top_cmp(const void *a, const void *b)
{
	const top_entry *x = a, *y = b;

	if (x->n != y->n)
		return x->n < y->n ? 1 : -1;
	return model_cmp(&x->m, &y->m);
}

/* The models with the most substantive changes, linked to their pages. */
static void site_top(const diff_result *d, const audit_links *l, sbuf *out)
{
	top_entry *v = xcalloc(d->changed.n + 1, sizeof(*v));
	size_t i, n = 0;

	for (i = 0; i < d->changed.n; i++)
		if ((v[n].n = substantive(l, &d->changed.items[i])))
			v[n++].m = &d->changed.items[i];
	qsort(v, n, sizeof(*v), top_cmp);
	if (n) {
		sbuf_adds(out, "<h2 id=\"top\">");
		word(l, PT_AUDIT_TOP, NULL, out);
		sbuf_adds(out, "</h2>\n<ol class=\"top\">\n");
	}
	for (i = 0; i < n && i < AUDIT_TOP; i++) {
		char c[32];
		const char *pairs[] = { "count", c, NULL };

		count_str(l, v[i].n, c, sizeof(c));
		sbuf_adds(out, "<li>");
		html_model(out, l, v[i].m->name, 1);
		sbuf_adds(out, " <span class=\"export\">");
		html(out, v[i].m->export);
		sbuf_adds(out, "</span>: ");
		word(l, PT_AUDIT_TOP_ITEM, pairs, out);
		sbuf_adds(out, "</li>\n");
	}
	if (n)
		sbuf_adds(out, "</ol>\n");
	free(v);
}

/* The section of export e. */
static void site_export(const diff_result *d, const audit_links *l, const char *e,
			size_t *budget, size_t *bytes, sbuf *out, audit_pages *pages)
{
	size_t c[6], k;

	export_counts(d, e, c);
	for (k = 0; k < d->column_values.n; k++)
		c[0] += !strcmp(d->column_values.items[k].export, e);
	if (!c[0] && !c[1] && !c[2] && !c[3] && !c[5] && !d->changed.n)
		return;
	sbuf_adds(out, "<h2 id=\"export-");
	html(out, e);
	sbuf_adds(out, "\">");
	html(out, e);
	sbuf_adds(out, "</h2>\n");
	for (k = K_ADDED; k <= K_QUARANTINED; k++)
		list_put(d, l, e, (int)k, 0, budget, bytes, out, pages);
	for (k = 0; k < d->column_values.n; k++)
		if (!strcmp(d->column_values.items[k].export, e))
			list_put(d, l, e, K_COLUMN, k, budget, bytes, out, pages);
}

static void site_nav(const audit_links *l, sbuf *out)
{
	sbuf day;

	sbuf_init(&day);
	sbuf_adds(out, "<div class=\"nav\" role=\"navigation\" aria-label=\"");
	word(l, PT_AUDIT_NAV, NULL, out);
	sbuf_adds(out, "\">");
	if (l->prev) {
		sbuf_adds(out, "<a rel=\"prev\" href=\"");
		html(out, l->prev);
		sbuf_adds(out, ".html\">\xe2\x86\x90 ");
		html(out, label_text(l, l->prev, &day));
		sbuf_adds(out, "</a>");
	}
	sbuf_adds(out, "<a href=\"index.html\">");
	word(l, PT_AUDIT_ALL, NULL, out);
	sbuf_adds(out, "</a>");
	if (l->next) {
		sbuf_adds(out, "<a rel=\"next\" href=\"");
		html(out, l->next);
		sbuf_adds(out, ".html\">");
		html(out, label_text(l, l->next, &day));
		sbuf_adds(out, " \xe2\x86\x92</a>");
	}
	sbuf_adds(out, "</div>\n");
	sbuf_release(&day);
}

/* The column changes, site-wide. */
static void site_columns(const diff_result *d, const audit_links *l, sbuf *out)
{
	const diff_column *items[] = { d->columns_added.items, d->columns_removed.items,
				       d->headers_respelled.items };
	size_t n[] = { d->columns_added.n, d->columns_removed.n, d->headers_respelled.n };
	static const page_text_id verbs[] = { PT_AUDIT_COLUMN_ADDED_ITEM,
		PT_AUDIT_COLUMN_REMOVED_ITEM, PT_AUDIT_COLUMN_RESPELLED };
	size_t k;
	char c[32];

	if (!n[0] && !n[1] && !n[2])
		return;
	sbuf_adds(out, "<details id=\"columns\"><summary>");
	word(l, PT_AUDIT_COLUMNS, NULL, out);
	sbuf_addf(out, " (%s)</summary>\n<ul>\n", count_str(l, n[0] + n[1] + n[2], c, sizeof(c)));
	for (k = 0; k < 3; k++) {
		sbuf verb;

		sbuf_init(&verb);
		page_text_plain(l->texts, l->english, verbs[k], NULL, &verb);
		html_columns(out, verb.data ? verb.data : "", items[k], n[k]);
		sbuf_release(&verb);
	}
	sbuf_adds(out, "</ul>\n</details>\n");
}

/* A section made whole by another writer (hardware, held): body inline
 * when it fits the budget, else body_sub (its links from one folder
 * deeper) on a page of its own, LABEL/SLUG-1.html. */
static void site_block(const diff_result *d, const audit_links *l, const char *slug,
		       page_text_id title, sbuf *body, sbuf *body_sub, size_t *budget, sbuf *out,
		       audit_pages *pages)
{
	size_t els = elements(body->data, body->len);
	alist a;

	if (!body->len)
		return;
	if (els <= *budget) {
		*budget -= els;
		sbuf_add(out, body->data, body->len);
		return;
	}
	memset(&a, 0, sizeof(a));
	sbuf_init(&a.title);
	sbuf_init(&a.plain);
	sbuf_init(&a.items);
	mc_fmt(a.slug, sizeof(a.slug), "%s", slug);
	page_text_plain(l->texts, l->english, title, NULL, &a.plain);
	html(&a.title, a.plain.data);
	a.open = a.close = "";
	sbuf_add(&a.items, body_sub->data, body_sub->len);
	item_end(&a);
	sbuf_addf(out, "<h2 id=\"%s\"><a href=\"", slug);
	html(out, l->label);
	sbuf_addf(out, "/%s-1.html\">", slug);
	sbuf_add(out, a.title.data, a.title.len);
	sbuf_adds(out, "</a></h2>\n");
	list_pages(d, l, "", &a, pages);
	list_release(&a);
}

void audit_html_site(const diff_result *d, const audit_links *l, audit_pages *pages)
{
	size_t i, budget = AUDIT_MAIN_ELEMENTS, bytes = AUDIT_MAIN_BYTES;
	sbuf title, desc, nothing, body, body_sub, main;
	const char *pairs[] = { "from", "", "to", "", NULL };
	sbuf from, to;

	apage_add(pages, "");
	sbuf_init(&main);
	sbuf_init(&title);
	sbuf_init(&desc);
	sbuf_init(&nothing);
	sbuf_init(&from);
	sbuf_init(&to);
	page_text_plain(l->texts, l->english, PT_AUDIT_NOTHING, NULL, &nothing);
	pairs[1] = d->from[0] ? label_text(l, d->from, &from) : nothing.data;
	pairs[3] = label_text(l, d->to, &to);
	page_text_plain(l->texts, l->english, PT_AUDIT_TITLE, pairs, &title);
	page_text_plain(l->texts, l->english, PT_AUDIT_META, pairs, &desc);
	site_head(&main, l, l->frame, title.data, desc.data);
	site_nav(l, &main);
	sbuf_adds(&main, "<h1>");
	html(&main, title.data);
	sbuf_adds(&main, "</h1>\n");
	sbuf_release(&title);
	sbuf_release(&desc);
	sbuf_release(&nothing);
	sbuf_release(&from);
	sbuf_release(&to);
	if (l->citation) {
		const char *source[] = { "names", l->citation, NULL };

		sbuf_adds(&main, "<p class=\"source\">");
		word(l, PT_AUDIT_SOURCE, source, &main);
		sbuf_adds(&main, "</p>\n");
	}
	site_summary(d, l, &main);
	site_top(d, l, &main);
	site_columns(d, l, &main);
	for (i = 0; i < d->exports.n; i++)
		site_export(d, l, d->exports.items[i], &budget, &bytes, &main, pages);
	sbuf_init(&body);
	sbuf_init(&body_sub);
	hwaudit_html(l->hardware, l->pages, l->texts, l->english, &body);
	hwaudit_html(l->hardware, l->pages_sub, l->texts, l->english, &body_sub);
	site_block(d, l, "hardware", PT_AUDIT_HARDWARE, &body, &body_sub, &budget, &main, pages);
	sbuf_reset(&body);
	held_html(d, l, &body);
	site_block(d, l, "held", PT_AUDIT_HELD, &body, &body, &budget, &main, pages);
	sbuf_release(&body);
	sbuf_release(&body_sub);
	if (l->cite)
		sbuf_adds(&main, l->cite);
	site_nav(l, &main);
	sbuf_adds(&main, "</body>\n</html>\n");
	pages->v[0].html = main;
}
