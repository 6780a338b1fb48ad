#include "db/search.h"
#include "db/query.h"
#include "values/colmap.h"
#include "base/paths.h"

#include <limits.h>

#include <stdlib.h>
#include <string.h>

/* A new model named name (occurrence > 1: "name#occurrence") of family at
 * the end of the array. */
static search_model *push_model(search_model **out, size_t *n, const char *name, long occurrence,
				const char *family)
{
	search_model *m;
	sbuf s;

	*out = xrealloc(*out, (*n + 1) * sizeof(**out));
	m = &(*out)[(*n)++];
	memset(m, 0, sizeof(*m));
	sbuf_init(&s);
	sbuf_adds(&s, name);
	if (occurrence > 1)
		sbuf_addf(&s, "#%ld", occurrence);
	m->name = sbuf_detach(&s, NULL);
	m->family = xstrdup(family);
	return m;
}

/* The entry of the same name, occurrence and family among the last
 * pushed ones of that name and occurrence [from, n), or NULL. */
static search_model *find_family(search_model *models, size_t from, size_t n, const char *family)
{
	for (; from < n; from++)
		if (!strcmp(models[from].family, family))
			return &models[from];
	return NULL;
}

/* Read the rows: one per version, grouped by name and occurrence, the
 * export first in precedence (then the latest version) first; a model and
 * a card of one name are two entries (their families, map's, differ).
 * only: the one family to keep, or NULL. A card's organisation is its
 * Manufacturer, its date its Release date. */
static int read_rows(catalogue *cat, const char *as_of, const colmap *map, const char *only,
		     search_model **out, size_t *n, mc_err *err)
{
	sqlite3_stmt *st = NULL;
	search_model *m;
	sbuf last;
	size_t group = 0;
	long last_occurrence = 0;
	int step;

	if (catalogue_prepare(cat, &st,
			      "SELECT v.name, r.occurrence,"
			      " coalesce(json_extract(v.norm, '$.\"Organization\"'),"
			      "  json_extract(v.norm, '$.\"Manufacturer\"')),"
			      " coalesce(json_extract(v.norm, '$.\"Publication date\"'),"
			      "  json_extract(v.norm, '$.\"Release date\"')), r.export"
			      " FROM version v JOIN record r ON r.id = v.record_id"
			      " LEFT JOIN precedence p ON p.export = r.export"
			      " WHERE v.tombstone = 0 AND v.name IS NOT NULL AND (?1 IS NULL"
			      "  OR (v.valid_from <= ?1 AND (v.valid_to IS NULL OR v.valid_to > ?1)))"
			      " ORDER BY v.name, r.occurrence, coalesce(p.rank, 1000000), r.export,"
			      " v.valid_from DESC", err))
		return -1;
	if (as_of && sqlite3_bind_text(st, 1, as_of, -1, SQLITE_TRANSIENT) != SQLITE_OK) {
		sqlite3_finalize(st);
		return catalogue_fail(cat, "binding the date", err);
	}
	sbuf_init(&last);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		long occurrence = (long)sqlite3_column_int64(st, 1);
		const char *family = colmap_for_export(map, (const char *)sqlite3_column_text(st, 4))->family;

		if (only && strcmp(only, family))
			continue;
		if (!*n || strcmp(last.data, name) || occurrence != last_occurrence) {
			group = *n;
			sbuf_reset(&last);
			sbuf_adds(&last, name);
			last_occurrence = occurrence;
		}
		m = find_family(*out, group, *n, family);
		if (!m)
			m = push_model(out, n, name, occurrence, family);
		if (!m->organization)
			m->organization = catalogue_column_dup(st, 2);
		if (!m->date)
			m->date = catalogue_column_dup(st, 3);
	}
	sqlite3_finalize(st);
	sbuf_release(&last);
	return step == SQLITE_DONE ? 0 : catalogue_fail(cat, "reading the models", err);
}

/* Give each model named f->name (its first row) the former name. */
static void attach_former(search_model *models, size_t n, const former_name *f)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(models[i].name, f->name)) {
			models[i].formers = xrealloc(models[i].formers,
						     (models[i].nformers + 1) * sizeof(char *));
			models[i].formers[models[i].nformers++] = xstrdup(f->former);
			return;
		}
}

int search_models(catalogue *cat, const char *as_of, search_model **out, size_t *n,
		  mc_err *err)
{
	return search_models_family(cat, as_of, NULL, out, n, err);
}

int search_models_family(catalogue *cat, const char *as_of, const char *family,
			 search_model **out, size_t *n, mc_err *err)
{
	former_name *formers = NULL;
	size_t nformers = 0, i;
	char dir[PATH_MAX];
	colmap map;
	int rc;

	*out = NULL;
	*n = 0;
	paths_data_file(dir, sizeof(dir), "pipelines");
	if (colmap_load(&map, dir, err))
		return -1;
	rc = read_rows(cat, as_of, &map, family, out, n, err);
	colmap_release(&map);
	if (rc ||
	    query_former_names(cat, as_of ? as_of : "9999-12-31", &formers, &nformers, err)) {
		search_models_release(*out, *n);
		*out = NULL;
		*n = 0;
		return -1;
	}
	for (i = 0; i < nformers; i++)
		attach_former(*out, *n, &formers[i]);
	former_names_release(formers, nformers);
	return 0;
}

void search_models_release(search_model *models, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(models[i].name);
		free(models[i].organization);
		free(models[i].date);
		free(models[i].family);
		mc_free_strings(models[i].formers, models[i].nformers);
	}
	free(models);
}
