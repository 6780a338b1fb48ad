/*
 * accepting: the snapshot store's acceptances (store/acceptances.h) in a
 * load. Before a load, the acceptances of the stores its files come from
 * are brought into the catalogue, so that a file someone accepted is
 * applied again (reingest, run's catch-up); after an ingest --accept has
 * committed, each file of a store that it applied although a guard held
 * it is recorded in that store's ACCEPTED.tsv (docs/store.md,
 * "Acceptances").
 *
 * Errors: 0, or -1 with err filled (its last parameter, base/error.h).
 */
#ifndef MODELCAT_ACCEPTING_H
#define MODELCAT_ACCEPTING_H

#include <stdio.h>
#include "db/catalogue.h"

/* Bring the acceptances of the store at dir into cat (none: nothing):
 * all of them (file NULL), or those of the file (relative to dir). */
int accepting_import(catalogue *cat, const char *dir, const char *file, mc_err *err);

/* The same for each argument ("[EXPORT=]FILE") that is a file of the
 * store at store (store/acceptances.h, store_acceptance_where(): the
 * store is named, never guessed from a path's shape; NULL: none): the
 * acceptances of that file. */
int accepting_import_args(catalogue *cat, const char *store, char *const *args, int n,
			  mc_err *err);

/*
 * The argument arg (its export's content now the latest in cat) was
 * applied although a guard held it, for reason: when its file is in the
 * store at store, record that in the store's ACCEPTED.tsv, unless it is
 * there, and say so on out; a file elsewhere (even in a folder shaped like
 * a store) is accepted in cat only, which out says, and no file is
 * written beside it. 0, or -1.
 */
int accepting_record(catalogue *cat, const char *store, const char *arg, const char *reason,
		     FILE *out, mc_err *err);

#endif
