#include "db/views.h"
#include "base/paths.h"

#include <limits.h>
#include <string.h>
#include <strings.h>

void views_quote(sbuf *out, const char *text, char quote)
{
	const char *p;

	sbuf_addc(out, quote);
	for (p = text; *p; p++) {
		if (*p == quote)
			sbuf_addc(out, quote);
		sbuf_addc(out, *p);
	}
	sbuf_addc(out, quote);
}

/* Can name be a column of the views? 0, or -1 (err). */
static int check_name(const char *name, mc_err *err)
{
	static const char *const added[] = { VIEWS_LAST_UPDATED, VIEWS_EXPORTS, VIEWS_OTHER,
					     "valid_from", "valid_to" };
	const unsigned char *p;
	size_t i;

	for (p = (const unsigned char *)name; *p; p++)
		if (*p == '"' || *p < 0x20 || *p == 0x7f)
			return mc_error(err, "pipelines/columns.tsv: field '%s': a view column cannot"
					" hold a double quote or a control character", name);
	for (i = 0; i < sizeof(added) / sizeof(*added); i++)
		if (!strcasecmp(name, added[i]))
			return mc_error(err, "pipelines/columns.tsv: field '%s': the views have a"
					" column of that name already", name);
	return 0;
}

/* The SQL literal '$."name"': the JSON path of field name in m.fields. */
static void add_path(sbuf *out, const char *name)
{
	sbuf tmp;

	sbuf_init(&tmp);
	sbuf_addf(&tmp, "$.\"%s\"", name);
	views_quote(out, tmp.data, '\'');
	sbuf_release(&tmp);
}

/* The value of field f in m.fields, typed, as one select-list entry. */
static void add_column(sbuf *out, const colmap_field *f)
{
	switch (f->type) {
	case COL_KEY:
		sbuf_adds(out, "m.model");
		break;
	case COL_NUMBER:
		/* an integer as INTEGER, anything else as REAL */
		sbuf_adds(out, "CAST(json_extract(m.fields, ");
		add_path(out, f->name);
		sbuf_adds(out, ") AS NUMERIC)");
		break;
	case COL_BOOL:
		sbuf_adds(out, "CASE json_extract(m.fields, ");
		add_path(out, f->name);
		sbuf_adds(out, ") WHEN 'True' THEN 1 WHEN 'False' THEN 0 END");
		break;
	case COL_LIST:
		/* items never hold a comma (the normaliser splits on them), and
		 * json_quote() escapes none: each comma is one item's end */
		sbuf_adds(out, "CASE WHEN json_type(m.fields, ");
		add_path(out, f->name);
		sbuf_adds(out, ") IS NOT NULL THEN json('[' || replace(json_quote(json_extract("
			  "m.fields, ");
		add_path(out, f->name);
		sbuf_adds(out, ")), ',', '\",\"') || ']') END");
		break;
	default: /* text, date (ISO 8601 already), enum */
		sbuf_adds(out, "json_extract(m.fields, ");
		add_path(out, f->name);
		sbuf_addc(out, ')');
	}
	sbuf_adds(out, " AS ");
	views_quote(out, f->name, '"');
}

/* The select list both views share. */
static void add_columns(sbuf *out, const colmap *map)
{
	size_t i;

	for (i = 0; i < map->nfields; i++) {
		sbuf_adds(out, "\n  ");
		add_column(out, &map->fields[i]);
		sbuf_addc(out, ',');
	}
	sbuf_adds(out, "\n  nullif(json_remove(m.fields");
	for (i = 0; i < map->nfields; i++) {
		sbuf_adds(out, ", ");
		add_path(out, map->fields[i].name);
	}
	sbuf_adds(out, "), '{}') AS ");
	views_quote(out, VIEWS_OTHER, '"');
	sbuf_adds(out, ",\n  m.last_updated AS ");
	views_quote(out, VIEWS_LAST_UPDATED, '"');
	sbuf_adds(out, ",\n  m.exports AS ");
	views_quote(out, VIEWS_EXPORTS, '"');
}

int views_sql(const colmap *map, sbuf *models, sbuf *versions, mc_err *err)
{
	size_t i;

	for (i = 0; i < map->nfields; i++)
		if (check_name(map->fields[i].name, err))
			return -1;
	sbuf_reset(models);
	sbuf_adds(models, "CREATE VIEW models AS SELECT");
	add_columns(models, map);
	sbuf_adds(models, "\nFROM model_now m");
	sbuf_reset(versions);
	sbuf_adds(versions, "CREATE VIEW model_versions AS SELECT");
	add_columns(versions, map);
	sbuf_adds(versions, ",\n  m.valid_from AS valid_from,\n  m.valid_to AS valid_to"
		  "\nFROM model_history m");
	return 0;
}

/* Does the catalogue hold the view name made by exactly sql? *same 1 or
 * 0; 0, or -1 (err). */
static int view_is(catalogue *cat, const char *name, const char *sql, int *same, mc_err *err)
{
	sqlite3_stmt *st = NULL;
	int step;

	*same = 0;
	if (catalogue_prepare(cat, &st,
			      "SELECT sql FROM sqlite_master WHERE type = 'view' AND name = ?", err))
		return -1;
	if (sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC) != SQLITE_OK) {
		sqlite3_finalize(st);
		return catalogue_fail(cat, "reading the views", err);
	}
	step = sqlite3_step(st);
	if (step == SQLITE_ROW && sqlite3_column_text(st, 0))
		*same = !strcmp((const char *)sqlite3_column_text(st, 0), sql);
	sqlite3_finalize(st);
	if (step != SQLITE_ROW && step != SQLITE_DONE)
		return catalogue_fail(cat, "reading the views", err);
	return 0;
}

/* Replace the view name by the one sql makes, unless it is that already. */
static int view_make(catalogue *cat, const char *name, const char *sql, mc_err *err)
{
	sbuf drop;
	int same, rc;

	if (view_is(cat, name, sql, &same, err))
		return -1;
	if (same)
		return 0;
	sbuf_init(&drop);
	sbuf_adds(&drop, "DROP VIEW IF EXISTS ");
	views_quote(&drop, name, '"');
	rc = catalogue_exec(cat, drop.data, err) || catalogue_exec(cat, sql, err) ? -1 : 0;
	sbuf_release(&drop);
	if (rc)
		mc_error_prefix(err, "making the view %s", name);
	return rc;
}

int views_refresh(catalogue *cat, const char *dir, mc_err *err)
{
	char path[PATH_MAX];
	colmap map;
	sbuf models, versions;
	int rc = -1;

	if (!dir) {
		paths_data_file(path, sizeof(path), "pipelines");
		dir = path;
	}
	if (colmap_load(&map, dir, err))
		return -1;
	sbuf_init(&models);
	sbuf_init(&versions);
	if (views_sql(&map, &models, &versions, err) ||
	    view_make(cat, "models", models.data, err) ||
	    view_make(cat, "model_versions", versions.data, err))
		goto out;
	rc = 0;
out:
	sbuf_release(&models);
	sbuf_release(&versions);
	colmap_release(&map);
	return rc;
}
