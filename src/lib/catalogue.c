#include "catalogue.h"
#include "strmap.h"
#include "textout.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct catalogue_load {
	catalogue *cat;               /* where the load goes */
	sqlite3_int64 snapshot_id;    /* the snapshot being written */
	char as_of[11];               /* its date */
	sqlite3_int64 export_id;      /* snapshot_export of the current export */
	char *export_name;            /* current export's name */
	char *file;                   /* current export's file */
	int same_content;             /* current export equals its previous content */
	unsigned char *seen;          /* seen[record id]: loaded in this export */
	size_t seen_cap;              /* entries in seen */
	strmap held;                  /* names of quarantined rows: not removed */
	catalogue_export_stats stats; /* counts for the current export */
	sqlite3_stmt *find_record;    /* prepared statements, see prepare_all() */
	sqlite3_stmt *insert_record;
	sqlite3_stmt *find_current;
	sqlite3_stmt *close_version;
	sqlite3_stmt *insert_version;
	sqlite3_stmt *insert_row;
	sqlite3_stmt *insert_quarantine;
	sqlite3_stmt *insert_notice;
};

static int db_fail(catalogue *cat, const char *what)
{
	mc_fmt(cat->err, sizeof(cat->err), "%s: %s: %s", cat->path, what,
	       sqlite3_errmsg(cat->db));
	return -1;
}

