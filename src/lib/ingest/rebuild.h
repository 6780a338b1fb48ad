/*
 * rebuild: a catalogue rebuilt from every snapshot in the snapshot store,
 * oldest first, the files of one date forming one snapshot (of an export's
 * several contents of one day, the latest). The new catalogue is built
 * beside the old one (TARGET.reingest-PID) and installed into it
 * (catalogue_install(): copied into the live file, never renamed over it)
 * only when every snapshot has loaded, so a failure leaves the old one as
 * it was.
 *
 * Ownership: a rebuild_plan owns its files (rebuild_plan_release()).
 */
#ifndef MODELCAT_REBUILD_H
#define MODELCAT_REBUILD_H

#include <stdio.h>
#include "base/error.h"
#include "values/colmap.h"
#include "store/naming.h"

/* One export file to load. */
typedef struct rebuild_file {
	char date[11];                           /* its snapshot's date */
	char export_name[NAMING_EXPORT_MAX + 1]; /* its export */
	char *path;                              /* the file (DIR/EXPORT/NAME); owned */
} rebuild_file;

/* The files to load, by date, then export. */
typedef struct rebuild_plan {
	rebuild_file *files;        /* the files */
	size_t n;                   /* entries in files */
	char *dir;                  /* the store (its ACCEPTED.tsv: what was
				       accepted), owned; NULL: none */
} rebuild_plan;

/* What a rebuild loaded. */
typedef struct rebuild_stats {
	size_t snapshots;           /* snapshots (dates) loaded */
	unsigned long loaded;       /* rows loaded (files that were no change aside) */
	unsigned long quarantined;  /* rows quarantined (likewise) */
	unsigned long held;         /* exports held by a guard (pipelines/guards.tsv;
				       content accepted in the catalogue replaced
				       is applied) */
	int conflict;               /* failed: another program held or changed
				       the catalogue meanwhile */
} rebuild_stats;

/* The store to rebuild from when none is named: ./snapshots when it is a
 * folder, else the installed snapshots (a static buffer). */
const char *rebuild_default_store(void);

/* List the store at dir into plan (empty when it holds no snapshot). 0,
 * or -1 with err. */
int rebuild_scan(const char *dir, rebuild_plan *plan, mc_err *err);
void rebuild_plan_release(rebuild_plan *plan);

/*
 * May the rebuild replace path? Yes (1) when there is no file, or an empty
 * one, or a SQLite database (a catalogue, damaged or not: the rebuild is
 * how a damaged one is recovered); no (0) for any other file, which the
 * --db option may name by mistake.
 */
int rebuild_replaceable(const char *path);

/*
 * Load the plan into a new catalogue and install it as target, with the
 * export precedence of pipelines/precedence.tsv, the caller holding the
 * writer lock. target is a file, not a symbolic link (catalogue_target());
 * the new catalogue is built beside it and copied into it
 * (catalogue_install(): same file, mode and owner), refused when another
 * program changed target since the rebuild began, or still holds it after
 * wait seconds (stats->conflict). Writes "snapshot DATE" and a line per
 * export file (ingest_describe()) to out, quarantine notices to stderr
 * (a file's columns not in the column map counted in one line; with
 * verbose, each listed too). 0 with stats, or -1 with err and target as it
 * was.
 */
int rebuild_run(const rebuild_plan *plan, const char *target, const colmap *map, int verbose,
		long wait, FILE *out, rebuild_stats *stats, mc_err *err);

#endif
