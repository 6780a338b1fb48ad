/*
 * rowfeed: the row loop shared by loading, staging and checking: an
 * export file parsed and normalised, its header and every row encoded
 * (record_encode) and handed to a sink, bad rows and notices reported.
 *
 * Errors: 0, or -1 with err filled (its last parameter, base/error.h).
 */
#ifndef MODELCAT_ROWFEED_H
#define MODELCAT_ROWFEED_H

#include <stdio.h>
#include "ingest/sink.h"
#include "values/colmap.h"

/* What rowfeed_run reads and where its reports go. */
typedef struct rowfeed_job {
	const colmap *map;          /* column map */
	const char *path;           /* the export file */
	FILE *errors;               /* one line per quarantined row or notice (the
				       columns not in the column map counted in
				       one), or NULL */
	int threaded;               /* 1: parse on a second thread (queue.h);
				       0: parse here, the records split on
				       another core when there is one
				       (parse_read_ahead()) */
	char *content_sha;          /* [65]: the content's SHA-256 goes here, or NULL */
	unsigned long long *bytes;  /* the content's size goes here, or NULL */
	int verbose;                /* errors lists each column not in the column
				       map, not only their count */
} rowfeed_job;

/* Parse job->path and feed its header and every row to out. 0 or -1. */
int rowfeed_run(const rowfeed_job *job, ingest_sink *out, mc_err *err);

#endif
