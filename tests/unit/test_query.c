/*
 * test_query: reading a small catalogue back through db/query.h: a model
 * as of a date merged across exports by precedence (docs/history.md,
 * "Several exports, one model"), a renamed model found under the name it
 * had, a repeated name's nth row, a model's history, the difference of
 * two dates and of two snapshots, the last two snapshots, and an export
 * as it stood. The catalogue, in memory with the migrations of sql/:
 *
 *   2024-01-01  notable: Alpha (A, 100), OldName (5), Dup (1), Dup (2)
 *               all:     Alpha (A Corp, 100, US), Beta (7)
 *   2024-02-01  notable: Alpha (A, 150), Old-Name (5), Dup (1), Dup (2),
 *                        Gamma (3), a quarantined row "Broken"
 *               all:     Alpha as before; Beta gone
 *
 * with notable before all in precedence. Then the same in a file with a
 * second connection writing: what the first keeps between lookups (the
 * headers, the exports' key fields) follows the other's commit.
 */
#include "unit.h"
#include "base/sbuf.h"
#include "base/alloc.h"
#include "base/printf.h"
#include "catalogue_fixture.h"
#include "db/load.h"
#include "db/query.h"
#include "db/history.h"
#include "cli/historyout.h"
#include "publish/exportcsv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- the calls into the library, kept here so that a change of its
 * error convention touches only these few lines ---- */

static int q_model(catalogue *cat, const char *name, const char *as_of, model_view *m)
{
	return query_model(cat, name, as_of, m, &test_err);
}

/* query_model_next() through a scan of that one name (how == 1), which
 * finds the model in the scan or looks it up as query_model() does. */
static int q_model_scan(catalogue *cat, const char *name, const char *as_of, model_view *m)
{
	model_scan *s;
	int rc;

	if (query_scan_open(cat, as_of, name, name, &s, &test_err))
		return -1;
	rc = query_model_next(s, name, m, &test_err);
	query_scan_close(s);
	return rc;
}

/* The history of name as `modelcat history` prints it. */
static int q_history(catalogue *cat, const char *name, sbuf *out)
{
	history h;
	int rc = history_read(cat, name, &h, &test_err);

	if (!rc)
		historyout_text(&h, out);
	history_release(&h);
	return rc;
}

static int q_diff(catalogue *cat, const char *from, const char *to, diff_result *d)
{
	return query_diff(cat, from, to, d, &test_err);
}

static int q_diff_snapshots(catalogue *cat, sqlite3_int64 from, sqlite3_int64 to,
			    diff_result *d)
{
	return query_diff_snapshots(cat, from, to, d, &test_err);
}

static int q_last_two(catalogue *cat, char from[11], char to[11])
{
	return query_last_two(cat, from, to, &test_err);
}

static int q_export(catalogue *cat, const char *export_name, const char *as_of, sbuf *out)
{
	return exportcsv_write(cat, export_name, as_of, out, &test_err);
}

/* One export of a snapshot: rows given as name, occurrence, normalised
 * values (NULL: quarantined). */
typedef struct row_spec {
	const char *name;
	size_t occurrence;
	const char *norm;
} row_spec;

typedef struct export_spec {
	const char *name;
	const load_column *cols;
	size_t ncols;
	const row_spec *rows;
	size_t nrows;
} export_spec;

/* A snapshot of several exports, with the precedence notable, all. */
static int load_snapshot(catalogue *cat, const char *as_of, const export_spec *ex, size_t nex)
{
	static char notable[] = "notable", all[] = "all";
	char *const order[] = { notable, all };
	load *ld;
	load_row row;
	load_stats st;
	size_t e, i;
	int same;

	if (load_begin(cat, &ld, as_of, &test_err))
		return -1;
	if (load_precedence(ld, order, 2, &test_err))
		goto fail;
	for (e = 0; e < nex; e++) {
		if (load_export_begin(ld, ex[e].name, ex[e].name, "", 0, ex[e].cols, ex[e].ncols,
				      &same, &test_err))
			goto fail;
		for (i = 0; i < ex[e].nrows; i++) {
			const row_spec *r = &ex[e].rows[i];

			memset(&row, 0, sizeof(row));
			row.line = i + 2;
			row.position = i;
			row.name = r->name;
			row.raw_csv = r->name;
			if (r->norm) {
				row.occurrence = r->occurrence;
				row.norm_json = r->norm;
				row.raw_json = "{}";
			} else {
				row.quarantined = 1;
				row.fault_field = "Publication date";
				row.reason = "Publication date: not a date";
			}
			if (load_row_add(ld, &row, &test_err))
				goto fail;
		}
		if (load_export_end(ld, &st, &test_err))
			goto fail;
	}
	return load_commit(ld, &test_err);
fail:
	load_abort(ld);
	return -1;
}

