#include "read/record.h"
#include "values/normalise.h"
#include "base/json.h"
#include "base/textout.h"

#include <stdlib.h>
#include <string.h>

static int order_cmp(const void *a, const void *b, void *columns)
{
	const parse_column *cols = columns;

	return strcmp(cols[*(const size_t *)a].field, cols[*(const size_t *)b].field);
}

void record_plan_init(record_plan *plan, const parse_column *columns, size_t n)
{
	size_t i;

	plan->columns = columns;
	plan->ncolumns = n;
	plan->order = xcalloc(n ? n : 1, sizeof(*plan->order));
	plan->keys = xcalloc(n ? n : 1, sizeof(*plan->keys));
	plan->key_lengths = xcalloc(n ? n : 1, sizeof(*plan->key_lengths));
	for (i = 0; i < n; i++) {
		sbuf key;

		plan->order[i] = i;
		sbuf_init(&key);
		textout_json_string(&key, columns[i].field, strlen(columns[i].field));
		sbuf_addc(&key, ':');
		plan->keys[i] = sbuf_detach(&key, &plan->key_lengths[i]);
	}
	qsort_r(plan->order, n, sizeof(*plan->order), order_cmp, (void *)columns);
}

void record_plan_release(record_plan *plan)
{
	mc_free_strings(plan->keys, plan->ncolumns);
	free(plan->key_lengths);
	free(plan->order);
	memset(plan, 0, sizeof(*plan));
}

void record_encode(const record_plan *plan, const parse_row *row, sbuf *norm, sbuf *raw)
{
	size_t k;
	int nfirst = 1, rfirst = 1;

	sbuf_addc(norm, '{');
	sbuf_addc(raw, '{');
	for (k = 0; k < plan->ncolumns; k++) {
		size_t i = plan->order[k];
		const parse_value *v = &row->values[i];

		if (v->present) {
			if (!nfirst)
				sbuf_addc(norm, ',');
			nfirst = 0;
			sbuf_add(norm, plan->keys[i], plan->key_lengths[i]);
			textout_json_utf8(norm, v->norm, v->norm_len);
		}
		if (v->raw_len && !(v->present && v->raw_len == v->norm_len &&
				    !memcmp(v->raw, v->norm, v->norm_len))) {
			if (!rfirst)
				sbuf_addc(raw, ',');
			rfirst = 0;
			sbuf_add(raw, plan->keys[i], plan->key_lengths[i]);
			textout_json_utf8(raw, v->raw, v->raw_len);
		}
	}
	sbuf_addc(norm, '}');
	sbuf_addc(raw, '}');
}

/*
 * The digits of a number's text from its first non-zero one to its
 * exponent: at least its significant digits. A number's norm is the
 * shortest text that reads back as its value (norm_number_format()); with
 * at most 15 significant digits that is its compared text already (any
 * decimal of 15 digits reads back as itself), and neither needs printing.
 */
static size_t digits_written(const char *s, size_t len)
{
	size_t i, n = 0;
	int started = 0;

	for (i = 0; i < len && s[i] != 'e' && s[i] != 'E'; i++) {
		if (s[i] < '0' || s[i] > '9')
			continue;
		started |= s[i] != '0';
		n += started;
	}
	return n;
}

const char *record_encode_compared(const record_plan *plan, const parse_row *row,
				   const char *norm_json, sbuf *out)
{
	size_t i;
	int differs = 0;

	sbuf_reset(out);
	for (i = 0; i < plan->ncolumns && !differs; i++) {
		const parse_value *v = &row->values[i];

		if (plan->columns[i].type != COL_NUMBER || !v->present ||
		    digits_written(v->norm, v->norm_len) <= 15)
			continue;
		sbuf_reset(out);
		differs = norm_number_text_compared(v->norm, v->norm_len, out) == NORM_OK &&
			  (out->len != v->norm_len || memcmp(out->data, v->norm, out->len));
	}
	if (!differs)
		return norm_json;
	/* record_compared() of norm_json, written from the values as
	 * record_encode() writes them, with each number in its compared text
	 * (digits, sign, point and exponent: a JSON string as it is) */
	sbuf_reset(out);
	sbuf_addc(out, '{');
	for (i = 0; i < plan->ncolumns; i++) {
		size_t k = plan->order[i], at;
		const parse_value *v = &row->values[k];

		if (!v->present)
			continue;
		if (out->len > 1)
			sbuf_addc(out, ',');
		sbuf_add(out, plan->keys[k], plan->key_lengths[k]);
		at = out->len;
		sbuf_addc(out, '"');
		if (plan->columns[k].type == COL_NUMBER &&
		    norm_number_text_compared(v->norm, v->norm_len, out) == NORM_OK) {
			sbuf_addc(out, '"');
			continue;
		}
		out->len = at;
		textout_json_utf8(out, v->norm, v->norm_len);
	}
	sbuf_addc(out, '}');
	return out->data;
}
