/*
 * compared: the form in which a record's values are compared.
 */
#ifndef MODELCAT_COMPARED_H
#define MODELCAT_COMPARED_H

#include "base/util.h"

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

#endif
