#include "db/staging.h"
#include "base/paths.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

struct staging_writer {
	const char *label;          /* the staging file it becomes, for messages */
	const char *tmp;            /* the file being written */
	sqlite3 *db;                /* its connection */
	sqlite3_stmt *row;          /* INSERT INTO staging_row */
	sqlite3_stmt *notice;       /* INSERT INTO staging_notice */
	unsigned long rows;         /* rows written */
	unsigned long quarantined;  /* of which quarantined */
};

/* "label: what: sqlite's message"; returns -1. */
static int writer_fail(staging_writer *w, const char *what, mc_err *err)
{
	char msg[512];

	return mc_error(err, "%s: %s: %s", w->label, what, catalogue_db_error(w->db, msg, sizeof(msg)));
}

/* "name: sqlite's message"; returns -1. */
static int db_fail(sqlite3 *db, const char *name, mc_err *err)
{
	char msg[512];

	return mc_error(err, "%s: %s", name, catalogue_db_error(db, msg, sizeof(msg)));
}

int staging_writer_open(staging_writer **out, const char *tmp, const char *label, mc_err *err)
{
	staging_writer *w = xcalloc(1, sizeof(*w));
	char path[PATH_MAX];
	sbuf schema;
	int rc = -1;

	*out = NULL;
	w->label = label;
	w->tmp = tmp;
	sbuf_init(&schema);
	paths_data_file(path, sizeof(path), "sql/staging.sql");
	if (catalogue_read_sql(path, &schema, err))
		goto out;
	if (sqlite3_open_v2(tmp, &w->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
		char msg[512];

		mc_error(err, "%s: cannot create: %s", tmp, catalogue_db_error(w->db, msg, sizeof(msg)));
		goto out;
	}
	if (sqlite3_exec(w->db, "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; BEGIN",
			 NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_exec(w->db, schema.data, NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(w->db, "INSERT INTO staging_row VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
			       -1, &w->row, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(w->db, "INSERT INTO staging_notice(message) VALUES (?)",
			       -1, &w->notice, NULL) != SQLITE_OK) {
		db_fail(w->db, label, err);
		goto out;
	}
	*out = w;
	rc = 0;
out:
	sbuf_release(&schema);
	if (rc)
		staging_writer_free(w);
	return rc;
}

int staging_write_columns(staging_writer *w, const load_column *cols, size_t n, mc_err *err)
{
	sqlite3_stmt *st;
	size_t i;

	if (sqlite3_prepare_v2(w->db, "INSERT INTO staging_column VALUES (?, ?, ?, ?, ?, ?)",
			       -1, &st, NULL) != SQLITE_OK)
		return writer_fail(w, "preparing", err);
	for (i = 0; i < n; i++) {
		load_bind_column(st, 1, i, &cols[i]);
		if (sqlite3_step(st) != SQLITE_DONE) {
			sqlite3_finalize(st);
			return writer_fail(w, "writing the header", err);
		}
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	return 0;
}

static void bind_text_or_null(sqlite3_stmt *st, int i, const char *s)
{
	if (s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, i);
}

int staging_write_row(staging_writer *w, const load_row *row, mc_err *err)
{
	sqlite3_stmt *st = w->row;
	int rc;

	sqlite3_bind_int64(st, 1, (sqlite3_int64)row->position);
	sqlite3_bind_int64(st, 2, (sqlite3_int64)row->line);
	sqlite3_bind_text(st, 3, row->name, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, (sqlite3_int64)row->occurrence);
	sqlite3_bind_int(st, 5, row->quarantined);
	bind_text_or_null(st, 6, row->fault_field);
	bind_text_or_null(st, 7, row->reason);
	bind_text_or_null(st, 8, row->raw_csv);
	bind_text_or_null(st, 9, row->norm_json);
	bind_text_or_null(st, 10, row->raw_json);
	rc = sqlite3_step(st);
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	if (rc != SQLITE_DONE)
		return writer_fail(w, "writing a row", err);
	w->rows++;
	w->quarantined += row->quarantined != 0;
	return 0;
}

int staging_write_notice(staging_writer *w, const char *message)
{
	int rc;

	sqlite3_bind_text(w->notice, 1, message, -1, SQLITE_STATIC);
	rc = sqlite3_step(w->notice);
	sqlite3_reset(w->notice);
	return rc == SQLITE_DONE ? 0 : -1;
}

void staging_writer_counts(const staging_writer *w, unsigned long *rows,
			   unsigned long *quarantined)
{
	*rows = w->rows;
	*quarantined = w->quarantined;
}

int staging_writer_finish(staging_writer *w, const char *export_name, const char *file,
			  const char *sha256, unsigned long long bytes, mc_err *err)
{
	sqlite3_stmt *st = NULL;
	int rc = -1;

	if (sqlite3_prepare_v2(w->db, "INSERT INTO staging_export VALUES (?, ?, ?, ?, ?, ?)",
			       -1, &st, NULL) != SQLITE_OK) {
		db_fail(w->db, w->label, err);
		goto out;
	}
	sqlite3_bind_text(st, 1, export_name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, file, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, sha256, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, (sqlite3_int64)bytes);
	sqlite3_bind_int64(st, 5, (sqlite3_int64)w->rows);
	sqlite3_bind_int64(st, 6, (sqlite3_int64)w->quarantined);
	if (sqlite3_step(st) != SQLITE_DONE ||
	    sqlite3_exec(w->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
		db_fail(w->db, w->label, err);
		goto out;
	}
	sqlite3_finalize(st);
	sqlite3_finalize(w->row);
	sqlite3_finalize(w->notice);
	st = w->row = w->notice = NULL;
	if (sqlite3_close(w->db) != SQLITE_OK) {
		db_fail(w->db, w->tmp, err);
		goto out;
	}
	w->db = NULL;
	rc = 0;
out:
	sqlite3_finalize(st);
	staging_writer_free(w);
	return rc;
}

void staging_writer_free(staging_writer *w)
{
	if (!w)
		return;
	sqlite3_finalize(w->row);
	sqlite3_finalize(w->notice);
	sqlite3_close(w->db);
	free(w);
}

/* ---- reading ---- */

static const char *col_text(sqlite3_stmt *st, int i)
{
	return (const char *)sqlite3_column_text(st, i);
}

/* The export's header into r->cols. 0 or -1. */
static int read_columns(staging_reader *r, mc_err *err)
{
	sqlite3_stmt *st = NULL;
	size_t i;
	int step;

	if (sqlite3_prepare_v2(r->db, "SELECT header, field, type, declared, headerless"
			       " FROM staging_column ORDER BY position", -1, &st, NULL) != SQLITE_OK)
		return db_fail(r->db, r->path, err);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		size_t n = r->ncols;

		r->cols = xrealloc(r->cols, (n + 1) * sizeof(*r->cols));
		r->strings = xrealloc(r->strings, (n + 1) * 3 * sizeof(*r->strings));
		for (i = 0; i < 3; i++)
			r->strings[n * 3 + i] = xstrdup(col_text(st, (int)i));
		r->cols[n].header = r->strings[n * 3];
		r->cols[n].field = r->strings[n * 3 + 1];
		r->cols[n].type = r->strings[n * 3 + 2];
		r->cols[n].declared = sqlite3_column_int(st, 3);
		r->cols[n].headerless = sqlite3_column_int(st, 4);
		r->ncols++;
	}
	sqlite3_finalize(st);
	return step == SQLITE_DONE ? 0 : db_fail(r->db, r->path, err);
}

int staging_reader_open(staging_reader *r, const char *path, mc_err *err)
{
	sqlite3_stmt *st = NULL;
	int rc = -1;

	memset(r, 0, sizeof(*r));
	r->path = xstrdup(path);
	if (sqlite3_open_v2(path, &r->db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(r->db, "SELECT export, file, sha256, bytes FROM staging_export",
			       -1, &st, NULL) != SQLITE_OK) {
		db_fail(r->db, path, err);
		goto out;
	}
	if (sqlite3_step(st) != SQLITE_ROW) {
		mc_error(err, "%s: not a complete staging file", path);
		goto out;
	}
	r->export_name = xstrdup(col_text(st, 0));
	r->file = xstrdup(col_text(st, 1));
	r->sha256 = xstrdup(col_text(st, 2));
	r->bytes = (unsigned long long)sqlite3_column_int64(st, 3);
	sqlite3_finalize(st);
	st = NULL;
	rc = read_columns(r, err);
out:
	sqlite3_finalize(st);
	return rc;
}

int staging_read_notices(staging_reader *r, int (*fn)(void *ctx, const char *message, mc_err *err),
			 void *ctx, mc_err *err)
{
	sqlite3_stmt *st = NULL;
	int step;

	if (sqlite3_prepare_v2(r->db, "SELECT message FROM staging_notice ORDER BY id",
			       -1, &st, NULL) != SQLITE_OK)
		return db_fail(r->db, r->path, err);
	while ((step = sqlite3_step(st)) == SQLITE_ROW)
		if (fn(ctx, col_text(st, 0), err)) {
			sqlite3_finalize(st);
			return -1;
		}
	sqlite3_finalize(st);
	return step == SQLITE_DONE ? 0 : db_fail(r->db, r->path, err);
}

int staging_read_rows(staging_reader *r, int (*fn)(void *ctx, const load_row *row, mc_err *err),
		      void *ctx, mc_err *err)
{
	sqlite3_stmt *st = NULL;
	int step;

	if (sqlite3_prepare_v2(r->db, "SELECT position, line, name, occurrence, quarantined,"
			       " field, reason, raw_csv, norm, raw FROM staging_row"
			       " ORDER BY position", -1, &st, NULL) != SQLITE_OK)
		return db_fail(r->db, r->path, err);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		load_row row;

		memset(&row, 0, sizeof(row));
		row.position = (unsigned long)sqlite3_column_int64(st, 0);
		row.line = (unsigned long)sqlite3_column_int64(st, 1);
		row.name = col_text(st, 2);
		row.occurrence = (size_t)sqlite3_column_int64(st, 3);
		row.quarantined = sqlite3_column_int(st, 4);
		row.fault_field = col_text(st, 5);
		row.reason = col_text(st, 6);
		row.raw_csv = col_text(st, 7);
		row.norm_json = col_text(st, 8);
		row.raw_json = col_text(st, 9);
		if (fn(ctx, &row, err)) {
			sqlite3_finalize(st);
			return -1;
		}
	}
	sqlite3_finalize(st);
	return step == SQLITE_DONE ? 0 : db_fail(r->db, r->path, err);
}

void staging_reader_close(staging_reader *r)
{
	sqlite3_close(r->db);
	mc_free_strings(r->strings, r->ncols * 3);
	free(r->cols);
	free(r->export_name);
	free(r->file);
	free(r->sha256);
	free(r->path);
	memset(r, 0, sizeof(*r));
}
