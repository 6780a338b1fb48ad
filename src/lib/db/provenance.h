/*
 * provenance: where the published data comes from: every export file of
 * the snapshots up to a date (its export, the snapshot's date, the
 * SHA-256 and size of its content), read in one query so that a render
 * cites its sources without a query per page; and the column types of an
 * export as `modelcat export` writes its header.
 *
 * Errors: 0, or -1 with err filled (its last parameter, base/error.h).
 */
#ifndef MODELCAT_PROVENANCE_H
#define MODELCAT_PROVENANCE_H

#include "db/catalogue.h"

/* One export file of a snapshot (a snapshot_export row). */
typedef struct provenance_file {
	sqlite3_int64 id;            /* the snapshot_export */
	char *export;                /* the export's name */
	char day[11];                /* the snapshot's date (YYYY-MM-DD) */
	char sha256[65];             /* SHA-256 of the content (decompressed) */
	unsigned long long bytes;    /* the content's size */
} provenance_file;

/* Every export file of the snapshots dated on or before as_of (NULL or
 * "": all), by export name, then date, then as loaded. *files (n
 * entries) is the caller's: free with
 * provenance_files_free. 0 or -1. */
int provenance_files(catalogue *cat, const char *as_of, provenance_file **files, size_t *n,
		     mc_err *err);
void provenance_files_free(provenance_file *files, size_t n);

/* The type of each column of export_name as query_export_csv() writes
 * its header on as_of ("key", "text", "number", ...: colmap's type
 * names), in that order, into *types (n entries; free with
 * mc_free_strings). 0, 1 when the export has no snapshot by then, -1. */
int provenance_column_types(catalogue *cat, const char *export_name, const char *as_of,
			    char ***types, size_t *n, mc_err *err);

#endif
