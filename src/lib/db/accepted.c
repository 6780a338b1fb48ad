#include "db/accepted.h"
#include "base/util.h"

int accepted_add(catalogue *cat, const char *export_name, const char *sha256,
		 const char *accepted_at, mc_err *err)
{
	sqlite3_stmt *st = NULL;
	int rc = 0;

	if (catalogue_prepare(cat, &st, "INSERT OR IGNORE INTO accepted_content(export, sha256,"
			      " accepted_at) VALUES (?, ?, ?)", err))
		return -1;
	if (sqlite3_bind_text(st, 1, export_name, -1, SQLITE_STATIC) != SQLITE_OK ||
	    sqlite3_bind_text(st, 2, sha256, -1, SQLITE_STATIC) != SQLITE_OK ||
	    sqlite3_bind_text(st, 3, accepted_at, -1, SQLITE_STATIC) != SQLITE_OK ||
	    sqlite3_step(st) != SQLITE_DONE)
		rc = catalogue_fail(cat, "recording an accepted content", err);
	sqlite3_finalize(st);
	return rc;
}

int accepted_latest_content(catalogue *cat, const char *export_name, char sha[65],
			    mc_err *err)
{
	sqlite3_stmt *st = NULL;
	int step, rc = 1;

	sha[0] = '\0';
	if (catalogue_prepare(cat, &st, "SELECT sha256 FROM snapshot_export WHERE export = ?"
			      " ORDER BY id DESC LIMIT 1", err))
		return -1;
	if (sqlite3_bind_text(st, 1, export_name, -1, SQLITE_STATIC) != SQLITE_OK) {
		sqlite3_finalize(st);
		return catalogue_fail(cat, "binding the export", err);
	}
	step = sqlite3_step(st);
	if (step == SQLITE_ROW && sqlite3_column_text(st, 0)) {
		mc_fmt(sha, 65, "%s", (const char *)sqlite3_column_text(st, 0));
		rc = 0;
	} else if (step != SQLITE_ROW && step != SQLITE_DONE) {
		rc = catalogue_fail(cat, "reading the export's content", err);
	}
	sqlite3_finalize(st);
	return rc;
}
