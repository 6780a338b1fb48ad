/*
 * credit: the licence and citation a bundle's README.md carries, stored
 * with a snapshot (table snapshot_credit, sql/009_credit.sql) and read
 * back where the data is credited.
 *
 * Errors: 0, or -1 with err filled (its last parameter, base/error.h).
 */
#ifndef MODELCAT_CREDIT_H
#define MODELCAT_CREDIT_H

#include "db/catalogue.h"
#include "db/load.h"

/* What a bundle credits. The strings are never NULL ("" when empty). */
typedef struct credit {
	const char *file;           /* the bundle */
	const char *citation;       /* the citation, one line */
	const char *licence;        /* the licence paragraph */
	const char *readme;         /* the README.md as it was */
} credit;

/* Store c with the snapshot ld is writing (inside its transaction; a
 * second bundle of the same snapshot replaces the first). 0 or -1. */
int credit_store(load *ld, const credit *c, mc_err *err);

/* The citation of snapshot id into *citation (a new string, the caller
 * frees it): 0; 1 when it has none (*citation NULL); -1 on error. */
int credit_citation(catalogue *cat, sqlite3_int64 id, char **citation, mc_err *err);

/* The citation of the latest snapshot dated on or before day that has
 * one: as credit_citation(). */
int credit_citation_upto(catalogue *cat, const char *day, char **citation, mc_err *err);

#endif
