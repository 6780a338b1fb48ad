/*
 * modelcat-run: the nightly job. One run at a time (a lock); fetch every
 * source; ingest what is new; merge the translations; re-render the pages;
 * publish the audit of the snapshot, its index and an Atom feed. Every log
 * line has a timestamp; the last one is a summary.
 *
 * The catalogue is changed on a copy that replaces it only at the end, and
 * pages are built in a folder of their own and published file by file only
 * when everything before succeeded: a failed run leaves the catalogue and
 * the published pages as they were.
 */
#include "out/audit.h"
#include "store/naming.h"
#include "out/feed.h"
#include "ingest/ingest.h"
#include "cli/job.h"
#include "base/paths.h"
#include "cli/stage.h"
#include "db/snapshot.h"
#include "store/store.h"

#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const char program[] = "modelcat-run";

/* One file of the store that the catalogue does not have yet. */
typedef struct fresh {
	char day[11];                 /* snapshot date from its name */
	char *arg;                    /* EXPORT=PATH for ingest */
} fresh;

/* The run's settings and what it found. */
typedef struct run {
	const char *db;               /* the catalogue */
	const char *store;            /* the snapshot store */
	const char *out;              /* where pages and audits are published */
	const char *catalogues;       /* translation catalogues, or NULL */
	char **fetch_args;            /* argv for modelcat-fetch */
	size_t nfetch;                /* entries in fetch_args */
	fresh *fresh;                 /* new content to ingest, oldest first */
	size_t nfresh;                /* entries in fresh */
	char work[PATH_MAX];          /* the catalogue copy this run changes */
	char build[PATH_MAX];         /* the folder pages and audits are built in */
	unsigned long sources;        /* sources fetched */
	unsigned long pages;          /* page files written */
	size_t added, removed, renamed, changed, quarantined;
	char err[2048];               /* the failure */
} run;

static void usage(void)
{
	printf("usage: modelcat run [--db PATH] [--config FILE] [--snapshots DIR]\n"
	       "                    [--source NAME[=URL]]... [--out DIR] [--catalogues DIR]\n"
	       "\n"
	       "The nightly job: takes a lock (a second run exits 75 at once, naming the\n"
	       "run that holds it), fetches every source into the snapshot store, ingests\n"
	       "what is new as one snapshot, merges the translation catalogues, re-renders\n"
	       "the pages, and publishes under DIR:\n"
	       "  DIR/pages/          every model's page (only files that changed are\n"
	       "                      rewritten)\n"
	       "  DIR/audit/DATE.*    the audit of the snapshot as text, JSON and HTML\n"
	       "  DIR/audit/index.html, DIR/audit/feed.atom   past audits and an Atom feed\n"
	       "When nothing changed upstream it writes nothing. Every log line (stderr)\n"
	       "has a timestamp; the last is a summary.\n"
	       "\n"
	       "  --db PATH         the catalogue (default $MODELCAT_DB, else ./modelcat.db)\n"
	       "  --config FILE     the sources (default: pipelines/sources.tsv)\n"
	       "  --snapshots DIR   the snapshot store (default: ./snapshots)\n"
	       "  --source NAME[=URL]  fetch only these sources (repeatable)\n"
	       "  --out DIR         where to publish (default: ./public)\n"
	       "  --catalogues DIR  translation catalogues (default: the installed ones)\n"
	       "  --max-size SIZE, --retries N, --timeout S, --connect-timeout S\n"
	       "                    passed to fetch\n"
	       "  --help, --version\n"
	       "\n"
	       "Exit: 0 done; 1 done, rows were quarantined; 2 usage; 3 or more failure,\n"
	       "the catalogue and the published pages as they were; 75 another run holds\n"
	       "the lock.\n");
}

static void add_fetch_arg(run *r, const char *a, const char *b)
{
	r->fetch_args = xrealloc(r->fetch_args, (r->nfetch + 3) * sizeof(*r->fetch_args));
	r->fetch_args[r->nfetch++] = xstrdup(a);
	if (b)
		r->fetch_args[r->nfetch++] = xstrdup(b);
	r->fetch_args[r->nfetch] = NULL;
}

static int program_exists(const char *name)
{
	char path[PATH_MAX];

	mc_fmt(path, sizeof(path), "%s/%s", paths_bindir(), name);
	return !access(path, X_OK);
}

