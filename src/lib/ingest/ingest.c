#include "ingest/ingest.h"
#include "read/input.h"
#include "read/parse.h"
#include "read/record.h"
#include "base/sha256.h"
#include "store/naming.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <strings.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- the parse loop, shared by loading and staging ---- */

typedef struct sink sink;
struct sink {
	int (*begin)(sink *s, const load_column *cols, size_t n, int *skip);
	int (*row)(sink *s, const load_row *row);
	int (*notice)(sink *s, const char *message);
	/* optional: a map of rows on record, given the header digest */
	int (*known)(sink *s, const char *header_digest, load_known **known);
	void *ctx;                  /* the sink's own state */
	int wants_values;           /* 1: rows need their values encoded */
	char *err;                  /* where a failing sink writes its message */
	size_t errlen;              /* size of err */
};

typedef struct report_ctx {
	sink *out;                  /* notices go here too */
	FILE *errors;               /* and here, one line each */
	int failed;                 /* a notice could not be stored */
} report_ctx;

static void on_report(void *ctx, const char *message)
{
	report_ctx *rc = ctx;

	if (rc->errors)
		fprintf(rc->errors, "%s\n", message);
	if (!rc->failed && rc->out->notice(rc->out, message))
		rc->failed = 1;
}

/* What the row loop needs: the open export and its encoding. */
typedef struct feeder {
	parse_export *parse;        /* the open export */
	record_plan plan;           /* how rows become JSON */
	const char *path;           /* for messages */
	load_known *known;          /* rows recognisable unparsed, or NULL */
	int known_wanted;           /* rows carry raw digests (see sink.known) */
	FILE *errors;               /* one line per quarantined row */
	char *err;                  /* where a failure's message goes */
	size_t errlen;              /* its size */
} feeder;

/* Read every row and hand it to out. 0, or -1 (message in f->err or the
 * sink's). */
static int feed_rows(feeder *f, sink *out)
{
	sbuf norm, raw, rawcsv;
	parse_row row;
	mc_err e;
	int step, rc = -1;

	sbuf_init(&norm);
	sbuf_init(&raw);
	sbuf_init(&rawcsv);
	while ((step = parse_next(f->parse, &row, &e)) == 1) {
		load_row crow;

		memset(&crow, 0, sizeof(crow));
		crow.line = row.line;
		crow.position = row.position;
		crow.name = row.name;
		crow.occurrence = row.occurrence;
		crow.quarantined = row.quarantined;
		crow.has_raw_digest = f->known_wanted;
		memcpy(crow.raw_digest, row.raw_digest, sizeof(crow.raw_digest));
		if (row.known) {
			load_known_ids(f->known, row.known_ref, &crow.known_version, &crow.known_record);
		} else if (row.quarantined) {
			crow.fault_field = row.fault_field;
			crow.reason = row.reason;
			sbuf_reset(&rawcsv);
			parse_row_raw_csv(&row, &rawcsv);
			crow.raw_csv = rawcsv.data;
			if (f->errors)
				fprintf(f->errors, "%s:%lu: %s (row quarantined)\n", f->path, row.line,
					row.reason);
		} else if (out->wants_values) {
			sbuf_reset(&norm);
			sbuf_reset(&raw);
			record_encode(&f->plan, &row, &norm, &raw);
			crow.norm_json = norm.data;
			crow.raw_json = raw.data;
			load_digest(crow.norm_json, crow.digest);
			crow.has_digest = 1;
		}
		if (out->row(out, &crow))
			goto out;
	}
	if (step < 0)
		mc_fmt(f->err, f->errlen, "%s", e.msg);
	rc = step < 0 ? -1 : 0;
out:
	sbuf_release(&norm);
	sbuf_release(&raw);
	sbuf_release(&rawcsv);
	return rc;
}

/* ---- the row loop on a second thread ---- */

/*
 * Parsing and normalising run on one core while the catalogue is written on
 * the other: the parser thread copies each row into a batch, and full
 * batches pass through a small queue to the loading thread, which alone
 * touches SQLite.
 */
enum { BATCH_ROWS = 256, QUEUE_BATCHES = 4 };

/* A string of a queued row: offset into the batch's text, or NONE. */
#define NONE ((size_t)-1)

typedef struct queued {
	int notice;                 /* 1: a notice (text in name) */
	load_row row;               /* numbers; strings are below */
	size_t name, fault_field, reason, raw_csv, norm, raw;  /* offsets */
} queued;

