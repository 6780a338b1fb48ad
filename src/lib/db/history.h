/*
 * history: the life of a model (docs/history.md): every record that ever
 * carried a name, under any name it had before or after a rename, each
 * version with its date, kind, export and name, each changed field with
 * its old and new value in full, each rename with its evidence, and the
 * quarantined rows that carried the name; read once, as it is stored
 * (cli/historyout.h writes it as text or as JSON).
 *
 * Ownership: history_read() fills a history the caller releases with
 * history_release(); every string in it is owned by it.
 * Errors: functions that can fail fill err, their last parameter, and
 * return -1.
 */
#ifndef MODELCAT_HISTORY_H
#define MODELCAT_HISTORY_H

#include "db/catalogue.h"
#include "db/query.h"

/* Why a field is listed under a version. */
enum history_why {
	HISTORY_CHANGED = 0,          /* a field_change: the value changed */
	HISTORY_NEW_COLUMN,           /* a column new to the export gave the value */
	HISTORY_COLUMN_REMOVED        /* a column removed from the export took it */
};

/* One field of a version: what it was and what it became. */
typedef struct history_field {
	char *field;                  /* canonical field */
	char *old;                    /* value before, NULL when none */
	char *new;                    /* value after, NULL when none */
	enum history_why why;         /* why it is listed */
	char *date;                   /* HISTORY_COLUMN_REMOVED: the snapshot that
					 removed the column; else NULL */
} history_field;

/* One rename made by a version. */
typedef struct history_rename {
	char *old_name;               /* the name before */
	char *new_name;               /* the name after */
	char *evidence;               /* the rule that matched */
} history_rename;

/* One version of a record. */
typedef struct history_version {
	char *valid_from;             /* the snapshot date that opened it */
	char *valid_to;               /* the date that closed it, NULL while current */
	char *kind;                   /* added, changed, renamed, revised, removed */
	char *export;                 /* the record's export */
	char *name;                   /* the model's name in this version */
	long line;                    /* line in the file, 0 when none (a removal) */
	DIFF_LIST(history_rename) renames;   /* renames it made */
	DIFF_LIST(history_field) fields;     /* changed fields, then new columns' values */
	DIFF_LIST(history_field) removed;    /* values that columns removed while it
						was current took from it */
} history_version;

/* One record that carried the name. */
typedef struct history_record {
	char *export;                 /* its export */
	char *name;                   /* its current (last) name */
	long occurrence;              /* 1, or n for a repeated name's n-th row */
	char *last_updated;           /* the last snapshot that changed it */
	DIFF_LIST(history_version) versions;  /* oldest first */
} history_record;

/* A quarantined row carrying the name. */
typedef struct history_quarantine {
	char *as_of;                  /* snapshot date */
	char *export;                 /* the export */
	char *file;                   /* the file as ingested */
	long line;                    /* line in the file */
	char *reason;                 /* why */
} history_quarantine;

typedef struct history {
	char *name;                   /* the name asked for */
	int nth;                      /* 1: name was "NAME#n", n >= 2 */
	DIFF_LIST(history_record) records;          /* by export precedence */
	DIFF_LIST(history_quarantine) quarantined;  /* by date */
} history;

/*
 * Read the history of every record that ever carried name; when none
 * did and name is "NAME#n" (n >= 2), of the records that were the n-th
 * row carrying NAME (as query_models names them). Returns 0, 1 when no
 * record (and no quarantined row) ever had the name, -1 on error.
 */
int history_read(catalogue *cat, const char *name, history *out, mc_err *err);
/* Keep only the records and quarantined rows of the exports keep(export,
 * arg) says yes to (non-zero); the others are freed. */
void history_keep(history *h, int (*keep)(const char *export_name, void *arg), void *arg);
void history_release(history *h);

#endif
