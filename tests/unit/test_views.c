/*
 * test_views: the typed views of db/views.h. The SQL text made from a
 * column map (quoting, one expression per type, names refused), then the
 * views made from a small map over a catalogue in memory:
 *
 *   2024-01-01  notable: Alpha (A,B; 100; note "n"; open True), Dup (1), Dup (2; 1.5e+21)
 *               all:     Alpha (X; 90; country US), Beta (O"Q)
 *   2024-02-01  notable: Alpha (150; the Note column gone), Dup (1), Dup (2; 1.5e+21)
 *               all:     unchanged rows; Beta gone
 *
 * with notable before all in precedence.
 */
#include "unit.h"
#include "catalogue_fixture.h"
#include "db/load.h"
#include "db/views.h"

#include <string.h>

static void check_quote(const char *text, char quote, const char *want)
{
	sbuf out;

	sbuf_init(&out);
	views_quote(&out, text, quote);
	CHECK_STR(out.data, want, "views_quote(%s, %c)", text, quote);
	sbuf_release(&out);
}

/* the column map's names (a colmap owns writable strings) */
static char F_MODEL[] = "Model", F_ORG[] = "Organization", F_PARAMS[] = "Parameters",
	    F_OPEN[] = "Open", F_NOTE[] = "Note", F_DAY[] = "Day", F_QUOTE[] = "Say \"hi\"",
	    F_EXPORTS[] = "exports";

static colmap_field FIELDS[] = {
	{ F_MODEL, COL_KEY, NULL, 0, 0, NULL, 0, NULL },
	{ F_ORG, COL_LIST, NULL, 0, 0, NULL, 0, NULL },
	{ F_PARAMS, COL_NUMBER, NULL, 0, 0, NULL, 0, NULL },
	{ F_OPEN, COL_BOOL, NULL, 0, 0, NULL, 0, NULL },
	{ F_NOTE, COL_TEXT, NULL, 0, 0, NULL, 0, NULL },
	{ F_DAY, COL_DATE, NULL, 0, 0, NULL, 0, NULL },
};

static colmap map_of(colmap_field *fields, size_t n)
{
	colmap map;

	memset(&map, 0, sizeof(map));
	map.fields = fields;
	map.nfields = n;
	return map;
}

static void test_sql_text(void)
{
	colmap map = map_of(FIELDS, sizeof(FIELDS) / sizeof(*FIELDS));
	colmap_field bad[] = { { F_MODEL, COL_KEY, NULL, 0, 0, NULL, 0, NULL }, { F_QUOTE, COL_TEXT, NULL, 0, 0, NULL, 0, NULL } };
	colmap_field taken[] = { { F_MODEL, COL_KEY, NULL, 0, 0, NULL, 0, NULL }, { F_EXPORTS, COL_TEXT, NULL, 0, 0, NULL, 0, NULL } };
	sbuf models, versions;

	sbuf_init(&models);
	sbuf_init(&versions);
	CHECK(views_sql(&map, &models, &versions, &test_err) == 0, "views_sql: a plain map");
	CHECK(!strncmp(models.data, "CREATE VIEW models AS SELECT\n  m.model AS \"Model\",", 48),
	      "the key column is the model's page name");
	CHECK(strstr(models.data, "CAST(json_extract(m.fields, '$.\"Parameters\"') AS NUMERIC)"
		      " AS \"Parameters\"") != NULL, "a number is cast to NUMERIC");
	CHECK(strstr(models.data, "CASE json_extract(m.fields, '$.\"Open\"') WHEN 'True' THEN 1"
		      " WHEN 'False' THEN 0 END AS \"Open\"") != NULL, "a bool becomes 1 or 0");
	CHECK(strstr(models.data, "json('[' || replace(json_quote(json_extract(m.fields,"
		      " '$.\"Organization\"')), ',', '\",\"') || ']')") != NULL,
	      "a list becomes a JSON array");
	CHECK(strstr(models.data, "json_extract(m.fields, '$.\"Day\"') AS \"Day\"") != NULL,
	      "a date stays text");
	CHECK(strstr(models.data, "AS \"Other fields\",\n  m.last_updated AS \"Last updated\",\n"
		      "  m.exports AS \"Exports\"\nFROM model_now m") != NULL,
	      "models ends with the added columns, from model_now");
	CHECK(strstr(versions.data, "m.valid_from AS valid_from,\n  m.valid_to AS valid_to\n"
		      "FROM model_history m") != NULL, "model_versions adds the dates, from model_history");
	map = map_of(bad, 2);
	CHECK(views_sql(&map, &models, &versions, &test_err) == -1 &&
	      strstr(test_err.msg, "'Say \"hi\"'") != NULL, "a name with a double quote is refused: %s",
	      test_err.msg);
	map = map_of(taken, 2);
	CHECK(views_sql(&map, &models, &versions, &test_err) == -1 &&
	      strstr(test_err.msg, "already") != NULL, "a name the views add is refused: %s",
	      test_err.msg);
	sbuf_release(&models);
	sbuf_release(&versions);
}

