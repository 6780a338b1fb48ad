#include "ingest/rowfeed.h"
#include "base/textout.h"
#include "ingest/queue.h"
#include "read/parse.h"
#include "read/record.h"

#include <stdlib.h>
#include <string.h>

/* Where the parser's notices go: the sink (the queue while the rows are
 * parsed on another thread) and the errors file. */
typedef struct report_ctx {
	ingest_sink *out;           /* notices go here */
	FILE *errors;               /* and here, one line each, but for the
				       columns not in the column map
				       (unmapped_line()) */
	int failed;                 /* a notice could not be stored */
} report_ctx;

static void on_report(void *ctx, enum parse_notice kind, const char *message)
{
	report_ctx *rc = ctx;

	if (rc->errors && kind != PARSE_NOTICE_UNMAPPED)
		textout_line(rc->errors, "%s", message);
	if (!rc->failed && rc->out->notice(rc->out, message, NULL))
		rc->failed = 1;
}

/* What the row loop needs: the open export and its encoding. */
typedef struct feeder {
	parse_export *parse;        /* the open export */
	record_plan plan;           /* how rows become records and JSON */
	const char *path;           /* for messages */
	load_known *known;          /* rows recognisable unparsed, or NULL */
	int known_wanted;           /* rows carry raw digests (see sink.known) */
	FILE *errors;               /* one line per quarantined row */
	report_ctx *report;         /* the parser's notices */
} feeder;

/* Read every row and hand it to out. 0 or -1. */
static int feed_rows(void *ctx, ingest_sink *out, mc_err *err)
{
	feeder *f = ctx;
	sbuf norm, raw, rawcsv, compared;
	record_values values;
	parse_row row;
	int step, rc = -1;

	/* on the parsing thread the notices go through the queue too */
	f->report->out = out;
	sbuf_init(&norm);
	sbuf_init(&raw);
	sbuf_init(&rawcsv);
	sbuf_init(&compared);
	record_values_init(&values);
	while ((step = parse_next(f->parse, &row, err)) == 1) {
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
				textout_line(f->errors, "%s:%lu: %s (row quarantined)", f->path,
					     row.line, row.reason);
		} else if (out->wants_values) {
			const char *form;

			sbuf_reset(&norm);
			sbuf_reset(&raw);
			record_encode(&f->plan, &row, &norm, &raw, &values);
			crow.values = out->wants_records ? &values : NULL;
			crow.norm_json = norm.data;
			crow.norm_len = norm.len;
			crow.raw_json = raw.data;
			crow.raw_len = raw.len;
			form = record_values_compared(&values, norm.data, &compared);
			if (out->digests_later) {
				crow.compared = form;
			} else {
				load_digest(form, crow.digest);
				crow.has_digest = 1;
			}
		}
		if (out->row(out, &crow, err))
			goto out;
	}
	rc = step < 0 ? -1 : 0;
out:
	sbuf_release(&norm);
	sbuf_release(&raw);
	sbuf_release(&rawcsv);
	sbuf_release(&compared);
	record_values_release(&values);
	return rc;
}

/*
 * The columns of the header that are not in the column map, in one line
 * on errors: a wide export can have dozens, and each is stored as a
 * notice anyway (the catalogue's notice table, a staging file). With
 * verbose, a line for each follows, its header in full.
 */
static void unmapped_line(const parse_export *parse, const char *path, FILE *errors,
			  int verbose)
{
	const parse_column *cols;
	size_t ncols, i, n = 0;

	if (!errors)
		return;
	cols = parse_columns(parse, &ncols);
	for (i = 0; i < ncols; i++)
		n += cols[i].unmapped != 0;
	if (!n)
		return;
	textout_line(errors, "%s: %zu column%s not in the column map; kept as text fields%s",
		     path, n, n == 1 ? "" : "s", verbose ? ":" : " (--verbose lists them)");
	for (i = 0; verbose && i < ncols; i++)
		if (cols[i].unmapped)
			textout_line(errors, "%s: column %zu '%s' is not in the column map", path,
				     cols[i].position + 1, cols[i].header);
}

/* Hand the header to out; *skip when out wants no rows. 0 or -1. */
static int feed_header(feeder *f, ingest_sink *out, int *skip, mc_err *err)
{
	const parse_column *cols;
	load_column *ccols;
	size_t ncols, i;
	int rc;

	cols = parse_columns(f->parse, &ncols);
	ccols = xcalloc(ncols ? ncols : 1, sizeof(*ccols));
	for (i = 0; i < ncols; i++) {
		ccols[i].header = cols[i].header;
		ccols[i].field = cols[i].field;
		ccols[i].type = colmap_type_name(cols[i].type);
		ccols[i].declared = cols[i].declared;
		ccols[i].headerless = cols[i].headerless;
	}
	record_plan_init(&f->plan, cols, ncols);
	rc = out->begin(out, ccols, ncols, skip, err);
	free(ccols);
	return rc;
}

/* Ask out for the rows it has on record, so that unchanged rows need not
 * be normalised. 0 or -1. */
static int feed_known(feeder *f, ingest_sink *out, mc_err *err)
{
	char digest[65];

	parse_want_raw_digests(f->parse);
	f->known_wanted = 1;
	parse_header_digest(f->parse, digest);
	if (out->known(out, digest, &f->known, err))
		return -1;
	if (f->known)
		parse_set_known(f->parse, load_known_check, f->known);
	return 0;
}

int rowfeed_run(const rowfeed_job *job, ingest_sink *out, mc_err *err)
{
	feeder f;
	report_ctx rep = { out, job->errors, 0 };
	int rc = -1, skip = 0;

	memset(&f, 0, sizeof(f));
	f.path = job->path;
	f.errors = job->errors;
	f.report = &rep;
	if (parse_open(&f.parse, job->path, job->map, on_report, &rep, job->content_sha != NULL,
		       err))
		goto out;
	unmapped_line(f.parse, job->path, job->errors, job->verbose);
	if (feed_header(&f, out, &skip, err))
		goto out;
	if (skip) {
		rc = 0;
		goto out;
	}
	if (out->known && feed_known(&f, out, err))
		goto out;
	/* rows handed to out on this thread: another core, if there is one,
	 * splits the records (on one core the thread would only add its
	 * copies and waits) */
	if (!job->threaded && mc_cores() > 1)
		parse_read_ahead(f.parse);
	rc = job->threaded ? queue_run(feed_rows, &f, out, err) : feed_rows(&f, out, err);
	rep.out = out;
	if (rc)
		goto out;
	rc = -1;
	if (rep.failed) {
		mc_error(err, "%s: could not store a notice", job->path);
		goto out;
	}
	if (job->content_sha && parse_content_sha256(f.parse, job->content_sha)) {
		mc_error(err, "%s: the content was not read to its end", job->path);
		goto out;
	}
	if (job->bytes)
		*job->bytes = parse_bytes_read(f.parse);
	rc = 0;
out:
	record_plan_release(&f.plan);
	parse_free(f.parse);
	return rc;
}
