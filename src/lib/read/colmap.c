#include "read/colmap.h"
#include "base/util.h"
#include "base/sha256.h"

#include <errno.h>
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

static int type_parse(const char *s, enum colmap_type *type)
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

static int load_columns(colmap *map, const char *path, mc_err *err)
{
	FILE *f = fopen(path, "r");
	char *line = NULL, *parts[4];
	size_t cap = 0, fcap = 0, acap = 0, n, i;
	unsigned long lineno = 0;
	int rc = -1, got;

	if (!f) {
		mc_error(err, "%s: cannot open: %s", path, strerror(errno));
		return -1;
	}
	while ((got = next_line(f, &line, &cap, &lineno)) == 1) {
		colmap_field *field;

		n = split_tabs(line, parts, 4);
		if (n < 2) {
			mc_error(err, "%s:%lu: expected name<TAB>type[<TAB>aliases[<TAB>flags]]",
			         path, lineno);
			goto out;
		}
		if (n == 4 && strcmp(parts[3], "") && strcmp(parts[3], "volatile")) {
			mc_error(err, "%s:%lu: unknown flag '%s' (known: volatile)", path, lineno,
				 parts[3]);
			goto out;
		}
		if (map->nfields == fcap) {
			fcap = fcap ? fcap * 2 : 64;
			map->fields = xrealloc(map->fields, fcap * sizeof(*map->fields));
		}
		field = &map->fields[map->nfields];
		memset(field, 0, sizeof(*field));
		if (type_parse(parts[1], &field->type)) {
			mc_error(err, "%s:%lu: unknown type '%s'", path, lineno, parts[1]);
			goto out;
		}
		field->name = xstrdup(parts[0]);
		field->is_volatile = n == 4 && !strcmp(parts[3], "volatile");
		map->nfields++;
		alias_add(map, &acap, parts[0], map->nfields - 1);
		if (n >= 3) {
			char *alias = parts[2], *bar;

			for (;;) {
				bar = strchr(alias, '|');
				if (bar)
					*bar = '\0';
				if (*alias)
					alias_add(map, &acap, alias, map->nfields - 1);
				if (!bar)
					break;
				alias = bar + 1;
			}
		}
	}
	if (got < 0) {
		mc_error(err, "%s: cannot read: %s", path, strerror(errno));
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
		field = (colmap_field *)colmap_field_named(map, parts[0]);
		if (!field || field->type != COL_ENUM) {
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

int colmap_load(colmap *map, const char *dir, mc_err *err)
{
	sbuf path;
	int rc;

	memset(map, 0, sizeof(*map));
	sbuf_init(&path);
	sbuf_addf(&path, "%s/columns.tsv", dir);
	rc = load_columns(map, path.data, err);
	if (!rc) {
		sbuf_reset(&path);
		sbuf_addf(&path, "%s/enumerations.tsv", dir);
		rc = load_enumerations(map, path.data, err);
	}
	if (!rc) {
		char a[65], b[65];
		sha256_ctx ctx;

		sbuf_reset(&path);
		sbuf_addf(&path, "%s/columns.tsv", dir);
		rc = sha256_file(path.data, a, NULL, err);
		sbuf_reset(&path);
		sbuf_addf(&path, "%s/enumerations.tsv", dir);
		rc = rc || sha256_file(path.data, b, NULL, err);
		sha256_init(&ctx);
		sha256_update(&ctx, a, 64);
		sha256_update(&ctx, b, 64);
		sha256_final_hex(&ctx, map->digest);
	}
	sbuf_release(&path);
	if (rc)
		colmap_release(map);
	return rc ? -1 : 0;
}

void colmap_release(colmap *map)
{
	size_t i, k;

	for (i = 0; i < map->nfields; i++) {
		free(map->fields[i].name);
		for (k = 0; k < map->fields[i].nknown; k++)
			free(map->fields[i].known[k]);
		free(map->fields[i].known);
	}
	for (i = 0; i < map->naliases; i++)
		free(map->aliases[i].header);
	free(map->fields);
	free(map->aliases);
	memset(map, 0, sizeof(*map));
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
	size_t i;

	for (i = 0; i < map->nfields; i++)
		if (!strcmp(map->fields[i].name, name))
			return &map->fields[i];
	return NULL;
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
	unsigned long lineno = 0;
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
