/*
 * kind: which family's record a name means, for show, history and search
 * (--kind model|hardware). A model and a card (ml_hardware) may share a
 * name; records of two families never merge (pipelines/families.tsv). A
 * name that is a record of one family only needs no --kind; one that is
 * both is a usage error naming the two, unless --kind picks one.
 *
 * Errors: the functions print their own messages, prefixed by program,
 * and return an exit status (base/error.h).
 */
#ifndef MODELCAT_KIND_H
#define MODELCAT_KIND_H

#include "db/history.h"
#include "db/query.h"

/* The words --kind takes: the families of pipelines/families.tsv. */
extern const char *const kind_words[];

/* The --kind entry of an option table: const char ** (NULL: not given). */
#define OPT_KIND(to) \
	{ .name = "kind", .arg = "KIND", .type = OPT_CHOICE, .dest = (to), \
	  .choices = kind_words, \
	  .help = "model or hardware: which of the two NAME means\n" \
		  "when a model and a card share it" }

/*
 * The record called name as it stood on day (YYYY-MM-DD), of the family
 * kind ("model", "hardware"; NULL: of whichever family has it), into m
 * (the caller releases it). Exit status: 0 found; 2 a model and a card of
 * that name and no kind (the two are listed on stderr); 3 none (with up
 * to five close names of that family suggested; shown as the date
 * as_of_text), or failure.
 */
int kind_show(const char *program, catalogue *cat, const char *name, const char *day,
	      const char *as_of_text, const char *kind, model_view *m);

/*
 * The history of name (db/history.h) of the family kind (NULL: of the one
 * family that has it) into h (the caller releases it). Exit status as
 * kind_show's, "never" in place of a date.
 */
int kind_history(const char *program, catalogue *cat, const char *name, const char *kind,
		 history *h);

#endif
