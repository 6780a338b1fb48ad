#include "db/load.h"
#include "db/current.h"
#include "db/snapshot.h"
#include "db/views.h"
#include "values/normalise.h"
#include "base/sha256.h"
#include "base/strmap.h"
#include "base/day.h"
#include "base/unicode.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A loaded row whose name the export did not have: added or renamed. */
typedef struct pending {
	char *name;                  /* model name */
	size_t occurrence;           /* its occurrence */
	unsigned long line;          /* line in the file */
	unsigned long position;      /* row index in the file */
	record_values values;        /* its values (a copy: the row's are
					gone by the export's end) */
	char *norm;                  /* normalised values (JSON) */
	char *raw;                   /* differing raw cells (JSON) */
	unsigned char digest[16];    /* the values' digest */
	int has_raw;                 /* raw_digest is set */
	unsigned char raw_digest[16];/* the raw record's digest */
	long match;                  /* index into gone, or -1 */
} pending;

/* A current record that no row of the new snapshot carries. */
typedef struct gone {
	sqlite3_int64 record;        /* record id */
	sqlite3_int64 version;       /* its current version */
	char *name;                  /* its name */
	record_values values;        /* its values, read from the version */
	long match;                  /* index into pending, or -1 */
} gone;

/* The export's current versions with raw digests, by (name, occurrence)
 * (db/current.h), dropped at the end of the export. */
struct load_known {
	current_table table;         /* the live records with a raw digest */
};

/* One field of the snapshot's header. */
typedef struct snap_field {
	char *name;                  /* canonical field (owned) */
	int common;                  /* 1: the previous snapshot had it too */
	enum colmap_type type;       /* its type in the header (a number is
					compared at 15 digits) */
} snap_field;

/* One rule of rename evidence beyond the name (colmap.renames). */
typedef struct rename_evidence {
	char fields[LOAD_RENAME_FIELDS][128]; /* the fields both must share */
	size_t nfields;               /* entries in fields */
	char name[256];               /* "same link and publication date" */
} rename_evidence;

struct load {
	rename_evidence renames[LOAD_RENAME_MAX]; /* the export's family's rules */
	size_t nrenames;              /* entries in renames */
	catalogue *cat;               /* where the load goes */
	sqlite3_int64 snapshot_id;    /* the snapshot being written */
	char as_of[11];               /* its date */
	sqlite3_int64 export_id;      /* snapshot_export of the current export */
	char *export_name;            /* current export's name */
	char *file;                   /* current export's file */
	int same_content;             /* current export equals its latest content */
	unsigned long notices;        /* notices stored since the last export's
					 end (a file's header is read, and its
					 notices stored, before its export begins) */
	int fresh;                    /* the export has no record yet: every row
					 is added, nothing to look up */
	load_known *known;            /* rows recognisable unparsed, or NULL */
	size_t ncurrent;              /* the export's live records as the load
					 began (counted at its end, see
					 collect_gone) */
	unsigned long revived;        /* records of the export a row brought back
					 after a removal (not live as it began) */
	char *name_index;             /* the SQL of version_name while it is
					 dropped for a first load (see
					 defer_name_index), else NULL */
	unsigned long long size_hint; /* the next export's content size, when
					 known before it is read, else 0 */
	snap_field *fields;           /* the export's header fields */
	size_t nfields;               /* entries in fields */
	strmap field_names;           /* field name -> index into fields + 1 */
	unsigned char *seen;          /* seen[record id]: carried by a row */
	size_t seen_cap;              /* entries in seen */
	struct held_row {
		char *name;           /* model name of a quarantined row ("": none) */
		unsigned long position; /* its row index */
		unsigned long line;   /* its line in the file */
		char *raw;            /* the row as read */
	} *held;                      /* quarantined rows */
	size_t nheld;                 /* entries in held */
	pending *pend;                /* rows with new names */
	size_t npend;                 /* entries in pend */
	record_values stored;         /* a row's values read from its JSON (a
					 row as stored: load_row.values NULL) */
	record_values current;        /* a record's current version's values */
	sbuf compared;                /* a compared form being digested */
	load_stats stats;             /* counts for the current export */
	load_guards guards;           /* see load_set_guards */
	int accept;                   /* --accept: apply what a guard holds */
	char sha[65];                 /* the current export's content hash */
	sqlite3_stmt *find_record;    /* prepared statements, see prepare_all(err) */
	sqlite3_stmt *insert_record;
	sqlite3_stmt *rename_record;
	sqlite3_stmt *find_current;
	sqlite3_stmt *set_raw_digest;
	sqlite3_stmt *get_norm;
	sqlite3_stmt *close_version;
	sqlite3_stmt *insert_version;
	sqlite3_stmt *insert_row;
	sqlite3_stmt *find_held;
	sqlite3_stmt *insert_change;
	sqlite3_stmt *insert_rename;
	sqlite3_stmt *insert_quarantine;
	sqlite3_stmt *insert_notice;
};

static int prepare_all(load *ld, mc_err *err)
{
	catalogue *cat = ld->cat;

	return catalogue_prepare(cat, &ld->find_record,
		"SELECT id FROM record WHERE export = ? AND name = ? AND occurrence = ?", err) ||
	       catalogue_prepare(cat, &ld->insert_record,
		"INSERT INTO record(export, name, occurrence) VALUES (?, ?, ?)", err) ||
	       catalogue_prepare(cat, &ld->rename_record,
		"UPDATE record SET name = ?, occurrence = ? WHERE id = ?", err) ||
	       catalogue_prepare(cat, &ld->find_current,
		"SELECT id, tombstone, digest, raw_digest FROM version"
		" WHERE record_id = ? AND valid_to IS NULL", err) ||
	       catalogue_prepare(cat, &ld->set_raw_digest,
		"UPDATE version SET raw_digest = ? WHERE id = ?", err) ||
	       catalogue_prepare(cat, &ld->get_norm, "SELECT norm FROM version WHERE id = ?", err) ||
	       catalogue_prepare(cat, &ld->close_version,
		"UPDATE version SET valid_to = ? WHERE id = ?", err) ||
	       catalogue_prepare(cat, &ld->insert_version,
		"INSERT INTO version(record_id, snapshot_export_id, valid_from, tombstone, line,"
		" norm, raw, kind, name, digest, raw_digest) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
		err) ||
	       catalogue_prepare(cat, &ld->insert_row,
		"INSERT INTO snapshot_row(snapshot_export_id, position, version_id, held)"
		" VALUES (?, ?, ?, ?)", err) ||
	       catalogue_prepare(cat, &ld->find_held,
		"SELECT r.id, v.id FROM record r JOIN version v ON v.record_id = r.id"
		" AND v.valid_to IS NULL AND v.tombstone = 0"
		" WHERE r.export = ? AND r.name = ? ORDER BY r.occurrence", err) ||
	       catalogue_prepare(cat, &ld->insert_change,
		"INSERT INTO field_change(version_id, record_id, snapshot_export_id, as_of, export,"
		" field, old, new) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", err) ||
	       catalogue_prepare(cat, &ld->insert_rename,
		"INSERT INTO rename(record_id, version_id, snapshot_export_id, as_of, export,"
		" old_name, new_name, evidence) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", err) ||
	       catalogue_prepare(cat, &ld->insert_quarantine,
		"INSERT INTO quarantine(snapshot_export_id, file, line, field, name, reason, raw)"
		" VALUES (?, ?, ?, ?, ?, ?, ?)", err) ||
	       catalogue_prepare(cat, &ld->insert_notice,
		"INSERT INTO notice(snapshot_id, message) VALUES (?, ?)", err);
}

static void known_free(load_known *k)
{
	if (!k)
		return;
	current_table_release(&k->table);
	free(k);
}

static void clear_export(load *ld)
{
	size_t i;

	known_free(ld->known);
	ld->known = NULL;
	free(ld->name_index);
	ld->name_index = NULL;
	ld->ncurrent = 0;
	ld->revived = 0;
	for (i = 0; i < ld->npend; i++) {
		free(ld->pend[i].name);
		record_values_release(&ld->pend[i].values);
		free(ld->pend[i].norm);
		free(ld->pend[i].raw);
	}
	free(ld->pend);
	ld->pend = NULL;
	ld->npend = 0;
	for (i = 0; i < ld->nfields; i++)
		free(ld->fields[i].name);
	free(ld->fields);
	ld->fields = NULL;
	ld->nfields = 0;
	strmap_release(&ld->field_names);
	for (i = 0; i < ld->nheld; i++) {
		free(ld->held[i].name);
		free(ld->held[i].raw);
	}
	free(ld->held);
	ld->held = NULL;
	ld->nheld = 0;
	if (ld->seen)
		memset(ld->seen, 0, ld->seen_cap);
}

