#include "values/colmap.h"
#include "base/util.h"
#include "base/sha256.h"
#include "base/paths.h"
#include "values/normalise.h"

#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const type_names[] = {
	[COL_KEY] = "key", [COL_TEXT] = "text", [COL_LIST] = "list",
	[COL_NUMBER] = "number", [COL_DATE] = "date", [COL_ENUM] = "enum",
	[COL_BOOL] = "bool",
};

const char *colmap_type_name(enum colmap_type type)
{
	return type_names[type];
}

int colmap_type_parse(const char *s, enum colmap_type *type)
{
	size_t i;

	for (i = 0; i < sizeof(type_names) / sizeof(type_names[0]); i++) {
		if (!strcmp(s, type_names[i])) {
			*type = (enum colmap_type)i;
			return 0;
		}
	}
	return -1;
}

static int alias_cmp(const void *a, const void *b)
{
	return strcmp(((const colmap_alias *)a)->header,
		      ((const colmap_alias *)b)->header);
}

/* Split a line at TABs in place; returns the number of parts (at most max). */
static size_t split_tabs(char *line, char **parts, size_t max)
{
	size_t n = 0;
	char *p = line;

	while (n < max) {
		char *tab = strchr(p, '\t');

		parts[n++] = p;
		if (!tab)
			break;
		*tab = '\0';
		p = tab + 1;
	}
	return n;
}

static void alias_add(colmap *map, size_t *cap, const char *header, size_t field)
{
	if (map->naliases == *cap) {
		*cap = *cap ? *cap * 2 : 64;
		map->aliases = xrealloc(map->aliases, *cap * sizeof(*map->aliases));
	}
	map->aliases[map->naliases].header = xstrdup(header);
	map->aliases[map->naliases].field = field;
	map->naliases++;
}

/* Read the next non-comment, non-blank line of f into line (newline cut).
 * Returns 1 for a line, 0 at end of file, -1 when reading failed (errno
 * says why: a read error, or no memory for the line): a file cut short by
 * a failure must not pass for a shorter file. */
static int next_line(FILE *f, char **line, size_t *cap, unsigned long *lineno)
{
	ssize_t n;

	for (;;) {
		errno = 0;
		n = getline(line, cap, f);
		if (n < 0) {
			if (ferror(f) || errno) {
				if (!errno)
					errno = EIO;
				return -1;
			}
			return 0;
		}
		(*lineno)++;
		while (n > 0 && ((*line)[n - 1] == '\n' || (*line)[n - 1] == '\r'))
			(*line)[--n] = '\0';
		if (n == 0 || (*line)[0] == '#')
			continue;
		return 1;
	}
}

/* Read the flags of a field (separated by spaces: volatile, rollup, unit=NAME)
 * into field. 0, or -1 with a message naming file and line. */
static int field_flags(colmap_field *field, char *flags, const char *path,
		       unsigned long lineno, mc_err *err)
{
	char *flag, *save = NULL;

	for (flag = strtok_r(flags, " ", &save); flag; flag = strtok_r(NULL, " ", &save)) {
		if (!strcmp(flag, "volatile")) {
			field->is_volatile = 1;
		} else if (!strcmp(flag, "rollup")) {
			if (field->type != COL_NUMBER)
				return mc_error(err, "%s:%lu: rollup on a field that is not a number",
						path, lineno);
			field->rollup = 1;
		} else if (!strncmp(flag, "unit=", 5)) {
			field->unit = norm_unit_named(flag + 5);
			if (!field->unit)
				return mc_error(err, "%s:%lu: unknown unit '%s' (known: %s)", path,
						lineno, flag + 5, norm_unit_names());
			if (field->type != COL_NUMBER)
				return mc_error(err, "%s:%lu: unit=%s on a field that is not a number",
						path, lineno, flag + 5);
		} else {
			return mc_error(err, "%s:%lu: unknown flag '%s' (known: volatile, rollup, unit=NAME)",
					path, lineno, flag);
		}
	}
	return 0;
}

