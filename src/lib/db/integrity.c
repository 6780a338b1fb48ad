#include "db/integrity.h"

#include <string.h>

int integrity_check(catalogue *cat, void (*fn)(void *arg, const char *line), void *arg,
		    size_t *found, mc_err *err)
{
	sqlite3_stmt *st = NULL;
	char msg[512];
	int step;

	*found = 0;
	if (sqlite3_prepare_v2(cat->db, "PRAGMA integrity_check", -1, &st, NULL) != SQLITE_OK) {
		int code = sqlite3_errcode(cat->db);

		if (code != SQLITE_CORRUPT && code != SQLITE_NOTADB)
			return catalogue_fail(cat, "checking its integrity", err);
		fn(arg, catalogue_db_error(cat->db, msg, sizeof(msg)));
		*found = 1;
		return 0;
	}
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		const char *line = (const char *)sqlite3_column_text(st, 0);

		if (line && strcmp(line, "ok")) {
			fn(arg, line);
			(*found)++;
		}
	}
	if (step != SQLITE_DONE) {
		fn(arg, catalogue_db_error(cat->db, msg, sizeof(msg)));
		(*found)++;
	}
	sqlite3_finalize(st);
	return 0;
}

/* Text column i of st, "" for NULL. */
static const char *text(sqlite3_stmt *st, int i)
{
	const char *s = (const char *)sqlite3_column_text(st, i);

	return s ? s : "";
}

int integrity_files(catalogue *cat, void (*fn)(void *arg, const integrity_file *f), void *arg,
		    mc_err *err)
{
	sqlite3_stmt *st = NULL;
	int step;

	if (catalogue_prepare(cat, &st,
			      "SELECT s.id, s.as_of, (SELECT count(*) FROM snapshot t"
			      " WHERE t.as_of = s.as_of AND t.id <= s.id), se.export, se.file,"
			      " se.sha256 FROM snapshot_export se JOIN snapshot s ON s.id = se.snapshot_id"
			      " ORDER BY s.as_of, s.id, se.export", err))
		return -1;
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		integrity_file f;

		f.snapshot = sqlite3_column_int64(st, 0);
		f.as_of = text(st, 1);
		f.ordinal = sqlite3_column_int(st, 2);
		f.export_name = text(st, 3);
		f.file = text(st, 4);
		f.sha256 = text(st, 5);
		fn(arg, &f);
	}
	sqlite3_finalize(st);
	return step == SQLITE_DONE ? 0 : catalogue_fail(cat, "listing the snapshots' files", err);
}
