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
