#include "db/query.h"
#include "base/sbuf.h"
#include "base/alloc.h"
#include "base/strpool.h"
#include "base/printf.h"
#include "db/snapshot.h"
#include "values/colmap.h"
#include "values/normalise.h"
#include "base/json.h"
#include "base/strmap.h"

#include <stdlib.h>
#include <string.h>


/* The latest snapshot of export_name with content, among those f lets
 * through: 1 and *id, 0 when none, -1 on error. */
static int content_export(catalogue *cat, const snapshot_export_filter *f, sqlite3_int64 *id,
			  mc_err *err)
{
	snapshot_export_info info;
	int rc = snapshot_export_latest(cat, f, &info, err);

	*id = rc == 0 ? info.id : 0;
	return rc < 0 ? -1 : !rc;
}

int query_content_export(catalogue *cat, const char *export_name, const char *as_of,
			 sqlite3_int64 *id, mc_err *err)
{
	snapshot_export_filter f = { export_name, 0, 0, as_of, 1 };

	*id = 0;
	if (!as_of || !*as_of)
		return 0;
	return content_export(cat, &f, id, err);
}

/* As query_content_export, for the state after snapshot id (0: none). */
static int content_export_upto(catalogue *cat, const char *export_name, sqlite3_int64 snapshot,
			       sqlite3_int64 *id, mc_err *err)
{
	snapshot_export_filter f = { export_name, 0, snapshot, NULL, 1 };

	*id = 0;
	if (!snapshot)
		return 0;
	return content_export(cat, &f, id, err);
}

/* What query_rows_next() reads with. */
struct query_rows_state {
	sqlite3_stmt *st;            /* the rows, in file order */
	strmap columns;              /* field -> column */
	json_flat values;            /* the row read last */
};

/* The header of export_id into rows: canonical fields in file order,
 * header-less columns left out, and each one's type. 0, or -1 (err). */
static int rows_header(catalogue *cat, sqlite3_int64 export_id, query_rows *rows, mc_err *err)
{
	sqlite3_stmt *st = NULL;
	size_t cap = 0;
	int step;

	if (catalogue_prepare(cat, &st, "SELECT field, type FROM export_column"
			      " WHERE snapshot_export_id = ? AND headerless = 0 ORDER BY position", err))
		return -1;
	sqlite3_bind_int64(st, 1, export_id);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		const char *type = (const char *)sqlite3_column_text(st, 1);

		if (rows->ncols == cap) {
			rows->fields = xgrow(rows->fields, &cap, rows->ncols + 1, sizeof(*rows->fields));
			rows->types = xrealloc(rows->types, cap * sizeof(*rows->types));
		}
		rows->fields[rows->ncols] = catalogue_column_dup(st, 0);
		if (!type || colmap_type_parse(type, &rows->types[rows->ncols]))
			rows->types[rows->ncols] = COL_TEXT;
		*strmap_get_or_add(&rows->state->columns, rows->fields[rows->ncols],
				   strlen(rows->fields[rows->ncols]), NULL) = rows->ncols;
		rows->ncols++;
	}
	sqlite3_finalize(st);
	return step == SQLITE_DONE ? 0 : catalogue_fail(cat, "reading the header", err);
}

int query_rows_open(catalogue *cat, const char *export_name, const char *as_of,
		    sqlite3_int64 snapshot, query_rows *rows, mc_err *err)
{
	sqlite3_int64 export_id;
	int found;

	memset(rows, 0, sizeof(*rows));
	rows->cat = cat;
	rows->state = xcalloc(1, sizeof(*rows->state));
	strmap_init(&rows->state->columns);
	found = snapshot ? content_export_upto(cat, export_name, snapshot, &export_id, err)
		: query_content_export(cat, export_name, as_of, &export_id, err);
	if (found <= 0) {
		if (!found)
			mc_error(err, "%s: no snapshot of export %s on or before %s",
				 cat->path, export_name, as_of);
		return found < 0 ? -1 : 1;
	}
	if (rows_header(cat, export_id, rows, err))
		return -1;
	rows->values = xcalloc(rows->ncols + 1, sizeof(*rows->values));
	rows->lengths = xcalloc(rows->ncols + 1, sizeof(*rows->lengths));
	/* each row's stored values read here, not through json_each(), which
	 * made the export of the 120 MB bench catalogue take 0.97 s against
	 * 0.59 s so (docs/performance.md, "The fourth round") */
	if (catalogue_prepare(cat, &rows->state->st,
		    "SELECT v.norm FROM snapshot_row sr JOIN version v ON v.id = sr.version_id"
		    " WHERE sr.snapshot_export_id = ? ORDER BY sr.position", err))
		return -1;
	sqlite3_bind_int64(rows->state->st, 1, export_id);
	return 0;
}

int query_rows_next(query_rows *rows, mc_err *err)
{
	struct query_rows_state *s = rows->state;
	const char *norm;
	size_t i;
	int step;

	memset(rows->values, 0, rows->ncols * sizeof(*rows->values));
	memset(rows->lengths, 0, rows->ncols * sizeof(*rows->lengths));
	json_flat_release(&s->values);
	while ((step = sqlite3_step(s->st)) == SQLITE_ROW) {
		norm = (const char *)sqlite3_column_text(s->st, 0);
		if (json_flat_parse(&s->values, norm ? norm : "{}"))
			return mc_error(err, "%s: stored values are not valid JSON", rows->cat->path);
		/* a row of no values is no row of the file (as it was read) */
		if (!s->values.n)
			continue;
		for (i = 0; i < s->values.n; i++) {
			const json_pair *v = &s->values.pairs[i];
			size_t *col = strmap_find(&s->columns, v->key, strlen(v->key));

			/* a field of an earlier version that this snapshot's
			 * header no longer has is not part of the export; a
			 * repeated key: its last value */
			if (col) {
				rows->values[*col] = v->value;
				rows->lengths[*col] = v->len;
			}
		}
		return 1;
	}
	return step == SQLITE_DONE ? 0 : catalogue_fail(rows->cat, "reading the rows", err);
}

void query_rows_close(query_rows *rows)
{
	size_t i;

	if (rows->state) {
		sqlite3_finalize(rows->state->st);
		strmap_release(&rows->state->columns);
		json_flat_release(&rows->state->values);
		free(rows->state);
	}
	for (i = 0; i < rows->ncols; i++)
		free(rows->fields[i]);
	free(rows->fields);
	free(rows->types);
	free(rows->values);
	free(rows->lengths);
	memset(rows, 0, sizeof(*rows));
}


/* ---- shared helpers ---- */

/* The header of a snapshot_export: field names in file order (headerless
 * columns left out) and their headers. */
typedef struct header {
	char **fields;               /* canonical fields */
	char **headers;              /* header cells */
	unsigned char *numbers;      /* per field: 1 for a number */
	const char *key;             /* the key field (an entry of fields), or NULL */
	size_t n;                    /* entries */
	size_t cap;                  /* entries allocated (fields, headers, numbers) */
	strmap index;                /* field -> position + 1 */
} header;

static void header_release(header *h)
{
	size_t i;

	for (i = 0; i < h->n; i++) {
		free(h->fields[i]);
		free(h->headers[i]);
	}
	free(h->fields);
	free(h->headers);
	free(h->numbers);
	strmap_release(&h->index);
	memset(h, 0, sizeof(*h));
}

