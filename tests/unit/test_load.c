/*
 * test_load: writing snapshots into a catalogue through db/load.h, checked
 * against the rules of docs/history.md and docs/architecture.md on a
 * catalogue in memory with the migrations of sql/ applied:
 *   - a first load makes one "added" version per row, a record per name
 *     and occurrence (a repeated name is two records);
 *   - the same values make no version; the snapshot's row points at the
 *     version that stands;
 *   - a changed value closes the version (valid_to) and opens a "changed"
 *     one, the field logged in field_change with old and new value;
 *   - a record no row carries gets a tombstone ("removed"), and comes back
 *     as "added" on the same record;
 *   - a quarantined row keeps its model's version, marked held;
 *   - a column new to the header: values only there make "revised", no
 *     field change, one column_change;
 *   - renames by spelling and by link and date keep the record;
 *   - the same content is recorded as unchanged and writes no version;
 *   - an older date after a newer is refused; an aborted load leaves
 *     nothing;
 *   - the precedence is replaced by each load that sets it;
 *   - SQLite keeps no memory statistics once catalogue_process_init() ran;
 *   - a first load keeps the index by name as it goes for a content known
 *     to be small, and makes it at the end for a large one or one of
 *     unknown size: the index is whole after either.
 */
#include "unit.h"
#include "catalogue_fixture.h"
#include "db/load.h"

#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the calls into the library, kept here so that a change of its
 * error convention touches only these few lines ---- */

static int ld_begin(catalogue *cat, load **ld, const char *as_of)
{
	return load_begin(cat, ld, as_of, &test_err);
}

static int ld_precedence(load *ld, char *const *exports, size_t n)
{
	return load_precedence(ld, exports, n, &test_err);
}

static int ld_export_begin(load *ld, const char *export_name, const char *sha,
			   const load_column *cols, size_t ncols, int *same)
{
	return load_export_begin(ld, export_name, "test.csv", sha, 100, cols, ncols, same, &test_err);
}

static int ld_row(load *ld, const load_row *row)
{
	return load_row_add(ld, row, &test_err);
}

static int ld_export_end(load *ld, load_stats *stats)
{
	return load_export_end(ld, stats, &test_err);
}

static int ld_previous(load *ld, const char *export_name, char sha[65],
		       unsigned long long *bytes)
{
	return load_previous_content(ld, export_name, sha, bytes, &test_err);
}

static int ld_commit(load *ld)
{
	return load_commit(ld, &test_err);
}

static void ld_abort(load *ld)
{
	load_abort(ld);
}

/* ---- the rows and snapshots of the tests ---- */

/* One hand-made row: a name, its occurrence, its normalised values
 * (sorted by field, as parse gives them); reason set: quarantined. */
typedef struct row_spec {
	const char *name;
	size_t occurrence;
	const char *norm;
	const char *reason;
} row_spec;

static const load_column BASE[] = {
	FIXTURE_COLUMNS,
	{ "Link", "Link", "text", 1, 0 },
	{ "Publication date", "Publication date", "date", 1, 0 },
};
/* BASE and one column more */
static const load_column WITH_NOTES[] = {
	FIXTURE_COLUMNS,
	{ "Link", "Link", "text", 1, 0 },
	{ "Publication date", "Publication date", "date", 1, 0 },
	{ "Notes", "Notes", "text", 1, 0 },
};
#define NCOLS(c) (sizeof(c) / sizeof((c)[0]))

static void row_from_spec(load_row *row, const row_spec *s, size_t position)
{
	memset(row, 0, sizeof(*row));
	row->line = position + 2;
	row->position = position;
	row->name = s->name;
	row->occurrence = s->reason ? 0 : s->occurrence;
	row->quarantined = s->reason != NULL;
	row->fault_field = s->reason ? "Parameters" : NULL;
	row->reason = s->reason;
	row->raw_csv = s->name;
	row->norm_json = s->reason ? NULL : s->norm;
	row->raw_json = s->reason ? NULL : "{}";
}

/* One snapshot of one export, committed: 0, or -1 with the message in
 * err (the load rolled back). */
