/*
 * record: a parsed row as the catalogue takes it: its values as a record
 * (values/record.h, fields sorted by name, so that the column order of a
 * file does not matter) and as the JSON objects they are stored as, of
 * normalised values and of raw cells, made together.
 *
 * Ownership: a record_plan owns its arrays; release it with
 * record_plan_release(). It points at the columns it was made from, which
 * must outlive it, and so do the names of the records it makes.
 */
#ifndef MODELCAT_RECORD_H
#define MODELCAT_RECORD_H

#include <stddef.h>
#include "read/parse.h"
#include "base/util.h"
#include "values/record.h"

typedef struct record_plan {
	const parse_column *columns; /* the export's columns */
	size_t ncolumns;             /* entries in columns */
	size_t *order;               /* column indexes sorted by field name */
	char **keys;                 /* per column: its field as a JSON key, "\"F\":" */
	size_t *key_lengths;         /* their lengths */
	size_t *norm_at;             /* per column: where record_encode wrote
					its value in the norm JSON (scratch) */
	size_t *raw_at;              /* and its cell in the raw JSON */
} record_plan;

/* Prepare the encoding of rows of these columns. */
void record_plan_init(record_plan *plan, const parse_column *columns, size_t n);
void record_plan_release(record_plan *plan);

/*
 * Make a parsed row's record and its JSON: values gets the fields with a
 * value or a cell, sorted by name; norm gets {"field":"normalised",...}
 * for the cells with a value; raw gets the raw cells whose text differs
 * from their normalised value. norm and raw are appended to, values is
 * filled afresh. The row must be one that was not quarantined (its cells
 * are valid UTF-8).
 *
 * A value or cell that JSON writes as it is (most: no quote, backslash or
 * control byte) is pointed at where it stands in norm or raw, any other
 * into the row: values is valid while both and the row are (parse.h:
 * until the next parse_next()), and a copy of the two texts holds every
 * value but those (ingest/queue.c copies rows so).
 */
void record_encode(record_plan *plan, const parse_row *row, sbuf *norm, sbuf *raw,
		   record_values *values);

#endif
