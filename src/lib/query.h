/*
 * query: reading the catalogue's history: exports as they stood on a
 * date, a model's merged record, its history, and what changed between
 * two dates.
 */
#ifndef MODELCAT_QUERY_H
#define MODELCAT_QUERY_H

#include "catalogue.h"

/*
 * Write export_name as it stood on as_of (YYYY-MM-DD) as CSV to out:
 * canonical column names of that snapshot's header, then every loaded row
 * in file order with normalised values. Returns 0, 1 when the catalogue
 * holds no such export on or before that date, -1 on error.
 */
int query_export_csv(catalogue *cat, const char *export_name, const char *as_of, sbuf *out);

#endif
