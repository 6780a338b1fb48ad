/*
 * recahead: a CSV reader's records split on a thread of their own, a few
 * batches ahead of the thread that uses them, so that reading, splitting,
 * checking and copying the bytes is not on that thread's time while
 * another core is free (read/parse.h normalises the records meanwhile).
 *
 * Records come out as csv_next() gives them: in order, with the same
 * fields, lengths, flags and lines, each field NUL-terminated, a record's
 * fields one after another in memory exactly when the reader's were; then
 * the same end (0), or the same failure (-1, the reader's message) after
 * the records before it, and again on every later call.
 *
 * Ownership: a record's fields stay valid until the next recahead_next()
 * or recahead_stop(). The reader stays the caller's but is used by the
 * thread from recahead_start() until recahead_next() has returned 0 or -1
 * (recahead_done()) or recahead_stop(); only then may the caller use it
 * (csv_bytes_read(), csv_content_sha256(), csv_free()). After a stop
 * before the end, the reader has read past the records handed out.
 */
#ifndef MODELCAT_RECAHEAD_H
#define MODELCAT_RECAHEAD_H

#include "read/csv.h"

/* Bytes of field text a batch holds before it is handed over (a longer
 * record is a batch of its own), records at most, and batches queued. */
#define RECAHEAD_BATCH_BYTES (256u * 1024u)
#define RECAHEAD_BATCH_RECORDS 1024u
#define RECAHEAD_BATCHES 4u

typedef struct recahead recahead;

/* Bytes a cell's work gives (recahead_cell_fn). */
#define RECAHEAD_CELL_OUT 16

/*
 * Work on one column's cell of each record, done on the splitting thread:
 * 1 with out filled, or 0 (nothing to hand out for that cell). It must
 * only read its arguments. (read/parse.c digests plain model names.)
 */
typedef int recahead_cell_fn(const char *cell, size_t len, unsigned char out[RECAHEAD_CELL_OUT]);

/* Start reading reader's records on a thread of their own; with cell_fn,
 * call it there on each record's cell of the given column when the thread
 * is ahead of the user (batches are waiting as it hands one over), and
 * not otherwise: the user then does that work itself. A record without
 * that column gets nothing. NULL when no thread can start (read the
 * records with csv_next() then). */
recahead *recahead_start(csv_reader *reader, size_t column, recahead_cell_fn *cell_fn);

/* The next record, as csv_next(): 1, 0 at the end, -1 with err filled. */
int recahead_next(recahead *a, csv_row *row, mc_err *err);

/* For the record recahead_next() gave last: 1 with out filled with what
 * cell_fn gave for its cell, or 0 when it gave nothing or was not called
 * (the thread was not ahead). */
int recahead_cell(const recahead *a, unsigned char out[RECAHEAD_CELL_OUT]);

/* 1 once recahead_next() has returned 0 or -1 (the thread has ended). */
int recahead_done(const recahead *a);

/* Stop the thread (it finishes the record under way) and free everything;
 * accepts NULL. */
void recahead_stop(recahead *a);

#endif
