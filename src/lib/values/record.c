#include "values/record.h"
#include "values/normalise.h"
#include "base/json.h"
#include "base/textout.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void record_values_init(record_values *r)
{
	memset(r, 0, sizeof(*r));
}

void record_values_release(record_values *r)
{
	free(r->fields);
	free(r->held);
	memset(r, 0, sizeof(*r));
}

void record_values_reset(record_values *r)
{
	free(r->held);
	r->held = NULL;
	r->n = 0;
}

void record_values_reserve(record_values *r, size_t n)
{
	if (n <= r->cap)
		return;
	r->cap = n;
	r->fields = xrealloc(r->fields, r->cap * sizeof(*r->fields));
}

record_field *record_values_add(record_values *r)
{
	record_field *f;

	if (r->n == r->cap)
		record_values_reserve(r, r->cap ? r->cap * 2 : 32);
	f = &r->fields[r->n++];
	memset(f, 0, sizeof(*f));
	return f;
}

/* The first entry whose name is not below name (r->n when none). */
static size_t lower_bound(const record_values *r, const char *name)
{
	size_t lo = 0, hi = r->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(r->fields[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const record_field *record_values_value(const record_values *r, const char *name)
{
	size_t i;

	for (i = lower_bound(r, name); i < r->n && !strcmp(r->fields[i].name, name); i++)
		if (r->fields[i].norm)
			return &r->fields[i];
	return NULL;
}

/* Copy len bytes and a NUL to *at; the copy. */
static char *put(char **at, const char *s, size_t len)
{
	char *p = *at;

	if (len)
		memcpy(p, s, len);
	p[len] = '\0';
	*at += len + 1;
	return p;
}

void record_values_keep(record_values *dst, const record_values *src)
{
	size_t i, size = 1;
	char *at;

	record_values_reset(dst);
	for (i = 0; i < src->n; i++) {
		const record_field *f = &src->fields[i];

		size += strlen(f->name) + 1 + (f->norm ? f->norm_len + 1 : 0);
		if (f->raw != f->norm)
			size += f->raw_len + 1;
	}
	dst->held = xmalloc(size);
	at = dst->held;
	for (i = 0; i < src->n; i++) {
		const record_field *f = &src->fields[i];
		record_field *g = record_values_add(dst);

		*g = *f;
		g->name = put(&at, f->name, strlen(f->name));
		if (f->norm)
			g->norm = put(&at, f->norm, f->norm_len);
		g->raw = f->raw == f->norm ? g->norm : put(&at, f->raw ? f->raw : "", f->raw_len);
	}
}

/* Sort r's entries by name, keeping the order of equal names (an
 * insertion sort: the entries are nearly sorted, and few). */
static void sort_fields(record_values *r)
{
	size_t i, k;

	for (i = 1; i < r->n; i++) {
		record_field f = r->fields[i];

		for (k = i; k > 0 && strcmp(r->fields[k - 1].name, f.name) > 0; k--)
			r->fields[k] = r->fields[k - 1];
		r->fields[k] = f;
	}
}

/* The entry of raw cell p among r's first n (those read from the values):
 * the first of its name without a cell of its own, or NULL. */
static record_field *cell_owner(record_values *r, size_t n, const json_pair *p)
{
	size_t i;

	for (i = 0; i < n; i++) {
		record_field *f = &r->fields[i];

		if (!strcmp(f->name, p->key) && f->raw == f->norm)
			return f;
	}
	return NULL;
}

int record_values_read(record_values *r, const char *norm_json, const char *raw_json,
		       record_type_fn *type_of, void *ctx)
{
	json_flat norm, raw = { NULL, 0, NULL };
	record_values read;
	size_t i, nvalues;

	record_values_reset(r);
	if (json_flat_parse(&norm, norm_json))
		return -1;
	if (raw_json && json_flat_parse(&raw, raw_json)) {
		json_flat_release(&norm);
		return -1;
	}
	record_values_init(&read);
	for (i = 0; i < norm.n; i++) {
		record_field *f = record_values_add(&read);

		f->name = norm.pairs[i].key;
		f->type = type_of(ctx, f->name);
		f->norm = f->raw = norm.pairs[i].value;
		f->norm_len = f->raw_len = norm.pairs[i].len;
	}
	nvalues = read.n;
	for (i = 0; i < raw.n; i++) {
		record_field *f = cell_owner(&read, nvalues, &raw.pairs[i]);

		if (!f) {
			f = record_values_add(&read);
			f->name = raw.pairs[i].key;
			f->type = type_of(ctx, f->name);
		}
		f->raw = raw.pairs[i].value;
		f->raw_len = raw.pairs[i].len;
	}
	sort_fields(&read);
	record_values_keep(r, &read);
	record_values_release(&read);
	json_flat_release(&norm);
	json_flat_release(&raw);
	return 0;
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

/* Is f a number whose compared text is not its value? (out: scratch) */
static int compares_otherwise(const record_field *f, sbuf *out)
{
	if (f->type != COL_NUMBER || !f->norm || digits_written(f->norm, f->norm_len) <= 15)
		return 0;
	sbuf_reset(out);
	return norm_number_text_compared(f->norm, f->norm_len, out) == NORM_OK &&
	       (out->len != f->norm_len || memcmp(out->data, f->norm, out->len));
}

const char *record_values_compared(const record_values *r, const char *norm_json, sbuf *out)
{
	size_t i;
	int differs = 0;

	for (i = 0; i < r->n && !differs; i++)
		differs = compares_otherwise(&r->fields[i], out);
	if (!differs && norm_json)
		return norm_json;
	/* the values as stored, each number in its compared text (digits,
	 * sign, point and exponent: a JSON string as it is) */
	sbuf_reset(out);
	sbuf_addc(out, '{');
	for (i = 0; i < r->n; i++) {
		const record_field *f = &r->fields[i];
		size_t at;

		if (!f->norm)
			continue;
		if (out->len > 1)
			sbuf_addc(out, ',');
		textout_json_string(out, f->name, strlen(f->name));
		sbuf_addc(out, ':');
		at = out->len;
		sbuf_addc(out, '"');
		if (f->type == COL_NUMBER &&
		    norm_number_text_compared(f->norm, f->norm_len, out) == NORM_OK) {
			sbuf_addc(out, '"');
			continue;
		}
		out->len = at;
		textout_json_utf8(out, f->norm, f->norm_len);
	}
	sbuf_addc(out, '}');
	return out->data;
}
