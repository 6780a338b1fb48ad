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
#include "db/catalogue.h"
#include "db/load.h"
#include "read/colmap.h"

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