/* ---- the views over a catalogue ---- */

typedef struct row_spec {
	const char *name;
	size_t occurrence;
	const char *norm;
} row_spec;

static const load_column NOTABLE_JAN_COLS[] = {
	{ "Model", "Model", "key", 1, 0 }, { "Organization", "Organization", "list", 1, 0 },
	{ "Parameters", "Parameters", "number", 1, 0 }, { "Open", "Open", "bool", 1, 0 },
	{ "Note", "Note", "text", 1, 0 },
};
static const load_column ALL_COLS[] = {
	{ "Model", "Model", "key", 1, 0 }, { "Organization", "Organization", "list", 1, 0 },
	{ "Parameters", "Parameters", "number", 1, 0 }, { "Country", "Country", "text", 0, 0 },
};
static const row_spec NOTABLE_JAN[] = {
	{ "Alpha", 1, "{\"Model\":\"Alpha\",\"Note\":\"n\",\"Open\":\"True\",\"Organization\":\"A,B\","
		      "\"Parameters\":\"100\"}" },
	{ "Dup", 1, "{\"Model\":\"Dup\",\"Parameters\":\"1\"}" },
	{ "Dup", 2, "{\"Model\":\"Dup\",\"Parameters\":\"1.5e+21\"}" },
};
static const row_spec NOTABLE_FEB[] = {
	{ "Alpha", 1, "{\"Model\":\"Alpha\",\"Open\":\"True\",\"Organization\":\"A,B\","
		      "\"Parameters\":\"150\"}" },
	{ "Dup", 1, "{\"Model\":\"Dup\",\"Parameters\":\"1\"}" },
	{ "Dup", 2, "{\"Model\":\"Dup\",\"Parameters\":\"1.5e+21\"}" },
};
static const row_spec ALL_JAN[] = {
	{ "Alpha", 1, "{\"Country\":\"US\",\"Model\":\"Alpha\",\"Organization\":\"X\",\"Parameters\":\"90\"}" },
	{ "Beta", 1, "{\"Model\":\"Beta\",\"Organization\":\"O\\\"Q\"}" },
};

static int load_export(load *ld, const char *name, const load_column *cols, size_t ncols,
		       const row_spec *rows, size_t nrows)
{
	load_row row;
	load_stats st;
	size_t i;
	int same;

	if (load_export_begin(ld, name, name, "", 0, cols, ncols, &same, &test_err))
		return -1;
	for (i = 0; i < nrows; i++) {
		memset(&row, 0, sizeof(row));
		row.line = i + 2;
		row.position = i;
		row.name = rows[i].name;
		row.raw_csv = rows[i].name;
		row.occurrence = rows[i].occurrence;
		row.norm_json = rows[i].norm;
		row.raw_json = "{}";
		if (load_row_add(ld, &row, &test_err))
			return -1;
	}
	return load_export_end(ld, &st, &test_err);
}

static int load_day(catalogue *cat, const char *day, const row_spec *notable, size_t nn,
		    const load_column *ncols, size_t nncols, const row_spec *all, size_t na)
{
	static char notable_name[] = "notable", all_name[] = "all";
	char *const order[] = { notable_name, all_name };
	load *ld;

	if (load_begin(cat, &ld, day, &test_err))
		return -1;
	if (load_precedence(ld, order, 2, &test_err) ||
	    load_export(ld, "notable", ncols, nncols, notable, nn) ||
	    load_export(ld, "all", ALL_COLS, 4, all, na)) {
		load_abort(ld);
		return -1;
	}
	return load_commit(ld, &test_err);
}