static void load_free(load *ld)
{
	sqlite3_stmt **st[] = {
		&ld->find_record, &ld->insert_record, &ld->rename_record, &ld->find_current,
		&ld->set_raw_digest,
		&ld->get_norm,
		&ld->close_version, &ld->insert_version, &ld->insert_row, &ld->find_held,
		&ld->insert_change,
		&ld->insert_rename, &ld->insert_quarantine, &ld->insert_notice,
	};
	size_t i;

	for (i = 0; i < sizeof(st) / sizeof(st[0]); i++)
		sqlite3_finalize(*st[i]);
	clear_export(ld);
	record_values_release(&ld->stored);
	record_values_release(&ld->current);
	sbuf_release(&ld->compared);
	free(ld->seen);
	free(ld->export_name);
	free(ld->file);
	free(ld);
}

int load_begin(catalogue *cat, load **out, const char *as_of, mc_err *err)
{
	load *ld = xcalloc(1, sizeof(*ld));
	sqlite3_stmt *st = NULL;
	char when[32];

	*out = NULL;
	ld->cat = cat;
	strmap_init(&ld->field_names);
	sbuf_init(&ld->compared);
	mc_fmt(ld->as_of, sizeof(ld->as_of), "%s", as_of);
	load_set_renames(ld, COLMAP_MODEL_RENAMES, err);   /* a constant: cannot fail */
	if (catalogue_exec(cat, "BEGIN IMMEDIATE", err)) {
		load_free(ld);
		return -1;
	}
	/* the typed views follow the column map the load reads with */
	if (views_refresh(cat, NULL, err) || prepare_all(ld, err) ||
	    catalogue_prepare(cat, &st, "INSERT INTO snapshot(as_of, ingested_at) VALUES (?, ?)", err))
		goto fail;
	day_now(when);
	/* a copied text (SQLITE_TRANSIENT) is bound only if memory allows:
	 * every such bind is checked, or a NULL would take its place */
	if (sqlite3_bind_text(st, 1, as_of, -1, SQLITE_TRANSIENT) != SQLITE_OK ||
	    sqlite3_bind_text(st, 2, when, -1, SQLITE_TRANSIENT) != SQLITE_OK ||
	    sqlite3_step(st) != SQLITE_DONE) {
		catalogue_fail(cat, "creating the snapshot", err);
		goto fail;
	}
	sqlite3_finalize(st);
	ld->snapshot_id = sqlite3_last_insert_rowid(cat->db);
	*out = ld;
	return 0;
fail:
	sqlite3_finalize(st);
	load_abort(ld);
	return -1;
}

/* Step a statement that returns no row, then reset it. */
static int step_done(load *ld, sqlite3_stmt *st, const char *what, mc_err *err)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	if (rc != SQLITE_DONE)
		return catalogue_fail(ld->cat, what, err);
	return 0;
}

int load_precedence(load *ld, char *const *exports, size_t n, mc_err *err)
{
	sqlite3_stmt *st = NULL;
	size_t i;
	int rc = -1;

	if (catalogue_exec(ld->cat, "DELETE FROM precedence", err) ||
	    catalogue_prepare(ld->cat, &st, "INSERT INTO precedence(export, rank) VALUES (?, ?)", err))
		return -1;
	for (i = 0; i < n; i++) {
		sqlite3_bind_text(st, 1, exports[i], -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 2, (sqlite3_int64)i + 1);
		if (step_done(ld, st, "recording the precedence", err))
			goto out;
	}
	rc = 0;
out:
	sqlite3_finalize(st);
	return rc;
}

static int insert_column_change(load *ld, const char *kind, const char *field,
				const char *old_header, const char *new_header, mc_err *err)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (catalogue_prepare(ld->cat, &st,
			      "INSERT INTO column_change(snapshot_export_id, kind, field, old_header,"
			      " new_header) VALUES (?, ?, ?, ?, ?)", err))
		return -1;
	sqlite3_bind_int64(st, 1, ld->export_id);
	sqlite3_bind_text(st, 2, kind, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, field, -1, SQLITE_STATIC);
	if (old_header)
		sqlite3_bind_text(st, 4, old_header, -1, SQLITE_STATIC);
	if (new_header)
		sqlite3_bind_text(st, 5, new_header, -1, SQLITE_STATIC);
	rc = sqlite3_step(st) == SQLITE_DONE ? 0
		: catalogue_fail(ld->cat, "recording a column change", err);
	sqlite3_finalize(st);
	return rc;
}

/* The type a column's type name names (load_column.type); COL_TEXT for
 * a name the column map does not have. */
static enum colmap_type type_named(const char *name)
{
	enum colmap_type t;

	for (t = COL_KEY; t <= COL_BOOL; t++)
		if (!strcmp(name, colmap_type_name(t)))
			return t;
	return COL_TEXT;
}

/*
 * Compare the header with the export's previous content: fill ld->fields
 * (which fields the previous snapshot had too) and record the columns that
 * appeared, disappeared or changed header.
 */
static int compare_columns(load *ld, sqlite3_int64 previous, const load_column *columns,
			   size_t ncolumns, mc_err *err)
{
	sqlite3_stmt *st = NULL;
	strmap prev;                 /* field -> index into prev_headers + 1 */
	char **prev_headers = NULL;
	size_t nprev = 0, i;
	int rc = -1, step;

	strmap_init(&prev);
	if (previous) {
		if (catalogue_prepare(ld->cat, &st,
				      "SELECT field, header FROM export_column WHERE snapshot_export_id = ?"
				      " AND headerless = 0 ORDER BY position", err))
			goto out;
		sqlite3_bind_int64(st, 1, previous);
		while ((step = sqlite3_step(st)) == SQLITE_ROW) {
			const char *field = (const char *)sqlite3_column_text(st, 0);

			prev_headers = xrealloc(prev_headers, (nprev + 1) * sizeof(*prev_headers));
			prev_headers[nprev++] = xstrdup((const char *)sqlite3_column_text(st, 1));
			*strmap_get_or_add(&prev, field, strlen(field), NULL) = nprev;
		}
		if (step != SQLITE_DONE) {
			catalogue_fail(ld->cat, "reading the previous header", err);
			goto out;
		}
	}
	ld->fields = xcalloc(ncolumns ? ncolumns : 1, sizeof(*ld->fields));
	for (i = 0; i < ncolumns; i++) {
		const char *field = columns[i].field;
		size_t *at, *slot;
		int added;

		if (columns[i].headerless)
			continue;
		slot = strmap_get_or_add(&ld->field_names, field, strlen(field), &added);
		if (!added)
			continue;
		*slot = ld->nfields + 1;
		ld->fields[ld->nfields].name = xstrdup(field);
		ld->fields[ld->nfields].type = type_named(columns[i].type);
		at = previous ? strmap_find(&prev, field, strlen(field)) : NULL;
		ld->fields[ld->nfields].common = at != NULL;
		ld->nfields++;
		if (!previous)
			continue;
		if (!at) {
			ld->stats.columns_added++;
			if (insert_column_change(ld, "added", field, NULL, columns[i].header, err))
				goto out;
		} else {
			const char *old = prev_headers[*at - 1];

			if (strcmp(old, columns[i].header)) {
				ld->stats.headers_respelled++;
				if (insert_column_change(ld, "respelled", field, old, columns[i].header, err))
					goto out;
			}
			*at = 0;  /* matched */
		}
	}
	if (previous) {
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, previous);
		while ((step = sqlite3_step(st)) == SQLITE_ROW) {
			const char *field = (const char *)sqlite3_column_text(st, 0);
			size_t *at = strmap_find(&prev, field, strlen(field));

			if (at && *at) {
				ld->stats.columns_removed++;
				if (insert_column_change(ld, "removed", field,
							 (const char *)sqlite3_column_text(st, 1), NULL, err))
					goto out;
				*at = 0;
			}
		}
		if (step != SQLITE_DONE) {
			catalogue_fail(ld->cat, "reading the previous header", err);
			goto out;
		}
	}
	rc = 0;
out:
	sqlite3_finalize(st);
	mc_free_strings(prev_headers, nprev);
	strmap_release(&prev);
	return rc;
}

/* Compare the export with its latest earlier snapshot: a later date is
 * refused; the same content as sha256 ("" : not known yet) sets
 * ld->same_content and the counts it had. 0 or -1. */
static int check_earlier(load *ld, const char *sha256, mc_err *err)
{
	snapshot_export_filter f = { ld->export_name, ld->snapshot_id, 0, NULL, 0 };
	snapshot_export_info prev;
	int rc = snapshot_export_latest(ld->cat, &f, &prev, err);

	if (rc)
		return rc < 0 ? -1 : 0;
	if (strcmp(prev.as_of, ld->as_of) > 0)
		return mc_error(err, "%s: export %s already has a snapshot dated %s, later than %s;"
				" snapshots load oldest first (use reingest to rebuild)",
				ld->file, ld->export_name, prev.as_of, ld->as_of);
	if (*sha256 && !strcmp(prev.sha256, sha256)) {
		ld->same_content = 1;
		ld->stats.same_content = 1;
		ld->stats.rows = prev.rows;
		ld->stats.loaded = prev.loaded;
		ld->stats.quarantined = prev.quarantined;
		ld->stats.unchanged = ld->stats.loaded;
	}
	return 0;
}

