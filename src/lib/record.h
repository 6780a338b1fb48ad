/*
 * record: a parsed row as the catalogue stores it: JSON objects of
 * normalised values and of raw cells.
 */
#ifndef MODELCAT_RECORD_H
#define MODELCAT_RECORD_H

#include <stddef.h>
#include "parse.h"
#include "util.h"

/* Fill order[0..n) with column indexes sorted by field name. */
void record_order(const parse_column *columns, size_t n, size_t *order);

/* Turn a parsed row into JSON: norm gets {"field":"normalised",...} for the
 * cells with a value, fields sorted by name; raw gets the raw cells whose
 * text differs from their normalised value. order is from record_order(). */
void record_encode(const parse_column *columns, const size_t *order, size_t ncolumns,
		   const parse_row *row, sbuf *norm, sbuf *raw);

#endif
