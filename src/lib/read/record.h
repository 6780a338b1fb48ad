/*
 * record: a parsed row as the catalogue stores it: JSON objects of
 * normalised values and of raw cells, fields sorted by name so that the
 * column order of a file does not matter.
 *
 * Ownership: a record_plan owns its arrays; release it with
 * record_plan_release(). It points at the columns it was made from, which
 * must outlive it.
 */
#ifndef MODELCAT_RECORD_H
#define MODELCAT_RECORD_H

#include <stddef.h>
#include "read/parse.h"
#include "base/util.h"
#include "values/compared.h"

typedef struct record_plan {
	const parse_column *columns; /* the export's columns */
	size_t ncolumns;             /* entries in columns */
	size_t *order;               /* column indexes sorted by field name */
	char **keys;                 /* per column: its field as a JSON key, "\"F\":" */
	size_t *key_lengths;         /* their lengths */
} record_plan;

/* Prepare the encoding of rows of these columns. */
void record_plan_init(record_plan *plan, const parse_column *columns, size_t n);
void record_plan_release(record_plan *plan);

/* Turn a parsed row into JSON: norm gets {"field":"normalised",...} for the
 * cells with a value; raw gets the raw cells whose text differs from their
 * normalised value. Both are appended to. The row must be one that was not
 * quarantined (its cells are valid UTF-8). */
void record_encode(const record_plan *plan, const parse_row *row, sbuf *norm, sbuf *raw);


/* The compared form of row (its number values the text
 * norm_number_format() writes, as parse_next() gives them), whose norm
 * JSON record_encode wrote as norm_json: norm_json itself when it is its
 * own compared form (no number of the row has more than 15 significant
 * digits), else out's text (out is reset first; valid until out changes). */
const char *record_encode_compared(const record_plan *plan, const parse_row *row,
				   const char *norm_json, sbuf *out);

#endif