static int load_snapshot(catalogue *cat, const char *as_of, const char *export_name,
			 const char *sha, const load_column *cols, size_t ncols,
			 const row_spec *rows, size_t nrows, load_stats *stats, int *same,
			 char *err, size_t errlen)
{
	load *ld;
	load_row row;
	size_t i;
	int same_ = 0;

	memset(stats, 0, sizeof(*stats));
	*err = '\0';
	if (ld_begin(cat, &ld, as_of))
		goto fail;
	if (ld_export_begin(ld, export_name, sha, cols, ncols, &same_))
		goto fail;
	for (i = 0; i < nrows; i++) {
		row_from_spec(&row, &rows[i], i);
		if (ld_row(ld, &row))
			goto fail;
	}
	if (ld_export_end(ld, stats))
		goto fail;
	if (same)
		*same = same_;
	return ld_commit(ld);
fail:
	snprintf(err, errlen, "%s", cat_error(cat));
	ld_abort(ld);
	return -1;
}

/* ---- reading the catalogue back ---- */

/* The rows of a query (printf-style, %Q quotes) as text: columns joined
 * by '|', rows by '\n', NULL as ""; static, valid until the next call. */
static const char *q(catalogue *cat, const char *fmt, ...)
{
	static char out[8192];
	sqlite3_stmt *st;
	size_t len = 0;
	va_list ap;
	char *sql;
	int i, n;

	va_start(ap, fmt);
	sql = sqlite3_vmprintf(fmt, ap);
	va_end(ap);
	out[0] = '\0';
	if (sqlite3_prepare_v2(cat->db, sql, -1, &st, NULL) != SQLITE_OK) {
		snprintf(out, sizeof(out), "SQL error: %s", sqlite3_errmsg(cat->db));
		sqlite3_free(sql);
		return out;
	}
	sqlite3_free(sql);
	while (sqlite3_step(st) == SQLITE_ROW) {
		n = sqlite3_column_count(st);
		if (len && len < sizeof(out))
			len += (size_t)snprintf(out + len, sizeof(out) - len, "\n");
		for (i = 0; i < n && len < sizeof(out); i++) {
			const char *v = (const char *)sqlite3_column_text(st, i);

			len += (size_t)snprintf(out + len, sizeof(out) - len, "%s%s", i ? "|" : "",
						v ? v : "");
		}
	}
	sqlite3_finalize(st);
	return out;
}

/* A record's versions, oldest first: from|to|kind|tombstone|name|Parameters */
static const char *versions(catalogue *cat, const char *name, int occurrence)
{
	return q(cat, "SELECT v.valid_from, v.valid_to, v.kind, v.tombstone, v.name,"
		      " json_extract(v.norm, '$.Parameters')"
		      " FROM version v JOIN record r ON r.id = v.record_id"
		      " WHERE r.export = 'notable' AND r.name = %Q AND r.occurrence = %d"
		      " ORDER BY v.id", name, occurrence);
}

/* Counts of every table a load writes, to tell whether anything changed. */
static char *state(catalogue *cat)
{
	static const char *const tables[] = {
		"snapshot", "snapshot_export", "export_column", "record", "version",
		"snapshot_row", "field_change", "rename", "column_change", "quarantine",
		"notice", "precedence",
	};
	char buf[1024] = "";
	size_t i, len = 0;

	for (i = 0; i < sizeof(tables) / sizeof(tables[0]); i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s=%s ", tables[i],
					q(cat, "SELECT count(*) FROM %s", tables[i]));
	return strdup(buf);
}

#define SHA1 "1111111111111111111111111111111111111111111111111111111111111111"
#define SHA2 "2222222222222222222222222222222222222222222222222222222222222222"
#define SHA3 "3333333333333333333333333333333333333333333333333333333333333333"
#define SHA5 "5555555555555555555555555555555555555555555555555555555555555555"

/* ---- the snapshots ---- */

