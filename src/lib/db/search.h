/*
 * search: the rows a search (or a suggestion for a name not found) ranks:
 * every model on record on a date, or ever, with its organisation,
 * publication date and former names. The ranking itself compares search
 * keys in C (cli/suggest.h); this module only reads the catalogue.
 *
 * Ownership: search_models() fills an array the caller frees with
 * search_models_release(); every string in it is owned by it.
 * Errors: fills err, the last parameter, and returns -1.
 */
#ifndef MODELCAT_SEARCH_H
#define MODELCAT_SEARCH_H

#include <stddef.h>
#include "db/catalogue.h"

/* One model a search may find. */
typedef struct search_model {
	char *name;                  /* its name, "NAME#n" for a repeated name's n-th row */
	char *organization;          /* Organization (a comma-separated list; a
					card's Manufacturer), NULL if none */
	char *date;                  /* Publication date (a card's Release
					date), NULL if none */
	char *family;                /* its family (pipelines/families.tsv):
					"model", "hardware" */
	char **formers;              /* names it had before (renames), owned */
	size_t nformers;             /* entries in formers */
} search_model;

/*
 * The models on record on as_of (YYYY-MM-DD), or with as_of NULL every
 * model that was ever on record under the name it had last, sorted by
 * name; organisation and publication date from the version of the export
 * first in precedence that has them (as of as_of, or the last version).
 * 0 or -1.
 */
int search_models(catalogue *cat, const char *as_of, search_model **out, size_t *n,
		  mc_err *err);
/* The same for the records of one family (NULL: all). */
int search_models_family(catalogue *cat, const char *as_of, const char *family,
			 search_model **out, size_t *n, mc_err *err);
void search_models_release(search_model *models, size_t n);

#endif