static void field_aliases(colmap *map, size_t *acap, char *alias)
{
	char *bar;

	for (;;) {
		bar = strchr(alias, '|');
		if (bar)
			*bar = '\0';
		if (*alias)
			alias_add(map, acap, alias, map->nfields - 1);
		if (!bar)
			break;
		alias = bar + 1;
	}
}

static int load_columns(colmap *map, const char *path, mc_err *err)
{
	FILE *f = fopen(path, "r");
	char *line = NULL, *parts[5];
	size_t cap = 0, fcap = 0, acap = 0, n, i;
	unsigned long lineno = 0;
	int rc = -1, got;

	if (!f) {
		mc_error(err, "%s: cannot open: %s", path, strerror(errno));
		return -1;
	}
	while ((got = next_line(f, &line, &cap, &lineno)) == 1) {
		colmap_field *field;

		n = split_tabs(line, parts, 5);
		if (n < 2) {
			mc_error(err, "%s:%lu: expected name<TAB>type[<TAB>aliases[<TAB>flags"
				 "[<TAB>description]]]", path, lineno);
			goto out;
		}
		if (map->nfields == fcap) {
			fcap = fcap ? fcap * 2 : 64;
			map->fields = xrealloc(map->fields, fcap * sizeof(*map->fields));
		}
		field = &map->fields[map->nfields];
		memset(field, 0, sizeof(*field));
		if (colmap_type_parse(parts[1], &field->type)) {
			mc_error(err, "%s:%lu: unknown type '%s'", path, lineno, parts[1]);
			goto out;
		}
		if (n >= 4 && field_flags(field, parts[3], path, lineno, err))
			goto out;
		if (field->type == COL_KEY && map->key) {
			mc_error(err, "%s:%lu: a second key field '%s' (the key is '%s')", path,
				 lineno, parts[0], map->key);
			goto out;
		}
		field->name = xstrdup(parts[0]);
		field->description = xstrdup(n == 5 ? parts[4] : "");
		if (field->type == COL_KEY)
			map->key = xstrdup(parts[0]);
		map->nfields++;
		alias_add(map, &acap, parts[0], map->nfields - 1);
		if (n >= 3)
			field_aliases(map, &acap, parts[2]);
	}
	if (got < 0) {
		mc_error(err, "%s: cannot read: %s", path, strerror(errno));
		goto out;
	}
	if (!map->key) {
		mc_error(err, "%s: no key field (a field of type key)", path);
		goto out;
	}
	qsort(map->aliases, map->naliases, sizeof(*map->aliases), alias_cmp);
	for (i = 1; i < map->naliases; i++) {
		if (!strcmp(map->aliases[i - 1].header, map->aliases[i].header)) {
			mc_error(err, "%s: header '%s' is mapped twice", path,
			         map->aliases[i].header);
			goto out;
		}
	}
	rc = 0;
out:
	free(line);
	fclose(f);
	return rc;
}

/* The enum field of that name in any family, or NULL. */
static colmap_field *enum_field(colmap *map, const char *name)
{
	const colmap_field *field = colmap_field_named(map, name);
	size_t i;

	for (i = 0; (!field || field->type != COL_ENUM) && i < map->nothers; i++)
		field = colmap_field_named(&map->others[i], name);
	return field && field->type == COL_ENUM ? (colmap_field *)field : NULL;
}

