/*
 * compared_oracle: the compared form of a record's stored values, made
 * from its norm JSON by a second route (the JSON parsed, each number of a
 * number field replaced by its compared text), for the unit tests to
 * check record_values_compared() (values/record.h) against. Not in the
 * library: the load never parses the JSON a row encoded.
 */
#ifndef MODELCAT_COMPARED_ORACLE_H
#define MODELCAT_COMPARED_ORACLE_H

#include <string.h>

#include "base/json.h"
#include "base/sbuf.h"
#include "base/textout.h"
#include "values/normalise.h"

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
static int record_compared(const char *norm_json, record_number_fn *is_number, void *ctx,
		    sbuf *out)
{
	json_flat obj;
	sbuf number;
	size_t i;

	if (json_flat_parse(&obj, norm_json))
		return -1;
	sbuf_init(&number);
	sbuf_addc(out, '{');
	for (i = 0; i < obj.n; i++) {
		const json_pair *p = &obj.pairs[i];

		if (i)
			sbuf_addc(out, ',');
		textout_json_string(out, p->key, strlen(p->key));
		sbuf_addc(out, ':');
		sbuf_reset(&number);
		if (is_number(ctx, p->key) &&
		    norm_number_text_compared(p->value, p->len, &number) == NORM_OK)
			textout_json_utf8(out, number.data, number.len);
		else
			textout_json_utf8(out, p->value, p->len);
	}
	sbuf_addc(out, '}');
	sbuf_release(&number);
	json_flat_release(&obj);
	return 0;
}

#endif