typedef struct batch {
	queued items[BATCH_ROWS];   /* the rows */
	size_t n;                   /* rows used */
	sbuf text;                  /* their strings, each NUL-terminated */
} batch;

typedef struct queue {
	pthread_mutex_t lock;       /* guards everything below */
	pthread_cond_t changed;     /* signalled on every change */
	batch *full[QUEUE_BATCHES]; /* batches waiting to be loaded, FIFO */
	size_t head, count;         /* ring position and fill */
	batch *spare[QUEUE_BATCHES + 2]; /* emptied batches for reuse */
	size_t nspare;              /* entries in spare */
	int finished;               /* the parser is done (see failed) */
	int failed;                 /* the parser failed: message in err */
	int stop;                   /* the loader failed: parser, stop */
	batch *filling;             /* the parser's current batch */
	char err[1024];             /* the parser's failure */
} queue;

static size_t keep_string(batch *b, const char *s)
{
	size_t at;

	if (!s)
		return NONE;
	at = b->text.len;
	sbuf_add(&b->text, s, strlen(s) + 1);
	return at;
}

static const char *string_at(const batch *b, size_t at)
{
	return at == NONE ? NULL : b->text.data + at;
}

static batch *take_spare(queue *q)
{
	batch *b;

	pthread_mutex_lock(&q->lock);
	b = q->nspare ? q->spare[--q->nspare] : NULL;
	pthread_mutex_unlock(&q->lock);
	if (!b) {
		b = xcalloc(1, sizeof(*b));
		sbuf_init(&b->text);
	}
	b->n = 0;
	sbuf_reset(&b->text);
	return b;
}

/* Hand the parser's batch to the loader; -1 when the loader has stopped. */
static int push_batch(queue *q)
{
	int rc = 0;

	pthread_mutex_lock(&q->lock);
	while (q->count == QUEUE_BATCHES && !q->stop)
		pthread_cond_wait(&q->changed, &q->lock);
	if (q->stop) {
		rc = -1;
	} else {
		q->full[(q->head + q->count) % QUEUE_BATCHES] = q->filling;
		q->count++;
		q->filling = NULL;
		pthread_cond_broadcast(&q->changed);
	}
	pthread_mutex_unlock(&q->lock);
	return rc;
}

static queued *next_slot(queue *q)
{
	if (q->filling && q->filling->n == BATCH_ROWS && push_batch(q))
		return NULL;
	if (!q->filling)
		q->filling = take_spare(q);
	return &q->filling->items[q->filling->n++];
}

static int queue_row(sink *s, const load_row *row)
{
	queue *q = s->ctx;
	queued *slot = next_slot(q);
	batch *b = q->filling;

	if (!slot)
		return -1;
	slot->notice = 0;
	slot->row = *row;
	slot->name = keep_string(b, row->name);
	slot->fault_field = keep_string(b, row->fault_field);
	slot->reason = keep_string(b, row->reason);
	slot->raw_csv = keep_string(b, row->raw_csv);
	slot->norm = keep_string(b, row->norm_json);
	slot->raw = keep_string(b, row->raw_json);
	return 0;
}

static int queue_notice(sink *s, const char *message)
{
	queue *q = s->ctx;
	queued *slot = next_slot(q);

	if (!slot)
		return -1;
	memset(slot, 0, sizeof(*slot));
	slot->notice = 1;
	slot->name = keep_string(q->filling, message);
	return 0;
}

typedef struct producer {
	feeder *feed;               /* what to read */
	queue *q;                   /* where rows go */
	sink *qsink;                /* the queue as a sink */
} producer;

static void *produce(void *arg)
{
	producer *pr = arg;
	queue *q = pr->q;
	int rc = feed_rows(pr->feed, pr->qsink);

	if (!rc && q->filling && q->filling->n)
		rc = push_batch(q);
	pthread_mutex_lock(&q->lock);
	q->finished = 1;
	q->failed = rc != 0;
	pthread_cond_broadcast(&q->changed);
	pthread_mutex_unlock(&q->lock);
	return NULL;
}

