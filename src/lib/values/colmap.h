/*
 * colmap: the column maps of the export families (pipelines/families.tsv:
 * model in pipelines/columns.tsv, hardware in
 * pipelines/hardware-columns.tsv) and the known values of
 * pipelines/enumerations.tsv. Maps an export's header cells onto
 * canonical fields, each with a type; each family has its own key column
 * (model: Model, hardware: Hardware name) and its own fields.
 *
 * A loaded colmap is the first family's map (the default, model); it owns
 * the maps of the other families, which colmap_for_export() picks by
 * export name.
 *
 * Ownership: a colmap owns all its strings and family maps; pointers
 * returned by lookups stay valid until colmap_release().
 */
#ifndef MODELCAT_COLMAP_H
#define MODELCAT_COLMAP_H

#include <stddef.h>

#include "base/error.h"

struct norm_unit;

enum colmap_type {
	COL_KEY,      /* the record's name (a model's, a card's): trimmed
			 text, required; one per family */
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
	const struct norm_unit *unit; /* COL_NUMBER with flag unit=NAME: the
				    unit of its header (read/normalise.h);
				    a cell may also carry a unit of its
				    own kind ("80 GB"); NULL: a bare number */
	int rollup;              /* COL_NUMBER with flag rollup: a cell may hold
				    one number per linked record, separated
				    by commas (norm_number_rollup()) */
	char *description;       /* one line for the data dictionary (the
				    columns file's fifth column); "" none */
} colmap_field;

typedef struct colmap_alias {
	char *header;            /* a header as it appears in an export */
	size_t field;            /* index into colmap.fields */
} colmap_alias;

typedef struct colmap {
	char *family;            /* the family's name ("model", "hardware") */
	char *key;               /* canonical name of its key field */
	char **exports;          /* NULL-terminated patterns (fnmatch) of the
				    export names of this family */
	char *renames;           /* the rename evidence of this family beyond
				    the name (families.tsv's 4th column):
				    rules separated by '|', each the fields a
				    vanished record and a new row must share,
				    separated by '+'; "" none */
	colmap_field *fields;    /* canonical fields, in file order */
	size_t nfields;          /* entries in fields */
	colmap_alias *aliases;   /* canonical names and aliases, sorted by header */
	size_t naliases;         /* entries in aliases */
	char digest[65];         /* SHA-256 of the map's files: a row read with
				    another map may normalise differently */
	struct colmap *others;   /* the first family's map only: the maps of
				    the other families, in file order */
	size_t nothers;          /* entries in others */
} colmap;

/* The model family's rename evidence when there is no families.tsv. */
#define COLMAP_MODEL_RENAMES "Link+Publication date|Reference+Publication date"

/*
 * Load the maps from dir/families.tsv (family<TAB>columns file<TAB>export
 * patterns separated by |[<TAB>rename evidence]), each family's columns file, and
 * dir/enumerations.tsv. Without families.tsv, dir/columns.tsv is the one
 * family "model". Returns 0, or -1 with a message naming file and line
 * in err.
 */
int colmap_load(colmap *map, const char *dir, mc_err *err);
void colmap_release(colmap *map);
/* The key field of the default family (the models': "Model") of the data
 * folder's pipelines/ (base/paths.h), into *key (the caller frees it).
 * 0, or -1 (err). */
int colmap_default_key(char **key, mc_err *err);

/* The map of the family the export name belongs to: the first family
 * whose patterns match it, else map itself (the default family). Valid as
 * long as map. */
const colmap *colmap_for_export(const colmap *map, const char *export_name);
/* The map of the family named family, or NULL. */
const colmap *colmap_family(const colmap *map, const char *family);

/* The canonical field for a header (trimmed, exact match), or NULL. */
const colmap_field *colmap_lookup(const colmap *map, const char *header);
/* The canonical field by its canonical name only, or NULL. */
const colmap_field *colmap_field_named(const colmap *map, const char *name);

const char *colmap_type_name(enum colmap_type type);
/* The type colmap_type_name() names s into *type: 0, or -1 for no type. */
int colmap_type_parse(const char *s, enum colmap_type *type);

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

/* Read dir/guards.tsv into *g (every guard must be given, each once: a
 * guard on two lines is an error naming both). Returns 0, or
 * -1 with a message naming file and line in err. */
int colmap_guards_read(const char *dir, colmap_guards *g, mc_err *err);

#endif
