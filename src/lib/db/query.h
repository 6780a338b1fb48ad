/*
 * query: reading the catalogue's history: exports as they stood on a
 * date, a model's merged record, the models and former names on record,
 * and what changed between two dates. (Which snapshot is the latest:
 * db/snapshot.h; a model's history: db/history.h.)
 *
 * Errors: every function that can fail fills err, its last parameter
 * (base/error.h), and returns -1; "none" is 1 where it says so.
 */
#ifndef MODELCAT_QUERY_H
#define MODELCAT_QUERY_H

#include "base/strmap.h"
#include "db/catalogue.h"
#include "values/colmap.h"

/* The snapshot_export whose content the export had on as_of: 1 and *id,
 * 0 when none (or as_of is empty), -1 on error. */
int query_content_export(catalogue *cat, const char *export_name, const char *as_of,
			 catalogue_id *id, mc_err *err);

/*
 * An export as it stood, read row by row: the canonical fields of that
 * snapshot's header, each with its type (as the column map gave it when
 * the export was loaded), then every loaded row in file order, its
 * values as the catalogue holds them (normalised), by column.
 */
typedef struct query_rows {
	size_t ncols;                /* columns of the header */
	char **fields;               /* each column's canonical field, file order */
	enum colmap_type *types;     /* each column's type */
	const char **values;         /* the row query_rows_next() read: each
					column's value, NULL when it has none;
					valid until the next call */
	size_t *lengths;             /* their lengths in bytes */
	catalogue *cat;              /* the catalogue read */
	struct query_rows_state *state;  /* the statement and the row read */
} query_rows;

/* Open rows on export_name as it stood on as_of (YYYY-MM-DD), or, when
 * snapshot is not 0, right after that snapshot (as_of then names it in
 * messages). Returns 0, 1 when the catalogue holds no such export on or
 * before that date (err says so), -1 on error; rows is to be closed with
 * query_rows_close() whatever the return. */
int query_rows_open(catalogue *cat, const char *export_name, const char *as_of,
		    catalogue_id snapshot, query_rows *rows, mc_err *err);
/* The next row into rows->values: 1, 0 at the end, -1 on error. */
int query_rows_next(query_rows *rows, mc_err *err);
void query_rows_close(query_rows *rows);


/* ---- what changed between two dates ---- */

typedef struct diff_field {
	char *field;                 /* canonical field */
	char *old;                   /* old value, NULL when it had none */
	char *new;                   /* new value, NULL when it has none */
} diff_field;

typedef struct diff_model {
	char *export;                /* the export */
	char *name;                  /* the model's name (the new one for renames) */
	char *old_name;              /* renames: the name before */
	diff_field *fields;          /* changed: the fields that changed */
	size_t nfields;              /* entries in fields */
	int returned;                /* added: the export had it (this record or
					this name) before, and lost it: it came back */
} diff_model;

typedef struct diff_column {
	char *export;                /* the export */
	char *field;                 /* canonical field */
	char *old_header;            /* removed, respelled: header before */
	char *new_header;            /* added, respelled: header now */
} diff_column;

typedef struct diff_quarantine {
	char *export;                /* the export */
	char *file;                  /* the file as ingested */
	long line;                   /* line in the file */
	char *name;                  /* model name, NULL if none */
	char *field;                 /* field at fault, NULL if none */
	char *reason;                /* why */
	char *as_of;                 /* snapshot date */
} diff_quarantine;

/* Held for review in (from, to]: an export a guard held (name NULL), or
 * a model kept because its name is inside a quarantined row (guard and
 * reason NULL). */
typedef struct diff_held {
	char *export;                /* the export */
	char *guard;                 /* export: the guard (empty, remove, quarantine, columns) */
	char *reason;                /* export: the guard and the numbers */
	char *name;                  /* model: its name */
	long line;                   /* model: the quarantined row's line */
	char *as_of;                 /* snapshot date */
} diff_held;

/* The models a column added (or removed) gave (or took) a value: each is
 * a change of that model (its page shows, or no longer shows, the value). */
typedef struct diff_column_values {
	char *export;                /* the export */
	char *field;                 /* canonical field */
	int removed;                 /* 0: a new column, 1: a column removed */
	char **names;                /* the models, in file order */
	size_t n;                    /* entries in names */
} diff_column_values;

/* A list of T: items and count. */
#define DIFF_LIST(T) struct { T *items; size_t n; }
/* Append a zeroed item to a DIFF_LIST and return it. */
#define DIFF_PUSH(list) \
	((list).items = xrealloc((list).items, ((list).n + 1) * sizeof(*(list).items)), \
	 memset(&(list).items[(list).n], 0, sizeof(*(list).items)), \
	 &(list).items[(list).n++])

typedef struct diff_result {
	char from[16];               /* earlier date or DATE.N ("" : from nothing) */
	char to[16];                 /* later date or DATE.N */
	catalogue_id from_snapshot; /* the state after this snapshot (0: none) */
	catalogue_id to_snapshot;   /* against the state after this one */
	DIFF_LIST(diff_model) added;     /* new to an export (or back) */
	DIFF_LIST(diff_model) removed;   /* gone from an export */
	DIFF_LIST(diff_model) renamed;   /* same model, new name */
	DIFF_LIST(diff_model) changed;   /* values changed (also renamed ones) */
	DIFF_LIST(diff_column) columns_added;
	DIFF_LIST(diff_column) columns_removed;
	DIFF_LIST(diff_column) headers_respelled;  /* alias spellings: no change */
	DIFF_LIST(diff_quarantine) quarantined;  /* rows quarantined in (from, to] */
	DIFF_LIST(char *) exports;       /* exports compared */
	DIFF_LIST(diff_held) held_exports; /* exports a guard held (nothing applied) */
	DIFF_LIST(diff_held) held_models;  /* models kept: inside a quarantined row */
	DIFF_LIST(diff_column_values) column_values; /* values of new or removed columns */
} diff_result;