static int header_load(catalogue *cat, sqlite3_int64 export_id, header *h, mc_err *err)
{
	sqlite3_stmt *st = NULL;
	int step;

	memset(h, 0, sizeof(*h));
	strmap_init(&h->index);
	if (!export_id)
		return 0;
	if (catalogue_keep(cat, &st, "SELECT field, header, type FROM export_column"
			   " WHERE snapshot_export_id = ? AND headerless = 0 ORDER BY position", err))
		return -1;
	sqlite3_bind_int64(st, 1, export_id);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		if (h->n == h->cap) {     /* the three arrays share one capacity */
			h->fields = xgrow(h->fields, &h->cap, h->n + 1, sizeof(*h->fields));
			h->headers = xrealloc(h->headers, h->cap * sizeof(*h->headers));
			h->numbers = xrealloc(h->numbers, h->cap);
		}
		h->fields[h->n] = catalogue_column_dup(st, 0);
		h->headers[h->n] = catalogue_column_dup(st, 1);
		h->numbers[h->n] = sqlite3_column_text(st, 2) &&
			!strcmp((const char *)sqlite3_column_text(st, 2), colmap_type_name(COL_NUMBER));
		if (sqlite3_column_text(st, 2) &&
		    !strcmp((const char *)sqlite3_column_text(st, 2), colmap_type_name(COL_KEY)))
			h->key = h->fields[h->n];
		*strmap_get_or_add(&h->index, h->fields[h->n], strlen(h->fields[h->n]), NULL) = h->n + 1;
		h->n++;
	}
	catalogue_kept_done(st);
	return step == SQLITE_DONE ? 0 : catalogue_fail(cat, "reading a header", err);
}

/* The export model_lookup reads a model's values with (the export's latest
 * content on a date) and its header, kept in the catalogue (cat->headers)
 * while no connection has written since they were read: this one's total
 * changes (a row written and rolled back counts) and PRAGMA data_version
 * (another connection's commit: a rebuilt catalogue copied in, a
 * snapshot withdrawn) as when read. Reading them for every model was a
 * fifth of a publication's time. */
#define HEADERS_KEPT 16
/* The key field of every export (CATALOGUE_EXPORT_KEY), read for all of
 * them at once and kept with the headers. As a subquery of model_lookup's
 * statement it ran twice for each version read, over every header of the
 * export: half of model_lookup's time. */
typedef struct export_keys {
	int read;                    /* the rest is valid */
	size_t n;
	char **exports;              /* the exports with a header on record */
	char **keys;                 /* each one's key field (NULL: none) */
	char *removed_from;          /* the first date a column was removed
					from an export (NULL: never) */
} export_keys;

typedef struct header_cache {
	int kept;                    /* changes and version are set */
	sqlite3_int64 changes;       /* sqlite3_total_changes64() when read */
	sqlite3_int64 version;       /* PRAGMA data_version when read */
	size_t n;
	char *names[HEADERS_KEPT];   /* "EXPORT DATE" */
	header h[HEADERS_KEPT];
	export_keys keys;
} header_cache;

static void header_cache_empty(header_cache *c)
{
	while (c->n) {
		c->n--;
		header_release(&c->h[c->n]);
		free(c->names[c->n]);
	}
}

static void export_keys_empty(export_keys *k)
{
	while (k->n) {
		k->n--;
		free(k->exports[k->n]);
		free(k->keys[k->n]);
	}
	free(k->exports);
	free(k->keys);
	free(k->removed_from);
	memset(k, 0, sizeof(*k));
}

static void header_cache_free(void *p)
{
	header_cache *c = p;

	header_cache_empty(c);
	export_keys_empty(&c->keys);
	free(c);
}

/* The catalogue's cache of headers and export keys, made on first use and
 * emptied when a connection has written since it was filled: into *out.
 * 0, or -1 (err). */
static int cache_now(catalogue *cat, header_cache **out, mc_err *err)
{
	sqlite3_int64 changes = sqlite3_total_changes64(cat->db), version = -1;
	sqlite3_stmt *st = NULL;
	header_cache *c;

	if (!cat->headers) {
		cat->headers = xcalloc(1, sizeof(header_cache));
		cat->headers_free = header_cache_free;
	}
	c = cat->headers;
	if (catalogue_keep(cat, &st, "PRAGMA data_version", err))
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW)
		version = sqlite3_column_int64(st, 0);
	catalogue_kept_done(st);
	if (version < 0)
		return catalogue_fail(cat, "reading the data version", err);
	if (!c->kept || c->changes != changes || c->version != version) {
		header_cache_empty(c);
		export_keys_empty(&c->keys);
		c->kept = 1;
		c->changes = changes;
		c->version = version;
	}
	*out = c;
	return 0;
}

/* The header of export_name's content on as_of, kept in c (cache_now()):
 * into *h (c owns it; no fields when the export has no content then). 0,
 * or -1. */
static int header_kept(catalogue *cat, header_cache *c, const char *export_name,
		       const char *as_of, const header **h, mc_err *err)
{
	sqlite3_int64 export_id;
	char name[512];
	size_t i;

	mc_fmt(name, sizeof(name), "%s %s", export_name, as_of ? as_of : "");
	if (c->n == HEADERS_KEPT)
		header_cache_empty(c);
	for (i = 0; i < c->n; i++)
		if (!strcmp(c->names[i], name)) {
			*h = &c->h[i];
			return 0;
		}
	if (query_content_export(cat, export_name, as_of, &export_id, err) < 0 ||
	    header_load(cat, export_id, &c->h[c->n], err))
		return -1;
	c->names[c->n] = xstrdup(name);
	*h = &c->h[c->n++];
	return 0;
}

static int header_has(const header *h, const char *field)
{
	return strmap_find(&h->index, field, strlen(field)) != NULL;
}

/* The rows of a snapshot_export: record, version, name. Their values are
 * read only where a diff looks at them (version_values()): the versions
 * two states do not share, and the columns added or removed. Copying
 * every row's values (about 140 MB a state of the bench catalogue, two
 * states a diff, two diffs a publish after a change) was most of an
 * audit's time and a third of a publish's peak memory. */
typedef struct state_row {
	sqlite3_int64 record;        /* record id */
	sqlite3_int64 version;       /* version id */
	char *name;                  /* the name in that version */
} state_row;

typedef struct state {
	state_row *rows;             /* in file order */
	size_t n;                    /* entries */
	size_t cap;                  /* entries allocated */
	strmap by_record;            /* record id (decimal) -> index + 1 */
} state;

static void state_release(state *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->rows[i].name);
	free(s->rows);
	strmap_release(&s->by_record);
	memset(s, 0, sizeof(*s));
}

static const state_row *state_find(const state *s, sqlite3_int64 record)
{
	char key[32];
	size_t *at;

	mc_fmt(key, sizeof(key), "%lld", (long long)record);
	at = strmap_find(&s->by_record, key, strlen(key));
	return at ? &s->rows[*at - 1] : NULL;
}

static int state_load(catalogue *cat, sqlite3_int64 export_id, state *s, mc_err *err)
{
	sqlite3_stmt *st = NULL;
	int step;

	memset(s, 0, sizeof(*s));
	strmap_init(&s->by_record);
	if (!export_id)
		return 0;
	if (catalogue_prepare(cat, &st,
			      "SELECT v.record_id, v.id, v.name, r.occurrence FROM snapshot_row sr"
			      " JOIN version v ON v.id = sr.version_id JOIN record r ON r.id = v.record_id"
			      " WHERE sr.snapshot_export_id = ? ORDER BY sr.position", err))
		return -1;
	sqlite3_bind_int64(st, 1, export_id);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		state_row *r;
		char key[32];

		s->rows = xgrow(s->rows, &s->cap, s->n + 1, sizeof(*s->rows));
		r = &s->rows[s->n++];
		r->record = sqlite3_column_int64(st, 0);
		r->version = sqlite3_column_int64(st, 1);
		r->name = catalogue_column_dup(st, 2);
		if (r->name && sqlite3_column_int64(st, 3) > 1) {
			/* a repeated name's later rows: "NAME#2", as query_models names them */
			sbuf n;

			sbuf_init(&n);
			sbuf_addf(&n, "%s#%lld", r->name, (long long)sqlite3_column_int64(st, 3));
			free(r->name);
			r->name = sbuf_detach(&n, NULL);
		}
		mc_fmt(key, sizeof(key), "%lld", (long long)r->record);
		*strmap_get_or_add(&s->by_record, key, strlen(key), NULL) = s->n;
	}
	sqlite3_finalize(st);
	return step == SQLITE_DONE ? 0 : catalogue_fail(cat, "reading a snapshot's rows", err);
}

