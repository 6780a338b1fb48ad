#include "db/provenance.h"
#include "db/query.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>

void provenance_files_free(provenance_file *files, size_t n)
{
	size_t i;

	for (i = 0; files && i < n; i++)
		free(files[i].export);
	free(files);
}

static void copy_text(sqlite3_stmt *st, int i, char *buf, size_t len)
{
	const char *t = (const char *)sqlite3_column_text(st, i);

	mc_fmt(buf, len, "%s", t ? t : "");
}

int provenance_files(catalogue *cat, const char *as_of, provenance_file **files, size_t *n,
		     mc_err *err)
{
	sqlite3_stmt *st = NULL;
	int step;

	*files = NULL;
	*n = 0;
	if (catalogue_prepare(cat, &st,
			      "SELECT se.export, s.as_of, se.sha256, se.bytes, se.id FROM snapshot_export se"
			      " JOIN snapshot s ON s.id = se.snapshot_id"
			      " WHERE ?1 IS NULL OR s.as_of <= ?1"
			      " ORDER BY se.export, s.as_of, s.id, se.id", err))
		return -1;
	if (as_of && *as_of && sqlite3_bind_text(st, 1, as_of, -1, SQLITE_TRANSIENT) != SQLITE_OK) {
		sqlite3_finalize(st);
		return catalogue_fail(cat, "listing the snapshots' files", err);
	}
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		const char *export_name = (const char *)sqlite3_column_text(st, 0);
		const char *day = (const char *)sqlite3_column_text(st, 1);
		provenance_file *f;

		if (!export_name || !day)
			continue;
		*files = xrealloc(*files, (*n + 1) * sizeof(**files));
		f = &(*files)[(*n)++];
		f->export = xstrdup(export_name);
		f->id = sqlite3_column_int64(st, 4);
		copy_text(st, 1, f->day, sizeof(f->day));
		copy_text(st, 2, f->sha256, sizeof(f->sha256));
		f->bytes = (unsigned long long)sqlite3_column_int64(st, 3);
	}
	sqlite3_finalize(st);
	if (step == SQLITE_DONE)
		return 0;
	provenance_files_free(*files, *n);
	*files = NULL;
	*n = 0;
	return catalogue_fail(cat, "listing the snapshots' files", err);
}

int provenance_column_types(catalogue *cat, const char *export_name, const char *as_of,
			    char ***types, size_t *n, mc_err *err)
{
	sqlite3_stmt *st = NULL;
	sqlite3_int64 id = 0;
	int step, rc;

	*types = NULL;
	*n = 0;
	rc = query_content_export(cat, export_name, as_of, &id, err);
	if (rc <= 0)
		return rc < 0 ? -1 : 1;
	/* the columns query_rows_open() reads, in its order */
	if (catalogue_prepare(cat, &st, "SELECT type FROM export_column WHERE snapshot_export_id = ?"
			      " AND headerless = 0 ORDER BY position", err))
		return -1;
	sqlite3_bind_int64(st, 1, id);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		const char *t = (const char *)sqlite3_column_text(st, 0);

		*types = xrealloc(*types, (*n + 1) * sizeof(**types));
		(*types)[(*n)++] = xstrdup(t ? t : "");
	}
	sqlite3_finalize(st);
	if (step == SQLITE_DONE)
		return 0;
	mc_free_strings(*types, *n);
	*types = NULL;
	*n = 0;
	return catalogue_fail(cat, "reading a header", err);
}