static int load_enumerations(colmap *map, const char *path, mc_err *err)
{
	FILE *f = fopen(path, "r");
	char *line = NULL, *parts[2];
	size_t cap = 0;
	unsigned long lineno = 0;
	int rc = -1, got;

	if (!f) {
		mc_error(err, "%s: cannot open: %s", path, strerror(errno));
		return -1;
	}
	while ((got = next_line(f, &line, &cap, &lineno)) == 1) {
		colmap_field *field;

		if (split_tabs(line, parts, 2) != 2) {
			mc_error(err, "%s:%lu: expected field<TAB>value", path, lineno);
			goto out;
		}
		field = enum_field(map, parts[0]);
		if (!field) {
			mc_error(err, "%s:%lu: '%s' is not an enum field of the column map",
			         path, lineno, parts[0]);
			goto out;
		}
		field->known = xrealloc(field->known, (field->nknown + 2) * sizeof(char *));
		field->known[field->nknown++] = xstrdup(parts[1]);
		field->known[field->nknown] = NULL;
	}
	if (got < 0) {
		mc_error(err, "%s: cannot read: %s", path, strerror(errno));
		goto out;
	}
	rc = 0;
out:
	free(line);
	fclose(f);
	return rc;
}

/* Fill the family map fam from one line of families.tsv (parts: family,
 * columns file, patterns) and its columns file; adds the file to digest.
 * 0, or -1 (err). */
static int load_family(colmap *fam, char **parts, size_t n, const char *dir,
		       sha256_ctx *digest, mc_err *err)
{
	sbuf path;
	char hex[65], *pattern, *save = NULL;
	size_t count = 0;
	int rc;

	sbuf_init(&path);
	sbuf_addf(&path, "%s/%s", dir, parts[1]);
	rc = load_columns(fam, path.data, err);
	if (!rc)
		rc = sha256_file(path.data, hex, NULL, err);
	sbuf_release(&path);
	fam->family = xstrdup(parts[0]);
	fam->renames = xstrdup(n > 3 ? parts[3] : "");
	fam->exports = xcalloc(1, sizeof(*fam->exports));
	for (pattern = n > 2 ? strtok_r(parts[2], "|", &save) : NULL; pattern;
	     pattern = strtok_r(NULL, "|", &save)) {
		fam->exports = xrealloc(fam->exports, (count + 2) * sizeof(*fam->exports));
		fam->exports[count++] = xstrdup(pattern);
		fam->exports[count] = NULL;
	}
	if (!rc)
		sha256_update(digest, hex, 64);
	return rc ? -1 : 0;
}

/* Read dir/families.tsv into map (the first family) and map->others; a
 * missing file makes dir/columns.tsv the one family "models". */
static int load_families(colmap *map, const char *dir, sha256_ctx *digest, mc_err *err)
{
	char *line = NULL, *parts[4], model[] = "model", file[] = "columns.tsv", any[] = "*";
	char renames[] = COLMAP_MODEL_RENAMES;
	char *fallback[4] = { model, file, any, renames };
	size_t cap = 0, n;
	unsigned long lineno = 0;
	int got, rc = -1, first = 1;
	sbuf path;
	FILE *f;

	sbuf_init(&path);
	sbuf_addf(&path, "%s/families.tsv", dir);
	f = fopen(path.data, "r");
	if (!f && errno == ENOENT) {
		rc = load_family(map, fallback, 4, dir, digest, err);
		goto out;
	}
	if (!f) {
		mc_error(err, "%s: cannot open: %s", path.data, strerror(errno));
		goto out;
	}
	while ((got = next_line(f, &line, &cap, &lineno)) == 1) {
		colmap *fam = map;

		n = split_tabs(line, parts, 4);
		if (n < 2 || !*parts[0] || !*parts[1] || strchr(parts[1], '/') ||
		    colmap_family(map, parts[0])) {
			mc_error(err, "%s:%lu: expected a new family<TAB>columns file<TAB>export"
				 " patterns", path.data, lineno);
			goto out;
		}
		if (!first) {
			map->others = xrealloc(map->others, (map->nothers + 1) * sizeof(*map->others));
			fam = &map->others[map->nothers++];
			memset(fam, 0, sizeof(*fam));
		}
		first = 0;
		if (load_family(fam, parts, n, dir, digest, err))
			goto out;
	}
	if (got < 0) {
		mc_error(err, "%s: cannot read: %s", path.data, strerror(errno));
		goto out;
	}
	if (first) {
		mc_error(err, "%s: no family", path.data);
		goto out;
	}
	sha256_update(digest, "families", 8);
	rc = 0;
out:
	if (f)
		fclose(f);
	free(line);
	sbuf_release(&path);
	return rc;
}

