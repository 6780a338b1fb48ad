/*
 * colmap: the column map of pipelines/columns.tsv and the known values of
 * pipelines/enumerations.tsv. Maps an export's header cells onto canonical
 * fields, each with a type.
 *
 * Ownership: a colmap owns all its strings; pointers returned by lookups
 * stay valid until colmap_free().
 */
#ifndef MODELCAT_COLMAP_H
#define MODELCAT_COLMAP_H

#include <stddef.h>

#include "base/error.h"

enum colmap_type {
	COL_KEY,      /* the model name: trimmed text, required */
	COL_TEXT,     /* free text */
	COL_LIST,     /* comma-separated list */
	COL_NUMBER,   /* a number in any notation */
	COL_DATE,     /* a date or date-time */
	COL_ENUM,     /* one of a known set; unknown values kept and reported */
	COL_BOOL      /* True/False, Yes/No */
};

typedef struct colmap_field {
	char *name;              /* canonical field name */
	enum colmap_type type;   /* how its values are read */
	char **known;            /* COL_ENUM: NULL-terminated known values */
	size_t nknown;           /* entries in known */
	int is_volatile;         /* flag "volatile": its values change on their
				    own (a citation count); the audit lists
				    models whose only change is such a field
				    apart from the others */
} colmap_field;

typedef struct colmap_alias {
	char *header;            /* a header as it appears in an export */
	size_t field;            /* index into colmap.fields */
} colmap_alias;

typedef struct colmap {
	colmap_field *fields;    /* canonical fields, in file order */
	size_t nfields;          /* entries in fields */
	colmap_alias *aliases;   /* canonical names and aliases, sorted by header */
	size_t naliases;         /* entries in aliases */
	char digest[65];         /* SHA-256 of the map's files: a row read with
				    another map may normalise differently */
} colmap;

/*
 * Load the map from dir/columns.tsv and dir/enumerations.tsv. Returns 0,
 * or -1 with a message naming file and line in err.
 */
int colmap_load(colmap *map, const char *dir, mc_err *err);
void colmap_release(colmap *map);

/* The canonical field for a header (trimmed, exact match), or NULL. */
const colmap_field *colmap_lookup(const colmap *map, const char *header);
/* The canonical field by its canonical name only, or NULL. */
const colmap_field *colmap_field_named(const colmap *map, const char *name);

const char *colmap_type_name(enum colmap_type type);

/*
 * Read the export precedence, best first, from dir/precedence.tsv (one
 * export name a line). *names is a NULL-terminated array the caller frees
 * with colmap_free_list(). Returns 0, or -1 with a message in err.
 */
int colmap_precedence(const char *dir, char ***names, size_t *n, mc_err *err);
void colmap_free_list(char **names);

/* The guards against damaged input of pipelines/guards.tsv (db/load.h
 * says what each holds). */
typedef struct colmap_guards {
	int on;                      /* 1: read from a file */
	double remove_pct;           /* remove PCT MIN */
	unsigned long remove_min;
	double quarantine_pct;       /* quarantine PCT MIN */
	unsigned long quarantine_min;
	unsigned long columns;       /* columns N */
} colmap_guards;

/* Read dir/guards.tsv into *g (every guard must be given). Returns 0, or
 * -1 with a message naming file and line in err. */
int colmap_guards_read(const char *dir, colmap_guards *g, mc_err *err);

#endif
