/*
 * catalogue: the SQLite catalogue: opening it, applying the numbered
 * migrations in sql/, and the small helpers the modules that read and
 * write it share (load.c, query.c). Every statement binds its parameters.
 *
 * Ownership: a catalogue owns its connection; close it with
 * catalogue_close(). Errors: a failing function fills its mc_err (the
 * last parameter) as base/error.h describes.
 */
#ifndef MODELCAT_CATALOGUE_H
#define MODELCAT_CATALOGUE_H

#include <sqlite3.h>
#include <stddef.h>
#include "base/error.h"
#include "base/day.h"
#include "base/util.h"

/* A row id of the catalogue (a snapshot's, a record's, an export file's):
 * what the layers above db hold and pass back. */
typedef sqlite3_int64 catalogue_id;

typedef struct catalogue {
	sqlite3 *db;                 /* the connection */
	char *path;                  /* database file */
	int schema_version;          /* after migration */
	struct catalogue_kept *kept; /* statements kept prepared (catalogue_keep) */
	size_t nkept;
	char *default_key;           /* colmap_default_key()'s answer, read once */
	void *headers;               /* the exports' headers query.c keeps */
	void (*headers_free)(void *);
	/* every record's last-updated date on one date, for query_model()
	   (query_updated_use(); not owned; NULL: read for each model) */
	const struct query_updated *updated;
} catalogue;

enum { CATALOGUE_READONLY = 1 };

/* A statement of sql kept prepared for the life of the connection, for
 * statements run once per model or export of a page or a publication
 * (preparing them each time was a third of a publication's time): into
 * *st, reset and with its bindings cleared. sql is a string constant; the
 * same text gives the same statement, so a caller must be done with it
 * (catalogue_kept_done) before it asks for it again. The caller never
 * finalizes it. 0, or -1 (err). */
int catalogue_keep(catalogue *cat, sqlite3_stmt **st, const char *sql, mc_err *err);
/* Is a transaction open on cat's connection (BEGIN without its COMMIT)? */
int catalogue_in_transaction(const catalogue *cat);
/* Done with a kept statement: reset, so that it holds no read transaction. */
void catalogue_kept_done(sqlite3_stmt *st);

/* Can path be a catalogue: a regular file, a symbolic link to one, or
 * nothing yet? Examined with stat, never opened (a FIFO would block).
 * 0, or -1 with err "PATH: is a FIFO, not a catalogue file" (a folder, a
 * character or block device, a socket) or for a symbolic link whose
 * target does not exist. */
int catalogue_check_path(const char *path, mc_err *err);
/* The file a writer writes for path, into out (len bytes): path itself,
 * or the target of a symbolic link (realpath), so that a new catalogue is
 * installed into the file the link names and the link stays a link; the
 * writer lock is TARGET.lock. Checks path first (catalogue_check_path).
 * 0, or -1 (err). */
int catalogue_target(const char *path, char *out, size_t len, mc_err *err);

/* What a live catalogue file was when a writer read it: its file change
 * counter (the 4 bytes at offset 24 of the SQLite header, incremented by
 * every commit in rollback-journal mode), device and inode. */
typedef struct catalogue_stamp {
	int exists;                  /* 0: there was no file */
	unsigned char counter[4];    /* the file change counter */
	unsigned long long dev, ino; /* the file */
} catalogue_stamp;

/* The stamp of the catalogue at path (a file, not a link: catalogue_target),
 * read inside a read transaction so that it is a committed state. 0, or
 * -1 (err). */
int catalogue_stamp_take(const char *path, catalogue_stamp *seen, mc_err *err);

/*
 * Install the finished catalogue built as the catalogue live (a file, not
 * a link: catalogue_target()), with the writer lock held. When live does
 * not exist, built is linked (or renamed) into place. Otherwise built is
 * copied INTO live with SQLite's backup API, in one write transaction of
 * live: the file is never replaced, so other processes' open connections,
 * journals and transactions stay valid, and live keeps its inode, mode and
 * owner. Before a page is copied, live's stamp is compared with seen (when
 * not NULL): a file another program changed since seen was taken is left
 * as it was ("changed by another program"). A connection of another
 * program that holds live (a write transaction left open in the sqlite3
 * shell) is waited for, up to wait seconds (at least 10). Both are
 * conflicts: *conflict is set to 1 and -1 returned. built is left for the
 * caller to remove. 0, or -1 (err).
 */
int catalogue_install(const char *built, const char *live, const catalogue_stamp *seen,
		      long wait, int *conflict, mc_err *err);