/* Load the queued batches into out until the parser is done. */
static int consume(queue *q, sink *out)
{
	for (;;) {
		batch *b;
		size_t i;
		int rc = 0;

		pthread_mutex_lock(&q->lock);
		while (!q->count && !q->finished)
			pthread_cond_wait(&q->changed, &q->lock);
		if (!q->count) {
			pthread_mutex_unlock(&q->lock);
			return q->failed ? -1 : 0;
		}
		b = q->full[q->head];
		q->head = (q->head + 1) % QUEUE_BATCHES;
		q->count--;
		pthread_cond_broadcast(&q->changed);
		pthread_mutex_unlock(&q->lock);
		for (i = 0; i < b->n && !rc; i++) {
			queued *it = &b->items[i];
			load_row row = it->row;

			if (it->notice) {
				rc = out->notice(out, string_at(b, it->name));
				continue;
			}
			row.name = string_at(b, it->name);
			row.fault_field = string_at(b, it->fault_field);
			row.reason = string_at(b, it->reason);
			row.raw_csv = string_at(b, it->raw_csv);
			row.norm_json = string_at(b, it->norm);
			row.raw_json = string_at(b, it->raw);
			rc = out->row(out, &row);
		}
		pthread_mutex_lock(&q->lock);
		q->spare[q->nspare++] = b;
		if (rc)
			q->stop = 1;
		pthread_cond_broadcast(&q->changed);
		pthread_mutex_unlock(&q->lock);
		if (rc)
			return -1;
	}
}

static void batch_free(batch *b)
{
	if (!b)
		return;
	sbuf_release(&b->text);
	free(b);
}

/* Run the row loop on a second thread, loading on this one. */
static int feed_rows_threaded(feeder *f, sink *out, report_ctx *rep)
{
	queue q;
	sink qsink = { NULL, queue_row, queue_notice, NULL, &q, out->wants_values, q.err, sizeof(q.err) };
	producer pr = { f, &q, &qsink };
	feeder pf = *f;
	pthread_t thread;
	size_t i;
	int rc;

	memset(&q, 0, sizeof(q));
	pf.err = q.err;
	pf.errlen = sizeof(q.err);
	pr.feed = &pf;
	if (pthread_mutex_init(&q.lock, NULL))
		return feed_rows(f, out);
	if (pthread_cond_init(&q.changed, NULL)) {
		pthread_mutex_destroy(&q.lock);
		return feed_rows(f, out);
	}
	rep->out = &qsink;  /* notices raised while parsing go through the queue */
	if (pthread_create(&thread, NULL, produce, &pr)) {
		rep->out = out;
		rc = feed_rows(f, out);
		goto out;
	}
	rc = consume(&q, out);
	pthread_join(thread, NULL);
	rep->out = out;
	if (q.failed && !q.stop) {
		mc_fmt(f->err, f->errlen, "%s", q.err);
		rc = -1;
	}
out:
	for (i = 0; i < q.nspare; i++)
		batch_free(q.spare[i]);
	for (i = 0; i < q.count; i++)
		batch_free(q.full[(q.head + i) % QUEUE_BATCHES]);
	batch_free(q.filling);
	pthread_cond_destroy(&q.changed);
	pthread_mutex_destroy(&q.lock);
	return rc;
}

/* Parse path and feed every row to out; threaded: parse on a second
 * thread while out consumes on this one. */
static int feed(const colmap *map, const char *path, sink *out, FILE *errors,
		int threaded, char content_sha[65], unsigned long long *bytes,
		char *err, size_t errlen)
{
	feeder f;
	const parse_column *cols;
	load_column *ccols = NULL;
	size_t ncols, i;
	report_ctx rep = { out, errors, 0 };
	mc_err e;
	int rc = -1, skip = 0;

	memset(&f, 0, sizeof(f));
	f.path = path;
	f.errors = errors;
	f.err = err;
	f.errlen = errlen;
	if (parse_open(&f.parse, path, map, on_report, &rep, content_sha != NULL, &e)) {
		mc_fmt(err, errlen, "%s", e.msg);
		goto out;
	}
	cols = parse_columns(f.parse, &ncols);
	ccols = xcalloc(ncols ? ncols : 1, sizeof(*ccols));
	for (i = 0; i < ncols; i++) {
		ccols[i].header = cols[i].header;
		ccols[i].field = cols[i].field;
		ccols[i].type = colmap_type_name(cols[i].type);
		ccols[i].declared = cols[i].declared;
		ccols[i].headerless = cols[i].headerless;
	}
	record_plan_init(&f.plan, cols, ncols);
	if (out->begin(out, ccols, ncols, &skip))
		goto out;
	if (skip) {
		rc = 0;
		goto out;
	}
	if (out->known) {
		char digest[65];

		parse_want_raw_digests(f.parse);
		f.known_wanted = 1;
		parse_header_digest(f.parse, digest);
		if (out->known(out, digest, &f.known))
			goto out;
		if (f.known)
			parse_set_known(f.parse, load_known_check, f.known);
	}
	if (threaded ? feed_rows_threaded(&f, out, &rep) : feed_rows(&f, out))
		goto out;
	if (rep.failed) {
		mc_fmt(err, errlen, "%s: could not store a notice", path);
		goto out;
	}
	if (content_sha && parse_content_sha256(f.parse, content_sha)) {
		mc_fmt(err, errlen, "%s: the content was not read to its end", path);
		goto out;
	}
	if (bytes)
		*bytes = parse_bytes_read(f.parse);
	rc = 0;
out:
	free(ccols);
	record_plan_release(&f.plan);
	parse_free(f.parse);
	return rc;
}

