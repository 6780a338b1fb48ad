/*
 * staging: the staging file that modelcat-parse writes and modelcat-load
 * reads: a small SQLite database holding one parsed export (tables
 * staging_export, staging_column, staging_row, staging_notice; the schema
 * is sql/staging.sql), to be inspected with sqlite3.
 *
 * Errors: the functions that can fail return 0 or -1 and fill err, their
 * last parameter (base/error.h).
 */
#ifndef MODELCAT_STAGING_H
#define MODELCAT_STAGING_H

#include "db/load.h"

/* ---- writing ---- */

/* A staging file being written. */
typedef struct staging_writer staging_writer;

/* Create a staging file at tmp (which must not exist), named label in
 * messages (the file it will become), with its tables, inside one
 * transaction. The caller ends it with staging_writer_finish() or
 * staging_writer_free(). 0 or -1. */
int staging_writer_open(staging_writer **out, const char *tmp, const char *label, mc_err *err);
/* Record the export's header. 0 or -1. */
int staging_write_columns(staging_writer *w, const load_column *cols, size_t n, mc_err *err);
/* Record one row (counted for staging_writer_finish()). 0 or -1. */
int staging_write_row(staging_writer *w, const load_row *row, mc_err *err);
/* Record a notice. 0, or -1 with no message (a notice that cannot be
 * stored is reported by the caller). */
int staging_write_notice(staging_writer *w, const char *message);
/* The rows written and how many of them were quarantined. */
void staging_writer_counts(const staging_writer *w, unsigned long *rows,
			   unsigned long *quarantined);
/* Record the export (name, file, content hash and size), commit, close
 * the file and free w (also on failure). 0 or -1. */
int staging_writer_finish(staging_writer *w, const char *export_name, const char *file,
			  const char *sha256, unsigned long long bytes, mc_err *err);
/* Close and free w without finishing (the file is left incomplete).
 * Accepts NULL. */
void staging_writer_free(staging_writer *w);

/* ---- reading ---- */

/* An open staging file and what it says about its export. */
typedef struct staging_reader {
	char *path;                  /* the file, for messages */
	sqlite3 *db;                 /* its connection */
	char *export_name;           /* the export */
	char *file;                  /* the file it was parsed from */
	char *sha256;                /* of the content */
	unsigned long long bytes;    /* the content's size */
	load_column *cols;           /* its header, in file order */
	size_t ncols;                /* entries in cols */
	char **strings;              /* the header's strings (3 per column) */
} staging_reader;

/* Open the staging file at path and read its export and header into r.
 * Release r with staging_reader_close(), also after a failure. 0 or -1. */
int staging_reader_open(staging_reader *r, const char *path, mc_err *err);
/* Hand each notice, in order, to fn (which returns 0, or -1 with err set).
 * 0 or -1. */
int staging_read_notices(staging_reader *r, int (*fn)(void *ctx, const char *message, mc_err *err),
			 void *ctx, mc_err *err);
/* Hand each row, in file order, to fn (which returns 0, or -1 with err
 * set). A row's strings last until fn returns; its digest is left to the
 * loader (has_digest 0). 0 or -1. */
int staging_read_rows(staging_reader *r, int (*fn)(void *ctx, const load_row *row, mc_err *err),
		      void *ctx, mc_err *err);
void staging_reader_close(staging_reader *r);

#endif
