/*
 * test_install: catalogue_install() (db/catalogue.h), the way a rebuilt
 * catalogue takes the place of the live one, on files in a scratch folder:
 *   - the behaviour it rests on: the first sqlite3_backup_step(b, 0) holds
 *     the destination's write lock before any page is copied, and a backup
 *     finished before it is done leaves the destination as it was;
 *   - installed over a live file that another connection has open: that
 *     connection then reads the new content, and the file is the same
 *     (inode, mode);
 *   - refused (conflict) when another program committed to the live file
 *     after its stamp was taken: that program's write is kept;
 *   - a live file that does not exist yet is linked into place; one that
 *     appeared since the stamp said "no file" is a conflict;
 *   - a damaged (truncated) live file is rebuilt in place;
 *   - catalogue_carry(): the rows of named tables of the file a rebuild
 *     replaces, copied into the rebuild; a table the old file lacks, or no
 *     old file, copies nothing; an old file that is no database is an
 *     error and the rebuild is unchanged.
 */
#include "unit.h"
#include "db/catalogue.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char scratch[256];

static void path_of(char *buf, size_t len, const char *name)
{
	mc_fmt(buf, len, "%s/%s", scratch, name);
}

/* A database at path with table t holding the rows "value", n times. */
static void make_db(const char *path, const char *value, int n)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	int i;

	unlink(path);
	sqlite3_open(path, &db);
	sqlite3_exec(db, "CREATE TABLE t(x); BEGIN", NULL, NULL, NULL);
	sqlite3_prepare_v2(db, "INSERT INTO t VALUES (?)", -1, &st, NULL);
	for (i = 0; i < n; i++) {
		sqlite3_bind_text(st, 1, value, -1, SQLITE_STATIC);
		sqlite3_step(st);
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
	sqlite3_close(db);
}

/* "count value" of table t through db: "3 new" */
static const char *content(sqlite3 *db)
{
	static char out[64];
	sqlite3_stmt *st;

	out[0] = '\0';
	if (sqlite3_prepare_v2(db, "SELECT count(*), coalesce(max(x), '') FROM t", -1, &st, NULL))
		return "(error)";
	if (sqlite3_step(st) == SQLITE_ROW)
		mc_fmt(out, sizeof(out), "%d %s", sqlite3_column_int(st, 0),
		       (const char *)sqlite3_column_text(st, 1));
	sqlite3_finalize(st);
	return out;
}

static const char *content_of(const char *path)
{
	static char out[64];
	sqlite3 *db;

	sqlite3_open(path, &db);
	mc_fmt(out, sizeof(out), "%s", content(db));
	sqlite3_close(db);
	return out;
}

static int exec(const char *path, const char *sql)
{
	sqlite3 *db;
	int rc;

	sqlite3_open(path, &db);
	rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
	sqlite3_close(db);
	return rc;
}

static void test_backup_lock(void)
{
	char built[300], live[300];
	sqlite3 *from, *to, *other;
	sqlite3_backup *b;
	int rc;

	path_of(built, sizeof(built), "lock-built.db");
	path_of(live, sizeof(live), "lock-live.db");
	make_db(built, "new", 3);
	make_db(live, "old", 1);
	sqlite3_open(built, &from);
	sqlite3_open(live, &to);
	sqlite3_open(live, &other);
	b = sqlite3_backup_init(to, "main", from, "main");
	rc = sqlite3_backup_step(b, 0);
	CHECK(rc == SQLITE_OK, "backup_step(b, 0) begins the copy (%d)", rc);
	CHECK(sqlite3_exec(other, "BEGIN IMMEDIATE", NULL, NULL, NULL) == SQLITE_BUSY,
	      "after it, another connection cannot begin a write");
	CHECK(sqlite3_exec(other, "SELECT count(*) FROM t", NULL, NULL, NULL) == SQLITE_BUSY,
	      "nor read (the destination is locked exclusively)");
	sqlite3_backup_finish(b);
	CHECK_STR(content(other), "1 old", "a backup finished before it is done leaves the"
		  " destination as it was");
	sqlite3_close(other);
	sqlite3_close(to);
	sqlite3_close(from);
}

static void test_install_open_reader(void)
{
	char built[300], live[300];
	catalogue_stamp seen;
	struct stat before, after;
	sqlite3 *reader;
	mc_err err = { "" };
	int conflict = -1, rc;

	path_of(built, sizeof(built), "built.db");
	path_of(live, sizeof(live), "live.db");
	make_db(built, "new", 3);
	make_db(live, "old", 1);
	chmod(live, 0600);
	stat(live, &before);
	sqlite3_open(live, &reader);
	CHECK_STR(content(reader), "1 old", "a reader has the live catalogue open");
	CHECK(catalogue_stamp_take(live, &seen, &err) == 0 && seen.exists, "its stamp is taken");
	rc = catalogue_install(built, live, &seen, 0, &conflict, &err);
	CHECK(rc == 0 && conflict == 0, "installed over it (%s)", err.msg);
	CHECK_STR(content(reader), "3 new", "the open connection reads the new catalogue");
	stat(live, &after);
	CHECK(before.st_ino == after.st_ino && before.st_dev == after.st_dev,
	      "the live file is the same file");
	CHECK((after.st_mode & 07777) == 0600, "with its mode (%o)", after.st_mode & 07777);
	sqlite3_close(reader);
	CHECK(exec(live, "PRAGMA integrity_check") == SQLITE_OK, "and is whole");
}