/* The values of version (a row of a state) parsed into *values (released
 * by the caller only on 0). 0, or -1 (err). */
static int version_values(catalogue *cat, sqlite3_int64 version, json_flat *values, mc_err *err)
{
	sqlite3_stmt *st = NULL;
	const char *norm;
	int step, rc = -1;

	if (catalogue_keep(cat, &st, "SELECT norm FROM version WHERE id = ?", err))
		return -1;
	sqlite3_bind_int64(st, 1, version);
	step = sqlite3_step(st);
	norm = step == SQLITE_ROW ? (const char *)sqlite3_column_text(st, 0) : NULL;
	if (step != SQLITE_ROW && step != SQLITE_DONE)
		catalogue_fail(cat, "reading a version's values", err);
	else if (!norm || json_flat_parse(values, norm))
		mc_error(err, "%s: version %lld: stored values are %s", cat->path, (long long)version,
			 norm ? "not valid JSON" : "missing");
	else
		rc = 0;
	catalogue_kept_done(st);
	return rc;
}

/* ---- diff ---- */

static void model_release(diff_model *m)
{
	size_t i;

	for (i = 0; i < m->nfields; i++) {
		free(m->fields[i].field);
		free(m->fields[i].old);
		free(m->fields[i].new);
	}
	free(m->fields);
	free(m->export);
	free(m->name);
	free(m->old_name);
}

static void column_release(diff_column *c)
{
	free(c->export);
	free(c->field);
	free(c->old_header);
	free(c->new_header);
}

void diff_result_release(diff_result *d)
{
	size_t i;

	for (i = 0; i < d->added.n; i++)
		model_release(&d->added.items[i]);
	for (i = 0; i < d->removed.n; i++)
		model_release(&d->removed.items[i]);
	for (i = 0; i < d->renamed.n; i++)
		model_release(&d->renamed.items[i]);
	for (i = 0; i < d->changed.n; i++)
		model_release(&d->changed.items[i]);
	for (i = 0; i < d->columns_added.n; i++)
		column_release(&d->columns_added.items[i]);
	for (i = 0; i < d->columns_removed.n; i++)
		column_release(&d->columns_removed.items[i]);
	for (i = 0; i < d->headers_respelled.n; i++)
		column_release(&d->headers_respelled.items[i]);
	for (i = 0; i < d->quarantined.n; i++) {
		diff_quarantine *q = &d->quarantined.items[i];

		free(q->export);
		free(q->file);
		free(q->name);
		free(q->field);
		free(q->reason);
		free(q->as_of);
	}
	free(d->added.items);
	free(d->removed.items);
	free(d->renamed.items);
	free(d->changed.items);
	free(d->columns_added.items);
	free(d->columns_removed.items);
	free(d->headers_respelled.items);
	free(d->quarantined.items);
	for (i = 0; i < d->held_exports.n + d->held_models.n; i++) {
		diff_held *h = i < d->held_exports.n ? &d->held_exports.items[i]
			: &d->held_models.items[i - d->held_exports.n];

		free(h->export);
		free(h->guard);
		free(h->reason);
		free(h->name);
		free(h->as_of);
	}
	for (i = 0; i < d->column_values.n; i++) {
		free(d->column_values.items[i].export);
		free(d->column_values.items[i].field);
		mc_free_strings(d->column_values.items[i].names, d->column_values.items[i].n);
	}
	free(d->column_values.items);
	free(d->held_exports.items);
	free(d->held_models.items);
	mc_free_strings(d->exports.items, d->exports.n);
	memset(d, 0, sizeof(*d));
}

static diff_model *push_model(diff_result *d, int kind, const char *export_name,
			      const char *name)
{
	diff_model *m = kind == 0 ? DIFF_PUSH(d->added) : kind == 1 ? DIFF_PUSH(d->removed) :
			kind == 2 ? DIFF_PUSH(d->renamed) : DIFF_PUSH(d->changed);

	m->export = xstrdup(export_name);
	m->name = xstrdup(name ? name : "");
	return m;
}

/* Compare two versions' values on the fields both headers have (the name
 * is left to the rename list); adds a changed entry when any differ. */
static int compare_rows(diff_result *d, const char *export_name, const state_row *a,
			const state_row *b, const header *ha, const header *hb,
			catalogue *cat, mc_err *err)
{
	json_flat old, cur;
	diff_model *m = NULL;
	size_t i;

	if (version_values(cat, a->version, &old, err))
		return -1;
	if (version_values(cat, b->version, &cur, err)) {
		json_flat_release(&old);
		return -1;
	}
	for (i = 0; i < hb->n; i++) {
		const char *field = hb->fields[i];
		const json_pair *x, *y;
		diff_field *f;

		if ((hb->key && !strcmp(field, hb->key)) || !header_has(ha, field))
			continue;
		x = json_flat_get(&old, field);
		y = json_flat_get(&cur, field);
		if (x && y && (hb->numbers[i] ? norm_number_text_equal(x->value, x->len, y->value, y->len)
				: x->len == y->len && !memcmp(x->value, y->value, x->len)))
			continue;
		if (!x && !y)
			continue;
		if (!m)
			m = push_model(d, 3, export_name, b->name);
		m->fields = xrealloc(m->fields, (m->nfields + 1) * sizeof(*m->fields));
		f = &m->fields[m->nfields++];
		f->field = xstrdup(field);
		f->old = x ? xstrndup(x->value, x->len) : NULL;
		f->new = y ? xstrndup(y->value, y->len) : NULL;
	}
	json_flat_release(&old);
	json_flat_release(&cur);
	return 0;
}

static void diff_columns(diff_result *d, const char *export_name, const header *ha,
			 const header *hb)
{
	size_t i;

	for (i = 0; i < hb->n; i++) {
		size_t *at = strmap_find(&ha->index, hb->fields[i], strlen(hb->fields[i]));
		diff_column *c;

		if (at && !strcmp(ha->headers[*at - 1], hb->headers[i]))
			continue;
		c = at ? DIFF_PUSH(d->headers_respelled) : DIFF_PUSH(d->columns_added);
		c->export = xstrdup(export_name);
		c->field = xstrdup(hb->fields[i]);
		c->new_header = xstrdup(hb->headers[i]);
		if (at)
			c->old_header = xstrdup(ha->headers[*at - 1]);
	}
	for (i = 0; i < ha->n; i++) {
		diff_column *c;

		if (header_has(hb, ha->fields[i]))
			continue;
		c = DIFF_PUSH(d->columns_removed);
		c->export = xstrdup(export_name);
		c->field = xstrdup(ha->fields[i]);
		c->old_header = xstrdup(ha->headers[i]);
	}
}

/* The values columns added to (removed from) the export gave (took from)
 * the models both states have: for each such column, the models of sb
 * (sa) with a value in it, in file order. Each state's rows are read once
 * for all its columns. 0, or -1 (err). */