/* The latest content hash the catalogue has for an export ("" if none). */
static int catalogue_sha(catalogue *cat, const char *export_name, char sha[65], mc_err *err)
{
	snapshot_export_filter f = { export_name, 0, 0, NULL, 0 };
	snapshot_export_info info;

	sha[0] = '\0';
	if (!cat->db)
		return 0;
	if (snapshot_export_latest(cat, &f, &info, err) < 0)
		return -1;
	mc_fmt(sha, 65, "%s", info.sha256);
	return 0;
}

static int fresh_cmp(const void *a, const void *b)
{
	const fresh *x = a, *y = b;
	int c = strcmp(x->day, y->day);

	return c ? c : strcmp(x->arg, y->arg);
}

/* The store's latest content of each export that the catalogue lacks. */
static int find_fresh(run *r, catalogue *cat)
{
	store *st = NULL;
	DIR *d = NULL;
	mc_err err;
	struct dirent *e;
	int rc = -1;

	if (store_open(&st, r->store, r->err, sizeof(r->err)))
		return -1;
	d = opendir(r->store);
	if (!d) {
		mc_fmt(r->err, sizeof(r->err), "%s: cannot read: %s", r->store, strerror(errno));
		goto out;
	}
	while ((e = readdir(d))) {
		char *file = NULL, sha[65], have[65], day[11], arg[PATH_MAX * 2];
		int latest;

		if (e->d_name[0] == '.' || !naming_export_valid(e->d_name))
			continue;
		latest = store_latest(st, e->d_name, &file, sha, r->err, sizeof(r->err));
		if (latest < 0)
			goto out;
		if (latest > 0)
			continue;
		if (catalogue_sha(cat, e->d_name, have, &err)) {
			mc_fmt(r->err, sizeof(r->err), "%s", err.msg);
			free(file);
			goto out;
		}
		if (!strcmp(sha, have) || naming_snapshot_date(file, day)) {
			free(file);
			continue;
		}
		r->fresh = xrealloc(r->fresh, (r->nfresh + 1) * sizeof(*r->fresh));
		mc_fmt(r->fresh[r->nfresh].day, 11, "%s", day);
		mc_fmt(arg, sizeof(arg), "%s=%s/%s", e->d_name, r->store, file);
		r->fresh[r->nfresh].arg = xstrdup(arg);
		r->nfresh++;
		free(file);
	}
	if (r->nfresh)
		qsort(r->fresh, r->nfresh, sizeof(*r->fresh), fresh_cmp);
	rc = 0;
out:
	if (d)
		closedir(d);
	store_free(st);
	return rc;
}

/* Run a stage with MODELCAT_DB set to the work copy; its exit status, or
 * -1 (r->err). */
static int stage(run *r, char **argv, sbuf *out)
{
	char env_db[PATH_MAX + 16];
	char *env[] = { env_db, NULL };

	mc_fmt(env_db, sizeof(env_db), "MODELCAT_DB=%s", r->work);
	return job_run(paths_bindir(), argv, env, out, r->err, sizeof(r->err));
}

static int ingest_fresh(run *r, int *quarantined)
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
				mc_fmt(r->err, sizeof(r->err), "ingest failed (exit %d)", status);
			return -1;
		}
	}
	return 0;
}

static int write_text(const char *path, const sbuf *text, char *err, size_t errlen)
{
	FILE *f = fopen(path, "wb");

	if (!f || fwrite(text->data, 1, text->len, f) != text->len || fclose(f)) {
		mc_fmt(err, errlen, "%s: cannot write: %s", path, strerror(errno));
		if (f)
			fclose(f);
		return -1;
	}
	return 0;
}

/* The catalogue's latest snapshot id (0 when none). */
static sqlite3_int64 latest_snapshot(catalogue *cat)
{
	sqlite3_int64 id = 0;

	if (cat->db)
		snapshot_latest_id(cat, &id, NULL);
	return id;
}

/* The audit of this run's snapshot(s), in the build folder. */
static int build_audit(run *r, catalogue *work, sqlite3_int64 from)
{
	static const char *const kinds[] = { "txt", "json", "html" };
	const char *to = r->fresh[r->nfresh - 1].day;
	char dir[PATH_MAX], path[PATH_MAX + 32];
	mc_err err;
	diff_result d;
	size_t k;
	int rc = -1;

	mc_fmt(dir, sizeof(dir), "%s/audit", r->build);
	if (mkdir(dir, 0755) && errno != EEXIST) {
		mc_fmt(r->err, sizeof(r->err), "%s: cannot create: %s", dir, strerror(errno));
		return -1;
	}
	if (query_diff_snapshots(work, from, latest_snapshot(work), &d, &err)) {
		mc_fmt(r->err, sizeof(r->err), "%s", err.msg);
		return -1;
	}
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
		rc = write_text(path, &text, r->err, sizeof(r->err));
		sbuf_release(&text);
		if (rc)
			break;
	}
	diff_result_release(&d);
	return rc;
}

