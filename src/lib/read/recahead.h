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

/* Start reading reader's records on a thread of their own. NULL when no
 * thread can start (read them with csv_next() then). */
recahead *recahead_start(csv_reader *reader);

/* The next record, as csv_next(): 1, 0 at the end, -1 with err filled. */
int recahead_next(recahead *a, csv_row *row, mc_err *err);

/* 1 once recahead_next() has returned 0 or -1 (the thread has ended). */
int recahead_done(const recahead *a);

/* Stop the thread (it finishes the record under way) and free everything;
 * accepts NULL. */
void recahead_stop(recahead *a);

#endif
