/*
 * A row's compared form (record_encode_compared), written from its values,
 * is the compared form of its norm JSON (record_compared), which the
 * catalogue computes from stored versions: for every row of the real
 * exports in snapshots/, and for numbers past 15 significant digits.
 */
#include "values/colmap.h"
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

static int is_number(void *ctx, const char *field)
{
	const columns *c = ctx;
	size_t i;

	for (i = 0; i < c->n; i++)
		if (!strcmp(c->cols[i].field, field))
			return c->cols[i].type == COL_NUMBER;
	return 0;
}

/* Compare both forms on every row that is not quarantined; *rows and
 * *differ (rows whose compared form is not their norm JSON) are added to.
 * The number of rows where the two disagree. */
static size_t compare_rows(parse_export *p, size_t *rows, size_t *differ, sbuf *first)
{
	record_plan plan;
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
	while ((step = parse_next(p, &row, &err)) == 1) {
		const char *got;

		if (row.quarantined)
			continue;
		sbuf_reset(&norm);
		sbuf_reset(&raw);
		record_encode(&plan, &row, &norm, &raw);
		got = record_encode_compared(&plan, &row, norm.data, &direct);
		sbuf_reset(&parsed);
		if (record_compared(norm.data, is_number, &c, &parsed) || strcmp(got, parsed.data)) {
			if (!bad++ && first)
				sbuf_addf(first, "%s\n  vs %s", got, parsed.data);
			continue;
		}
		(*rows)++;
		*differ += got != norm.data;
	}
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
	CHECK(bad == 0, "the compared form written from the values is that of the norm JSON on"
	      " every row of %zu exports (%zu rows, %zu disagree)%s%s", files.gl_pathc, rows, bad,
	      bad ? ": " : "", bad ? first.data : "");
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
	/* A: 783480.3837556645 is 783480.383755665 at 15 digits, as a
	 * spreadsheet writes it when it saves the sheet again (read/normalise.c) */
	CHECK(parse_next(p, &row, &err) == 1, "row A read");
	record_encode(&plan, &row, &norm, &raw);
	CHECK(strstr(norm.data, "\"783480.3837556645\"") != NULL, "A's norm JSON keeps 16 digits: %s",
	      norm.data);
	got = record_encode_compared(&plan, &row, norm.data, &out);
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
