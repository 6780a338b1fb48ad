#include "cli/historyout.h"
#include "base/sbuf.h"
#include "base/textout.h"

#include <string.h>

/* ---- text ---- */

/* Names, values and paths from the catalogue are written escaped for the
 * terminal (base/textout.h: textout_termf): they cannot break a line or
 * drive the terminal. */

/* A value on one line, in full, escaped for the terminal. */
static void text_value(sbuf *out, const char *value)
{
	if (!value)
		sbuf_adds(out, "(none)");
	else
		textout_terms(out, value);
}

static void text_field(const history_field *f, sbuf *out)
{
	static const char *const note[] = { "", " (new column)", " (column removed)" };

	textout_termf(out, "      %s: ", f->field);
	text_value(out, f->old);
	sbuf_adds(out, " -> ");
	text_value(out, f->new);
	sbuf_addf(out, "%s\n", note[f->why]);
}

static void text_version(const history_version *v, sbuf *out)
{
	size_t i;

	textout_termf(out, "  %s  %-8s %s  \"%s\"", v->valid_from, v->kind, v->export,
		      v->name ? v->name : "");
	if (v->line)
		sbuf_addf(out, " (line %ld)", v->line);
	sbuf_addf(out, "%s%s\n", v->valid_to ? ", until " : "", v->valid_to ? v->valid_to : "");
	for (i = 0; i < v->renames.n; i++) {
		textout_termf(out, "      renamed: %s -> %s (%s)", v->renames.items[i].old_name,
			      v->renames.items[i].new_name, v->renames.items[i].evidence);
		sbuf_addc(out, '\n');
	}
	for (i = 0; i < v->fields.n; i++)
		text_field(&v->fields.items[i], out);
	for (i = 0; i < v->removed.n; i++) {
		textout_termf(out, "  %s  columns  %s: %s removed", v->removed.items[i].date,
			      v->export, v->removed.items[i].field);
		sbuf_addc(out, '\n');
		text_field(&v->removed.items[i], out);
	}
}

void historyout_text(const history *h, sbuf *out)
{
	size_t i, k;

	for (i = 0; i < h->records.n; i++) {
		const history_record *r = &h->records.items[i];

		if (h->nth)
			textout_termf(out, "%s: \"%s#%ld\"", r->export, r->name, r->occurrence);
		else if (r->occurrence > 1)
			textout_termf(out, "%s: \"%s\" (occurrence %ld)", r->export, r->name,
				      r->occurrence);
		else
			textout_termf(out, "%s: \"%s\"", r->export, r->name);
		sbuf_addf(out, ", last updated %s\n", r->last_updated ? r->last_updated : "(never)");
		for (k = 0; k < r->versions.n; k++)
			text_version(&r->versions.items[k], out);
	}
	for (i = 0; i < h->quarantined.n; i++) {
		const history_quarantine *q = &h->quarantined.items[i];

		textout_termf(out, "quarantined %s %s: %s:%ld: %s", q->as_of, q->export, q->file,
			      q->line, q->reason);
		sbuf_addc(out, '\n');
	}
}

/* ---- JSON ---- */

/* A JSON string, or null for NULL. */
static void json_text(sbuf *out, const char *s)
{
	if (s)
		textout_json_string(out, s, strlen(s));
	else
		sbuf_adds(out, "null");
}

/* A member: its key with what goes before (the text sep_key), and the
 * value s as json_text() writes it. */
static void json_member(sbuf *out, const char *sep_key, const char *s)
{
	sbuf_adds(out, sep_key);
	json_text(out, s);
}

/* The fields as a JSON array's items and its closing bracket. */
static void json_fields(const history_field *fields, size_t n, int removed, sbuf *out)
{
	static const char *const why[] = { "changed", "new column", "column removed" };
	size_t i;

	for (i = 0; i < n; i++) {
		const history_field *f = &fields[i];

		json_member(out, i ? ",\n        {\"field\": " : "\n        {\"field\": ", f->field);
		json_member(out, ", \"old\": ", f->old);
		json_member(out, ", \"new\": ", f->new);
		sbuf_addf(out, ", \"why\": \"%s\"", why[f->why]);
		if (removed)
			json_member(out, ", \"date\": ", f->date);
		sbuf_addc(out, '}');
	}
	sbuf_addc(out, ']');
}

static void json_version(const history_version *v, sbuf *out)
{
	size_t i;

	json_member(out, "{\"valid_from\": ", v->valid_from);
	json_member(out, ", \"valid_to\": ", v->valid_to);
	json_member(out, ", \"kind\": ", v->kind);
	json_member(out, ", \"export\": ", v->export);
	json_member(out, ", \"name\": ", v->name);
	if (v->line)
		sbuf_addf(out, ", \"line\": %ld", v->line);
	else
		sbuf_adds(out, ", \"line\": null");
	sbuf_adds(out, ",\n      \"renames\": [");
	for (i = 0; i < v->renames.n; i++) {
		json_member(out, i ? ", {\"old\": " : "{\"old\": ", v->renames.items[i].old_name);
		json_member(out, ", \"new\": ", v->renames.items[i].new_name);
		json_member(out, ", \"evidence\": ", v->renames.items[i].evidence);
		sbuf_addc(out, '}');
	}
	sbuf_adds(out, "],\n      \"fields\": [");
	json_fields(v->fields.items, v->fields.n, 0, out);
	sbuf_adds(out, ",\n      \"columns_removed\": [");
	json_fields(v->removed.items, v->removed.n, 1, out);
	sbuf_addc(out, '}');
}

/* One record and its versions as a JSON object. */
static void json_record(const history_record *r, sbuf *out)
{
	size_t k;

	json_member(out, "{\"export\": ", r->export);
	json_member(out, ", \"name\": ", r->name);
	sbuf_addf(out, ", \"occurrence\": %ld, \"last_updated\": ", r->occurrence);
	json_text(out, r->last_updated);
	sbuf_adds(out, ",\n   \"versions\": [");
	for (k = 0; k < r->versions.n; k++) {
		sbuf_adds(out, k ? ",\n     " : "\n     ");
		json_version(&r->versions.items[k], out);
	}
	sbuf_adds(out, "]}");
}

/* One quarantined row as a JSON object. */
static void json_quarantine(const history_quarantine *q, sbuf *out)
{
	json_member(out, "{\"as_of\": ", q->as_of);
	json_member(out, ", \"export\": ", q->export);
	json_member(out, ", \"file\": ", q->file);
	sbuf_addf(out, ", \"line\": %ld, \"reason\": ", q->line);
	json_text(out, q->reason);
	sbuf_addc(out, '}');
}

void historyout_json(const history *h, sbuf *out)
{
	size_t i;

	json_member(out, "{\"name\": ", h->name);
	sbuf_adds(out, ",\n \"records\": [");
	for (i = 0; i < h->records.n; i++) {
		sbuf_adds(out, i ? ",\n  " : "\n  ");
		json_record(&h->records.items[i], out);
	}
	sbuf_adds(out, "],\n \"quarantined\": [");
	for (i = 0; i < h->quarantined.n; i++) {
		sbuf_adds(out, i ? ",\n  " : "\n  ");
		json_quarantine(&h->quarantined.items[i], out);
	}
	sbuf_adds(out, "]}\n");
}
