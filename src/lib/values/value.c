#include "values/value.h"
#include "base/paths.h"
#include "base/textout.h"

#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

value_kind value_kind_of_type(enum colmap_type type)
{
	switch (type) {
	case COL_NUMBER:
		return VALUE_NUMBER;
	case COL_DATE:
		return VALUE_DATE;
	case COL_BOOL:
		return VALUE_BOOL;
	case COL_LIST:
		return VALUE_LIST;
	case COL_ENUM:
		return VALUE_ENUM;
	default:
		return VALUE_TEXT;
	}
}

/* The column maps, read once per process; loaded 0 when they cannot be
 * read (every field's kind is then what its text reads as). */
static colmap fields_map;
static int fields_loaded;
static pthread_once_t fields_once = PTHREAD_ONCE_INIT;

static void fields_load(void)
{
	char dir[PATH_MAX];
	mc_err err;

	mc_err_clear(&err);
	paths_data_file(dir, sizeof(dir), "pipelines");
	fields_loaded = colmap_load(&fields_map, dir, &err) == 0;
}

/* The field named name in any family's map, or NULL. */
static const colmap_field *field_named(const char *name)
{
	const colmap_field *f;
	size_t i;

	pthread_once(&fields_once, fields_load);
	if (!fields_loaded)
		return NULL;
	if ((f = colmap_field_named(&fields_map, name)))
		return f;
	for (i = 0; i < fields_map.nothers; i++)
		if ((f = colmap_field_named(&fields_map.others[i], name)))
			return f;
	return NULL;
}

int value_parse_number(const char *text, double *x)
{
	char *end;

	if (!text || !*text)
		return -1;
	*x = strtod(text, &end);
	return *end || !isfinite(*x) ? -1 : 0;
}

/* An ISO date (YYYY-MM-DD) or date-time, as the normaliser writes them. */
static int iso_date(const char *text, struct norm_date *d)
{
	size_t len = strlen(text);

	if (len < 10 || text[4] != '-' || text[7] != '-')
		return 0;
	return norm_date_parse(text, len, d, NULL) == NORM_OK;
}

value_kind value_kind_of_field(const char *field, const char *text)
{
	const colmap_field *f = field ? field_named(field) : NULL;
	struct norm_date d;
	double x;

	if (f)
		return value_kind_of_type(f->type);
	if (!text)
		return VALUE_TEXT;
	if (!value_parse_number(text, &x))
		return VALUE_NUMBER;
	if (iso_date(text, &d))
		return VALUE_DATE;
	if (!strcmp(text, "True") || !strcmp(text, "False"))
		return VALUE_BOOL;
	return VALUE_TEXT;
}

/* Digits after the point in a number's text; -1 with an exponent. */
static int decimals_of(const char *text)
{
	const char *point = strchr(text, '.');

	if (strpbrk(text, "eE"))
		return -1;
	return point ? (int)strspn(point + 1, "0123456789") : 0;
}

int value_read(value_kind kind, const char *text, typed_value *v)
{
	memset(v, 0, sizeof(*v));
	v->text = text ? text : "";
	v->kind = kind;
	switch (kind) {
	case VALUE_NUMBER:
		if (value_parse_number(v->text, &v->number))
			break;
		v->decimals = decimals_of(v->text);
		return 0;
	case VALUE_DATE:
		if (norm_date_parse(v->text, strlen(v->text), &v->date, NULL) != NORM_OK)
			break;
		return 0;
	case VALUE_BOOL:
		if (!strcmp(v->text, "True") || !strcmp(v->text, "False")) {
			v->yes = v->text[0] == 'T';
			return 0;
		}
		break;
	default:
		return 0;
	}
	v->kind = VALUE_TEXT;
	return -1;
}

int value_json_number(const char *text, size_t len)
{
	size_t i = 0, start;

	if (i < len && text[i] == '-')
		i++;
	if (i < len && text[i] == '0') {
		i++;
	} else {
		start = i;
		while (i < len && text[i] >= '0' && text[i] <= '9')
			i++;
		if (i == start)
			return 0;
	}
	if (i < len && text[i] == '.') {
		start = ++i;
		while (i < len && text[i] >= '0' && text[i] <= '9')
			i++;
		if (i == start)
			return 0;
	}
	if (i < len && (text[i] == 'e' || text[i] == 'E')) {
		i++;
		if (i < len && (text[i] == '+' || text[i] == '-'))
			i++;
		start = i;
		while (i < len && text[i] >= '0' && text[i] <= '9')
			i++;
		if (i == start)
			return 0;
	}
	return i == len && len > 0;
}

void value_json(const typed_value *v, sbuf *out)
{
	size_t len = strlen(v->text);

	if (v->kind == VALUE_NUMBER && value_json_number(v->text, len))
		sbuf_add(out, v->text, len);
	else if (v->kind == VALUE_BOOL)
		sbuf_adds(out, v->yes ? "true" : "false");
	else
		textout_json_string(out, v->text, len);
}

/* The JSON of text (NUL-terminated) as a value of kind. */
static void json_of_kind(value_kind kind, const char *text, sbuf *out)
{
	typed_value v;

	value_read(kind, text, &v);
	value_json(&v, out);
}

void value_json_text(value_kind kind, const char *text, size_t len, sbuf *out)
{
	char *copy;

	if (!text || !len) {
		sbuf_adds(out, "null");
		return;
	}
	copy = xstrndup(text, len);
	json_of_kind(kind, copy, out);
	free(copy);
}

void value_json_of(const char *field, const char *text, size_t len, sbuf *out)
{
	char *copy;

	if (!text || !len) {
		sbuf_adds(out, "null");
		return;
	}
	copy = xstrndup(text, len);
	json_of_kind(value_kind_of_field(field, copy), copy, out);
	free(copy);
}
