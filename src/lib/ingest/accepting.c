#include "ingest/accepting.h"
#include "base/textout.h"
#include "db/accepted.h"
#include "store/acceptances.h"
#include "store/naming.h"
#include "base/day.h"
#include "base/util.h"

#include <limits.h>
#include <string.h>

int accepting_import(catalogue *cat, const char *dir, const char *file, mc_err *err)
{
	store_acceptances list;
	size_t i;
	int rc = 0;

	if (store_acceptances_read(dir, &list, err))
		return -1;
	for (i = 0; i < list.n && !rc; i++)
		if (!file || !strcmp(file, list.items[i].file))
			rc = accepted_add(cat, list.items[i].export_name, list.items[i].sha256,
					  list.items[i].accepted_at, err);
	store_acceptances_release(&list);
	return rc;
}

int accepting_import_args(catalogue *cat, const char *store, char *const *args, int n,
			  mc_err *err)
{
	char dir[PATH_MAX], name[NAMING_EXPORT_MAX + 1];
	const char *path, *file;
	int i;

	for (i = 0; i < n; i++)
		if (!naming_split_arg(args[i], name, sizeof(name), &path) &&
		    store_acceptance_where(store, path, dir, sizeof(dir), &file) &&
		    accepting_import(cat, dir, file, err))
			return -1;
	return 0;
}

int accepting_record(catalogue *cat, const char *store, const char *arg, const char *reason,
		     FILE *out, mc_err *err)
{
	char dir[PATH_MAX], name[NAMING_EXPORT_MAX + 1], sha[65], when[32];
	const char *path, *file;
	store_acceptance a;
	int rc;

	if (naming_split_arg(arg, name, sizeof(name), &path))
		return 0;
	if (!store_acceptance_where(store, path, dir, sizeof(dir), &file)) {
		/* a folder shaped like a store is not one: the user's, left alone */
		fprintf(out, "%s: accepted in this catalogue only: %s is not a file of the snapshot"
			" store%s%s (no ACCEPTED.tsv written; a rebuild from the store holds it"
			" again)\n", name, path, store ? " " : "", store ? store : "");
		return 0;
	}
	if ((rc = accepted_latest_content(cat, name, sha, err)))
		return rc < 0 ? -1 : 0;
	day_now(when);
	a.export_name = name;
	a.sha256 = sha;
	a.file = (char *)file;
	a.accepted_at = when;
	a.reason = (char *)reason;
	rc = store_acceptance_add(dir, &a, err);
	if (rc == 0)
		textout_line(out, "%s: acceptance recorded in %s/%s", name, dir, STORE_ACCEPTANCES);
	return rc < 0 ? -1 : 0;
}
