#include "db/history.h"
#include "base/sbuf.h"
#include "base/alloc.h"

#include <stdlib.h>
#include <string.h>

/* ---- reading ---- */

/* The statements one record's history needs. */
typedef struct history_statements {
	sqlite3_stmt *versions;       /* ?1 record: its versions */
	sqlite3_stmt *changes;        /* ?1 version: its field_change rows */
	sqlite3_stmt *renames;        /* ?1 version: its renames */
	sqlite3_stmt *new_columns;    /* ?1 version: values new columns gave it */
	sqlite3_stmt *removed_columns;/* ?1 version: values removed columns took */
} history_statements;

static void statements_release(history_statements *s)
{
	sqlite3_finalize(s->versions);
	sqlite3_finalize(s->changes);
	sqlite3_finalize(s->renames);
	sqlite3_finalize(s->new_columns);
	sqlite3_finalize(s->removed_columns);
	memset(s, 0, sizeof(*s));
}

static int statements_prepare(catalogue *cat, history_statements *s, mc_err *err)
{
	memset(s, 0, sizeof(*s));
	if (catalogue_prepare(cat, &s->versions,
			      "SELECT v.id, v.valid_from, v.valid_to, v.kind, v.name, r.export, v.line"
			      " FROM version v JOIN record r ON r.id = v.record_id"
			      " WHERE v.record_id = ? ORDER BY v.valid_from, v.id", err) ||
	    catalogue_prepare(cat, &s->changes,
			      "SELECT field, old, new FROM field_change WHERE version_id = ? ORDER BY id", err) ||
	    catalogue_prepare(cat, &s->renames,
			      "SELECT old_name, new_name, evidence FROM rename WHERE version_id = ?", err) ||
	    catalogue_prepare(cat, &s->new_columns,
			      "SELECT cc.field, j.value, s.as_of, se.export FROM version v"
			      " JOIN record r ON r.id = v.record_id"
			      " JOIN snapshot_export se ON se.export = r.export"
			      " JOIN snapshot s ON s.id = se.snapshot_id AND s.as_of = v.valid_from"
			      " JOIN column_change cc ON cc.snapshot_export_id = se.id AND cc.kind = 'added',"
			      " json_each(v.norm) j WHERE v.id = ?1 AND v.tombstone = 0 AND j.key = cc.field"
			      " AND j.value <> '' ORDER BY cc.rowid", err) ||
	    catalogue_prepare(cat, &s->removed_columns,
			      "SELECT cc.field, j.value, s.as_of, se.export FROM version v"
			      " JOIN record r ON r.id = v.record_id"
			      " JOIN snapshot_export se ON se.export = r.export"
			      " JOIN snapshot s ON s.id = se.snapshot_id AND s.as_of > v.valid_from"
			      " AND (v.valid_to IS NULL OR s.as_of <= v.valid_to)"
			      " JOIN column_change cc ON cc.snapshot_export_id = se.id AND cc.kind = 'removed',"
			      " json_each(v.norm) j WHERE v.id = ?1 AND v.tombstone = 0 AND j.key = cc.field"
			      " AND j.value <> '' ORDER BY s.as_of, cc.rowid", err)) {
		statements_release(s);
		return -1;
	}
	return 0;
}

/* Step st (bound, reset afterwards) to its end, adding a field per row
 * to list: columns field, old (or NULL), new (or NULL), and for
 * removed columns the date in column 2. */
static int read_fields(catalogue *cat, sqlite3_stmt *st, sqlite3_int64 version, enum history_why why,
		       history_version *v, mc_err *err)
{
	int step;

	sqlite3_bind_int64(st, 1, version);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		history_field *f = why == HISTORY_COLUMN_REMOVED ? DIFF_PUSH(v->removed)
								: DIFF_PUSH(v->fields);

		f->field = catalogue_column_dup(st, 0);
		f->why = why;
		if (why == HISTORY_CHANGED) {
			f->old = catalogue_column_dup(st, 1);
			f->new = catalogue_column_dup(st, 2);
		} else if (why == HISTORY_NEW_COLUMN) {
			f->new = catalogue_column_dup(st, 1);
		} else {
			f->old = catalogue_column_dup(st, 1);
			f->date = catalogue_column_dup(st, 2);
		}
	}
	sqlite3_reset(st);
	return step == SQLITE_DONE ? 0 : catalogue_fail(cat, "reading the history", err);
}