/* ---- loading straight into the catalogue ---- */

typedef struct load_sink {
	ingest_ctx *ctx;            /* the ingest */
	const char *export_name;    /* export being loaded */
	const char *file;           /* its file */
	char sha[65];               /* of the content, "" until read */
	unsigned long long bytes;   /* the content's size */
} load_sink;

static int direct_begin(sink *s, const load_column *cols, size_t n, int *skip)
{
	load_sink *ls = s->ctx;

	if (load_export_begin(ls->ctx->load, ls->export_name, ls->file, ls->sha,
				   ls->bytes, cols, n, skip)) {
		mc_fmt(s->err, s->errlen, "%s", load_error(ls->ctx->load));
		return -1;
	}
	return 0;
}

static int direct_row(sink *s, const load_row *row)
{
	load_sink *ls = s->ctx;

	if (load_row_add(ls->ctx->load, row)) {
		mc_fmt(s->err, s->errlen, "%s", load_error(ls->ctx->load));
		return -1;
	}
	return 0;
}

static int direct_known(sink *s, const char *header_digest, load_known **known)
{
	load_sink *ls = s->ctx;

	if (load_export_known(ls->ctx->load, header_digest, known)) {
		mc_fmt(s->err, s->errlen, "%s", load_error(ls->ctx->load));
		return -1;
	}
	return 0;
}

static int direct_notice(sink *s, const char *message)
{
	load_sink *ls = s->ctx;

	return load_notice(ls->ctx->load, message);
}

/* The SHA-256 of a file's content (decompressed) and its size, without
 * parsing it. */
static int content_sha256(const char *path, char hex[65], unsigned long long *bytes,
			  char *err, size_t errlen)
{
	input *in = NULL;
	sha256_ctx ctx;
	const unsigned char *data;
	size_t len;
	mc_err e;
	int rc;

	if (input_open(&in, path, &e)) {
		mc_fmt(err, errlen, "%s", e.msg);
		return -1;
	}
	sha256_init(&ctx);
	*bytes = 0;
	while ((rc = input_next(in, &data, &len, &e)) > 0) {
		sha256_update(&ctx, data, len);
		*bytes += len;
	}
	if (rc < 0)
		mc_fmt(err, errlen, "%s: %s", path, e.msg);
	else
		sha256_final_hex(&ctx, hex);
	input_free(in);
	return rc < 0 ? -1 : 0;
}

/* Content hashed on a thread of its own while the rows are parsed. */
typedef struct hasher {
	const char *path;           /* the file */
	char sha[65];               /* its content's SHA-256 */
	unsigned long long bytes;   /* and size */
	int rc;                     /* 0, or -1 with err */
	char err[1024];
} hasher;

static void *hash_content(void *arg)
{
	hasher *h = arg;

	h->rc = content_sha256(h->path, h->sha, &h->bytes, h->err, sizeof(h->err));
	return NULL;
}

/* Is path's content known, without reading it, to differ in size from
 * bytes? (A plain file's or zip member's size is known; gzip's is not.) */
static int size_differs(const char *path, unsigned long long bytes)
{
	input *in = NULL;
	unsigned long long size;
	int differs;

	if (input_open(&in, path, NULL))
		return 0;
	differs = input_content_size(in, &size) == 0 && size != bytes;
	input_free(in);
	return differs;
}

