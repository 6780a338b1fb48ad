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

/*
 * Compared form. A stored number keeps every digit that makes its double
 * ("342212.3909614999"), but values are compared at 15 significant digits
 * (norm_number_compared): the compared form of a row's values is its norm
 * JSON with each number replaced by its compared text ("342212.3909615"),
 * every other byte the same. A version's digest is taken of it, so that
 * numbers equal at 15 digits are no change, and a catalogue whose numbers
 * were stored at 15 digits keeps its digests.
 */

/* Which fields hold numbers: 1 for a number field, else 0. */
typedef int record_number_fn(void *ctx, const char *field);

/* Append the compared form of norm_json (as record_encode writes it);
 * is_number(ctx, field) names the number fields. 0, or -1 when norm_json
 * is not a flat JSON object (nothing appended). */
int record_compared(const char *norm_json, record_number_fn *is_number, void *ctx,
		    sbuf *out);

/* The compared form of row (its number values the text
 * norm_number_format() writes, as parse_next() gives them), whose norm
 * JSON record_encode wrote as norm_json: norm_json itself when it is its
 * own compared form (no number of the row has more than 15 significant
 * digits), else out's text (out is reset first; valid until out changes). */
const char *record_encode_compared(const record_plan *plan, const parse_row *row,
				   const char *norm_json, sbuf *out);

#endif