static int read_version(catalogue *cat, history_statements *s, history_version *v, mc_err *err)
{
	sqlite3_stmt *vs = s->versions;
	sqlite3_int64 id = sqlite3_column_int64(vs, 0);
	int step;

	v->valid_from = catalogue_column_dup(vs, 1);
	v->valid_to = catalogue_column_dup(vs, 2);
	v->kind = catalogue_column_dup(vs, 3);
	v->name = catalogue_column_dup(vs, 4);
	v->export = catalogue_column_dup(vs, 5);
	v->line = sqlite3_column_type(vs, 6) == SQLITE_NULL ? 0 : (long)sqlite3_column_int64(vs, 6);
	sqlite3_bind_int64(s->renames, 1, id);
	while ((step = sqlite3_step(s->renames)) == SQLITE_ROW) {
		history_rename *r = DIFF_PUSH(v->renames);

		r->old_name = catalogue_column_dup(s->renames, 0);
		r->new_name = catalogue_column_dup(s->renames, 1);
		r->evidence = catalogue_column_dup(s->renames, 2);
	}
	sqlite3_reset(s->renames);
	if (step != SQLITE_DONE)
		return catalogue_fail(cat, "reading the renames", err);
	if (read_fields(cat, s->changes, id, HISTORY_CHANGED, v, err) ||
	    read_fields(cat, s->new_columns, id, HISTORY_NEW_COLUMN, v, err) ||
	    read_fields(cat, s->removed_columns, id, HISTORY_COLUMN_REMOVED, v, err))
		return -1;
	return 0;
}

/* Read the records st (bound) yields: id, export, name, occurrence, last
 * updated. 0 or -1. */
static int read_records(catalogue *cat, sqlite3_stmt *st, history *h, mc_err *err)
{
	history_statements s;
	int step, rc = -1;

	if (statements_prepare(cat, &s, err))
		return -1;
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		history_record *r = DIFF_PUSH(h->records);

		r->export = catalogue_column_dup(st, 1);
		r->name = catalogue_column_dup(st, 2);
		r->occurrence = (long)sqlite3_column_int64(st, 3);
		r->last_updated = catalogue_column_dup(st, 4);
		sqlite3_bind_int64(s.versions, 1, sqlite3_column_int64(st, 0));
		while ((step = sqlite3_step(s.versions)) == SQLITE_ROW)
			if (read_version(cat, &s, DIFF_PUSH(r->versions), err))
				goto out;
		sqlite3_reset(s.versions);
		if (step != SQLITE_DONE)
			break;
	}
	if (step != SQLITE_DONE) {
		catalogue_fail(cat, "reading the history", err);
		goto out;
	}
	rc = 0;
out:
	statements_release(&s);
	return rc;
}

/* The records that carried name ("NAME", or with occurrence > 0 the
 * occurrence-th row of NAME) under any name. 0 or -1. */
static int read_named(catalogue *cat, const char *name, long occurrence, history *h, mc_err *err)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (catalogue_prepare(cat, &st,
			      "SELECT r.id, r.export, r.name, r.occurrence,"
			      " (SELECT max(valid_from) FROM version WHERE record_id = r.id"
			      "  AND kind IN ('added', 'changed', 'renamed', 'removed', 'revised'))"
			      " FROM record r LEFT JOIN precedence p ON p.export = r.export"
			      " WHERE (?2 = 0 OR r.occurrence = ?2)"
			      " AND r.id IN (SELECT record_id FROM version WHERE name = ?1"
			      "              UNION SELECT record_id FROM rename WHERE old_name = ?1)"
			      " ORDER BY coalesce(p.rank, 1000000), r.export, r.occurrence", err))
		return -1;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, occurrence);
	rc = read_records(cat, st, h, err);
	sqlite3_finalize(st);
	return rc;
}

