/*
 * views: the typed views for people who query the catalogue with SQL
 * (docs/sql.md). `models` has one row per model as of the latest
 * snapshot, `model_versions` one row per state of a model over time
 * (valid_from, valid_to); both have one column per canonical field of the
 * column map, typed by the field's type. The merging itself is static SQL
 * (sql/008_views.sql: model_now, model_history); the column list comes
 * from the column map, so these two views are made here, as SQL text
 * generated from pipelines/columns.tsv: field names become quoted
 * identifiers and JSON paths, and no value of the catalogue is ever part
 * of the text.
 *
 * Errors: 0, or -1 with err filled (its last parameter, base/error.h).
 */
#ifndef MODELCAT_VIEWS_H
#define MODELCAT_VIEWS_H

#include "db/catalogue.h"
#include "values/colmap.h"

/* The columns every view has after the fields. */
#define VIEWS_LAST_UPDATED "Last updated" /* ISO date: last snapshot that changed the model */
#define VIEWS_EXPORTS "Exports"           /* JSON array: exports holding it, by precedence */
#define VIEWS_OTHER "Other fields"        /* JSON object: fields outside the column map */

/* Append text to out as an SQL literal quoted with quote (' for a string,
 * " for an identifier): the quote itself doubled. */
void views_quote(sbuf *out, const char *text, char quote);

/*
 * The CREATE VIEW statements (no trailing semicolon) of `models` into
 * models and of `model_versions` into versions, for the fields of map in
 * its order. -1 (err, naming the field) when a field's name cannot be a
 * column: it holds a double quote or a control character (a JSON path
 * cannot carry it), or it is one of the columns the views add.
 */
int views_sql(const colmap *map, sbuf *models, sbuf *versions, mc_err *err);

/*
 * Make `models` and `model_versions` for the column map in the folder dir
 * (pipelines/; NULL: the one paths_data_file() names), unless the
 * catalogue already has them exactly as they would be made. Runs inside
 * the caller's write transaction (a load's): the views change with the
 * data they describe, or not at all. 0, or -1 (err).
 */
int views_refresh(catalogue *cat, const char *dir, mc_err *err);

#endif
