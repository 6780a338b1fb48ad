/*
 * catchup: what the nightly run ingests. The store's snapshots are read
 * as reingest reads them (ingest/rebuild.h): for each export and stored
 * day, the day's latest content (the last file of that date by name);
 * the files of one day form one snapshot. The catalogue has such a file
 * when its latest snapshot of the export (the latest date, then the
 * latest loaded, db/snapshot.h) is
 *   - dated after the file's day: the catalogue is past it; or
 *   - dated that day, with the file's content (the same SHA-256).
 * Every other file is new, and the new files are ingested oldest first,
 * a day at a time, so that whatever runs failed or stopped part way
 * (exit 4) before, the catalogue ends as a reingest of the same store
 * would make it. A run with nothing new hashes one file per export (the
 * one its latest snapshot is compared with).
 *
 * A catalogue made otherwise (by hand, or by an older modelcat that
 * ingested only each export's newest file) may lack a day older than its
 * latest snapshot of the export: catch-up cannot load it in order, and
 * reingest makes that catalogue whole. A new day dated before the
 * catalogue's latest snapshot of any export is not ingested either
 * (it would be loaded after a later one) but listed in skipped.
 *
 * Every entry of the store's export folders is checked to be a regular
 * file inside the store, and every file compared or to be ingested to
 * match its recorded SHA-256 (store/check.h); either failure is an error.
 *
 * Ownership: a catchup_plan owns its strings (catchup_release()).
 */
#ifndef MODELCAT_CATCHUP_H
#define MODELCAT_CATCHUP_H

#include "base/error.h"
#include "db/catalogue.h"
#include "store/naming.h"

/* One file to ingest. */
typedef struct catchup_file {
	char day[11];                            /* its snapshot's date */
	char export_name[NAMING_EXPORT_MAX + 1]; /* its export */
	char *file;                              /* EXPORT/NAME in the store; owned */
} catchup_file;

/* The files to ingest, by day, then export; and those left out. */
typedef struct catchup_plan {
	catchup_file *files;        /* to ingest */
	size_t n;
	char **skipped;             /* messages: new files that cannot be loaded
				       in order ("PATH: dated ..."); owned */
	size_t nskipped;
} catchup_plan;

/* Compare the store at dir with the catalogue cat (cat->db NULL: an
 * empty catalogue) into plan. 0, or -1 with err (plan empty). */
int catchup_find(const char *dir, catalogue *cat, catchup_plan *plan, mc_err *err);
void catchup_release(catchup_plan *plan);

#endif