static int read_quarantined(catalogue *cat, const char *name, history *h, mc_err *err)
{
	sqlite3_stmt *st = NULL;
	int step;

	if (catalogue_prepare(cat, &st,
			      "SELECT s.as_of, se.export, q.file, q.line, q.reason FROM quarantine q"
			      " JOIN snapshot_export se ON se.id = q.snapshot_export_id"
			      " JOIN snapshot s ON s.id = se.snapshot_id WHERE q.name = ?"
			      " ORDER BY s.as_of, q.id", err))
		return -1;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		history_quarantine *q = DIFF_PUSH(h->quarantined);

		q->as_of = catalogue_column_dup(st, 0);
		q->export = catalogue_column_dup(st, 1);
		q->file = catalogue_column_dup(st, 2);
		q->line = (long)sqlite3_column_int64(st, 3);
		q->reason = catalogue_column_dup(st, 4);
	}
	sqlite3_finalize(st);
	return step == SQLITE_DONE ? 0 : catalogue_fail(cat, "reading the quarantine", err);
}

/* "NAME#n" with n >= 2: 1, NAME in base and n in *occurrence; else 0. */
static int nth_name(const char *text, sbuf *base, long *occurrence)
{
	const char *hash = strrchr(text, '#');
	char *end;
	long n;

	if (!hash || hash[1] < '1' || hash[1] > '9')
		return 0;
	n = strtol(hash + 1, &end, 10);
	if (*end || n < 2)
		return 0;
	sbuf_add(base, text, (size_t)(hash - text));
	*occurrence = n;
	return 1;
}

int history_read(catalogue *cat, const char *name, history *out, mc_err *err)
{
	sbuf base;
	long occurrence;
	int rc = -1;

	memset(out, 0, sizeof(*out));
	out->name = xstrdup(name);
	sbuf_init(&base);
	if (read_named(cat, name, 0, out, err) || read_quarantined(cat, name, out, err))
		goto out;
	if (!out->records.n && !out->quarantined.n && nth_name(name, &base, &occurrence)) {
		out->nth = 1;
		if (read_named(cat, base.data, occurrence, out, err))
			goto out;
	}
	rc = out->records.n || out->quarantined.n ? 0 : 1;
out:
	sbuf_release(&base);
	return rc;
}

static void field_release(history_field *f)
{
	free(f->field);
	free(f->old);
	free(f->new);
	free(f->date);
}

static void version_release(history_version *v)
{
	size_t i;

	free(v->valid_from);
	free(v->valid_to);
	free(v->kind);
	free(v->export);
	free(v->name);
	for (i = 0; i < v->renames.n; i++) {
		free(v->renames.items[i].old_name);
		free(v->renames.items[i].new_name);
		free(v->renames.items[i].evidence);
	}
	free(v->renames.items);
	for (i = 0; i < v->fields.n; i++)
		field_release(&v->fields.items[i]);
	free(v->fields.items);
	for (i = 0; i < v->removed.n; i++)
		field_release(&v->removed.items[i]);
	free(v->removed.items);
}

/* Free one record of a history. */
static void record_release(history_record *r)
{
	size_t k;

	for (k = 0; k < r->versions.n; k++)
		version_release(&r->versions.items[k]);
	free(r->versions.items);
	free(r->export);
	free(r->name);
	free(r->last_updated);
}

/* Free one quarantined row of a history. */
static void quarantine_release(history_quarantine *q)
{
	free(q->as_of);
	free(q->export);
	free(q->file);
	free(q->reason);
}

void history_keep(history *h, int (*keep)(const char *export_name, void *arg), void *arg)
{
	size_t i, n;

	for (i = n = 0; i < h->records.n; i++)
		if (keep(h->records.items[i].export, arg))
			h->records.items[n++] = h->records.items[i];
		else
			record_release(&h->records.items[i]);
	h->records.n = n;
	for (i = n = 0; i < h->quarantined.n; i++)
		if (keep(h->quarantined.items[i].export, arg))
			h->quarantined.items[n++] = h->quarantined.items[i];
		else
			quarantine_release(&h->quarantined.items[i]);
	h->quarantined.n = n;
}

void history_release(history *h)
{
	size_t i;

	if (!h)
		return;
	for (i = 0; i < h->records.n; i++)
		record_release(&h->records.items[i]);
	free(h->records.items);
	for (i = 0; i < h->quarantined.n; i++)
		quarantine_release(&h->quarantined.items[i]);
	free(h->quarantined.items);
	free(h->name);
	memset(h, 0, sizeof(*h));
}
