#include "ingest/ingest.h"
#include "base/textout.h"
#include "store/check.h"
#include "ingest/bundle.h"
#include "ingest/hashing.h"
#include "ingest/rowfeed.h"
#include "db/staging.h"
#include "read/input.h"

#include <errno.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- loading straight into the catalogue ---- */

typedef struct load_sink {
	ingest_ctx *ctx;            /* the ingest */
	const char *export_name;    /* export being loaded */
	const char *file;           /* its file */
	char sha[65];               /* of the content, "" until read */
	unsigned long long bytes;   /* the content's size */
} load_sink;

static int direct_begin(ingest_sink *s, const load_column *cols, size_t n, int *skip,
			mc_err *err)
{
	load_sink *ls = s->ctx;

	/* renames by the evidence of the export's family (pipelines/families.tsv) */
	if (ls->ctx->map && load_set_renames(ls->ctx->load,
					     colmap_for_export(ls->ctx->map, ls->export_name)->renames, err))
		return -1;
	if (load_export_begin(ls->ctx->load, ls->export_name, ls->file, ls->sha, ls->bytes,
			      cols, n, skip, err))
		return -1;
	s->wants_records = load_wants_records(ls->ctx->load);
	return 0;
}

static int direct_row(ingest_sink *s, const load_row *row, mc_err *err)
{
	load_sink *ls = s->ctx;

	return load_row_add(ls->ctx->load, row, err);
}

static int direct_known(ingest_sink *s, const char *header_digest, load_known **known,
			mc_err *err)
{
	load_sink *ls = s->ctx;

	return load_export_known(ls->ctx->load, header_digest, known, err);
}

static int direct_notice(ingest_sink *s, const char *message, mc_err *err)
{
	load_sink *ls = s->ctx;

	return load_notice(ls->ctx->load, message, err);
}

/* Parse path into ls, hashing its content on a thread of its own when it
 * cannot be the export's previous content. 0 or -1. */
static int feed_and_hash(ingest_ctx *ctx, load_sink *ls, ingest_sink *out, mc_err *err)
{
	char previous[65], content[65];
	unsigned long long bytes = 0, previous_bytes = 0, size;
	rowfeed_job job = { colmap_for_export(ctx->map, ls->export_name), ls->file, ctx->errors,
			     1, NULL, &bytes, ctx->verbose };
	hashing_thread h;
	int rc, hashing = 0, sized;

	/*
	 * Content the export already had is found by its hash before any
	 * parsing. Content that cannot be the same (the export has none yet,
	 * or its size differs) is hashed on a thread of its own while the rows
	 * are parsed and loaded, or while parsed when no thread can start.
	 */
	sized = hashing_content_size(ls->file, &size) == 0;
	rc = load_previous_content(ctx->load, ls->export_name, previous, &previous_bytes, err);
	if (rc < 0)
		return -1;
	load_size_hint(ctx->load, sized ? size : 0);
	if (rc == 1 && !(sized && size != previous_bytes)) {
		if (input_file_sha256_ahead(ls->file, ls->sha, &ls->bytes, err))
			return -1;
	} else {
		hashing = hashing_start(&h, ls->file) == 0;
	}
	content[0] = '\0';
	job.content_sha = ls->sha[0] || hashing ? NULL : content;
	rc = rowfeed_run(&job, out, err);
	if (hashing) {
		if (hashing_finish(&h, rc ? NULL : err)) {
			rc = -1;
		} else if (!rc && h.bytes != bytes) {
			mc_error(err, "%s: the file changed while it was read (%llu bytes "
				 "hashed, %llu parsed)", ls->file, h.bytes, bytes);
			rc = -1;
		}
		mc_fmt(content, sizeof(content), "%s", h.sha);
		bytes = h.bytes;
	}
	if (rc)
		return -1;
	if (content[0] && load_export_content(ctx->load, content, bytes, err))
		return -1;
	return 0;
}

