#include "db/catalogue.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>


const char *catalogue_db_error(sqlite3 *db, char *buf, size_t len)
{
	int code, sys;

	if (!db) {
		mc_fmt(buf, len, "out of memory");
		return buf;
	}
	code = sqlite3_errcode(db) & 0xff;
	sys = sqlite3_system_errno(db);
	if (sys && (code == SQLITE_IOERR || code == SQLITE_CANTOPEN || code == SQLITE_FULL))
		mc_fmt(buf, len, "%s (%s)", sqlite3_errmsg(db), strerror(sys));
	else
		mc_fmt(buf, len, "%s", sqlite3_errmsg(db));
	return buf;
}

int catalogue_fail(catalogue *cat, const char *what, mc_err *err)
{
	char msg[512];

	return mc_error(err, "%s: %s: %s", cat->path, what,
			catalogue_db_error(cat->db, msg, sizeof(msg)));
}

int catalogue_read_begin(catalogue *cat, mc_err *err)
{
	if (!sqlite3_get_autocommit(cat->db))
		return 0;
	return catalogue_exec(cat, "BEGIN", err) ? -1 : 1;
}

int catalogue_read_end(catalogue *cat, mc_err *err)
{
	if (sqlite3_get_autocommit(cat->db))
		return 0;   /* (SQLite ended it on an error) */
	return catalogue_exec(cat, "COMMIT", err);
}

int catalogue_exec(catalogue *cat, const char *sql, mc_err *err)
{
	char msg[512];

	if (sqlite3_exec(cat->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return mc_error(err, "%s: %s", cat->path,
				catalogue_db_error(cat->db, msg, sizeof(msg)));
	return 0;
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

int catalogue_read_sql(const char *path, sbuf *out, mc_err *err)
{
	FILE *f = fopen(path, "rb");
	char buf[8192];
	size_t n;

	if (!f)
		return mc_error(err, "%s: cannot read: %s", path, strerror(errno));
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		sbuf_add(out, buf, n);
	n = ferror(f);
	fclose(f);
	return n ? mc_error(err, "%s: cannot read: %s", path, strerror(errno)) : 0;
}

static int current_schema_version(catalogue *cat, int *version, mc_err *err)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(cat->db, "SELECT coalesce(max(version), 0) FROM schema_version",
			       -1, &st, NULL) != SQLITE_OK)
		return catalogue_fail(cat, "reading the schema version", err);
	rc = sqlite3_step(st);
	*version = rc == SQLITE_ROW ? sqlite3_column_int(st, 0) : 0;
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : catalogue_fail(cat, "reading the schema version", err);
}

static int migration_applied(catalogue *cat, int number, int *applied, mc_err *err)
{
	sqlite3_stmt *st;
	int rc;

	*applied = 0;
	if (sqlite3_prepare_v2(cat->db, "SELECT 1 FROM schema_version WHERE version = ?",
			       -1, &st, NULL) != SQLITE_OK)
		return catalogue_fail(cat, "reading the schema version", err);
	sqlite3_bind_int(st, 1, number);
	rc = sqlite3_step(st);
	*applied = rc == SQLITE_ROW;
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : catalogue_fail(cat, "reading the schema version", err);
}

/* Is any of the n migrations not yet applied (or is there no
 * schema_version table at all: a new file)? A read only, so that opening
 * an up-to-date catalogue read-write takes no write lock. */
static int migrations_pending(catalogue *cat, char **names, size_t n, int *pending, mc_err *err)
{
	sqlite3_stmt *st;
	int rc, applied;
	size_t i;

	*pending = 1;
	if (sqlite3_prepare_v2(cat->db, "SELECT 1 FROM sqlite_master WHERE type = 'table'"
			       " AND name = 'schema_version'", -1, &st, NULL) != SQLITE_OK)
		return catalogue_fail(cat, "reading the schema", err);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc == SQLITE_DONE)
		return 0;
	if (rc != SQLITE_ROW)
		return catalogue_fail(cat, "reading the schema", err);
	for (i = 0; i < n; i++) {
		if (migration_applied(cat, migration_number(names[i]), &applied, err))
			return -1;
		if (!applied)
			return 0;
	}
	*pending = 0;
	return 0;
}