static void test_install_changed(void)
{
	char built[300], live[300];
	catalogue_stamp seen;
	mc_err err = { "" };
	int conflict = -1, rc;

	path_of(built, sizeof(built), "built2.db");
	path_of(live, sizeof(live), "live2.db");
	make_db(built, "new", 3);
	make_db(live, "old", 1);
	catalogue_stamp_take(live, &seen, &err);
	/* a program that does not take the writer lock commits meanwhile */
	exec(live, "INSERT INTO t VALUES ('shell')");
	rc = catalogue_install(built, live, &seen, 0, &conflict, &err);
	CHECK(rc == -1 && conflict == 1, "a live catalogue changed since its stamp is refused");
	CHECK(strstr(err.msg, "live2.db: changed by another program during the run; nothing"
		     " installed") != NULL, "the message says so: %s", err.msg);
	CHECK_STR(content_of(live), "2 shell", "the other program's write is kept");
}

static void test_install_new(void)
{
	char built[300], live[300];
	catalogue_stamp seen;
	mc_err err = { "" };
	int conflict = -1, rc;

	path_of(built, sizeof(built), "built3.db");
	path_of(live, sizeof(live), "live3.db");
	make_db(built, "new", 3);
	unlink(live);
	CHECK(catalogue_stamp_take(live, &seen, &err) == 0 && !seen.exists,
	      "the stamp of no file says so");
	rc = catalogue_install(built, live, &seen, 0, &conflict, &err);
	CHECK(rc == 0 && conflict == 0, "a catalogue where there was none is put in place (%s)",
	      err.msg);
	CHECK_STR(content_of(live), "3 new", "with the built content");
	make_db(built, "newer", 2);
	rc = catalogue_install(built, live, &seen, 0, &conflict, &err);
	CHECK(rc == -1 && conflict == 1, "one made meanwhile by another program is a conflict");
	CHECK_STR(content_of(live), "3 new", "and is kept");
}

static void test_install_damaged(void)
{
	char built[300], live[300];
	catalogue_stamp seen;
	struct stat before, after;
	mc_err err = { "" };
	int conflict = -1, rc;

	path_of(built, sizeof(built), "built4.db");
	path_of(live, sizeof(live), "live4.db");
	make_db(built, "new", 3);
	make_db(live, "old", 20000);
	stat(live, &before);
	CHECK(truncate(live, before.st_size / 2) == 0, "a live catalogue cut in half");
	CHECK(exec(live, "SELECT count(*) FROM t") != SQLITE_OK, "is damaged");
	CHECK(catalogue_stamp_take(live, &seen, &err) == 0, "its stamp is taken all the same");
	rc = catalogue_install(built, live, &seen, 0, &conflict, &err);
	CHECK(rc == 0, "the rebuilt catalogue is installed into it (%s)", err.msg);
	stat(live, &after);
	CHECK(before.st_ino == after.st_ino, "in place");
	CHECK_STR(content_of(live), "3 new", "with the built content");
	CHECK(exec(live, "PRAGMA integrity_check") == SQLITE_OK, "whole");
}

static void test_carry(void)
{
	static const char *const tables[] = { "t", "u" };
	char from[300], to[300], bad[300];
	size_t copied[2] = { 9, 9 };
	catalogue cat;
	mc_err err;
	FILE *f;

	path_of(from, sizeof(from), "carry-from.db");
	path_of(to, sizeof(to), "carry-to.db");
	path_of(bad, sizeof(bad), "carry-bad.db");
	unlink(from);
	unlink(to);
	sqlite3_open(from, &cat.db);
	sqlite3_exec(cat.db, "CREATE TABLE t(x PRIMARY KEY); INSERT INTO t VALUES ('a'), ('b'),"
		     " ('old')", NULL, NULL, NULL);
	sqlite3_close(cat.db);
	memset(&cat, 0, sizeof(cat));
	cat.path = to;
	sqlite3_open(to, &cat.db);
	sqlite3_exec(cat.db, "CREATE TABLE t(x PRIMARY KEY); CREATE TABLE u(y)", NULL, NULL, NULL);
	CHECK(catalogue_carry(&cat, from, tables, 2, copied, &err) == 0, "carry: done");
	CHECK(copied[0] == 3, "carry: the 3 rows of t (%zu)", copied[0]);
	CHECK(copied[1] == 0, "carry: a table the old file lacks gives none (%zu)", copied[1]);
	CHECK_STR(content(cat.db), "3 old", "carry: the rebuild has them");
	CHECK(catalogue_carry(&cat, from, tables, 1, copied, &err) == 0 && copied[0] == 0,
	      "carry again: the rows it has stay, none doubled");
	CHECK(catalogue_carry(&cat, "/nonexistent/x.db", tables, 1, copied, &err) == 0 &&
	      copied[0] == 0, "carry from no file: nothing, no error");
	f = fopen(bad, "w");
	if (f) {
		fputs("this is not a database, only text long enough to have a header\n", f);
		fclose(f);
	}
	CHECK(catalogue_carry(&cat, bad, tables, 1, copied, &err) == -1,
	      "carry from a file that is no database: an error");
	CHECK_STR(content(cat.db), "3 old", "and the rebuild unchanged");
	sqlite3_close(cat.db);
}

int main(void)
{
	char cmd[300];

	mc_fmt(scratch, sizeof(scratch), "%s/modelcat-unit-install.XXXXXX",
	       getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(scratch)) {
		printf("not ok 1 - cannot make a scratch folder\n");
		return 1;
	}
	test_backup_lock();
	test_install_open_reader();
	test_install_changed();
	test_install_new();
	test_install_damaged();
	test_carry();
	mc_fmt(cmd, sizeof(cmd), "rm -rf '%s'", scratch);
	if (system(cmd)) {
		/* a scratch folder left in $TMPDIR is no failure of the test */
	}
	return unit_done();
}
