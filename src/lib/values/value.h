/*
 * value: a typed value, read from its stored text. The catalogue keeps
 * every value as the normaliser's text (normalise.h); a value knows its
 * kind from its field's type in the column map (colmap.h), and holds what
 * that text says: a number with the digits of its source and its
 * precision, a date with its precision (year, month, day; a date-time
 * keeps its time), a boolean, a list, an enumeration's member, text.
 * format.h writes a value for a reader in a language; value_json() for a
 * program.
 *
 * Ownership: a value borrows its text; it allocates nothing.
 */
#ifndef MODELCAT_VALUE_H
#define MODELCAT_VALUE_H

#include <stddef.h>

#include "base/util.h"
#include "values/colmap.h"
#include "values/normalise.h"

typedef enum value_kind {
	VALUE_TEXT,                  /* free text (and a record's name) */
	VALUE_NUMBER,
	VALUE_DATE,
	VALUE_BOOL,
	VALUE_LIST,                  /* comma-separated items */
	VALUE_ENUM                   /* one of a known set */
} value_kind;

typedef struct value {
	value_kind kind;
	const char *text;            /* the stored text (borrowed): a number's digits */
	double number;               /* VALUE_NUMBER */
	int decimals;                /* VALUE_NUMBER: digits after the point in
					text; -1 when it has an exponent */
	struct norm_date date;       /* VALUE_DATE, at its precision */
	int yes;                     /* VALUE_BOOL: 1 true, 0 false */
} typed_value;

/* The kind of a column map type. */
value_kind value_kind_of_type(enum colmap_type type);

/* The kind of field's values: its type in the column map of any family
 * (pipelines/, read once per process); for a field no map names (an
 * export's extra column, kept as text), what text reads as: a number, an
 * ISO date or date-time, True/False, else text. */
value_kind value_kind_of_field(const char *field, const char *text);

/* A stored number ("3.9e+24"): the whole text, finite. 0 and *x, or -1. */
int value_parse_number(const char *text, double *x);

/* Read text as a value of kind into *v: 0; -1 when it is not one (then
 * *v is the text as VALUE_TEXT). */
int value_read(value_kind kind, const char *text, typed_value *v);

/* Is text[0..len) a JSON number (RFC 8259: -?(0|[1-9]d*)(.d+)?([eE][+-]?d+)?)? */
int value_json_number(const char *text, size_t len);

/* v as JSON: a number as a JSON number (its stored digits), a boolean as
 * true or false, anything else as a string of its stored text. */
void value_json(const typed_value *v, sbuf *out);

/* The stored text[0..len) of a value of kind as JSON (value_json); an
 * empty text is null. */
void value_json_text(value_kind kind, const char *text, size_t len, sbuf *out);

/* The stored text of field as JSON, by value_kind_of_field(); "" and NULL
 * are null. */
void value_json_of(const char *field, const char *text, size_t len, sbuf *out);

#endif
