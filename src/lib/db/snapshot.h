/*
 * snapshot: the questions about snapshots that the catalogue is asked
 * again and again, each answered by one function: which snapshot is the
 * latest (overall, on or before a date, before a date), what dates the
 * recent ones have, and the latest snapshot of one export (its content,
 * its header).
 *
 * Errors: every function fills err (the last parameter) and returns -1 on
 * failure; "none" is a normal answer where it says so.
 */
#ifndef MODELCAT_SNAPSHOT_H
#define MODELCAT_SNAPSHOT_H

#include "db/catalogue.h"

/* The date of the latest snapshot into day[11]: 0, 1 when there is none
 * (day ""), -1 on error. */
int snapshot_latest_day(catalogue *cat, char day[11], mc_err *err);
/* The date of the latest snapshot dated before day into prev[11]: 0, 1
 * when there is none (prev ""), -1 on error. */
int snapshot_day_before(catalogue *cat, const char *day, char prev[11], mc_err *err);
/* The date of the latest snapshot dated on or before day that applied a
 * file of some export (one a guard held whole applied none) into
 * out[11]: 0, 1 when there is none (out ""), -1 on error. */
int snapshot_applied_upto(catalogue *cat, const char *day, char out[11], mc_err *err);
/* The id of the latest snapshot loaded (*id 0 when none). 0 or -1. */
int snapshot_latest_id(catalogue *cat, sqlite3_int64 *id, mc_err *err);
/* The id of the latest snapshot loaded dated on or before day (*id 0 when
 * none, or day NULL or ""). 0 or -1. */
int snapshot_upto(catalogue *cat, const char *day, sqlite3_int64 *id, mc_err *err);
/* The date of snapshot id into day[11] ("" when id is 0 or unknown). 0 or -1. */
int snapshot_day_of(catalogue *cat, sqlite3_int64 id, char day[11], mc_err *err);

/* A snapshot as people name it: DATE, the last one of that day, or
 * DATE.N, the N-th of that day (from 1, in the order they were loaded). */
typedef struct snapshot_ref {
	char day[11];                /* YYYY-MM-DD */
	int n;                       /* 1..9999, or 0: the day's last */
} snapshot_ref;

/* Parse "YYYY-MM-DD" or "YYYY-MM-DD.N" (N from 1 to 9999, no leading
 * zero) into *ref. 0, or -1 when text is neither. */
int snapshot_ref_parse(const char *text, snapshot_ref *ref);
/* The snapshot ref names into *id (0 when the catalogue has none such).
 * 0 or -1. */
int snapshot_ref_find(catalogue *cat, const snapshot_ref *ref, sqlite3_int64 *id, mc_err *err);
/* Which of its day's snapshots id is (*n from 1; 0 when id is unknown).
 * 0 or -1. */
int snapshot_ordinal(catalogue *cat, sqlite3_int64 id, int *n, mc_err *err);
/* The name snapshot id is published under (audit files, feed entries):
 * its date for the day's first snapshot, DATE.N for the N-th after it
 * ("" when id is unknown), so that a name once published never changes
 * when a later snapshot of the same day comes. 0 or -1. */
int snapshot_label(catalogue *cat, sqlite3_int64 id, char label[16], mc_err *err);

/* One snapshot date and when its latest snapshot was loaded. */
typedef struct snapshot_day {
	char day[11];                /* as_of */
	char loaded[32];             /* ingested_at of its latest snapshot */
} snapshot_day;

/* The dates of the latest limit snapshot dates, newest first, into *days
 * (the caller frees it) and *n. 0 or -1. */
int snapshot_recent_days(catalogue *cat, size_t limit, snapshot_day **days, size_t *n,
			 mc_err *err);

/* Which of an export's snapshots snapshot_export_latest() looks among. */
typedef struct snapshot_export_filter {
	const char *export_name;     /* the export */
	sqlite3_int64 except;        /* not this snapshot (0: none left out) */
	sqlite3_int64 upto;          /* this snapshot or earlier ones (0: any) */
	const char *upto_day;        /* dated on or before this (NULL: any) */
	int content_only;            /* 1: only those that loaded their content
					(not "same content as before") */
} snapshot_export_filter;

/* One export's snapshot (a snapshot_export row). */
typedef struct snapshot_export_info {
	sqlite3_int64 id;            /* snapshot_export id */
	char as_of[11];              /* the snapshot's date */
	char sha256[65];             /* of the content ("" when not recorded) */
	unsigned long long bytes;    /* the content's size */
	unsigned long rows;          /* data rows */
	unsigned long loaded;        /* rows loaded */
	unsigned long quarantined;   /* rows quarantined */
	char header_digest[65];      /* see parse_header_digest ("" when none) */
} snapshot_export_info;

/* The latest of the export's snapshots that f lets through (the latest
 * date, then the latest loaded) into *out: 0, 1 when there is none, -1
 * on error. */
int snapshot_export_latest(catalogue *cat, const snapshot_export_filter *f,
			   snapshot_export_info *out, mc_err *err);

/* One snapshot as it is published: its name, date, when it was loaded,
 * and a hash of its content (each export and the SHA-256 of its file). */
typedef struct snapshot_entry {
	sqlite3_int64 id;            /* the snapshot */
	char day[11];                /* as_of */
	char label[16];              /* DATE or DATE.N (snapshot_label) */
	char loaded[32];             /* ingested_at */
	char content[65];            /* SHA-256 of "EXPORT SHA256\n" lines, by export */
} snapshot_entry;

/* Every snapshot dated on or before upto (NULL or "": all), oldest
 * first (by date, then as loaded), into *list (the caller frees it) and
 * *n. 0 or -1. */
int snapshot_list(catalogue *cat, const char *upto, snapshot_entry **list, size_t *n,
		  mc_err *err);

#endif