/* One migration, inside the caller's transaction. */
static int apply_migration(catalogue *cat, const char *dir, const char *name, int number, mc_err *err)
{
	sqlite3_stmt *st = NULL;
	char path[4096], when[32];
	sbuf sql;
	int rc = -1;

	sbuf_init(&sql);
	mc_fmt(path, sizeof(path), "%s/%s", dir, name);
	if (catalogue_read_sql(path, &sql, err))
		goto out;
	if (catalogue_exec(cat, sql.data, err)) {
		mc_error_prefix(err, "%s", path);
		goto out;
	}
	if (sqlite3_prepare_v2(cat->db,
			       "INSERT INTO schema_version(version, name, applied_at) VALUES (?, ?, ?)",
			       -1, &st, NULL) != SQLITE_OK) {
		catalogue_fail(cat, "recording the migration", err);
		goto out;
	}
	day_now(when);
	sqlite3_bind_int(st, 1, number);
	if (sqlite3_bind_text(st, 2, name, -1, SQLITE_TRANSIENT) != SQLITE_OK ||
	    sqlite3_bind_text(st, 3, when, -1, SQLITE_TRANSIENT) != SQLITE_OK ||
	    sqlite3_step(st) != SQLITE_DONE) {
		catalogue_fail(cat, "recording the migration", err);
		goto out;
	}
	rc = 0;
out:
	sqlite3_finalize(st);
	sbuf_release(&sql);
	return rc;
}