/* The rows of sql (no parameters) as "a|b|c" lines joined with "; ". */
static void query(catalogue *cat, const char *sql, sbuf *out)
{
	sqlite3_stmt *st = NULL;
	int i;

	sbuf_reset(out);
	if (catalogue_prepare(cat, &st, sql, &test_err)) {
		sbuf_addf(out, "error: %s", test_err.msg);
		return;
	}
	while (sqlite3_step(st) == SQLITE_ROW) {
		if (out->len)
			sbuf_adds(out, "; ");
		for (i = 0; i < sqlite3_column_count(st); i++) {
			const char *v = (const char *)sqlite3_column_text(st, i);

			sbuf_addf(out, "%s%s", i ? "|" : "", v ? v : "NULL");
		}
	}
	sqlite3_finalize(st);
}

static void test_views_over_data(void)
{
	colmap map = map_of(FIELDS, sizeof(FIELDS) / sizeof(*FIELDS));
	catalogue cat;
	sbuf models, versions, out;

	sbuf_init(&models);
	sbuf_init(&versions);
	sbuf_init(&out);
	if (!CHECK(cat_open(&cat) == 0, "open a catalogue in memory: %s", cat_error(&cat)))
		return;
	CHECK(load_day(&cat, "2024-01-01", NOTABLE_JAN, 3, NOTABLE_JAN_COLS, 5, ALL_JAN, 2) == 0 &&
	      load_day(&cat, "2024-02-01", NOTABLE_FEB, 3, NOTABLE_JAN_COLS, 4, ALL_JAN, 1) == 0,
	      "load two snapshots: %s", test_err.msg);
	query(&cat, "SELECT count(*) FROM sqlite_master WHERE name IN ('models', 'model_versions')", &out);
	CHECK_STR(out.data, "2", "a load makes both views");
	CHECK(views_sql(&map, &models, &versions, &test_err) == 0 &&
	      catalogue_exec(&cat, "DROP VIEW models; DROP VIEW model_versions", &test_err) == 0 &&
	      catalogue_exec(&cat, models.data, &test_err) == 0 &&
	      catalogue_exec(&cat, versions.data, &test_err) == 0, "make the test map's views: %s",
	      test_err.msg);

	query(&cat, "SELECT * FROM models ORDER BY \"Model\"", &out);
	CHECK_STR(out.data,
		  "Alpha|[\"A\",\"B\"]|150|1|NULL|NULL|{\"Country\":\"US\"}|2024-02-01|[\"notable\",\"all\"]; "
		  "Dup|NULL|1|NULL|NULL|NULL|NULL|2024-01-01|[\"notable\"]; "
		  "Dup#2|NULL|1.5e+21|NULL|NULL|NULL|NULL|2024-01-01|[\"notable\"]",
		  "models: merged by precedence, a dropped column hidden, a repeated name apart, "
		  "others in Other fields");
	query(&cat, "SELECT typeof(\"Parameters\"), typeof(\"Open\") FROM models ORDER BY \"Model\"", &out);
	CHECK_STR(out.data, "integer|integer; integer|null; real|null", "numbers and bools are typed");
	query(&cat, "SELECT \"Model\", \"Organization\", json_array_length(\"Organization\"), valid_from,"
		    " coalesce(valid_to, '-') FROM model_versions ORDER BY \"Model\", valid_from", &out);
	CHECK_STR(out.data,
		  "Alpha|[\"A\",\"B\"]|2|2024-01-01|2024-02-01; Alpha|[\"A\",\"B\"]|2|2024-02-01|-; "
		  "Beta|[\"O\\\"Q\"]|1|2024-01-01|2024-02-01; "
		  "Dup|NULL|NULL|2024-01-01|-; Dup#2|NULL|NULL|2024-01-01|-",
		  "model_versions: a state per change, a removed model closed, a quote in a list item kept");
	query(&cat, "SELECT \"Model\", \"Parameters\", \"Note\" FROM model_versions"
		    " WHERE valid_from <= '2024-01-15' AND (valid_to IS NULL OR valid_to > '2024-01-15')"
		    " ORDER BY \"Model\"", &out);
	CHECK_STR(out.data, "Alpha|100|n; Beta|NULL|NULL; Dup|1|NULL; Dup#2|1.5e+21|NULL",
		  "as of a day between the snapshots");
	catalogue_close(&cat);
	sbuf_release(&models);
	sbuf_release(&versions);
	sbuf_release(&out);
}

int main(void)
{
	check_quote("plain", '"', "\"plain\"");
	check_quote("say \"hi\"", '"', "\"say \"\"hi\"\"\"");
	check_quote("it's", '\'', "'it''s'");
	check_quote("", '\'', "''");
	test_sql_text();
	test_views_over_data();
	return unit_done();
}
