#include "ingest/queue.h"
#include "base/handoff.h"
#include "base/util.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A string of a queued row: offset into the batch's text, or NONE. */
#define NONE ((size_t)-1)

typedef struct queued {
	int notice;                 /* 1: a notice (text in name) */
	load_row row;               /* numbers; strings are below */
	size_t name, fault_field, reason, raw_csv, norm, raw;  /* offsets */
	size_t compared;            /* offset of the compared form whose digest
				       is still to make (load_row), or NONE */
	int has_values;             /* 1: the row came with a record */
	size_t first_field;         /* with has_values: its fields, from here
				       in the batch's fields, */
	size_t nfields;             /* this many */
} queued;

/* A field of a queued row's record (values/record.h): its bytes as
 * offsets into the batch's text. */
typedef struct queued_field {
	const char *name;           /* the field (the parse's columns, which
				       outlive the queue) */
	enum colmap_type type;      /* its type */
	size_t norm, norm_len;      /* its value: offset (or NONE), length */
	size_t raw, raw_len;        /* its cell: offset (or NONE), length */
} queued_field;

typedef struct batch {
	queued items[QUEUE_BATCH_ROWS];   /* the rows */
	size_t n;                   /* rows used */
	sbuf text;                  /* their strings, each NUL-terminated */
	queued_field *fields;       /* their records' fields */
	size_t nfields, fields_cap; /* entries used and allocated */
	record_values values;       /* the record of the row being handed out */
} batch;

typedef struct queue {
	handoff batches;            /* full batches, parser to loader */
	int failed;                 /* the parser failed: message in err (set
				       before the handoff is finished) */
	batch *filling;             /* the parser's current batch */
	mc_err err;                 /* the parser's failure */
} queue;

/* Copy s (len bytes, or strlen(s) when len is 0) and its NUL into b's
 * text: its offset, or NONE for no string. */
static size_t keep_string(batch *b, const char *s, size_t len)
{
	size_t at;

	if (!s)
		return NONE;
	at = b->text.len;
	sbuf_add(&b->text, s, (len ? len : strlen(s)) + 1);
	return at;
}

static const char *string_at(const batch *b, size_t at)
{
	return at == NONE ? NULL : b->text.data + at;
}

static batch *take_spare(queue *q)
{
	batch *b = handoff_spare(&q->batches);

	if (!b) {
		b = xcalloc(1, sizeof(*b));
		sbuf_init(&b->text);
	}
	b->n = 0;
	b->nfields = 0;
	sbuf_reset(&b->text);
	return b;
}

/* Make the digest of a queued row whose digest is still to make. */
static void make_digest(const batch *b, queued *it)
{
	if (it->compared == NONE)
		return;
	load_digest(string_at(b, it->compared), it->row.digest);
	it->row.has_digest = 1;
	it->compared = NONE;
}

/*
 * The digests of a batch's rows (a SHA-256 of some 2 KB a row) are made by
 * whichever thread has time for them. If batches are waiting for the
 * loader as the parser hands this one over, the parser is ahead and makes
 * them; else they are left to the loader, which makes them as it takes
 * the rows. So neither thread idles while the other has them to do.
 */
static void settle_digests(queue *q)
{
	batch *b = q->filling;
	size_t i;
	int waiting = handoff_waiting(&q->batches) > 0;

	for (i = 0; waiting && i < b->n; i++)
		make_digest(b, &b->items[i]);
}

/* Hand the parser's batch to the loader; -1 when the loader has stopped. */
static int push_batch(queue *q)
{
	settle_digests(q);
	if (handoff_put(&q->batches, q->filling))
		return -1;
	q->filling = NULL;
	return 0;
}

static queued *next_slot(queue *q)
{
	if (q->filling && q->filling->n == QUEUE_BATCH_ROWS && push_batch(q))
		return NULL;
	if (!q->filling)
		q->filling = take_spare(q);
	return &q->filling->items[q->filling->n++];
}

/* Where len bytes at p are in b's text once the row's strings are kept:
 * inside the row's norm or raw JSON (record_encode points most values
 * there), or copied after them. */
static size_t keep_bytes(batch *b, const queued *slot, const load_row *row, const char *p,
			 size_t len)
{
	uintptr_t at = (uintptr_t)p, norm = (uintptr_t)row->norm_json,
		  raw = (uintptr_t)row->raw_json;
	size_t kept;

	if (!p)
		return NONE;
	if (slot->norm != NONE && at >= norm && at + len <= norm + slot->row.norm_len)
		return slot->norm + (at - norm);
	if (slot->raw != NONE && at >= raw && at + len <= raw + slot->row.raw_len)
		return slot->raw + (at - raw);
	kept = b->text.len;
	sbuf_add(&b->text, p, len);
	return kept;
}

/* Keep the row's record in b: its fields, their bytes where the row's
 * JSON already holds them. */
static void keep_record(batch *b, queued *slot, const load_row *row)
{
	const record_values *v = row->values;
	size_t i;

	slot->first_field = b->nfields;
	slot->nfields = v->n;
	if (b->nfields + v->n > b->fields_cap) {
		b->fields_cap = (b->nfields + v->n) * 2;
		b->fields = xrealloc(b->fields, b->fields_cap * sizeof(*b->fields));
	}
	for (i = 0; i < v->n; i++) {
		const record_field *f = &v->fields[i];
		queued_field *q = &b->fields[b->nfields++];

		q->name = f->name;
		q->type = f->type;
		q->norm = keep_bytes(b, slot, row, f->norm, f->norm_len);
		q->norm_len = f->norm_len;
		q->raw = f->raw == f->norm ? q->norm : keep_bytes(b, slot, row, f->raw, f->raw_len);
		q->raw_len = f->raw_len;
	}
}

