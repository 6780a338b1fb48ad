#include "db/timeline.h"
#include "db/query.h"
#include "values/colmap.h"
#include "base/strmap.h"

#include <stdlib.h>
#include <string.h>

/* One model's records alone (?3 its name, ?4 its occurrence): every
 * record that ever carried the name (the records current under it are
 * kept in C). */
#define TIMELINE_ONE_MODEL " AND r.id IN (SELECT v2.record_id FROM version v2" \
	" JOIN record r2 ON r2.id = v2.record_id WHERE v2.name = ?3 AND r2.occurrence = ?4)"

/* A record of a model on record. */
typedef struct record_entry {
	sqlite3_int64 id;             /* record id */
	size_t model;                 /* index in the timeline's models */
	const char *export;           /* its export (in the timeline's blocks) */
	char first[11];               /* the date of its first version */
} record_entry;

/* What a read works with. */
typedef struct reader {
	catalogue *cat;               /* the catalogue */
	const char *as_of;            /* the date */
	const char *name;             /* one model's name (its base), or NULL: all */
	long occurrence;              /* with name: its occurrence */
	char *key;                    /* the models' key field ("Model") */
	timeline *t;                  /* what is read */
	strmap models;                /* model name -> index + 1 */
	record_entry *records;        /* by id */
	size_t nrecords, caprecords;  /* used, allocated */
	strmap names;                 /* "EXPORT\x1fNAME" of every version -> record + 1 */
	const char **exports;         /* each export's name, copied once */
	size_t nexports;              /* entries in exports */
	struct pending *events;       /* every event read, in logged order */
	size_t nevents, capevents;    /* used, allocated */
	size_t capmodels;             /* models allocated */
	mc_err *err;                  /* where a failure goes */
} reader;

/* An event read, not yet put in its model's order. */
typedef struct pending {
	timeline_event e;             /* the event (strings in the timeline's texts) */
	size_t model;                 /* its model */
	size_t seq;                   /* its place in logged order */
} pending;

static char *store(timeline *t, const char *s)
{
	return strpool_dup(&t->texts, s);
}

/* Prepare sql (with the one-model filter when r->name is set, before
 * tail). 0 or -1. */
static int prepare(reader *r, sqlite3_stmt **st, const char *sql, const char *tail)
{
	sbuf text;
	int rc;

	sbuf_init(&text);
	sbuf_adds(&text, sql);
	if (r->name)
		sbuf_adds(&text, TIMELINE_ONE_MODEL);
	sbuf_adds(&text, tail);
	rc = catalogue_prepare(r->cat, st, text.data, r->err);
	sbuf_release(&text);
	if (rc)
		return -1;
	if (sqlite3_bind_text(*st, 1, r->as_of, -1, SQLITE_STATIC) != SQLITE_OK ||
	    (r->name && (sqlite3_bind_text(*st, 3, r->name, -1, SQLITE_STATIC) != SQLITE_OK ||
			 sqlite3_bind_int64(*st, 4, r->occurrence) != SQLITE_OK))) {
		catalogue_fail(r->cat, "binding the history's date", r->err);
		sqlite3_finalize(*st);
		*st = NULL;
		return -1;
	}
	return 0;
}

/* The export's name, copied once per export (there are few). */
static const char *export_of(reader *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->nexports; i++)
		if (!strcmp(r->exports[i], name))
			return r->exports[i];
	r->exports = xrealloc(r->exports, (r->nexports + 1) * sizeof(*r->exports));
	return r->exports[r->nexports++] = store(r->t, name);
}

static const char *column_text(sqlite3_stmt *st, int i)
{
	const char *s = (const char *)sqlite3_column_text(st, i);

	return s ? s : "";
}

static char *column_or_null(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? NULL : catalogue_column_dup(st, i);
}

/* Log an event of model; its strings are copied (NULL stays NULL), but
 * export, which must be export_of()'s. */
