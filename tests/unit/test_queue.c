/*
 * The queue between the parsing and the loading thread: every row and
 * notice arrives once, in order, and a row handed over with its compared
 * form and no digest arrives with load_digest() of that form, whichever
 * thread made it. Two schedules are forced: the loader held back while
 * batches wait (the parser makes the digests), and the parser held back
 * until the loader has taken everything (the loader makes them). A row's
 * record (values/record.h) arrives with every field's value and cell,
 * whether they pointed into the row's JSON or elsewhere (a value JSON
 * escapes). The producer runs on a thread of its own, which leaves
 * SIGINT, SIGTERM and SIGHUP to the caller's.
 */
#include "unit.h"
#include "ingest/queue.h"

#include <pthread.h>
#include <signal.h>
#include <stdlib.h>

enum {
	BATCH = QUEUE_BATCH_ROWS,
	HELD = QUEUE_BATCHES + 1,       /* batches emitted while the loader is held */
	FREED = QUEUE_BATCHES + 3,      /* the parser is held from this batch on */
	ROWS = (FREED + 7) * BATCH + 17
};

/* a notice before rows 10, 60, 110, ... of the batches emitted while the
 * loader is held */
static int notice_before(size_t i)
{
	return i < HELD * BATCH && i % 50 == 10;
}

typedef struct shared {
	pthread_mutex_t lock;
	pthread_cond_t changed;
	size_t emitted;             /* rows the producer has handed over */
	size_t consumed;            /* rows the consumer has taken */
	/* what the consumer saw */
	size_t rows, notices, out_of_order, wrong_digest, no_digest, wrong_text;
	size_t digest_where_none, records, wrong_record;
} shared;

static shared S = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER,
		    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 };

/* the thread that called queue_run(); where produce() ran, and whether
 * its mask there blocked SIGINT, SIGTERM and SIGHUP */
static pthread_t caller;
static int produced_on_caller = -1, produced_blocking = -1;

static void row_texts(size_t i, char *norm, size_t nlen, char *compared, size_t clen)
{
	snprintf(norm, nlen, "{\"Model\":\"m%zu\",\"Notes\":\"say \\\"hi\\\" %zu\","
		 "\"Parameters\":\"%zu.25\"}", i, i, i * 7);
	snprintf(compared, clen, "{\"Model\":\"m%zu\",\"Notes\":\"say \\\"hi\\\" %zu\","
		 "\"Parameters\":\"%zu.2500000000000\"}", i, i, i * 7);
}

/* Row i's other texts: its raw cells' JSON, and its notes unescaped. */
static void row_cells(size_t i, char *raw, size_t rlen, char *notes, size_t notes_len)
{
	snprintf(raw, rlen, "{\"Parameters\":\"%zu.250\"}", i * 7);
	snprintf(notes, notes_len, "say \"hi\" %zu", i);
}

/* The value of key in a JSON text of ours: where it starts, its length. */
static const char *value_in(const char *json, const char *key, size_t *len)
{
	const char *p = strstr(json, key) + strlen(key) + 2;   /* past ":" */

	*len = strcspn(p, "\"");
	return p;
}

/* Row i's record, as record_encode makes one: Model and Parameters
 * pointing into the JSON, Notes (escaped there) elsewhere, Parameters'
 * cell into the raw JSON. */
static void row_record(record_values *r, const char *norm, const char *raw, const char *notes)
{
	record_field *f;

	record_values_reset(r);
	f = record_values_add(r);
	f->name = "Model";
	f->type = COL_KEY;
	f->norm = f->raw = value_in(norm, "\"Model\"", &f->norm_len);
	f->raw_len = f->norm_len;
	f = record_values_add(r);
	f->name = "Notes";
	f->type = COL_TEXT;
	f->norm = f->raw = notes;
	f->norm_len = f->raw_len = strlen(notes);
	f = record_values_add(r);
	f->name = "Parameters";
	f->type = COL_NUMBER;
	f->norm = value_in(norm, "\"Parameters\"", &f->norm_len);
	f->raw = value_in(raw, "\"Parameters\"", &f->raw_len);
}

static int same_field(const record_field *f, const record_field *g)
{
	return !strcmp(f->name, g->name) && f->type == g->type && f->norm_len == g->norm_len &&
	       !memcmp(f->norm, g->norm, f->norm_len) && f->raw_len == g->raw_len &&
	       !memcmp(f->raw, g->raw, f->raw_len);
}

/* rows whose number i % 5 == 4 are quarantined: no values, no digest;
 * i % 3 == 0: their own compared form; i % 7 == 1: digest made ahead;
 * even rows come with a record */