int ingest_file(ingest_ctx *ctx, const char *export_name, const char *path,
		load_stats *stats, mc_err *err)
{
	load_sink ls;
	ingest_sink out = { direct_begin, direct_row, direct_notice, direct_known, &ls, 1, 0, 0 };
	char archive[PATH_MAX];
	const char *member;
	mc_err spare;

	if (!err)
		err = &spare;
	memset(&ls, 0, sizeof(ls));
	ls.ctx = ctx;
	ls.export_name = export_name;
	ls.file = path;
	/* a file of the snapshot store is read only if it is what was stored;
	 * a bundle's member, if its bundle is */
	if (store_check_path(input_member_path(path, archive, sizeof(archive), &member) ? path
			     : archive, ls.sha, err))
		return -1;
	if (bundle_credit(ctx->load, path, err))
		return -1;
	ls.sha[0] = '\0';
	if (feed_and_hash(ctx, &ls, &out, err))
		return -1;
	return load_export_end(ctx->load, stats, err);
}

/* ---- parsing only: count, report, keep nothing ---- */

static int count_begin(ingest_sink *s, const load_column *cols, size_t n, int *skip,
		       mc_err *err)
{
	(void)s;
	(void)cols;
	(void)n;
	(void)err;
	*skip = 0;
	return 0;
}

static int count_row(ingest_sink *s, const load_row *row, mc_err *err)
{
	load_stats *stats = s->ctx;

	(void)err;
	stats->rows++;
	if (row->quarantined)
		stats->quarantined++;
	else
		stats->loaded++;
	return 0;
}

static int count_notice(ingest_sink *s, const char *message, mc_err *err)
{
	(void)s;
	(void)message;
	(void)err;
	return 0;
}

int ingest_check(const colmap *map, const char *path, FILE *errors, int verbose,
		 load_stats *stats, mc_err *err)
{
	ingest_sink out = { count_begin, count_row, count_notice, NULL, stats, 0, 0, 0 };
	rowfeed_job job = { map, path, errors, 0, NULL, NULL, verbose };
	mc_err spare;

	memset(stats, 0, sizeof(*stats));
	return rowfeed_run(&job, &out, err ? err : &spare);
}

/* ---- staging files ---- */

static int stage_begin(ingest_sink *s, const load_column *cols, size_t n, int *skip,
		       mc_err *err)
{
	*skip = 0;
	return staging_write_columns(s->ctx, cols, n, err);
}

static int stage_row(ingest_sink *s, const load_row *row, mc_err *err)
{
	return staging_write_row(s->ctx, row, err);
}

static int stage_notice(ingest_sink *s, const char *message, mc_err *err)
{
	(void)err;
	return staging_write_notice(s->ctx, message);
}

/* Parse path into the staging file tmp (to become out). 0 or -1. */
static int stage_into(const colmap *map, const char *export_name, const char *path,
		      const char *tmp, const char *out, FILE *errors, int verbose,
		      load_stats *stats, mc_err *err)
{
	staging_writer *w;
	ingest_sink snk = { stage_begin, stage_row, stage_notice, NULL, NULL, 1, 0, 0 };
	char sha[65];
	unsigned long long bytes;
	rowfeed_job job = { colmap_for_export(map, export_name), path, errors, 0, sha, &bytes,
			     verbose };
	unsigned long rows, quarantined;

	if (staging_writer_open(&w, tmp, out, err))
		return -1;
	snk.ctx = w;
	if (rowfeed_run(&job, &snk, err)) {
		staging_writer_free(w);
		return -1;
	}
	staging_writer_counts(w, &rows, &quarantined);
	if (staging_writer_finish(w, export_name, path, sha, bytes, err))
		return -1;
	if (stats) {
		memset(stats, 0, sizeof(*stats));
		stats->rows = rows;
		stats->quarantined = quarantined;
		stats->loaded = rows - quarantined;
	}
	return 0;
}

