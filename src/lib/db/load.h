/*
 * load: writing a snapshot into the catalogue as versioned records.
 *
 * A load runs inside one transaction: load_begin(err) opens it,
 * load_commit(err) makes it visible; load_abort() (or a crash) leaves the
 * catalogue as it was.
 *
 * For each export of the snapshot the rows are compared with the export's
 * current records, in normalised form, on the fields of this snapshot's
 * header:
 *   - same values: the current version stands (nothing written but the
 *     snapshot's row list);
 *   - a value of a field the previous snapshot also had differs: a new
 *     version (kind "changed"), each differing field logged;
 *   - only values of columns new to this snapshot differ: a new version of
 *     kind "revised", which is not a change (no field log, no "last
 *     updated"), so that the export can still be given back losslessly;
 *   - a name the export did not have: a rename of a record that vanished
 *     (see load_export_end), else a new record (kind "added"); a name that
 *     was removed earlier continues its history (kind "added" again);
 *   - a record no row carries any more: a tombstone (kind "removed"),
 *     unless a quarantined row carries its name.
 * Columns that appear or disappear are recorded once; a header spelled
 * another way that maps onto the same field (an alias) is recorded as
 * respelled and is no column change.
 *
 * Errors: the functions that can fail return 0 or -1 and fill err, their
 * last parameter (base/error.h); after a failure the load can only be
 * aborted.
 */
#ifndef MODELCAT_LOAD_H
#define MODELCAT_LOAD_H

#include "db/catalogue.h"
#include "values/colmap.h"
#include "values/record.h"

/* One column of an export (see export_column). */
typedef struct load_column {
	const char *header;          /* header cell */
	const char *field;           /* canonical field */
	const char *type;            /* type name */
	int declared;                /* known to the column map */
	int headerless;              /* empty header cell */
} load_column;

/* Bind a column at position (0-based) to the parameters first to first+5
 * of st, in the order export_column and the staging file's staging_column
 * share: position, header, field, type, declared, headerless. The strings
 * are bound SQLITE_STATIC: col must outlive the step. */
void load_bind_column(sqlite3_stmt *st, int first, size_t position, const load_column *col);

/*
 * One row to load: what parse gives, as a record and encoded (see
 * read/record.h). The load compares values (the record) with the
 * record's stored version and stores norm_json and raw_json as they are.
 */
typedef struct load_row {
	unsigned long line;          /* line in the file */
	unsigned long position;      /* 0-based data row index */
	const char *name;            /* trimmed model name ("" if none) */
	size_t occurrence;           /* nth row with this name (0: quarantined) */
	int quarantined;             /* 1: store in the quarantine only */
	const char *fault_field;     /* with quarantined: field at fault or NULL */
	const char *reason;          /* with quarantined: why */
	const char *raw_csv;         /* the row as read, as CSV */
	const record_values *values; /* the row's values, typed, fields sorted;
					NULL: a row as stored (a staging
					file's), whose values the load reads
					from norm_json and raw_json */
	const char *norm_json;       /* JSON object field -> normalised value */
	size_t norm_len;             /* its length, or 0: not known (strlen) */
	const char *raw_json;        /* JSON object field -> raw cell (differing) */
	size_t raw_len;              /* its length, or 0: not known */
	int has_digest;              /* 1: digest holds the load_digest() of
					norm_json's compared form
					(record_values_compared) */
	unsigned char digest[16];    /* computed ahead (by the row feed or the
					queue, ingest/queue.h) */
	const char *compared;        /* without has_digest, to a sink that takes
					digests_later (sink.h): norm_json's
					compared form, whose load_digest() the
					sink works out; else NULL */
	int has_raw_digest;          /* 1: raw_digest holds the raw record's */
	unsigned char raw_digest[16];/* see parse_row.raw_digest */
	sqlite3_int64 known_version; /* not 0: the row is this current version
					(load_known_check said so); no values */
	sqlite3_int64 known_record;  /* with known_version: its record */
} load_row;

/* Counts of one export's load, filled by load_export_end(err). */
typedef struct load_stats {
	unsigned long rows;          /* data rows */
	unsigned long loaded;        /* rows loaded */
	unsigned long quarantined;   /* rows quarantined */
	unsigned long added;         /* records new to the export (or back) */
	unsigned long changed;       /* records with a changed value */
	unsigned long renamed;       /* records found under a new name */
	unsigned long revised;       /* records given values of new columns only */
	unsigned long unchanged;     /* records whose current version stands */
	unsigned long removed;       /* records tombstoned */
	unsigned long columns_added;   /* columns new to the export */
	unsigned long columns_removed; /* columns gone from the export */
	unsigned long headers_respelled; /* same field, header spelled another way */
	int same_content;            /* 1: identical to the previous snapshot */
	int held;                    /* 1: a guard held the export: nothing of it
					was applied (see load_guards) */
	char held_reason[256];       /* with held: the guard and the numbers */
	unsigned long models_held;   /* models kept because their name is in a
					quarantined row (see held_model) */
	int accepted;                /* 1: a guard tripped, --accept applied it */
	unsigned long notices;       /* notices stored with the export's file:
					undeclared columns, unknown values,
					repeated names, names normalised */
} load_stats;

