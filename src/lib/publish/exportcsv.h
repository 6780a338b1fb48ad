/*
 * exportcsv: an export as it stood on a date, as CSV (`modelcat export`,
 * the published downloads): the canonical names of that snapshot's
 * header, then every loaded row in file order with its normalised values,
 * read through db/query.h's query_rows.
 *
 * Errors: every function fills err, its last parameter, and returns -1;
 * 1 when the catalogue holds no such export on or before the date.
 */
#ifndef MODELCAT_EXPORTCSV_H
#define MODELCAT_EXPORTCSV_H

#include "base/util.h"
#include "db/catalogue.h"
#include "db/query.h"

/* Write export_name as it stood on as_of (YYYY-MM-DD) as CSV to out.
 * 0, 1 (none), -1. */
int exportcsv_write(catalogue *cat, const char *export_name, const char *as_of, sbuf *out,
		    mc_err *err);
/* The same as the export stood right after snapshot (its id; label, the
 * name it was asked by, is used in messages). */
int exportcsv_write_at(catalogue *cat, const char *export_name, catalogue_id snapshot,
		       const char *label, sbuf *out, mc_err *err);

/* The CSV line of rows' header (its canonical fields), and of the row it
 * holds (query_rows_next()), appended to out: for a writer of its own
 * that reads the rows once for more than the CSV (publish/download). */
void exportcsv_header(const query_rows *rows, sbuf *out);
void exportcsv_row(const query_rows *rows, sbuf *out);

/* Takes what a writer holds in out, and empties it: 0, or -1 (err). */
typedef int exportcsv_flush(void *ctx, sbuf *out, mc_err *err);
/* How much a writer in parts holds before it hands it over. */
#define EXPORTCSV_PART (1u << 20)
/* exportcsv_write() for an export too large to hold whole: out is handed
 * to flush(ctx, ...) whenever it holds EXPORTCSV_PART bytes or more, and
 * at the end. */
int exportcsv_write_parts(catalogue *cat, const char *export_name, const char *as_of,
			  sbuf *out, exportcsv_flush *flush, void *ctx, mc_err *err);

#endif
