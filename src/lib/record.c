#include "record.h"
#include "textout.h"

#include <stdlib.h>
#include <string.h>

static int order_cmp(const void *a, const void *b, void *columns)
{
	const parse_column *cols = columns;

	return strcmp(cols[*(const size_t *)a].field, cols[*(const size_t *)b].field);
}

void record_order(const parse_column *columns, size_t n, size_t *order)
{
	size_t i;

	for (i = 0; i < n; i++)
		order[i] = i;
	qsort_r(order, n, sizeof(*order), order_cmp, (void *)columns);
}

void record_encode(const parse_column *columns, const size_t *order, size_t ncolumns,
		   const parse_row *row, sbuf *norm, sbuf *raw)
{
	size_t k;
	int nfirst = 1, rfirst = 1;

	sbuf_addc(norm, '{');
	sbuf_addc(raw, '{');
	for (k = 0; k < ncolumns; k++) {
		size_t i = order[k];
		const parse_value *v = &row->values[i];

		if (v->present) {
			if (!nfirst)
				sbuf_addc(norm, ',');
			nfirst = 0;
			textout_json_string(norm, columns[i].field, strlen(columns[i].field));
			sbuf_addc(norm, ':');
			textout_json_string(norm, v->norm, v->norm_len);
		}
		if (v->raw_len && !(v->present && v->raw_len == v->norm_len &&
				    !memcmp(v->raw, v->norm, v->norm_len))) {
			if (!rfirst)
				sbuf_addc(raw, ',');
			rfirst = 0;
			textout_json_string(raw, columns[i].field, strlen(columns[i].field));
			sbuf_addc(raw, ':');
			textout_json_string(raw, v->raw, v->raw_len);
		}
	}
	sbuf_addc(norm, '}');
	sbuf_addc(raw, '}');
}