static int diff_column_values_of(catalogue *cat, diff_result *d, const char *export_name,
				 const header *ha, const header *hb, const state *sa,
				 const state *sb, mc_err *err)
{
	size_t first = d->column_values.n, i, j, k;
	int removed;

	for (i = 0; i < ha->n + hb->n; i++) {
		int gone = i < ha->n;   /* a column of ha that hb lacks */
		const char *field = gone ? ha->fields[i] : hb->fields[i - ha->n];
		diff_column_values *c;

		if (header_has(gone ? hb : ha, field))
			continue;
		c = DIFF_PUSH(d->column_values);
		c->export = xstrdup(export_name);
		c->field = xstrdup(field);
		c->removed = gone;
	}
	for (removed = 0; removed < 2; removed++) {
		const state *s = removed ? sa : sb, *other = removed ? sb : sa;

		for (k = first; k < d->column_values.n; k++)
			if (d->column_values.items[k].removed == removed)
				break;
		if (k == d->column_values.n)
			continue;   /* no column of this side */
		for (j = 0; j < s->n; j++) {
			json_flat values;

			if (!state_find(other, s->rows[j].record))
				continue;
			if (version_values(cat, s->rows[j].version, &values, err))
				return -1;
			for (k = first; k < d->column_values.n; k++) {
				diff_column_values *c = &d->column_values.items[k];
				const json_pair *v;

				if (c->removed != removed)
					continue;
				v = json_flat_get(&values, c->field);
				if (v && v->len) {
					c->names = xrealloc(c->names, (c->n + 1) * sizeof(*c->names));
					c->names[c->n++] = xstrdup(s->rows[j].name);
				}
			}
			json_flat_release(&values);
		}
	}
	/* a column that gave or took no model's value is not listed */
	for (i = k = first; i < d->column_values.n; i++) {
		diff_column_values *c = &d->column_values.items[i];

		if (c->n) {
			d->column_values.items[k++] = *c;
			continue;
		}
		free(c->export);
		free(c->field);
		free(c->names);
	}
	d->column_values.n = k;
	return 0;
}

/* Did export_name hold row b's record, or a model of its name, in a
 * snapshot before snapshot_export eb? *yes 1 or 0; 0, or -1 (err). */
static int returned(catalogue *cat, const char *export_name, sqlite3_int64 eb, const state_row *b,
		    int *yes, mc_err *err)
{
	sqlite3_stmt *st = NULL;
	int step;

	if (catalogue_prepare(cat, &st,
			      "SELECT 1 FROM snapshot_row sr JOIN version v ON v.id = sr.version_id"
			      " JOIN snapshot_export se ON se.id = sr.snapshot_export_id"
			      " WHERE (v.record_id = ? OR v.name = ?) AND se.export = ? AND se.id < ?"
			      " LIMIT 1", err))
		return -1;
	sqlite3_bind_int64(st, 1, b->record);
	sqlite3_bind_text(st, 2, b->name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, export_name, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, eb);
	step = sqlite3_step(st);
	sqlite3_finalize(st);
	if (step != SQLITE_ROW && step != SQLITE_DONE)
		return catalogue_fail(cat, "reading a model's earlier rows", err);
	*yes = step == SQLITE_ROW;
	return 0;
}

static int diff_export(catalogue *cat, diff_result *d, const char *export_name, mc_err *err)
{
	sqlite3_int64 ea = 0, eb = 0;
	header ha, hb;
	state sa, sb;
	size_t i;
	int rc = -1;

	memset(&ha, 0, sizeof(ha));
	memset(&hb, 0, sizeof(hb));
	memset(&sa, 0, sizeof(sa));
	memset(&sb, 0, sizeof(sb));
	strmap_init(&ha.index);
	strmap_init(&hb.index);
	strmap_init(&sa.by_record);
	strmap_init(&sb.by_record);
	if (content_export_upto(cat, export_name, d->from_snapshot, &ea, err) < 0 ||
	    content_export_upto(cat, export_name, d->to_snapshot, &eb, err) < 0)
		goto out;
	if (ea == eb) {
		rc = 0;
		goto out;
	}
	header_release(&ha);
	header_release(&hb);
	state_release(&sa);
	state_release(&sb);
	if (header_load(cat, ea, &ha, err) || header_load(cat, eb, &hb, err) ||
	    state_load(cat, ea, &sa, err) || state_load(cat, eb, &sb, err))
		goto out;
	if (ea && eb) {
		diff_columns(d, export_name, &ha, &hb);
		if (diff_column_values_of(cat, d, export_name, &ha, &hb, &sa, &sb, err))
			goto out;
	}
	for (i = 0; i < sb.n; i++) {
		const state_row *b = &sb.rows[i], *a = state_find(&sa, b->record);

		if (!a) {
			diff_model *m = push_model(d, 0, export_name, b->name);

			if (ea && returned(cat, export_name, eb, b, &m->returned, err))
				goto out;
			continue;
		}
		if (a->version == b->version)
			continue;
		if (strcmp(a->name, b->name))
			push_model(d, 2, export_name, b->name)->old_name = xstrdup(a->name);
		if (compare_rows(d, export_name, a, b, &ha, &hb, cat, err))
			goto out;
	}
	for (i = 0; i < sa.n; i++)
		if (!state_find(&sb, sa.rows[i].record))
			push_model(d, 1, export_name, sa.rows[i].name);
	rc = 0;
out:
	header_release(&ha);
	header_release(&hb);
	state_release(&sa);
	state_release(&sb);
	return rc;
}

static int diff_quarantined(catalogue *cat, diff_result *d, mc_err *err)
{
	sqlite3_stmt *st = NULL;
	int step;

	if (catalogue_prepare(cat, &st,
			      "SELECT se.export, q.file, q.line, q.name, q.field, q.reason, s.as_of"
			      " FROM quarantine q JOIN snapshot_export se ON se.id = q.snapshot_export_id"
			      " JOIN snapshot s ON s.id = se.snapshot_id"
			      " WHERE s.id > ? AND s.id <= ? ORDER BY s.as_of, s.id, se.export, q.line", err))
		return -1;
	sqlite3_bind_int64(st, 1, d->from_snapshot);
	sqlite3_bind_int64(st, 2, d->to_snapshot);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		diff_quarantine *q = DIFF_PUSH(d->quarantined);

		q->export = catalogue_column_dup(st, 0);
		q->file = catalogue_column_dup(st, 1);
		q->line = (long)sqlite3_column_int64(st, 2);
		q->name = catalogue_column_dup(st, 3);
		q->field = catalogue_column_dup(st, 4);
		q->reason = catalogue_column_dup(st, 5);
		q->as_of = catalogue_column_dup(st, 6);
	}
	sqlite3_finalize(st);
	return step == SQLITE_DONE ? 0 : catalogue_fail(cat, "reading the quarantine", err);
}

/* What was held for review in (from, to]: exports (models 0) or models. */
static int diff_held_list(catalogue *cat, diff_result *d, int models, mc_err *err)
{
	sqlite3_stmt *st = NULL;
	int step;

	/* a catalogue opened read-only before migration 007 has held nothing */
	if (catalogue_prepare(cat, &st, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND"
			      " name = 'held_export'", err))
		return -1;
	step = sqlite3_step(st);
	sqlite3_finalize(st);
	st = NULL;
	if (step != SQLITE_ROW)
		return step == SQLITE_DONE ? 0 : catalogue_fail(cat, "reading what was held", err);
	if (catalogue_prepare(cat, &st, models
			      ? "SELECT h.export, NULL, NULL, h.name, h.line, s.as_of FROM held_model h"
				" JOIN snapshot s ON s.id = h.snapshot_id WHERE s.id > ? AND s.id <= ?"
				" ORDER BY s.as_of, s.id, h.export, h.name"
			      : "SELECT h.export, h.guard, h.reason, NULL, 0, s.as_of FROM held_export h"
				" JOIN snapshot s ON s.id = h.snapshot_id WHERE s.id > ? AND s.id <= ?"
				" ORDER BY s.as_of, s.id, h.export", err))
		return -1;
	sqlite3_bind_int64(st, 1, d->from_snapshot);
	sqlite3_bind_int64(st, 2, d->to_snapshot);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		diff_held *h = models ? DIFF_PUSH(d->held_models) : DIFF_PUSH(d->held_exports);

		h->export = catalogue_column_dup(st, 0);
		h->guard = catalogue_column_dup(st, 1);
		h->reason = catalogue_column_dup(st, 2);
		h->name = catalogue_column_dup(st, 3);
		h->line = (long)sqlite3_column_int64(st, 4);
		h->as_of = catalogue_column_dup(st, 5);
	}
	sqlite3_finalize(st);
	return step == SQLITE_DONE ? 0 : catalogue_fail(cat, "reading what was held", err);
}

