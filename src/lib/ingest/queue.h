/*
 * queue: rows passed from a parsing thread to a loading one. Parsing and
 * normalising run on one core while the catalogue is written on the
 * other: the producer hands each row to a queue sink, which copies it into
 * a batch; full batches pass through a small queue to this thread, which
 * alone hands them to the real sink (and so alone touches SQLite). The
 * queue takes rows' digests later (sink.h digests_later): the parser makes
 * a batch's as it hands the batch over if batches are waiting for the
 * loader; else the loader makes them as it takes the rows.
 *
 * Errors: 0, or -1 with err filled (its last parameter, base/error.h).
 */
#ifndef MODELCAT_QUEUE_H
#define MODELCAT_QUEUE_H

#include "ingest/sink.h"

/* Rows (and notices) a batch holds, and full batches the queue holds
 * before the parser waits for the loader. */
enum { QUEUE_BATCH_ROWS = 256, QUEUE_BATCHES = 4 };

/* What runs on the second thread: feed every row to `to`. 0, or -1 with
 * err filled (a row refused by `to` needs no message: the loader's
 * failure is reported). */
typedef int queue_producer(void *ctx, ingest_sink *to, mc_err *err);

/* Run produce on a second thread, handing what it feeds to out on this
 * one; when no thread can start, run produce here straight into out. 0 or
 * -1: the loader's failure, else the producer's. */
int queue_run(queue_producer *produce, void *ctx, ingest_sink *out, mc_err *err);

#endif
