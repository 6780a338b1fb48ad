/*
 * test_current: db/current.h, the stream of an export's live records and
 * the table that recognises rows by name and occurrence:
 *   - the table finds what was added, by name and occurrence, and nothing
 *     else, past its expected size (it grows);
 *   - a key added twice is ambiguous: found neither time;
 *   - ids beyond 32 bits are refused (the caller then keeps no table);
 *   - the scan hands over each live record once, in record id order,
 *     with its current version and raw digest: not a tombstone, not a
 *     closed version, not another export's record.
 */
#include "unit.h"
#include "catalogue_fixture.h"
#include "db/current.h"

#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

static void test_table(void)
{
	current_table t;
	unsigned char raw[16];
	char name[32];
	size_t i, found = 0, right = 0;
	const current_entry *e;

	current_table_init(&t, 0);
	for (i = 0; i < 5000; i++) {
		memset(raw, (int)(i & 0xff), sizeof(raw));
		snprintf(name, sizeof(name), "model %zu", i);
		current_table_add(&t, name, 1 + i % 3, (sqlite3_int64)i + 1, (sqlite3_int64)i + 10,
				  raw);
	}
	CHECK(t.count == 5000 && t.cap >= 5000, "5000 records held (%zu in %zu slots)", t.count,
	      t.cap);
	for (i = 0; i < 5000; i++) {
		snprintf(name, sizeof(name), "model %zu", i);
		e = current_table_find(&t, name, 1 + i % 3);
		if (e)
			found++;
		if (e && e->version == i + 1 && e->record == i + 10 && e->raw[0] == (i & 0xff))
			right++;
	}
	CHECK(found == 5000 && right == 5000, "each found with its ids and digest (%zu, %zu)",
	      found, right);
	CHECK(!current_table_find(&t, "model 1", 1), "another occurrence is not found");
	CHECK(!current_table_find(&t, "model 5000", 1), "another name is not found");
	memset(raw, 7, sizeof(raw));
	CHECK(current_table_add(&t, "twice", 1, 9001, 9002, raw) == 0 &&
	      current_table_find(&t, "twice", 1), "a key added once is found");
	CHECK(current_table_add(&t, "twice", 1, 9003, 9004, raw) == 0 &&
	      !current_table_find(&t, "twice", 1), "a key added twice is found neither time");
	CHECK(current_table_add(&t, "large", 1, (sqlite3_int64)1 << 32, 5, raw) == -1 &&
	      current_table_add(&t, "large", 1, 5, (sqlite3_int64)1 << 32, raw) == -1,
	      "ids beyond 32 bits are refused");
	current_table_release(&t);
	CHECK(!current_table_find(&t, "model 1", 2), "a released table finds nothing");
}

/* current_fn: the records into a line each, "id name#occurrence version raw". */
static int list_record(void *ctx, const current_record *rec, mc_err *err)
{
	char *out = ctx;
	size_t len = strlen(out);

	(void)err;
	snprintf(out + len, 1024 - len, "%lld %s#%lld %lld %s\n", (long long)rec->record, rec->name,
		 (long long)rec->occurrence, (long long)rec->version,
		 rec->raw ? (rec->raw[0] == 0xab ? "ab" : "other") : "none");
	return 0;
}

static int stop_at_second(void *ctx, const current_record *rec, mc_err *err)
{
	int *n = ctx;

	(void)rec;
	(void)err;
	return ++*n == 2 ? 7 : 0;
}

static void test_scan(void)
{
	catalogue cat;
	char out[1024] = "";
	int n = 0;
	const char *setup =
		"INSERT INTO snapshot(id, as_of, ingested_at) VALUES (1, '2025-01-01', 'x');"
		"INSERT INTO snapshot_export(id, snapshot_id, export, file, sha256, bytes, rows,"
		" loaded, quarantined) VALUES (1, 1, 'e', 'f', '', 0, 0, 0, 0);"
		"INSERT INTO record(id, export, name, occurrence) VALUES (3, 'e', 'C', 1),"
		" (1, 'e', 'A', 1), (2, 'e', 'B', 2), (4, 'other', 'A', 1), (5, 'e', 'D', 1);"
		/* A: closed then current; B: current with no raw digest; C: a
		 * tombstone; D: no version; other's A: live but another export */
		"INSERT INTO version(id, record_id, snapshot_export_id, valid_from, valid_to,"
		" tombstone, norm, raw, raw_digest) VALUES"
		" (10, 1, 1, '2025-01-01', '2025-01-01', 0, '{}', '{}', NULL),"
		" (11, 1, 1, '2025-01-01', NULL, 0, '{}', '{}', zeroblob(16)),"
		" (12, 2, 1, '2025-01-01', NULL, 0, '{}', '{}', NULL),"
		" (13, 3, 1, '2025-01-01', NULL, 1, '{}', '{}', NULL),"
		" (14, 4, 1, '2025-01-01', NULL, 0, '{}', '{}', NULL);"
		"UPDATE version SET raw_digest = x'abababababababababababababababab' WHERE id = 11;";

	if (!CHECK(cat_open(&cat) == 0, "a catalogue opens in memory (%s)", cat_error(&cat)))
		return;
	if (!CHECK(sqlite3_exec(cat.db, setup, NULL, NULL, NULL) == SQLITE_OK, "records made (%s)",
		   sqlite3_errmsg(cat.db)))
		goto out;
	CHECK(current_scan(&cat, "e", list_record, out, &test_err) == 0, "the scan runs (%s)",
	      test_err.msg);
	CHECK_STR(out, "1 A#1 11 ab\n2 B#2 12 none\n",
		  "live records only, in id order, with version and digest");
	CHECK(current_scan(&cat, "e", stop_at_second, &n, &test_err) == 7 && n == 2,
	      "a callback's value stops the scan and is returned");
	out[0] = '\0';
	CHECK(current_scan(&cat, "none", list_record, out, &test_err) == 0 && !*out,
	      "an export without records: nothing");
out:
	catalogue_close(&cat);
}

int main(void)
{
	test_table();
	test_scan();
	return unit_done();
}
