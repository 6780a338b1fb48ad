/*
 * check: a stored file is read only once it is known to be what was
 * stored. Two records say what a snapshot file holds: the manifest line
 * fetch wrote when it stored it (DIR/MANIFEST.tsv, the SHA-256 of the
 * decompressed content; the last line naming the file counts), and, for a
 * later content of a day, the 12 hex digits of that hash in its name
 * (<date>T<time>Z-<sha12>.csv.gz). A file with neither (the bundled
 * history, files copied in by hand) has no recorded hash and is accepted.
 *
 * A store entry must be a regular file inside the store: a FIFO, a
 * device, a socket, a folder, or a symbolic link to anything but a
 * regular file inside the store is refused without being opened, so no
 * check ever blocks. Checking takes no lock: readers (reingest, verify)
 * and the nightly run use it alike.
 *
 * Messages, one line each, name the file:
 *   PATH: not a regular file (a FIFO)
 *   PATH: a symbolic link out of the snapshot store (to TARGET)
 *   PATH: content does not match its recorded SHA-256 (manifest: X, file: Y)
 *   PATH: content does not match its recorded SHA-256 (name: X, file: Y)
 *
 * Ownership: a store_check owns its manifest; store_check_release() frees it.
 */
#ifndef MODELCAT_CHECK_H
#define MODELCAT_CHECK_H

#include <limits.h>
#include "base/error.h"
#include "store/store.h"

/* A store's records, read once for many checks. */
typedef struct store_check {
	char dir[PATH_MAX];          /* the store as given */
	char real[PATH_MAX];         /* its resolved path */
	store_manifest manifest;     /* DIR/MANIFEST.tsv (empty when none) */
} store_check;

/* Read the store's records (no lock is taken). 0, or -1 with err. */
int store_check_open(store_check *sc, const char *dir, mc_err *err);
void store_check_release(store_check *sc);

/* The SHA-256 the manifest records for file (a path relative to the
 * store, EXPORT/NAME): that of the last line naming it, or NULL. */
const char *store_check_recorded(const store_check *sc, const char *file);

/* Is file (relative to the store) a regular file inside the store, found
 * without opening it? 0, or -1 with err naming DIR/file. */
int store_check_entry(const store_check *sc, const char *file, mc_err *err);

/*
 * Check file (relative to the store) whole: store_check_entry(), then its
 * content's SHA-256 against the manifest and its name. Sets sha to the
 * content's hash and *recorded (when not NULL) to 1 when a hash was
 * recorded for it, 0 when none was. 0, or -1 with err naming DIR/file.
 */
int store_check_file(const store_check *sc, const char *file, char sha[65], int *recorded,
		     mc_err *err);

/*
 * The check for a file named on a command line: when path is a file of a
 * snapshot store (DIR/EXPORT/<snapshot name>, store/naming.h), check it
 * as store_check_file() does against DIR's records; any other path passes
 * (sha ""). 0, or -1 with err.
 */
int store_check_path(const char *path, char sha[65], mc_err *err);

#endif
