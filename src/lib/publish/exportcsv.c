#include "publish/exportcsv.h"
#include "db/query.h"
#include "base/textout.h"

#include <string.h>

void exportcsv_header(const query_rows *rows, sbuf *out)
{
	size_t i;

	for (i = 0; i < rows->ncols; i++) {
		if (i)
			sbuf_addc(out, ',');
		textout_csv_field(out, rows->fields[i], strlen(rows->fields[i]));
	}
	sbuf_addc(out, '\n');
}

void exportcsv_row(const query_rows *rows, sbuf *out)
{
	textout_csv_row(out, rows->values, rows->lengths, rows->ncols);
}

/* Write the export (as_of, or right after snapshot when not 0) to out;
 * with flush, out is handed to it past EXPORTCSV_PART bytes and at the
 * end. */
static int write_rows(catalogue *cat, const char *export_name, const char *as_of,
		      catalogue_id snapshot, sbuf *out, exportcsv_flush *flush, void *ctx,
		      mc_err *err)
{
	query_rows rows;
	int rc = query_rows_open(cat, export_name, as_of, snapshot, &rows, err);

	if (rc)
		goto out;
	exportcsv_header(&rows, out);
	while ((rc = query_rows_next(&rows, err)) == 1) {
		exportcsv_row(&rows, out);
		if (flush && out->len >= EXPORTCSV_PART && flush(ctx, out, err)) {
			rc = -1;
			goto out;
		}
	}
	if (!rc && flush)
		rc = flush(ctx, out, err);
out:
	query_rows_close(&rows);
	return rc;
}

int exportcsv_write(catalogue *cat, const char *export_name, const char *as_of, sbuf *out,
		    mc_err *err)
{
	return write_rows(cat, export_name, as_of, 0, out, NULL, NULL, err);
}

int exportcsv_write_at(catalogue *cat, const char *export_name, catalogue_id snapshot,
		       const char *label, sbuf *out, mc_err *err)
{
	return write_rows(cat, export_name, label, snapshot, out, NULL, NULL, err);
}

int exportcsv_write_parts(catalogue *cat, const char *export_name, const char *as_of,
			  sbuf *out, exportcsv_flush *flush, void *ctx, mc_err *err)
{
	return write_rows(cat, export_name, as_of, 0, out, flush, ctx, err);
}
