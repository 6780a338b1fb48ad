#include "read/record.h"
#include "read/normalise.h"
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

int record_compared(const char *norm_json, record_number_fn *is_number, void *ctx,
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

/* record_number_fn over a plan: its columns sorted by field, searched. */
static int plan_is_number(void *ctx, const char *field)
{
	const record_plan *plan = ctx;
	size_t lo = 0, hi = plan->ncolumns;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const parse_column *col = &plan->columns[plan->order[mid]];
		int c = strcmp(col->field, field);

		if (!c)
			return col->type == COL_NUMBER;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

const char *record_encode_compared(const record_plan *plan, const parse_row *row,
				   const char *norm_json, sbuf *out)
{
	size_t i;
	int differs = 0;

	sbuf_reset(out);
	for (i = 0; i < plan->ncolumns && !differs; i++) {
		const parse_value *v = &row->values[i];

		if (plan->columns[i].type != COL_NUMBER || !v->present)
			continue;
		sbuf_reset(out);
		differs = norm_number_text_compared(v->norm, v->norm_len, out) == NORM_OK &&
			  (out->len != v->norm_len || memcmp(out->data, v->norm, out->len));
	}
	sbuf_reset(out);
	if (!differs || record_compared(norm_json, plan_is_number, (void *)plan, out))
		return norm_json;
	return out->data;
}
