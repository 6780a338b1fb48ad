#include "store/catchup.h"
#include "store/check.h"
#include "store/listing.h"
#include "store/naming.h"
#include "read/input.h"
#include "db/snapshot.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>

/* By day, then export: the order the files are ingested in. */
static int file_cmp(const void *a, const void *b)
{
	const catchup_file *x = a, *y = b;
	int c = strcmp(x->day, y->day);

	return c ? c : strcmp(x->export_name, y->export_name);
}

static void add(catchup_plan *plan, const store_folder *f, const store_file *sf)
{
	char file[PATH_MAX];
	catchup_file *c;

	plan->files = xrealloc(plan->files, (plan->n + 1) * sizeof(*plan->files));
	c = &plan->files[plan->n++];
	memcpy(c->day, sf->date, sizeof(c->day));
	mc_fmt(c->export_name, sizeof(c->export_name), "%s", f->name);
	mc_fmt(file, sizeof(file), "%s/%s", f->name, sf->name);
	c->file = xstrdup(file);
}

/* The members of the bundle sf (of folder f, in the store dir) that the
 * catalogue lacks, each "FOLDER/NAME.zip/MEMBER" as the export the
 * member's name gives. 0, or -1. */
static int find_bundle(const char *dir, catalogue *cat, const store_folder *f,
		       const store_file *sf, char **members, size_t n, catchup_plan *plan,
		       mc_err *err)
{
	char member[PATH_MAX], path[PATH_MAX], export_name[NAMING_EXPORT_MAX + 1], sha[65];
	snapshot_export_info have;
	unsigned long long bytes;
	store_file one;
	size_t k;
	int rc = 1;

	for (k = 0; k < n; k++) {
		snapshot_export_filter filter = { export_name, 0, 0, NULL, 0 };

		mc_fmt(member, sizeof(member), "%s/%s", sf->name, members[k]);
		mc_fmt(path, sizeof(path), "%s/%s/%s", dir, f->name, member);
		if (naming_export_from_path(path, export_name, sizeof(export_name)))
			return mc_error(err, "%s: the member's name is not an export's name", path);
		if (cat->db && (rc = snapshot_export_latest(cat, &filter, &have, err)) < 0)
			return -1;
		if (!rc && strcmp(sf->date, have.as_of) < 0)
			continue;
		if (!rc && !strcmp(sf->date, have.as_of)) {
			if (input_file_sha256(path, sha, &bytes, err))
				return -1;
			if (!strcmp(sha, have.sha256))
				continue;
		}
		memcpy(one.date, sf->date, sizeof(one.date));
		one.name = member;
		add(plan, f, &one);
		mc_fmt(plan->files[plan->n - 1].export_name,
		       sizeof(plan->files[plan->n - 1].export_name), "%s", export_name);
	}
	return 0;
}

/* The files of export folder f that the catalogue lacks, into plan. */
static int find_export(const char *dir, const store_check *sc, catalogue *cat,
		       const store_folder *f, catchup_plan *plan, mc_err *err)
{
	snapshot_export_filter filter = { f->name, 0, 0, NULL, 0 };
	snapshot_export_info have;
	char file[PATH_MAX], sha[65];
	size_t j;
	int rc = 1;

	for (j = 0; j < f->n; j++) {
		mc_fmt(file, sizeof(file), "%s/%s", f->name, f->files[j].name);
		if (store_check_entry(sc, file, err))
			return -1;
	}
	if (cat->db && (rc = snapshot_export_latest(cat, &filter, &have, err)) < 0)
		return -1;
	for (j = 0; j < f->n; j++) {
		const store_file *sf = &f->files[j];
		int c;

		/* of one date, the last file is the day's latest content */
		if (j + 1 < f->n && !strcmp(sf->date, f->files[j + 1].date))
			continue;
		mc_fmt(file, sizeof(file), "%s/%s", f->name, sf->name);
		if (mc_ends_with(sf->name, ".zip")) {
			char path[PATH_MAX], **members = NULL;
			size_t n = 0;

			mc_fmt(path, sizeof(path), "%s/%s", dir, file);
			if (input_zip_members(path, &members, &n, err))
				return -1;
			c = n > 1 ? store_check_file(sc, file, sha, NULL, err) ||
				    find_bundle(dir, cat, f, sf, members, n, plan, err) : 0;
			mc_free_strings(members, n);
			if (c)
				return -1;
			if (n > 1)
				continue;
		}
		c = rc ? 1 : strcmp(sf->date, have.as_of);
		if (c < 0)
			continue;
		if (store_check_file(sc, file, sha, NULL, err))
			return -1;
		if (c == 0 && !strcmp(sha, have.sha256))
			continue;
		add(plan, f, sf);
	}
	return 0;
}

/* Leave out the new files dated before the catalogue's latest snapshot. */
static int leave_out_older(const char *dir, catalogue *cat, catchup_plan *plan, mc_err *err)
{
	char latest[11] = "", msg[PATH_MAX + 128];
	size_t i, kept = 0;

	if (cat->db && snapshot_latest_day(cat, latest, err) < 0)
		return -1;
	for (i = 0; i < plan->n; i++) {
		catchup_file *c = &plan->files[i];

		if (strcmp(c->day, latest) >= 0) {
			plan->files[kept++] = *c;
			continue;
		}
		mc_fmt(msg, sizeof(msg), "%s/%s: dated %s, before the catalogue's latest snapshot"
		       " (%s): not ingested (reingest includes it)", dir, c->file, c->day, latest);
		plan->skipped = xrealloc(plan->skipped, (plan->nskipped + 1) * sizeof(char *));
		plan->skipped[plan->nskipped++] = xstrdup(msg);
		free(c->file);
	}
	plan->n = kept;
	return 0;
}

int catchup_find(const char *dir, catalogue *cat, catchup_plan *plan, mc_err *err)
{
	store_listing l = { NULL, 0 };
	store_check sc;
	size_t i;
	int rc = -1;

	memset(plan, 0, sizeof(*plan));
	if (store_check_open(&sc, dir, err))
		goto out;
	if (store_list(dir, NULL, &l, err))
		goto out;
	for (i = 0; i < l.n; i++)
		if (find_export(dir, &sc, cat, &l.folders[i], plan, err))
			goto out;
	if (plan->n)
		qsort(plan->files, plan->n, sizeof(*plan->files), file_cmp);
	rc = leave_out_older(dir, cat, plan, err);
out:
	store_listing_release(&l);
	store_check_release(&sc);
	if (rc)
		catchup_release(plan);
	return rc;
}

void catchup_release(catchup_plan *plan)
{
	size_t i;

	for (i = 0; i < plan->n; i++)
		free(plan->files[i].file);
	free(plan->files);
	mc_free_strings(plan->skipped, plan->nskipped);
	memset(plan, 0, sizeof(*plan));
}