/*
 * Compare the catalogue as it stood on from with how it stood on to
 * (from < to; from "" means an empty catalogue). Every export is compared
 * on its own, on the fields both snapshots' headers have. Returns 0 or -1.
 */
int query_diff(catalogue *cat, const char *from, const char *to, diff_result *out, mc_err *err);
/* The same between the states right after two snapshots (by id; from_id
 * 0: an empty catalogue), so that two snapshots of one day can be told
 * apart. */
int query_diff_snapshots(catalogue *cat, catalogue_id from_id, catalogue_id to_id,
			 diff_result *out, mc_err *err);
void diff_result_release(diff_result *d);

/* The dates of the last two snapshots into from and to (from is "" when
 * there is only one). Returns 0, 1 when there is no snapshot, -1 on error. */
int query_last_two(catalogue *cat, char from[11], char to[11], mc_err *err);

/* ---- the models on record ---- */

/* The models on record on as_of, sorted by name (case folded); a repeated
 * name's later rows as "NAME#2", ... The caller frees each name and the
 * array. 0 or -1. */
int query_models(catalogue *cat, const char *as_of, char ***names, size_t *n, mc_err *err);

/* ---- renames ---- */

/* A name a model had before. */
typedef struct former_name {
	char *name;                  /* its name on the date (its last rename's) */
	char *former;                /* a name it had before */
} former_name;

/*
 * Every former name of every record renamed on or before as_of: one pair
 * per (record, former name), the record's renames in the order they were
 * made; a name the record has again is no former name. Whether the record
 * is still on record under name is the caller's question (query_models).
 * 0 or -1.
 */
int query_former_names(catalogue *cat, const char *as_of, former_name **out, size_t *n,
		       mc_err *err);
void former_names_release(former_name *f, size_t n);

/* ---- one model ---- */

typedef struct model_value {
	char *field;                 /* canonical field */
	char *value;                 /* normalised value */
	char *export;                /* export it comes from */
	char *since;                 /* snapshot date of the version holding it */
	catalogue_id source;        /* the export file (snapshot_export) of that version */
} model_value;

typedef struct model_view {
	char *name;                  /* the model's name on the date */
	char as_of[11];              /* the date */
	char last_updated[11];       /* last snapshot that changed it (any export) */
	DIFF_LIST(model_value) values;   /* merged by precedence, field order */
	DIFF_LIST(char *) exports;       /* exports holding it, by precedence */
	strpool texts;               /* the values' strings (field and value each,
					export and date once a version) */
	strmap fields;               /* each field's place in values + 1, as a
					lookup merges them (a view made by hand
					may leave it empty) */
} model_view;

/*
 * The model called name (a repeated name's nth row: "NAME#n") as it stood
 * on as_of, its fields merged across exports by precedence. Returns 0, 1
 * when no export held a model of that name on that date, -1 on error.
 */
int query_model(catalogue *cat, const char *name, const char *as_of, model_view *out, mc_err *err);
/* The same for the records of one family only: key is the family's key
 * field (colmap.key: "Model", "Hardware name"); NULL is query_model(). */
int query_model_family(catalogue *cat, const char *name, const char *as_of, const char *key,
		       model_view *out, mc_err *err);
void model_view_release(model_view *m);

/*
 * Many models looked up by one statement: the versions of the names from
 * first to last (in the order of their bytes, strcmp()'s) valid on as_of,
 * read in the order of the names' index as query_model_next() asks for
 * them. A publication looks up every model twice; one statement a model
 * was most of a lookup's time. The scan holds a read of the catalogue
 * until it is closed. 0, or -1 (err).
 */
typedef struct model_scan model_scan;
int query_scan_open(catalogue *cat, const char *as_of, const char *first, const char *last,
		    model_scan **out, mc_err *err);
/* query_model(cat, name, as_of) of s's catalogue and date, its versions
 * taken from the scan: names asked in increasing order (strcmp()) come
 * from it; any other name (one asked out of order or not in the range, a
 * repeated name's "NAME#n", a former name) is looked up by query_model().
 * The names between two asked are passed over. */
int query_model_next(model_scan *s, const char *name, model_view *out, mc_err *err);
void query_scan_close(model_scan *s);

/*
 * Every record's last-updated date from its versions on as_of (what
 * query_model() takes the largest of into last_updated), read in one pass
 * over the versions. A publication looks up every model, twice: one
 * statement a model for its date was a third of those lookups' time.
 */
typedef struct query_updated {
	char as_of[11];              /* the date read for */
	size_t n;
	catalogue_id *records;      /* record ids, ascending */
	char (*dates)[11];           /* each one's date */
} query_updated;

/* Read u for as_of (released with query_updated_release()). 0, or -1
 * (err). */
int query_updated_read(catalogue *cat, const char *as_of, query_updated *u, mc_err *err);
void query_updated_release(query_updated *u);
/* Let cat's query_model() calls for u->as_of take their dates from u
 * (NULL: read them for each model), where only versions count: not after
 * a column was removed from an export on or before as_of. u is not
 * copied: it must outlive its use, and describe the catalogue as it is
 * (the caller reads it with the list of models it looks up). */
void query_updated_use(catalogue *cat, const query_updated *u);

#endif