/* Record the export in the snapshot (ld->export_id). 0 or -1. */
static int insert_export(load *ld, const char *sha256, unsigned long long bytes, mc_err *err)
{
	catalogue *cat = ld->cat;
	sqlite3_stmt *st = NULL;
	int rc = -1;

	if (catalogue_prepare(cat, &st,
			      "INSERT INTO snapshot_export(snapshot_id, export, file, sha256, bytes, rows,"
			      " loaded, quarantined, unchanged) VALUES (?, ?, ?, ?, ?, 0, 0, 0, ?)", err))
		return -1;
	sqlite3_bind_int64(st, 1, ld->snapshot_id);
	sqlite3_bind_int64(st, 5, (sqlite3_int64)bytes);
	sqlite3_bind_int(st, 6, ld->same_content);
	if (sqlite3_bind_text(st, 2, ld->export_name, -1, SQLITE_TRANSIENT) != SQLITE_OK ||
	    sqlite3_bind_text(st, 3, ld->file, -1, SQLITE_TRANSIENT) != SQLITE_OK ||
	    sqlite3_bind_text(st, 4, sha256, -1, SQLITE_TRANSIENT) != SQLITE_OK ||
	    sqlite3_step(st) != SQLITE_DONE) {
		if (sqlite3_extended_errcode(cat->db) == SQLITE_CONSTRAINT_UNIQUE)
			mc_error(err, "%s: export %s appears twice in one snapshot", ld->file,
				 ld->export_name);
		else
			catalogue_fail(cat, "recording the export", err);
		goto out;
	}
	ld->export_id = sqlite3_last_insert_rowid(cat->db);
	rc = 0;
out:
	sqlite3_finalize(st);
	return rc;
}

void load_bind_column(sqlite3_stmt *st, int first, size_t position, const load_column *col)
{
	sqlite3_bind_int64(st, first, (sqlite3_int64)position);
	sqlite3_bind_text(st, first + 1, col->header, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, first + 2, col->field, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, first + 3, col->type, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, first + 4, col->declared);
	sqlite3_bind_int(st, first + 5, col->headerless);
}

/* Record the export's header and compare it with the one of its latest
 * loaded content (previous, 0: none). 0 or -1. */
static int insert_columns(load *ld, sqlite3_int64 previous, const load_column *columns,
			  size_t ncolumns, mc_err *err)
{
	sqlite3_stmt *st = NULL;
	size_t i;
	int rc = -1;

	if (catalogue_prepare(ld->cat, &st,
			      "INSERT INTO export_column(snapshot_export_id, position, header, field, type,"
			      " declared, headerless) VALUES (?, ?, ?, ?, ?, ?, ?)", err))
		return -1;
	for (i = 0; i < ncolumns; i++) {
		sqlite3_bind_int64(st, 1, ld->export_id);
		load_bind_column(st, 2, i, &columns[i]);
		if (step_done(ld, st, "recording the header", err))
			goto out;
	}
	if (compare_columns(ld, previous, columns, ncolumns, err))
		goto out;
	rc = 0;
out:
	sqlite3_finalize(st);
	return rc;
}

/* The page cache of a first load and of a later one, in KiB (set_cache). */
enum { FRESH_CACHE_KIB = 65536, LOAD_CACHE_KIB = 16384 };

/* Does the export have no record yet (ld->fresh)? 0 or -1. */
static int check_fresh(load *ld, mc_err *err)
{
	sqlite3_stmt *st = NULL;
	int rc = -1;

	if (catalogue_prepare(ld->cat, &st, "SELECT EXISTS (SELECT 1 FROM record WHERE export = ?)",
			      err))
		return -1;
	if (sqlite3_bind_text(st, 1, ld->export_name, -1, SQLITE_TRANSIENT) != SQLITE_OK ||
	    sqlite3_step(st) != SQLITE_ROW) {
		catalogue_fail(ld->cat, "counting the export's records", err);
		goto out;
	}
	ld->fresh = !sqlite3_column_int(st, 0);
	rc = 0;
out:
	sqlite3_finalize(st);
	return rc;
}

/*
 * The page cache for the export's load. A first load (fresh) inserts into
 * the name-ordered indexes in file order and keeps their pages: 64 MiB
 * (see catalogue_open). A later load reads the export's current records
 * as streams (db/current.h) and writes the few changed versions: a cache
 * of the indexes would only hold the pages those streams passed, so it
 * gets LOAD_CACHE_KIB, and what the load holds stays within 64 MiB at
 * 1 GB.
 */
static int set_cache(load *ld, mc_err *err)
{
	char pragma[64];

	mc_fmt(pragma, sizeof(pragma), "PRAGMA cache_size = -%d",
	       ld->fresh ? FRESH_CACHE_KIB : LOAD_CACHE_KIB);
	return catalogue_exec(ld->cat, pragma, err);
}

/* The content size from which a first load makes its index of names at
 * the end (defer_name_index): measured, 247 MB kept it faster, 371 MB
 * made it faster at the end. */
#define DEFER_NAME_INDEX_BYTES 300000000ULL

/*
 * A first load into an empty version table inserts every row into
 * version_name, the index by name, in file order: a page split or a shift
 * in a random 64 KiB page each time, a sixth of the loading thread's time
 * at 1 GB. The index is dropped instead and made again, by one sort, at
 * the export's end (restore_name_index), inside the same transaction: a
 * load that fails or is held rolls the drop back too. Not when the table
 * holds versions already: making the index again would read all of them.
 * Nor for a content known to be under DEFER_NAME_INDEX_BYTES (size, from
 * load_size_hint(); 0: not known): the sort reads every version again at
 * the end, which costs more than the inserts save until the index
 * outgrows the caches.
 */
static int defer_name_index(load *ld, unsigned long long size, mc_err *err)
{
	sqlite3_stmt *st = NULL;
	int step, rc = -1;

	if (!ld->fresh || (size && size < DEFER_NAME_INDEX_BYTES))
		return 0;
	if (catalogue_prepare(ld->cat, &st, "SELECT (SELECT sql FROM sqlite_schema WHERE"
			      " type = 'index' AND name = 'version_name' AND tbl_name = 'version'),"
			      " EXISTS (SELECT 1 FROM version)", err))
		return -1;
	step = sqlite3_step(st);
	if (step != SQLITE_ROW) {
		catalogue_fail(ld->cat, "reading the index of names", err);
		goto out;
	}
	rc = 0;
	/* no such index, or versions that making it again would read */
	if (sqlite3_column_type(st, 0) == SQLITE_TEXT && !sqlite3_column_int(st, 1))
		ld->name_index = xstrdup((const char *)sqlite3_column_text(st, 0));
out:
	/* an index is dropped only when no statement is running */
	sqlite3_finalize(st);
	if (!rc && ld->name_index)
		rc = catalogue_exec(ld->cat, "DROP INDEX version_name", err);
	return rc;
}

/* Make version_name again after a first load dropped it. 0 or -1. */
static int restore_name_index(load *ld, mc_err *err)
{
	int rc;

	if (!ld->name_index)
		return 0;
	rc = catalogue_exec(ld->cat, ld->name_index, err);
	free(ld->name_index);
	ld->name_index = NULL;
	return rc;
}

int load_export_begin(load *ld, const char *export_name, const char *file,
		      const char *sha256, unsigned long long bytes,
		      const load_column *columns, size_t ncolumns, int *same, mc_err *err)
{
	snapshot_export_filter f = { export_name, ld->snapshot_id, 0, NULL, 1 };
	snapshot_export_info loaded;
	unsigned long long size = ld->size_hint;
	int rc;

	ld->size_hint = 0;   /* (for this export only) */
	free(ld->export_name);
	free(ld->file);
	ld->export_name = xstrdup(export_name);
	ld->file = xstrdup(file);
	clear_export(ld);
	memset(&ld->stats, 0, sizeof(ld->stats));
	ld->same_content = 0;
	mc_fmt(ld->sha, sizeof(ld->sha), "%s", sha256);
	*same = 0;
	/* what the export writes can be taken back if a guard holds it */
	if (catalogue_exec(ld->cat, "SAVEPOINT export_load", err))
		return -1;
	/* the export's latest earlier snapshot: order and content */
	if (check_earlier(ld, sha256, err))
		return -1;
	/* the latest snapshot whose content was loaded: its header */
	rc = snapshot_export_latest(ld->cat, &f, &loaded, err);
	if (rc < 0 || insert_export(ld, sha256, bytes, err))
		return -1;
	*same = ld->same_content;
	if (ld->same_content)
		return 0;
	if (insert_columns(ld, rc == 0 ? loaded.id : 0, columns, ncolumns, err) ||
	    check_fresh(ld, err))
		return -1;
	return set_cache(ld, err) || defer_name_index(ld, size, err);
}

