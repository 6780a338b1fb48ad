#include "out/audit.h"
#include "base/textout.h"

#include <string.h>

static void json_str(sbuf *out, const char *s);
static void html(sbuf *out, const char *s);

/* ---- held for review (text, JSON, HTML) ---- */

enum { HELD_TEXT, HELD_JSON, HELD_HTML };

/* The exports a guard held and the models kept because their row is
 * likely inside a quarantined one: a "Held for review" section (JSON: a
 * "held" member, after a comma). */
static void held_section(const diff_result *d, sbuf *out, int format)
{
	static const char kept[] = "kept, not removed: its row is likely inside the broken row"
				   " at line";
	size_t i, n = d->held_exports.n + d->held_models.n;

	if (format == HELD_JSON)
		sbuf_adds(out, ",\n \"held\": [");
	else if (n)
		sbuf_addf(out, format == HELD_TEXT ? "\nHeld for review\n"
			  : "<h2 id=\"held\">Held for review (%zu)</h2>\n<ul>\n", n);
	for (i = 0; i < n; i++) {
		const diff_held *h = i < d->held_exports.n ? &d->held_exports.items[i]
			: &d->held_models.items[i - d->held_exports.n];
		char line[32];

		mc_fmt(line, sizeof(line), "%ld", h->line);
		if (format == HELD_TEXT) {
			sbuf_addf(out, "  %s %s: ", h->as_of, h->export);
			if (h->name)
				sbuf_addf(out, "%s: %s %s\n", h->name, kept, line);
			else
				sbuf_addf(out, "held for review, nothing applied (guard %s): %s\n",
					  h->guard, h->reason);
		} else if (format == HELD_JSON) {
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
		} else {
			sbuf_adds(out, "<li><span class=\"export\">");
			html(out, h->export);
			sbuf_adds(out, "</span> ");
			html(out, h->name ? h->name : "held, nothing applied: ");
			html(out, h->name ? ": " : h->reason);
			if (h->name) {
				html(out, kept);
				sbuf_addf(out, " %s", line);
			}
			sbuf_adds(out, "</li>\n");
		}
	}
	if (format == HELD_JSON)
		sbuf_addc(out, ']');
	else if (n && format == HELD_HTML)
		sbuf_adds(out, "</ul>\n");
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

/* ---- text ---- */

/* A value on one line: line breaks folded to spaces, cut at 300 bytes. */
static void text_value(sbuf *out, const char *value)
{
	size_t i, n, cut;

	if (!value) {
		sbuf_adds(out, "(none)");
		return;
	}
	n = strlen(value);
	cut = n > 300 ? 300 : n;
	while (cut < n && cut > 0 && ((unsigned char)value[cut] & 0xC0) == 0x80)
		cut--;
	for (i = 0; i < cut; i++)
		sbuf_addc(out, value[i] == '\n' || value[i] == '\r' || value[i] == '\t' ? ' ' : value[i]);
	if (cut < n)
		sbuf_adds(out, "...");
}

static void text_header(const diff_result *d, sbuf *out)
{
	sbuf_addf(out, "Changes from %s to %s\n", d->from[0] ? d->from : "(nothing)", d->to);
	sbuf_addf(out, "%zu added, %zu removed, %zu renamed, %zu changed, %zu quarantined;"
		  " columns: %zu added, %zu removed\n", d->added.n, d->removed.n,
		  d->renamed.n, d->changed.n, d->quarantined.n, d->columns_added.n,
		  d->columns_removed.n);
}

void audit_text(const diff_result *d, sbuf *out)
{
	size_t i, k;

	text_header(d, out);
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
	if (d->added.n)
		sbuf_adds(out, "\nAdded\n");
	for (i = 0; i < d->added.n; i++)
		sbuf_addf(out, "  %s: %s\n", d->added.items[i].export, d->added.items[i].name);
	if (d->removed.n)
		sbuf_adds(out, "\nRemoved\n");
	for (i = 0; i < d->removed.n; i++)
		sbuf_addf(out, "  %s: %s\n", d->removed.items[i].export, d->removed.items[i].name);
	if (d->renamed.n)
		sbuf_adds(out, "\nRenamed\n");
	for (i = 0; i < d->renamed.n; i++)
		sbuf_addf(out, "  %s: %s -> %s\n", d->renamed.items[i].export,
			  d->renamed.items[i].old_name, d->renamed.items[i].name);
	if (d->changed.n)
		sbuf_adds(out, "\nChanged\n");
	for (i = 0; i < d->changed.n; i++) {
		const diff_model *m = &d->changed.items[i];

		sbuf_addf(out, "  %s: %s\n", m->export, m->name);
		for (k = 0; k < m->nfields; k++) {
			sbuf_addf(out, "    %s: ", m->fields[k].field);
			text_value(out, m->fields[k].old);
			sbuf_adds(out, " \xe2\x86\x92 ");
			text_value(out, m->fields[k].new);
			sbuf_addc(out, '\n');
		}
	}
	if (d->quarantined.n)
		sbuf_adds(out, "\nQuarantined\n");
	for (i = 0; i < d->quarantined.n; i++) {
		const diff_quarantine *q = &d->quarantined.items[i];

		sbuf_addf(out, "  %s %s: %s:%ld: ", q->as_of, q->export, q->file, q->line);
		text_value(out, q->reason);
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

static void json_names(sbuf *out, const char *key, const diff_model *items, size_t n)
{
	size_t i, k;

	sbuf_addf(out, ",\n \"%s\": [", key);
	for (i = 0; i < n; i++) {
		/* a model added to several exports is named once */
		for (k = 0; k < i; k++)
			if (!strcmp(items[k].name, items[i].name))
				break;
		if (k < i)
			continue;
		sbuf_adds(out, i ? ", " : "");
		json_str(out, items[i].name);
	}
	sbuf_addc(out, ']');
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

void audit_json(const diff_result *d, sbuf *out)
{
	size_t i, k;

	sbuf_adds(out, "{\"from\": ");
	json_str(out, d->from[0] ? d->from : NULL);
	sbuf_adds(out, ", \"to\": ");
	json_str(out, d->to);
	json_names(out, "added", d->added.items, d->added.n);
	json_names(out, "removed", d->removed.items, d->removed.n);
	sbuf_adds(out, ",\n \"renamed\": [");
	for (i = 0; i < d->renamed.n; i++) {
		sbuf_adds(out, i ? ",\n   {\"from\": " : "\n   {\"from\": ");
		json_str(out, d->renamed.items[i].old_name);
		sbuf_adds(out, ", \"to\": ");
		json_str(out, d->renamed.items[i].name);
		sbuf_adds(out, ", \"export\": ");
		json_str(out, d->renamed.items[i].export);
		sbuf_addc(out, '}');
	}
	sbuf_adds(out, "],\n \"changed\": [");
	for (i = 0; i < d->changed.n; i++) {
		const diff_model *m = &d->changed.items[i];

		sbuf_adds(out, i ? ",\n   {\"name\": " : "\n   {\"name\": ");
		json_str(out, m->name);
		sbuf_adds(out, ", \"export\": ");
		json_str(out, m->export);
		sbuf_adds(out, ", \"fields\": [");
		for (k = 0; k < m->nfields; k++) {
			sbuf_adds(out, k ? ", {\"field\": " : "{\"field\": ");
			json_str(out, m->fields[k].field);
			sbuf_adds(out, ", \"old\": ");
			json_str(out, m->fields[k].old);
			sbuf_adds(out, ", \"new\": ");
			json_str(out, m->fields[k].new);
			sbuf_addc(out, '}');
		}
		sbuf_adds(out, "]}");
	}
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
		sbuf_adds(out, ", \"file\": ");
		json_str(out, q->file);
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
			c += !strcmp(d->changed.items[k].export, e);
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
	sbuf_adds(out, "}\n");
}

/* ---- HTML ---- */

static void html(sbuf *out, const char *s)
{
	if (s)
		textout_html(out, s, strlen(s));
}

static const char audit_style[] =
	"body{font:15px/1.45 system-ui,sans-serif;margin:0 auto;max-width:60em;padding:1em;"
	"color:#222}h1{font-size:1.5em}h2{font-size:1.2em;margin-top:1.6em;border-bottom:1px solid #ccc}"
	"table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.25em .6em;text-align:left;"
	"vertical-align:top}th{background:#f4f4f4}td.n{text-align:right}"
	"del{background:#fdd;text-decoration:line-through}ins{background:#dfd;text-decoration:none}"
	"ul{padding-left:1.2em}.field{font-weight:600}.export{color:#666;font-size:.9em}"
	"@media (max-width:40em){body{font-size:14px;padding:.5em}}";

static void html_models(sbuf *out, const char *title, const diff_model *items, size_t n,
			const char *id)
{
	size_t i;

	if (!n)
		return;
	sbuf_addf(out, "<h2 id=\"%s\">%s (%zu)</h2>\n<ul>\n", id, title, n);
	for (i = 0; i < n; i++) {
		sbuf_adds(out, "<li>");
		if (items[i].old_name) {
			sbuf_adds(out, "<del>");
			html(out, items[i].old_name);
			sbuf_adds(out, "</del> \xe2\x86\x92 <ins>");
			html(out, items[i].name);
			sbuf_adds(out, "</ins>");
		} else {
			html(out, items[i].name);
		}
		sbuf_adds(out, " <span class=\"export\">");
		html(out, items[i].export);
		sbuf_adds(out, "</span></li>\n");
	}
	sbuf_adds(out, "</ul>\n");
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

void audit_html(const diff_result *d, sbuf *out)
{
	size_t i, k;

	sbuf_adds(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		  "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		  "<title>modelcat audit ");
	html(out, d->to);
	sbuf_addf(out, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>Changes from ", audit_style);
	html(out, d->from[0] ? d->from : "(nothing)");
	sbuf_adds(out, " to ");
	html(out, d->to);
	sbuf_adds(out, "</h1>\n<table class=\"summary\">\n<tr><th>export</th><th>added</th>"
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
			c[3] += !strcmp(d->changed.items[k].export, e);
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
		  d->added.n, d->removed.n, d->renamed.n, d->changed.n, d->quarantined.n);
	if (d->columns_added.n || d->columns_removed.n || d->headers_respelled.n) {
		sbuf_adds(out, "<h2 id=\"columns\">Columns</h2>\n<ul>\n");
		html_columns(out, "added", d->columns_added.items, d->columns_added.n);
		html_columns(out, "removed", d->columns_removed.items, d->columns_removed.n);
		html_columns(out, "header respelled (same field, not a change)",
			     d->headers_respelled.items, d->headers_respelled.n);
		sbuf_adds(out, "</ul>\n");
	}
	html_models(out, "Renamed", d->renamed.items, d->renamed.n, "renamed");
	if (d->changed.n)
		sbuf_addf(out, "<h2 id=\"changed\">Changed (%zu)</h2>\n", d->changed.n);
	for (i = 0; i < d->changed.n; i++) {
		const diff_model *m = &d->changed.items[i];

		sbuf_adds(out, "<h3>");
		html(out, m->name);
		sbuf_adds(out, " <span class=\"export\">");
		html(out, m->export);
		sbuf_adds(out, "</span></h3>\n<table>\n");
		for (k = 0; k < m->nfields; k++) {
			sbuf_adds(out, "<tr><td class=\"field\">");
			html(out, m->fields[k].field);
			sbuf_adds(out, "</td><td><del>");
			html(out, m->fields[k].old);
			sbuf_adds(out, "</del></td><td><ins>");
			html(out, m->fields[k].new);
			sbuf_adds(out, "</ins></td></tr>\n");
		}
		sbuf_adds(out, "</table>\n");
	}
	html_models(out, "Added", d->added.items, d->added.n, "added");
	html_models(out, "Removed", d->removed.items, d->removed.n, "removed");
	if (d->quarantined.n) {
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
			html(out, q->name);
			sbuf_adds(out, "</td><td>");
			html(out, q->reason);
			sbuf_adds(out, "</td></tr>\n");
		}
		sbuf_adds(out, "</table>\n");
	}
	column_values_section(d, out, HELD_HTML);
	held_section(d, out, HELD_HTML);
	sbuf_adds(out, "</body>\n</html>\n");
}
