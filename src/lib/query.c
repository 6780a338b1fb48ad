#include "query.h"
#include "strmap.h"
#include "textout.h"

#include <stdlib.h>
#include <string.h>


int query_export_csv(catalogue *cat, const char *export_name, const char *as_of,
			 sbuf *out)
{
	sqlite3_stmt *st = NULL;
	sqlite3_int64 export_id;
	strmap fields;
	char **row = NULL;
	size_t *lengths = NULL, ncols = 0, i;
	sqlite3_int64 position = -1;
	int rc = -1, step;

	strmap_init(&fields);
	if (catalogue_prepare(cat, &st,
		    "SELECT se.id FROM snapshot_export se JOIN snapshot s ON s.id = se.snapshot_id"
		    " WHERE se.export = ? AND s.as_of <= ? AND se.unchanged = 0"
		    " ORDER BY s.as_of DESC, se.id DESC LIMIT 1"))
		goto out;
	sqlite3_bind_text(st, 1, export_name, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 2, as_of, -1, SQLITE_TRANSIENT);
	step = sqlite3_step(st);
	if (step == SQLITE_DONE) {
		mc_fmt(cat->err, sizeof(cat->err), "%s: no snapshot of export %s on or before %s",
		       cat->path, export_name, as_of);
		rc = 1;
		goto out;
	}
	if (step != SQLITE_ROW) {
		catalogue_fail(cat, "finding the snapshot");
		goto out;
	}
	export_id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	st = NULL;

	/* header: canonical names in file order, header-less columns left out */
	if (catalogue_prepare(cat, &st, "SELECT field FROM export_column WHERE snapshot_export_id = ?"
			      " AND headerless = 0 ORDER BY position"))
		goto out;
	sqlite3_bind_int64(st, 1, export_id);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		const char *field = (const char *)sqlite3_column_text(st, 0);

		*strmap_get_or_add(&fields, field, strlen(field), NULL) = ncols;
		if (ncols)
			sbuf_addc(out, ',');
		textout_csv_field(out, field, strlen(field));
		ncols++;
	}
	sbuf_addc(out, '\n');
	if (step != SQLITE_DONE) {
		catalogue_fail(cat, "reading the header");
		goto out;
	}
	sqlite3_finalize(st);
	st = NULL;

	row = xcalloc(ncols, sizeof(*row));
	lengths = xcalloc(ncols, sizeof(*lengths));
	if (catalogue_prepare(cat, &st,
		    "SELECT sr.position, j.key, j.value FROM snapshot_row sr"
		    " JOIN version v ON v.id = sr.version_id, json_each(v.norm) j"
		    " WHERE sr.snapshot_export_id = ? ORDER BY sr.position"))
		goto out;
	sqlite3_bind_int64(st, 1, export_id);
	for (;;) {
		sqlite3_int64 pos = 0;

		step = sqlite3_step(st);
		if (step == SQLITE_ROW)
			pos = sqlite3_column_int64(st, 0);
		if (position >= 0 && (step != SQLITE_ROW || pos != position)) {
			textout_csv_row(out, (const char *const *)row, lengths, ncols);
			for (i = 0; i < ncols; i++) {
				free(row[i]);
				row[i] = NULL;
				lengths[i] = 0;
			}
		}
		if (step != SQLITE_ROW)
			break;
		position = pos;
		{
			const char *key = (const char *)sqlite3_column_text(st, 1);
			const char *value = (const char *)sqlite3_column_text(st, 2);
			size_t *col = strmap_find(&fields, key, strlen(key));

			/* a field of an earlier version that this snapshot's
			 * header no longer has is not part of the export */
			if (!col)
				continue;
			free(row[*col]);
			lengths[*col] = (size_t)sqlite3_column_bytes(st, 2);
			row[*col] = xstrndup(value ? value : "", lengths[*col]);
		}
	}
	if (step != SQLITE_DONE) {
		catalogue_fail(cat, "reading the rows");
		goto out;
	}
	rc = 0;
out:
	if (row) {
		for (i = 0; i < ncols; i++)
			free(row[i]);
	}
	free(row);
	free(lengths);
	sqlite3_finalize(st);
	strmap_release(&fields);
	return rc;
}

