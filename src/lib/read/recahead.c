#include "read/recahead.h"
#include "base/handoff.h"
#include "base/util.h"

#include <pthread.h>
#include <stdlib.h>

/* A record of a batch: its fields are starts[first ..] and lengths[first ..]. */
typedef struct kept_record {
	csv_row row;                /* as the reader gave it, but its fields
				       and lengths (NULL here) */
	size_t first;               /* its first field's index */
	int has_cell;               /* cell_fn gave cell for it */
	unsigned char cell[RECAHEAD_CELL_OUT]; /* what it gave */
} kept_record;

/* Records copied out of the reader, handed over together. */
typedef struct batch {
	kept_record *records;       /* the records */
	size_t nrecords, records_cap; /* used and allocated */
	size_t *starts;             /* each field's offset in bytes */
	size_t *lengths;            /* each field's length */
	size_t nfields, fields_cap; /* used and allocated */
	sbuf bytes;                 /* the fields' text, each ended by a NUL */
	int end;                    /* 1: the reader's end or failure follows */
	int status;                 /* with end: 0 (the end) or -1 (failed) */
	mc_err err;                 /* with status -1: the reader's message */
} batch;

struct recahead {
	csv_reader *reader;         /* the caller's; the thread's until done */
	size_t column;              /* the cell cell_fn works on */
	recahead_cell_fn *cell_fn;  /* or NULL */
	const kept_record *last;    /* the record handed out last, or NULL */
	pthread_t thread;           /* the splitter */
	int joined;                 /* the thread has been joined */
	handoff queue;              /* batches, splitter to user */
	batch *current;             /* the batch being handed out */
	size_t next;                /* its next record */
	char **fields;              /* the record handed out: its fields */
	size_t fields_cap;          /* entries allocated in fields */
	int done;                   /* the end or failure was handed out */
	int status;                 /* then: 0 or -1 */
	mc_err err;                 /* with -1: the message */
};

static void batch_free(void *item)
{
	batch *b = item;

	if (!b)
		return;
	free(b->records);
	free(b->starts);
	free(b->lengths);
	sbuf_release(&b->bytes);
	free(b);
}

/* An empty batch: a spare one, or a new one. A spare that held a long
 * record gives its memory back. */
static batch *batch_empty(recahead *a)
{
	batch *b = handoff_spare(&a->queue);

	if (!b) {
		b = xcalloc(1, sizeof(*b));
		sbuf_init(&b->bytes);
	}
	if (b->bytes.cap > 4 * RECAHEAD_BATCH_BYTES)
		sbuf_release(&b->bytes);
	sbuf_reset(&b->bytes);
	b->nrecords = b->nfields = 0;
	b->end = 0;
	b->status = 0;
	return b;
}

/* Do the record's fields follow one another, each after the NUL of the
 * one before? */
static int contiguous(const csv_row *row)
{
	size_t i;

	for (i = 0; i + 1 < row->nfields; i++)
		if (row->fields[i + 1] != row->fields[i] + row->lengths[i] + 1)
			return 0;
	return 1;
}

/* Copy row into b. Fields that followed one another still do; fields that
 * did not are kept a byte apart, so that whoever looks (a record's raw
 * digest, read/parse.c) sees the same. */
static void keep(batch *b, const csv_row *row)
{
	kept_record *r;
	size_t i, n = row->nfields;

	if (b->nrecords == b->records_cap) {
		b->records_cap = b->records_cap ? 2 * b->records_cap : 64;
		b->records = xrealloc(b->records, b->records_cap * sizeof(*b->records));
	}
	if (b->fields_cap - b->nfields < n) {
		while (b->fields_cap - b->nfields < n)
			b->fields_cap = b->fields_cap ? 2 * b->fields_cap : 1024;
		b->starts = xrealloc(b->starts, b->fields_cap * sizeof(*b->starts));
		b->lengths = xrealloc(b->lengths, b->fields_cap * sizeof(*b->lengths));
	}
	r = &b->records[b->nrecords++];
	r->row = *row;
	r->row.fields = NULL;
	r->row.lengths = NULL;
	r->first = b->nfields;
	r->has_cell = 0;            /* see cells_for() */
	if (n && contiguous(row)) {
		size_t base = b->bytes.len, *starts = b->starts + r->first;
		const char *first = row->fields[0];

		sbuf_add(&b->bytes, first,
			 (size_t)(row->fields[n - 1] - first) + row->lengths[n - 1] + 1);
		for (i = 0; i < n; i++)
			starts[i] = base + (size_t)(row->fields[i] - first);
	} else {
		for (i = 0; i < n; i++) {
			b->starts[r->first + i] = b->bytes.len;
			sbuf_add(&b->bytes, row->fields[i], row->lengths[i]);
			sbuf_add(&b->bytes, "\0", 2);   /* its NUL, and a byte apart */
		}
	}
	memcpy(b->lengths + r->first, row->lengths, n * sizeof(*row->lengths));
	b->nfields += n;
}