/* ---- the catalogue ---- */

static const load_column NOTABLE_COLS[] = {
	FIXTURE_COLUMNS,
};
static const load_column ALL_COLS[] = {
	FIXTURE_COLUMNS,
	{ "Country", "Country", "text", 1, 0 },
};
#define N(a) (sizeof(a) / sizeof((a)[0]))

static const row_spec NOTABLE_JAN[] = {
	{ "Alpha", 1, "{\"Model\":\"Alpha\",\"Organization\":\"A\",\"Parameters\":\"100\"}" },
	{ "OldName", 1, "{\"Model\":\"OldName\",\"Parameters\":\"5\"}" },
	{ "Dup", 1, "{\"Model\":\"Dup\",\"Parameters\":\"1\"}" },
	{ "Dup", 2, "{\"Model\":\"Dup\",\"Parameters\":\"2\"}" },
};
static const row_spec ALL_JAN[] = {
	{ "Alpha", 1, "{\"Country\":\"US\",\"Model\":\"Alpha\",\"Organization\":\"A Corp\","
		      "\"Parameters\":\"100\"}" },
	{ "Beta", 1, "{\"Model\":\"Beta\",\"Parameters\":\"7\"}" },
};
static const row_spec NOTABLE_FEB[] = {
	{ "Alpha", 1, "{\"Model\":\"Alpha\",\"Organization\":\"A\",\"Parameters\":\"150\"}" },
	{ "Old-Name", 1, "{\"Model\":\"Old-Name\",\"Parameters\":\"5\"}" },
	{ "Dup", 1, "{\"Model\":\"Dup\",\"Parameters\":\"1\"}" },
	{ "Dup", 2, "{\"Model\":\"Dup\",\"Parameters\":\"2\"}" },
	{ "Gamma", 1, "{\"Model\":\"Gamma\",\"Parameters\":\"3\"}" },
	{ "Broken", 0, NULL },
};
static const row_spec ALL_FEB[] = {
	{ "Alpha", 1, "{\"Country\":\"US\",\"Model\":\"Alpha\",\"Organization\":\"A Corp\","
		      "\"Parameters\":\"100\"}" },
};

static const export_spec JAN[] = {
	{ "notable", NOTABLE_COLS, N(NOTABLE_COLS), NOTABLE_JAN, N(NOTABLE_JAN) },
	{ "all", ALL_COLS, N(ALL_COLS), ALL_JAN, N(ALL_JAN) },
};
static const export_spec FEB[] = {
	{ "notable", NOTABLE_COLS, N(NOTABLE_COLS), NOTABLE_FEB, N(NOTABLE_FEB) },
	{ "all", ALL_COLS, N(ALL_COLS), ALL_FEB, N(ALL_FEB) },
};

/* The same catalogue in a file, for two connections: all's key column is
 * System from 2024-02-01, so its Alpha is no longer of notable's family. */
static const load_column SYSTEM_COLS[] = {
	{ "System", "System", "key", 1, 0 },
	{ "Parameters", "Parameters", "number", 1, 0 },
};
static const row_spec ALL_SYSTEM[] = {
	{ "Alpha", 1, "{\"Parameters\":\"9\",\"System\":\"Alpha\"}" },
};
static const export_spec FEB_SYSTEM[] = {
	{ "notable", NOTABLE_COLS, N(NOTABLE_COLS), NOTABLE_FEB, N(NOTABLE_FEB) },
	{ "all", SYSTEM_COLS, N(SYSTEM_COLS), ALL_SYSTEM, N(ALL_SYSTEM) },
};

/* ---- answers as text, to compare whole ---- */

/* "field=value (export since)" joined by "; " */
static const char *values_text(const model_view *m)
{
	static char out[2048];
	size_t i, len = 0;

	out[0] = '\0';
	for (i = 0; i < m->values.n && len < sizeof(out); i++)
		len += (size_t)snprintf(out + len, sizeof(out) - len, "%s%s=%s (%s %s)",
					i ? "; " : "", m->values.items[i].field,
					m->values.items[i].value, m->values.items[i].export,
					m->values.items[i].since);
	return out;
}

static const char *exports_text(char **items, size_t n)
{
	static char out[512];
	size_t i, len = 0;

	out[0] = '\0';
	for (i = 0; i < n && len < sizeof(out); i++)
		len += (size_t)snprintf(out + len, sizeof(out) - len, "%s%s", i ? "," : "", items[i]);
	return out;
}

