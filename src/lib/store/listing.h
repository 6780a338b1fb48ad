/*
 * listing: what the snapshot store holds on disk, the one walk of its
 * folders. A store folder DIR holds a folder per export (a valid export
 * name, store/naming.h), and each of those its snapshot files
 * (<date>.csv.gz, <date>T<time>Z-<sha12>.csv.gz, <date>.csv, <date>.zip)
 * and, after a killed run, temporary files (LISTING_TMP_PREFIX...).
 *
 * Ownership: a store_listing owns its folders and every name in them;
 * store_listing_release() frees them.
 */
#ifndef MODELCAT_LISTING_H
#define MODELCAT_LISTING_H

#include <stddef.h>
#include "base/error.h"

/* How the temporary files a writer makes in an export folder begin. */
#define LISTING_TMP_PREFIX ".tmp-"

/* One snapshot file of an export folder. */
typedef struct store_file {
	char *name;                 /* file name, without the folder */
	char date[11];              /* its snapshot date, YYYY-MM-DD */
} store_file;

/* One export folder of the store. */
typedef struct store_folder {
	char *name;                 /* the export (the folder's name) */
	store_file *files;          /* its snapshot files, sorted by name: for each
				       date, the last is the day's latest content */
	size_t n;                   /* entries in files */
	char **temps;               /* temporary files a killed run left */
	size_t ntemps;              /* entries in temps */
} store_folder;

/* The export folders of a store, sorted by name. */
typedef struct store_listing {
	store_folder *folders;      /* the folders */
	size_t n;                   /* entries in folders */
} store_listing;

/*
 * List the store at dir into out: every export folder, or only the folder
 * of the export only when it is not NULL (none when that folder does not
 * exist). A folder of the whole store that cannot be opened is left out.
 * 0, or -1 with err ("DIR: cannot open the snapshot store: ..." for the
 * store, "DIR/EXPORT: cannot read: ..." for the folder only names); out
 * is then empty.
 */
int store_list(const char *dir, const char *only, store_listing *out, mc_err *err);

/* Free what store_list() filled in; l is empty again. */
void store_listing_release(store_listing *l);

/* The last snapshot file of folder f, or NULL when it has none. */
const store_file *store_folder_latest(const store_folder *f);

#endif
