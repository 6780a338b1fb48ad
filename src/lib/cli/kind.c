#include "cli/kind.h"
#include "cli/stage.h"
#include "cli/suggest.h"
#include "values/colmap.h"
#include "base/paths.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

const char *const kind_words[] = { "model", "hardware", NULL };

/* The column maps of every family into map. 0, or an exit status. */
static int load_families(const char *program, colmap *map)
{
	char dir[PATH_MAX];
	mc_err err;

	paths_data_file(dir, sizeof(dir), "pipelines");
	if (colmap_load(map, dir, &err)) {
		stage_error(program, "%s", err.msg);
		return MC_EXIT_FAILURE;
	}
	return 0;
}

/* The i-th family of map (0: map itself). */
static const colmap *family_at(const colmap *map, size_t i)
{
	return i ? &map->others[i - 1] : map;
}

/* A name that is a record of two families and no --kind: the usage error. */
static int both(const char *program, const char *name, const char *first, const char *second)
{
	return stage_usage_error(program, "'%s' is both a %s and a %s record: give --kind %s"
				 " or --kind %s", name, first, second, first, second);
}

int kind_show(const char *program, catalogue *cat, const char *name, const char *day,
	      const char *as_of_text, const char *kind, model_view *m)
{
	const char *found = NULL;
	model_view one;
	colmap map;
	mc_err err;
	size_t i;
	int rc, status;

	memset(m, 0, sizeof(*m));
	if ((status = load_families(program, &map)))
		return status;
	status = MC_EXIT_FAILURE;
	for (i = 0; i <= map.nothers; i++) {
		const colmap *fam = family_at(&map, i);

		if (kind && strcmp(kind, fam->family))
			continue;
		rc = query_model_family(cat, name, day, fam->key, &one, &err);
		if (rc < 0) {
			stage_error(program, "%s", err.msg);
			model_view_release(&one);
			goto out;
		}
		if (rc > 0) {
			model_view_release(&one);
			continue;
		}
		if (found) {
			model_view_release(&one);
			status = both(program, name, found, fam->family);
			goto out;
		}
		found = fam->family;
		*m = one;
	}
	if (found) {
		status = MC_EXIT_OK;
		goto out;
	}
	stage_error(program, "no %s named '%s' on %s (see modelcat history)",
		    kind ? kind : "model or hardware", name, as_of_text);
	suggest_did_you_mean_family(program, cat, name, day, kind);
out:
	if (status != MC_EXIT_OK)
		model_view_release(m);
	colmap_release(&map);
	return status;
}

/* history_keep()'s test: the export is of the family asked for. */
struct keep_family {
	const colmap *map;          /* every family's map */
	const char *family;         /* the family kept */
};

static int keep_family(const char *export_name, void *arg)
{
	const struct keep_family *k = arg;

	return !strcmp(colmap_for_export(k->map, export_name)->family, k->family);
}

int kind_history(const char *program, catalogue *cat, const char *name, const char *kind,
		 history *h)
{
	struct keep_family keep;
	const char *first = NULL, *family;
	colmap map;
	mc_err err;
	size_t i;
	int rc, status;

	if ((status = load_families(program, &map)))
		return status;
	rc = history_read(cat, name, h, &err);
	status = MC_EXIT_FAILURE;
	if (rc < 0) {
		stage_error(program, "%s", err.msg);
		goto out;
	}
	for (i = 0; !rc && !kind && i < h->records.n + h->quarantined.n; i++) {
		family = colmap_for_export(&map, i < h->records.n ? h->records.items[i].export
					   : h->quarantined.items[i - h->records.n].export)->family;
		if (!first)
			first = family;
		else if (strcmp(first, family)) {
			status = both(program, name, first, family);
			goto out;
		}
	}
	if (!rc && kind) {
		keep.map = &map;
		keep.family = kind;
		history_keep(h, keep_family, &keep);
		rc = h->records.n || h->quarantined.n ? 0 : 1;
	}
	if (!rc) {
		status = MC_EXIT_OK;
		goto out;
	}
	stage_error(program, "no %s was ever named '%s'", kind ? kind : "model or hardware", name);
	suggest_did_you_mean_family(program, cat, name, NULL, kind);
out:
	colmap_release(&map);
	return status;
}