/* "export:name" (renames "export:old>new") joined by "," */
static const char *models_text(const diff_model *items, size_t n)
{
	static char out[1024];
	size_t i, len = 0;

	out[0] = '\0';
	for (i = 0; i < n && len < sizeof(out); i++)
		len += (size_t)snprintf(out + len, sizeof(out) - len, "%s%s:%s%s%s",
					i ? "," : "", items[i].export,
					items[i].old_name ? items[i].old_name : "",
					items[i].old_name ? ">" : "", items[i].name);
	return out;
}

static const diff_model *find_model(const diff_model *items, size_t n, const char *export_name,
				    const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(items[i].export, export_name) && !strcmp(items[i].name, name))
			return &items[i];
	return NULL;
}

/* The id of the snapshot dated as_of, 0 if none. */
static sqlite3_int64 snapshot_id(catalogue *cat, const char *as_of)
{
	sqlite3_stmt *st;
	sqlite3_int64 id = 0;

	if (sqlite3_prepare_v2(cat->db, "SELECT id FROM snapshot WHERE as_of = ?", -1, &st,
			       NULL) != SQLITE_OK)
		return 0;
	sqlite3_bind_text(st, 1, as_of, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return id;
}

static size_t count_lines(const char *text)
{
	size_t n = 0;

	for (; *text; text++)
		n += *text == '\n';
	return n;
}

/* ---- the tests ---- */

/* With table: each lookup takes its dates from a table of every record's
 * (query_updated_read) for its date, as a publication's do. With scan,
 * each goes through a scan of its name (q_model_scan()). */
static void test_model(catalogue *cat, int table, int scan)
{
	static const struct {
		const char *name;
		const char *as_of;
		int rc;              /* 0 found, 1 not */
		const char *shown;   /* the name it had on the date */
		const char *values;
		const char *exports;
		const char *last_updated;
		const char *why;
	} cases[] = {
		{ "Alpha", "2024-01-15", 0, "Alpha",
		  "Model=Alpha (notable 2024-01-01); Organization=A (notable 2024-01-01); "
		  "Parameters=100 (notable 2024-01-01); Country=US (all 2024-01-01)",
		  "notable,all", "2024-01-01",
		  "each field from the best export that has it, the others' fields after" },
		{ "Alpha", "2024-02-01", 0, "Alpha",
		  "Model=Alpha (notable 2024-02-01); Organization=A (notable 2024-02-01); "
		  "Parameters=150 (notable 2024-02-01); Country=US (all 2024-01-01)",
		  "notable,all", "2024-02-01", "the changed value from its date on" },
		{ "Alpha", "2023-12-31", 1, NULL, NULL, NULL, NULL, "nothing before the first load" },
		{ "Beta", "2024-01-31", 0, "Beta", "Model=Beta (all 2024-01-01); Parameters=7 (all 2024-01-01)",
		  "all", "2024-01-01", "a model of one export" },
		{ "Beta", "2024-02-01", 1, NULL, NULL, NULL, NULL, "a removed model is not shown" },
		{ "Gamma", "2024-01-31", 1, NULL, NULL, NULL, NULL, "not yet added" },
		{ "Gamma", "2024-02-01", 0, "Gamma",
		  "Model=Gamma (notable 2024-02-01); Parameters=3 (notable 2024-02-01)",
		  "notable", "2024-02-01", "added on the date" },
		{ "Dup", "2024-02-01", 0, "Dup",
		  "Model=Dup (notable 2024-01-01); Parameters=1 (notable 2024-01-01)",
		  "notable", "2024-01-01", "a repeated name: its first row" },
		{ "Dup#2", "2024-02-01", 0, "Dup",
		  "Model=Dup (notable 2024-01-01); Parameters=2 (notable 2024-01-01)",
		  "notable", "2024-01-01", "NAME#2: the second row" },
		{ "Dup#3", "2024-02-01", 1, NULL, NULL, NULL, NULL, "no third row" },
		{ "Old-Name", "2024-01-15", 0, "OldName",
		  "Model=OldName (notable 2024-01-01); Parameters=5 (notable 2024-01-01)",
		  "notable", "2024-01-01", "the new name before the rename: the name it had then" },
		{ "OldName", "2024-02-01", 0, "Old-Name",
		  "Model=Old-Name (notable 2024-02-01); Parameters=5 (notable 2024-02-01)",
		  "notable", "2024-02-01", "the old name after the rename: the name it has then" },
		{ "Nobody", "2024-02-01", 1, NULL, NULL, NULL, NULL, "a name never held" },
	};
	size_t i;

	for (i = 0; i < N(cases); i++) {
		query_updated u;
		model_view m;
		int rc;

		if (table) {
			CHECK(query_updated_read(cat, cases[i].as_of, &u, &test_err) == 0,
			      "the last-updated dates of %s are read", cases[i].as_of);
			query_updated_use(cat, &u);
		}
		rc = (scan ? q_model_scan : q_model)(cat, cases[i].name, cases[i].as_of, &m);
		if (table) {
			query_updated_use(cat, NULL);
			query_updated_release(&u);
		}

		if (!CHECK(rc == cases[i].rc, "show %s as of %s: %s (rc %d, want %d) %s",
			   cases[i].name, cases[i].as_of, cases[i].rc ? "not found" : "found", rc,
			   cases[i].rc, rc < 0 ? cat_error(cat) : "")) {
			model_view_release(&m);
			continue;
		}
		if (rc == 0) {
			CHECK_STR(m.name, cases[i].shown, "show %s as of %s: named %s", cases[i].name,
				  cases[i].as_of, cases[i].shown);
			CHECK_STR(values_text(&m), cases[i].values, "show %s as of %s: %s",
				  cases[i].name, cases[i].as_of, cases[i].why);
			CHECK_STR(exports_text(m.exports.items, m.exports.n), cases[i].exports,
				  "show %s as of %s: exports by precedence", cases[i].name,
				  cases[i].as_of);
			CHECK_STR(m.last_updated, cases[i].last_updated,
				  "show %s as of %s: last updated", cases[i].name, cases[i].as_of);
			CHECK_STR(m.as_of, cases[i].as_of, "show %s: the date is kept", cases[i].name);
			{
				size_t k, placed = 0;

				for (k = 0; k < m.values.n; k++) {
					const char *f = m.values.items[k].field;
					const size_t *at = strmap_find(&m.fields, f, strlen(f));

					placed += at && *at == k + 1;
				}
				CHECK(m.fields.count == m.values.n && placed == m.values.n,
				      "show %s as of %s: each of the %zu fields mapped to its place",
				      cases[i].name, cases[i].as_of, m.values.n);
			}
		}
		model_view_release(&m);
	}
}

/* A model as text, whole: its name, date, values with their sources,
 * exports and last-updated date ("-" when not found). */
static char *model_text(int rc, const model_view *m)
{
	sbuf t;
	size_t i;

	sbuf_init(&t);
	if (rc) {
		sbuf_addf(&t, "rc %d", rc);
		return sbuf_detach(&t, NULL);
	}
	sbuf_addf(&t, "%s %s %s | %s | %s |", m->name, m->as_of, m->last_updated, values_text(m),
		  exports_text(m->exports.items, m->exports.n));
	for (i = 0; i < m->values.n; i++)
		sbuf_addf(&t, " %lld", (long long)m->values.items[i].source);
	return sbuf_detach(&t, NULL);
}

/* Point lookups run (the statement query_model() finds a name by). */
static int trace_point(unsigned type, void *ctx, void *p, void *x)
{
	const char *sql = sqlite3_sql(p);

	(void)type;
	(void)x;
	if (sql && strstr(sql, "WHERE v.name = ?"))
		++*(size_t *)ctx;
	return 0;
}

static int by_bytes(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every model on record on as_of through one scan of them all, asked in
 * the order of their bytes, is what query_model() gives, with no point
 * lookup but for the repeated names' rows; asked in the reverse order,
 * or every other one, or beyond the scan's range, still the same. */
static void test_scan(catalogue *cat, const char *as_of)
{
	char **names = NULL, **want;
	size_t n = 0, i, points = 0, repeated = 0, pass;

	if (!CHECK(query_models(cat, as_of, &names, &n, &test_err) == 0 && n >= 3,
		   "the models of %s are listed (%zu)", as_of, n))
		return;
	qsort(names, n, sizeof(*names), by_bytes);
	want = xcalloc(n, sizeof(*want));
	for (i = 0; i < n; i++) {
		model_view m;

		want[i] = model_text(q_model(cat, names[i], as_of, &m), &m);
		model_view_release(&m);
		repeated += strchr(names[i], '#') != NULL;
	}
	sqlite3_trace_v2(cat->db, SQLITE_TRACE_STMT, trace_point, &points);
	for (pass = 0; pass < 4; pass++) {
		static const char *const how[] = {
			"in order", "in reverse order", "every other one", "beyond the range"
		};
		model_scan *s;
		size_t asked = 0, k;

		points = 0;
		if (!CHECK(query_scan_open(cat, as_of, names[0], names[pass == 3 ? 0 : n - 1], &s,
					   &test_err) == 0, "a scan of %s opens", as_of))
			break;
		for (k = 0; k < n; k++) {
			size_t j = pass == 1 ? n - 1 - k : k;
			model_view m;
			char *got;

			if (pass == 2 && k % 2)
				continue;
			got = model_text(query_model_next(s, names[j], &m, &test_err), &m);
			CHECK_STR(got, want[j], "%s as of %s through a scan, asked %s", names[j],
				  as_of, how[pass]);
			free(got);
			model_view_release(&m);
			asked++;
		}
		query_scan_close(s);
		if (pass == 0)
			/* ("NAME#2" is looked up as written, then as NAME's
			   second row) */
			CHECK(points == 2 * repeated, "a scan asked in order looks up only the "
			      "%zu repeated names' rows on their own (%zu point lookups for %zu "
			      "models)", repeated, points, asked);
		if (pass == 3)
			CHECK(points >= asked - 1, "the names beyond the range are looked up on "
			      "their own (%zu point lookups for %zu models)", points, asked);
	}
	sqlite3_trace_v2(cat->db, 0, NULL, NULL);
	mc_free_strings(want, n);
	mc_free_strings(names, n);
}

/* The table of dates is what a lookup takes its date from, only for the
 * date it was read for. */
static void test_updated_table(catalogue *cat)
{
	query_updated u;
	model_view m;
	size_t i;

	if (!CHECK(query_updated_read(cat, "2024-02-01", &u, &test_err) == 0,
		   "the last-updated dates of 2024-02-01 are read"))
		return;
	/* Alpha, OldName, Dup, Dup#2 and Gamma of notable, Alpha and Beta of all */
	CHECK(u.n == 7, "a date for each of the 7 records with a version by then (%zu)", u.n);
	for (i = 1; i < u.n; i++)
		CHECK(u.records[i - 1] < u.records[i], "the records in ascending order");
	query_updated_use(cat, &u);
	CHECK(q_model(cat, "Alpha", "2024-01-15", &m) == 0, "Alpha as of 2024-01-15");
	CHECK_STR(m.last_updated, "2024-01-01",
		  "a table read for another date is not used (2024-02-01 there)");
	model_view_release(&m);
	for (i = 0; i < u.n; i++)
		mc_fmt(u.dates[i], sizeof(u.dates[i]), "2099-12-31");
	CHECK(q_model(cat, "Alpha", "2024-02-01", &m) == 0, "Alpha as of 2024-02-01");
	CHECK_STR(m.last_updated, "2099-12-31", "the date comes from the table, not a query");
	model_view_release(&m);
	query_updated_use(cat, NULL);
	CHECK(q_model(cat, "Alpha", "2024-02-01", &m) == 0, "Alpha as of 2024-02-01");
	CHECK_STR(m.last_updated, "2024-02-01", "without the table, read for the model again");
	model_view_release(&m);
	query_updated_release(&u);
	CHECK(u.n == 0 && !u.records && !u.dates, "a released table is empty");
}

/* A connection keeps the headers and export keys it read while no
 * connection writes; another connection's commit makes it read them
 * again, or its pages would show what the catalogue no longer says. */
static void test_other_writer(void)
{
	const char *tmp = getenv("TMPDIR");
	char path[4200], journal[4300];
	catalogue reader, writer;
	model_view m;
	int fd;

	mc_fmt(path, sizeof(path), "%s/test_query.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	fd = mkstemp(path);
	if (!CHECK(fd >= 0, "a scratch file"))
		return;
	close(fd);
	unlink(path);
	mc_fmt(journal, sizeof(journal), "%s-journal", path);
	if (!CHECK(catalogue_open(&reader, path, sql_dir(), 0, &test_err) == 0,
		   "a catalogue file opens (%s)", test_err.msg))
		return;
	if (!CHECK(catalogue_open(&writer, path, sql_dir(), 0, &test_err) == 0,
		   "a second connection opens (%s)", test_err.msg)) {
		catalogue_close(&reader);
		unlink(path);
		return;
	}
	CHECK(load_snapshot(&writer, "2024-01-01", JAN, N(JAN)) == 0, "January loads (%s)",
	      test_err.msg);
	if (CHECK(q_model(&reader, "Alpha", "2024-03-01", &m) == 0, "Alpha as of March (%s)",
		  test_err.msg)) {
		CHECK_STR(exports_text(m.exports.items, m.exports.n), "notable,all",
			  "before the other commit: both exports, keyed by Model");
		CHECK_STR(values_text(&m),
			  "Model=Alpha (notable 2024-01-01); Organization=A (notable 2024-01-01); "
			  "Parameters=100 (notable 2024-01-01); Country=US (all 2024-01-01)",
			  "before the other commit: January's values");
	}
	model_view_release(&m);
	CHECK(load_snapshot(&writer, "2024-02-01", FEB_SYSTEM, N(FEB_SYSTEM)) == 0,
	      "February, all keyed by System, loads through the other connection (%s)",
	      test_err.msg);
	if (CHECK(q_model(&reader, "Alpha", "2024-03-01", &m) == 0, "Alpha as of March again (%s)",
		  test_err.msg)) {
		CHECK_STR(exports_text(m.exports.items, m.exports.n), "notable",
			  "after the other commit: all's new key is seen");
		CHECK_STR(values_text(&m),
			  "Model=Alpha (notable 2024-02-01); Organization=A (notable 2024-02-01); "
			  "Parameters=150 (notable 2024-02-01)",
			  "after the other commit: February's values, none from all");
	}
	model_view_release(&m);
	catalogue_close(&writer);
	catalogue_close(&reader);
	unlink(path);
	unlink(journal);
}

static void test_history(catalogue *cat)
{
	sbuf out;
	int rc;

	sbuf_init(&out);
	rc = q_history(cat, "Alpha", &out);
	CHECK(rc == 0, "history of Alpha (%d)", rc);
	CHECK(strstr(out.data, "Parameters: 100 -> 150") != NULL,
	      "it logs the change as field: old -> new");
	CHECK(strstr(out.data, "notable") && strstr(out.data, "all") &&
	      strstr(out.data, "notable") < strstr(out.data, "\nall"),
	      "both exports' records, by precedence");
	CHECK(strstr(out.data, "2024-01-01") && strstr(out.data, "added") &&
	      strstr(out.data, "2024-02-01") && strstr(out.data, "changed"),
	      "its versions with dates and kinds");
	CHECK(strstr(out.data, "until 2024-02-01") != NULL, "the closed version says until when");
	if (!CHECK(count_lines(out.data) == 6, "6 lines: 2 records, 3 versions, 1 field change (%zu)",
		   count_lines(out.data)))
		printf("# %s\n", out.data);
	CHECK(strstr(out.data, "Gamma") == NULL && strstr(out.data, "Beta") == NULL,
	      "no other model's lines");

	sbuf_reset(&out);
	rc = q_history(cat, "OldName", &out);
	CHECK(rc == 0, "history under the old name of a renamed model (%d)", rc);
	CHECK(strstr(out.data, "OldName -> Old-Name") != NULL &&
	      strstr(out.data, "same name but for case, spaces and punctuation") != NULL,
	      "it shows the rename with its evidence");
	sbuf_reset(&out);
	CHECK(q_history(cat, "Old-Name", &out) == 0 && strstr(out.data, "OldName -> Old-Name"),
	      "and the same under the new name");

	sbuf_reset(&out);
	rc = q_history(cat, "Broken", &out);
	CHECK(rc == 0, "history of a name only quarantined rows had (%d)", rc);
	CHECK(strstr(out.data, "quarantined") && strstr(out.data, "2024-02-01") &&
	      strstr(out.data, "Publication date: not a date"),
	      "it lists the quarantined row with date and reason");
	CHECK(strstr(out.data, "notable:7:") != NULL, "and its file and line (file notable, line 7)");

	sbuf_reset(&out);
	CHECK(q_history(cat, "Nobody", &out) == 1, "a name never held: none (1)");
	CHECK(out.len == 0, "and no text");
	sbuf_release(&out);
}

static void test_diff(catalogue *cat, sqlite3_int64 jan, sqlite3_int64 feb)
{
	diff_result d;
	const diff_model *alpha;

	if (!CHECK(q_diff(cat, "2024-01-01", "2024-02-01", &d) == 0, "diff January to February (%s)",
		   cat_error(cat)))
		return;
	CHECK_STR(d.from, "2024-01-01", "diff: from");
	CHECK_STR(d.to, "2024-02-01", "diff: to");
	CHECK(d.from_snapshot == jan && d.to_snapshot == feb, "diff: the two snapshots");
	CHECK_STR(models_text(d.added.items, d.added.n), "notable:Gamma", "diff: Gamma added");
	CHECK_STR(models_text(d.removed.items, d.removed.n), "all:Beta", "diff: Beta removed from all");
	CHECK_STR(models_text(d.renamed.items, d.renamed.n), "notable:OldName>Old-Name",
		  "diff: the rename, old and new name");
	alpha = find_model(d.changed.items, d.changed.n, "notable", "Alpha");
	if (CHECK(alpha != NULL, "diff: Alpha changed in notable")) {
		CHECK(alpha->nfields == 1, "one field changed (%zu)", alpha->nfields);
		if (alpha->nfields >= 1) {
			CHECK_STR(alpha->fields[0].field, "Parameters", "the field");
			CHECK_STR(alpha->fields[0].old, "100", "its old value");
			CHECK_STR(alpha->fields[0].new, "150", "its new value");
		}
	}
	CHECK(find_model(d.changed.items, d.changed.n, "all", "Alpha") == NULL,
	      "diff: Alpha unchanged in all");
	CHECK(find_model(d.changed.items, d.changed.n, "notable", "Dup") == NULL,
	      "diff: Dup unchanged");
	CHECK(d.quarantined.n == 1, "diff: one quarantined row (%zu)", d.quarantined.n);
	if (d.quarantined.n == 1) {
		CHECK(d.quarantined.items[0].line == 7, "its line (%ld)", d.quarantined.items[0].line);
		CHECK_STR(d.quarantined.items[0].name, "Broken", "its name");
		CHECK_STR(d.quarantined.items[0].field, "Publication date", "its field");
		CHECK_STR(d.quarantined.items[0].reason, "Publication date: not a date", "its reason");
		CHECK_STR(d.quarantined.items[0].as_of, "2024-02-01", "its date");
	}
	CHECK(d.columns_added.n == 0 && d.columns_removed.n == 0 && d.headers_respelled.n == 0,
	      "diff: no column change");
	CHECK(d.exports.n == 2, "diff: both exports compared (%zu)", d.exports.n);
	diff_result_release(&d);

	if (CHECK(q_diff(cat, "", "2024-01-01", &d) == 0, "diff from nothing to January")) {
		CHECK(d.added.n == 6, "everything is added (%zu)", d.added.n);
		CHECK(d.removed.n == 0 && d.changed.n == 0 && d.renamed.n == 0,
		      "nothing removed, changed or renamed");
		CHECK(find_model(d.added.items, d.added.n, "all", "Beta") != NULL,
		      "Beta among the additions");
		diff_result_release(&d);
	}
	if (CHECK(q_diff_snapshots(cat, jan, feb, &d) == 0, "diff of the two snapshots by id")) {
		CHECK_STR(models_text(d.added.items, d.added.n), "notable:Gamma", "the same additions");
		CHECK_STR(models_text(d.removed.items, d.removed.n), "all:Beta", "the same removals");
		CHECK(find_model(d.changed.items, d.changed.n, "notable", "Alpha") != NULL,
		      "the same change");
		diff_result_release(&d);
	}
	if (CHECK(q_diff(cat, "2024-02-01", "2024-02-01", &d) == 0, "diff of a date with itself")) {
		CHECK(d.added.n == 0 && d.removed.n == 0 && d.changed.n == 0 && d.renamed.n == 0,
		      "finds no difference");
		diff_result_release(&d);
	}
}

/* A changed version's stored values damaged: the diff fails, naming the
 * version, and lists nothing as changed from them. Last: it damages the
 * catalogue. */
static void test_diff_damaged(catalogue *cat)
{
	diff_result d;
	sqlite3_int64 id = 0;
	sqlite3_stmt *st = NULL;
	char want[64];

	if (sqlite3_prepare_v2(cat->db, "SELECT v.id FROM version v JOIN record r ON r.id ="
			       " v.record_id WHERE r.export = 'notable' AND v.name = 'Alpha'"
			       " AND v.valid_from = '2024-02-01'", -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (!CHECK(id > 0, "Alpha's February version in notable") ||
	    !CHECK(sqlite3_exec(cat->db, "UPDATE version SET norm = '{\"Parameters\": 1'"
				" WHERE valid_from = '2024-02-01' AND name = 'Alpha' AND record_id IN"
				" (SELECT id FROM record WHERE export = 'notable')",
				NULL, NULL, NULL) == SQLITE_OK, "its values damaged"))
		return;
	CHECK(q_diff(cat, "2024-01-01", "2024-02-01", &d) == -1,
	      "a diff over damaged values fails");
	mc_fmt(want, sizeof(want), "version %lld: stored values are not valid JSON",
	       (long long)id);
	CHECK(strstr(test_err.msg, want) != NULL, "naming the version (%s)", test_err.msg);
	diff_result_release(&d);
	CHECK(q_diff(cat, "2024-02-01", "2024-02-01", &d) == 0,
	      "a diff that reads no values is still made");
	diff_result_release(&d);
	test_err.msg[0] = '\0';
}

/* query_rows: the header's fields with the types they were loaded with,
 * then each row's stored values by column (NULL where a row has none). */
static void test_rows(catalogue *cat)
{
	static const char *const fields[] = { "Model", "Organization", "Parameters", "Country" };
	static const enum colmap_type types[] = { COL_KEY, COL_TEXT, COL_NUMBER, COL_TEXT };
	query_rows rows;
	size_t i;

	CHECK(query_rows_open(cat, "all", "2024-01-01", 0, &rows, &test_err) == 0,
	      "rows of all as of 2024-01-01: open");
	CHECK(rows.ncols == N(fields), "four columns (%zu)", rows.ncols);
	for (i = 0; i < N(fields) && i < rows.ncols; i++) {
		CHECK_STR(rows.fields[i], fields[i], "column %zu's field", i);
		CHECK(rows.types[i] == types[i], "column %zu (%s) is a %s", i, fields[i],
		      colmap_type_name(types[i]));
	}
	CHECK(query_rows_next(&rows, &test_err) == 1 && rows.values[3] &&
	      !strcmp(rows.values[3], "US") && rows.lengths[3] == 2, "Alpha's Country: US");
	CHECK(query_rows_next(&rows, &test_err) == 1 && !strcmp(rows.values[0], "Beta") &&
	      !rows.values[1] && !strcmp(rows.values[2], "7"), "Beta: no Organization, 7");
	CHECK(query_rows_next(&rows, &test_err) == 0, "then the end");
	query_rows_close(&rows);
	CHECK(query_rows_open(cat, "nothing", "2024-02-01", 0, &rows, &test_err) == 1,
	      "no such export: 1");
	query_rows_close(&rows);
}

static void test_export(catalogue *cat)
{
	static const struct {
		const char *export_name;
		const char *as_of;
		int rc;
		const char *csv;
	} cases[] = {
		{ "notable", "2024-01-15", 0,
		  "Model,Organization,Parameters\nAlpha,A,100\nOldName,,5\nDup,,1\nDup,,2\n" },
		{ "notable", "2024-02-01", 0,
		  "Model,Organization,Parameters\nAlpha,A,150\nOld-Name,,5\nDup,,1\nDup,,2\nGamma,,3\n" },
		{ "all", "2024-01-01", 0,
		  "Model,Organization,Parameters,Country\nAlpha,A Corp,100,US\nBeta,,7,\n" },
		{ "all", "2024-03-01", 0, "Model,Organization,Parameters,Country\nAlpha,A Corp,100,US\n" },
		{ "notable", "2023-12-31", 1, NULL },
		{ "nothing", "2024-02-01", 1, NULL },
	};
	size_t i;
	sbuf out;

	sbuf_init(&out);
	for (i = 0; i < N(cases); i++) {
		int rc;

		sbuf_reset(&out);
		rc = q_export(cat, cases[i].export_name, cases[i].as_of, &out);
		CHECK(rc == cases[i].rc, "export %s as of %s: rc %d (%d)", cases[i].export_name,
		      cases[i].as_of, cases[i].rc, rc);
		if (rc == 0 && cases[i].csv)
			CHECK_STR(out.data, cases[i].csv, "export %s as of %s: header and rows",
				  cases[i].export_name, cases[i].as_of);
	}
	sbuf_release(&out);
}

int main(void)
{
	char from[11] = "x", to[11] = "x";
	catalogue cat;
	sqlite3_int64 jan, feb;

	if (!CHECK(cat_open(&cat) == 0, "a catalogue opens in memory (%s)", cat_error(&cat)))
		return unit_done();
	CHECK(q_last_two(&cat, from, to) == 1, "last two of an empty catalogue: none (1)");
	if (!CHECK(load_snapshot(&cat, "2024-01-01", JAN, N(JAN)) == 0, "January loads (%s)",
		   cat_error(&cat)))
		return unit_done();
	jan = snapshot_id(&cat, "2024-01-01");
	CHECK(q_last_two(&cat, from, to) == 0, "last two of one snapshot");
	CHECK_STR(from, "", "from is empty");
	CHECK_STR(to, "2024-01-01", "to is the snapshot");
	if (!CHECK(load_snapshot(&cat, "2024-02-01", FEB, N(FEB)) == 0, "February loads (%s)",
		   cat_error(&cat)))
		return unit_done();
	feb = snapshot_id(&cat, "2024-02-01");
	CHECK(jan > 0 && feb > jan, "the snapshots have ids (%lld, %lld)", (long long)jan,
	      (long long)feb);
	CHECK(q_last_two(&cat, from, to) == 0, "last two of two snapshots");
	CHECK_STR(from, "2024-01-01", "from");
	CHECK_STR(to, "2024-02-01", "to");
	test_model(&cat, 0, 0);
	test_model(&cat, 1, 0);
	test_model(&cat, 0, 1);
	test_model(&cat, 1, 1);
	test_scan(&cat, "2024-01-15");
	test_scan(&cat, "2024-02-01");
	test_updated_table(&cat);
	test_history(&cat);
	test_diff(&cat, jan, feb);
	test_rows(&cat);
	test_export(&cat);
	test_diff_damaged(&cat);
	catalogue_close(&cat);
	test_other_writer();
	return unit_done();
}