void load_size_hint(load *ld, unsigned long long bytes)
{
	ld->size_hint = bytes;
}

static void mark_seen(load *ld, sqlite3_int64 id)
{
	if ((size_t)id >= ld->seen_cap) {
		size_t cap = ld->seen_cap ? ld->seen_cap : 1024;

		while (cap <= (size_t)id)
			cap *= 2;
		ld->seen = xrealloc(ld->seen, cap);
		memset(ld->seen + ld->seen_cap, 0, cap - ld->seen_cap);
		ld->seen_cap = cap;
	}
	ld->seen[id] = 1;
}

/* The record (export, name, occurrence): 1 and *id when it exists, 0 when
 * not, -1 on error. */
static int find_record(load *ld, const char *name, size_t occurrence, sqlite3_int64 *id, mc_err *err)
{
	sqlite3_stmt *st = ld->find_record;
	int rc;

	sqlite3_bind_text(st, 1, ld->export_name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, (sqlite3_int64)occurrence);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*id = sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	if (rc == SQLITE_ROW)
		return 1;
	return rc == SQLITE_DONE ? 0 : catalogue_fail(ld->cat, "looking up a record", err);
}

static int new_record(load *ld, const char *name, size_t occurrence, sqlite3_int64 *id, mc_err *err)
{
	sqlite3_stmt *st = ld->insert_record;

	sqlite3_bind_text(st, 1, ld->export_name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, (sqlite3_int64)occurrence);
	if (step_done(ld, st, "adding a record", err))
		return -1;
	*id = sqlite3_last_insert_rowid(ld->cat->db);
	return 0;
}

/* The values of a new version; NULL norm for a tombstone. */
typedef struct version_values {
	const char *name;            /* model name */
	unsigned long line;          /* line in the file (0: none) */
	const char *norm;            /* normalised values (JSON), or NULL */
	size_t norm_len;             /* its length, or 0: not known */
	const char *raw;             /* differing raw cells (JSON) */
	size_t raw_len;              /* its length, or 0: not known */
	const unsigned char *digest; /* with norm: the values' (values_digest) */
	const unsigned char *raw_digest; /* the raw record's, or NULL */
} version_values;

enum { DIGEST_LEN = 16 };

void load_digest(const char *compared, unsigned char digest[DIGEST_LEN])
{
	unsigned char full[32];
	sha256_ctx ctx;

	sha256_init(&ctx);
	sha256_update(&ctx, compared, strlen(compared));
	sha256_final(&ctx, full);
	memcpy(digest, full, DIGEST_LEN);
}

/* record_type_fn over the snapshot's header fields: the type of a field
 * of a version read back; COL_TEXT for one the header does not have. */
static enum colmap_type field_type(void *ctx, const char *field)
{
	const load *ld = ctx;
	const size_t *at = strmap_find(&ld->field_names, field, strlen(field));

	return at && *at ? ld->fields[*at - 1].type : COL_TEXT;
}

/* The digest of a row's values, stored as norm: of their compared form,
 * numbers at 15 significant digits. */
static void values_digest(load *ld, const record_values *values, const char *norm,
			  unsigned char digest[DIGEST_LEN])
{
	load_digest(record_values_compared(values, norm, &ld->compared), digest);
}

/* Read stored values (a version's norm, with raw or not) into values, the
 * fields typed by this snapshot's header. 0 or -1. */
static int read_values(load *ld, record_values *values, const char *norm, const char *raw,
		       mc_err *err)
{
	if (record_values_read(values, norm, raw, field_type, ld))
		return mc_error(err, "%s: stored values are not valid JSON", ld->cat->path);
	return 0;
}

/* Close the record's current version (if any) and open a new one. */
static int open_version(load *ld, sqlite3_int64 record, sqlite3_int64 current,
			const char *kind, const version_values *values, sqlite3_int64 *id, mc_err *err)
{
	sqlite3_stmt *st = ld->insert_version;

	if (current) {
		sqlite3_bind_text(ld->close_version, 1, ld->as_of, -1, SQLITE_STATIC);
		sqlite3_bind_int64(ld->close_version, 2, current);
		if (step_done(ld, ld->close_version, "closing a version", err))
			return -1;
	}
	sqlite3_bind_int64(st, 1, record);
	sqlite3_bind_int64(st, 2, ld->export_id);
	sqlite3_bind_text(st, 3, ld->as_of, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 4, values->norm == NULL);
	if (values->line)
		sqlite3_bind_int64(st, 5, (sqlite3_int64)values->line);
	sqlite3_bind_text(st, 6, values->norm ? values->norm : "{}",
			  values->norm && values->norm_len ? (int)values->norm_len : -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 7, values->raw ? values->raw : "{}",
			  values->raw && values->raw_len ? (int)values->raw_len : -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 8, kind, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 9, values->name, -1, SQLITE_STATIC);
	if (values->norm) {
		if (sqlite3_bind_blob(st, 10, values->digest, DIGEST_LEN, SQLITE_TRANSIENT) != SQLITE_OK ||
		    (values->raw_digest &&
		     sqlite3_bind_blob(st, 11, values->raw_digest, DIGEST_LEN,
				       SQLITE_TRANSIENT) != SQLITE_OK))
			return catalogue_fail(ld->cat, "writing a version", err);
	}
	if (step_done(ld, st, "writing a version", err))
		return -1;
	*id = sqlite3_last_insert_rowid(ld->cat->db);
	return 0;
}

static int add_row(load *ld, unsigned long position, sqlite3_int64 version, int held, mc_err *err)
{
	sqlite3_stmt *st = ld->insert_row;

	sqlite3_bind_int64(st, 1, ld->export_id);
	sqlite3_bind_int64(st, 2, (sqlite3_int64)position);
	sqlite3_bind_int64(st, 3, version);
	sqlite3_bind_int(st, 4, held);
	return step_done(ld, st, "recording the row", err);
}

static int add_snapshot_row(load *ld, unsigned long position, sqlite3_int64 version, mc_err *err)
{
	return add_row(ld, position, version, 0, err);
}

/*
 * A quarantined row changes nothing: the record carrying its name (the
 * first one not carried by a loaded row) keeps its current version, which
 * stands in the snapshot at the row's place, marked held.
 */
static int hold_quarantined(load *ld, mc_err *err)
{
	sqlite3_stmt *st = ld->find_held;
	size_t i;

	for (i = 0; i < ld->nheld; i++) {
		sqlite3_int64 record = 0, version = 0;
		int step;

		if (!*ld->held[i].name)
			continue;
		sqlite3_bind_text(st, 1, ld->export_name, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, ld->held[i].name, -1, SQLITE_STATIC);
		while ((step = sqlite3_step(st)) == SQLITE_ROW) {
			sqlite3_int64 id = sqlite3_column_int64(st, 0);

			if ((size_t)id < ld->seen_cap && ld->seen[id])
				continue;
			record = id;
			version = sqlite3_column_int64(st, 1);
			break;
		}
		sqlite3_reset(st);
		sqlite3_clear_bindings(st);
		if (step != SQLITE_ROW && step != SQLITE_DONE)
			return catalogue_fail(ld->cat, "finding a quarantined row's record", err);
		if (!record)
			continue;
		mark_seen(ld, record);
		if (add_row(ld, ld->held[i].position, version, 1, err))
			return -1;
	}
	return 0;
}

/* Numbers are the same when equal at 15 significant digits. */
static int same_value(const record_field *a, const record_field *b, enum colmap_type type)
{
	if (!a || !b)
		return a == b;
	if (type == COL_NUMBER)
		return norm_number_text_equal(a->norm, a->norm_len, b->norm, b->norm_len);
	return a->norm_len == b->norm_len && !memcmp(a->norm, b->norm, a->norm_len);
}

/*
 * Compare two versions' values on the fields of this snapshot's header,
 * each by its type there: *common_diff counts differing fields the
 * previous snapshot had too, *new_diff differing fields new to this
 * snapshot. With log_version, each differing common field is written to
 * field_change.
 */
