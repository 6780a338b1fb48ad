/*
 * fuzz_header: an export through the header mapping and the row parser
 * (libFuzzer), with the real column map of pipelines/.
 *
 * The input is an export file (plain, gzip or zip). It is opened with
 * parse_open_mem(): the header is mapped onto the column map, and every
 * row is parsed, normalised and either quarantined or encoded as the
 * catalogue stores it. The checks:
 *   - a failed open says why; the columns have names and types;
 *   - a quarantined row has a reason, and its raw CSV reads back as the
 *     fields it came from;
 *   - a loaded row has a name and an occurrence, its cells are valid
 *     UTF-8, and its JSON encoding reads back (json_flat_parse) as exactly
 *     its normalised values;
 *   - store_examine(), fetch's check of a download, agrees with the parse
 *     on the content hash and the number of rows when both accept the body;
 *   - the parse with its records read ahead on a second thread
 *     (parse_read_ahead()) gives the same reports, rows, values, end,
 *     counts and hash.
 * Any failed check aborts: libFuzzer keeps the input as a crash.
 */
#include "fuzz.h"
#include "values/colmap.h"
#include "read/csv.h"
#include "base/json.h"
#include "read/parse.h"
#include "base/paths.h"
#include "read/record.h"
#include "store/store.h"
#include "base/util.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);

/* Cap on decompressed content, for the parse and for store_examine. */
#define FUZZ_MAX_BYTES (16ULL << 20)

static colmap map;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char dir[PATH_MAX];
	mc_err err;

	(void)argc;
	(void)argv;
	setenv("MODELCAT_MAX_INFLATED", "16M", 1);
	paths_data_file(dir, sizeof(dir), "pipelines");
	if (colmap_load(&map, dir, &err)) {
		fprintf(stderr, "fuzz_header: %s (set MODELCAT_DATADIR to the source tree)\n",
			err.msg);
		exit(1);
	}
	return 0;
}

/* Reports go into ctx (an sbuf) when there is one; the text must be a
 * terminated line. */
static void on_report(void *ctx, enum parse_notice kind, const char *message)
{
	(void)kind;
	REQUIRE(message && !strchr(message, '\n'));
	if (ctx)
		sbuf_addf(ctx, "R %s\n", message);
}

/* Parse the input, its records read ahead on a second thread or not, and
 * describe everything that came out into out: reports, each row (line,
 * name and occurrence or the reason, every value), the end, the counts
 * and the content hash. */
static void describe(const uint8_t *data, size_t size, int ahead, sbuf *out)
{
	parse_export *p = NULL;
	parse_row row;
	char sha[65];
	mc_err err;
	size_t i;
	int rc;

	mc_err_clear(&err);
	if (parse_open_mem(&p, data, size, "fuzz.csv", &map, on_report, out, &err)) {
		sbuf_addf(out, "E %s\n", err.msg);
		return;
	}
	if (ahead)
		REQUIRE(parse_read_ahead(p) == 0);
	while ((rc = parse_next(p, &row, &err)) == 1) {
		sbuf_addf(out, "%lu %lu ", row.line, row.position);
		if (row.quarantined)
			sbuf_addf(out, "Q %s\n", row.reason);
		else
			sbuf_addf(out, "%s#%zu\n", row.name, row.occurrence);
		for (i = 0; !row.quarantined && i < row.nvalues; i++) {
			sbuf_addf(out, " %d %zu ", row.values[i].present, row.values[i].norm_len);
			sbuf_add(out, row.values[i].norm, row.values[i].norm_len);
		}
	}
	sbuf_addf(out, "end %d %s %lu %lu\n", rc, rc < 0 ? err.msg : "", parse_rows_read(p),
		  parse_rows_quarantined(p));
	if (rc == 0 && parse_content_sha256(p, sha) == 0)
		sbuf_addf(out, "%s %llu\n", sha, parse_bytes_read(p));
	parse_free(p);
}

/* The same parse with its records read ahead and without. */
static void check_ahead(const uint8_t *data, size_t size)
{
	sbuf plain, ahead;

	sbuf_init(&plain);
	sbuf_init(&ahead);
	describe(data, size, 0, &plain);
	describe(data, size, 1, &ahead);
	REQUIRE(plain.len == ahead.len && !memcmp(plain.data, ahead.data, plain.len));
	sbuf_release(&plain);
	sbuf_release(&ahead);
}

