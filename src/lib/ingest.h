/*
 * ingest: one snapshot from export files into the catalogue: hash each
 * file, parse and normalise it, report its bad rows, and load it, all in
 * the one transaction of a load. Also the staging file that
 * modelcat-parse writes and modelcat-load reads: a small SQLite database
 * holding one parsed export (tables staging_export, staging_column,
 * staging_row), to be inspected with sqlite3.
 */
#ifndef MODELCAT_INGEST_H
#define MODELCAT_INGEST_H

#include <stdio.h>
#include "catalogue.h"
#include "load.h"
#include "colmap.h"

/* Longest export name accepted. */
#define INGEST_EXPORT_MAX 64

/*
 * The export's name from a file's path: the file name without .gz, .zip
 * and .csv; when that is a snapshot's name in the store (YYYY-MM-DD, or
 * YYYY-MM-DDTHHMMSSZ-<sha12> as fetch names a later content of the same
 * day: <export>/<date>.csv.gz), the name of the folder instead. Returns 0,
 * or -1 when no valid name results.
 */
int ingest_export_name(const char *path, char *name, size_t len);
/* The date of a file named as in the snapshot store (<date>.csv.gz or
 * <date>T<time>Z-<hash>.csv.gz) into day: 0, or -1 for another name. */
int ingest_snapshot_date(const char *path, char day[11]);

/*
 * Split a command-line argument "[EXPORT=]FILE": when the text before the
 * first '=' is a valid export name, that is the export and the rest the
 * file; otherwise the whole argument is the file and the name comes from
 * ingest_export_name(). *path points into arg. 0, or -1 when no name.
 */
int ingest_split_arg(const char *arg, char *name, size_t len, const char **path);
/* Export names are letters, digits, '_' and '-', 1..INGEST_EXPORT_MAX long. */
int ingest_valid_export_name(const char *name);

/* Where an ingest writes its messages: quarantined rows and notices go to
 * errors (one line each), nothing else. */
typedef struct ingest_ctx {
	load *load;       /* the open load */
	const colmap *map;          /* column map */
	FILE *errors;               /* one line per bad row or notice */
} ingest_ctx;

/* Parse path and load it as export_name into ctx->load. 0 or -1 (err). */
int ingest_file(ingest_ctx *ctx, const char *export_name, const char *path,
		load_stats *stats, char *err, size_t errlen);

/* Parse and normalise path, report bad rows to errors, keep nothing:
 * stats gets the row counts. 0 or -1 (err). */
int ingest_check(const colmap *map, const char *path, FILE *errors,
		 load_stats *stats, char *err, size_t errlen);
/* Parse path into a new staging file out (replaced if it exists). */
int ingest_stage(const colmap *map, const char *export_name, const char *path,
		 const char *out, FILE *errors, load_stats *stats,
		 char *err, size_t errlen);
/* Load a staging file into ctx->load. 0 or -1 (err). */
int ingest_load_staged(ingest_ctx *ctx, const char *staging,
		       load_stats *stats, char *err, size_t errlen);

/* One line describing an export's load, for summaries. */
void ingest_describe(const char *export_name, const load_stats *stats,
		     FILE *out);

#endif