static const row_spec JAN[] = {
	{ "Alpha", 1, "{\"Model\":\"Alpha\",\"Organization\":\"A\",\"Parameters\":\"100\"}", NULL },
	{ "Beta", 1, "{\"Model\":\"Beta\",\"Parameters\":\"200\"}", NULL },
	{ "Gamma", 1, "{\"Model\":\"Gamma\",\"Parameters\":\"300\"}", NULL },
	{ "Dup", 1, "{\"Model\":\"Dup\",\"Parameters\":\"1\"}", NULL },
	{ "Dup", 2, "{\"Model\":\"Dup\",\"Parameters\":\"2\"}", NULL },
	{ "Zeta", 1, "{\"Model\":\"Zeta\",\"Parameters\":\"7\"}", NULL },
	{ "DeLight", 1, "{\"Model\":\"DeLight\",\"Parameters\":\"9\"}", NULL },
	{ "GPT", 1, "{\"Link\":\"https://example.org/gpt\",\"Model\":\"GPT\","
		    "\"Publication date\":\"2018-06-11\"}", NULL },
};

/* Beta and the second Dup change, Gamma is gone, Zeta's row is broken,
 * Epsilon is new, the rest as in January */
static const row_spec FEB[] = {
	{ "Alpha", 1, "{\"Model\":\"Alpha\",\"Organization\":\"A\",\"Parameters\":\"100\"}", NULL },
	{ "Beta", 1, "{\"Model\":\"Beta\",\"Parameters\":\"250\"}", NULL },
	{ "Dup", 1, "{\"Model\":\"Dup\",\"Parameters\":\"1\"}", NULL },
	{ "Dup", 2, "{\"Model\":\"Dup\",\"Parameters\":\"3\"}", NULL },
	{ "Zeta", 1, NULL, "Parameters: not a number: 'seven'" },
	{ "DeLight", 1, "{\"Model\":\"DeLight\",\"Parameters\":\"9\"}", NULL },
	{ "GPT", 1, "{\"Link\":\"https://example.org/gpt\",\"Model\":\"GPT\","
		    "\"Publication date\":\"2018-06-11\"}", NULL },
	{ "Epsilon", 1, "{\"Model\":\"Epsilon\",\"Parameters\":\"5\"}", NULL },
};

/* a Notes column appears (Alpha has a note, nothing else of it changes);
 * Gamma is back; Zeta's row reads again, with another value; DeLight is
 * respelled DeLighT; GPT is now GPT-1, same link and date */