int colmap_load(colmap *map, const char *dir, mc_err *err)
{
	sbuf path;
	sha256_ctx ctx;
	char hex[65];
	size_t i;
	int rc;

	memset(map, 0, sizeof(*map));
	sbuf_init(&path);
	sha256_init(&ctx);
	rc = load_families(map, dir, &ctx, err);
	if (!rc) {
		sbuf_addf(&path, "%s/enumerations.tsv", dir);
		rc = load_enumerations(map, path.data, err);
		rc = rc || sha256_file(path.data, hex, NULL, err);
	}
	if (!rc) {
		sha256_update(&ctx, hex, 64);
		sha256_final_hex(&ctx, map->digest);
		for (i = 0; i < map->nothers; i++)
			memcpy(map->others[i].digest, map->digest, sizeof(map->digest));
	}
	sbuf_release(&path);
	if (rc)
		colmap_release(map);
	return rc ? -1 : 0;
}

void colmap_release(colmap *map)
{
	size_t i, k;

	if (!map)
		return;
	for (i = 0; i < map->nothers; i++)
		colmap_release(&map->others[i]);
	free(map->others);
	for (i = 0; i < map->nfields; i++) {
		free(map->fields[i].name);
		free(map->fields[i].description);
		for (k = 0; k < map->fields[i].nknown; k++)
			free(map->fields[i].known[k]);
		free(map->fields[i].known);
	}
	for (i = 0; i < map->naliases; i++)
		free(map->aliases[i].header);
	colmap_free_list(map->exports);
	free(map->family);
	free(map->renames);
	free(map->key);
	free(map->fields);
	free(map->aliases);
	memset(map, 0, sizeof(*map));
}

static int family_matches(const colmap *fam, const char *export_name)
{
	size_t i;

	for (i = 0; fam->exports && fam->exports[i]; i++)
		if (!fnmatch(fam->exports[i], export_name, 0))
			return 1;
	return 0;
}

const colmap *colmap_for_export(const colmap *map, const char *export_name)
{
	size_t i;

	if (!export_name || family_matches(map, export_name))
		return map;
	for (i = 0; i < map->nothers; i++)
		if (family_matches(&map->others[i], export_name))
			return &map->others[i];
	return map;
}

const colmap *colmap_family(const colmap *map, const char *family)
{
	size_t i;

	if (map->family && !strcmp(map->family, family))
		return map;
	for (i = 0; i < map->nothers; i++)
		if (!strcmp(map->others[i].family, family))
			return &map->others[i];
	return NULL;
}

const colmap_field *colmap_lookup(const colmap *map, const char *header)
{
	colmap_alias key, *hit;

	key.header = (char *)header;
	hit = bsearch(&key, map->aliases, map->naliases, sizeof(*map->aliases), alias_cmp);
	return hit ? &map->fields[hit->field] : NULL;
}

const colmap_field *colmap_field_named(const colmap *map, const char *name)
{
	const colmap_field *f = colmap_lookup(map, name);   /* the sorted headers */

	return f && !strcmp(f->name, name) ? f : NULL;
}

