/*
 * A row made into a record and its JSON (record_encode), for every row of
 * the real exports in snapshots/ and for numbers past 15 significant
 * digits:
 *   - each field of the record is the row's cell: its value and the cell
 *     as read, whether it points into the JSON or into the row;
 *   - the record read back from its JSON (record_values_read: what the
 *     catalogue stores) is the same record, field by field;
 *   - its compared form (record_values_compared), written from its values,
 *     is the compared form of its norm JSON (record_compared), which the
 *     catalogue computed from stored versions: a version's digest is the
 *     same whichever it is made from.
 */
#include "values/colmap.h"
#include "compared_oracle.h"
#include "read/parse.h"
#include "read/record.h"
#include "unit.h"

#include <glob.h>
#include <stdlib.h>
#include <string.h>

/* record_number_fn over the export's columns */
typedef struct {
	const parse_column *cols;
	size_t n;
} columns;

static enum colmap_type type_of(void *ctx, const char *field)
{
	const columns *c = ctx;
	size_t i;

	for (i = 0; i < c->n; i++)
		if (!strcmp(c->cols[i].field, field))
			return c->cols[i].type;
	return COL_TEXT;
}

static int is_number(void *ctx, const char *field)
{
	return type_of(ctx, field) == COL_NUMBER;
}

static int same_bytes(const char *a, size_t alen, const char *b, size_t blen)
{
	return alen == blen && (!alen || !memcmp(a, b, alen));
}

/* Is the record the row's cells, sorted by field? "" or what differs. */
static const char *record_is_row(const record_values *r, const parse_row *row,
				 const columns *c)
{
	size_t i, n = 0;

	for (i = 0; i + 1 < r->n; i++)
		if (strcmp(r->fields[i].name, r->fields[i + 1].name) > 0)
			return "fields out of order";
	for (i = 0; i < c->n; i++) {
		const parse_value *v = &row->values[i];
		const record_field *f = v->present ? record_values_value(r, c->cols[i].field) : NULL;

		if (!v->present && !v->raw_len)
			continue;
		n++;
		if (v->present && (!f || !same_bytes(f->norm, f->norm_len, v->norm, v->norm_len)))
			return "a value is not the cell's";
		if (f && (f->type != c->cols[i].type ||
			  !same_bytes(f->raw, f->raw_len, v->raw, v->raw_len)))
			return "a field's type or cell is not the column's";
	}
	return n == r->n ? "" : "fields that are no cell's";
}

/* Are two records the same, field by field? */
static int same_record(const record_values *a, const record_values *b)
{
	size_t i;

	if (a->n != b->n)
		return 0;
	for (i = 0; i < a->n; i++) {
		const record_field *f = &a->fields[i], *g = &b->fields[i];

		if (strcmp(f->name, g->name) || f->type != g->type || !f->norm != !g->norm ||
		    (f->norm && !same_bytes(f->norm, f->norm_len, g->norm, g->norm_len)) ||
		    !same_bytes(f->raw, f->raw_len, g->raw, g->raw_len))
			return 0;
	}
	return 1;
}

/* One row's checks: "" or the first that fails. */
static const char *check_row(record_plan *plan, const parse_row *row, const columns *c,
			     sbuf *norm, sbuf *raw, sbuf *direct, sbuf *parsed,
			     record_values *values, record_values *back, const char **got)
{
	const char *why;

	sbuf_reset(norm);
	sbuf_reset(raw);
	record_encode(plan, row, norm, raw, values);
	why = record_is_row(values, row, c);
	if (*why)
		return why;
	if (record_values_read(back, norm->data, raw->data, type_of, (void *)c) ||
	    !same_record(values, back))
		return "the record read back from its JSON is another";
	*got = record_values_compared(values, norm->data, direct);
	sbuf_reset(parsed);
	if (record_compared(norm->data, is_number, (void *)c, parsed) || strcmp(*got, parsed->data))
		return "the compared forms differ";
	return "";
}

/* Compare both forms on every row that is not quarantined; *rows and
 * *differ (rows whose compared form is not their norm JSON) are added to.
 * The number of rows where the two disagree. */
static size_t compare_rows(parse_export *p, size_t *rows, size_t *differ, sbuf *first)
{
	record_plan plan;
	record_values values, back;
	columns c;
	parse_row row;
	sbuf norm, raw, direct, parsed;
	mc_err err;
	size_t bad = 0;
	int step;

	c.cols = parse_columns(p, &c.n);
	record_plan_init(&plan, c.cols, c.n);
	sbuf_init(&norm);
	sbuf_init(&raw);
	sbuf_init(&direct);
	sbuf_init(&parsed);
	record_values_init(&values);
	record_values_init(&back);
	while ((step = parse_next(p, &row, &err)) == 1) {
		const char *got = NULL, *why;

		if (row.quarantined)
			continue;
		why = check_row(&plan, &row, &c, &norm, &raw, &direct, &parsed, &values, &back,
				&got);
		if (*why) {
			if (!bad++ && first)
				sbuf_addf(first, "line %lu: %s: %s", row.line, why, norm.data);
			continue;
		}
		(*rows)++;
		*differ += got != norm.data;
	}
	record_values_release(&values);
	record_values_release(&back);
	sbuf_release(&norm);
	sbuf_release(&raw);
	sbuf_release(&direct);
	sbuf_release(&parsed);
	record_plan_release(&plan);
	if (step < 0)
		printf("# %s\n", err.msg);
	return bad;
}

