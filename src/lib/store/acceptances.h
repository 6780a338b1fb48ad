/*
 * acceptances: the acceptances recorded in the snapshot store,
 * DIR/ACCEPTED.tsv. A file of the store that a guard of
 * pipelines/guards.tsv holds (it would remove too many models, say) and
 * that someone applied with ingest --accept (or run --accept) is recorded
 * there: which export, its content by SHA-256, the file, when and why.
 * reingest and run's catch-up read it, so that a rebuild from the store
 * applies the same files again (docs/store.md, "Acceptances").
 *
 * The file: a header line, then one line per acceptance, fields separated
 * by TABs (a TAB, newline, carriage return or backslash inside a value is
 * written \t, \n, \r, \\): export, sha256 (of the content, as the
 * catalogue records it), file (relative to DIR), accepted_at (UTC, ISO
 * 8601), reason (the guard's sentence).
 *
 * Ownership: store_acceptances_read() fills a list the caller releases
 * with store_acceptances_release(); its strings are its own.
 * Errors: 0, or -1 with err filled (its last parameter, base/error.h).
 */
#ifndef MODELCAT_ACCEPTANCES_H
#define MODELCAT_ACCEPTANCES_H

#include <stddef.h>
#include "base/error.h"

/* The file's name in the store. */
#define STORE_ACCEPTANCES "ACCEPTED.tsv"

/* One acceptance. */
typedef struct store_acceptance {
	char *export_name;          /* the export */
	char *sha256;               /* its content's SHA-256, 64 hex digits */
	char *file;                 /* the file, relative to the store */
	char *accepted_at;          /* when, UTC, YYYY-MM-DDTHH:MM:SSZ */
	char *reason;               /* why a guard held it */
} store_acceptance;

/* The acceptances of a store, in file order. */
typedef struct store_acceptances {
	store_acceptance *items;    /* the lines */
	size_t n;                   /* entries in items */
} store_acceptances;

/* Read DIR/ACCEPTED.tsv (none: an empty list). A line without five
 * fields or whose sha256 is not 64 hex digits is an error naming file and
 * line. */
int store_acceptances_read(const char *dir, store_acceptances *out, mc_err *err);
void store_acceptances_release(store_acceptances *a);

/* Append a to DIR/ACCEPTED.tsv (made, with its header, when missing) and
 * fsync it; 1 when the store records (export, sha256) already (nothing
 * written), 0 when written, -1 on error. */
int store_acceptance_add(const char *dir, const store_acceptance *a, mc_err *err);

/*
 * Is path a file of the snapshot store at store: DIR/EXPORT/NAME where
 * NAME is a snapshot's (store/naming.h), or a member of one,
 * DIR/EXPORT/NAME.zip/MEMBER, and DIR is the folder store (the same
 * folder on disk, however written)? Then 1, DIR into dir and *file
 * pointing at EXPORT/... in path; else 0: a path of that shape elsewhere
 * (a user's folder) is no store's, and store NULL is none.
 */
int store_acceptance_where(const char *store, const char *path, char *dir, size_t dirlen,
			   const char **file);

#endif
