#include "db/credit.h"
#include "base/util.h"

#include <string.h>

int credit_store(load *ld, const credit *c, mc_err *err)
{
	catalogue *cat = load_catalogue(ld);
	sqlite3_stmt *st = NULL;
	int step;

	if (catalogue_prepare(cat, &st, "INSERT OR REPLACE INTO snapshot_credit(snapshot_id, file,"
			      " citation, licence, readme) VALUES (?, ?, ?, ?, ?)", err))
		return -1;
	if (sqlite3_bind_int64(st, 1, load_snapshot_id(ld)) != SQLITE_OK ||
	    sqlite3_bind_text(st, 2, c->file, -1, SQLITE_STATIC) != SQLITE_OK ||
	    sqlite3_bind_text(st, 3, c->citation, -1, SQLITE_STATIC) != SQLITE_OK ||
	    sqlite3_bind_text(st, 4, c->licence, -1, SQLITE_STATIC) != SQLITE_OK ||
	    sqlite3_bind_text(st, 5, c->readme, -1, SQLITE_STATIC) != SQLITE_OK) {
		sqlite3_finalize(st);
		return catalogue_fail(cat, "storing a bundle's credit", err);
	}
	step = sqlite3_step(st);
	sqlite3_finalize(st);
	return step == SQLITE_DONE ? 0 : catalogue_fail(cat, "storing a bundle's credit", err);
}

/* The one text column of st's first row (bound already) into *text. */
static int one_text(catalogue *cat, sqlite3_stmt *st, char **text, mc_err *err)
{
	int step = sqlite3_step(st);

	*text = NULL;
	if (step == SQLITE_ROW && sqlite3_column_text(st, 0))
		*text = xstrdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	if (step != SQLITE_ROW && step != SQLITE_DONE)
		return catalogue_fail(cat, "reading a bundle's credit", err);
	return *text ? 0 : 1;
}

/* Has the catalogue the table? (One opened read-only may predate it.) */
static int has_credit(catalogue *cat)
{
	return sqlite3_table_column_metadata(cat->db, NULL, "snapshot_credit", "citation", NULL,
					     NULL, NULL, NULL, NULL) == SQLITE_OK;
}

int credit_citation(catalogue *cat, sqlite3_int64 id, char **citation, mc_err *err)
{
	sqlite3_stmt *st = NULL;

	*citation = NULL;
	if (!has_credit(cat))
		return 1;
	if (catalogue_prepare(cat, &st, "SELECT citation FROM snapshot_credit"
			      " WHERE snapshot_id = ? AND citation <> ''", err))
		return -1;
	sqlite3_bind_int64(st, 1, id);
	return one_text(cat, st, citation, err);
}

int credit_citation_upto(catalogue *cat, const char *day, char **citation, mc_err *err)
{
	sqlite3_stmt *st = NULL;

	*citation = NULL;
	if (!day || !*day || !has_credit(cat))
		return 1;
	if (catalogue_prepare(cat, &st, "SELECT c.citation FROM snapshot_credit c"
			      " JOIN snapshot s ON s.id = c.snapshot_id"
			      " WHERE s.as_of <= ? AND c.citation <> ''"
			      " ORDER BY s.as_of DESC, s.id DESC LIMIT 1", err))
		return -1;
	sqlite3_bind_text(st, 1, day, -1, SQLITE_TRANSIENT);
	return one_text(cat, st, citation, err);
}