static int compare_values(load *ld, const record_values *old, const record_values *cur,
			  int *common_diff, int *new_diff,
			  sqlite3_int64 log_version, sqlite3_int64 record, mc_err *err)
{
	size_t i;

	*common_diff = *new_diff = 0;
	for (i = 0; i < ld->nfields; i++) {
		const record_field *a = record_values_value(old, ld->fields[i].name);
		const record_field *b = record_values_value(cur, ld->fields[i].name);
		sqlite3_stmt *st = ld->insert_change;

		if (same_value(a, b, ld->fields[i].type))
			continue;
		if (!ld->fields[i].common) {
			(*new_diff)++;
			continue;
		}
		(*common_diff)++;
		if (!log_version)
			continue;
		sqlite3_bind_int64(st, 1, log_version);
		sqlite3_bind_int64(st, 2, record);
		sqlite3_bind_int64(st, 3, ld->export_id);
		sqlite3_bind_text(st, 4, ld->as_of, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 5, ld->export_name, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 6, ld->fields[i].name, -1, SQLITE_STATIC);
		if (a)
			sqlite3_bind_text(st, 7, a->norm, (int)a->norm_len, SQLITE_STATIC);
		if (b)
			sqlite3_bind_text(st, 8, b->norm, (int)b->norm_len, SQLITE_STATIC);
		if (step_done(ld, st, "logging a field change", err))
			return -1;
	}
	return 0;
}

/*
 * A row that reads the same as its record's current version: the version
 * stands in this snapshot. When the row's raw digest differs from the
 * version's (the cells were spelled otherwise, or the version was loaded
 * without one), the version takes the row's, so that the same row next
 * time is recognised without normalising.
 */
static int keep_version(load *ld, sqlite3_int64 current, const load_row *row, int raw_same, mc_err *err)
{
	sqlite3_stmt *st = ld->set_raw_digest;

	if (!raw_same) {
		sqlite3_bind_blob(st, 1, row->raw_digest, DIGEST_LEN, SQLITE_STATIC);
		sqlite3_bind_int64(st, 2, current);
		if (step_done(ld, st, "recording a raw digest", err))
			return -1;
	}
	return add_snapshot_row(ld, row->position, current, err);
}

/* The record's current version: *current (0: none), *tombstone, *same
 * (its digest is digest), *known (it has a digest), *raw_same (its raw
 * digest is the row's, or the row has none). 0 or -1. */
static int find_current(load *ld, sqlite3_int64 record, const load_row *row,
			const unsigned char digest[DIGEST_LEN], sqlite3_int64 *current,
			int *tombstone, int *same, int *known, int *raw_same, mc_err *err)
{
	sqlite3_stmt *st = ld->find_current;
	int rc;

	*current = 0;
	*tombstone = 1;
	*same = *known = *raw_same = 0;
	sqlite3_bind_int64(st, 1, record);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*current = sqlite3_column_int64(st, 0);
		*tombstone = sqlite3_column_int(st, 1);
		if (sqlite3_column_type(st, 2) == SQLITE_BLOB &&
		    sqlite3_column_bytes(st, 2) == DIGEST_LEN) {
			*known = 1;
			*same = !memcmp(sqlite3_column_blob(st, 2), digest, DIGEST_LEN);
		}
		*raw_same = !row->has_raw_digest ||
			    (sqlite3_column_bytes(st, 3) == DIGEST_LEN &&
			     !memcmp(sqlite3_column_blob(st, 3), row->raw_digest, DIGEST_LEN));
	}
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return catalogue_fail(ld->cat, "reading the current version", err);
	return 0;
}

/* The stored values of version into *norm (a copy, the caller frees it).
 * 0 or -1. */
static int stored_norm(load *ld, sqlite3_int64 version, char **norm, mc_err *err)
{
	sqlite3_stmt *st = ld->get_norm;
	int rc;

	*norm = NULL;
	sqlite3_bind_int64(st, 1, version);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*norm = xstrdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_reset(st);
	return rc == SQLITE_ROW ? 0 : catalogue_fail(ld->cat, "reading the current version", err);
}

/*
 * A row whose record exists: keep its current version, or open a changed,
 * revised or (after a removal) added one. values are the row's, digest
 * their digest.
 */
static int update_record(load *ld, sqlite3_int64 record, const load_row *row,
			 const record_values *values, const unsigned char digest[DIGEST_LEN],
			 mc_err *err)
{
	sqlite3_int64 current, version;
	version_values vv = { row->name, row->line, row->norm_json, row->norm_len, row->raw_json,
			      row->raw_len, digest, row->has_raw_digest ? row->raw_digest : NULL };
	int tombstone, common_diff = 0, new_diff = 0, same, known, raw_same, rc = -1;
	char *old_norm = NULL;

	if (find_current(ld, record, row, digest, &current, &tombstone, &same, &known, &raw_same,
			 err))
		return -1;
	if (tombstone) {
		ld->stats.added++;
		ld->revived++;
		return open_version(ld, record, current, "added", &vv, &version, err) ||
		       add_snapshot_row(ld, row->position, version, err);
	}
	/* the same digest: the same values in the same (sorted) order, with
	 * no need to read them back */
	if (same) {
		ld->stats.unchanged++;
		return keep_version(ld, current, row, raw_same, err);
	}
	if (stored_norm(ld, current, &old_norm, err))
		return -1;
	if (!known && !strcmp(old_norm, row->norm_json)) {
		free(old_norm);
		ld->stats.unchanged++;
		return keep_version(ld, current, row, raw_same, err);
	}
	/* the version as stored, against the row's values as they are */
	if (read_values(ld, &ld->current, old_norm, NULL, err) ||
	    compare_values(ld, &ld->current, values, &common_diff, &new_diff, 0, record, err))
		goto out;
	if (!common_diff && !new_diff) {
		ld->stats.unchanged++;
		version = current;
	} else if (common_diff) {
		ld->stats.changed++;
		if (open_version(ld, record, current, "changed", &vv, &version, err) ||
		    compare_values(ld, &ld->current, values, &common_diff, &new_diff, version, record,
				   err))
			goto out;
	} else {
		ld->stats.revised++;
		if (open_version(ld, record, current, "revised", &vv, &version, err))
			goto out;
	}
	if (add_snapshot_row(ld, row->position, version, err))
		goto out;
	rc = 0;
out:
	free(old_norm);
	return rc;
}

static int load_quarantined(load *ld, const load_row *row, mc_err *err)
{
	sqlite3_stmt *st = ld->insert_quarantine;

	ld->stats.quarantined++;
	ld->held = xrealloc(ld->held, (ld->nheld + 1) * sizeof(*ld->held));
	ld->held[ld->nheld].name = xstrdup(row->name ? row->name : "");
	ld->held[ld->nheld].position = row->position;
	ld->held[ld->nheld].line = row->line;
	ld->held[ld->nheld].raw = xstrdup(row->raw_csv ? row->raw_csv : "");
	ld->nheld++;
	sqlite3_bind_int64(st, 1, ld->export_id);
	sqlite3_bind_text(st, 2, ld->file, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, (sqlite3_int64)row->line);
	if (row->fault_field)
		sqlite3_bind_text(st, 4, row->fault_field, -1, SQLITE_STATIC);
	if (row->name && *row->name)
		sqlite3_bind_text(st, 5, row->name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 6, row->reason ? row->reason : "", -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 7, row->raw_csv ? row->raw_csv : "", -1, SQLITE_STATIC);
	return step_done(ld, st, "recording a quarantined row", err);
}

/* A row with a name the export did not have: added or renamed, decided
 * at the export's end. */
static void add_pending(load *ld, const load_row *row, const record_values *values,
			const unsigned char digest[DIGEST_LEN])
{
	pending *p;

	ld->pend = xrealloc(ld->pend, (ld->npend + 1) * sizeof(*ld->pend));
	p = &ld->pend[ld->npend++];
	memset(p, 0, sizeof(*p));
	p->name = xstrdup(row->name);
	p->occurrence = row->occurrence;
	p->line = row->line;
	p->position = row->position;
	record_values_keep(&p->values, values);
	p->norm = xstrdup(row->norm_json);
	p->raw = xstrdup(row->raw_json);
	memcpy(p->digest, digest, DIGEST_LEN);
	p->has_raw = row->has_raw_digest;
	memcpy(p->raw_digest, row->raw_digest, sizeof(p->raw_digest));
	p->match = -1;
}

int load_wants_records(const load *ld)
{
	return !ld->fresh && !ld->same_content;
}

