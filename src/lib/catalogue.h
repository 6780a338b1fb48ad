/*
 * catalogue: the SQLite catalogue. Opens (and migrates) the database,
 * loads parsed exports into it as versioned records, and reads exports
 * back out. Every statement uses bound parameters.
 *
 * A load runs inside one transaction: catalogue_load_begin() opens it,
 * catalogue_load_commit() makes it visible, catalogue_load_abort() (or a
 * crash) leaves the database as it was.
 *
 * Ownership: a catalogue owns its connection and statements; strings it
 * returns are copies the caller frees, unless said otherwise.
 */
#ifndef MODELCAT_CATALOGUE_H
#define MODELCAT_CATALOGUE_H

#include <sqlite3.h>
#include <stddef.h>
#include "parse.h"
#include "util.h"

typedef struct catalogue {
	sqlite3 *db;                 /* the connection */
	char *path;                  /* database file */
	char err[1024];              /* last error message */
	int schema_version;          /* after migration */
} catalogue;

/* One column of an export as stored (see export_column). */
typedef struct catalogue_column {
	const char *header;          /* header cell */
	const char *field;           /* canonical field */
	const char *type;            /* type name */
	int declared;                /* known to the column map */
	int headerless;              /* empty header cell */
} catalogue_column;

/* One row to load: what parse gives, encoded (see record_encode). */
typedef struct catalogue_row {
	unsigned long line;          /* line in the file */
	unsigned long position;      /* 0-based data row index */
	const char *name;            /* trimmed model name ("" if none) */
	size_t occurrence;           /* nth row with this name (0: quarantined) */
	int quarantined;             /* 1: store in the quarantine only */
	const char *fault_field;     /* with quarantined: field at fault or NULL */
	const char *reason;          /* with quarantined: why */
	const char *raw_csv;         /* the row as read, as CSV */
	const char *norm_json;       /* JSON object field -> normalised value */
	const char *raw_json;        /* JSON object field -> raw cell (differing) */
} catalogue_row;

/* Counts of one export's load, filled by catalogue_export_end(). */
typedef struct catalogue_export_stats {
	unsigned long rows;          /* data rows */
	unsigned long loaded;        /* rows loaded */
	unsigned long quarantined;   /* rows quarantined */
	unsigned long added;         /* records new to the export */
	unsigned long changed;       /* records with a new version */
	unsigned long unchanged;     /* records whose current version stands */
	unsigned long removed;       /* records tombstoned */
	int same_content;            /* 1: identical to the previous snapshot */
} catalogue_export_stats;

typedef struct catalogue_load catalogue_load;

enum { CATALOGUE_READONLY = 1 };

/* Open the database at path, creating it and applying the migrations in
 * sqldir as needed (not with CATALOGUE_READONLY). 0 or -1 (cat->err). */
int catalogue_open(catalogue *cat, const char *path, const char *sqldir, int flags);
void catalogue_close(catalogue *cat);
/* Delete a catalogue file and its journal files (a new catalogue that a
 * failed run created). */
void catalogue_remove(const char *path);

/* Start loading a snapshot dated as_of (YYYY-MM-DD): opens the transaction. */
int catalogue_load_begin(catalogue *cat, catalogue_load **out, const char *as_of);
/*
 * Start one export of the snapshot. sha256 is of the file's bytes; when it
 * equals the export's latest loaded content, *same is set to 1 and the
 * rows that follow need not be sent (catalogue_load_row ignores them).
 */
int catalogue_export_begin(catalogue_load *ld, const char *export_name, const char *file,
			   const char *sha256, unsigned long long bytes,
			   const catalogue_column *columns, size_t ncolumns, int *same);
int catalogue_load_row(catalogue_load *ld, const catalogue_row *row);
int catalogue_export_end(catalogue_load *ld, catalogue_export_stats *stats);
/* The message of the load's last failure. */
const char *catalogue_load_error(const catalogue_load *ld);
/* Record a notice (undeclared column, unknown value, repeated name). */
int catalogue_load_notice(catalogue_load *ld, const char *message);
/* Commit and free; or abort (roll back) and free. Both accept NULL. */
int catalogue_load_commit(catalogue_load *ld);
void catalogue_load_abort(catalogue_load *ld);

/*
 * Write export_name as it stood on as_of (YYYY-MM-DD) as CSV to out:
 * canonical column names of that snapshot's header, then every loaded row
 * in file order with normalised values. Returns 0, 1 when the catalogue
 * holds no such export on or before that date, -1 on error.
 */
int catalogue_export_csv(catalogue *cat, const char *export_name, const char *as_of,
			 sbuf *out);

/* Turn a parsed row into JSON: norm gets {"field":"normalised",...} for the
 * cells with a value, fields sorted by name; raw gets the raw cells whose
 * text differs from their normalised value. order lists column indexes
 * sorted by field name (see record_order). */
void record_encode(const parse_column *columns, const size_t *order, size_t ncolumns,
		   const parse_row *row, sbuf *norm, sbuf *raw);
/* Fill order[0..n) with column indexes sorted by field name. */
void record_order(const parse_column *columns, size_t n, size_t *order);

/* Today's date as YYYY-MM-DD (UTC) into buf[11]. */
void catalogue_today(char buf[11]);
/* Is s a valid YYYY-MM-DD date? */
int catalogue_valid_day(const char *s);

#endif