static const row_spec MAR[] = {
	{ "Alpha", 1, "{\"Model\":\"Alpha\",\"Notes\":\"a note\",\"Organization\":\"A\","
		      "\"Parameters\":\"100\"}", NULL },
	{ "Beta", 1, "{\"Model\":\"Beta\",\"Parameters\":\"250\"}", NULL },
	{ "Gamma", 1, "{\"Model\":\"Gamma\",\"Parameters\":\"300\"}", NULL },
	{ "Dup", 1, "{\"Model\":\"Dup\",\"Parameters\":\"1\"}", NULL },
	{ "Dup", 2, "{\"Model\":\"Dup\",\"Parameters\":\"3\"}", NULL },
	{ "Zeta", 1, "{\"Model\":\"Zeta\",\"Parameters\":\"8\"}", NULL },
	{ "DeLighT", 1, "{\"Model\":\"DeLighT\",\"Parameters\":\"9\"}", NULL },
	{ "GPT-1", 1, "{\"Link\":\"https://example.org/gpt\",\"Model\":\"GPT-1\","
		      "\"Publication date\":\"2018-06-11\"}", NULL },
	{ "Epsilon", 1, "{\"Model\":\"Epsilon\",\"Parameters\":\"5\"}", NULL },
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void test_first_load(catalogue *cat)
{
	static const struct {
		const char *name;
		int occurrence;
		const char *versions;
	} want[] = {
		{ "Alpha", 1, "2024-01-01||added|0|Alpha|100" },
		{ "Beta", 1, "2024-01-01||added|0|Beta|200" },
		{ "Dup", 1, "2024-01-01||added|0|Dup|1" },
		{ "Dup", 2, "2024-01-01||added|0|Dup|2" },
		{ "GPT", 1, "2024-01-01||added|0|GPT|" },
	};
	static char notable[] = "notable", all[] = "all";
	char *const order[] = { notable, all };
	load_stats st;
	load *ld;
	char err[MC_ERR_MAX];
	size_t i;

	/* the precedence, in a load of its own */
	if (CHECK(ld_begin(cat, &ld, "2024-01-01") == 0, "a load begins (%s)", cat_error(cat))) {
		CHECK(ld_precedence(ld, order, 2) == 0, "the precedence is set");
		ld_abort(ld);
	}
	CHECK_STR(q(cat, "SELECT count(*) FROM precedence"), "0",
		  "an aborted load leaves no precedence");

	CHECK(load_snapshot(cat, "2024-01-01", "notable", SHA1, BASE, NCOLS(BASE), JAN, N(JAN),
			    &st, NULL, err, sizeof(err)) == 0, "January loads (%s)", err);
	CHECK(st.rows == 8 && st.loaded == 8 && st.quarantined == 0,
	      "8 rows, 8 loaded, none quarantined (%lu, %lu, %lu)", st.rows, st.loaded,
	      st.quarantined);
	CHECK(st.added == 8 && st.changed == 0 && st.removed == 0 && st.unchanged == 0,
	      "a first load adds every record (added %lu)", st.added);
	for (i = 0; i < N(want); i++)
		CHECK_STR(versions(cat, want[i].name, want[i].occurrence), want[i].versions,
			  "first load: %s#%d has one current added version", want[i].name,
			  want[i].occurrence);
	CHECK_STR(q(cat, "SELECT name, occurrence FROM record WHERE name = 'Dup' ORDER BY 2"),
		  "Dup|1\nDup|2", "a repeated name is two records, occurrences 1 and 2");
	CHECK_STR(q(cat, "SELECT count(*) FROM record"), "8", "one record per row");
	CHECK_STR(q(cat, "SELECT as_of FROM snapshot"), "2024-01-01", "one snapshot, dated");
	CHECK_STR(q(cat, "SELECT export, sha256, rows, loaded, quarantined, unchanged"
		      " FROM snapshot_export"), "notable|" SHA1 "|8|8|0|0",
		  "the export's content and counts are recorded");
	CHECK_STR(q(cat, "SELECT group_concat(header, ',') FROM"
		      " (SELECT header FROM export_column ORDER BY position)"),
		  "Model,Organization,Parameters,Link,Publication date", "the header is recorded");
	CHECK_STR(q(cat, "SELECT group_concat(v.name, ',') FROM (SELECT v.name FROM snapshot_row sr"
		      " JOIN version v ON v.id = sr.version_id ORDER BY sr.position) v"),
		  "Alpha,Beta,Gamma,Dup,Dup,Zeta,DeLight,GPT",
		  "the snapshot's rows point at the versions, in file order");
	CHECK_STR(q(cat, "SELECT count(*) FROM field_change"), "0", "an addition logs no field change");
}

/* The precedence, committed with a snapshot of no export; a later one
 * replaces it. */
static void test_precedence(catalogue *cat)
{
	static char notable[] = "notable", all[] = "all", other[] = "other";
	char *const order[] = { notable, all };
	char *const reversed[] = { all, other, notable };
	load *ld;

	if (CHECK(ld_begin(cat, &ld, "2024-06-01") == 0, "a load begins")) {
		CHECK(ld_precedence(ld, order, 2) == 0, "the precedence is set");
		CHECK(ld_commit(ld) == 0, "and committed");
	}
	CHECK_STR(q(cat, "SELECT export, rank FROM precedence ORDER BY rank"), "notable|1\nall|2",
		  "the precedence ranks the exports best first, from 1");
	if (CHECK(ld_begin(cat, &ld, "2024-06-02") == 0, "another load begins")) {
		CHECK(ld_precedence(ld, reversed, 3) == 0, "another precedence is set");
		CHECK(ld_commit(ld) == 0, "and committed");
	}
	CHECK_STR(q(cat, "SELECT export, rank FROM precedence ORDER BY rank"),
		  "all|1\nother|2\nnotable|3", "the new precedence replaces the old one");
}

static void test_second_load(catalogue *cat)
{
	static const struct {
		const char *name;
		int occurrence;
		const char *versions;
		const char *why;
	} want[] = {
		{ "Alpha", 1, "2024-01-01||added|0|Alpha|100", "the same values make no version" },
		{ "Beta", 1, "2024-01-01|2024-02-01|added|0|Beta|200\n"
			     "2024-02-01||changed|0|Beta|250",
		  "a changed value closes the version and opens a changed one" },
		{ "Gamma", 1, "2024-01-01|2024-02-01|added|0|Gamma|300\n"
			      "2024-02-01||removed|1|Gamma|",
		  "a record no row carries gets a tombstone" },
		{ "Dup", 1, "2024-01-01||added|0|Dup|1", "the first Dup stands" },
		{ "Dup", 2, "2024-01-01|2024-02-01|added|0|Dup|2\n"
			    "2024-02-01||changed|0|Dup|3", "the second Dup changed on its own" },
		{ "Zeta", 1, "2024-01-01||added|0|Zeta|7", "a quarantined row keeps the version" },
		{ "Epsilon", 1, "2024-02-01||added|0|Epsilon|5", "a new name is added" },
	};
	load_stats st;
	char err[MC_ERR_MAX];
	size_t i;

	CHECK(load_snapshot(cat, "2024-02-01", "notable", SHA2, BASE, NCOLS(BASE), FEB, N(FEB),
			    &st, NULL, err, sizeof(err)) == 0, "February loads (%s)", err);
	CHECK(st.rows == 8 && st.loaded == 7 && st.quarantined == 1,
	      "8 rows, 7 loaded, 1 quarantined (%lu, %lu, %lu)", st.rows, st.loaded, st.quarantined);
	CHECK(st.added == 1, "1 added (%lu)", st.added);
	CHECK(st.changed == 2, "2 changed (%lu)", st.changed);
	CHECK(st.removed == 1, "1 removed (%lu)", st.removed);
	CHECK(st.renamed == 0 && st.revised == 0, "none renamed or revised");
	CHECK(st.unchanged == 4, "4 unchanged: Alpha, the first Dup, DeLight, GPT (%lu)",
	      st.unchanged);
	for (i = 0; i < N(want); i++)
		CHECK_STR(versions(cat, want[i].name, want[i].occurrence), want[i].versions,
			  "February: %s#%d: %s", want[i].name, want[i].occurrence, want[i].why);
	CHECK_STR(q(cat, "SELECT f.field, f.old, f.new, f.as_of, f.export, r.name, r.occurrence"
		      " FROM field_change f JOIN record r ON r.id = f.record_id ORDER BY f.id"),
		  "Parameters|200|250|2024-02-01|notable|Beta|1\n"
		  "Parameters|2|3|2024-02-01|notable|Dup|2",
		  "each change is logged with field, old and new value, date and export");
	CHECK_STR(q(cat, "SELECT count(*) FROM field_change f JOIN version v ON v.id = f.version_id"
		      " WHERE v.kind <> 'changed'"), "0", "field changes belong to changed versions");
	CHECK_STR(q(cat, "SELECT sr.held, v.name, v.valid_from FROM snapshot_row sr"
		      " JOIN snapshot_export se ON se.id = sr.snapshot_export_id"
		      " JOIN snapshot s ON s.id = se.snapshot_id JOIN version v ON v.id = sr.version_id"
		      " WHERE s.as_of = '2024-02-01' AND sr.position = 4"), "1|Zeta|2024-01-01",
		  "the quarantined row's place holds Zeta's previous version, marked held");
	CHECK_STR(q(cat, "SELECT count(*) FROM snapshot_row WHERE held = 1"), "1",
		  "only that row is held");
	CHECK_STR(q(cat, "SELECT file, line, field, name, reason FROM quarantine"),
		  "test.csv|6|Parameters|Zeta|Parameters: not a number: 'seven'",
		  "the quarantine names file, line, field, model and reason");
	CHECK_STR(q(cat, "SELECT v.valid_from FROM snapshot_row sr"
		      " JOIN snapshot_export se ON se.id = sr.snapshot_export_id"
		      " JOIN snapshot s ON s.id = se.snapshot_id JOIN version v ON v.id = sr.version_id"
		      " WHERE s.as_of = '2024-02-01' AND sr.position = 0"), "2024-01-01",
		  "an unchanged row points at the version that stands");
	CHECK_STR(q(cat, "SELECT rows, loaded, quarantined FROM snapshot_export"
		      " WHERE sha256 = %Q", SHA2), "8|7|1", "the counts are recorded");
	CHECK_STR(q(cat, "SELECT count(*) FROM column_change"), "0",
		  "the same header makes no column change");
}

static void test_third_load(catalogue *cat)
{
	static const struct {
		const char *name;
		const char *versions;
		const char *why;
	} want[] = {
		{ "Alpha", "2024-01-01|2024-03-01|added|0|Alpha|100\n"
			   "2024-03-01||revised|0|Alpha|100",
		  "a value in a new column only: revised" },
		{ "Gamma", "2024-01-01|2024-02-01|added|0|Gamma|300\n"
			   "2024-02-01|2024-03-01|removed|1|Gamma|\n"
			   "2024-03-01||added|0|Gamma|300",
		  "a removed record comes back as added, its history kept" },
		{ "Zeta", "2024-01-01|2024-03-01|added|0|Zeta|7\n"
			  "2024-03-01||changed|0|Zeta|8",
		  "the held version changes when the row reads again" },
		{ "DeLighT", "2024-01-01|2024-03-01|added|0|DeLight|9\n"
			     "2024-03-01||renamed|0|DeLighT|9",
		  "a respelled name is a rename of the same record" },
		{ "GPT-1", "2024-01-01|2024-03-01|added|0|GPT|\n"
			   "2024-03-01||renamed|0|GPT-1|",
		  "a new name with the same link and date is a rename" },
	};
	load_stats st;
	char err[MC_ERR_MAX];
	size_t i;

	CHECK(load_snapshot(cat, "2024-03-01", "notable", SHA3, WITH_NOTES, NCOLS(WITH_NOTES), MAR,
			    N(MAR), &st, NULL, err, sizeof(err)) == 0, "March loads (%s)", err);
	CHECK(st.revised == 1, "1 revised (%lu)", st.revised);
	CHECK(st.added == 1, "1 added: Gamma back (%lu)", st.added);
	CHECK(st.renamed == 2, "2 renamed (%lu)", st.renamed);
	CHECK(st.changed == 1, "1 changed: Zeta (%lu)", st.changed);
	CHECK(st.removed == 0, "none removed (%lu)", st.removed);
	CHECK(st.columns_added == 1 && st.columns_removed == 0, "one column added (%lu, %lu)",
	      st.columns_added, st.columns_removed);
	for (i = 0; i < N(want); i++)
		CHECK_STR(versions(cat, want[i].name, 1), want[i].versions, "March: %s: %s",
			  want[i].name, want[i].why);
	CHECK_STR(q(cat, "SELECT count(*) FROM record WHERE name IN ('Gamma', 'DeLight', 'DeLighT',"
		      " 'GPT', 'GPT-1')"), "3", "no record is made for a comeback or a rename");
	CHECK_STR(q(cat, "SELECT old_name, new_name, evidence, as_of, export FROM rename ORDER BY id"),
		  "DeLight|DeLighT|same name but for case, spaces and punctuation|2024-03-01|notable\n"
		  "GPT|GPT-1|same link and publication date|2024-03-01|notable",
		  "each rename names the rule that matched");
	CHECK_STR(q(cat, "SELECT f.field, f.old, f.new FROM field_change f"
		      " JOIN version v ON v.id = f.version_id WHERE v.kind = 'renamed' ORDER BY f.id"),
		  "Model|DeLight|DeLighT\nModel|GPT|GPT-1", "a rename logs the Model change");
	CHECK_STR(q(cat, "SELECT count(*) FROM field_change WHERE field = 'Notes'"), "0",
		  "a revision logs no field change");
	CHECK_STR(q(cat, "SELECT f.field, f.old, f.new FROM field_change f"
		      " WHERE f.as_of = '2024-03-01' AND f.field = 'Parameters'"), "Parameters|7|8",
		  "Zeta's change is logged against the held version's value");
	CHECK_STR(q(cat, "SELECT kind, field, old_header, new_header FROM column_change"),
		  "added|Notes||Notes", "the new column is recorded once");
}

static void test_same_content(catalogue *cat)
{
	load_stats st;
	char err[MC_ERR_MAX], sha[65] = "", *before, *after;
	unsigned long long bytes = 0;
	load *ld;
	int same = 0;

	if (CHECK(ld_begin(cat, &ld, "2024-04-01") == 0, "a load begins")) {
		CHECK(ld_previous(ld, "notable", sha, &bytes) == 1, "the export has earlier content");
		CHECK_STR(sha, SHA3, "its hash is March's");
		CHECK(bytes == 100, "and its size (%llu)", bytes);
		CHECK(ld_previous(ld, "nothing", sha, &bytes) == 0, "an unknown export has none");
		ld_abort(ld);
	}
	before = state(cat);
	CHECK(load_snapshot(cat, "2024-04-01", "notable", SHA3, BASE, NCOLS(BASE), JAN, N(JAN),
			    &st, &same, err, sizeof(err)) == 0, "the same content loads (%s)", err);
	CHECK(same == 1, "it is told the same");
	CHECK(st.same_content == 1 && st.added == 0 && st.changed == 0 && st.removed == 0,
	      "its rows are ignored: nothing added, changed or removed");
	CHECK_STR(q(cat, "SELECT unchanged, rows, loaded, quarantined FROM snapshot_export"
		      " WHERE snapshot_id = (SELECT id FROM snapshot WHERE as_of = '2024-04-01')"),
		  "1|9|9|0", "it is recorded as unchanged, with the previous counts");
	after = state(cat);
	CHECK_STR(strstr(after, "version="), strstr(before, "version="),
		  "no version, row or change is written");
	free(before);
	free(after);
}

static void test_refused_and_aborted(catalogue *cat)
{
	static const row_spec changed[] = {
		{ "Alpha", 1, "{\"Model\":\"Alpha\",\"Parameters\":\"1\"}", NULL },
		{ "Omega", 1, "{\"Model\":\"Omega\"}", NULL },
		{ "Beta", 1, NULL, "broken" },
	};
	load_stats st;
	char err[MC_ERR_MAX], *before, *after;
	load *ld;
	size_t i;
	int same;

	before = state(cat);
	CHECK(load_snapshot(cat, "2024-02-15", "notable", SHA5, BASE, NCOLS(BASE), changed,
			    N(changed), &st, NULL, err, sizeof(err)) == -1,
	      "an older date after a newer is refused");
	CHECK(strstr(err, "2024-04-01") && strstr(err, "2024-02-15") && strstr(err, "notable"),
	      "the message names the export and both dates (%s)", err);
	after = state(cat);
	CHECK_STR(after, before, "the refused load leaves nothing");
	free(after);

	/* a load carried to its end, then aborted */
	if (CHECK(ld_begin(cat, &ld, "2024-05-01") == 0, "a load begins")) {
		int ok = ld_export_begin(ld, "notable", SHA5, WITH_NOTES, NCOLS(WITH_NOTES), &same) == 0;
		load_row row;

		for (i = 0; ok && i < N(changed); i++) {
			row_from_spec(&row, &changed[i], i);
			ok = ld_row(ld, &row) == 0;
		}
		ok = ok && ld_export_end(ld, &st) == 0;
		CHECK(ok && st.changed == 1 && st.removed > 0,
		      "its rows change, add and remove records before the abort");
		ld_abort(ld);
	}
	after = state(cat);
	CHECK_STR(after, before, "an aborted load leaves nothing");
	free(after);
	CHECK_STR(versions(cat, "Alpha", 1),
		  "2024-01-01|2024-03-01|added|0|Alpha|100\n2024-03-01||revised|0|Alpha|100",
		  "Alpha's versions are as before");
	CHECK(load_snapshot(cat, "2024-05-01", "notable", SHA5, WITH_NOTES, NCOLS(WITH_NOTES),
			    changed, N(changed), &st, NULL, err, sizeof(err)) == 0,
	      "the same load then commits (%s)", err);
	CHECK_STR(q(cat, "SELECT max(as_of) FROM snapshot"), "2024-05-01", "its snapshot is there");
	free(before);
}

/* The index by name during and after a first load of a content of size
 * hint (0: not known), in a catalogue of its own: "kept" or "made at the
 * end" as seen between the rows and the export's end, "" on failure. */
static const char *name_index_during(unsigned long long hint, char *after, size_t len)
{
	static const char *const sql_index =
		"SELECT count(*) FROM sqlite_schema WHERE type = 'index' AND name = 'version_name'";
	const char *during = "";
	catalogue cat;
	load_stats st;
	load_row row;
	load *ld;
	size_t i;
	int same = 0;

	*after = '\0';
	if (!CHECK(cat_open(&cat) == 0, "a catalogue opens in memory (%s)", cat_error(&cat)))
		return "";
	if (ld_begin(&cat, &ld, "2024-01-01") == 0) {
		load_size_hint(ld, hint);
		if (ld_export_begin(ld, "notable", SHA1, BASE, NCOLS(BASE), &same) == 0) {
			for (i = 0; i < N(JAN); i++) {
				row_from_spec(&row, &JAN[i], i);
				ld_row(ld, &row);
			}
			during = !strcmp(q(&cat, sql_index), "1") ? "kept" : "made at the end";
			if (ld_export_end(ld, &st) == 0 && ld_commit(ld) == 0)
				snprintf(after, len, "%s|%s", q(&cat, sql_index),
					 q(&cat, "SELECT (SELECT count(*) FROM version INDEXED BY"
					      " version_name WHERE name > '') = count(*) FROM version"));
			else
				ld_abort(ld);
		} else {
			ld_abort(ld);
		}
	}
	CHECK(after[0], "the first load (size %llu) commits", hint);
	catalogue_close(&cat);
	return during;
}

static void test_name_index(void)
{
	char after[64];

	CHECK_STR(name_index_during(100, after, sizeof(after)), "kept",
		  "a small content known: the index by name is kept while the rows load");
	CHECK_STR(after, "1|1", "and it holds every version after");
	CHECK_STR(name_index_during(0, after, sizeof(after)), "made at the end",
		  "a content of unknown size: the index is dropped while the rows load");
	CHECK_STR(after, "1|1", "and made again, with every version, at the export's end");
	CHECK_STR(name_index_during(2000000000ULL, after, sizeof(after)), "made at the end",
		  "a content of 2 GB: the index is made at the end");
	CHECK_STR(after, "1|1", "holding every version");
}

int main(void)
{
	sqlite3_int64 used = -1, most = -1;
	catalogue cat;

	catalogue_process_init();   /* as every stage does first */
	if (!CHECK(cat_open(&cat) == 0, "a catalogue opens in memory (%s)", cat_error(&cat)))
		return unit_done();
	if (sqlite3_status64(SQLITE_STATUS_MEMORY_USED, &used, &most, 0) != SQLITE_OK)
		used = most = -1;
	CHECK(used == 0 && most == 0,
	      "SQLite keeps no memory statistics (no mutex at each allocation): %lld, %lld",
	      (long long)used, (long long)most);
	CHECK(cat.schema_version >= 6, "the migrations of sql/ are applied (%d)", cat.schema_version);
	CHECK_STR(q(&cat, "SELECT count(*) FROM version"), "0", "a new catalogue is empty");
	test_first_load(&cat);
	test_second_load(&cat);
	test_third_load(&cat);
	test_same_content(&cat);
	test_refused_and_aborted(&cat);
	test_precedence(&cat);
	catalogue_close(&cat);
	test_name_index();
	return unit_done();
}