/*
 * Guards against damaged input (pipelines/guards.tsv): an export's file is
 * held, nothing of it applied, when it has a header and no rows; or it
 * would remove more than remove_pct % of the export's models and more
 * than remove_min; or it quarantines more than quarantine_pct % of its
 * rows and more than quarantine_min; or its header gains or loses more
 * than columns columns. A held export is recorded in held_export (the
 * snapshot says why) and its previous versions stay current.
 */
typedef colmap_guards load_guards;

typedef struct load load;

/* The digest a version keeps of its normalised values: the first 16 bytes
 * of the SHA-256 of the JSON text of their compared form (see
 * read/record.h: numbers at 15 significant digits), which is what
 * compared_json must be. */
void load_digest(const char *compared_json, unsigned char digest[16]);

/* The most rules of rename evidence a family has, and fields a rule has. */
#define LOAD_RENAME_MAX 8
#define LOAD_RENAME_FIELDS 6

/*
 * The rename evidence of the exports that follow (colmap.renames of their
 * family: rules separated by '|', fields by '+'; docs/history.md,
 * "Renames"), after the name's two rules. A load starts with the model
 * family's, COLMAP_MODEL_RENAMES. 0, or -1 (err) for a malformed text.
 */
int load_set_renames(load *ld, const char *rules, mc_err *err);

/* Start loading a snapshot dated as_of (YYYY-MM-DD): opens the transaction. */
int load_begin(catalogue *cat, load **out, const char *as_of, mc_err *err);
/* Replace the export precedence (best first) used by merged views. */
int load_precedence(load *ld, char *const *exports, size_t n, mc_err *err);
/* The content hash and size of the export's latest earlier snapshot into
 * sha and *bytes: 1, 0 when the export has none, -1 on error. */
int load_previous_content(load *ld, const char *export_name, char sha[65],
			  unsigned long long *bytes, mc_err *err);
/* The size of the next export's content, when it is known before it is
 * read (input_content_size()): a first load of a small content keeps its
 * index of names as it goes, a large one or one of unknown size makes it
 * at the end. For the next load_export_begin() only. */
void load_size_hint(load *ld, unsigned long long bytes);
/*
 * Start one export of the snapshot. sha256 is the SHA-256 of the content
 * (decompressed bytes), or "" when not known yet (give it to
 * load_export_content(err) before the end); when it equals the export's
 * latest content, *same is set to 1 and the rows that follow are ignored
 * (no change).
 */
int load_export_begin(load *ld, const char *export_name, const char *file,
		      const char *sha256, unsigned long long bytes,
		      const load_column *columns, size_t ncolumns, int *same, mc_err *err);
int load_row_add(load *ld, const load_row *row, mc_err *err);
/* Do the rows of the export begun need their records (load_row.values)?
 * 1 when it has records to compare them with; 0 for its first load,
 * which compares nothing: a row with a digest and no record is stored as
 * it comes. Other rows without a record are read from their JSON. */
int load_wants_records(const load *ld);
/*
 * The export's current records, for recognising unchanged rows before
 * they are normalised: when header_digest (parse_header_digest()) equals
 * the one the export's previous content was read with, *known gets a map
 * from (name, occurrence) to current version and raw digest; else NULL.
 * The digest is recorded either way. The map stays valid until
 * load_export_end(err); load_known_check() only reads it.
 */
typedef struct load_known load_known;
int load_export_known(load *ld, const char *header_digest, load_known **known, mc_err *err);
/* A parse_known_fn over the map (ctx is the load_known). */
int load_known_check(void *ctx, const char *name, size_t occurrence,
		     const unsigned char digest[16], size_t *ref);
/* The version and record behind a reference load_known_check() gave. */
void load_known_ids(const load_known *known, size_t ref, sqlite3_int64 *version,
		    sqlite3_int64 *record);
/* Record the content's hash and size, once read to the end. */
int load_export_content(load *ld, const char *sha256, unsigned long long bytes, mc_err *err);
/* Finish the export: renames, removals, counts. */
int load_export_end(load *ld, load_stats *stats, mc_err *err);
/* Set the guards of the load; accept 1: a file a guard would hold is
 * applied and its content remembered as accepted (accepted_content), so
 * that a reingest applies it too. Without it, content accepted before
 * (the same export and SHA-256) is applied as well. */
void load_set_guards(load *ld, const load_guards *guards, int accept);
/* Change accept for the exports that follow. */
void load_set_accept(load *ld, int accept);
/* Copy the accepted contents of the catalogue file from (a catalogue being
 * rebuilt) into cat; nothing when from does not exist or has none. 0 or -1. */
int load_carry_accepted(catalogue *cat, const char *from, mc_err *err);
/* Record a notice (undeclared column, unknown value, repeated name). */
int load_notice(load *ld, const char *message, mc_err *err);
/* The catalogue ld writes to, and the id of the snapshot it writes. */
catalogue *load_catalogue(const load *ld);
sqlite3_int64 load_snapshot_id(const load *ld);
/* Commit and free; or abort (roll back) and free. Both accept NULL. */
int load_commit(load *ld, mc_err *err);
void load_abort(load *ld);

#endif