int colmap_precedence(const char *dir, char ***names, size_t *n, mc_err *err)
{
	sbuf path;
	FILE *f;
	char *line = NULL;
	size_t cap = 0;
	unsigned long lineno = 0;
	int got;

	*names = xcalloc(1, sizeof(**names));
	*n = 0;
	sbuf_init(&path);
	sbuf_addf(&path, "%s/precedence.tsv", dir);
	f = fopen(path.data, "r");
	if (!f) {
		mc_error(err, "%s: cannot open: %s", path.data, strerror(errno));
		sbuf_release(&path);
		return -1;
	}
	while ((got = next_line(f, &line, &cap, &lineno)) == 1) {
		*names = xrealloc(*names, (*n + 2) * sizeof(**names));
		(*names)[(*n)++] = xstrdup(line);
		(*names)[*n] = NULL;
	}
	if (got < 0)
		mc_error(err, "%s: cannot read: %s", path.data, strerror(errno));
	free(line);
	fclose(f);
	sbuf_release(&path);
	return got < 0 ? -1 : 0;
}

void colmap_free_list(char **names)
{
	size_t i;

	if (!names)
		return;
	for (i = 0; names[i]; i++)
		free(names[i]);
	free(names);
}

/* A number from text (a percentage when pct: "5%" or "5"); 0 or -1. */
static int guard_number(const char *text, int pct, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(text, &end);
	if (pct && *end == '%')
		end++;
	if (errno || end == text || *end || *out < 0 || (!pct && *out != (double)(unsigned long)*out))
		return -1;
	return 0;
}

int colmap_guards_read(const char *dir, colmap_guards *g, mc_err *err)
{
	static const char *const names[] = { "remove", "quarantine", "columns" };
	char *line = NULL, *parts[3];
	size_t cap = 0, n, i;
	unsigned long lineno = 0, given[3] = { 0, 0, 0 };
	int got, seen = 0, rc = -1;
	sbuf path;
	FILE *f;

	memset(g, 0, sizeof(*g));
	sbuf_init(&path);
	sbuf_addf(&path, "%s/guards.tsv", dir);
	f = fopen(path.data, "r");
	if (!f) {
		mc_error(err, "%s: cannot open: %s", path.data, strerror(errno));
		goto out;
	}
	while ((got = next_line(f, &line, &cap, &lineno)) == 1) {
		double a = 0, b = 0;

		n = split_tabs(line, parts, 3);
		for (i = 0; i < 3 && (n < 1 || strcmp(parts[0], names[i])); i++)
			;
		if (i == 3 || n != (i == 2 ? 2u : 3u) || guard_number(parts[1], i < 2, &a) ||
		    (i < 2 && guard_number(parts[2], 0, &b))) {
			mc_error(err, "%s:%lu: expected remove<TAB>PERCENT<TAB>COUNT,"
				 " quarantine<TAB>PERCENT<TAB>COUNT or columns<TAB>COUNT",
				 path.data, lineno);
			goto out;
		}
		/* a guard given twice is a mistake, not a silent override */
		if (given[i]) {
			mc_error(err, "%s:%lu: the guard '%s' is given twice (lines %lu and %lu);"
				 " keep one", path.data, lineno, names[i], given[i], lineno);
			goto out;
		}
		given[i] = lineno;
		seen |= 1 << i;
		if (i == 0) {
			g->remove_pct = a;
			g->remove_min = (unsigned long)b;
		} else if (i == 1) {
			g->quarantine_pct = a;
			g->quarantine_min = (unsigned long)b;
		} else {
			g->columns = (unsigned long)a;
		}
	}
	if (got < 0) {
		mc_error(err, "%s: cannot read: %s", path.data, strerror(errno));
		goto out;
	}
	if (seen != 7) {
		mc_error(err, "%s: every guard must be given: remove, quarantine, columns", path.data);
		goto out;
	}
	g->on = 1;
	rc = 0;
out:
	if (f)
		fclose(f);
	free(line);
	sbuf_release(&path);
	return rc;
}

int colmap_default_key(char **key, mc_err *err)
{
	char dir[PATH_MAX];
	colmap map;

	paths_data_file(dir, sizeof(dir), "pipelines");
	if (colmap_load(&map, dir, err))
		return -1;
	*key = xstrdup(map.key);
	colmap_release(&map);
	return 0;
}