int load_row_add(load *ld, const load_row *row, mc_err *err)
{
	sqlite3_int64 record = 0, version;
	const record_values *values = row->values;
	unsigned char digest[DIGEST_LEN];
	int found;

	if (ld->same_content)
		return 0;
	ld->stats.rows++;
	if (row->quarantined)
		return load_quarantined(ld, row, err);
	ld->stats.loaded++;
	if (row->known_version) {
		ld->stats.unchanged++;
		mark_seen(ld, row->known_record);
		return add_snapshot_row(ld, row->position, row->known_version, err);
	}
	/* a row as stored (a staging file's) has its values read once; a
	 * first load's rows need them for their digest at most */
	if (!values && (!ld->fresh || !row->has_digest)) {
		if (read_values(ld, &ld->stored, row->norm_json, row->raw_json, err))
			return -1;
		values = &ld->stored;
	}
	if (row->has_digest)
		memcpy(digest, row->digest, DIGEST_LEN);
	else
		values_digest(ld, values, row->norm_json, digest);
	if (ld->fresh) {
		version_values vv = { row->name, row->line, row->norm_json, row->norm_len,
				      row->raw_json, row->raw_len, digest,
				      row->has_raw_digest ? row->raw_digest : NULL };

		ld->stats.added++;
		if (new_record(ld, row->name, row->occurrence, &record, err))
			return -1;
		mark_seen(ld, record);
		return open_version(ld, record, 0, "added", &vv, &version, err) ||
		       add_snapshot_row(ld, row->position, version, err);
	}
	found = find_record(ld, row->name, row->occurrence, &record, err);
	if (found < 0)
		return -1;
	if (found) {
		mark_seen(ld, record);
		return update_record(ld, record, row, values, digest, err);
	}
	add_pending(ld, row, values, digest);
	return 0;
}

/* ---- renames ---- */

/* The evidence that a new name is an old model, strongest first: the
 * name, then the rules of the export's family (ld->renames). */
enum rename_rule {
	RENAME_CANONICAL, RENAME_SPELLING, RENAME_FIELDS,
	RENAME_LAST = RENAME_FIELDS + LOAD_RENAME_MAX - 1
};

static const char *const rule_names[RENAME_FIELDS] = {
	"same name in Unicode canonical form",
	"same name but for case, spaces and punctuation",
};

/* The evidence a rule records in rename.evidence. */
static const char *rule_name(const load *ld, enum rename_rule rule)
{
	return rule < RENAME_FIELDS ? rule_names[rule] : ld->renames[rule - RENAME_FIELDS].name;
}

/* Parse one rule "A+B+C" of rules into e; its name "same a, b and c".
 * 0, or -1 when it has no field or too many. */
static int evidence_parse(const char *rule, size_t len, rename_evidence *e)
{
	const char *p = rule, *end = rule + len, *plus;
	size_t i, k;
	sbuf name;

	memset(e, 0, sizeof(*e));
	while (p < end) {
		plus = memchr(p, '+', (size_t)(end - p));
		if (!plus)
			plus = end;
		if (e->nfields == LOAD_RENAME_FIELDS || plus == p ||
		    (size_t)(plus - p) >= sizeof(e->fields[0]))
			return -1;
		memcpy(e->fields[e->nfields++], p, (size_t)(plus - p));
		p = plus + 1;
	}
	if (!e->nfields)
		return -1;
	sbuf_init(&name);
	sbuf_adds(&name, "same");
	for (i = 0; i < e->nfields; i++)
		sbuf_addf(&name, "%s%s", !i ? " " : i + 1 == e->nfields ? " and " : ", ",
			  e->fields[i]);
	for (k = 0; k < name.len; k++)
		if (name.data[k] >= 'A' && name.data[k] <= 'Z')
			name.data[k] = (char)(name.data[k] - 'A' + 'a');
	mc_fmt(e->name, sizeof(e->name), "%s", name.data);
	sbuf_release(&name);
	return 0;
}

int load_set_renames(load *ld, const char *rules, mc_err *err)
{
	const char *p = rules, *bar;

	ld->nrenames = 0;
	while (p && *p) {
		bar = strchr(p, '|');
		if (!bar)
			bar = p + strlen(p);
		if (ld->nrenames == LOAD_RENAME_MAX ||
		    evidence_parse(p, (size_t)(bar - p), &ld->renames[ld->nrenames]))
			return mc_error(err, "rename evidence '%s': expected at most %d rules"
					" separated by |, each of 1 to %d fields separated by +",
					rules, LOAD_RENAME_MAX, LOAD_RENAME_FIELDS);
		ld->nrenames++;
		p = *bar ? bar + 1 : bar;
	}
	return 0;
}

/* The key a rule compares, into out; empty when the record has none. */
static void rename_key(const load *ld, enum rename_rule rule, const char *name,
		       const record_values *values, sbuf *out)
{
	const rename_evidence *e;
	size_t i;
	const unsigned char *p;

	sbuf_reset(out);
	/* names are read in canonical form (docs/normalisation.md, "Names"):
	 * a record stored before that is found under its canonical name */
	if (rule == RENAME_CANONICAL) {
		unicode_canonical(name, strlen(name), out);
		return;
	}
	if (rule == RENAME_SPELLING) {
		for (p = (const unsigned char *)name; *p; p++) {
			if (*p >= 'A' && *p <= 'Z')
				sbuf_addc(out, (char)(*p - 'A' + 'a'));
			else if ((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p >= 0x80)
				sbuf_addc(out, (char)*p);
		}
		return;
	}
	e = &ld->renames[rule - RENAME_FIELDS];
	for (i = 0; i < e->nfields; i++) {
		const record_field *a = record_values_value(values, e->fields[i]);

		if (!a || !a->norm_len) {
			sbuf_reset(out);
			break;
		}
		sbuf_add(out, a->norm, a->norm_len);
		sbuf_addc(out, '\n');
	}
}

/* Pair pending rows with gone records, one rule at a time; a pair counts
 * only when its key is unique on both sides. */
static void match_renames(load *ld, gone *gone_list, size_t ngone, enum rename_rule *rules)
{
	sbuf key;
	size_t i;
	int r;

	sbuf_init(&key);
	for (r = 0; r < RENAME_FIELDS + (int)ld->nrenames; r++) {
		strmap pend_keys, gone_keys;   /* key -> count, key -> index + 1 */

		strmap_init(&pend_keys);
		strmap_init(&gone_keys);
		for (i = 0; i < ld->npend; i++) {
			if (ld->pend[i].match >= 0)
				continue;
			rename_key(ld, (enum rename_rule)r, ld->pend[i].name, &ld->pend[i].values,
				   &key);
			if (key.len)
				++*strmap_get_or_add(&pend_keys, key.data, key.len, NULL);
		}
		for (i = 0; i < ngone; i++) {
			size_t *slot;
			int added;

			if (gone_list[i].match >= 0)
				continue;
			rename_key(ld, (enum rename_rule)r, gone_list[i].name, &gone_list[i].values,
				   &key);
			if (!key.len)
				continue;
			slot = strmap_get_or_add(&gone_keys, key.data, key.len, &added);
			*slot = added ? i + 1 : 0;   /* 0: the key is not unique */
		}
		for (i = 0; i < ld->npend; i++) {
			size_t *count, *g;

			if (ld->pend[i].match >= 0)
				continue;
			rename_key(ld, (enum rename_rule)r, ld->pend[i].name, &ld->pend[i].values,
				   &key);
			if (!key.len)
				continue;
			count = strmap_find(&pend_keys, key.data, key.len);
			g = strmap_find(&gone_keys, key.data, key.len);
			if (!count || *count != 1 || !g || !*g)
				continue;
			ld->pend[i].match = (long)(*g - 1);
			gone_list[*g - 1].match = (long)i;
			rules[i] = (enum rename_rule)r;
		}
		strmap_release(&pend_keys);
		strmap_release(&gone_keys);
	}
	sbuf_release(&key);
}

static int rename_record(load *ld, const pending *p, const gone *g, enum rename_rule rule, mc_err *err)
{
	sqlite3_stmt *st = ld->rename_record;
	sqlite3_int64 version;
	version_values values = { p->name, p->line, p->norm, 0, p->raw, 0, p->digest,
				  p->has_raw ? p->raw_digest : NULL };
	int common_diff, new_diff;

	sqlite3_bind_text(st, 1, p->name, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, (sqlite3_int64)p->occurrence);
	sqlite3_bind_int64(st, 3, g->record);
	if (step_done(ld, st, "renaming a record", err) ||
	    open_version(ld, g->record, g->version, "renamed", &values, &version, err) ||
	    compare_values(ld, &g->values, &p->values, &common_diff, &new_diff, version, g->record,
			   err))
		return -1;
	st = ld->insert_rename;
	sqlite3_bind_int64(st, 1, g->record);
	sqlite3_bind_int64(st, 2, version);
	sqlite3_bind_int64(st, 3, ld->export_id);
	sqlite3_bind_text(st, 4, ld->as_of, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, ld->export_name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 6, g->name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 7, p->name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 8, rule_name(ld, rule), -1, SQLITE_STATIC);
	if (step_done(ld, st, "recording a rename", err) || add_snapshot_row(ld, p->position, version, err))
		return -1;
	mark_seen(ld, g->record);
	ld->stats.renamed++;
	return 0;
}

static void gone_free(gone *list, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(list[i].name);
		record_values_release(&list[i].values);
	}
	free(list);
}

/* What collect_gone's scan fills. */
typedef struct gone_scan {
	load *ld;                    /* the load */
	gone *list;                  /* the records no row carried */
	size_t n, cap;               /* entries used and allocated */
	size_t live;                 /* live records counted */
} gone_scan;