int ingest_file(ingest_ctx *ctx, const char *export_name, const char *path,
		load_stats *stats, char *err, size_t errlen)
{
	load_sink ls;
	sink out = { direct_begin, direct_row, direct_notice, direct_known, &ls, 1, err, errlen };
	char previous[65], content[65];
	unsigned long long bytes = 0, previous_bytes = 0;
	hasher h;
	pthread_t thread;
	int rc, hashing = 0;

	memset(&ls, 0, sizeof(ls));
	ls.ctx = ctx;
	ls.export_name = export_name;
	ls.file = path;
	/*
	 * Content the export already had is found by its hash before any
	 * parsing. Content that cannot be the same (the export has none yet,
	 * or its size differs) is hashed on a thread of its own while the rows
	 * are parsed and loaded, or while parsed when no thread can start.
	 */
	rc = load_previous_content(ctx->load, export_name, previous, &previous_bytes);
	if (rc < 0) {
		mc_fmt(err, errlen, "%s", load_error(ctx->load));
		return -1;
	}
	if (rc == 1 && !size_differs(path, previous_bytes)) {
		if (content_sha256(path, ls.sha, &ls.bytes, err, errlen))
			return -1;
	} else {
		memset(&h, 0, sizeof(h));
		h.path = path;
		hashing = pthread_create(&thread, NULL, hash_content, &h) == 0;
	}
	content[0] = '\0';
	rc = feed(ctx->map, path, &out, ctx->errors, 1,
		  ls.sha[0] || hashing ? NULL : content, &bytes, err, errlen);
	if (hashing) {
		pthread_join(thread, NULL);
		if (!rc && h.rc) {
			mc_fmt(err, errlen, "%s", h.err);
			rc = -1;
		} else if (!rc && h.bytes != bytes) {
			mc_fmt(err, errlen, "%s: the file changed while it was read (%llu bytes "
			       "hashed, %llu parsed)", path, h.bytes, bytes);
			rc = -1;
		}
		mc_fmt(content, sizeof(content), "%s", h.sha);
		bytes = h.bytes;
	}
	if (rc)
		return -1;
	if (content[0] && load_export_content(ctx->load, content, bytes)) {
		mc_fmt(err, errlen, "%s", load_error(ctx->load));
		return -1;
	}
	if (load_export_end(ctx->load, stats)) {
		mc_fmt(err, errlen, "%s", load_error(ctx->load));
		return -1;
	}
	return 0;
}

/* ---- parsing only: count, report, keep nothing ---- */

typedef struct count_sink {
	load_stats *stats;  /* where the counts go */
} count_sink;

static int count_begin(sink *s, const load_column *cols, size_t n, int *skip)
{
	(void)s;
	(void)cols;
	(void)n;
	*skip = 0;
	return 0;
}

static int count_row(sink *s, const load_row *row)
{
	count_sink *cs = s->ctx;

	cs->stats->rows++;
	if (row->quarantined)
		cs->stats->quarantined++;
	else
		cs->stats->loaded++;
	return 0;
}

static int count_notice(sink *s, const char *message)
{
	(void)s;
	(void)message;
	return 0;
}

int ingest_check(const colmap *map, const char *path, FILE *errors,
		 load_stats *stats, char *err, size_t errlen)
{
	count_sink cs = { stats };
	sink out = { count_begin, count_row, count_notice, NULL, &cs, 0, err, errlen };

	memset(stats, 0, sizeof(*stats));
	return feed(map, path, &out, errors, 0, NULL, NULL, err, errlen);
}

/* ---- staging files ---- */

static const char staging_schema[] =
	"CREATE TABLE staging_export (export TEXT NOT NULL, file TEXT NOT NULL,"
	" sha256 TEXT NOT NULL, bytes INTEGER NOT NULL, rows INTEGER, quarantined INTEGER);"
	"CREATE TABLE staging_column (position INTEGER PRIMARY KEY, header TEXT NOT NULL,"
	" field TEXT NOT NULL, type TEXT NOT NULL, declared INTEGER NOT NULL,"
	" headerless INTEGER NOT NULL);"
	"CREATE TABLE staging_row (position INTEGER PRIMARY KEY, line INTEGER NOT NULL,"
	" name TEXT NOT NULL, occurrence INTEGER NOT NULL, quarantined INTEGER NOT NULL,"
	" field TEXT, reason TEXT, raw_csv TEXT, norm TEXT, raw TEXT);"
	"CREATE TABLE staging_notice (id INTEGER PRIMARY KEY, message TEXT NOT NULL);";

