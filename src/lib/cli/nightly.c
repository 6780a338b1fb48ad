#include "cli/nightly.h"
#include "base/sbuf.h"
#include "base/alloc.h"
#include "base/printf.h"
#include "base/cleanup.h"
#include "db/snapshot.h"
#include "cli/job.h"
#include "cli/writelock.h"
#include "base/paths.h"
#include "db/query.h"
#include "publish/audit.h"
#include "publish/site.h"
#include "store/catchup.h"
#include "store/store.h"

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
static catalogue_id latest_snapshot(catalogue *cat)
{
	catalogue_id id = 0;

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

/* Is one of the files r->fresh[from, to) of export (its argument
 * EXPORT=FILE)? */
static int has_export(const nightly *r, size_t from, size_t to, const char *export)
{
	size_t len = strlen(export);

	for (; from < to; from++)
		if (!strncmp(r->fresh[from].arg, export, len) && r->fresh[from].arg[len] == '=')
			return 1;
	return 0;
}

/* Ingest the new files into the work copy, one snapshot per day; sets
 * *quarantined when rows were. 0, or -1 (r->err). */
static int ingest_fresh(nightly *r, int *quarantined)
{
	size_t i, end;

	*quarantined = 0;
	for (i = 0; i < r->nfresh; i = end) {
		char **argv = xcalloc(r->nfresh + 2 * r->naccept + 8, sizeof(*argv));
		size_t n = 0, k;
		int status;

		/* the files of the day: [i, end) */
		for (end = i; end < r->nfresh && !strcmp(r->fresh[end].day, r->fresh[i].day); end++)
			;
		argv[n++] = (char *)"modelcat-ingest";
		argv[n++] = (char *)"--as-of";
		argv[n++] = r->fresh[i].day;
		/* the store the files are of: its acceptances are read and kept */
		argv[n++] = (char *)"--snapshots";
		argv[n++] = (char *)r->store;
		if (r->verbose)
			argv[n++] = (char *)"--verbose";
		/* --accept EXPORT for the days that have a file of it (ingest
		 * refuses to accept an export it is not given) */
		for (k = 0; k < r->naccept; k++) {
			if (!has_export(r, i, end, r->accept[k]))
				continue;
			argv[n++] = (char *)"--accept-export";
			argv[n++] = (char *)r->accept[k];
		}
		for (k = i; k < end; k++)
			argv[n++] = r->fresh[k].arg;
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

/* The counts of the summary: what changed from the catalogue's latest
 * snapshot before the run to the latest now. */
static int count_changes(nightly *r, catalogue *work, catalogue_id from)
{
	diff_result d;

	if (query_diff_snapshots(work, from, latest_snapshot(work), &d, &r->err))
		return -1;
	r->added = d.added.n;
	r->removed = d.removed.n;
	r->renamed = d.renamed.n;
	r->changed = audit_changed_count(&d);
	r->quarantined = d.quarantined.n;
	diff_result_release(&d);
	return 0;
}

/* Set when the run's copy could not be installed because another program
 * held or changed the catalogue: the run exits 75, not 3. */
static int install_conflict;

/* What the site's before_switch step needs: the run's copy is installed
 * into the catalogue once the new site version is built and before it is
 * switched to, so that a refused install (another program changed the
 * catalogue) publishes nothing, and the site never shows a snapshot the
 * catalogue does not have. */
typedef struct install_step {
	nightly *r;
	const catalogue_stamp *seen;  /* the catalogue as the copy was taken */
} install_step;

static int install_copy(void *arg, mc_err *err)
{
	install_step *s = arg;

	job_log(s->r->program, "site built; installing the new catalogue into %s", s->r->target);
	/* copied into the live file under the writer lock, not renamed over
	 * it; refused when another program changed it since the copy */
	return catalogue_install(s->r->work, s->r->target, s->seen, s->r->wait,
				 &install_conflict, err);
}

/* Publish the site of cat under DIR in one switch (out/site.h), the run's
 * copy installed just before the switch. */
static int publish_site(nightly *r, catalogue *cat, const catalogue_stamp *seen)
{
	install_step step = { r, seen };
	site_options o = { NULL, r->program, job_log, install_copy, &step, r->base_url, r->wait };
	site_stats st;
	int rc = site_publish(cat, r->out, &o, &st, &r->err);

	if (rc) {
		if (rc > 0)
			install_conflict = 1;   /* another publish holds DIR: 75 */
		/* (a refused install has set it already: it stays) */
		return -1;
	}
	r->pages = st.pages;
	job_log(r->program, "published %lu page files and the audits of %zu snapshot%s up to %s"
		" in %s (%lu files written, %lu unchanged; %zu audit%s computed, %zu withdrawn)",
		st.pages, st.snapshots, st.snapshots == 1 ? "" : "s", st.label, r->out, st.written,
		st.files - st.written, st.audits, st.audits == 1 ? "" : "s", st.withdrawn);
	return 0;
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

/* Remove the build folders (DIR/.build-PID of a process that no longer
 * runs) that killed runs of the layout before site versions left, those
 * only that publish marked as its own (site_marked()): another is removed
 * only when empty, else left, and said. */
static void remove_stale_builds(const char *program, const char *out)
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
		if (site_marked(path))
			site_remove_marked(path);
		else if (rmdir(path) && errno != ENOENT)
			job_log(program, "left %s in place: not made by modelcat's publish (no MADE"
				" in it)", path);
	}
	closedir(d);
}

/* Everything after the fetch: ingest into the work copy, translate,
 * publish the site (pages, audits, feed) in one switch, and put the copy
 * in place. */
static int update(nightly *r, catalogue_id before, int *quarantined)
{
	catalogue work;
	catalogue_stamp seen = { 0 };
	int status, rc = -1, opened = 0;

	mc_fmt(r->work, sizeof(r->work), "%s.run-%ld", r->target, (long)getpid());
	catalogue_remove(r->work);
	mc_cleanup_add(r->work);
	if (!access(r->target, F_OK) && catalogue_copy(r->target, r->work, &seen, &r->err))
		goto out;
	if (r->nfresh)
		job_log(r->program, "ingesting %zu new export file%s", r->nfresh,
			r->nfresh == 1 ? "" : "s");
	if (r->nfresh && ingest_fresh(r, quarantined))
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
	if (catalogue_open(&work, r->work, NULL, CATALOGUE_READONLY, &r->err))
		goto out;
	opened = 1;
	if (count_changes(r, &work, before) || publish_site(r, &work, &seen))
		goto out;
	rc = 0;
out:
	if (opened)
		catalogue_close(&work);
	catalogue_remove(r->work);
	mc_cleanup_remove(r->work);
	return rc;
}

/* Nothing new to ingest: is the site published from the catalogue as it
 * is? *same 1 when it is (or there is no catalogue). 0, or -1 (r->err). */
static int site_current(nightly *r, catalogue *cat, int *same)
{
	*same = 1;
	if (!cat->db)
		return 0;
	return site_up_to_date(cat, r->out, NULL, same, &r->err);
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
	catalogue_id before;
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
	if (!r->nfresh) {
		int same, rc = site_current(r, &cat, &same);

		catalogue_close(&cat);
		if (rc) {
			job_log(r->program, "%s", r->err.msg);
			return MC_EXIT_FAILURE;
		}
		if (same) {
			job_log(r->program, "nothing new upstream: no change");
			return MC_EXIT_OK;
		}
		/* after a rollback, a run stopped between its two switches, new
		 * page texts (modelcat translate) or another modelcat version */
		job_log(r->program, "nothing new upstream, but the site in %s was not published"
			" from the catalogue as it is (its snapshots, page texts and modelcat"
			" version): publishing it again", r->out);
	} else {
		catalogue_close(&cat);
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
 * catalogue copies. (A killed publish's version is site_publish()'s to
 * remove.) While DIR/pages is still a folder of the layout before site
 * versions, also the build folders that runs of that layout left, if
 * marked as publish's, and a line for each file named as their
 * half-written ones (left: nothing proves a run made it): once, before
 * the first publish carries the folder's files into a version; never
 * again walking the whole published site. */
static void remove_leftovers(const nightly *r)
{
	char prefix[PATH_MAX], pages[PATH_MAX];
	struct stat st;

	mc_fmt(prefix, sizeof(prefix), "%s.run-", r->target);
	mc_remove_stale(prefix);
	mc_fmt(pages, sizeof(pages), "%s/pages", r->out);
	if (!lstat(pages, &st) && S_ISDIR(st.st_mode)) {
		remove_stale_builds(r->program, r->out);
		job_note_stale_temps(r->program, pages);
		mc_fmt(pages, sizeof(pages), "%s/audit", r->out);
		job_note_stale_temps(r->program, pages);
	}
}

int nightly_run(nightly *r)
{
	struct timespec start;
	writelock lock;
	int rc, status = MC_EXIT_FAILURE;
	size_t i;

	clock_gettime(CLOCK_MONOTONIC, &start);
	job_catch_signals();
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