static int gone_record(void *ctx, const current_record *rec, mc_err *err)
{
	gone_scan *gs = ctx;
	const load *ld = gs->ld;
	gone *g;

	(void)err;
	gs->live++;
	if ((size_t)rec->record < ld->seen_cap && ld->seen[rec->record])
		return 0;
	if (gs->n == gs->cap) {
		gs->cap = gs->cap ? gs->cap * 2 : 64;
		gs->list = xrealloc(gs->list, gs->cap * sizeof(*gs->list));
	}
	g = &gs->list[gs->n++];
	g->record = rec->record;
	g->name = xstrdup(rec->name);
	g->version = rec->version;
	record_values_init(&g->values);
	g->match = -1;
	return 0;
}

/*
 * The export's records live as the load began that no row of this
 * snapshot carries (every record a row carried is marked seen), read as
 * a stream (current_scan), and their count into ld->ncurrent: the records
 * live now less those a row brought back from a removal (a changed
 * record's new version stands for its old one; new records are written
 * after this).
 */
static int collect_gone(load *ld, gone **out, size_t *n, mc_err *err)
{
	gone_scan gs = { ld, NULL, 0, 0, 0 };
	size_t i;

	*out = NULL;
	*n = 0;
	if (current_scan(ld->cat, ld->export_name, gone_record, &gs, err)) {
		gone_free(gs.list, gs.n);
		return -1;
	}
	*out = gs.list;
	*n = gs.n;
	ld->ncurrent = gs.live > ld->revived ? gs.live - ld->revived : 0;
	/* only the few vanished records need their values, for renames */
	for (i = 0; i < *n; i++) {
		char *norm;
		int rc;

		if (stored_norm(ld, (*out)[i].version, &norm, err))
			return -1;
		rc = read_values(ld, &(*out)[i].values, norm, NULL, err);
		free(norm);
		if (rc)
			return -1;
	}
	return 0;
}

/* Is name a field of the raw text raw (between separators: start, line
 * break, comma or quote on either side)? */
static int raw_has_field(const char *raw, const char *name)
{
	size_t len = strlen(name);
	const char *p = raw;

	if (!len)
		return 0;
	while ((p = strstr(p, name))) {
		char before = p == raw ? ',' : p[-1], after = p[len];

		if (strchr(",\"\n\r", before) && (!after || strchr(",\"\n\r", after)))
			return 1;
		p++;
	}
	return 0;
}

/*
 * A record no loaded row carries, whose name is a field of a row
 * quarantined in this snapshot, keeps its current version: its row is
 * likely inside the broken one (a quote left open swallows the rows after
 * it). Recorded in held_model with the broken row's line, its version in
 * the snapshot's rows (held, after the file's rows). 1 kept, 0 not,
 * -1 on error.
 */
static int keep_swallowed(load *ld, const gone *g, mc_err *err)
{
	sqlite3_stmt *st = NULL;
	size_t i;
	int rc = -1;

	for (i = 0; i < ld->nheld; i++)
		if (raw_has_field(ld->held[i].raw, g->name))
			break;
	if (i == ld->nheld)
		return 0;
	if (catalogue_prepare(ld->cat, &st, "INSERT OR IGNORE INTO held_model(snapshot_id, export,"
			      " name, line) VALUES (?, ?, ?, ?)", err))
		return -1;
	sqlite3_bind_int64(st, 1, ld->snapshot_id);
	sqlite3_bind_int64(st, 4, (sqlite3_int64)ld->held[i].line);
	if (sqlite3_bind_text(st, 2, ld->export_name, -1, SQLITE_TRANSIENT) != SQLITE_OK ||
	    sqlite3_bind_text(st, 3, g->name, -1, SQLITE_TRANSIENT) != SQLITE_OK ||
	    sqlite3_step(st) != SQLITE_DONE) {
		catalogue_fail(ld->cat, "recording a held model", err);
		goto out;
	}
	/* its version stands in the snapshot, held, after the file's rows */
	if (add_row(ld, ld->stats.rows + ld->stats.models_held, g->version, 1, err))
		goto out;
	ld->stats.models_held++;
	rc = 1;
out:
	sqlite3_finalize(st);
	return rc;
}

static int finish_export(load *ld, mc_err *err)
{
	gone *gone_list = NULL;
	enum rename_rule *rules = NULL;
	size_t ngone = 0, i;
	int rc = -1;

	/* an export that had no record cannot lose one */
	if (!ld->fresh && (hold_quarantined(ld, err) || collect_gone(ld, &gone_list, &ngone, err)))
		goto out;
	rules = xcalloc(ld->npend ? ld->npend : 1, sizeof(*rules));
	if (ngone && ld->npend)
		match_renames(ld, gone_list, ngone, rules);
	for (i = 0; i < ld->npend; i++) {
		pending *p = &ld->pend[i];
		version_values values = { p->name, p->line, p->norm, 0, p->raw, 0, p->digest,
					  p->has_raw ? p->raw_digest : NULL };
		sqlite3_int64 record, version;

		if (p->match >= 0) {
			if (rename_record(ld, p, &gone_list[p->match], rules[i], err))
				goto out;
			continue;
		}
		if (new_record(ld, p->name, p->occurrence, &record, err) ||
		    open_version(ld, record, 0, "added", &values, &version, err) ||
		    add_snapshot_row(ld, p->position, version, err))
			goto out;
		ld->stats.added++;
	}
	for (i = 0; i < ngone; i++) {
		version_values tomb = { gone_list[i].name, 0, NULL, 0, NULL, 0, NULL, NULL };
		sqlite3_int64 version;
		int kept;

		if (gone_list[i].match >= 0)
			continue;
		kept = keep_swallowed(ld, &gone_list[i], err);
		if (kept < 0)
			goto out;
		if (kept)
			continue;
		if (open_version(ld, gone_list[i].record, gone_list[i].version, "removed", &tomb,
				 &version, err))
			goto out;
		ld->stats.removed++;
	}
	rc = 0;
out:
	gone_free(gone_list, ngone);
	free(rules);
	return rc;
}

void load_set_guards(load *ld, const load_guards *guards, int accept)
{
	ld->guards = *guards;
	ld->accept = accept;
}

void load_set_accept(load *ld, int accept)
{
	ld->accept = accept;
}

/* Is part more than pct % of whole, and more than min? Its share in *share. */
static int over(unsigned long part, unsigned long whole, double pct, unsigned long min,
		double *share)
{
	*share = whole ? 100.0 * (double)part / (double)whole : 0.0;
	return part > min && *share > pct;
}

/* Which guard the export's load trips: its name (reason filled), or NULL. */
static const char *tripped(load *ld, char *reason, size_t size)
{
	const load_guards *g = &ld->guards;
	const load_stats *s = &ld->stats;
	unsigned long models = (unsigned long)ld->ncurrent;
	double share;

	if (!g->on || ld->same_content)
		return NULL;
	if (!s->rows) {
		mc_fmt(reason, size, "the file has a header and no rows (the export has %lu model%s)",
		       models, models == 1 ? "" : "s");
		return "empty";
	}
	if (over(s->removed, models, g->remove_pct, g->remove_min, &share)) {
		mc_fmt(reason, size, "it would remove %lu of %lu models (%.1f %%; the guard is %g %%"
		       " and more than %lu)", s->removed, models, share, g->remove_pct, g->remove_min);
		return "remove";
	}
	if (over(s->quarantined, s->rows, g->quarantine_pct, g->quarantine_min, &share)) {
		mc_fmt(reason, size, "it quarantines %lu of %lu rows (%.1f %%; the guard is %g %%"
		       " and more than %lu)", s->quarantined, s->rows, share, g->quarantine_pct,
		       g->quarantine_min);
		return "quarantine";
	}
	if (s->columns_added > g->columns || s->columns_removed > g->columns) {
		int gains = s->columns_added > g->columns;

		mc_fmt(reason, size, "its header %s %lu columns (the guard is more than %lu)",
		       gains ? "gains" : "loses", gains ? s->columns_added : s->columns_removed,
		       g->columns);
		return "columns";
	}
	return NULL;
}

/* Was the export's content accepted before? 1, 0, or -1. */
static int accepted_before(load *ld, mc_err *err)
{
	sqlite3_stmt *st = NULL;
	int step;

	if (catalogue_prepare(ld->cat, &st, "SELECT 1 FROM accepted_content WHERE export = ? AND"
			      " sha256 = ?", err))
		return -1;
	sqlite3_bind_text(st, 1, ld->export_name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, ld->sha, -1, SQLITE_STATIC);
	step = sqlite3_step(st);
	sqlite3_finalize(st);
	if (step != SQLITE_ROW && step != SQLITE_DONE)
		return catalogue_fail(ld->cat, "reading the accepted contents", err);
	return step == SQLITE_ROW;
}

