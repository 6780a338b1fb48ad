/*
 * ingest: one export into a snapshot: hash the file, parse and normalise
 * it, report its bad rows, and load it, all in the one transaction of a
 * load; or keep the parsed export in a staging file (db/staging.h) that
 * is loaded later; or only check it. The row loop is rowfeed.h, the
 * second thread queue.h, the content hash hashing.h; the transaction
 * around a snapshot's exports is snapload.h.
 *
 * Errors: every function that can fail returns 0 or -1 and fills err,
 * its last parameter (base/error.h); err may be NULL.
 */
#ifndef MODELCAT_INGEST_H
#define MODELCAT_INGEST_H

#include <stdio.h>
#include "db/catalogue.h"
#include "db/load.h"
#include "values/colmap.h"

/* Where an ingest writes its messages: quarantined rows and notices go to
 * errors (one line each; the columns of a file not in the column map in
 * one line, each listed with verbose), nothing else. */
typedef struct ingest_ctx {
	load *load;                 /* the open load */
	const colmap *map;          /* column map */
	FILE *errors;               /* one line per bad row or notice */
	int verbose;                /* list each column not in the column map */
} ingest_ctx;

/* Parse path and load it as export_name into ctx->load. 0 or -1. */
int ingest_file(ingest_ctx *ctx, const char *export_name, const char *path,
		load_stats *stats, mc_err *err);

/* Parse and normalise path, report bad rows and notices to errors (as
 * ingest_ctx's), keep nothing: stats gets the row counts. 0 or -1. */
int ingest_check(const colmap *map, const char *path, FILE *errors, int verbose,
		 load_stats *stats, mc_err *err);
/* Parse path into a new staging file out (replaced if it exists; a failed
 * parse leaves it as it was), reporting to errors as ingest_check. 0 or
 * -1. */
int ingest_stage(const colmap *map, const char *export_name, const char *path,
		 const char *out, FILE *errors, int verbose, load_stats *stats, mc_err *err);
/* Load a staging file into ctx->load. 0 or -1. */
int ingest_load_staged(ingest_ctx *ctx, const char *staging, load_stats *stats, mc_err *err);

/* One line describing an export's load, for summaries. */
void ingest_describe(const char *export_name, const load_stats *stats,
		     FILE *out);

#endif