/* The raw CSV of a quarantined row reads back as its fields. */
static void check_raw_csv(const parse_row *row)
{
	csv_reader *r = NULL;
	csv_row back;
	size_t i;
	sbuf raw;

	/* one empty field is a blank line, which is no record; a leading BOM
	 * would be taken as the start of a file's */
	if ((row->nraw == 1 && row->raw_lengths[0] == 0) ||
	    (row->raw_lengths[0] >= 3 && !memcmp(row->raw_fields[0], "\xEF\xBB\xBF", 3)))
		return;
	sbuf_init(&raw);
	parse_row_raw_csv(row, &raw);
	if (!(raw.len >= 2 && (unsigned char)raw.data[0] == 0x1f &&
	      (unsigned char)raw.data[1] == 0x8b) &&
	    !(raw.len >= 4 && !memcmp(raw.data, "PK\3\4", 4))) {
		REQUIRE(csv_open_mem(&r, raw.data, raw.len, "raw", NULL) == 0);
		REQUIRE(csv_next(r, &back, NULL) == 1);
		REQUIRE(back.nfields == row->nraw);
		for (i = 0; i < back.nfields; i++)
			REQUIRE(back.lengths[i] == row->raw_lengths[i] &&
				!memcmp(back.fields[i], row->raw_fields[i], back.lengths[i]));
		REQUIRE(csv_next(r, &back, NULL) == 0);
		csv_free(r);
	}
	sbuf_release(&raw);
}

/* The JSON of a loaded row reads back as its normalised values, and so
 * does its record. */
static void check_json(record_plan *plan, const parse_column *cols, size_t ncols,
		       const parse_row *row)
{
	json_flat obj;
	record_values values;
	size_t i, present = 0;
	sbuf norm, raw;

	sbuf_init(&norm);
	sbuf_init(&raw);
	record_values_init(&values);
	record_encode(plan, row, &norm, &raw, &values);
	REQUIRE(json_flat_parse(&obj, norm.data) == 0);
	for (i = 0; i < ncols; i++) {
		const json_pair *pair;
		const record_field *f;

		if (!row->values[i].present)
			continue;
		present++;
		pair = json_flat_get(&obj, cols[i].field);
		REQUIRE(pair != NULL);
		REQUIRE(pair->len == row->values[i].norm_len &&
			!memcmp(pair->value, row->values[i].norm, pair->len));
		f = record_values_value(&values, cols[i].field);
		REQUIRE(f != NULL && f->norm_len == pair->len &&
			!memcmp(f->norm, pair->value, pair->len));
	}
	REQUIRE(obj.n == present);
	record_values_release(&values);
	json_flat_release(&obj);
	REQUIRE(json_flat_parse(&obj, raw.data) == 0);
	json_flat_release(&obj);
	sbuf_release(&norm);
	sbuf_release(&raw);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	parse_export *p = NULL;
	const parse_column *cols;
	record_plan plan;
	store_content content;
	parse_row row;
	char sha[65];
	mc_err perr, xerr;
	size_t ncols, i;
	unsigned long rows = 0;
	int rc, examined, read_all = 0;

	mc_err_clear(&xerr);
	examined = !store_examine(data, size, "fuzz.csv", &map, FUZZ_MAX_BYTES, &content, &xerr);
	if (!examined)
		REQUIRE(xerr.msg[0] != '\0');
	mc_err_clear(&perr);
	if (parse_open_mem(&p, data, size, "fuzz.csv", &map, on_report, NULL, &perr)) {
		REQUIRE(p == NULL && perr.msg[0] != '\0');
		return 0;
	}
	cols = parse_columns(p, &ncols);
	REQUIRE(ncols >= 1);
	for (i = 0; i < ncols; i++) {
		REQUIRE(cols[i].field && cols[i].field[0] && cols[i].header);
		REQUIRE(cols[i].position == i);
		REQUIRE(!cols[i].declared || cols[i].def);
	}
	record_plan_init(&plan, cols, ncols);
	while ((rc = parse_next(p, &row, &perr)) == 1) {
		REQUIRE(row.position == rows);
		rows++;
		REQUIRE(row.nvalues == ncols && row.name);
		if (row.quarantined) {
			REQUIRE(row.reason && row.reason[0]);
			check_raw_csv(&row);
			continue;
		}
		REQUIRE(row.name[0] && row.occurrence >= 1);
		REQUIRE(row.nraw == ncols);
		for (i = 0; i < row.nraw; i++)
			REQUIRE(mc_utf8_valid(row.raw_fields[i], row.raw_lengths[i], NULL) &&
				!memchr(row.raw_fields[i], '\0', row.raw_lengths[i]));
		check_json(&plan, cols, ncols, &row);
	}
	if (rc == 0) {
		REQUIRE(parse_content_sha256(p, sha) == 0);
		read_all = 1;
	} else {
		REQUIRE(perr.msg[0] != '\0');
	}
	REQUIRE(parse_rows_read(p) == rows);
	REQUIRE(parse_rows_quarantined(p) <= rows);
	if (examined && read_all) {
		REQUIRE(!strcmp(sha, content.sha256));
		REQUIRE(content.rows == rows);
	}
	record_plan_release(&plan);
	parse_free(p);
	check_ahead(data, size);
	return 0;
}