static void push(reader *r, size_t model, const char *date, enum timeline_kind kind,
		 const char *export, const char *field, const char *old, const char *new)
{
	pending *p;

	if (r->nevents == r->capevents) {
		r->capevents = r->capevents ? r->capevents * 2 : 1024;
		r->events = xrealloc(r->events, r->capevents * sizeof(*r->events));
	}
	p = &r->events[r->nevents];
	memset(p, 0, sizeof(*p));
	p->model = model;
	p->seq = r->nevents++;
	mc_fmt(p->e.date, sizeof(p->e.date), "%s", date);
	p->e.kind = kind;
	p->e.export = (char *)export;
	p->e.field = store(r->t, field);
	p->e.old = store(r->t, old);
	p->e.new = store(r->t, new);
}

/* The record with id, or NULL when it is no record of a model on record. */
static record_entry *record_find(const reader *r, sqlite3_int64 id)
{
	size_t lo = 0, hi = r->nrecords;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (r->records[mid].id == id)
			return &r->records[mid];
		if (r->records[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* The model called name (with its occurrence), added when new. */
static size_t model_of(reader *r, const char *name, long occurrence)
{
	sbuf key;
	int added;
	size_t *at;

	sbuf_init(&key);
	sbuf_adds(&key, name);
	if (occurrence > 1)
		sbuf_addf(&key, "#%ld", occurrence);
	at = strmap_get_or_add(&r->models, key.data, key.len, &added);
	if (added) {
		if (r->t->n == r->capmodels) {
			r->capmodels = r->capmodels ? r->capmodels * 2 : 256;
			r->t->models = xrealloc(r->t->models, r->capmodels * sizeof(*r->t->models));
		}
		memset(&r->t->models[r->t->n], 0, sizeof(*r->t->models));
		r->t->models[r->t->n].name = strpool_add(&r->t->texts, key.data, key.len);
		*at = ++r->t->n;
	}
	sbuf_release(&key);
	return *at - 1;
}

/* Remember that record index rec carried name in its export. */
static void name_add(reader *r, size_t rec, const char *name)
{
	sbuf key;
	int added;
	size_t *at;

	sbuf_init(&key);
	sbuf_addf(&key, "%s\x1f%s", r->records[rec].export, name);
	at = strmap_get_or_add(&r->names, key.data, key.len, &added);
	if (added)
		*at = rec + 1;
	sbuf_release(&key);
}

/* The previous version of the record being read. */
typedef struct previous {
	sqlite3_int64 record;         /* its record (0: none yet) */
	int tombstone;                /* it was a removal */
	char *name;                   /* its name (owned) */
} previous;

/* A version row of read_versions: its record's events. */
static void version_row(reader *r, sqlite3_stmt *st, previous *prev)
{
	sqlite3_int64 id = sqlite3_column_int64(st, 0);
	const char *date = column_text(st, 4), *kind = column_text(st, 5);
	const char *name = column_text(st, 6);
	int tombstone = sqlite3_column_int(st, 7);
	record_entry *rec;
	if (prev->record != id) {
		if (r->nrecords == r->caprecords) {
			r->caprecords = r->caprecords ? r->caprecords * 2 : 256;
			r->records = xrealloc(r->records, r->caprecords * sizeof(*r->records));
		}
		rec = &r->records[r->nrecords++];
		rec->id = id;
		rec->model = model_of(r, column_text(st, 1), (long)sqlite3_column_int64(st, 2));
		rec->export = export_of(r, column_text(st, 3));
		mc_fmt(rec->first, sizeof(rec->first), "%s", date);
		push(r, rec->model, date, TIMELINE_ADDED, rec->export, NULL, NULL, NULL);
	} else {
		rec = &r->records[r->nrecords - 1];
		if (tombstone)
			push(r, rec->model, date, TIMELINE_REMOVED, rec->export, NULL, NULL, NULL);
		else if (prev->tombstone)
			push(r, rec->model, date, TIMELINE_RETURNED, rec->export, NULL, NULL, NULL);
		if (!strcmp(kind, "renamed") && prev->name && strcmp(prev->name, name))
			push(r, rec->model, date, TIMELINE_RENAMED, rec->export, NULL, prev->name, name);
	}
	name_add(r, (size_t)(rec - r->records), name);
	prev->record = id;
	prev->tombstone = tombstone;
	free(prev->name);
	prev->name = xstrdup(name);
}

/* The records of the models on record and their versions. 0 or -1. */
static int read_versions(reader *r)
{
	sqlite3_stmt *st = NULL;
	previous prev = { 0, 0, NULL };
	int step;

	if (prepare(r, &st,
		    CATALOGUE_KEYED "SELECT r.id, c.name, r.occurrence, r.export, v.valid_from,"
		    " v.kind, v.name, v.tombstone FROM (SELECT v.record_id AS rid, v.name AS name"
		    " FROM version v JOIN record r ON r.id = v.record_id WHERE v.tombstone = 0"
		    " AND v.valid_from <= ?1 AND (v.valid_to IS NULL OR v.valid_to > ?1)"
		    " AND r.export NOT IN (SELECT export FROM keyed WHERE field <> ?2)",
		    ") c JOIN record r ON r.id = c.rid JOIN version v ON v.record_id = r.id"
		    " AND v.valid_from <= ?1 ORDER BY r.id, v.valid_from, v.id"))
		return -1;
	if (sqlite3_bind_text(st, 2, r->key, -1, SQLITE_STATIC) != SQLITE_OK) {
		sqlite3_finalize(st);
		return catalogue_fail(r->cat, "binding the key field", r->err);
	}
	while ((step = sqlite3_step(st)) == SQLITE_ROW)
		version_row(r, st, &prev);
	free(prev.name);
	sqlite3_finalize(st);
	return step == SQLITE_DONE ? 0 : catalogue_fail(r->cat, "reading the versions", r->err);
}

/* Rows of st (prepared): record id, date, field, value(s): one event of
 * kind each, for records of a model on record. With skip_added, column
 * 4 is the version's kind, and an added version's row is skipped (a new
 * model's values are no change). 0 or -1. */
static int read_values(reader *r, sqlite3_stmt *st, enum timeline_kind kind, int skip_added)
{
	int step;

	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		record_entry *rec = record_find(r, sqlite3_column_int64(st, 0));
		const char *field = column_text(st, 2);
		char *value, *other = NULL;

		if (!rec || (kind == TIMELINE_CHANGED && !strcmp(field, r->key)) ||
		    (skip_added && !strcmp(column_text(st, 4), "added")))
			continue;
		value = column_or_null(st, 3);
		if (kind == TIMELINE_CHANGED)
			other = column_or_null(st, 4);
		/* a new column's value is the event's new value, else its old */
		push(r, rec->model, column_text(st, 1), kind, rec->export, field,
		     kind == TIMELINE_NEW_COLUMN ? NULL : value,
		     kind == TIMELINE_NEW_COLUMN ? value : other);
		free(value);
		free(other);
	}
	sqlite3_finalize(st);
	return step == SQLITE_DONE ? 0 : catalogue_fail(r->cat, "reading the history", r->err);
}

/* Has the catalogue a column change of kind on or before the reader's
 * date? 1 yes, 0 no, -1 (err). The queries of a kind's values plan an
 * index of every version (its values included) for the join: 1.4 s for
 * each at 66,840 models, which a catalogue without such a change need not
 * spend. */
static int column_changes(reader *r, const char *kind)
{
	sqlite3_stmt *st = NULL;
	int step;

	if (catalogue_prepare(r->cat, &st,
			      "SELECT EXISTS (SELECT 1 FROM column_change cc"
			      " JOIN snapshot_export se ON se.id = cc.snapshot_export_id"
			      " JOIN snapshot s ON s.id = se.snapshot_id"
			      " WHERE cc.kind = ?1 AND s.as_of <= ?2)", r->err))
		return -1;
	sqlite3_bind_text(st, 1, kind, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, r->as_of, -1, SQLITE_STATIC);
	step = sqlite3_step(st);
	if (step != SQLITE_ROW) {
		sqlite3_finalize(st);
		return catalogue_fail(r->cat, "reading the column changes", r->err);
	}
	step = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return step;
}

/* Field changes, values new columns gave, values removed columns took.
 * 0 or -1. */
static int read_changes(reader *r)
{
	sqlite3_stmt *st = NULL;
	int added, removed;

	if (prepare(r, &st,
		    "SELECT r.id, fc.as_of, fc.field, fc.old, fc.new FROM field_change fc"
		    " JOIN record r ON r.id = fc.record_id WHERE fc.as_of <= ?1",
		    " ORDER BY fc.id") ||
	    read_values(r, st, TIMELINE_CHANGED, 0))
		return -1;
	if ((added = column_changes(r, "added")) < 0 ||
	    (removed = column_changes(r, "removed")) < 0)
		return -1;
	if (added && (prepare(r, &st,
		    "SELECT r.id, s.as_of, cc.field, j.value, v.kind FROM column_change cc"
		    " JOIN snapshot_export se ON se.id = cc.snapshot_export_id"
		    " JOIN snapshot s ON s.id = se.snapshot_id"
		    " JOIN record r ON r.export = se.export"
		    " JOIN version v ON v.record_id = r.id AND v.valid_from = s.as_of"
		    " AND v.tombstone = 0, json_each(v.norm) j"
		    " WHERE cc.kind = 'added' AND s.as_of <= ?1 AND j.key = cc.field"
		    " AND j.value <> ''",
		    " ORDER BY s.as_of, cc.rowid") ||
	    read_values(r, st, TIMELINE_NEW_COLUMN, 1)))
		return -1;
	if (removed && (prepare(r, &st,
		    "SELECT r.id, s.as_of, cc.field, j.value FROM column_change cc"
		    " JOIN snapshot_export se ON se.id = cc.snapshot_export_id"
		    " JOIN snapshot s ON s.id = se.snapshot_id"
		    " JOIN record r ON r.export = se.export"
		    " JOIN version v ON v.record_id = r.id AND v.tombstone = 0"
		    " AND v.valid_from < s.as_of AND (v.valid_to IS NULL OR v.valid_to >= s.as_of),"
		    " json_each(v.norm) j WHERE cc.kind = 'removed' AND s.as_of <= ?1"
		    " AND j.key = cc.field AND j.value <> ''",
		    " ORDER BY s.as_of, cc.rowid") ||
	    read_values(r, st, TIMELINE_COLUMN_REMOVED, 0)))
		return -1;
	return 0;
}

/* Rows held for a model: quarantined rows carrying its name (its version
 * stood), and models kept because a quarantined row swallowed theirs.
 * 0 or -1. */
static int read_held(reader *r)
{
	sqlite3_stmt *st = NULL;
	int step;

	if (catalogue_prepare(r->cat, &st,
			      "SELECT s.as_of, h.export, h.name FROM held_model h"
			      " JOIN snapshot s ON s.id = h.snapshot_id WHERE s.as_of <= ?1"
			      " UNION ALL SELECT s.as_of, se.export, q.name FROM quarantine q"
			      " JOIN snapshot_export se ON se.id = q.snapshot_export_id"
			      " JOIN snapshot s ON s.id = se.snapshot_id"
			      " WHERE q.name IS NOT NULL AND s.as_of <= ?1", r->err))
		return -1;
	sqlite3_bind_text(st, 1, r->as_of, -1, SQLITE_STATIC);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		const char *date = column_text(st, 0);
		sbuf key;
		size_t *at;

		sbuf_init(&key);
		sbuf_addf(&key, "%s\x1f%s", column_text(st, 1), column_text(st, 2));
		at = strmap_find(&r->names, key.data, key.len);
		/* a row held before its record began is no row of it */
		if (at && strcmp(date, r->records[*at - 1].first) > 0)
			push(r, r->records[*at - 1].model, date, TIMELINE_HELD,
			     r->records[*at - 1].export, NULL, NULL, NULL);
		sbuf_release(&key);
	}
	sqlite3_finalize(st);
	return step == SQLITE_DONE ? 0 : catalogue_fail(r->cat, "reading the held rows", r->err);
}

/* ---- putting each model's events in order ---- */

static int string_cmp(const char *a, const char *b)
{
	if (!a || !b)
		return a ? 1 : b ? -1 : 0;
	return strcmp(a, b);
}

/* By model, then date, then kind, then as logged. */
static int event_order(const void *pa, const void *pb)
{
	const pending *a = pa, *b = pb;
	int c;

	if (a->model != b->model)
		return a->model < b->model ? -1 : 1;
	c = strcmp(a->e.date, b->e.date);
	if (c)
		return c;
	if (a->e.kind != b->e.kind)
		return a->e.kind < b->e.kind ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* Do a and b tell the same thing (two exports logging one change)? */
static int event_same(const timeline_event *a, const timeline_event *b)
{
	int per_export = a->kind == TIMELINE_RETURNED || a->kind == TIMELINE_REMOVED ||
			 a->kind == TIMELINE_HELD;

	return !strcmp(a->date, b->date) && a->kind == b->kind &&
	       !string_cmp(a->field, b->field) && !string_cmp(a->old, b->old) &&
	       !string_cmp(a->new, b->new) && (!per_export || !string_cmp(a->export, b->export));
}

/* Is e told already among kept[from..to) (one model's events so far, by
 * date): by an event of its day that tells the same? */
static int told(const timeline_event *kept, size_t from, size_t to, const timeline_event *e)
{
	while (to-- > from && !strcmp(kept[to].date, e->date))
		if (event_same(&kept[to], e))
			return 1;
	return 0;
}

/* Put every model's events in order into t->all and give each model its
 * part, dropping the repeats: a change two exports logged, an export
 * taking the model up on a day it was already added. */
static void settle(reader *r)
{
	timeline *t = r->t;
	size_t i, n = 0, first = 0, added = 0;

	qsort(r->events, r->nevents, sizeof(*r->events), event_order);
	t->all = xcalloc(r->nevents + 1, sizeof(*t->all));
	for (i = 0; i < r->nevents; i++) {
		const pending *p = &r->events[i];
		timeline_model *m = &t->models[p->model];

		if (!i || p->model != r->events[i - 1].model) {
			first = n;
			added = 0;
			m->events = &t->all[n];
		}
		if (told(t->all, first, n, &p->e))
			continue;
		if (p->e.kind == TIMELINE_ADDED && added++ && !strcmp(p->e.date, t->all[first].date))
			continue;
		t->all[n++] = p->e;
		m->n++;
	}
}

static int model_cmp(const void *a, const void *b)
{
	return strcmp(((const timeline_model *)a)->name, ((const timeline_model *)b)->name);
}

/* "NAME#n" (n >= 2): NAME into base and n; else name and 1. */
static void split_name(const char *name, sbuf *base, long *occurrence)
{
	const char *hash = strrchr(name, '#');
	char *end;
	long n = 0;

	if (hash && hash[1] >= '1' && hash[1] <= '9')
		n = strtol(hash + 1, &end, 10);
	if (n >= 2 && !*end) {
		sbuf_add(base, name, (size_t)(hash - name));
		*occurrence = n;
	} else {
		sbuf_adds(base, name);
		*occurrence = 1;
	}
}

int timeline_read(catalogue *cat, const char *as_of, const char *name, timeline *out,
		  mc_err *err)
{
	reader r;
	sbuf base;
	int rc = -1;

	memset(out, 0, sizeof(*out));
	memset(&r, 0, sizeof(r));
	sbuf_init(&base);
	r.cat = cat;
	r.as_of = as_of;
	r.t = out;
	r.err = err;
	strmap_init(&r.models);
	strmap_init(&r.names);
	if (name) {
		split_name(name, &base, &r.occurrence);
		r.name = base.data;
	}
	if (colmap_default_key(&r.key, err) || read_versions(&r) || read_changes(&r) ||
	    read_held(&r))
		goto out;
	settle(&r);
	qsort(out->models, out->n, sizeof(*out->models), model_cmp);
	rc = 0;
out:
	free(r.records);
	free(r.events);
	free(r.exports);
	free(r.key);
	strmap_release(&r.models);
	strmap_release(&r.names);
	sbuf_release(&base);
	if (rc)
		timeline_release(out);
	return rc;
}

const timeline_model *timeline_find(const timeline *t, const char *name)
{
	timeline_model key;

	if (!t || !t->n)
		return NULL;
	memset(&key, 0, sizeof(key));
	key.name = (char *)name;
	return bsearch(&key, t->models, t->n, sizeof(*t->models), model_cmp);
}

void timeline_release(timeline *t)
{
	if (!t)
		return;
	strpool_release(&t->texts);
	free(t->all);
	free(t->models);
	memset(t, 0, sizeof(*t));
}
