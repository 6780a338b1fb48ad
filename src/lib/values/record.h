/*
 * record: a record's values, typed: one entry a field that has a value or
 * a cell, sorted by field name (the order of a version's stored values),
 * each with its type from the column map, its normalised value and the
 * cell as read. A parsed row is made into one once (read/record.h) and
 * the catalogue compares it with the stored version (db/load.h) as it is,
 * field by field: numbers at 15 significant digits (norm_number_text_equal,
 * values/normalise.h), any other type byte for byte.
 *
 * A record is stored as JSON (version.norm: the fields with a value,
 * version.raw: the cells that differ from their value); its compared form
 * (record_values_compared() below) is what a version's digest is taken of.
 *
 * Ownership: a record_values owns its array of fields. The bytes the
 * fields point to (names, values, cells) belong to whoever made the
 * record: a row's record points into the row (read/record.h says how long
 * that lives), unless the record holds them itself (record_values_keep,
 * record_values_read), until record_values_release() or the next fill.
 */
#ifndef MODELCAT_VALUES_RECORD_H
#define MODELCAT_VALUES_RECORD_H

#include <stddef.h>
#include "values/colmap.h"
#include "base/util.h"

typedef struct record_field {
	const char *name;            /* canonical field */
	enum colmap_type type;       /* how its values are read (COL_TEXT for a
					column the map does not know) */
	const char *norm;            /* normalised value, or NULL: the cell
					holds none */
	size_t norm_len;             /* its length */
	const char *raw;             /* the cell as read (norm itself when the
					two are the same bytes) */
	size_t raw_len;              /* its length (0: an empty cell) */
} record_field;

typedef struct record_values {
	record_field *fields;        /* sorted by name (strcmp) */
	size_t n;                    /* entries used */
	size_t cap;                  /* entries allocated */
	char *held;                  /* the bytes the fields point to when the
					record holds them, else NULL */
} record_values;

/* A zeroed record_values is empty too. */
void record_values_init(record_values *r);
void record_values_release(record_values *r);
/* Empty r, keeping its array for the next fill. */
void record_values_reset(record_values *r);
/* A new entry at the end, zeroed; the caller fills it, in name order. */
record_field *record_values_add(record_values *r);
/* Room for n entries in all, so that a filler may write fields[0..n)
 * itself (and set r->n). */
void record_values_reserve(record_values *r, size_t n);

/* The first field named name that holds a value, or NULL. r's fields are
 * sorted: a binary search. */
const record_field *record_values_value(const record_values *r, const char *name);

/* dst becomes a copy of src that holds its bytes (names too), so that it
 * outlives what src points into. dst is released first; src may not be
 * dst. */
void record_values_keep(record_values *dst, const record_values *src);

/* The type of a field of a record read back from its JSON. */
typedef enum colmap_type record_type_fn(void *ctx, const char *field);

/*
 * Read a stored record back: norm_json its values, raw_json (or NULL) its
 * cells that differ from them, as stored (version.norm and version.raw, a
 * staging file's row); type_of(ctx, field) gives each field's type. r
 * holds its bytes. 0, or -1 when either is not a flat JSON object of
 * strings (r is then empty).
 */
int record_values_read(record_values *r, const char *norm_json, const char *raw_json,
		       record_type_fn *type_of, void *ctx);

/*
 * The compared form of r's values: its norm JSON with each number past 15
 * significant digits in its compared text. norm_json is r's norm JSON as
 * stored (or NULL): when no number differs it is its own compared form,
 * and is returned as it is; else out's text is (out is reset first; valid
 * until out changes).
 */
const char *record_values_compared(const record_values *r, const char *norm_json, sbuf *out);

#endif
