/*
 * sink: where the row feed (rowfeed.h) hands an export's header, rows and
 * notices: the catalogue (a load), a staging file, a count, or the queue
 * to another thread (queue.h).
 *
 * Errors: a callback returns 0, or -1 with err filled (notice: -1 with no
 * message when err is NULL).
 */
#ifndef MODELCAT_SINK_H
#define MODELCAT_SINK_H

#include "db/load.h"

typedef struct ingest_sink ingest_sink;
struct ingest_sink {
	/* the header; *skip = 1: the rows are not wanted (same content) */
	int (*begin)(ingest_sink *s, const load_column *cols, size_t n, int *skip, mc_err *err);
	/* one row */
	int (*row)(ingest_sink *s, const load_row *row, mc_err *err);
	/* a notice (undeclared column, unknown value, repeated name) */
	int (*notice)(ingest_sink *s, const char *message, mc_err *err);
	/* optional: a map of rows on record, given the header digest */
	int (*known)(ingest_sink *s, const char *header_digest, load_known **known, mc_err *err);
	void *ctx;                  /* the sink's own state */
	int wants_values;           /* 1: rows need their values encoded */
	int digests_later;          /* 1: rows may come with compared and no
				       digest (load_row); the sink makes it */
	int wants_records;          /* 1: rows with values come with their
				       record (load_row.values) too; a sink
				       may set it in begin */
};

#endif