static int produce(void *ctx, ingest_sink *to, mc_err *err)
{
	size_t i, slots = 0;
	record_values values;

	(void)ctx;
	{
		sigset_t mask;

		pthread_sigmask(SIG_BLOCK, NULL, &mask);
		produced_on_caller = pthread_equal(pthread_self(), caller) != 0;
		produced_blocking = sigismember(&mask, SIGINT) == 1 &&
				    sigismember(&mask, SIGTERM) == 1 &&
				    sigismember(&mask, SIGHUP) == 1;
	}
	record_values_init(&values);
	for (i = 0; i < ROWS; i++) {
		char name[32], norm[128], compared[128], raw[64], notes[32];
		load_row row;

		/* the second half: before the row that hands the full batch
		 * over, wait until the loader has taken every row of the
		 * batches before it (no notices here), so the queue is empty */
		if (i >= FREED * BATCH && slots % BATCH == 0) {
			pthread_mutex_lock(&S.lock);
			while (S.consumed < i - BATCH)
				pthread_cond_wait(&S.changed, &S.lock);
			pthread_mutex_unlock(&S.lock);
		}
		if (notice_before(i)) {
			snprintf(name, sizeof(name), "notice %zu", i);
			if (to->notice(to, name, err))
				return -1;
			slots++;
		}
		memset(&row, 0, sizeof(row));
		snprintf(name, sizeof(name), "m%zu", i);
		row_texts(i, norm, sizeof(norm), compared, sizeof(compared));
		row.line = i + 2;
		row.position = i;
		row.name = name;
		if (i % 5 == 4) {
			row.quarantined = 1;
			row.reason = "bad";
		} else {
			row.norm_json = norm;
			row_cells(i, raw, sizeof(raw), notes, sizeof(notes));
			row.raw_json = raw;
			if (i % 2 == 0) {
				row_record(&values, norm, raw, notes);
				row.values = &values;
			}
			row.compared = i % 3 == 0 ? norm : compared;
			if (i % 7 == 1) {
				load_digest(row.compared, row.digest);
				row.has_digest = 1;
				row.compared = NULL;
			}
		}
		/* what the record pointed to is gone once the row is handed over */
		if (to->row(to, &row, err))
			return -1;
		memset(norm, 'x', sizeof(norm));
		memset(raw, 'x', sizeof(raw));
		memset(notes, 'x', sizeof(notes));
		slots++;
		pthread_mutex_lock(&S.lock);
		S.emitted = i + 1;
		pthread_cond_broadcast(&S.changed);
		pthread_mutex_unlock(&S.lock);
	}
	record_values_release(&values);
	return 0;
}

/* Does the record of row i arrive as it was sent? */
static void check_record(size_t i, const load_row *row, const char *norm)
{
	char raw[64], notes[32];
	record_values want;
	size_t k;
	int same;

	if (i % 2) {
		S.wrong_record += row->values != NULL;
		return;
	}
	S.records++;
	row_cells(i, raw, sizeof(raw), notes, sizeof(notes));
	record_values_init(&want);
	row_record(&want, norm, raw, notes);
	same = row->values && row->values->n == want.n;
	for (k = 0; same && k < want.n; k++)
		same = same_field(&row->values->fields[k], &want.fields[k]);
	S.wrong_record += !same;
	record_values_release(&want);
}

static int take_row(ingest_sink *s, const load_row *row, mc_err *err)
{
	size_t i = S.rows;
	char name[32], norm[128], compared[128];
	unsigned char want[16];

	(void)s;
	(void)err;
	/* the first half: hold the loader on its first row until batches
	 * wait behind it, so the parser finds them there */
	if (i == 0) {
		pthread_mutex_lock(&S.lock);
		while (S.emitted < HELD * BATCH + 1)
			pthread_cond_wait(&S.changed, &S.lock);
		pthread_mutex_unlock(&S.lock);
	}
	snprintf(name, sizeof(name), "m%zu", i);
	row_texts(i, norm, sizeof(norm), compared, sizeof(compared));
	if (row->position != i || row->line != i + 2 || strcmp(row->name, name))
		S.out_of_order++;
	if (i % 5 == 4) {
		if (row->has_digest || !row->quarantined || strcmp(row->reason, "bad"))
			S.digest_where_none++;
	} else {
		load_digest(i % 3 == 0 ? norm : compared, want);
		if (!row->has_digest)
			S.no_digest++;
		else if (memcmp(row->digest, want, 16))
			S.wrong_digest++;
		if (!row->norm_json || strcmp(row->norm_json, norm))
			S.wrong_text++;
		check_record(i, row, norm);
	}
	S.rows++;
	pthread_mutex_lock(&S.lock);
	S.consumed = S.rows;
	pthread_cond_broadcast(&S.changed);
	pthread_mutex_unlock(&S.lock);
	return 0;
}

static int take_notice(ingest_sink *s, const char *message, mc_err *err)
{
	char want[32];

	(void)s;
	(void)err;
	/* a notice comes before the row it was sent before */
	snprintf(want, sizeof(want), "notice %zu", S.rows);
	if (strcmp(message, want))
		S.wrong_text++;
	S.notices++;
	return 0;
}

int main(void)
{
	ingest_sink out = { NULL, take_row, take_notice, NULL, NULL, 1, 0, 1 };
	mc_err err = { 0 };
	size_t notices = 0, i;

	for (i = 0; i < ROWS; i++)
		notices += notice_before(i);
	caller = pthread_self();
	CHECK(queue_run(produce, NULL, &out, &err) == 0, "the queue runs to its end: %s",
	      err.msg);
	CHECK(produced_on_caller == 0 && produced_blocking == 1,
	      "the producer ran on a thread of its own (%d) that blocks SIGINT, SIGTERM and "
	      "SIGHUP (%d)", !produced_on_caller, produced_blocking);
	CHECK(S.rows == ROWS, "every row arrives (%zu of %d)", S.rows, ROWS);
	CHECK(S.notices == notices, "every notice arrives (%zu of %zu)", S.notices, notices);
	CHECK(S.out_of_order == 0, "rows arrive in order, with their own line and name (%zu not)",
	      S.out_of_order);
	CHECK(S.no_digest == 0, "every row with values arrives with a digest (%zu without)",
	      S.no_digest);
	CHECK(S.wrong_digest == 0,
	      "each digest is load_digest() of the row's compared form (%zu not)", S.wrong_digest);
	CHECK(S.wrong_text == 0, "texts and notices arrive as sent (%zu not)", S.wrong_text);
	CHECK(S.digest_where_none == 0, "quarantined rows arrive without a digest (%zu not)",
	      S.digest_where_none);
	CHECK(S.records > BATCH && S.wrong_record == 0,
	      "records arrive with each field's value and cell, pointed into the JSON or not,"
	      " and only with the rows that had one (%zu of %zu not)", S.wrong_record, S.records);
	return unit_done();
}