static void check_real(const colmap *map)
{
	glob_t files;
	size_t i, rows = 0, differ = 0, bad = 0;
	sbuf first;

	sbuf_init(&first);
	if (!CHECK(glob("snapshots/*/*.csv.gz", 0, NULL, &files) == 0, "snapshots/*/*.csv.gz found"))
		return;
	for (i = 0; i < files.gl_pathc; i++) {
		char export_name[256];
		const char *path = files.gl_pathv[i] + strlen("snapshots/");
		parse_export *p;
		mc_err err;

		snprintf(export_name, sizeof(export_name), "%.*s", (int)strcspn(path, "/"), path);
		if (!CHECK(parse_open(&p, files.gl_pathv[i], colmap_for_export(map, export_name),
				      NULL, NULL, 0, &err) == 0, "open %s", files.gl_pathv[i]))
			continue;
		bad += compare_rows(p, &rows, &differ, &first);
		parse_free(p);
	}
	CHECK(bad == 0, "the record is the row's cells, reads back from its JSON as itself, and"
	      " its compared form is that of its norm JSON on every row of %zu exports (%zu rows,"
	      " %zu not)%s%s", files.gl_pathc, rows, bad, bad ? ": " : "", bad ? first.data : "");
	/* the exports hold numbers past 15 digits (computed compute and cost
	 * estimates): the rows that take the second path are many */
	CHECK(rows > 8000 && differ > 100, "rows compared: %zu, of which %zu have a number past"
	      " 15 digits", rows, differ);
	globfree(&files);
	sbuf_release(&first);
}

static void check_long_numbers(const colmap *map)
{
	static const char csv[] =
		"Model,Parameters,Training compute (FLOP),Organization\n"
		"A,783480.3837556645,1e+24,\"Org, \"\"quoted\"\"\"\n"
		"B,0.30000000000000004,2.104e+23,Org\n"
		"C,12,3.5e+20,Org\n";
	parse_export *p;
	parse_row row;
	record_plan plan;
	record_values values;
	const parse_column *cols;
	const char *got;
	size_t n, rows = 0, differ = 0;
	sbuf norm, raw, out;
	mc_err err;

	if (!CHECK(parse_open_mem(&p, csv, sizeof(csv) - 1, "long.csv", colmap_for_export(map,
				  "all_ai_models"), NULL, NULL, &err) == 0, "open the crafted export"))
		return;
	cols = parse_columns(p, &n);
	record_plan_init(&plan, cols, n);
	sbuf_init(&norm);
	sbuf_init(&raw);
	sbuf_init(&out);
	record_values_init(&values);
	/* A: 783480.3837556645 is 783480.383755665 at 15 digits, as a
	 * spreadsheet writes it when it saves the sheet again (read/normalise.c) */
	CHECK(parse_next(p, &row, &err) == 1, "row A read");
	record_encode(&plan, &row, &norm, &raw, &values);
	CHECK(strstr(norm.data, "\"783480.3837556645\"") != NULL, "A's norm JSON keeps 16 digits: %s",
	      norm.data);
	got = record_values_compared(&values, norm.data, &out);
	CHECK(strstr(got, "\"Parameters\":\"783480.383755665\"") != NULL,
	      "its compared form has 15: %s", got);
	CHECK(strstr(got, "\\\"quoted\\\"") != NULL, "a text field keeps its JSON escapes: %s", got);
	parse_free(p);
	/* and all three rows agree with record_compared */
	if (parse_open_mem(&p, csv, sizeof(csv) - 1, "long.csv", colmap_for_export(map,
			   "all_ai_models"), NULL, NULL, &err) == 0) {
		size_t bad = compare_rows(p, &rows, &differ, NULL);

		CHECK(bad == 0 && rows == 3 && differ == 2,
		      "the crafted rows agree (%zu rows, %zu past 15 digits, %zu disagree)", rows,
		      differ, bad);
		parse_free(p);
	}
	sbuf_release(&norm);
	sbuf_release(&raw);
	sbuf_release(&out);
	record_values_release(&values);
	record_plan_release(&plan);
}

int main(void)
{
	colmap map;

	if (!CHECK(colmap_load(&map, "pipelines", NULL) == 0, "load the column map"))
		return unit_done();
	check_long_numbers(&map);
	check_real(&map);
	colmap_release(&map);
	return unit_done();
}