static int exec_sql(catalogue *cat, const char *sql)
{
	char *msg = NULL;

	if (sqlite3_exec(cat->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		mc_fmt(cat->err, sizeof(cat->err), "%s: %s", cat->path, msg ? msg : "error");
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

void catalogue_today(char buf[11])
{
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(buf, 11, "%Y-%m-%d", &tm);
}

static void now_iso(char buf[32])
{
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(buf, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

int catalogue_valid_day(const char *s)
{
	static const int days[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	int i, year, month, day;

	if (strlen(s) != 10 || s[4] != '-' || s[7] != '-')
		return 0;
	for (i = 0; i < 10; i++)
		if (i != 4 && i != 7 && (s[i] < '0' || s[i] > '9'))
			return 0;
	year = atoi(s);
	month = atoi(s + 5);
	day = atoi(s + 8);
	if (month < 1 || month > 12 || day < 1 || day > days[month - 1])
		return 0;
	if (month == 2 && day == 29 && !(year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)))
		return 0;
	return 1;
}

/* Does name look like NNN_something.sql? Returns NNN or -1. */
static int migration_number(const char *name)
{
	if (strlen(name) < 8 || !mc_ends_with(name, ".sql"))
		return -1;
	if (name[0] < '0' || name[0] > '9' || name[1] < '0' || name[1] > '9' ||
	    name[2] < '0' || name[2] > '9' || name[3] != '_')
		return -1;
	return atoi(name);
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int read_file(const char *path, sbuf *out)
{
	FILE *f = fopen(path, "rb");
	char buf[8192];
	size_t n;

	if (!f)
		return -1;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		sbuf_add(out, buf, n);
	n = ferror(f);
	fclose(f);
	return n ? -1 : 0;
}

static int current_schema_version(catalogue *cat, int *version)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(cat->db, "SELECT coalesce(max(version), 0) FROM schema_version",
			       -1, &st, NULL) != SQLITE_OK)
		return db_fail(cat, "reading the schema version");
	rc = sqlite3_step(st);
	*version = rc == SQLITE_ROW ? sqlite3_column_int(st, 0) : 0;
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : db_fail(cat, "reading the schema version");
}

static int apply_migration(catalogue *cat, const char *dir, const char *name, int number)
{
	sqlite3_stmt *st = NULL;
	char path[4096], when[32];
	sbuf sql;
	int rc = -1;

	sbuf_init(&sql);
	mc_fmt(path, sizeof(path), "%s/%s", dir, name);
	if (read_file(path, &sql)) {
		mc_fmt(cat->err, sizeof(cat->err), "%s: cannot read: %s", path, strerror(errno));
		goto out;
	}
	if (exec_sql(cat, "BEGIN IMMEDIATE"))
		goto out;
	if (exec_sql(cat, sql.data)) {
		char msg[sizeof(cat->err)];

		mc_fmt(msg, sizeof(msg), "%s", cat->err);
		mc_fmt(cat->err, sizeof(cat->err), "%s: %s", path, msg);
		goto rollback;
	}
	if (sqlite3_prepare_v2(cat->db,
			       "INSERT INTO schema_version(version, name, applied_at) VALUES (?, ?, ?)",
			       -1, &st, NULL) != SQLITE_OK) {
		db_fail(cat, "recording the migration");
		goto rollback;
	}
	now_iso(when);
	sqlite3_bind_int(st, 1, number);
	sqlite3_bind_text(st, 2, name, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 3, when, -1, SQLITE_TRANSIENT);
	if (sqlite3_step(st) != SQLITE_DONE) {
		db_fail(cat, "recording the migration");
		goto rollback;
	}
	if (exec_sql(cat, "COMMIT"))
		goto rollback;
	rc = 0;
	goto out;
rollback:
	sqlite3_exec(cat->db, "ROLLBACK", NULL, NULL, NULL);
out:
	sqlite3_finalize(st);
	sbuf_release(&sql);
	return rc;
}

static int migrate(catalogue *cat, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *ent;
	char **names = NULL;
	size_t n = 0, i;
	int version, rc = -1;

	if (!d) {
		mc_fmt(cat->err, sizeof(cat->err), "%s: cannot open the schema folder: %s", dir,
		       strerror(errno));
		return -1;
	}
	while ((ent = readdir(d))) {
		if (migration_number(ent->d_name) < 0)
			continue;
		names = xrealloc(names, (n + 1) * sizeof(*names));
		names[n++] = xstrdup(ent->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof(*names), name_cmp);
	if (exec_sql(cat, "CREATE TABLE IF NOT EXISTS schema_version ("
			  " version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
			  " applied_at TEXT NOT NULL)"))
		goto out;
	if (current_schema_version(cat, &version))
		goto out;
	for (i = 0; i < n; i++) {
		int number = migration_number(names[i]);

		if (number <= version)
			continue;
		if (apply_migration(cat, dir, names[i], number))
			goto out;
		version = number;
	}
	cat->schema_version = version;
	rc = 0;
out:
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return rc;
}

int catalogue_open(catalogue *cat, const char *path, const char *sqldir, int flags)
{
	int oflags = (flags & CATALOGUE_READONLY) ? SQLITE_OPEN_READONLY
						  : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
	int version;

	memset(cat, 0, sizeof(*cat));
	cat->path = xstrdup(path);
	if (sqlite3_open_v2(path, &cat->db, oflags, NULL) != SQLITE_OK) {
		mc_fmt(cat->err, sizeof(cat->err), "%s: cannot open the catalogue: %s", path,
		       cat->db ? sqlite3_errmsg(cat->db) : "out of memory");
		goto fail;
	}
	sqlite3_busy_timeout(cat->db, 10000);
	sqlite3_extended_result_codes(cat->db, 1);
	if (exec_sql(cat, "PRAGMA foreign_keys = ON; PRAGMA cache_size = -65536"))
		goto fail;
	if (flags & CATALOGUE_READONLY) {
		if (current_schema_version(cat, &version)) {
			mc_fmt(cat->err, sizeof(cat->err),
			       "%s: not a modelcat catalogue (no schema version)", path);
			goto fail;
		}
		cat->schema_version = version;
		return 0;
	}
	if (migrate(cat, sqldir))
		goto fail;
	return 0;
fail:
	sqlite3_close(cat->db);
	cat->db = NULL;
	free(cat->path);
	cat->path = NULL;
	return -1;
}

void catalogue_close(catalogue *cat)
{
	if (!cat)
		return;
	sqlite3_close(cat->db);
	free(cat->path);
	cat->db = NULL;
	cat->path = NULL;
}

void catalogue_remove(const char *path)
{
	static const char *const sides[] = { "", "-journal", "-wal", "-shm" };
	char name[4096];
	size_t i;

	for (i = 0; i < sizeof(sides) / sizeof(sides[0]); i++) {
		mc_fmt(name, sizeof(name), "%s%s", path, sides[i]);
		unlink(name);
	}
}

static int prepare(catalogue *cat, sqlite3_stmt **st, const char *sql)
{
	if (sqlite3_prepare_v2(cat->db, sql, -1, st, NULL) != SQLITE_OK)
		return db_fail(cat, "preparing a statement");
	return 0;
}

static int prepare_all(catalogue_load *ld)
{
	catalogue *cat = ld->cat;

	return prepare(cat, &ld->find_record,
		       "SELECT id FROM record WHERE export = ? AND name = ? AND occurrence = ?") ||
	       prepare(cat, &ld->insert_record,
		       "INSERT INTO record(export, name, occurrence) VALUES (?, ?, ?)") ||
	       prepare(cat, &ld->find_current,
		       "SELECT id, tombstone, norm FROM version"
		       " WHERE record_id = ? AND valid_to IS NULL") ||
	       prepare(cat, &ld->close_version,
		       "UPDATE version SET valid_to = ? WHERE id = ?") ||
	       prepare(cat, &ld->insert_version,
		       "INSERT INTO version(record_id, snapshot_export_id, valid_from, tombstone,"
		       " line, norm, raw) VALUES (?, ?, ?, ?, ?, ?, ?)") ||
	       prepare(cat, &ld->insert_row,
		       "INSERT INTO snapshot_row(snapshot_export_id, position, version_id)"
		       " VALUES (?, ?, ?)") ||
	       prepare(cat, &ld->insert_quarantine,
		       "INSERT INTO quarantine(snapshot_export_id, file, line, field, name, reason, raw)"
		       " VALUES (?, ?, ?, ?, ?, ?, ?)") ||
	       prepare(cat, &ld->insert_notice,
		       "INSERT INTO notice(snapshot_id, message) VALUES (?, ?)");
}

static void load_free(catalogue_load *ld)
{
	sqlite3_finalize(ld->find_record);
	sqlite3_finalize(ld->insert_record);
	sqlite3_finalize(ld->find_current);
	sqlite3_finalize(ld->close_version);
	sqlite3_finalize(ld->insert_version);
	sqlite3_finalize(ld->insert_row);
	sqlite3_finalize(ld->insert_quarantine);
	sqlite3_finalize(ld->insert_notice);
	strmap_release(&ld->held);
	free(ld->seen);
	free(ld->export_name);
	free(ld->file);
	free(ld);
}

int catalogue_load_begin(catalogue *cat, catalogue_load **out, const char *as_of)
{
	catalogue_load *ld = xcalloc(1, sizeof(*ld));
	sqlite3_stmt *st = NULL;
	char when[32];

	*out = NULL;
	ld->cat = cat;
	strmap_init(&ld->held);
	mc_fmt(ld->as_of, sizeof(ld->as_of), "%s", as_of);
	if (exec_sql(cat, "BEGIN IMMEDIATE")) {
		load_free(ld);
		return -1;
	}
	if (prepare_all(ld) || prepare(cat, &st, "INSERT INTO snapshot(as_of, ingested_at) VALUES (?, ?)"))
		goto fail;
	now_iso(when);
	sqlite3_bind_text(st, 1, as_of, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 2, when, -1, SQLITE_TRANSIENT);
	if (sqlite3_step(st) != SQLITE_DONE) {
		db_fail(cat, "creating the snapshot");
		goto fail;
	}
	sqlite3_finalize(st);
	ld->snapshot_id = sqlite3_last_insert_rowid(cat->db);
	*out = ld;
	return 0;
fail:
	sqlite3_finalize(st);
	catalogue_load_abort(ld);
	return -1;
}

/* Step a statement that returns no row, then reset it. */
static int step_done(catalogue_load *ld, sqlite3_stmt *st, const char *what)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	if (rc != SQLITE_DONE)
		return db_fail(ld->cat, what);
	return 0;
}

int catalogue_export_begin(catalogue_load *ld, const char *export_name, const char *file,
			   const char *sha256, unsigned long long bytes,
			   const catalogue_column *columns, size_t ncolumns, int *same)
{
	catalogue *cat = ld->cat;
	sqlite3_stmt *st = NULL;
	size_t i;
	int rc = -1, step;

	free(ld->export_name);
	free(ld->file);
	ld->export_name = xstrdup(export_name);
	ld->file = xstrdup(file);
	memset(&ld->stats, 0, sizeof(ld->stats));
	if (ld->seen)
		memset(ld->seen, 0, ld->seen_cap);
	strmap_release(&ld->held);
	ld->same_content = 0;
	*same = 0;

	/* the export's latest earlier snapshot: order and content */
	if (prepare(cat, &st,
		    "SELECT s.as_of, se.sha256, se.rows, se.loaded, se.quarantined"
		    " FROM snapshot_export se JOIN snapshot s ON s.id = se.snapshot_id"
		    " WHERE se.export = ? AND se.snapshot_id <> ?"
		    " ORDER BY s.as_of DESC, se.id DESC LIMIT 1"))
		goto out;
	sqlite3_bind_text(st, 1, export_name, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 2, ld->snapshot_id);
	step = sqlite3_step(st);
	if (step == SQLITE_ROW) {
		const char *prev = (const char *)sqlite3_column_text(st, 0);

		if (strcmp(prev, ld->as_of) > 0) {
			mc_fmt(cat->err, sizeof(cat->err),
			       "%s: export %s already has a snapshot dated %s, later than %s;"
			       " snapshots load oldest first (use reingest to rebuild)",
			       file, export_name, prev, ld->as_of);
			goto out;
		}
		if (!strcmp((const char *)sqlite3_column_text(st, 1), sha256)) {
			ld->same_content = *same = 1;
			ld->stats.same_content = 1;
			ld->stats.rows = (unsigned long)sqlite3_column_int64(st, 2);
			ld->stats.loaded = (unsigned long)sqlite3_column_int64(st, 3);
			ld->stats.quarantined = (unsigned long)sqlite3_column_int64(st, 4);
			ld->stats.unchanged = ld->stats.loaded;
		}
	} else if (step != SQLITE_DONE) {
		db_fail(cat, "reading earlier snapshots");
		goto out;
	}
	sqlite3_finalize(st);
	st = NULL;

	if (prepare(cat, &st,
		    "INSERT INTO snapshot_export(snapshot_id, export, file, sha256, bytes, rows,"
		    " loaded, quarantined, unchanged) VALUES (?, ?, ?, ?, ?, 0, 0, 0, ?)"))
		goto out;
	sqlite3_bind_int64(st, 1, ld->snapshot_id);
	sqlite3_bind_text(st, 2, export_name, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 3, file, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 4, sha256, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 5, (sqlite3_int64)bytes);
	sqlite3_bind_int(st, 6, ld->same_content);
	if (sqlite3_step(st) != SQLITE_DONE) {
		if (sqlite3_errcode(cat->db) == SQLITE_CONSTRAINT_UNIQUE)
			mc_fmt(cat->err, sizeof(cat->err),
			       "%s: export %s appears twice in one snapshot", file, export_name);
		else
			db_fail(cat, "recording the export");
		goto out;
	}
	ld->export_id = sqlite3_last_insert_rowid(cat->db);
	sqlite3_finalize(st);
	st = NULL;
	if (ld->same_content) {
		rc = 0;
		goto out;
	}
	if (prepare(cat, &st,
		    "INSERT INTO export_column(snapshot_export_id, position, header, field, type,"
		    " declared, headerless) VALUES (?, ?, ?, ?, ?, ?, ?)"))
		goto out;
	for (i = 0; i < ncolumns; i++) {
		sqlite3_bind_int64(st, 1, ld->export_id);
		sqlite3_bind_int64(st, 2, (sqlite3_int64)i);
		sqlite3_bind_text(st, 3, columns[i].header, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 4, columns[i].field, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 5, columns[i].type, -1, SQLITE_STATIC);
		sqlite3_bind_int(st, 6, columns[i].declared);
		sqlite3_bind_int(st, 7, columns[i].headerless);
		if (step_done(ld, st, "recording the header"))
			goto out;
	}
	rc = 0;
out:
	sqlite3_finalize(st);
	return rc;
}

static void mark_seen(catalogue_load *ld, sqlite3_int64 id)
{
	if ((size_t)id >= ld->seen_cap) {
		size_t cap = ld->seen_cap ? ld->seen_cap : 1024;

		while (cap <= (size_t)id)
			cap *= 2;
		ld->seen = xrealloc(ld->seen, cap);
		memset(ld->seen + ld->seen_cap, 0, cap - ld->seen_cap);
		ld->seen_cap = cap;
	}
	ld->seen[id] = 1;
}

static int record_id(catalogue_load *ld, const catalogue_row *row, sqlite3_int64 *id)
{
	sqlite3_stmt *st = ld->find_record;
	int rc;

	sqlite3_bind_text(st, 1, ld->export_name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, row->name, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, (sqlite3_int64)row->occurrence);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*id = sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	if (rc == SQLITE_ROW)
		return 0;
	if (rc != SQLITE_DONE)
		return db_fail(ld->cat, "looking up a record");
	st = ld->insert_record;
	sqlite3_bind_text(st, 1, ld->export_name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, row->name, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, (sqlite3_int64)row->occurrence);
	if (step_done(ld, st, "adding a record"))
		return -1;
	*id = sqlite3_last_insert_rowid(ld->cat->db);
	return 0;
}

static int insert_version(catalogue_load *ld, sqlite3_int64 record, int tombstone,
			  const catalogue_row *row, sqlite3_int64 *id)
{
	sqlite3_stmt *st = ld->insert_version;

	sqlite3_bind_int64(st, 1, record);
	sqlite3_bind_int64(st, 2, ld->export_id);
	sqlite3_bind_text(st, 3, ld->as_of, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 4, tombstone);
	if (row) {
		sqlite3_bind_int64(st, 5, (sqlite3_int64)row->line);
		sqlite3_bind_text(st, 6, row->norm_json, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 7, row->raw_json, -1, SQLITE_STATIC);
	} else {
		sqlite3_bind_null(st, 5);
		sqlite3_bind_text(st, 6, "{}", -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 7, "{}", -1, SQLITE_STATIC);
	}
	if (step_done(ld, st, "writing a version"))
		return -1;
	*id = sqlite3_last_insert_rowid(ld->cat->db);
	return 0;
}

static int close_version(catalogue_load *ld, sqlite3_int64 version)
{
	sqlite3_bind_text(ld->close_version, 1, ld->as_of, -1, SQLITE_STATIC);
	sqlite3_bind_int64(ld->close_version, 2, version);
	return step_done(ld, ld->close_version, "closing a version");
}

static int load_quarantined(catalogue_load *ld, const catalogue_row *row)
{
	sqlite3_stmt *st = ld->insert_quarantine;

	ld->stats.quarantined++;
	if (row->name && *row->name)
		strmap_get_or_add(&ld->held, row->name, strlen(row->name), NULL);
	sqlite3_bind_int64(st, 1, ld->export_id);
	sqlite3_bind_text(st, 2, ld->file, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, (sqlite3_int64)row->line);
	if (row->fault_field)
		sqlite3_bind_text(st, 4, row->fault_field, -1, SQLITE_STATIC);
	if (row->name && *row->name)
		sqlite3_bind_text(st, 5, row->name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 6, row->reason ? row->reason : "", -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 7, row->raw_csv ? row->raw_csv : "", -1, SQLITE_STATIC);
	return step_done(ld, st, "recording a quarantined row");
}

int catalogue_load_row(catalogue_load *ld, const catalogue_row *row)
{
	sqlite3_stmt *st = ld->find_current;
	sqlite3_int64 record, current = 0, version;
	int rc, tombstone = 0, same = 0;

	if (ld->same_content)
		return 0;
	ld->stats.rows++;
	if (row->quarantined)
		return load_quarantined(ld, row);
	ld->stats.loaded++;
	if (record_id(ld, row, &record))
		return -1;
	sqlite3_bind_int64(st, 1, record);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		current = sqlite3_column_int64(st, 0);
		tombstone = sqlite3_column_int(st, 1);
		same = !tombstone && !strcmp((const char *)sqlite3_column_text(st, 2), row->norm_json);
	}
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return db_fail(ld->cat, "reading the current version");
	if (same) {
		version = current;
		ld->stats.unchanged++;
	} else {
		if (current && close_version(ld, current))
			return -1;
		if (current && !tombstone)
			ld->stats.changed++;
		else
			ld->stats.added++;
		if (insert_version(ld, record, 0, row, &version))
			return -1;
	}
	mark_seen(ld, record);
	st = ld->insert_row;
	sqlite3_bind_int64(st, 1, ld->export_id);
	sqlite3_bind_int64(st, 2, (sqlite3_int64)row->position);
	sqlite3_bind_int64(st, 3, version);
	return step_done(ld, st, "recording the row");
}

/* Tombstone the records of the export that this snapshot no longer has. */
static int remove_missing(catalogue_load *ld)
{
	sqlite3_stmt *st = NULL;
	sqlite3_int64 *gone = NULL, tomb;
	size_t ngone = 0, i;
	int rc = -1, step;

	if (prepare(ld->cat, &st,
		    "SELECT r.id, r.name, v.id FROM record r JOIN version v"
		    " ON v.record_id = r.id AND v.valid_to IS NULL AND v.tombstone = 0"
		    " WHERE r.export = ?"))
		return -1;
	sqlite3_bind_text(st, 1, ld->export_name, -1, SQLITE_STATIC);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		sqlite3_int64 record = sqlite3_column_int64(st, 0);
		const char *name = (const char *)sqlite3_column_text(st, 1);

		if ((size_t)record < ld->seen_cap && ld->seen[record])
			continue;
		if (strmap_find(&ld->held, name, strlen(name)))
			continue;
		gone = xrealloc(gone, (ngone + 1) * 2 * sizeof(*gone));
		gone[2 * ngone] = record;
		gone[2 * ngone + 1] = sqlite3_column_int64(st, 2);
		ngone++;
	}
	if (step != SQLITE_DONE) {
		db_fail(ld->cat, "finding removed records");
		goto out;
	}
	for (i = 0; i < ngone; i++) {
		if (close_version(ld, gone[2 * i + 1]) ||
		    insert_version(ld, gone[2 * i], 1, NULL, &tomb))
			goto out;
	}
	ld->stats.removed = ngone;
	rc = 0;
out:
	free(gone);
	sqlite3_finalize(st);
	return rc;
}

int catalogue_export_end(catalogue_load *ld, catalogue_export_stats *stats)
{
	sqlite3_stmt *st = NULL;
	int rc = -1;

	if (!ld->same_content && remove_missing(ld))
		return -1;
	if (prepare(ld->cat, &st,
		    "UPDATE snapshot_export SET rows = ?, loaded = ?, quarantined = ? WHERE id = ?"))
		return -1;
	sqlite3_bind_int64(st, 1, (sqlite3_int64)ld->stats.rows);
	sqlite3_bind_int64(st, 2, (sqlite3_int64)ld->stats.loaded);
	sqlite3_bind_int64(st, 3, (sqlite3_int64)ld->stats.quarantined);
	sqlite3_bind_int64(st, 4, ld->export_id);
	if (sqlite3_step(st) != SQLITE_DONE)
		db_fail(ld->cat, "recording the counts");
	else
		rc = 0;
	sqlite3_finalize(st);
	if (stats)
		*stats = ld->stats;
	return rc;
}

const char *catalogue_load_error(const catalogue_load *ld)
{
	return ld->cat->err;
}

int catalogue_load_notice(catalogue_load *ld, const char *message)
{
	sqlite3_bind_int64(ld->insert_notice, 1, ld->snapshot_id);
	sqlite3_bind_text(ld->insert_notice, 2, message, -1, SQLITE_STATIC);
	return step_done(ld, ld->insert_notice, "recording a notice");
}

int catalogue_load_commit(catalogue_load *ld)
{
	catalogue *cat;
	int rc;

	if (!ld)
		return 0;
	cat = ld->cat;
	load_free(ld);
	rc = exec_sql(cat, "COMMIT");
	if (rc)
		sqlite3_exec(cat->db, "ROLLBACK", NULL, NULL, NULL);
	return rc;
}

void catalogue_load_abort(catalogue_load *ld)
{
	catalogue *cat;

	if (!ld)
		return;
	cat = ld->cat;
	load_free(ld);
	sqlite3_exec(cat->db, "ROLLBACK", NULL, NULL, NULL);
}

/* ---- reading an export back ---- */

int catalogue_export_csv(catalogue *cat, const char *export_name, const char *as_of,
			 sbuf *out)
{
	sqlite3_stmt *st = NULL;
	sqlite3_int64 export_id;
	strmap fields;
	char **row = NULL;
	size_t *lengths = NULL, ncols = 0, i;
	sqlite3_int64 position = -1;
	int rc = -1, step;

	strmap_init(&fields);
	if (prepare(cat, &st,
		    "SELECT se.id FROM snapshot_export se JOIN snapshot s ON s.id = se.snapshot_id"
		    " WHERE se.export = ? AND s.as_of <= ? AND se.unchanged = 0"
		    " ORDER BY s.as_of DESC, se.id DESC LIMIT 1"))
		goto out;
	sqlite3_bind_text(st, 1, export_name, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 2, as_of, -1, SQLITE_TRANSIENT);
	step = sqlite3_step(st);
	if (step == SQLITE_DONE) {
		mc_fmt(cat->err, sizeof(cat->err), "%s: no snapshot of export %s on or before %s",
		       cat->path, export_name, as_of);
		rc = 1;
		goto out;
	}
	if (step != SQLITE_ROW) {
		db_fail(cat, "finding the snapshot");
		goto out;
	}
	export_id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	st = NULL;

	/* header: canonical names in file order, header-less columns left out */
	if (prepare(cat, &st, "SELECT field FROM export_column WHERE snapshot_export_id = ?"
			      " AND headerless = 0 ORDER BY position"))
		goto out;
	sqlite3_bind_int64(st, 1, export_id);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		const char *field = (const char *)sqlite3_column_text(st, 0);

		*strmap_get_or_add(&fields, field, strlen(field), NULL) = ncols;
		if (ncols)
			sbuf_addc(out, ',');
		textout_csv_field(out, field, strlen(field));
		ncols++;
	}
	sbuf_addc(out, '\n');
	if (step != SQLITE_DONE) {
		db_fail(cat, "reading the header");
		goto out;
	}
	sqlite3_finalize(st);
	st = NULL;

	row = xcalloc(ncols, sizeof(*row));
	lengths = xcalloc(ncols, sizeof(*lengths));
	if (prepare(cat, &st,
		    "SELECT sr.position, j.key, j.value FROM snapshot_row sr"
		    " JOIN version v ON v.id = sr.version_id, json_each(v.norm) j"
		    " WHERE sr.snapshot_export_id = ? ORDER BY sr.position"))
		goto out;
	sqlite3_bind_int64(st, 1, export_id);
	for (;;) {
		sqlite3_int64 pos = 0;

		step = sqlite3_step(st);
		if (step == SQLITE_ROW)
			pos = sqlite3_column_int64(st, 0);
		if (position >= 0 && (step != SQLITE_ROW || pos != position)) {
			textout_csv_row(out, (const char *const *)row, lengths, ncols);
			for (i = 0; i < ncols; i++) {
				free(row[i]);
				row[i] = NULL;
				lengths[i] = 0;
			}
		}
		if (step != SQLITE_ROW)
			break;
		position = pos;
		{
			const char *key = (const char *)sqlite3_column_text(st, 1);
			const char *value = (const char *)sqlite3_column_text(st, 2);
			size_t *col = strmap_find(&fields, key, strlen(key));

			if (!col) {
				mc_fmt(cat->err, sizeof(cat->err),
				       "%s: stored row %lld has field '%s' missing from its header",
				       cat->path, (long long)pos, key);
				goto out;
			}
			free(row[*col]);
			lengths[*col] = (size_t)sqlite3_column_bytes(st, 2);
			row[*col] = xstrndup(value ? value : "", lengths[*col]);
		}
	}
	if (step != SQLITE_DONE) {
		db_fail(cat, "reading the rows");
		goto out;
	}
	rc = 0;
out:
	if (row) {
		for (i = 0; i < ncols; i++)
			free(row[i]);
	}
	free(row);
	free(lengths);
	sqlite3_finalize(st);
	strmap_release(&fields);
	return rc;
}

/* ---- encoding rows ---- */

static int order_cmp(const void *a, const void *b, void *columns)
{
	const parse_column *cols = columns;

	return strcmp(cols[*(const size_t *)a].field, cols[*(const size_t *)b].field);
}

void record_order(const parse_column *columns, size_t n, size_t *order)
{
	size_t i;

	for (i = 0; i < n; i++)
		order[i] = i;
	qsort_r(order, n, sizeof(*order), order_cmp, (void *)columns);
}

void record_encode(const parse_column *columns, const size_t *order, size_t ncolumns,
		   const parse_row *row, sbuf *norm, sbuf *raw)
{
	size_t k;
	int nfirst = 1, rfirst = 1;

	sbuf_addc(norm, '{');
	sbuf_addc(raw, '{');
	for (k = 0; k < ncolumns; k++) {
		size_t i = order[k];
		const parse_value *v = &row->values[i];

		if (v->present) {
			if (!nfirst)
				sbuf_addc(norm, ',');
			nfirst = 0;
			textout_json_string(norm, columns[i].field, strlen(columns[i].field));
			sbuf_addc(norm, ':');
			textout_json_string(norm, v->norm, v->norm_len);
		}
		if (v->raw_len && !(v->present && v->raw_len == v->norm_len &&
				    !memcmp(v->raw, v->norm, v->norm_len))) {
			if (!rfirst)
				sbuf_addc(raw, ',');
			rfirst = 0;
			textout_json_string(raw, columns[i].field, strlen(columns[i].field));
			sbuf_addc(raw, ':');
			textout_json_string(raw, v->raw, v->raw_len);
		}
	}
	sbuf_addc(norm, '}');
	sbuf_addc(raw, '}');
}
