#include "cli/nightly.h"
#include "db/snapshot.h"
#include "cli/job.h"
#include "cli/writelock.h"
#include "base/paths.h"
#include "db/query.h"
#include "out/audit.h"
#include "out/feed.h"
#include "store/catchup.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The catalogue's latest snapshot id (0 when none). */
static sqlite3_int64 latest_snapshot(catalogue *cat)
{
	sqlite3_int64 id = 0;

	if (cat->db)
		snapshot_latest_id(cat, &id, NULL);
	return id;
}

/* Is the stage program name installed beside us? */
static int program_exists(const char *name)
{
	char path[PATH_MAX];

	mc_fmt(path, sizeof(path), "%s/%s", paths_bindir(), name);
	return !access(path, X_OK);
}

/* Every stored snapshot the catalogue lacks, oldest first, each export's
 * day a file (store/catchup.h says when the catalogue has one). */
static int find_fresh(nightly *r, catalogue *cat)
{
	catchup_plan plan;
	char arg[PATH_MAX * 2];
	size_t i;

	if (catchup_find(r->store, cat, &plan, &r->err))
		return -1;
	for (i = 0; i < plan.nskipped; i++)
		job_log(r->program, "%s", plan.skipped[i]);
	r->fresh = xrealloc(r->fresh, (r->nfresh + plan.n + 1) * sizeof(*r->fresh));
	for (i = 0; i < plan.n; i++) {
		memcpy(r->fresh[r->nfresh].day, plan.files[i].day, sizeof(plan.files[i].day));
		mc_fmt(arg, sizeof(arg), "%s=%s/%s", plan.files[i].export_name, r->store,
		       plan.files[i].file);
		r->fresh[r->nfresh].arg = xstrdup(arg);
		r->nfresh++;
	}
	catchup_release(&plan);
	return 0;
}

/* Run a stage with MODELCAT_DB set to the work copy; its exit status, or
 * -1 (r->err). */
static int stage(nightly *r, char **argv, sbuf *out)
{
	char env_db[PATH_MAX + 16];
	char *env[] = { env_db, NULL };

	mc_fmt(env_db, sizeof(env_db), "MODELCAT_DB=%s", r->work);
	return job_run(paths_bindir(), argv, env, out, &r->err);
}

/* Ingest the new files into the work copy, one snapshot per day; sets
 * *quarantined when rows were. 0, or -1 (r->err). */
static int ingest_fresh(nightly *r, int *quarantined)
{
	size_t i, j;

	*quarantined = 0;
	for (i = 0; i < r->nfresh; i = j) {
		char **argv = xcalloc(r->nfresh + 5, sizeof(*argv));
		size_t n = 0;
		int status;

		argv[n++] = (char *)"modelcat-ingest";
		argv[n++] = (char *)"--as-of";
		argv[n++] = r->fresh[i].day;
		for (j = i; j < r->nfresh && !strcmp(r->fresh[j].day, r->fresh[i].day); j++)
			argv[n++] = r->fresh[j].arg;
		status = stage(r, argv, NULL);
		free(argv);
		if (status == 1)
			*quarantined = 1;
		else if (status != 0) {
			if (status > 0)
				mc_error(&r->err, "ingest failed (exit %d)", status);
			return -1;
		}
	}
	return 0;
}

/* Write text to the file path (created or replaced). 0, or -1 (err). */
static int write_text(const char *path, const sbuf *text, mc_err *err)
{
	FILE *f = fopen(path, "wb");
	int short_write;

	if (!f)
		return mc_error(err, "%s: cannot write: %s", path, strerror(errno));
	/* fclose() once, whatever happened: a second one is undefined */
	short_write = fwrite(text->data, 1, text->len, f) != text->len;
	if (fclose(f) || short_write)
		return mc_error(err, "%s: cannot write: %s", path, strerror(errno));
	return 0;
}

/* The audit of this run's snapshot(s), in the build folder. */
static int build_audit(nightly *r, catalogue *work, sqlite3_int64 from)
{
	static const char *const kinds[] = { "txt", "json", "html" };
	const char *to = r->fresh[r->nfresh - 1].day;
	char dir[PATH_MAX], path[PATH_MAX + 32];
	diff_result d;
	size_t k;
	int rc = -1;

	mc_fmt(dir, sizeof(dir), "%s/audit", r->build);
	if (mkdir(dir, 0755) && errno != EEXIST) {
		mc_error(&r->err, "%s: cannot create: %s", dir, strerror(errno));
		return -1;
	}
	if (query_diff_snapshots(work, from, latest_snapshot(work), &d, &r->err))
		return -1;
	r->added = d.added.n;
	r->removed = d.removed.n;
	r->renamed = d.renamed.n;
	r->changed = d.changed.n;
	r->quarantined = d.quarantined.n;
	for (k = 0; k < 3; k++) {
		sbuf text;

		sbuf_init(&text);
		if (k == 0)
			audit_text(&d, &text);
		else if (k == 1)
			audit_json(&d, &text);
		else
			audit_html(&d, &text);
		mc_fmt(path, sizeof(path), "%s/%s.%s", dir, to, kinds[k]);
		rc = write_text(path, &text, &r->err);
		sbuf_release(&text);
		if (rc)
			break;
	}
	diff_result_release(&d);
	return rc;
}