/* query_diff_snapshots() within a read transaction (the caller's). */
static int diff_snapshots(catalogue *cat, sqlite3_int64 from_id, sqlite3_int64 to_id,
			  diff_result *out, mc_err *err)
{
	sqlite3_stmt *st = NULL;
	size_t i;
	int step;

	out->from_snapshot = from_id;
	out->to_snapshot = to_id;
	if (snapshot_day_of(cat, from_id, out->from, err) || snapshot_day_of(cat, to_id, out->to, err))
		return -1;
	if (catalogue_prepare(cat, &st,
			      "SELECT DISTINCT export FROM snapshot_export WHERE snapshot_id <= ?"
			      " ORDER BY export", err))
		return -1;
	sqlite3_bind_int64(st, 1, to_id);
	while ((step = sqlite3_step(st)) == SQLITE_ROW)
		*DIFF_PUSH(out->exports) = catalogue_column_dup(st, 0);
	sqlite3_finalize(st);
	if (step != SQLITE_DONE)
		return catalogue_fail(cat, "listing the exports", err);
	for (i = 0; i < out->exports.n; i++)
		if (diff_export(cat, out, out->exports.items[i], err))
			return -1;
	return diff_quarantined(cat, out, err) || diff_held_list(cat, out, 0, err) ||
	       diff_held_list(cat, out, 1, err) ? -1 : 0;
}

int query_diff_snapshots(catalogue *cat, sqlite3_int64 from_id, sqlite3_int64 to_id,
			 diff_result *out, mc_err *err)
{
	int open, rc;

	memset(out, 0, sizeof(*out));
	/* one look at the catalogue: the states, and the values of their
	 * versions read after them, are of the same moment */
	if ((open = catalogue_read_begin(cat, err)) < 0)
		return -1;
	rc = diff_snapshots(cat, from_id, to_id, out, err);
	if (open > 0 && catalogue_read_end(cat, rc ? NULL : err))
		rc = -1;
	return rc;
}

int query_diff(catalogue *cat, const char *from, const char *to, diff_result *out, mc_err *err)
{
	sqlite3_int64 a, b;
	int rc;

	memset(out, 0, sizeof(*out));
	if (snapshot_upto(cat, from, &a, err) || snapshot_upto(cat, to, &b, err))
		return -1;
	rc = query_diff_snapshots(cat, a, b, out, err);
	/* the dates asked for, which may fall between snapshots */
	mc_fmt(out->from, sizeof(out->from), "%s", from ? from : "");
	mc_fmt(out->to, sizeof(out->to), "%s", to);
	return rc;
}

int query_last_two(catalogue *cat, char from[11], char to[11], mc_err *err)
{
	snapshot_day *days;
	size_t n;

	from[0] = to[0] = '\0';
	if (snapshot_recent_days(cat, 2, &days, &n, err))
		return -1;
	if (n > 0)
		mc_fmt(to, 11, "%s", days[0].day);
	if (n > 1)
		mc_fmt(from, 11, "%s", days[1].day);
	free(days);
	return n ? 0 : 1;
}

/* ---- the models on record ---- */

int query_models(catalogue *cat, const char *as_of, char ***names, size_t *n, mc_err *err)
{
	sqlite3_stmt *st = NULL;
	char *key = NULL;
	int step;

	*names = NULL;
	*n = 0;
	if (catalogue_prepare(cat, &st,
			      CATALOGUE_KEYED "SELECT DISTINCT v.name, r.occurrence FROM version v"
			      " JOIN record r ON r.id = v.record_id"
			      " WHERE v.tombstone = 0 AND v.valid_from <= ?1"
			      " AND (v.valid_to IS NULL OR v.valid_to > ?1)"
			      " AND r.export NOT IN (SELECT export FROM keyed WHERE field <> ?2)"
			      " ORDER BY v.name COLLATE NOCASE, v.name, r.occurrence", err))
		return -1;
	if (colmap_default_key(&key, err)) {
		sqlite3_finalize(st);
		return -1;
	}
	if (sqlite3_bind_text(st, 1, as_of, -1, SQLITE_TRANSIENT) != SQLITE_OK ||
	    sqlite3_bind_text(st, 2, key, -1, SQLITE_TRANSIENT) != SQLITE_OK) {
		sqlite3_finalize(st);
		free(key);
		return catalogue_fail(cat, "binding the date", err);
	}
	free(key);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		sqlite3_int64 occurrence = sqlite3_column_int64(st, 1);
		sbuf s;

		if (!name)
			continue;
		sbuf_init(&s);
		sbuf_adds(&s, name);
		if (occurrence > 1)
			sbuf_addf(&s, "#%lld", (long long)occurrence);
		*names = xrealloc(*names, (*n + 1) * sizeof(**names));
		(*names)[(*n)++] = sbuf_detach(&s, NULL);
	}
	sqlite3_finalize(st);
	if (step != SQLITE_DONE)
		return catalogue_fail(cat, "listing the models", err);
	return 0;
}

/* ---- one model ---- */

void model_view_release(model_view *m)
{
	strmap_release(&m->fields);
	strpool_release(&m->texts);
	free(m->values.items);
	mc_free_strings(m->exports.items, m->exports.n);
	free(m->name);
	memset(m, 0, sizeof(*m));
}

/* Split "NAME#n" into name and occurrence n; otherwise occurrence 1. */
static void split_occurrence(const char *text, sbuf *name, long *occurrence)
{
	const char *hash = strrchr(text, '#');
	char *end;

	sbuf_reset(name);
	*occurrence = 1;
	if (hash && hash[1] >= '1' && hash[1] <= '9') {
		long n = strtol(hash + 1, &end, 10);

		if (!*end && n > 0) {
			sbuf_add(name, text, (size_t)(hash - text));
			*occurrence = n;
			return;
		}
	}
	sbuf_adds(name, text);
}

/* Add to m the values of one export's version (values, shown in the order
 * of that export's header h) in the fields no export before it gave
 * (m->fields, which gains them with their places); since is the version's
 * snapshot date. Linear in the fields: one pass indexes the values by
 * field, one walks the header. */
static void merge_values(model_view *m, const header *h, const json_flat *values,
			 const char *export_name, const char *since)
{
	char *shared_export = NULL, *shared_since = NULL;
	strmap index;
	size_t i;

	if (!h->n)
		return;
	strmap_init(&index);
	strmap_reserve(&index, values->n);
	for (i = 0; i < values->n; i++) {
		int added;
		size_t *at = strmap_get_or_add(&index, values->pairs[i].key,
					       strlen(values->pairs[i].key), &added);

		if (added)          /* a repeated key: its first value, as before */
			*at = i + 1;
	}
	strmap_reserve(&m->fields, m->fields.count + h->n);
	m->values.items = xrealloc(m->values.items,
				   (m->values.n + h->n) * sizeof(*m->values.items));
	for (i = 0; i < h->n; i++) {
		size_t len = strlen(h->fields[i]), *at = strmap_find(&index, h->fields[i], len), *seen;
		const json_pair *v;
		model_value *mv;
		int added;

		if (!at)
			continue;
		seen = strmap_get_or_add(&m->fields, h->fields[i], len, &added);
		if (!added)
			continue;
		*seen = m->values.n + 1;
		v = &values->pairs[*at - 1];
		mv = &m->values.items[m->values.n++];
		mv->field = strpool_add(&m->texts, h->fields[i], len);
		mv->value = strpool_add(&m->texts, v->value, v->len);
		if (!shared_export) {   /* one copy for the values of this version */
			shared_export = strpool_dup(&m->texts, export_name);
			shared_since = strpool_dup(&m->texts, since);
		}
		mv->export = shared_export;
		mv->since = shared_since;
	}
	strmap_release(&index);
}