/*
 * SQLite's settings for the whole process, before any connection opens
 * (stage_init() does it first): no memory statistics. With them, every
 * allocation of every connection took one mutex of the process, and the
 * publish's threads, each reading on a connection of its own, waited on
 * one another there (a publish after the bench's 1 % change 4.80 -> 4.52
 * s, from scratch 8.38 -> 7.84 s). modelcat reads none of them.
 */
void catalogue_process_init(void);

/* Open the database at path, creating it and applying the migrations in
 * sqldir as needed (not with CATALOGUE_READONLY). Refuses a path that
 * catalogue_check_path() refuses. 0 or -1 (err). The connection is used by
 * one thread at a time (SQLite's multi-thread mode: it has no mutex of its
 * own); a thread that reads beside another opens a catalogue of its own,
 * as the render workers do. */
int catalogue_open(catalogue *cat, const char *path, const char *sqldir, int flags, mc_err *err);
void catalogue_close(catalogue *cat);
/* Delete a catalogue file and its journal files (a new catalogue that a
 * failed run created). */
void catalogue_remove(const char *path);

/* Copy the catalogue at src to dst (a new file) with SQLite's backup API,
 * a consistent copy even while others read src; when seen is not NULL, the
 * stamp of src at the state copied (catalogue_stamp_take). 0, or -1 (err). */
int catalogue_copy(const char *src, const char *dst, catalogue_stamp *seen, mc_err *err);

/* SQLite's message for db's last error into buf (len bytes), with the
 * system error behind an I/O failure: "disk I/O error (File too large)".
 * Returns buf. */
const char *catalogue_db_error(sqlite3 *db, char *buf, size_t len);

/* Set err to "path: what: sqlite's message"; returns -1. */
int catalogue_fail(catalogue *cat, const char *what, mc_err *err);
/* Run SQL text with no parameters (schema, BEGIN/COMMIT). 0 or -1 (err). */
int catalogue_exec(catalogue *cat, const char *sql, mc_err *err);
/* A read transaction: the statements between catalogue_read_begin() and
 * catalogue_read_end() share one shared lock and one look at the journal
 * (each outside a transaction takes them on its own). Begun only when no
 * transaction is open: 1 begun, 0 one was open (nothing to end), -1
 * (err). catalogue_read_end() ends one that was begun. */
int catalogue_read_begin(catalogue *cat, mc_err *err);
int catalogue_read_end(catalogue *cat, mc_err *err);
/* Prepare a statement. 0 or -1 (err). */
int catalogue_prepare(catalogue *cat, sqlite3_stmt **st, const char *sql, mc_err *err);
/* Column i of st's current row as a new string (NULL for SQL NULL); the
 * caller frees it. */
char *catalogue_column_dup(sqlite3_stmt *st, int i);

/* Append the SQL text of the file at path (a migration, the staging
 * schema) to out. 0, or -1 ("path: cannot read: why"). */
int catalogue_read_sql(const char *path, sbuf *out, mc_err *err);

/*
 * Copy into cat the rows of the n tables named (of the same schema) of the
 * catalogue file from: a rebuilt catalogue keeps what only the catalogue
 * it replaces knows (page texts, accepted contents). A table from lacks,
 * or a from that does not exist, copies nothing. copied[i] (if copied is
 * not NULL) counts the rows table i gave. Rows cat has already stay (OR
 * IGNORE). 0, or -1 (err: from could not be read; cat unchanged).
 */
int catalogue_carry(catalogue *cat, const char *from, const char *const *tables, size_t n,
		    size_t *copied, mc_err *err);

/*
 * A WITH clause naming "keyed" (export, field): every export with a header
 * on record and its key field (its family's: pipelines/families.tsv), as
 * the latest of its headers with a key column recorded it (NULL: none
 * has one). Worked out once per export, where the same subquery in a
 * WHERE clause runs once per row. A statement keeps the records r of
 * family K with "r.export IN (SELECT export FROM keyed WHERE field = K)",
 * or, for the default family, which also holds the exports with no key,
 * "r.export NOT IN (SELECT export FROM keyed WHERE field <> K)".
 */
#define CATALOGUE_KEYED "WITH keyed(export, field) AS (SELECT e.export, " \
	CATALOGUE_EXPORT_KEY("e.export") " FROM (SELECT DISTINCT export FROM snapshot_export) e) "
/* The key field of the export named by the SQL expression export, as the
 * latest of its headers with a key column recorded it (NULL: none). */
#define CATALOGUE_EXPORT_KEY(export) "(SELECT ec.field FROM snapshot_export se" \
	" JOIN export_column ec ON ec.snapshot_export_id = se.id AND ec.type = 'key'" \
	" WHERE se.export = " export " ORDER BY se.id DESC LIMIT 1)"

#endif
