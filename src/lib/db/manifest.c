#include "db/manifest.h"

/* Bind one row to the insert. 0, or -1 when a bind failed. */
static int bind_row(sqlite3_stmt *ins, const char *store_dir, const manifest_row *e)
{
	if (sqlite3_bind_text(ins, 1, store_dir, -1, SQLITE_STATIC) != SQLITE_OK ||
	    sqlite3_bind_int64(ins, 2, (sqlite3_int64)e->line) != SQLITE_OK ||
	    sqlite3_bind_text(ins, 3, e->fetched_at, -1, SQLITE_STATIC) != SQLITE_OK ||
	    sqlite3_bind_text(ins, 4, e->source, -1, SQLITE_STATIC) != SQLITE_OK ||
	    sqlite3_bind_text(ins, 5, e->event, -1, SQLITE_STATIC) != SQLITE_OK ||
	    sqlite3_bind_text(ins, 6, e->file, -1, SQLITE_STATIC) != SQLITE_OK ||
	    sqlite3_bind_text(ins, 7, e->url, -1, SQLITE_STATIC) != SQLITE_OK ||
	    sqlite3_bind_int64(ins, 8, e->status) != SQLITE_OK ||
	    sqlite3_bind_text(ins, 9, e->etag, -1, SQLITE_STATIC) != SQLITE_OK ||
	    sqlite3_bind_text(ins, 10, e->last_modified, -1, SQLITE_STATIC) != SQLITE_OK ||
	    sqlite3_bind_text(ins, 11, e->sha256, -1, SQLITE_STATIC) != SQLITE_OK ||
	    sqlite3_bind_text(ins, 12, e->format, -1, SQLITE_STATIC) != SQLITE_OK ||
	    sqlite3_bind_int64(ins, 13, (sqlite3_int64)e->bytes) != SQLITE_OK ||
	    sqlite3_bind_int64(ins, 14, (sqlite3_int64)e->stored_bytes) != SQLITE_OK ||
	    sqlite3_bind_int64(ins, 15, (sqlite3_int64)e->download_bytes) != SQLITE_OK ||
	    sqlite3_bind_int64(ins, 16, (sqlite3_int64)e->rows) != SQLITE_OK)
		return -1;
	return 0;
}

int manifest_record(catalogue *cat, const char *store_dir, const manifest_row *rows, size_t n,
		    unsigned long *added, mc_err *err)
{
	sqlite3_stmt *ins = NULL;
	char msg[512];
	size_t i;
	int began = 0;

	*added = 0;
	if (sqlite3_exec(cat->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
		goto fail;
	began = 1;
	if (sqlite3_prepare_v2(cat->db,
			       "INSERT OR IGNORE INTO fetch_manifest(store, line, fetched_at, source,"
			       " event, file, url, http_status, etag, last_modified, sha256, format,"
			       " bytes, stored_bytes, download_bytes, rows)"
			       " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
			       -1, &ins, NULL) != SQLITE_OK)
		goto fail;
	for (i = 0; i < n; i++) {
		if (bind_row(ins, store_dir, &rows[i]) || sqlite3_step(ins) != SQLITE_DONE)
			goto fail;
		*added += (unsigned long)sqlite3_changes(cat->db);
		if (sqlite3_reset(ins) != SQLITE_OK)
			goto fail;
	}
	if (sqlite3_finalize(ins) != SQLITE_OK) {
		ins = NULL;
		goto fail;
	}
	ins = NULL;
	if (sqlite3_exec(cat->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
		goto fail;
	return 0;
fail:
	mc_error(err, "%s: recording the fetch manifest: %s", cat->path,
		 catalogue_db_error(cat->db, msg, sizeof(msg)));
	sqlite3_finalize(ins);
	if (began)
		sqlite3_exec(cat->db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}