int ingest_stage(const colmap *map, const char *export_name, const char *path,
		 const char *out, FILE *errors, int verbose, load_stats *stats, mc_err *err)
{
	char tmp[4096];
	struct stat sb;
	mc_err spare;
	int rc = -1;

	if (!err)
		err = &spare;
	/* written beside the target and renamed over it when complete: a
	 * failed parse leaves an existing staging file as it was, and only a
	 * regular file is ever replaced */
	if (!stat(out, &sb) && !S_ISREG(sb.st_mode))
		return mc_error(err, "%s: not a regular file; the staging file must be one", out);
	/* what killed runs left beside it goes first */
	mc_fmt(tmp, sizeof(tmp), "%s.tmp-", out);
	mc_remove_stale(tmp);
	mc_fmt(tmp, sizeof(tmp), "%s.tmp-%ld", out, (long)getpid());
	unlink(tmp);
	mc_cleanup_add(tmp);
	if (stage_into(map, export_name, path, tmp, out, errors, verbose, stats, err))
		goto out;
	if (rename(tmp, out)) {
		mc_error(err, "%s: cannot replace: %s", out, strerror(errno));
		goto out;
	}
	rc = 0;
out:
	if (rc)
		unlink(tmp);
	mc_cleanup_remove(tmp);
	return rc;
}

/* What loading a staging file's rows needs. */
typedef struct staged_load {
	ingest_ctx *ctx;            /* the ingest */
	const staging_reader *r;    /* the staging file */
} staged_load;

static int staged_notice(void *arg, const char *message, mc_err *err)
{
	staged_load *sl = arg;

	return load_notice(sl->ctx->load, message, err);
}

static int staged_row(void *arg, const load_row *row, mc_err *err)
{
	staged_load *sl = arg;

	if (!row->quarantined && (!row->norm_json || !row->raw_json))
		return mc_error(err, "%s: row %lu has no values", sl->r->path, row->position);
	if (row->quarantined && sl->ctx->errors)
		textout_line(sl->ctx->errors, "%s:%lu: %s (row quarantined)", sl->r->file, row->line,
			     row->reason ? row->reason : "");
	return load_row_add(sl->ctx->load, row, err);
}

int ingest_load_staged(ingest_ctx *ctx, const char *staging, load_stats *stats, mc_err *err)
{
	staging_reader r;
	staged_load sl = { ctx, &r };
	int rc = -1, skip = 0;

	if (staging_reader_open(&r, staging, err))
		goto out;
	load_size_hint(ctx->load, r.bytes);
	if ((ctx->map && load_set_renames(ctx->load, colmap_for_export(ctx->map,
							r.export_name)->renames, err)) ||
	    load_export_begin(ctx->load, r.export_name, r.file, r.sha256, r.bytes, r.cols, r.ncols,
			      &skip, err))
		goto out;
	if (!skip && (staging_read_notices(&r, staged_notice, &sl, err) ||
		      staging_read_rows(&r, staged_row, &sl, err)))
		goto out;
	if (load_export_end(ctx->load, stats, err))
		goto out;
	rc = 0;
out:
	staging_reader_close(&r);
	return rc;
}

void ingest_describe(const char *export_name, const load_stats *stats, FILE *out)
{
	sbuf line;

	if (stats->held) {
		textout_line(out, "%s: held for review, nothing applied: %s", export_name,
			     stats->held_reason);
		return;
	}
	if (stats->same_content) {
		textout_line(out, "%s: same content as its previous snapshot; no change (%lu rows)",
			     export_name, stats->rows);
		return;
	}
	sbuf_init(&line);
	sbuf_addf(&line, "%s: %lu rows: %lu added, %lu removed, %lu renamed, %lu changed,"
		  " %lu unchanged, %lu quarantined", export_name, stats->rows, stats->added,
		  stats->removed, stats->renamed, stats->changed, stats->unchanged,
		  stats->quarantined);
	if (stats->revised)
		sbuf_addf(&line, ", %lu given values of new columns", stats->revised);
	if (stats->columns_added || stats->columns_removed)
		sbuf_addf(&line, "; columns: %lu added, %lu removed", stats->columns_added,
			  stats->columns_removed);
	if (stats->models_held)
		sbuf_addf(&line, "; %lu model%s held (name inside a quarantined row)",
			  stats->models_held, stats->models_held == 1 ? "" : "s");
	if (stats->accepted)
		sbuf_adds(&line, "; accepted although a guard would hold it");
	if (stats->headers_respelled)
		sbuf_addf(&line, "; %lu header%s respelled (same field)", stats->headers_respelled,
			  stats->headers_respelled == 1 ? "" : "s");
	if (stats->notices)
		sbuf_addf(&line, "; %lu notice%s", stats->notices, stats->notices == 1 ? "" : "s");
	textout_line(out, "%s", line.data);
	sbuf_release(&line);
}
