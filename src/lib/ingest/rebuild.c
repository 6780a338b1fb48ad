#include "ingest/rebuild.h"
#include "ingest/accepting.h"
#include "db/translation.h"
#include "ingest/ingest.h"
#include "ingest/snapload.h"
#include "db/hwlink.h"
#include "store/listing.h"
#include "store/naming.h"
#include "read/input.h"
#include "base/paths.h"
#include "base/alloc.h"
#include "base/printf.h"
#include "base/text.h"
#include "base/cleanup.h"
#include "base/textout.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* By date, then export: the order the snapshots are loaded in. */
static int file_cmp(const void *a, const void *b)
{
	const rebuild_file *x = a, *y = b;
	int c = strcmp(x->date, y->date);

	return c ? c : strcmp(x->export_name, y->export_name);
}

const char *rebuild_default_store(void)
{
	static char path[PATH_MAX];
	struct stat st;

	if (!stat("snapshots", &st) && S_ISDIR(st.st_mode))
		return "snapshots";
	paths_data_file(path, sizeof(path), "snapshots");
	return path;
}

/* Add the file path (of export folder, dated date) to plan: a bundle as
 * one file per member, DIR/EXPORT/NAME.zip/MEMBER, the export the
 * member's name. 0, or -1 when a bundle cannot be listed. */
static int add_file(rebuild_plan *plan, const char *date, const char *folder, const char *path,
		    mc_err *err)
{
	char member[PATH_MAX], **members = NULL;
	size_t n = 0, k;
	rebuild_file *r;

	if (mc_ends_with(path, ".zip") && input_zip_members(path, &members, &n, err))
		return -1;
	for (k = 0; k < (n > 1 ? n : 1); k++) {
		plan->files = xrealloc(plan->files, (plan->n + 1) * sizeof(*plan->files));
		r = &plan->files[plan->n++];
		memcpy(r->date, date, sizeof(r->date));
		mc_fmt(r->export_name, sizeof(r->export_name), "%s", folder);
		if (n > 1) {
			mc_fmt(member, sizeof(member), "%s/%s", path, members[k]);
			naming_export_from_path(member, r->export_name, sizeof(r->export_name));
		}
		r->path = xstrdup(n > 1 ? member : path);
	}
	mc_free_strings(members, n);
	return 0;
}

int rebuild_scan(const char *dir, rebuild_plan *plan, mc_err *err)
{
	char path[PATH_MAX];
	store_listing l;
	size_t i, j;

	plan->files = NULL;
	plan->n = 0;
	plan->dir = NULL;
	if (store_list(dir, NULL, &l, err))
		return -1;
	plan->dir = xstrdup(dir);
	for (i = 0; i < l.n; i++) {
		const store_folder *f = &l.folders[i];

		for (j = 0; j < f->n; j++) {
			/* of one date, the last file is the day's latest content */
			if (j + 1 < f->n && !strcmp(f->files[j].date, f->files[j + 1].date))
				continue;
			mc_fmt(path, sizeof(path), "%s/%s/%s", dir, f->name, f->files[j].name);
			if (add_file(plan, f->files[j].date, f->name, path, err)) {
				store_listing_release(&l);
				rebuild_plan_release(plan);
				return -1;
			}
		}
	}
	store_listing_release(&l);
	if (plan->n)
		qsort(plan->files, plan->n, sizeof(*plan->files), file_cmp);
	return 0;
}

void rebuild_plan_release(rebuild_plan *plan)
{
	size_t i;

	for (i = 0; i < plan->n; i++)
		free(plan->files[i].path);
	free(plan->files);
	free(plan->dir);
	plan->files = NULL;
	plan->dir = NULL;
	plan->n = 0;
}

int rebuild_replaceable(const char *path)
{
	static const char magic[16] = "SQLite format 3";
	char head[16];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return errno == ENOENT;
	n = read(fd, head, sizeof(head));
	close(fd);
	return n == 0 || (n == (ssize_t)sizeof(head) && !memcmp(head, magic, sizeof(head)));
}

