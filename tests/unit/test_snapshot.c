/*
 * test_snapshot: snapshots named as people name them (db/snapshot.h):
 * DATE or DATE.N parsed, found, numbered within their day and labelled as
 * they are published; and the command-line side of it (cli/snapref.h):
 * the pair a diff compares, the day show and render accept. The catalogue,
 * in memory with the migrations of sql/, holds empty snapshots:
 *
 *   2024-01-01 (1), 2024-01-02 (2, 3, 4: three on one day), 2024-01-05 (5)
 */
#include "unit.h"
#include "catalogue_fixture.h"
#include "db/load.h"
#include "db/snapshot.h"
#include "cli/snapref.h"

#include <string.h>

static int add_snapshot(catalogue *cat, const char *day)
{
	load *ld;

	if (load_begin(cat, &ld, day, &test_err))
		return -1;
	return load_commit(ld, &test_err);
}

static void test_parse(void)
{
	static const char *const bad[] = {
		"", "2024-01-0", "2024-13-01", "2024-01-01.", "2024-01-01.0", "2024-01-01.01",
		"2024-01-01.10000", "2024-01-01.1x", "2024-01-01x", "2024-01-01.-1", " 2024-01-01",
		"2024-02-30.1",
	};
	snapshot_ref r;
	size_t i;

	CHECK(snapshot_ref_parse("2024-01-02", &r) == 0 && !strcmp(r.day, "2024-01-02") && r.n == 0,
	      "DATE parses: the day's last (n 0)");
	CHECK(snapshot_ref_parse("2024-01-02.3", &r) == 0 && !strcmp(r.day, "2024-01-02") && r.n == 3,
	      "DATE.3 parses");
	CHECK(snapshot_ref_parse("2024-01-02.9999", &r) == 0 && r.n == 9999, "DATE.9999 parses");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK(snapshot_ref_parse(bad[i], &r) == -1, "'%s' is refused", bad[i]);
}

static sqlite3_int64 find(catalogue *cat, const char *text)
{
	snapshot_ref r;
	sqlite3_int64 id = -1;

	if (snapshot_ref_parse(text, &r) || snapshot_ref_find(cat, &r, &id, &test_err))
		return -1;
	return id;
}

static void test_find(catalogue *cat)
{
	char label[16];
	int n = -1;
	sqlite3_int64 id;

	CHECK(find(cat, "2024-01-01") == 1, "2024-01-01 is snapshot 1");
	CHECK(find(cat, "2024-01-01.1") == 1, "2024-01-01.1 too");
	CHECK(find(cat, "2024-01-01.2") == 0, "2024-01-01.2: none");
	CHECK(find(cat, "2024-01-02") == 4, "2024-01-02: the day's last (4)");
	CHECK(find(cat, "2024-01-02.1") == 2 && find(cat, "2024-01-02.2") == 3 &&
	      find(cat, "2024-01-02.3") == 4, "2024-01-02.1, .2, .3: 2, 3, 4");
	CHECK(find(cat, "2024-01-03") == 0, "a day without snapshots: none");
	CHECK(snapshot_ordinal(cat, 3, &n, &test_err) == 0 && n == 2, "snapshot 3 is its day's 2nd");
	CHECK(snapshot_ordinal(cat, 5, &n, &test_err) == 0 && n == 1, "snapshot 5 is its day's 1st");
	CHECK(snapshot_ordinal(cat, 99, &n, &test_err) == 0 && n == 0, "an unknown id: 0");
	CHECK(snapshot_label(cat, 2, label, &test_err) == 0, "label of 2");
	CHECK_STR(label, "2024-01-02", "the day's first keeps the bare date");
	snapshot_label(cat, 4, label, &test_err);
	CHECK_STR(label, "2024-01-02.3", "the third is DATE.3");
	snapshot_label(cat, 99, label, &test_err);
	CHECK_STR(label, "", "an unknown id has no label");
	CHECK(snapref_find(cat, "2024-01-03", &id, &test_err) == 0 && id == 4,
	      "snapref: a DATE between snapshots is the state on it (4)");
	CHECK(snapref_find(cat, "2023-12-31", &id, &test_err) == 0 && id == 0,
	      "snapref: a DATE before every snapshot: none (0)");
	CHECK(snapref_find(cat, "2024-01-02.4", &id, &test_err) == 1, "snapref: an unknown DATE.N: 1");
	CHECK(strstr(test_err.msg, "no snapshot 2024-01-02.4; 2024-01-02 has 3") != NULL,
	      "saying how many the day has (%s)", test_err.msg);
	CHECK(snapref_numbered("2024-01-02.2") && !snapref_numbered("2024-01-02"),
	      "snapref_numbered tells DATE.N from DATE");
}

static void test_pair(catalogue *cat)
{
	sqlite3_int64 a, b;
	char label[16], day[11];

	CHECK(snapref_pair(cat, "2024-01-02.1", "2024-01-02.2", &a, &b, label, &test_err) == 0 &&
	      a == 2 && b == 3, "pair: DATE.1 to DATE.2");
	CHECK_STR(label, "2024-01-02.1", "its from is as given");
	CHECK(snapref_pair(cat, "", "2024-01-02.3", &a, &b, label, &test_err) == 0 && a == 3 && b == 4,
	      "pair: DATE.3 alone compares with DATE.2");
	CHECK_STR(label, "2024-01-02.2", "labelled DATE.2");
	CHECK(snapref_pair(cat, "", "2024-01-02.1", &a, &b, label, &test_err) == 0 && a == 1 && b == 2,
	      "pair: DATE.1 alone compares with the day before");
	CHECK_STR(label, "2024-01-01", "labelled by that day");
	CHECK(snapref_pair(cat, "2024-01-02.2", "2024-01-02.1", &a, &b, label, &test_err) == 2,
	      "pair: from after to: 2");
	CHECK(snapref_pair(cat, "2024-01-02.2", "2024-01-02", &a, &b, label, &test_err) == 0 &&
	      a == 3 && b == 4, "pair: DATE.2 to DATE (the day's last)");
	CHECK(snapref_day(cat, "2024-01-02.3", day, &test_err) == 0 && !strcmp(day, "2024-01-02"),
	      "day: the day's last by number is its day");
	CHECK(snapref_day(cat, "2024-01-02.2", day, &test_err) == 1, "day: an earlier one is refused");
	CHECK(snapref_day(cat, "2024-01-09", day, &test_err) == 0 && !strcmp(day, "2024-01-09"),
	      "day: a DATE is itself");
}

int main(void)
{
	static const char *const days[] = {
		"2024-01-01", "2024-01-02", "2024-01-02", "2024-01-02", "2024-01-05",
	};
	catalogue cat;
	size_t i;

	test_parse();
	if (!CHECK(cat_open(&cat) == 0, "a catalogue opens in memory (%s)", cat_error(&cat)))
		return unit_done();
	for (i = 0; i < sizeof(days) / sizeof(days[0]); i++)
		if (!CHECK(add_snapshot(&cat, days[i]) == 0, "snapshot %zu (%s) loads (%s)", i + 1,
			   days[i], cat_error(&cat)))
			return unit_done();
	test_find(&cat);
	test_pair(&cat);
	catalogue_close(&cat);
	return unit_done();
}