static void summary(const run *r, const struct timespec *start)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	job_log(program, "summary: %lu sources fetched, %zu added, %zu removed, %zu renamed,"
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

/* Everything after the fetch: ingest into the work copy, translate,
 * render, audit, publish, and put the copy in place. */
static int update(run *r, sqlite3_int64 before, int *quarantined)
{
	catalogue work;
	mc_err err;
	char dir[PATH_MAX], pages_out[PATH_MAX], audit_out[PATH_MAX];
	unsigned long written;
	int status, rc = -1, opened = 0;

	mc_fmt(r->work, sizeof(r->work), "%s.run-%ld", r->db, (long)getpid());
	mc_fmt(r->build, sizeof(r->build), "%s/.build-%ld", r->out, (long)getpid());
	catalogue_remove(r->work);
	mc_cleanup_add(r->work);
	if (!access(r->db, F_OK) && catalogue_copy(r->db, r->work, &err)) {
		mc_fmt(r->err, sizeof(r->err), "%s", err.msg);
		goto out;
	}
	if (mkdir(r->out, 0755) && errno != EEXIST) {
		mc_fmt(r->err, sizeof(r->err), "%s: cannot create: %s", r->out, strerror(errno));
		goto out;
	}
	if (mkdir(r->build, 0755)) {
		mc_fmt(r->err, sizeof(r->err), "%s: cannot create: %s", r->build, strerror(errno));
		goto out;
	}
	job_log(program, "ingesting %zu new export file%s", r->nfresh, r->nfresh == 1 ? "" : "s");
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
				mc_fmt(r->err, sizeof(r->err), "translate failed (exit %d)", status);
			goto out;
		}
	}
	if (program_exists("modelcat-render")) {
		char *argv[] = { (char *)"modelcat-render", (char *)"--all", (char *)"--out", dir, NULL };

		mc_fmt(dir, sizeof(dir), "%s/pages", r->build);
		status = stage(r, argv, NULL);
		if (status != 0) {
			if (status > 0)
				mc_fmt(r->err, sizeof(r->err), "render failed (exit %d)", status);
			goto out;
		}
	}
	if (catalogue_open(&work, r->work, NULL, CATALOGUE_READONLY, &err)) {
		mc_fmt(r->err, sizeof(r->err), "%s", err.msg);
		goto out;
	}
	opened = 1;
	if (build_audit(r, &work, before))
		goto out;
	/* publish: pages, then the audit, then the feed, then the catalogue */
	mc_fmt(dir, sizeof(dir), "%s/pages", r->build);
	mc_fmt(pages_out, sizeof(pages_out), "%s/pages", r->out);
	if (!access(dir, F_OK)) {
		if (job_publish(dir, pages_out, 1, &r->pages, r->err, sizeof(r->err)))
			goto out;
		job_log(program, "published %lu page files in %s", r->pages, pages_out);
	}
	mc_fmt(dir, sizeof(dir), "%s/audit", r->build);
	mc_fmt(audit_out, sizeof(audit_out), "%s/audit", r->out);
	if (job_publish(dir, audit_out, 0, &written, r->err, sizeof(r->err)))
		goto out;
	if (feed_write(&work, audit_out, &err)) {
		mc_fmt(r->err, sizeof(r->err), "%s", err.msg);
		goto out;
	}
	job_log(program, "published the audit of %s in %s", r->fresh[r->nfresh - 1].day, audit_out);
	catalogue_close(&work);
	opened = 0;
	if (rename(r->work, r->db)) {
		mc_fmt(r->err, sizeof(r->err), "cannot replace %s: %s", r->db, strerror(errno));
		goto out;
	}
	rc = 0;