typedef struct stage_sink {
	const char *path;           /* the staging file, for messages */
	sqlite3 *db;                /* the staging file */
	sqlite3_stmt *row;          /* INSERT INTO staging_row */
	sqlite3_stmt *notice;       /* INSERT INTO staging_notice */
	unsigned long rows;         /* rows written */
	unsigned long quarantined;  /* of which quarantined */
} stage_sink;

static int stage_fail(sink *s, sqlite3 *db, const char *what)
{
	char msg[512];

	mc_fmt(s->err, s->errlen, "%s: %s: %s", ((stage_sink *)s->ctx)->path, what,
	       catalogue_db_error(db, msg, sizeof(msg)));
	return -1;
}

static int stage_begin(sink *s, const load_column *cols, size_t n, int *skip)
{
	stage_sink *ss = s->ctx;
	sqlite3_stmt *st;
	size_t i;

	*skip = 0;
	if (sqlite3_prepare_v2(ss->db, "INSERT INTO staging_column VALUES (?, ?, ?, ?, ?, ?)",
			       -1, &st, NULL) != SQLITE_OK)
		return stage_fail(s, ss->db, "preparing");
	for (i = 0; i < n; i++) {
		sqlite3_bind_int64(st, 1, (sqlite3_int64)i);
		sqlite3_bind_text(st, 2, cols[i].header, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, cols[i].field, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 4, cols[i].type, -1, SQLITE_STATIC);
		sqlite3_bind_int(st, 5, cols[i].declared);
		sqlite3_bind_int(st, 6, cols[i].headerless);
		if (sqlite3_step(st) != SQLITE_DONE) {
			sqlite3_finalize(st);
			return stage_fail(s, ss->db, "writing the header");
		}
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	return 0;
}

static void bind_text_or_null(sqlite3_stmt *st, int i, const char *s)
{
	if (s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, i);
}

static int stage_row(sink *s, const load_row *row)
{
	stage_sink *ss = s->ctx;
	sqlite3_stmt *st = ss->row;
	int rc;

	sqlite3_bind_int64(st, 1, (sqlite3_int64)row->position);
	sqlite3_bind_int64(st, 2, (sqlite3_int64)row->line);
	sqlite3_bind_text(st, 3, row->name, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, (sqlite3_int64)row->occurrence);
	sqlite3_bind_int(st, 5, row->quarantined);
	bind_text_or_null(st, 6, row->fault_field);
	bind_text_or_null(st, 7, row->reason);
	bind_text_or_null(st, 8, row->raw_csv);
	bind_text_or_null(st, 9, row->norm_json);
	bind_text_or_null(st, 10, row->raw_json);
	rc = sqlite3_step(st);
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	if (rc != SQLITE_DONE)
		return stage_fail(s, ss->db, "writing a row");
	ss->rows++;
	ss->quarantined += row->quarantined != 0;
	return 0;
}

static int stage_notice(sink *s, const char *message)
{
	stage_sink *ss = s->ctx;
	int rc;

	sqlite3_bind_text(ss->notice, 1, message, -1, SQLITE_STATIC);
	rc = sqlite3_step(ss->notice);
	sqlite3_reset(ss->notice);
	return rc == SQLITE_DONE ? 0 : -1;
}

int ingest_stage(const colmap *map, const char *export_name, const char *path,
		 const char *out, FILE *errors, load_stats *stats,
		 char *err, size_t errlen)
{
	stage_sink ss;
	sink snk = { stage_begin, stage_row, stage_notice, NULL, &ss, 1, err, errlen };
	sqlite3_stmt *st = NULL;
	char sha[65], tmp[4096], msg[512];
	unsigned long long bytes;
	struct stat sb;
	int rc = -1;

	memset(&ss, 0, sizeof(ss));
	ss.path = out;
	/* written beside the target and renamed over it when complete: a
	 * failed parse leaves an existing staging file as it was, and only a
	 * regular file is ever replaced */
	if (!stat(out, &sb) && !S_ISREG(sb.st_mode)) {
		mc_fmt(err, errlen, "%s: not a regular file; the staging file must be one", out);
		return -1;
	}
	/* what killed runs left beside it goes first */
	mc_fmt(tmp, sizeof(tmp), "%s.tmp-", out);
	mc_remove_stale(tmp);
	mc_fmt(tmp, sizeof(tmp), "%s.tmp-%ld", out, (long)getpid());
	unlink(tmp);
	mc_cleanup_add(tmp);
	if (sqlite3_open_v2(tmp, &ss.db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
		mc_fmt(err, errlen, "%s: cannot create: %s", tmp,
		       catalogue_db_error(ss.db, msg, sizeof(msg)));
		goto out;
	}
	if (sqlite3_exec(ss.db, "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; BEGIN",
			 NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_exec(ss.db, staging_schema, NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(ss.db, "INSERT INTO staging_row VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
			       -1, &ss.row, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(ss.db, "INSERT INTO staging_notice(message) VALUES (?)",
			       -1, &ss.notice, NULL) != SQLITE_OK) {
		mc_fmt(err, errlen, "%s: %s", out, catalogue_db_error(ss.db, msg, sizeof(msg)));
		goto out;
	}
	if (feed(map, path, &snk, errors, 0, sha, &bytes, err, errlen))
		goto out;
	if (sqlite3_prepare_v2(ss.db, "INSERT INTO staging_export VALUES (?, ?, ?, ?, ?, ?)",
			       -1, &st, NULL) != SQLITE_OK)
		goto dbfail;
	sqlite3_bind_text(st, 1, export_name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, path, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, sha, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, (sqlite3_int64)bytes);
	sqlite3_bind_int64(st, 5, (sqlite3_int64)ss.rows);
	sqlite3_bind_int64(st, 6, (sqlite3_int64)ss.quarantined);
	if (sqlite3_step(st) != SQLITE_DONE ||
	    sqlite3_exec(ss.db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
		goto dbfail;
	if (stats) {
		memset(stats, 0, sizeof(*stats));
		stats->rows = ss.rows;
		stats->quarantined = ss.quarantined;
		stats->loaded = ss.rows - ss.quarantined;
	}
	sqlite3_finalize(st);
	sqlite3_finalize(ss.row);
	sqlite3_finalize(ss.notice);
	st = ss.row = ss.notice = NULL;
	if (sqlite3_close(ss.db) != SQLITE_OK) {
		mc_fmt(err, errlen, "%s: %s", tmp, catalogue_db_error(ss.db, msg, sizeof(msg)));
		goto out;
	}
	ss.db = NULL;
	if (rename(tmp, out)) {
		mc_fmt(err, errlen, "%s: cannot replace: %s", out, strerror(errno));
		goto out;
	}
	rc = 0;
	goto out;
dbfail:
	mc_fmt(err, errlen, "%s: %s", out, catalogue_db_error(ss.db, msg, sizeof(msg)));
out:
	sqlite3_finalize(st);
	sqlite3_finalize(ss.row);
	sqlite3_finalize(ss.notice);
	sqlite3_close(ss.db);
	if (rc)
		unlink(tmp);
	mc_cleanup_remove(tmp);
	return rc;
}

static const char *col_text(sqlite3_stmt *st, int i)
{
	return (const char *)sqlite3_column_text(st, i);
}

int ingest_load_staged(ingest_ctx *ctx, const char *staging,
		       load_stats *stats, char *err, size_t errlen)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;
	load_column *cols = NULL;
	char **strings = NULL, msg[512];
	size_t ncols = 0, i;
	char *export_name = NULL, *file = NULL, *sha = NULL;
	unsigned long long bytes = 0;
	int rc = -1, step, skip = 0;

	if (sqlite3_open_v2(staging, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
		goto dbfail;
	if (sqlite3_prepare_v2(db, "SELECT export, file, sha256, bytes FROM staging_export",
			       -1, &st, NULL) != SQLITE_OK)
		goto dbfail;
	if (sqlite3_step(st) != SQLITE_ROW) {
		mc_fmt(err, errlen, "%s: not a complete staging file", staging);
		goto out;
	}
	export_name = xstrdup(col_text(st, 0));
	file = xstrdup(col_text(st, 1));
	sha = xstrdup(col_text(st, 2));
	bytes = (unsigned long long)sqlite3_column_int64(st, 3);
	sqlite3_finalize(st);
	if (sqlite3_prepare_v2(db, "SELECT header, field, type, declared, headerless"
				   " FROM staging_column ORDER BY position", -1, &st, NULL) != SQLITE_OK)
		goto dbfail;
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		cols = xrealloc(cols, (ncols + 1) * sizeof(*cols));
		strings = xrealloc(strings, (ncols + 1) * 3 * sizeof(*strings));
		for (i = 0; i < 3; i++)
			strings[ncols * 3 + i] = xstrdup(col_text(st, (int)i));
		cols[ncols].header = strings[ncols * 3];
		cols[ncols].field = strings[ncols * 3 + 1];
		cols[ncols].type = strings[ncols * 3 + 2];
		cols[ncols].declared = sqlite3_column_int(st, 3);
		cols[ncols].headerless = sqlite3_column_int(st, 4);
		ncols++;
	}
	sqlite3_finalize(st);
	st = NULL;
	if (step != SQLITE_DONE)
		goto dbfail;
	if (load_export_begin(ctx->load, export_name, file, sha, bytes, cols, ncols, &skip))
		goto loadfail;
	if (!skip) {
		if (sqlite3_prepare_v2(db, "SELECT message FROM staging_notice ORDER BY id",
				       -1, &st, NULL) != SQLITE_OK)
			goto dbfail;
		while ((step = sqlite3_step(st)) == SQLITE_ROW)
			if (load_notice(ctx->load, col_text(st, 0)))
				goto loadfail;
		sqlite3_finalize(st);
		st = NULL;
		if (step != SQLITE_DONE)
			goto dbfail;
		if (sqlite3_prepare_v2(db, "SELECT position, line, name, occurrence, quarantined,"
					   " field, reason, raw_csv, norm, raw FROM staging_row"
					   " ORDER BY position", -1, &st, NULL) != SQLITE_OK)
			goto dbfail;
		while ((step = sqlite3_step(st)) == SQLITE_ROW) {
			load_row row;

			/* has_digest stays 0: the loader computes the digest */
			memset(&row, 0, sizeof(row));
			row.position = (unsigned long)sqlite3_column_int64(st, 0);
			row.line = (unsigned long)sqlite3_column_int64(st, 1);
			row.name = col_text(st, 2);
			row.occurrence = (size_t)sqlite3_column_int64(st, 3);
			row.quarantined = sqlite3_column_int(st, 4);
			row.fault_field = col_text(st, 5);
			row.reason = col_text(st, 6);
			row.raw_csv = col_text(st, 7);
			row.norm_json = col_text(st, 8);
			row.raw_json = col_text(st, 9);
			if (!row.quarantined && (!row.norm_json || !row.raw_json)) {
				mc_fmt(err, errlen, "%s: row %lu has no values", staging, row.position);
				goto out;
			}
			if (row.quarantined && ctx->errors)
				fprintf(ctx->errors, "%s:%lu: %s (row quarantined)\n", file, row.line,
					row.reason ? row.reason : "");
			if (load_row_add(ctx->load, &row))
				goto loadfail;
		}
		if (step != SQLITE_DONE)
			goto dbfail;
	}
	if (load_export_end(ctx->load, stats))
		goto loadfail;
	rc = 0;
	goto out;
loadfail:
	mc_fmt(err, errlen, "%s", load_error(ctx->load));
	goto out;
dbfail:
	mc_fmt(err, errlen, "%s: %s", staging, catalogue_db_error(db, msg, sizeof(msg)));
out:
	sqlite3_finalize(st);
	sqlite3_close(db);
	for (i = 0; i < ncols * 3; i++)
		free(strings[i]);
	free(strings);
	free(cols);
	free(export_name);
	free(file);
	free(sha);
	return rc;
}

void ingest_describe(const char *export_name, const load_stats *stats, FILE *out)
{
	if (stats->same_content) {
		fprintf(out, "%s: same content as its previous snapshot; no change (%lu rows)\n",
			export_name, stats->rows);
		return;
	}
	fprintf(out, "%s: %lu rows: %lu added, %lu removed, %lu renamed, %lu changed,"
		" %lu unchanged, %lu quarantined", export_name, stats->rows, stats->added,
		stats->removed, stats->renamed, stats->changed, stats->unchanged,
		stats->quarantined);
	if (stats->revised)
		fprintf(out, ", %lu given values of new columns", stats->revised);
	if (stats->columns_added || stats->columns_removed)
		fprintf(out, "; columns: %lu added, %lu removed", stats->columns_added,
			stats->columns_removed);
	if (stats->headers_respelled)
		fprintf(out, "; %lu header%s respelled (same field)", stats->headers_respelled,
			stats->headers_respelled == 1 ? "" : "s");
	fputc('\n', out);
}