/*
 * The cell work of a batch's records is done by whichever thread has time
 * for it: if batches are waiting for the user as the splitter hands this
 * one over, the splitter is ahead and does it; else none is done, and the
 * user does the work itself (read/parse.c counts a name by its text).
 * So neither thread idles while the other has the work to do.
 */
static void cells_for(recahead *a, batch *b)
{
	size_t k;

	if (!a->cell_fn || !handoff_waiting(&a->queue))
		return;
	for (k = 0; k < b->nrecords; k++) {
		kept_record *r = &b->records[k];
		size_t f = r->first + a->column;

		r->has_cell = a->column < r->row.nfields &&
			      a->cell_fn(b->bytes.data + b->starts[f], b->lengths[f], r->cell);
	}
}

/* The thread: split records into batches until the reader's end or
 * failure, or until the user stops. */
static void *split(void *arg)
{
	recahead *a = arg;

	for (;;) {
		batch *b = batch_empty(a);
		csv_row row;
		int rc = 1, end;

		while (b->bytes.len < RECAHEAD_BATCH_BYTES && b->nrecords < RECAHEAD_BATCH_RECORDS &&
		       (rc = csv_next(a->reader, &row, &b->err)) == 1)
			keep(b, &row);
		if (rc != 1) {
			b->end = 1;
			b->status = rc;
		}
		cells_for(a, b);
		end = b->end;           /* b is the user's once handed over */
		if (handoff_put(&a->queue, b)) {
			batch_free(b);
			break;
		}
		if (end)
			break;
	}
	handoff_finish(&a->queue);
	return NULL;
}

recahead *recahead_start(csv_reader *reader, size_t column, recahead_cell_fn *cell_fn)
{
	recahead *a = xcalloc(1, sizeof(*a));

	a->reader = reader;
	a->column = column;
	a->cell_fn = cell_fn;
	if (handoff_init(&a->queue, RECAHEAD_BATCHES)) {
		free(a);
		return NULL;
	}
	if (mc_thread_start(&a->thread, split, a)) {
		handoff_release(&a->queue, batch_free);
		free(a);
		return NULL;
	}
	return a;
}

/* The end or failure handed out: wait for the thread, which is ending. */
static void finish(recahead *a, int status, const mc_err *err)
{
	a->done = 1;
	a->status = status;
	if (status < 0)
		a->err = *err;
	if (!a->joined) {
		pthread_join(a->thread, NULL);
		a->joined = 1;
	}
}

int recahead_next(recahead *a, csv_row *row, mc_err *err)
{
	batch *b = a->current;
	const kept_record *r;
	size_t i;

	a->last = NULL;
	while (!a->done && (!b || a->next == b->nrecords)) {
		if (b && b->end) {
			finish(a, b->status, &b->err);
			break;
		}
		if (b)
			handoff_give_back(&a->queue, b);
		b = a->current = handoff_take(&a->queue);
		a->next = 0;
		if (!b) {
			mc_err lost;

			/* only after a stop, which ends the use of the records */
			mc_error(&lost, "the records read ahead were given up");
			finish(a, -1, &lost);
		}
	}
	if (a->done) {
		if (a->status < 0)
			*err = a->err;
		return a->status;
	}
	r = a->last = &b->records[a->next++];
	if (a->fields_cap < r->row.nfields + 1) {
		a->fields_cap = r->row.nfields + 1;
		a->fields = xrealloc(a->fields, a->fields_cap * sizeof(*a->fields));
	}
	for (i = 0; i < r->row.nfields; i++)
		a->fields[i] = b->bytes.data + b->starts[r->first + i];
	*row = r->row;
	row->fields = a->fields;
	row->lengths = b->lengths + r->first;
	return 1;
}

int recahead_cell(const recahead *a, unsigned char out[RECAHEAD_CELL_OUT])
{
	if (!a->last || !a->last->has_cell)
		return 0;
	memcpy(out, a->last->cell, RECAHEAD_CELL_OUT);
	return 1;
}

int recahead_done(const recahead *a)
{
	return a->done;
}

void recahead_stop(recahead *a)
{
	if (!a)
		return;
	if (!a->joined) {
		handoff_stop(&a->queue);
		pthread_join(a->thread, NULL);
		a->joined = 1;
	}
	batch_free(a->current);
	handoff_release(&a->queue, batch_free);
	free(a->fields);
	free(a);
}
