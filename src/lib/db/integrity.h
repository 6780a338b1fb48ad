/*
 * integrity: what `modelcat verify` asks the catalogue: whether SQLite
 * finds it whole (PRAGMA integrity_check), and which file and content
 * each snapshot's exports were loaded from (snapshot_export).
 *
 * Errors: 0, or -1 with err filled (its last parameter, base/error.h).
 */
#ifndef MODELCAT_INTEGRITY_H
#define MODELCAT_INTEGRITY_H

#include "db/catalogue.h"

/* Run PRAGMA integrity_check; each line of its answer that is not "ok"
 * goes to fn. *found gets their count. An error of the check itself (a
 * file too damaged to be read) is one more line, not a failure. 0, or -1
 * when the statement cannot be prepared on a sound file (err). */
int integrity_check(catalogue *cat, void (*fn)(void *arg, const char *line), void *arg,
		    size_t *found, mc_err *err);

/* One export of one snapshot, as loaded. The strings are the query's,
 * valid during the call only; never NULL. */
typedef struct integrity_file {
	sqlite3_int64 snapshot;      /* snapshot id */
	const char *as_of;           /* its date */
	int ordinal;                 /* which snapshot of that day (from 1) */
	const char *export_name;     /* the export */
	const char *file;            /* the path it was loaded from, as given */
	const char *sha256;          /* of its content ("" when not recorded) */
} integrity_file;

/* Each snapshot export, oldest first, to fn. 0, or -1 (err). */
int integrity_files(catalogue *cat, void (*fn)(void *arg, const integrity_file *f), void *arg,
		    mc_err *err);

#endif