static int migrate(catalogue *cat, const char *dir, mc_err *err)
{
	DIR *d = opendir(dir);
	struct dirent *ent;
	char **names = NULL;
	size_t n = 0, i;
	int version, pending, rc = -1;

	if (!d)
		return mc_error(err, "%s: cannot open the schema folder: %s", dir, strerror(errno));
	while ((ent = readdir(d))) {
		if (migration_number(ent->d_name) < 0)
			continue;
		names = xrealloc(names, (n + 1) * sizeof(*names));
		names[n++] = xstrdup(ent->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof(*names), name_cmp);
	if (migrations_pending(cat, names, n, &pending, err))
		goto out;
	/* every migration not yet applied, in number order (not only those
	 * above the highest applied: a catalogue made by a branch that had a
	 * later number still gets the earlier ones), all in one transaction:
	 * a new catalogue killed while it is made has the whole schema or
	 * none, and two programs opening it at once do not both apply one */
	if (pending) {
		if (catalogue_exec(cat, "BEGIN IMMEDIATE", err))
			goto out;
		if (catalogue_exec(cat, "CREATE TABLE IF NOT EXISTS schema_version ("
				  " version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
				  " applied_at TEXT NOT NULL)", err))
			goto rollback;
		for (i = 0; i < n; i++) {
			int number = migration_number(names[i]), applied;

			if (migration_applied(cat, number, &applied, err))
				goto rollback;
			if (!applied && apply_migration(cat, dir, names[i], number, err))
				goto rollback;
		}
		if (catalogue_exec(cat, "COMMIT", err))
			goto rollback;
	}
	if (current_schema_version(cat, &version, err))
		goto out;
	cat->schema_version = version;
	rc = 0;
	goto out;
rollback:
	sqlite3_exec(cat->db, "ROLLBACK", NULL, NULL, NULL);
out:
	mc_free_strings(names, n);
	return rc;
}

/* What a file that cannot be a catalogue is, for the message. */
static const char *file_kind(mode_t mode)
{
	if (S_ISDIR(mode))
		return "a folder";
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	if (S_ISSOCK(mode))
		return "a socket";
	return "not a regular file";
}

int catalogue_check_path(const char *path, mc_err *err)
{
	struct stat st;

	/* stat, never open: opening a FIFO would block */
	if (!stat(path, &st))
		return S_ISREG(st.st_mode) ? 0 : mc_error(err, "%s: is %s, not a catalogue file",
							  path, file_kind(st.st_mode));
	if (errno != ENOENT)
		return mc_error(err, "%s: cannot examine: %s", path, strerror(errno));
	if (!lstat(path, &st) && S_ISLNK(st.st_mode))
		return mc_error(err, "%s: is a symbolic link to a file that does not exist, not a"
				" catalogue file", path);
	return 0;
}

int catalogue_target(const char *path, char *out, size_t len, mc_err *err)
{
	char real[PATH_MAX];
	struct stat st;

	if (catalogue_check_path(path, err))
		return -1;
	if (lstat(path, &st) || !S_ISLNK(st.st_mode)) {
		mc_fmt(out, len, "%s", path);
		return 0;
	}
	if (!realpath(path, real))
		return mc_error(err, "%s: cannot resolve the symbolic link: %s", path, strerror(errno));
	if (strlen(real) >= len)
		return mc_error(err, "%s: its target's path is too long", path);
	mc_fmt(out, len, "%s", real);
	return 0;
}

/* Open the connection at path as catalogue_open() describes, path already
 * checked. */
static int open_connection(catalogue *cat, const char *path, const char *sqldir, int flags,
			   mc_err *err)
{
	/* no mutex of the connection's own: a catalogue is one thread's at a
	 * time (catalogue.h), and in SQLite's serialized mode every call on
	 * it (each bind, step and column) took and gave back one, a tenth of
	 * the loading thread's time in an ingest */
	int oflags = SQLITE_OPEN_NOMUTEX |
		     ((flags & CATALOGUE_READONLY) ? SQLITE_OPEN_READONLY
						   : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
	char msg[512];
	int version;

	memset(cat, 0, sizeof(*cat));
	cat->path = xstrdup(path);
	if (sqlite3_open_v2(path, &cat->db, oflags, NULL) != SQLITE_OK) {
		mc_error(err, "%s: cannot open the catalogue: %s", path,
			 catalogue_db_error(cat->db, msg, sizeof(msg)));
		goto fail;
	}
	sqlite3_busy_timeout(cat->db, 10000);
	sqlite3_extended_result_codes(cat->db, 1);
	/* 64 KiB pages suit rows of a few kilobytes of JSON; it only takes
	 * effect on a new, empty database. A load is one transaction whose
	 * name-ordered indexes (record identity, version_name) take inserts
	 * in file order: a 64 MiB cache keeps their pages for a 1 GB export
	 * (about 50 MB of them), where 16 MiB spilled and re-read them and the
	 * first load took 1.8 times as long. */
	if (catalogue_exec(cat, "PRAGMA page_size = 65536; PRAGMA foreign_keys = ON;"
			   " PRAGMA cache_size = -65536", err))
		goto fail;
	if (flags & CATALOGUE_READONLY) {
		/* a reader (publish, render and their threads) reads the file
		 * through a mapping of its first GiB: each page missed by the
		 * cache was a pread() copy, 7 % of a publish of 66,000 models.
		 * SQLite maps only what the file holds at each transaction's
		 * start, and no writer changes it during one */
		if (catalogue_exec(cat, "PRAGMA mmap_size = 1073741824", err))
			goto fail;
		if (current_schema_version(cat, &version, err)) {
			mc_error(err, "%s: not a modelcat catalogue (no schema version)", path);
			goto fail;
		}
		cat->schema_version = version;
		return 0;
	}
	if (migrate(cat, sqldir, err))
		goto fail;
	return 0;
fail:
	sqlite3_close(cat->db);
	cat->db = NULL;
	free(cat->path);
	cat->path = NULL;
	return -1;
}

/* A new catalogue is made whole under a temporary name, PATH.new-PID, and
 * linked to path: a program killed while making it leaves no file at path
 * (the temporary one is removed by the next), never a file with half a
 * schema; link, not rename, so that a catalogue another program made
 * meanwhile is kept. */
static int create_new(const char *path, const char *sqldir, mc_err *err)
{
	char tmp[PATH_MAX + 32], prefix[PATH_MAX + 16];
	catalogue fresh;
	int rc;

	mc_fmt(prefix, sizeof(prefix), "%s.new-", path);
	mc_fmt(tmp, sizeof(tmp), "%s%ld", prefix, (long)getpid());
	mc_remove_stale(prefix);
	catalogue_remove(tmp);
	/* an allocation failing ends the process (x*alloc): its cleanup
	 * removes tmp then */
	mc_cleanup_add(tmp);
	if (open_connection(&fresh, tmp, sqldir, 0, err)) {
		mc_cleanup_remove(tmp);
		catalogue_remove(tmp);
		return -1;
	}
	catalogue_close(&fresh);
	rc = link(tmp, path);
	if (rc && (errno == EPERM || errno == ENOTSUP || errno == EXDEV))
		rc = rename(tmp, path); /* a file system without hard links */
	if (rc && errno != EEXIST) {
		mc_error(err, "%s: cannot create the catalogue: %s", path, strerror(errno));
		mc_cleanup_remove(tmp);
		catalogue_remove(tmp);
		return -1;
	}
	mc_cleanup_remove(tmp);
	catalogue_remove(tmp);
	return 0;
}

void catalogue_process_init(void)
{
	/* (SQLITE_MISUSE once SQLite is in use: the setting is then kept) */
	sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

int catalogue_open(catalogue *cat, const char *path, const char *sqldir, int flags, mc_err *err)
{
	struct stat st;

	memset(cat, 0, sizeof(*cat));
	if (catalogue_check_path(path, err))
		return -1;
	/* (":memory:" and "" are SQLite's in-memory and temporary databases,
	 * not files) */
	if (!(flags & CATALOGUE_READONLY) && path[0] && strcmp(path, ":memory:") &&
	    lstat(path, &st) && errno == ENOENT && create_new(path, sqldir, err))
		return -1;
	return open_connection(cat, path, sqldir, flags, err);
}

struct catalogue_kept {
	const char *sql;             /* the caller's constant */
	sqlite3_stmt *st;
};

void catalogue_close(catalogue *cat)
{
	if (!cat)
		return;
	while (cat->nkept)
		sqlite3_finalize(cat->kept[--cat->nkept].st);
	free(cat->kept);
	cat->kept = NULL;
	free(cat->default_key);
	cat->default_key = NULL;
	if (cat->headers)
		cat->headers_free(cat->headers);
	cat->headers = NULL;
	sqlite3_close(cat->db);
	free(cat->path);
	cat->db = NULL;
	cat->path = NULL;
}

void catalogue_remove(const char *path)
{
	mc_remove_with_journals(path);
}

int catalogue_prepare(catalogue *cat, sqlite3_stmt **st, const char *sql, mc_err *err)
{
	if (sqlite3_prepare_v2(cat->db, sql, -1, st, NULL) != SQLITE_OK)
		return catalogue_fail(cat, "preparing a statement", err);
	return 0;
}

int catalogue_keep(catalogue *cat, sqlite3_stmt **st, const char *sql, mc_err *err)
{
	size_t i;

	for (i = 0; i < cat->nkept; i++)
		if (cat->kept[i].sql == sql || !strcmp(cat->kept[i].sql, sql)) {
			*st = cat->kept[i].st;
			sqlite3_reset(*st);
			sqlite3_clear_bindings(*st);
			return 0;
		}
	if (catalogue_prepare(cat, st, sql, err))
		return -1;
	cat->kept = xrealloc(cat->kept, (cat->nkept + 1) * sizeof(*cat->kept));
	cat->kept[cat->nkept].sql = sql;
	cat->kept[cat->nkept++].st = *st;
	return 0;
}

void catalogue_kept_done(sqlite3_stmt *st)
{
	sqlite3_reset(st);
}

/*
 * The stamp of the live file path, read through db, a connection to it
 * that holds a transaction: the header through SQLite's own descriptor
 * (SQLITE_FCNTL_FILE_POINTER), never by an open() and close() of our own,
 * which would drop the POSIX locks the connection holds on the file (see
 * "How To Corrupt An SQLite Database File", 2.2). The file format (section
 * 1.3.7 of fileformat2.html): "The file change counter is a 4-byte
 * big-endian integer at offset 24 that is incremented whenever the
 * database file is unlocked after having been modified"; in WAL mode it
 * might not be, which is why the catalogue keeps the rollback journal.
 */
static int read_stamp(sqlite3 *db, const char *path, catalogue_stamp *seen, mc_err *err)
{
	sqlite3_file *fp = NULL;
	unsigned char head[28];
	struct stat st;
	int rc;

	memset(seen, 0, sizeof(*seen));
	if (sqlite3_file_control(db, "main", SQLITE_FCNTL_FILE_POINTER, &fp) != SQLITE_OK ||
	    !fp || !fp->pMethods)
		return mc_error(err, "%s: cannot read the database header", path);
	rc = fp->pMethods->xRead(fp, head, (int)sizeof(head), 0);
	if (rc != SQLITE_OK && rc != SQLITE_IOERR_SHORT_READ)
		return mc_error(err, "%s: cannot read the database header", path);
	if (stat(path, &st))
		return mc_error(err, "%s: cannot examine: %s", path, strerror(errno));
	seen->exists = 1;
	memcpy(seen->counter, head + 24, sizeof(seen->counter));
	seen->dev = (unsigned long long)st.st_dev;
	seen->ino = (unsigned long long)st.st_ino;
	return 0;
}

/* The stamp of a file SQLite cannot read (a damaged catalogue, which a
 * rebuild replaces): the header read directly; no connection of ours has
 * the file open. */
static int read_stamp_raw(const char *path, catalogue_stamp *seen, mc_err *err)
{
	unsigned char head[28];
	struct stat st;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);

	memset(seen, 0, sizeof(*seen));
	if (fd < 0)
		return mc_error(err, "%s: cannot read: %s", path, strerror(errno));
	memset(head, 0, sizeof(head));
	n = pread(fd, head, sizeof(head), 0);
	if (n < 0 || fstat(fd, &st)) {
		mc_error(err, "%s: cannot read: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	close(fd);
	seen->exists = 1;
	memcpy(seen->counter, head + 24, sizeof(seen->counter));
	seen->dev = (unsigned long long)st.st_dev;
	seen->ino = (unsigned long long)st.st_ino;
	return 0;
}

int catalogue_stamp_take(const char *path, catalogue_stamp *seen, mc_err *err)
{
	sqlite3 *db = NULL;
	int rc = -1;

	memset(seen, 0, sizeof(*seen));
	if (catalogue_check_path(path, err))
		return -1;
	if (access(path, F_OK))
		return 0;
	/* inside a read transaction: a commit of another program is whole in
	 * the file (or rolled back from its hot journal first) when the
	 * header is read */
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL) == SQLITE_OK) {
		sqlite3_busy_timeout(db, 10000);
		if (sqlite3_exec(db, "BEGIN; SELECT count(*) FROM sqlite_master", NULL, NULL,
				 NULL) == SQLITE_OK)
			rc = read_stamp(db, path, seen, err);
	}
	sqlite3_close(db);
	return rc ? read_stamp_raw(path, seen, err) : 0;
}

static int stamp_same(const catalogue_stamp *a, const catalogue_stamp *b)
{
	return a->exists == b->exists && a->dev == b->dev && a->ino == b->ino &&
	       !memcmp(a->counter, b->counter, sizeof(a->counter));
}

/* live does not exist: link built there (a file system without hard links:
 * rename). 0; 1 when live exists after all; -1 (err). */
static int install_new(const char *built, const char *live, mc_err *err)
{
	if (!link(built, live))
		return 0;
	if (errno == EEXIST)
		return 1;
	if ((errno == EPERM || errno == ENOTSUP || errno == EXDEV) && !access(live, F_OK))
		return 1;
	if ((errno == EPERM || errno == ENOTSUP || errno == EXDEV) && !rename(built, live))
		return 0;
	return mc_error(err, "%s: cannot install the catalogue: %s", live, strerror(errno));
}

/* Is SQLite's answer one of another connection holding the file? */
static int busy_code(int rc)
{
	return (rc & 0xff) == SQLITE_BUSY || (rc & 0xff) == SQLITE_LOCKED;
}

/* Is SQLite's answer one of a damaged destination? */
static int damaged_code(int rc)
{
	return (rc & 0xff) == SQLITE_CORRUPT || (rc & 0xff) == SQLITE_NOTADB;
}

/* install_pages(), install_into(): live is damaged (SQLite cannot write
 * into it; a rebuild is how it is recovered). */
enum { INSTALL_DAMAGED = -2 };

/* The backup of catalogue_install(): from and to are open; b is begun.
 * 0, -1 (err), or INSTALL_DAMAGED. */
static int install_pages(sqlite3_backup *b, sqlite3 *to, const char *live,
			 const catalogue_stamp *seen, int *conflict, mc_err *err)
{
	catalogue_stamp now;
	int rc;

	/* sqlite3.h, sqlite3_backup_step(): "The first call to
	 * sqlite3_backup_step() obtains an exclusive lock on the destination
	 * file" (it begins the destination's write transaction before the
	 * loop that copies up to N pages, so N = 0 copies none); a lock it
	 * cannot get is waited for by the busy handler, then SQLITE_BUSY, "can
	 * be retried later". From here no other connection reads or writes
	 * live until the backup completes or is finished (abandoned: "any
	 * active write-transaction on the destination database is rolled
	 * back", live unchanged). */
	rc = sqlite3_backup_step(b, 0);
	if (busy_code(rc)) {
		*conflict = 1;
		return mc_error(err, "%s: another connection holds the catalogue (a write transaction"
				" left open, in the sqlite3 shell?); nothing installed", live);
	}
	if (damaged_code(rc))
		return INSTALL_DAMAGED;
	if (rc != SQLITE_OK && rc != SQLITE_DONE)
		return mc_error(err, "%s: cannot install the catalogue: %s", live,
				sqlite3_errstr(rc));
	if (seen) {
		if (read_stamp(to, live, &now, err))
			return -1;
		if (!stamp_same(seen, &now)) {
			*conflict = 1;
			return mc_error(err, "%s: changed by another program during the run; nothing"
					" installed", live);
		}
	}
	if (rc == SQLITE_OK)
		rc = sqlite3_backup_step(b, -1);
	if (busy_code(rc)) {
		*conflict = 1;
		return mc_error(err, "%s: another connection holds the catalogue; nothing installed",
				live);
	}
	if (damaged_code(rc))
		return INSTALL_DAMAGED;
	if (rc != SQLITE_DONE)
		return mc_error(err, "%s: cannot install the catalogue: %s", live,
				sqlite3_errstr(rc));
	return 0;
}

/* Take the lock level on fp, waiting up to busy_ms. SQLITE_OK or not. */
static int vfs_lock(sqlite3_file *fp, int level, int busy_ms)
{
	int rc, waited = 0;

	while ((rc = fp->pMethods->xLock(fp, level)) == SQLITE_BUSY && waited < busy_ms) {
		usleep(20 * 1000);
		waited += 20;
	}
	return rc;
}

/* live is damaged (SQLite cannot begin a transaction on it to copy into
 * it): empty it in place, under an exclusive lock taken through the VFS
 * of a connection of its own, by the rules of SQLite's file locking
 * (lockingv3.html: SHARED, RESERVED, then EXCLUSIVE, which no other
 * connection holds any lock beside): the same file, its mode, owner and
 * links kept, when it is still what seen says; *emptied gets its stamp
 * then. 0, or -1 (err, *conflict). */
static int empty_damaged(const char *live, const catalogue_stamp *seen, int busy_ms,
			 catalogue_stamp *emptied, int *conflict, mc_err *err)
{
	static const int levels[] = { SQLITE_LOCK_SHARED, SQLITE_LOCK_RESERVED, SQLITE_LOCK_EXCLUSIVE };
	sqlite3_file *fp = NULL;
	sqlite3 *db = NULL;
	char msg[512];
	size_t i;
	int rc = -1;

	if (sqlite3_open_v2(live, &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
		mc_error(err, "%s: cannot open: %s", live, catalogue_db_error(db, msg, sizeof(msg)));
		goto out;
	}
	if (sqlite3_file_control(db, "main", SQLITE_FCNTL_FILE_POINTER, &fp) != SQLITE_OK || !fp ||
	    !fp->pMethods) {
		mc_error(err, "%s: cannot open the damaged catalogue", live);
		fp = NULL;
		goto out;
	}
	for (i = 0; i < sizeof(levels) / sizeof(levels[0]); i++) {
		int got = vfs_lock(fp, levels[i], busy_ms);

		if (got != SQLITE_OK) {
			*conflict = got == SQLITE_BUSY;
			mc_error(err, "%s: another connection holds the catalogue; nothing installed",
				 live);
			goto out;
		}
	}
	if (read_stamp(db, live, emptied, err))
		goto out;
	if (seen && !stamp_same(seen, emptied)) {
		*conflict = 1;
		mc_error(err, "%s: changed by another program during the run; nothing installed", live);
		goto out;
	}
	if (fp->pMethods->xTruncate(fp, 0) != SQLITE_OK ||
	    fp->pMethods->xSync(fp, SQLITE_SYNC_NORMAL) != SQLITE_OK) {
		mc_error(err, "%s: cannot empty the damaged catalogue", live);
		goto out;
	}
	memset(emptied->counter, 0, sizeof(emptied->counter));
	rc = 0;
out:
	if (fp)
		fp->pMethods->xUnlock(fp, SQLITE_LOCK_NONE);
	sqlite3_close(db);
	return rc;
}

/* catalogue_install() into an existing live: 0, -1 (err), or
 * INSTALL_DAMAGED. */
static int install_into(const char *built, const char *live, const catalogue_stamp *seen,
			int busy_ms, int *conflict, mc_err *err)
{
	sqlite3 *from = NULL, *to = NULL;
	sqlite3_backup *b;
	char msg[512];
	int rc = -1;

	if (sqlite3_open_v2(built, &from, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
		mc_error(err, "%s: cannot open: %s", built, catalogue_db_error(from, msg, sizeof(msg)));
		goto out;
	}
	if (sqlite3_open_v2(live, &to, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
		mc_error(err, "%s: cannot open: %s", live, catalogue_db_error(to, msg, sizeof(msg)));
		goto out;
	}
	sqlite3_busy_timeout(to, busy_ms);
	b = sqlite3_backup_init(to, "main", from, "main");
	if (!b) {
		mc_error(err, "%s: cannot install the catalogue: %s", live,
			 catalogue_db_error(to, msg, sizeof(msg)));
		goto out;
	}
	rc = install_pages(b, to, live, seen, conflict, err);
	if (sqlite3_backup_finish(b) != SQLITE_OK && !rc)
		rc = mc_error(err, "%s: cannot install the catalogue: %s", live,
			      catalogue_db_error(to, msg, sizeof(msg)));
out:
	sqlite3_close(from);
	sqlite3_close(to);
	return rc;
}

int catalogue_install(const char *built, const char *live, const catalogue_stamp *seen,
		      long wait, int *conflict, mc_err *err)
{
	/* readers hold the file for a moment each: wait for them, and for a
	 * writer of another program, as long as the caller waits for the lock
	 * but at least 10 seconds, as every connection of ours does */
	int busy_ms = (int)((wait > 10 ? (wait < 86400 ? wait : 86400) : 10) * 1000), rc;
	catalogue_stamp emptied;

	*conflict = 0;
	if (catalogue_check_path(live, err))
		return -1;
	if (access(live, F_OK)) {
		if (seen && seen->exists) {
			*conflict = 1;
			return mc_error(err, "%s: removed by another program during the run; nothing"
					" installed", live);
		}
		rc = install_new(built, live, err);
		if (rc <= 0)
			return rc;
	}
	rc = install_into(built, live, seen, busy_ms, conflict, err);
	if (rc != INSTALL_DAMAGED)
		return rc;
	/* a damaged catalogue (a truncated file) cannot take a backup: it is
	 * emptied in place first, then takes it as a new file would */
	if (empty_damaged(live, seen, busy_ms, &emptied, conflict, err))
		return -1;
	rc = install_into(built, live, &emptied, busy_ms, conflict, err);
	return rc == INSTALL_DAMAGED ? mc_error(err, "%s: cannot install the catalogue: the file"
						" is damaged", live) : rc;
}

int catalogue_copy(const char *src, const char *dst, catalogue_stamp *seen, mc_err *err)
{
	sqlite3 *from = NULL, *to = NULL;
	sqlite3_backup *b;
	char msg[512];
	int rc = -1;

	if (sqlite3_open_v2(src, &from, seen ? SQLITE_OPEN_READWRITE : SQLITE_OPEN_READONLY,
			    NULL) != SQLITE_OK) {
		mc_error(err, "%s: cannot open: %s", src,
			 catalogue_db_error(from, msg, sizeof(msg)));
		goto out;
	}
	if (sqlite3_open_v2(dst, &to, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
		mc_error(err, "%s: cannot create: %s", dst,
			 catalogue_db_error(to, msg, sizeof(msg)));
		goto out;
	}
	sqlite3_busy_timeout(from, 10000);
	/* the stamp and the copy of one state: a read transaction on src
	 * around both (sqlite3_backup_step() uses a read transaction already
	 * open on the source and opens none of its own) */
	if (seen) {
		if (sqlite3_exec(from, "BEGIN; SELECT count(*) FROM sqlite_master", NULL, NULL,
				 NULL) != SQLITE_OK) {
			mc_error(err, "%s: cannot read: %s", src,
				 catalogue_db_error(from, msg, sizeof(msg)));
			goto out;
		}
		if (read_stamp(from, src, seen, err))
			goto out;
	}
	b = sqlite3_backup_init(to, "main", from, "main");
	if (!b) {
		mc_error(err, "%s: cannot copy: %s", dst, catalogue_db_error(to, msg, sizeof(msg)));
		goto out;
	}
	if (sqlite3_backup_step(b, -1) != SQLITE_DONE) {
		sqlite3_backup_finish(b);
		mc_error(err, "%s: cannot copy %s: %s", dst, src, catalogue_db_error(to, msg, sizeof(msg)));
		goto out;
	}
	if (sqlite3_backup_finish(b) != SQLITE_OK) {
		mc_error(err, "%s: cannot copy: %s", dst, catalogue_db_error(to, msg, sizeof(msg)));
		goto out;
	}
	rc = 0;
out:
	sqlite3_close(from);
	if (sqlite3_close(to) != SQLITE_OK && !rc) {
		mc_error(err, "%s: cannot close the copy", dst);
		rc = -1;
	}
	return rc;
}

/* Does the attached catalogue "carried" have table name? 1, 0, or -1. */
static int carried_has(catalogue *cat, const char *name, mc_err *err)
{
	sqlite3_stmt *st = NULL;
	int step;

	if (catalogue_prepare(cat, &st, "SELECT 1 FROM carried.sqlite_master WHERE type = 'table'"
			      " AND name = ?", err))
		return -1;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	step = sqlite3_step(st);
	sqlite3_finalize(st);
	if (step != SQLITE_ROW && step != SQLITE_DONE)
		return catalogue_fail(cat, "reading the catalogue it replaces", err);
	return step == SQLITE_ROW;
}

int catalogue_carry(catalogue *cat, const char *from, const char *const *tables, size_t n,
		    size_t *copied, mc_err *err)
{
	sqlite3_stmt *st = NULL;
	char sql[256];
	size_t i;
	int has, rc = -1;

	for (i = 0; copied && i < n; i++)
		copied[i] = 0;
	if (access(from, F_OK))
		return 0;
	if (catalogue_prepare(cat, &st, "ATTACH DATABASE ? AS carried", err))
		return -1;
	sqlite3_bind_text(st, 1, from, -1, SQLITE_TRANSIENT);
	has = sqlite3_step(st);
	sqlite3_finalize(st);
	if (has != SQLITE_DONE)
		return catalogue_fail(cat, "reading the catalogue it replaces", err);
	if (catalogue_exec(cat, "BEGIN", err))
		goto detach;
	for (i = 0; i < n; i++) {
		if ((has = carried_has(cat, tables[i], err)) < 0)
			goto rollback;
		if (!has)
			continue;
		/* the table names are the callers' constants, never data */
		mc_fmt(sql, sizeof(sql), "INSERT OR IGNORE INTO main.%s SELECT * FROM carried.%s",
		       tables[i], tables[i]);
		if (catalogue_exec(cat, sql, err)) {
			mc_error_prefix(err, "%s: carrying %s over", from, tables[i]);
			goto rollback;
		}
		if (copied)
			copied[i] = (size_t)sqlite3_changes(cat->db);
	}
	if (catalogue_exec(cat, "COMMIT", err))
		goto rollback;
	rc = 0;
	goto detach;
rollback:
	sqlite3_exec(cat->db, "ROLLBACK", NULL, NULL, NULL);
detach:
	sqlite3_exec(cat->db, "DETACH DATABASE carried", NULL, NULL, NULL);
	return rc;
}

char *catalogue_column_dup(sqlite3_stmt *st, int i)
{
	const char *s = (const char *)sqlite3_column_text(st, i);

	return s ? xstrndup(s, (size_t)sqlite3_column_bytes(st, i)) : NULL;
}

int catalogue_in_transaction(const catalogue *cat)
{
	return !sqlite3_get_autocommit(cat->db);
}