/* The export keys, kept in c (cache_now()), read if they are not: into
 * *out (c owns them). 0, or -1 (err). */
static int export_keys_now(catalogue *cat, header_cache *c, const export_keys **out,
			   mc_err *err)
{
	export_keys *k = &c->keys;
	sqlite3_stmt *st = NULL;
	size_t cap = 0;
	int step;

	if (k->read) {
		*out = k;
		return 0;
	}
	if (catalogue_keep(cat, &st, CATALOGUE_KEYED "SELECT export, field FROM keyed", err))
		return -1;
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		if (k->n == cap) {
			cap = cap ? 2 * cap : 8;
			k->exports = xrealloc(k->exports, cap * sizeof(*k->exports));
			k->keys = xrealloc(k->keys, cap * sizeof(*k->keys));
		}
		k->exports[k->n] = catalogue_column_dup(st, 0);
		k->keys[k->n++] = catalogue_column_dup(st, 1);
	}
	catalogue_kept_done(st);
	if (step != SQLITE_DONE) {
		export_keys_empty(k);
		return catalogue_fail(cat, "reading the exports' key fields", err);
	}
	if (catalogue_keep(cat, &st,
			   "SELECT min(s.as_of) FROM column_change cc"
			   " JOIN snapshot_export se ON se.id = cc.snapshot_export_id"
			   " JOIN snapshot s ON s.id = se.snapshot_id WHERE cc.kind = 'removed'",
			   err)) {
		export_keys_empty(k);
		return -1;
	}
	step = sqlite3_step(st);
	if (step == SQLITE_ROW)
		k->removed_from = catalogue_column_dup(st, 0);
	catalogue_kept_done(st);
	if (step != SQLITE_ROW) {
		export_keys_empty(k);
		return catalogue_fail(cat, "reading the column changes", err);
	}
	k->read = 1;
	*out = k;
	return 0;
}

/* The key field of export_name (NULL: none on record). */
static const char *export_key_of(const export_keys *k, const char *export_name)
{
	size_t i;

	for (i = 0; i < k->n; i++)
		if (k->exports[i] && !strcmp(k->exports[i], export_name))
			return k->keys[i];
	return NULL;
}

/* The versions whose opening changed a value shown (query_updated too). */
#define UPDATED_KINDS " AND kind IN ('added', 'changed', 'renamed', 'removed', 'revised')"

/* The versions of a name and occurrence valid on a date (?1 the name, ?2
 * the occurrence, ?3 and ?4 the date); with any_time, the name is the
 * record's at any time. Kept (catalogue_keep()): into *st. 0, or -1. */
static int lookup_versions(catalogue *cat, int any_time, sqlite3_stmt **st, mc_err *err)
{
	return catalogue_keep(cat, st,
			      any_time ?
			      "SELECT r.export, v.norm, v.valid_from, r.id, v.name,"
			      " v.snapshot_export_id, coalesce(p.rank, 1000000), v.id FROM version v"
			      " JOIN record r ON r.id = v.record_id"
			      " LEFT JOIN precedence p ON p.export = r.export"
			      " WHERE v.record_id IN (SELECT record_id FROM version WHERE name = ?)"
			      " AND r.occurrence = ? AND v.tombstone = 0"
			      " AND v.valid_from <= ? AND (v.valid_to IS NULL OR v.valid_to > ?)"
			      " ORDER BY coalesce(p.rank, 1000000), r.export" :
			      /* (put in the order of precedence by model_lookup()
				 with lookup_cmp(): SQLite sorted these few rows in
				 a temporary B-tree for every model) */
			      "SELECT r.export, v.norm, v.valid_from, r.id, v.name,"
			      " v.snapshot_export_id, coalesce(p.rank, 1000000), v.id FROM version v"
			      " JOIN record r ON r.id = v.record_id"
			      " LEFT JOIN precedence p ON p.export = r.export"
			      " WHERE v.name = ? AND r.occurrence = ? AND v.tombstone = 0"
			      " AND v.valid_from <= ? AND (v.valid_to IS NULL OR v.valid_to > ?)",
			      err);
}

/* The statement of a record's last-updated date (?1 the record, ?2 the
 * date); with removed, a column was removed from an export on or before
 * the date read, which counts as a change of the values it took. Without,
 * the date is the versions' alone: the part of the statement on removed
 * columns found nothing then, but SQLite built an automatic index of
 * column_change for it at every model (a twelfth of a publication). Kept:
 * into *upd. 0, or -1 (err). */
static int lookup_updated(catalogue *cat, int removed, sqlite3_stmt **upd, mc_err *err)
{
	return catalogue_keep(cat, upd,
			      /* a value shown changed: the model's versions (a new
				 column's values included), and the columns removed
				 from its export while it had a value in them */
			      !removed ?
			      "SELECT max(valid_from) FROM version"
			      " WHERE record_id = ?1 AND valid_from <= ?2" UPDATED_KINDS :
			      "SELECT max(d) FROM (SELECT max(valid_from) AS d FROM version"
			      " WHERE record_id = ?1 AND valid_from <= ?2" UPDATED_KINDS
			      " UNION ALL SELECT max(s.as_of) FROM column_change cc"
			      " JOIN snapshot_export se ON se.id = cc.snapshot_export_id"
			      " JOIN snapshot s ON s.id = se.snapshot_id"
			      " JOIN record r ON r.id = ?1 AND r.export = se.export"
			      " JOIN version v ON v.record_id = r.id AND v.tombstone = 0"
			      " AND v.valid_from < s.as_of AND (v.valid_to IS NULL OR v.valid_to >= s.as_of)"
			      " WHERE cc.kind = 'removed' AND s.as_of <= ?2"
			      " AND EXISTS (SELECT 1 FROM json_each(v.norm) j WHERE j.key = cc.field))",
			      err);
}

int query_updated_read(catalogue *cat, const char *as_of, query_updated *u, mc_err *err)
{
	sqlite3_stmt *st = NULL;
	size_t cap = 0;
	int step;

	memset(u, 0, sizeof(*u));
	mc_fmt(u->as_of, sizeof(u->as_of), "%s", as_of);
	/* (in the order of the index whose first column is record_id) */
	if (catalogue_keep(cat, &st,
			   "SELECT record_id, max(valid_from) FROM version"
			   " WHERE valid_from <= ?1" UPDATED_KINDS
			   " GROUP BY record_id ORDER BY record_id", err))
		return -1;
	sqlite3_bind_text(st, 1, as_of, -1, SQLITE_STATIC);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		const char *date = (const char *)sqlite3_column_text(st, 1);

		if (!date)
			continue;
		if (u->n == cap) {
			cap = cap ? 2 * cap : 1024;
			u->records = xrealloc(u->records, cap * sizeof(*u->records));
			u->dates = xrealloc(u->dates, cap * sizeof(*u->dates));
		}
		u->records[u->n] = sqlite3_column_int64(st, 0);
		mc_fmt(u->dates[u->n], sizeof(u->dates[u->n]), "%s", date);
		u->n++;
	}
	catalogue_kept_done(st);
	if (step != SQLITE_DONE) {
		query_updated_release(u);
		return catalogue_fail(cat, "reading the last-updated dates", err);
	}
	return 0;
}

void query_updated_release(query_updated *u)
{
	free(u->records);
	free(u->dates);
	memset(u, 0, sizeof(*u));
}

void query_updated_use(catalogue *cat, const query_updated *u)
{
	cat->updated = u;
}