/* The queue as a sink: -1 (no message) when the loader has stopped. */
static int queue_row(ingest_sink *s, const load_row *row, mc_err *err)
{
	queue *q = s->ctx;
	queued *slot = next_slot(q);
	batch *b = q->filling;

	(void)err;
	if (!slot)
		return -1;
	slot->notice = 0;
	slot->row = *row;
	slot->name = keep_string(b, row->name, 0);
	slot->fault_field = keep_string(b, row->fault_field, 0);
	slot->reason = keep_string(b, row->reason, 0);
	slot->raw_csv = keep_string(b, row->raw_csv, 0);
	slot->norm = keep_string(b, row->norm_json, row->norm_len);
	if (slot->norm != NONE)
		slot->row.norm_len = b->text.len - 1 - slot->norm;
	slot->raw = keep_string(b, row->raw_json, row->raw_len);
	if (slot->raw != NONE)
		slot->row.raw_len = b->text.len - 1 - slot->raw;
	slot->compared = NONE;
	if (row->compared && !row->has_digest) {
		/* most rows are their own compared form (load_row) */
		slot->compared = row->compared == row->norm_json ? slot->norm
								 : keep_string(b, row->compared, 0);
	}
	slot->row.values = NULL;
	slot->has_values = row->values != NULL;
	if (row->values)
		keep_record(b, slot, row);
	return 0;
}

static int queue_notice(ingest_sink *s, const char *message, mc_err *err)
{
	queue *q = s->ctx;
	queued *slot = next_slot(q);

	(void)err;
	if (!slot)
		return -1;
	memset(slot, 0, sizeof(*slot));
	slot->notice = 1;
	slot->compared = NONE;
	slot->name = keep_string(q->filling, message, 0);
	return 0;
}

typedef struct producer {
	queue_producer *produce;    /* what runs on the thread */
	void *ctx;                  /* its argument */
	queue *q;                   /* where rows go */
	ingest_sink *qsink;         /* the queue as a sink */
} producer;

static void *produce(void *arg)
{
	producer *pr = arg;
	queue *q = pr->q;
	int rc = pr->produce(pr->ctx, pr->qsink, &q->err);

	if (!rc && q->filling && q->filling->n)
		rc = push_batch(q);
	q->failed = rc != 0;
	handoff_finish(&q->batches);
	return NULL;
}

/* The record of queued row it (with values), pointing into b's text:
 * valid until the next call. */
static const record_values *record_at(batch *b, const queued *it)
{
	size_t i;

	record_values_reset(&b->values);
	for (i = 0; i < it->nfields; i++) {
		const queued_field *q = &b->fields[it->first_field + i];
		record_field *f = record_values_add(&b->values);

		f->name = q->name;
		f->type = q->type;
		f->norm = string_at(b, q->norm);
		f->norm_len = q->norm_len;
		f->raw = string_at(b, q->raw);
		f->raw_len = q->raw_len;
	}
	return &b->values;
}

/* Hand the rows of batch b to out, making the digests still to make.
 * 0 or -1. */
static int unload_batch(batch *b, ingest_sink *out, mc_err *err)
{
	size_t i;
	int rc = 0;

	for (i = 0; i < b->n && !rc; i++) {
		queued *it = &b->items[i];
		load_row row;

		make_digest(b, it);
		row = it->row;

		if (it->notice) {
			rc = out->notice(out, string_at(b, it->name), err);
			continue;
		}
		row.name = string_at(b, it->name);
		row.fault_field = string_at(b, it->fault_field);
		row.reason = string_at(b, it->reason);
		row.raw_csv = string_at(b, it->raw_csv);
		row.norm_json = string_at(b, it->norm);
		row.raw_json = string_at(b, it->raw);
		row.compared = NULL;
		if (it->has_values)
			row.values = record_at(b, it);
		rc = out->row(out, &row, err);
	}
	return rc;
}

/* Load the queued batches into out until the parser is done. */
static int consume(queue *q, ingest_sink *out, mc_err *err)
{
	batch *b;

	while ((b = handoff_take(&q->batches))) {
		int rc = unload_batch(b, out, err);

		handoff_give_back(&q->batches, b);
		if (rc) {
			handoff_stop(&q->batches);
			return -1;
		}
	}
	return q->failed ? -1 : 0;
}

static void batch_free(void *item)
{
	batch *b = item;

	if (!b)
		return;
	sbuf_release(&b->text);
	free(b->fields);
	record_values_release(&b->values);
	free(b);
}

int queue_run(queue_producer *produce_fn, void *ctx, ingest_sink *out, mc_err *err)
{
	queue q;
	ingest_sink qsink = { NULL, queue_row, queue_notice, NULL, &q, out->wants_values, 1,
			      out->wants_records };
	producer pr = { produce_fn, ctx, &q, &qsink };
	pthread_t thread;
	int rc;

	memset(&q, 0, sizeof(q));
	if (handoff_init(&q.batches, QUEUE_BATCHES))
		return produce_fn(ctx, out, err);
	if (mc_thread_start(&thread, produce, &pr)) {
		rc = produce_fn(ctx, out, err);
		goto out;
	}
	rc = consume(&q, out, err);
	pthread_join(thread, NULL);
	if (q.failed && !q.batches.stopped) {
		mc_error(err, "%s", q.err.msg);
		rc = -1;
	}
out:
	batch_free(q.filling);
	handoff_release(&q.batches, batch_free);
	return rc;
}