static void summary(const nightly *r, const struct timespec *start)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	job_log(r->program, "summary: %lu sources fetched, %zu added, %zu removed, %zu renamed,"
		" %zu changed, %zu quarantined, %lu pages written, %.2f seconds", r->sources,
		r->added, r->removed, r->renamed, r->changed, r->quarantined, r->pages,
		(double)(now.tv_sec - start->tv_sec) + (now.tv_nsec - start->tv_nsec) / 1e9);
}

/* Remove the build folders (DIR/.build-PID) of runs that were killed. */
static void remove_stale_builds(const char *out)
{
	char path[PATH_MAX];
	struct dirent *e;
	DIR *d = opendir(out);

	if (!d)
		return;
	while ((e = readdir(d))) {
		char *end;
		long pid;

		if (strncmp(e->d_name, ".build-", 7))
			continue;
		errno = 0;
		pid = strtol(e->d_name + 7, &end, 10);
		if (errno || pid <= 0 || *end)
			continue;
		if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		mc_fmt(path, sizeof(path), "%s/%s", out, e->d_name);
		job_remove_tree(path);
	}
	closedir(d);
}

/* Set when the run's copy could not be installed because another program
 * held or changed the catalogue: the run exits 75, not 3. */
static int install_conflict;

/* Everything after the fetch: ingest into the work copy, translate,
 * render, audit, publish, and put the copy in place. */
static int update(nightly *r, sqlite3_int64 before, int *quarantined)
{
	catalogue work;
	catalogue_stamp seen = { 0 };
	char dir[PATH_MAX], pages_out[PATH_MAX], audit_out[PATH_MAX];
	unsigned long written;
	int status, rc = -1, opened = 0;

	mc_fmt(r->work, sizeof(r->work), "%s.run-%ld", r->target, (long)getpid());
	mc_fmt(r->build, sizeof(r->build), "%s/.build-%ld", r->out, (long)getpid());
	catalogue_remove(r->work);
	mc_cleanup_add(r->work);
	if (!access(r->target, F_OK) && catalogue_copy(r->target, r->work, &seen, &r->err))
		goto out;
	if (mkdir(r->out, 0755) && errno != EEXIST) {
		mc_error(&r->err, "%s: cannot create: %s", r->out, strerror(errno));
		goto out;
	}
	if (mkdir(r->build, 0755)) {
		mc_error(&r->err, "%s: cannot create: %s", r->build, strerror(errno));
		goto out;
	}
	job_log(r->program, "ingesting %zu new export file%s", r->nfresh, r->nfresh == 1 ? "" : "s");
	if (ingest_fresh(r, quarantined))
		goto out;
	if (program_exists("modelcat-translate")) {
		char *argv[] = { (char *)"modelcat-translate", NULL, NULL, NULL };

		if (r->catalogues) {
			argv[1] = (char *)"--catalogues";
			argv[2] = (char *)r->catalogues;
		}
		status = stage(r, argv, NULL);
		if (status < 0 || status >= 2) {
			if (status >= 2)
				mc_error(&r->err, "translate failed (exit %d)", status);
			goto out;
		}
	}
	if (program_exists("modelcat-render")) {
		char *argv[] = { (char *)"modelcat-render", (char *)"--all", (char *)"--out", dir, NULL };

		mc_fmt(dir, sizeof(dir), "%s/pages", r->build);
		status = stage(r, argv, NULL);
		if (status != 0) {
			if (status > 0)
				mc_error(&r->err, "render failed (exit %d)", status);
			goto out;
		}
	}
	if (catalogue_open(&work, r->work, NULL, CATALOGUE_READONLY, &r->err))
		goto out;
	opened = 1;
	if (build_audit(r, &work, before))
		goto out;
	/* publish: pages, then the audit, then the feed, then the catalogue */
	mc_fmt(dir, sizeof(dir), "%s/pages", r->build);
	mc_fmt(pages_out, sizeof(pages_out), "%s/pages", r->out);
	if (!access(dir, F_OK)) {
		if (job_publish(dir, pages_out, 1, &r->pages, &r->err))
			goto out;
		job_log(r->program, "published %lu page files in %s", r->pages, pages_out);
	}
	mc_fmt(dir, sizeof(dir), "%s/audit", r->build);
	mc_fmt(audit_out, sizeof(audit_out), "%s/audit", r->out);
	if (job_publish(dir, audit_out, 0, &written, &r->err) ||
	    feed_write(&work, audit_out, &r->err))
		goto out;
	job_log(r->program, "published the audit of %s in %s", r->fresh[r->nfresh - 1].day, audit_out);
	catalogue_close(&work);
	opened = 0;
	/* copied into the live file under the writer lock, not renamed over
	 * it; refused when another program changed it since the copy */
	if (catalogue_install(r->work, r->target, &seen, r->wait, &install_conflict, &r->err))
		goto out;
	rc = 0;
out:
	if (opened)
		catalogue_close(&work);
	catalogue_remove(r->work);
	mc_cleanup_remove(r->work);
	job_remove_tree(r->build);
	return rc;
}