/* record's date in u, or NULL when none of its versions counts. */
static const char *updated_find(const query_updated *u, sqlite3_int64 record)
{
	size_t lo = 0, hi = u->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (u->records[mid] < record)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < u->n && u->records[lo] == record ? u->dates[lo] : NULL;
}

/* One version model_lookup read. */
typedef struct lookup_row {
	char *export_name, *norm, *valid_from, *name;
	sqlite3_int64 record, source;
	sqlite3_int64 rank;          /* its export's precedence (1000000: none) */
	sqlite3_int64 version;       /* the version's id */
	const char *key;             /* its export's key field (the cache's) */
} lookup_row;

/* By precedence, then export name (as SQLite compares text), then the
 * order the name's index gives (the version id). */
static int lookup_cmp(const void *a, const void *b)
{
	const lookup_row *x = a, *y = b;
	int c;

	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	c = strcmp(x->export_name ? x->export_name : "", y->export_name ? y->export_name : "");
	if (c)
		return c;
	return x->version < y->version ? -1 : x->version > y->version;
}

static int same_key(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* st's current row into r (its export's key left to model_from_rows()). */
static void lookup_row_read(sqlite3_stmt *st, lookup_row *r)
{
	r->export_name = catalogue_column_dup(st, 0);
	r->norm = catalogue_column_dup(st, 1);
	r->valid_from = catalogue_column_dup(st, 2);
	r->record = sqlite3_column_int64(st, 3);
	r->name = catalogue_column_dup(st, 4);
	r->source = sqlite3_column_int64(st, 5);
	r->rank = sqlite3_column_int64(st, 6);
	r->version = sqlite3_column_int64(st, 7);
	r->key = NULL;
}

static void lookup_row_release(lookup_row *r)
{
	free(r->export_name);
	free(r->norm);
	free(r->valid_from);
	free(r->name);
}

/* Room for one more row in *rows (*n, *cap): the new row. */
static lookup_row *lookup_row_push(lookup_row **rows, size_t *n, size_t *cap)
{
	if (*n == *cap) {
		*cap = *cap ? 2 * *cap : 4;
		*rows = xrealloc(*rows, *cap * sizeof(**rows));
	}
	return &(*rows)[(*n)++];
}

/* The rows of st, stepped to its end, appended to *rows (*n, *cap). 0, or
 * -1 (err). */
static int lookup_rows(catalogue *cat, sqlite3_stmt *st, lookup_row **rows, size_t *n,
		       size_t *cap, mc_err *err)
{
	int step;

	while ((step = sqlite3_step(st)) == SQLITE_ROW)
		lookup_row_read(st, lookup_row_push(rows, n, cap));
	return step == SQLITE_DONE ? 0 : catalogue_fail(cat, "reading the model", err);
}

/* Fill m from rows[0..n), the versions of one name and occurrence valid
 * on as_of in the order of precedence (lookup_cmp(), or the any-time
 * statement's): 1 found, 0 none, -1 error. want: the key field of the one
 * family to read (NULL: the default family's first, else any). */
static int model_from_rows(catalogue *cat, lookup_row *rows, size_t n, const char *as_of,
			   const char *want, model_view *m, mc_err *err)
{
	sqlite3_stmt *upd = NULL;
	header_cache *cache = NULL;
	const export_keys *keys = NULL;
	const char *target, *family = NULL;
	const query_updated *updated = NULL;
	size_t i;
	int found = 0, removed, rc = -1;

	if (!want && !cat->default_key && colmap_default_key(&cat->default_key, err))
		return -1;
	if (cache_now(cat, &cache, err) || export_keys_now(cat, cache, &keys, err))
		return -1;
	removed = keys->removed_from && strcmp(keys->removed_from, as_of) <= 0;
	if (!removed && cat->updated && !strcmp(cat->updated->as_of, as_of))
		updated = cat->updated;
	else if (lookup_updated(cat, removed, &upd, err))
		return -1;
	for (i = 0; i < n; i++)
		rows[i].key = export_key_of(keys, rows[i].export_name ? rows[i].export_name : "");
	/* one family: a model and a card of the same name never merge. With
	 * want, its own; else the default family's when the model has a
	 * version there, else the family of its first export by precedence */
	target = want ? want : cat->default_key;
	for (i = 0; i < n && !family; i++)
		if (same_key(rows[i].key, target))
			family = target ? target : "";
	if (!family && !want && n)
		family = rows[0].key ? rows[0].key : "";
	for (i = 0; i < n && family; i++) {
		lookup_row *r = &rows[i];
		const header *h;
		json_flat values;

		if (strcmp(family, r->key ? r->key : ""))
			continue;
		found = 1;
		if (!m->name) {
			m->name = r->name;
			r->name = NULL;
		}
		*DIFF_PUSH(m->exports) = xstrdup(r->export_name);
		if (header_kept(cat, cache, r->export_name, as_of, &h, err))
			goto out;
		if (json_flat_parse(&values, r->norm)) {
			mc_error(err, "%s: stored values are not valid JSON",
				 cat->path);
			goto out;
		}
		{
			size_t before = m->values.n;

			merge_values(m, h, &values, r->export_name, r->valid_from);
			for (; before < m->values.n; before++)
				m->values.items[before].source = r->source;
		}
		json_flat_release(&values);
		if (updated) {
			const char *date = updated_find(updated, r->record);

			if (date && strcmp(date, m->last_updated) > 0)
				mc_fmt(m->last_updated, sizeof(m->last_updated), "%s", date);
			continue;
		}
		sqlite3_bind_int64(upd, 1, r->record);
		sqlite3_bind_text(upd, 2, as_of, -1, SQLITE_STATIC);
		if (sqlite3_step(upd) == SQLITE_ROW && sqlite3_column_text(upd, 0) &&
		    strcmp((const char *)sqlite3_column_text(upd, 0), m->last_updated) > 0)
			mc_fmt(m->last_updated, sizeof(m->last_updated), "%s",
			       (const char *)sqlite3_column_text(upd, 0));
		sqlite3_reset(upd);
	}
	rc = found;
out:
	if (upd)
		catalogue_kept_done(upd);
	return rc;
}

/* Fill m from the versions of name/occurrence valid on as_of: 1 found,
 * 0 none, -1 error. With any_time, name may be the record's name at any
 * time (before or after a rename). want: as model_from_rows(). */
static int model_lookup(catalogue *cat, const char *name, long occurrence,
			const char *as_of, int any_time, const char *want, model_view *m,
			mc_err *err)
{
	sqlite3_stmt *st = NULL;
	lookup_row *rows = NULL;
	size_t n = 0, cap = 0, i;
	int rc = -1;

	if (lookup_versions(cat, any_time, &st, err))
		return -1;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, occurrence);
	sqlite3_bind_text(st, 3, as_of, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, as_of, -1, SQLITE_STATIC);
	rc = lookup_rows(cat, st, &rows, &n, &cap, err);
	catalogue_kept_done(st);
	if (!rc) {
		if (!any_time && n > 1)
			qsort(rows, n, sizeof(*rows), lookup_cmp);
		rc = model_from_rows(cat, rows, n, as_of, want, m, err);
	}
	for (i = 0; i < n; i++)
		lookup_row_release(&rows[i]);
	free(rows);
	return rc;
}

int query_model(catalogue *cat, const char *name, const char *as_of, model_view *out, mc_err *err)
{
	return query_model_family(cat, name, as_of, NULL, out, err);
}