out:
	if (opened)
		catalogue_close(&work);
	if (rc)
		catalogue_remove(r->work);
	mc_cleanup_remove(r->work);
	job_remove_tree(r->build);
	return rc;
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "config", required_argument, NULL, 'c' },
		{ "snapshots", required_argument, NULL, 's' },
		{ "source", required_argument, NULL, 'S' },
		{ "out", required_argument, NULL, 'o' },
		{ "catalogues", required_argument, NULL, 'C' },
		{ "max-size", required_argument, NULL, 'm' },
		{ "retries", required_argument, NULL, 'r' },
		{ "timeout", required_argument, NULL, 't' },
		{ "connect-timeout", required_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	run r;
	catalogue cat;
	mc_err err;
	struct timespec start;
	char lock_path[PATH_MAX], holder[256];
	sqlite3_int64 before;
	const char *db_option = NULL;
	sbuf fetched;
	int opt, fd, status = MC_EXIT_FAILURE, quarantined = 0;
	size_t i;

	stage_init();
	memset(&r, 0, sizeof(r));
	memset(&cat, 0, sizeof(cat));
	r.store = "snapshots";
	r.out = "public";
	add_fetch_arg(&r, "modelcat-fetch", NULL);
	while ((opt = getopt_long(argc, argv, "h", options, NULL)) != -1) {
		switch (opt) {
		case 'd': db_option = optarg; break;
		case 'c': add_fetch_arg(&r, "--config", optarg); break;
		case 's': r.store = optarg; break;
		case 'S': add_fetch_arg(&r, "--source", optarg); break;
		case 'o': r.out = optarg; break;
		case 'C': r.catalogues = optarg; break;
		case 'm': add_fetch_arg(&r, "--max-size", optarg); break;
		case 'r': add_fetch_arg(&r, "--retries", optarg); break;
		case 't': add_fetch_arg(&r, "--timeout", optarg); break;
		case 'T': add_fetch_arg(&r, "--connect-timeout", optarg); break;
		case 'h': usage(); return MC_EXIT_OK;
		case 'V': return stage_version(program);
		default: return stage_usage_error(program, "unknown option");
		}
	}
	if (optind < argc)
		return stage_usage_error(program, "unexpected argument '%s'", argv[optind]);
	clock_gettime(CLOCK_MONOTONIC, &start);
	r.db = paths_db(db_option);
	add_fetch_arg(&r, "--snapshots", r.store);
	add_fetch_arg(&r, "--db", r.db);
	mc_fmt(lock_path, sizeof(lock_path), "%s.lock", r.db);
	fd = job_lock(lock_path, holder, sizeof(holder), r.err, sizeof(r.err));
	if (fd < 0) {
		if (holder[0]) {
			job_log(program, "another run holds the lock %s (%s); exiting", lock_path, holder);
			status = MC_EXIT_LOCKED;
		} else {
			job_log(program, "%s", r.err);
		}
		goto done;
	}
	/* what killed runs left (we hold the lock, so no run is working):
	 * their catalogue copies, build folders and half-written files */
	{
		char prefix[PATH_MAX];

		mc_fmt(prefix, sizeof(prefix), "%s.run-", r.db);
		mc_remove_stale(prefix);
		if (!access(r.out, F_OK)) {
			remove_stale_builds(r.out);
			job_remove_stale_temps(r.out);
		}
	}
	job_log(program, "fetching into %s", r.store);
	sbuf_init(&fetched);
	status = job_run(paths_bindir(), r.fetch_args, NULL, &fetched, r.err, sizeof(r.err));
	for (i = 0; i < fetched.len; i++)
		r.sources += fetched.data[i] == '\n';
	sbuf_release(&fetched);
	if (status != 0) {
		job_log(program, "%s", status < 0 ? r.err : "fetch failed; nothing ingested, nothing published");
		status = status < 3 ? MC_EXIT_FAILURE : status;
		goto unlock;
	}
	status = MC_EXIT_FAILURE;
	if (!access(r.db, F_OK) && catalogue_open(&cat, r.db, NULL, CATALOGUE_READONLY, &err)) {
		job_log(program, "%s", err.msg);
		goto unlock;
	}
	before = latest_snapshot(&cat);
	if (find_fresh(&r, &cat)) {
		job_log(program, "%s", r.err);
		catalogue_close(&cat);
		goto unlock;
	}
	catalogue_close(&cat);
	if (!r.nfresh) {
		job_log(program, "nothing new upstream: no change");
		status = MC_EXIT_OK;
		goto unlock;
	}
	if (update(&r, before, &quarantined)) {
		job_log(program, "%s", r.err);
		job_log(program, "the run failed; the catalogue and the published pages are as they were");
		goto unlock;
	}
	status = quarantined ? MC_EXIT_QUARANTINE : MC_EXIT_OK;
unlock:
	close(fd);
done:
	summary(&r, &start);
	for (i = 0; i < r.nfetch; i++)
		free(r.fetch_args[i]);
	free(r.fetch_args);
	for (i = 0; i < r.nfresh; i++)
		free(r.fresh[i].arg);
	free(r.fresh);
	return status;
}
