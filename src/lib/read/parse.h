/*
 * parse: reads one export file (via csv) and maps its header onto the
 * column map, normalises every cell, and decides which rows are
 * quarantined. The result is a stream of parse_rows.
 *
 * Identity: a model is keyed by its trimmed name in Unicode canonical form
 * (base/unicode.h; list items are read in that form too). When a name
 * occurs more than once in one export, each row is kept: the nth row
 * carrying the name (in file order) gets occurrence n, and every repeat is
 * reported. A name that canonical form changed is reported, and so is a
 * byte-order mark dropped from the start of another cell.
 *
 * Ownership: the parse_export owns its columns and every byte a parse_row
 * points to; those stay valid until the next parse_next() or parse_free().
 */
#ifndef MODELCAT_PARSE_H
#define MODELCAT_PARSE_H

#include <stddef.h>
#include "values/colmap.h"
#include "base/util.h"

typedef struct parse_column {
	char *header;             /* header cell, trimmed, as written */
	char *field;              /* canonical name; the header for an extra
				     field; "column N" (1-based) for a
				     header-less column */
	const colmap_field *def;  /* NULL for an extra or header-less column */
	enum colmap_type type;    /* how cells are read (COL_TEXT for extras) */
	int declared;             /* 1 when the column map knows the header */
	int headerless;           /* 1 when the header cell is empty */
	int unmapped;             /* 1 when the header is not in the column map
				     (kept as a text field of its own name) */
	size_t position;          /* 0-based position in the file */
} parse_column;

typedef struct parse_value {
	const char *raw;          /* the cell as read */
	size_t raw_len;           /* its length */
	const char *norm;         /* normalised text (NUL-terminated) */
	size_t norm_len;          /* its length */
	int present;              /* 1 when the cell holds a value */
} parse_value;

typedef struct parse_row {
	unsigned long line;       /* line the record starts on, 1-based */
	unsigned long position;   /* 0-based index among the data rows */
	const char *name;         /* trimmed model name ("" when missing) */
	size_t occurrence;        /* 1 for the first row with this name, ... */
	int quarantined;          /* 1 when the row must not be loaded */
	const char *fault_field;  /* with quarantined: the field at fault, or NULL */
	const char *reason;       /* with quarantined: why (one line) */
	parse_value *values;      /* one per column (parse_columns order) */
	size_t nvalues;           /* entries in values (= number of columns) */
	char *const *raw_fields;  /* the record's fields as read */
	const size_t *raw_lengths;/* their lengths */
	size_t nraw;              /* number of fields in the record */
	unsigned char raw_digest[16]; /* digest of the record's raw fields (with
					 parse_want_raw_digests() or a check) */
	int known;                /* 1: the known-row check recognised it; its
				     values were not normalised (values unset) */
	size_t known_ref;         /* with known: what the check returned */
} parse_row;

/* What a report is about. */
enum parse_notice {
	PARSE_NOTICE_ROW,          /* a row's: an unknown enumeration value, a
				      repeated name, a name normalised */
	PARSE_NOTICE_COLUMN,       /* a column repeating a field of the header */
	PARSE_NOTICE_UNMAPPED      /* a column not in the column map (or the
				      count of those past the ones listed) */
};

/* Called with each report (one line, no newline) and what it is about. */
typedef void parse_report_fn(void *ctx, enum parse_notice kind, const char *message);

typedef struct parse_export parse_export;

/*
 * A known-row check: given a row's trimmed name, the occurrence it would
 * take and the digest of its raw fields, return 1 (and a reference in
 * *ref) when that exact row is already on record, so its values need not
 * be normalised again. Called on the parsing thread; it must only read.
 */
typedef int parse_known_fn(void *ctx, const char *name, size_t occurrence,
			   const unsigned char digest[16], size_t *ref);

/*
 * Open an export and read its header. path is also the name used in
 * messages. With hash_content, the content is hashed as it is read (see
 * parse_content_sha256()). Returns 0, or -1 with a message in err.
 */
int parse_open(parse_export **out, const char *path, const colmap *map,
	       parse_report_fn *report, void *report_ctx, int hash_content,
	       mc_err *err);
/* The same over len bytes at data (plain, gzip or zip, as csv_open_mem()),
 * which must outlive the parse, always hashing the content; name is used in
 * messages. */
int parse_open_mem(parse_export **out, const void *data, size_t len, const char *name,
		   const colmap *map, parse_report_fn *report, void *report_ctx,
		   mc_err *err);

/* The columns of the export (header-less columns whose cells are all empty
 * so far are included with headerless=1). */
const parse_column *parse_columns(const parse_export *p, size_t *n);
/* The file's name as given to parse_open. */
const char *parse_path(const parse_export *p);

/*
 * Read the records on a thread of their own from here on (read/recahead.h):
 * parse_next() normalises one row while the next ones are split, which
 * takes the CSV reader's work (about a third of a parse) to another core.
 * What parse_next() gives does not change. For a caller with a core to
 * spare. 0, or -1 when no thread can start (the rows are read as before).
 */
int parse_read_ahead(parse_export *p);

/* Next data row: 1, 0 at the end, -1 on a read error (message in err). */
int parse_next(parse_export *p, parse_row *row, mc_err *err);

/* Counts after the last row. */
unsigned long parse_rows_read(const parse_export *p);
unsigned long parse_rows_quarantined(const parse_export *p);
unsigned long long parse_bytes_read(parse_export *p);
/* After the last row: the SHA-256 of the content read (the decompressed
 * bytes) as 64 hex digits. 0, or -1 before the end. Either ends a
 * read-ahead; one ended before the last row has taken rows that
 * parse_next() then fails for, and the hash is not given. */
int parse_content_sha256(parse_export *p, char hex[65]);

/* Ask check before normalising each row (NULL: normalise every row). */
void parse_set_known(parse_export *p, parse_known_fn *check, void *ctx);
/* Compute every row's raw digest (they cost a hash of each record). */
void parse_want_raw_digests(parse_export *p);
/* A digest of the header as read and of the column map: rows whose raw
 * digests match under equal header digests normalise the same. */
void parse_header_digest(const parse_export *p, char hex[65]);

/* Encode the row's raw fields as one CSV record (for the quarantine). */
void parse_row_raw_csv(const parse_row *row, sbuf *out);

void parse_free(parse_export *p);

#endif