int query_model_family(catalogue *cat, const char *name, const char *as_of, const char *key,
		       model_view *out, mc_err *err)
{
	sbuf base;
	long occurrence;
	int rc;

	memset(out, 0, sizeof(*out));
	mc_fmt(out->as_of, sizeof(out->as_of), "%s", as_of);
	sbuf_init(&base);
	split_occurrence(name, &base, &occurrence);
	rc = model_lookup(cat, name, 1, as_of, 0, key, out, err);
	if (rc == 0 && occurrence > 1)
		rc = model_lookup(cat, base.data, occurrence, as_of, 0, key, out, err);
	/* not under that name on that date: under the name it had then */
	if (rc == 0)
		rc = model_lookup(cat, name, 1, as_of, 1, key, out, err);
	if (rc == 0 && occurrence > 1)
		rc = model_lookup(cat, base.data, occurrence, as_of, 1, key, out, err);
	sbuf_release(&base);
	return rc < 0 ? -1 : rc == 1 ? 0 : 1;
}

/* ---- many models, in the order of their names ---- */

struct model_scan {
	catalogue *cat;
	char *as_of;
	sqlite3_stmt *st;            /* the versions of the names in range */
	lookup_row ahead;            /* the row read past the last name asked */
	int has_ahead;               /* ahead holds a row */
	int ended;                   /* st is at its end (or failed) */
	lookup_row *rows;            /* one name's rows */
	size_t n, cap;
};

int query_scan_open(catalogue *cat, const char *as_of, const char *first, const char *last,
		    model_scan **out, mc_err *err)
{
	model_scan *s;
	sqlite3_stmt *st = NULL;

	/* (in the order of the name's index: SQLite's BINARY, strcmp()'s) */
	if (catalogue_keep(cat, &st,
			   "SELECT r.export, v.norm, v.valid_from, r.id, v.name,"
			   " v.snapshot_export_id, coalesce(p.rank, 1000000), v.id FROM version v"
			   " JOIN record r ON r.id = v.record_id"
			   " LEFT JOIN precedence p ON p.export = r.export"
			   " WHERE v.name >= ?1 AND v.name <= ?2 AND r.occurrence = 1"
			   " AND v.tombstone = 0"
			   " AND v.valid_from <= ?3 AND (v.valid_to IS NULL OR v.valid_to > ?3)"
			   " ORDER BY v.name",
			   err))
		return -1;
	s = xcalloc(1, sizeof(*s));
	s->cat = cat;
	s->as_of = xstrdup(as_of);
	s->st = st;
	if (sqlite3_bind_text(st, 1, first, -1, SQLITE_TRANSIENT) != SQLITE_OK ||
	    sqlite3_bind_text(st, 2, last, -1, SQLITE_TRANSIENT) != SQLITE_OK ||
	    sqlite3_bind_text(st, 3, as_of, -1, SQLITE_TRANSIENT) != SQLITE_OK) {
		query_scan_close(s);
		return catalogue_fail(cat, "binding the names", err);
	}
	*out = s;
	return 0;
}

void query_scan_close(model_scan *s)
{
	if (!s)
		return;
	catalogue_kept_done(s->st);
	if (s->has_ahead)
		lookup_row_release(&s->ahead);
	free(s->rows);
	free(s->as_of);
	free(s);
}

/* The next row of s into s->ahead: 1, 0 at the end, -1 (err). A row whose
 * name holds a NUL byte is passed over: no name asked can be it. */
static int scan_step(model_scan *s, mc_err *err)
{
	for (;;) {
		int step;

		if (s->ended)
			return 0;
		step = sqlite3_step(s->st);
		if (step != SQLITE_ROW) {
			s->ended = 1;
			return step == SQLITE_DONE ? 0 : catalogue_fail(s->cat, "reading the models", err);
		}
		lookup_row_read(s->st, &s->ahead);
		if (s->ahead.name &&
		    strlen(s->ahead.name) == (size_t)sqlite3_column_bytes(s->st, 4)) {
			s->has_ahead = 1;
			return 1;
		}
		lookup_row_release(&s->ahead);
	}
}

int query_model_next(model_scan *s, const char *name, model_view *out, mc_err *err)
{
	sbuf base;
	long occurrence;
	size_t i;
	int rc = 0;

	sbuf_init(&base);
	split_occurrence(name, &base, &occurrence);
	sbuf_release(&base);
	if (occurrence > 1)   /* (a repeated name's row, or a name like one) */
		return query_model(s->cat, name, s->as_of, out, err);
	memset(out, 0, sizeof(*out));
	mc_fmt(out->as_of, sizeof(out->as_of), "%s", s->as_of);
	s->n = 0;
	for (;;) {
		int c;

		if (!s->has_ahead && (rc = scan_step(s, err)) <= 0)
			break;
		c = strcmp(s->ahead.name, name);
		if (c > 0)
			break;
		s->has_ahead = 0;
		if (c < 0)          /* a name not asked for */
			lookup_row_release(&s->ahead);
		else
			*lookup_row_push(&s->rows, &s->n, &s->cap) = s->ahead;
	}
	if (rc >= 0 && s->n) {
		if (s->n > 1)
			qsort(s->rows, s->n, sizeof(*s->rows), lookup_cmp);
		rc = model_from_rows(s->cat, s->rows, s->n, s->as_of, NULL, out, err);
		if (rc == 0)        /* (the rows were found, so is a family) */
			model_view_release(out);
	}
	for (i = 0; i < s->n; i++)
		lookup_row_release(&s->rows[i]);
	s->n = 0;
	if (rc < 0) {          /* (what was merged before the failure freed) */
		model_view_release(out);
		return -1;
	}
	/* not in the scan (not under that name on that date, or asked out of
	   order): as query_model() finds it */
	return rc == 1 ? 0 : query_model(s->cat, name, s->as_of, out, err);
}

/* ---- renames ---- */

/* Append the former names of one record's renames [from, to) of r. */
static void formers_of_record(char **old, char **new, size_t from, size_t to, former_name **out,
			      size_t *n)
{
	const char *now = new[to - 1];
	size_t i, k;

	for (i = from; i < to; i++) {
		if (!strcmp(old[i], now))
			continue;
		for (k = from; k < i; k++)
			if (!strcmp(old[k], old[i]))
				break;
		if (k < i)
			continue;
		*out = xrealloc(*out, (*n + 1) * sizeof(**out));
		(*out)[*n].name = xstrdup(now);
		(*out)[*n].former = xstrdup(old[i]);
		(*n)++;
	}
}

int query_former_names(catalogue *cat, const char *as_of, former_name **out, size_t *n,
		       mc_err *err)
{
	sqlite3_stmt *st = NULL;
	sqlite3_int64 *rec = NULL;
	char **old = NULL, **new = NULL;
	size_t m = 0, cap = 0, i, start;
	int step;

	*out = NULL;
	*n = 0;
	if (catalogue_prepare(cat, &st,
			      "SELECT record_id, old_name, new_name FROM rename WHERE as_of <= ?"
			      " ORDER BY record_id, as_of, id", err))
		return -1;
	sqlite3_bind_text(st, 1, as_of, -1, SQLITE_STATIC);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		if (m == cap) {           /* the three arrays share one capacity */
			rec = xgrow(rec, &cap, m + 1, sizeof(*rec));
			old = xrealloc(old, cap * sizeof(*old));
			new = xrealloc(new, cap * sizeof(*new));
		}
		rec[m] = sqlite3_column_int64(st, 0);
		old[m] = catalogue_column_dup(st, 1);
		new[m] = catalogue_column_dup(st, 2);
		m++;
	}
	sqlite3_finalize(st);
	if (step == SQLITE_DONE)
		for (start = 0, i = 1; i <= m; i++)
			if (i == m || rec[i] != rec[start]) {
				formers_of_record(old, new, start, i, out, n);
				start = i;
			}
	for (i = 0; i < m; i++) {
		free(old[i]);
		free(new[i]);
	}
	free(old);
	free(new);
	free(rec);
	if (step != SQLITE_DONE) {
		former_names_release(*out, *n);
		*out = NULL;
		*n = 0;
		return catalogue_fail(cat, "reading the renames", err);
	}
	return 0;
}

void former_names_release(former_name *f, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(f[i].name);
		free(f[i].former);
	}
	free(f);
}
