/*
 * paths: where modelcat finds its configuration (pipelines/), schema (sql/)
 * and catalogue. Works from a repository checkout and from an installed
 * PREFIX alike.
 */
#ifndef MODELCAT_PATHS_H
#define MODELCAT_PATHS_H

#include <stddef.h>

/*
 * The folder holding pipelines/ and sql/: $MODELCAT_DATADIR if set; else,
 * looking up from the running program's folder, the first of ".." "../.."
 * "../../.." that has pipelines/columns.tsv; else ../share/modelcat.
 * Returns a static string.
 */
const char *paths_datadir(void);
/* The folder the running program lives in (static string). */
const char *paths_bindir(void);
/* The catalogue when no --db names one: $MODELCAT_DB, else ./modelcat.db
 * (a static string or the environment's). A stage asks once, in its
 * option handling (cli/options.h OPT_CATALOGUE), and passes the path on. */
const char *paths_db(void);
/* Write "datadir/sub" into buf. */
void paths_data_file(char *buf, size_t len, const char *sub);

#endif