/* Load the files [i, end) of one date as one snapshot into cat. */
static int load_date(catalogue *cat, const rebuild_plan *plan, size_t i, size_t end,
		     char **precedence, size_t nprecedence, const colmap *map, int verbose,
		     FILE *out, rebuild_stats *stats, mc_err *err)
{
	load *ld = NULL;

	if (load_begin(cat, &ld, plan->files[i].date, err) ||
	    load_precedence(ld, precedence, nprecedence, err) || snapload_guards(ld, 0, err)) {
		load_abort(ld);
		return -1;
	}
	textout_line(out, "snapshot %s", plan->files[i].date);
	for (; i < end; i++) {
		ingest_ctx ctx = { ld, map, stderr, verbose };
		load_stats ls;

		if (ingest_file(&ctx, plan->files[i].export_name, plan->files[i].path, &ls, err)) {
			load_abort(ld);
			return -1;
		}
		fprintf(out, "  ");
		ingest_describe(plan->files[i].export_name, &ls, out);
		if (ls.held)
			stats->held++;
		else if (!ls.same_content) {
			stats->quarantined += ls.quarantined;
			stats->loaded += ls.loaded;
		}
	}
	if (hwlink_note_unmatched(ld, plan->files[end - 1].date, err)) {
		load_abort(ld);
		return -1;
	}
	if (load_commit(ld, err))
		return -1;
	stats->snapshots++;
	return 0;
}

/* Load every date of the plan into cat. */
static int load_all(catalogue *cat, const rebuild_plan *plan, const colmap *map, int verbose,
		    FILE *out, rebuild_stats *stats, mc_err *err)
{
	char dir[PATH_MAX], **names = NULL;
	size_t i, j, n = 0;
	int rc = 0;

	paths_data_file(dir, sizeof(dir), "pipelines");
	if (colmap_precedence(dir, &names, &n, err)) {
		colmap_free_list(names);
		return -1;
	}
	for (i = 0; i < plan->n && !rc; i = j) {
		for (j = i; j < plan->n && !strcmp(plan->files[j].date, plan->files[i].date); j++)
			;
		rc = load_date(cat, plan, i, j, names, n, map, verbose, out, stats, err);
	}
	colmap_free_list(names);
	return rc;
}

/* The contents accepted (--accept) in the catalogue being replaced stay
 * accepted: a file a guard holds is applied again if it was accepted. One
 * that cannot be read (a damaged catalogue) is said, not fatal: its held
 * files are held again until accepted again. */
static void carry_accepted(catalogue *cat, const char *target, FILE *out)
{
	mc_err err;

	if (load_carry_accepted(cat, target, &err))
		textout_line(out, "accepted files: not carried over (%s); a file a guard holds is"
			     " held again until accepted again", err.msg);
}

/* The page texts the catalogue being replaced had (modelcat translate's
 * merge) go into the rebuilt one, so that it can be published as it is.
 * One that cannot be read (a damaged catalogue) is said, not fatal: the
 * texts come back with the next modelcat translate or run. */
static void carry_texts(catalogue *cat, const char *target, FILE *out)
{
	size_t langs;
	mc_err err;

	if (translation_carry(cat, target, &langs, &err))
		textout_line(out, "page texts: not carried over (%s); run modelcat translate", err.msg);
	else if (langs)
		textout_line(out, "page texts: %zu language%s carried over from the catalogue it"
			     " replaces", langs, langs == 1 ? "" : "s");
}

int rebuild_run(const rebuild_plan *plan, const char *target, const colmap *map, int verbose,
		long wait, FILE *out, rebuild_stats *stats, mc_err *err)
{
	char tmp[PATH_MAX], sql[PATH_MAX];
	catalogue_stamp seen;
	catalogue cat;
	int rc = -1;

	memset(stats, 0, sizeof(*stats));
	/* what target is now: a program that does not take the writer lock
	 * (the sqlite3 shell) and commits before the install is not erased */
	if (catalogue_stamp_take(target, &seen, err))
		return -1;
	/* a rebuild that was killed left its copy: it goes first */
	mc_fmt(tmp, sizeof(tmp), "%s.reingest-", target);
	mc_remove_stale(tmp);
	mc_fmt(tmp, sizeof(tmp), "%s.reingest-%ld", target, (long)getpid());
	catalogue_remove(tmp);
	mc_cleanup_add(tmp);
	paths_data_file(sql, sizeof(sql), "sql");
	if (catalogue_open(&cat, tmp, sql, 0, err))
		goto out;
	carry_accepted(&cat, target, out);
	/* and what the store records as accepted (docs/store.md, "Acceptances") */
	if (plan->dir && accepting_import(&cat, plan->dir, NULL, err)) {
		catalogue_close(&cat);
		goto out;
	}
	rc = load_all(&cat, plan, map, verbose, out, stats, err);
	if (!rc)
		carry_texts(&cat, target, out);
	catalogue_close(&cat);
	if (!rc)
		rc = catalogue_install(tmp, target, &seen, wait, &stats->conflict, err);
out:
	mc_cleanup_remove(tmp);
	catalogue_remove(tmp);
	return rc;
}
