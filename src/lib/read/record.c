#include "read/record.h"
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
	plan->norm_at = xcalloc(n ? n : 1, sizeof(*plan->norm_at));
	plan->raw_at = xcalloc(n ? n : 1, sizeof(*plan->raw_at));
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
	free(plan->norm_at);
	free(plan->raw_at);
	free(plan->order);
	memset(plan, 0, sizeof(*plan));
}

/* Where record_encode found a value or cell in the JSON: nowhere (not
 * written as it is), or for a cell, the same as its value. */
#define NOWHERE ((size_t)-1)
#define AS_VALUE ((size_t)-2)

/* Append s as a JSON string to out; where its bytes stand in out when
 * they are written as they are, else NOWHERE (escapes lengthen a string). */
static size_t json_value(sbuf *out, const char *s, size_t len)
{
	size_t at = out->len;

	textout_json_utf8(out, s, len);
	return out->len - at == len + 2 ? at + 1 : NOWHERE;
}

void record_encode(record_plan *plan, const parse_row *row, sbuf *norm, sbuf *raw,
		   record_values *values)
{
	size_t k, n = 0;
	int nfirst = 1, rfirst = 1;

	record_values_reset(values);
	record_values_reserve(values, plan->ncolumns);
	sbuf_addc(norm, '{');
	sbuf_addc(raw, '{');
	for (k = 0; k < plan->ncolumns; k++) {
		size_t i = plan->order[k];
		const parse_value *v = &row->values[i];
		record_field *f;

		if (!v->present && !v->raw_len)
			continue;
		f = &values->fields[n++];
		f->name = plan->columns[i].field;
		f->type = plan->columns[i].type;
		f->norm = NULL;
		f->norm_len = 0;
		f->raw = v->raw;
		f->raw_len = v->raw_len;
		plan->norm_at[n - 1] = plan->raw_at[n - 1] = NOWHERE;
		if (v->present) {
			if (!nfirst)
				sbuf_addc(norm, ',');
			nfirst = 0;
			sbuf_add(norm, plan->keys[i], plan->key_lengths[i]);
			plan->norm_at[n - 1] = json_value(norm, v->norm, v->norm_len);
			f->norm = v->norm;
			f->norm_len = v->norm_len;
			if (v->raw_len == v->norm_len && !memcmp(v->raw, v->norm, v->norm_len)) {
				plan->raw_at[n - 1] = AS_VALUE;
				continue;
			}
		}
		if (v->raw_len) {
			if (!rfirst)
				sbuf_addc(raw, ',');
			rfirst = 0;
			sbuf_add(raw, plan->keys[i], plan->key_lengths[i]);
			plan->raw_at[n - 1] = json_value(raw, v->raw, v->raw_len);
		}
	}
	sbuf_addc(norm, '}');
	sbuf_addc(raw, '}');
	values->n = n;
	/* the texts are whole: point into them */
	for (k = 0; k < n; k++) {
		record_field *f = &values->fields[k];

		if (plan->norm_at[k] != NOWHERE)
			f->norm = norm->data + plan->norm_at[k];
		if (plan->raw_at[k] == AS_VALUE)
			f->raw = f->norm;
		else if (plan->raw_at[k] != NOWHERE)
			f->raw = raw->data + plan->raw_at[k];
	}
}