/* Record (export, content) as held (held 1) or accepted (held 0). 0 or -1. */
static int record_guard(load *ld, int held, const char *guard, mc_err *err)
{
	sqlite3_stmt *st = NULL;
	char when[32];
	int rc = -1;

	if (held ? catalogue_prepare(ld->cat, &st, "INSERT OR REPLACE INTO held_export(snapshot_id,"
				     " export, sha256, guard, reason) VALUES (?, ?, ?, ?, ?)", err)
		 : catalogue_prepare(ld->cat, &st, "INSERT OR IGNORE INTO accepted_content(export,"
				     " sha256, accepted_at) VALUES (?, ?, ?)", err))
		return -1;
	day_now(when);
	if (held) {
		sqlite3_bind_int64(st, 1, ld->snapshot_id);
		sqlite3_bind_text(st, 2, ld->export_name, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, ld->sha, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 4, guard, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 5, ld->stats.held_reason, -1, SQLITE_STATIC);
	} else {
		sqlite3_bind_text(st, 1, ld->export_name, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, ld->sha, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, when, -1, SQLITE_STATIC);
	}
	if (sqlite3_step(st) != SQLITE_DONE)
		catalogue_fail(ld->cat, "recording a guard", err);
	else
		rc = 0;
	sqlite3_finalize(st);
	return rc;
}

/* Apply the guards to the finished export: release what it wrote, or,
 * held, take all of it back and record why. 0 or -1. */
static int guard_export(load *ld, mc_err *err)
{
	const char *guard = tripped(ld, ld->stats.held_reason, sizeof(ld->stats.held_reason));
	int before;

	if (!guard)
		return catalogue_exec(ld->cat, "RELEASE export_load", err);
	before = ld->accept ? 0 : accepted_before(ld, err);
	if (before < 0)
		return -1;
	if (ld->accept || before) {
		ld->stats.accepted = 1;
		return record_guard(ld, 0, guard, err) ||
		       catalogue_exec(ld->cat, "RELEASE export_load", err);
	}
	ld->stats.held = 1;
	if (catalogue_exec(ld->cat, "ROLLBACK TO export_load; RELEASE export_load", err))
		return -1;
	return record_guard(ld, 1, guard, err);
}

int load_carry_accepted(catalogue *cat, const char *from, mc_err *err)
{
	static const char *const tables[] = { "accepted_content" };

	return catalogue_carry(cat, from, tables, 1, NULL, err);
}

int load_export_end(load *ld, load_stats *stats, mc_err *err)
{
	sqlite3_stmt *st = NULL;
	int rc = -1;

	if ((!ld->same_content && finish_export(ld, err)) || restore_name_index(ld, err))
		return -1;
	if (catalogue_prepare(ld->cat, &st,
			      "UPDATE snapshot_export SET rows = ?, loaded = ?, quarantined = ? WHERE id = ?",
			      err))
		return -1;
	sqlite3_bind_int64(st, 1, (sqlite3_int64)ld->stats.rows);
	sqlite3_bind_int64(st, 2, (sqlite3_int64)ld->stats.loaded);
	sqlite3_bind_int64(st, 3, (sqlite3_int64)ld->stats.quarantined);
	sqlite3_bind_int64(st, 4, ld->export_id);
	if (sqlite3_step(st) != SQLITE_DONE)
		catalogue_fail(ld->cat, "recording the counts", err);
	else
		rc = 0;
	sqlite3_finalize(st);
	if (!rc)
		rc = guard_export(ld, err);
	ld->stats.notices = ld->notices;
	ld->notices = 0;
	if (stats)
		*stats = ld->stats;
	return rc;
}

int load_previous_content(load *ld, const char *export_name, char sha[65],
			  unsigned long long *bytes, mc_err *err)
{
	snapshot_export_filter f = { export_name, ld->snapshot_id, 0, NULL, 0 };
	snapshot_export_info prev;
	int rc = snapshot_export_latest(ld->cat, &f, &prev, err);

	mc_fmt(sha, 65, "%s", prev.sha256);
	*bytes = prev.bytes;
	return rc < 0 ? -1 : !rc;
}

/* current_fn: a live record with a raw digest into the known table. */
static int known_record(void *ctx, const current_record *rec, mc_err *err)
{
	load_known *k = ctx;

	(void)err;
	if (!rec->raw || rec->occurrence < 1)
		return 0;   /* such a row is never looked up */
	return current_table_add(&k->table, rec->name, (size_t)rec->occurrence, rec->version,
				 rec->record, rec->raw) ? 1 : 0;
}

/* The known table of the export's live records, sized for the rows its
 * previous content loaded: *known, or NULL when an id does not fit. */
static int known_build(load *ld, unsigned long expected, load_known **known, mc_err *err)
{
	load_known *k = xcalloc(1, sizeof(*k));
	int rc;

	current_table_init(&k->table, expected);
	rc = current_scan(ld->cat, ld->export_name, known_record, k, err);
	if (rc) {
		known_free(k);
		/* 1 from known_record: an id too large for the table, which
		 * only means no row is recognised unparsed */
		return rc == 1 ? 0 : -1;
	}
	*known = k;
	return 0;
}

int load_export_known(load *ld, const char *header_digest, load_known **known, mc_err *err)
{
	snapshot_export_filter f = { ld->export_name, ld->snapshot_id, 0, NULL, 1 };
	snapshot_export_info prev;
	sqlite3_stmt *st = NULL;
	int step, same = 0;

	*known = NULL;
	if (ld->same_content || ld->fresh)
		goto record;
	/* the header digest of the export's previous content */
	step = snapshot_export_latest(ld->cat, &f, &prev, err);
	if (step < 0)
		return -1;
	same = step == 0 && !strcmp(prev.header_digest, header_digest);
	if (!same)
		goto record;
	if (known_build(ld, prev.loaded, &ld->known, err))
		return -1;
	*known = ld->known;
record:
	if (ld->same_content)
		return 0;
	if (catalogue_prepare(ld->cat, &st, "UPDATE snapshot_export SET header_digest = ? WHERE id = ?",
			      err))
		return -1;
	sqlite3_bind_text(st, 1, header_digest, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, ld->export_id);
	step = sqlite3_step(st);
	sqlite3_finalize(st);
	return step == SQLITE_DONE ? 0 : catalogue_fail(ld->cat, "recording the header digest", err);
}

int load_known_check(void *ctx, const char *name, size_t occurrence,
		     const unsigned char digest[16], size_t *ref)
{
	const load_known *k = ctx;
	const current_entry *e = current_table_find(&k->table, name, occurrence);

	if (!e || memcmp(e->raw, digest, DIGEST_LEN))
		return 0;
	*ref = (size_t)(e - k->table.slots);
	return 1;
}

void load_known_ids(const load_known *known, size_t ref, sqlite3_int64 *version,
		    sqlite3_int64 *record)
{
	*version = known->table.slots[ref].version;
	*record = known->table.slots[ref].record;
}

int load_export_content(load *ld, const char *sha256, unsigned long long bytes, mc_err *err)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (ld->same_content)
		return 0;
	mc_fmt(ld->sha, sizeof(ld->sha), "%s", sha256);
	if (catalogue_prepare(ld->cat, &st,
			      "UPDATE snapshot_export SET sha256 = ?, bytes = ? WHERE id = ?", err))
		return -1;
	sqlite3_bind_text(st, 1, sha256, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, (sqlite3_int64)bytes);
	sqlite3_bind_int64(st, 3, ld->export_id);
	rc = sqlite3_step(st) == SQLITE_DONE ? 0
		: catalogue_fail(ld->cat, "recording the content's hash", err);
	sqlite3_finalize(st);
	return rc;
}

int load_notice(load *ld, const char *message, mc_err *err)
{
	sqlite3_bind_int64(ld->insert_notice, 1, ld->snapshot_id);
	sqlite3_bind_text(ld->insert_notice, 2, message, -1, SQLITE_STATIC);
	ld->notices++;
	return step_done(ld, ld->insert_notice, "recording a notice", err);
}

catalogue *load_catalogue(const load *ld)
{
	return ld->cat;
}

sqlite3_int64 load_snapshot_id(const load *ld)
{
	return ld->snapshot_id;
}

int load_commit(load *ld, mc_err *err)
{
	catalogue *cat;
	int rc;

	if (!ld)
		return 0;
	cat = ld->cat;
	load_free(ld);
	rc = catalogue_exec(cat, "COMMIT", err);
	if (rc)
		sqlite3_exec(cat->db, "ROLLBACK", NULL, NULL, NULL);
	return rc;
}

void load_abort(load *ld)
{
	catalogue *cat;

	if (!ld)
		return;
	cat = ld->cat;
	load_free(ld);
	sqlite3_exec(cat->db, "ROLLBACK", NULL, NULL, NULL);
}