/* Run modelcat-fetch with the options given to the run, into the store
 * and the catalogue; counts the sources. Its exit status, or -1 (r->err). */
static int fetch(nightly *r)
{
	char **argv = xcalloc(2, sizeof(*argv));
	const opt_spec *o;
	size_t n = 0, i;
	sbuf fetched;
	int status, snapshots_given = 0;

	argv[n++] = xstrdup("modelcat-fetch");
	opt_argv(r->fetch_options, &argv, &n);
	for (o = r->fetch_options; o->name; o++)
		snapshots_given |= !strcmp(o->name, "snapshots") && o->given;
	argv = xrealloc(argv, (n + 5) * sizeof(*argv));
	if (!snapshots_given) {
		argv[n++] = xstrdup("--snapshots");
		argv[n++] = xstrdup(r->store);
	}
	argv[n++] = xstrdup("--db");
	argv[n++] = xstrdup(r->db);
	argv[n] = NULL;
	sbuf_init(&fetched);
	status = job_run(paths_bindir(), argv, NULL, &fetched, &r->err);
	for (i = 0; i < fetched.len; i++)
		r->sources += fetched.data[i] == '\n';
	sbuf_release(&fetched);
	mc_free_strings(argv, n);
	return status;
}

/* After the fetch: find what is new and, if anything, update and publish.
 * The exit status. */
static int ingest_and_publish(nightly *r)
{
	sqlite3_int64 before;
	catalogue cat;
	int quarantined = 0;

	memset(&cat, 0, sizeof(cat));
	if (!access(r->db, F_OK) &&
	    catalogue_open(&cat, r->db, NULL, CATALOGUE_READONLY, &r->err)) {
		job_log(r->program, "%s", r->err.msg);
		return MC_EXIT_FAILURE;
	}
	before = latest_snapshot(&cat);
	if (find_fresh(r, &cat)) {
		job_log(r->program, "%s", r->err.msg);
		catalogue_close(&cat);
		return MC_EXIT_FAILURE;
	}
	catalogue_close(&cat);
	if (!r->nfresh) {
		job_log(r->program, "nothing new upstream: no change");
		return MC_EXIT_OK;
	}
	if (update(r, before, &quarantined)) {
		job_log(r->program, "%s", r->err.msg);
		job_log(r->program, "the run failed; the catalogue and the published pages are as"
			" they were");
		return MC_EXIT_FAILURE;
	}
	return quarantined ? MC_EXIT_QUARANTINE : MC_EXIT_OK;
}

/* Under the lock: what killed runs left (no run is working now): their
 * catalogue copies, build folders and half-written files. */
static void remove_leftovers(const nightly *r)
{
	char prefix[PATH_MAX];

	mc_fmt(prefix, sizeof(prefix), "%s.run-", r->target);
	mc_remove_stale(prefix);
	if (!access(r->out, F_OK)) {
		remove_stale_builds(r->out);
		job_remove_stale_temps(r->out);
	}
}

int nightly_run(nightly *r)
{
	struct timespec start;
	writelock lock;
	int rc, status = MC_EXIT_FAILURE;
	size_t i;

	clock_gettime(CLOCK_MONOTONIC, &start);
	if (catalogue_target(r->db, r->target, sizeof(r->target), &r->err)) {
		job_log(r->program, "%s", r->err.msg);
		goto done;
	}
	/* the catalogue's writer lock, for the whole run; its stages get it
	 * from job_run() */
	rc = writelock_take(&lock, r->db, r->program, r->wait, &r->err);
	if (rc) {
		if (rc > 0) {
			job_log(r->program, "another writer holds the catalogue: %s; exiting",
				r->err.msg);
			status = MC_EXIT_LOCKED;
		} else {
			job_log(r->program, "%s", r->err.msg);
		}
		goto done;
	}
	remove_leftovers(r);
	job_log(r->program, "fetching into %s", r->store);
	status = fetch(r);
	if (status != 0) {
		job_log(r->program, "%s", status < 0 ? r->err.msg :
			"fetch failed; nothing ingested, nothing published");
		status = status < 3 ? MC_EXIT_FAILURE : status;
	} else {
		install_conflict = 0;
		status = ingest_and_publish(r);
		if (status == MC_EXIT_FAILURE && install_conflict)
			status = MC_EXIT_LOCKED;
	}
	writelock_release(&lock);
done:
	summary(r, &start);
	for (i = 0; i < r->nfresh; i++)
		free(r->fresh[i].arg);
	free(r->fresh);
	r->fresh = NULL;
	r->nfresh = 0;
	return status;
}
