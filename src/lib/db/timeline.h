/*
 * timeline: the dated life of every model on record on a date, as its
 * page tells it (docs/pages.md, "History"): when it entered the
 * catalogue, each changed field with its old and new value (values a new
 * column gave it, values a removed column took), its renames, its
 * removals from an export and its returns, and the snapshots that held
 * its row (quarantined: its values stood).
 *
 * Read in one pass: one query per table for every model at once, grouped
 * by model in C, so that a page needs no query of its own. The models are
 * those query_models() lists, under the same names ("NAME", "NAME#2");
 * their records those query_model() merges (current on the date, of the
 * models' family). A change two exports logged alike is told once.
 *
 * Ownership: timeline_read() fills a timeline the caller releases with
 * timeline_release(); every string in it is owned by it, and a pointer
 * timeline_find() returns is valid until then.
 */
#ifndef MODELCAT_TIMELINE_H
#define MODELCAT_TIMELINE_H

#include <stddef.h>
#include "db/catalogue.h"

/* What an event is, in the order a day's events are told. */
enum timeline_kind {
	TIMELINE_ADDED = 0,           /* the record's first version: the model's
					 first is its addition, a later one
					 another export taking it up */
	TIMELINE_RETURNED,            /* back in an export that had removed it */
	TIMELINE_RENAMED,             /* old -> new name */
	TIMELINE_CHANGED,             /* field: old -> new */
	TIMELINE_NEW_COLUMN,          /* field: a new column gave it new */
	TIMELINE_COLUMN_REMOVED,      /* field: a removed column took old */
	TIMELINE_REMOVED,             /* no longer in an export */
	TIMELINE_HELD                 /* its row was quarantined: its values stood */
};

/* One event of a model's life. */
typedef struct timeline_event {
	char date[11];                /* the snapshot date, YYYY-MM-DD */
	enum timeline_kind kind;      /* what happened */
	char *export;                 /* the export it happened in */
	char *field;                  /* the canonical field (changes), else NULL */
	char *old;                    /* the value (or name) before, NULL when none */
	char *new;                    /* the value (or name) after, NULL when none */
} timeline_event;

/* One model's life, oldest event first. */
typedef struct timeline_model {
	char *name;                   /* as query_models() names it */
	timeline_event *events;       /* by date, then kind, then as logged */
	size_t n;                     /* events */
} timeline_model;

typedef struct timeline {
	timeline_model *models;       /* sorted by name (strcmp) */
	size_t n;                     /* models */
	/* the storage: every model's events in one array, every string in a
	 * few large blocks (a read allocates little, and leaves the heap
	 * unfragmented for the pages rendered after it) */
	timeline_event *all;          /* the events, model after model */
	strpool texts;                /* the strings */
} timeline;

/*
 * The lives of the models on record on as_of (YYYY-MM-DD), told up to
 * as_of. With name (as query_models() names a model), only that model's
 * (for one page: its queries look at its records alone). 0, or -1 (err).
 */
int timeline_read(catalogue *cat, const char *as_of, const char *name, timeline *out,
		  mc_err *err);
/* The model called name, or NULL when it has no life on record. */
const timeline_model *timeline_find(const timeline *t, const char *name);
void timeline_release(timeline *t);

#endif
