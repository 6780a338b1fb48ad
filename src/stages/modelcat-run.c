/*
 * modelcat-run: the nightly job (cli/nightly.h): fetch, ingest what is
 * new, translate, render, publish the audit, under a lock, with a
 * timestamped log.
 */
#include "cli/fetchjob.h"
#include "cli/nightly.h"
#include "cli/options.h"
#include "cli/stage.h"
#include "publish/render.h"
#include "publish/site.h"
#include "base/alloc.h"
#include "base/paths.h"
#include "store/listing.h"
#include "store/sources.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* the --help texts; main has the option table (opt_parse_table) */
static const opt_command command = {
	.program = "modelcat-run",
	.usage =
		"usage: modelcat run [--db PATH] [--config FILE] [--snapshots DIR]\n"
		"                    [--source NAME[=URL]]... [--out DIR] [--catalogues DIR]\n"
		"                    [--wait SECONDS] [--accept EXPORT]... [--base-url URL]\n"
		"                    [--verbose]\n",
	.description =
		"The nightly job: takes the catalogue's writer lock (PATH.lock; when another\n"
		"run or writer holds it, it waits up to --wait seconds, then exits 75 naming\n"
		"the holder), fetches every source into the snapshot store, ingests every\n"
		"stored snapshot the catalogue lacks (oldest first, a snapshot per day, each\n"
		"file checked against its recorded SHA-256), merges the translation\n"
		"catalogues, re-renders the pages, and publishes under DIR in one switch (as\n"
		"modelcat publish):\n"
		"  DIR/pages/          every model's page\n"
		"  DIR/audit/DATE.*    the audit of each snapshot as text, JSON and HTML\n"
		"                      (DATE.N.* for the N-th of a day)\n"
		"  DIR/audit/index.html, DIR/audit/feed.atom   past audits and an Atom feed\n"
		"When nothing changed upstream and the site was published from the catalogue\n"
		"as it is, it writes nothing. The catalogue is changed on a copy, copied\n"
		"back into it at the end (SQLite's backup, in one transaction: the file, a\n"
		"symbolic link's target, keeps its mode and owner and other programs'\n"
		"connections stay valid); a program that does not take the lock (the sqlite3\n"
		"shell) and changes the catalogue meanwhile makes the run install nothing.\n"
		"Every log line (stderr) has a timestamp; the last is a summary. An export\n"
		"file a guard of pipelines/guards.tsv holds is not applied (the audit lists\n"
		"it under \"Held for review\"; exit 1) and is tried again by the next run;\n"
		"--accept EXPORT applies it. --base-url (or a base-url line in\n"
		"pipelines/site.tsv) is the URL of DIR: the Atom feed's links are made\n"
		"absolute with it. The columns of an export file that the column map lacks\n"
		"are counted in one log line per file (--verbose: each named).\n",
	.exit =
		"Exit: 0 done; 1 done, rows were quarantined or an export held; 2 usage;\n"
		"3 or more failure, the catalogue and the published pages as they were;\n"
		"75 another writer holds the lock, another publish DIR's (DIR/.modelcat/lock),\n"
		"or another program held or changed the catalogue during the run (nothing\n"
		"installed); 128 + N stopped by signal N (SIGINT, SIGTERM, SIGHUP), the\n"
		"catalogue and the published pages as they were.\n",
};

/* Add to known (*n of them) the export folders of the store dir (none
 * when it cannot be read: fetch's to report). */
static void store_exports(const char *dir, char ***known, size_t *n)
{
	store_listing l;
	mc_err err;
	size_t i;

	if (store_list(dir, NULL, &l, &err))
		return;
	*known = xrealloc(*known, (*n + l.n + 1) * sizeof(**known));
	for (i = 0; i < l.n; i++)
		(*known)[(*n)++] = xstrdup(l.folders[i].name);
	store_listing_release(&l);
}

/* Does each --accept name an export the run can meet: a source (of the
 * sources file or --source), an export folder of the store, or a name the
 * column map's families take (pipelines/families.tsv)? 0, or a usage error
 * (exit status) before any work. */
static int check_accept(const fetch_settings *s, const opt_list *accept)
{
	char path[PATH_MAX], **known = NULL;
	const char **patterns = NULL;
	size_t n = 0, np = 0, i, j;
	source_list sources;
	colmap map;
	mc_err err;
	int rc;

	if (!accept->n)
		return 0;
	sources_init(&sources);
	if (!s->config)
		paths_data_file(path, sizeof(path), "pipelines/sources.tsv");
	/* a sources file that cannot be read is fetch's to report */
	sources_load(&sources, s->config ? s->config : path, &err);
	known = xcalloc(sources.n + s->sources.n + 1, sizeof(*known));
	for (i = 0; i < sources.n; i++)
		known[n++] = xstrdup(sources.items[i].name);
	for (i = 0; i < s->sources.n; i++)
		known[n++] = xstrndup(s->sources.items[i], strcspn(s->sources.items[i], "="));
	sources_release(&sources);
	store_exports(s->snapshots, &known, &n);
	if (stage_colmap(command.program, &map)) {
		mc_free_strings(known, n);
		return MC_EXIT_FAILURE;
	}
	for (i = 0; i <= map.nothers; i++) {
		const colmap *fam = i ? &map.others[i - 1] : &map;

		for (j = 0; fam->exports && fam->exports[j]; j++) {
			patterns = xrealloc(patterns, (np + 2) * sizeof(*patterns));
			patterns[np++] = fam->exports[j];
			patterns[np] = NULL;
		}
	}
	rc = opt_check_known(command.program, "accept", accept, (const char *const *)known, n,
			     patterns, "no such export");
	free(patterns);
	colmap_release(&map);
	mc_free_strings(known, n);
	return rc;
}

int main(int argc, char **argv)
{
	const char *db = NULL;
	fetch_settings settings;
	opt_spec network[FETCHJOB_OPTIONS + 1];
	opt_list accept = { NULL, 0 };
	nightly r = { .program = command.program, .out = "public", .fetch_options = network };
	opt_spec options[] = {
		OPT_DB(&db),
		OPT_TABLE(network),
		{ .name = "out", .arg = "DIR", .type = OPT_STRING, .dest = &r.out,
		  .help = "where to publish (default: ./public)" },
		{ .name = "catalogues", .arg = "DIR", .type = OPT_STRING, .dest = &r.catalogues,
		  .help = "translation catalogues (default: the installed ones)" },
		OPT_WAIT(&r.wait),
		{ .name = "accept", .arg = "EXPORT", .type = OPT_LIST, .dest = &accept,
		  .help = "apply EXPORT's file if a guard would hold it" },
		{ .name = "base-url", .arg = "URL", .type = OPT_STRING, .dest = &r.base_url,
		  .help = "the URL of DIR: absolute links in the feed" },
		OPT_VERBOSE(&r.verbose),
		OPT_DONE
	};
	mc_err err;
	int first, rc;

	stage_init();
	fetchjob_init(&settings);
	fetchjob_options(&settings, network);
	rc = opt_parse_table(&command, options, argc, argv, &first);
	if (rc) {
		rc = opt_status(rc);
	} else if (first < argc) {
		rc = stage_usage_error(command.program, "unexpected argument '%s'", argv[first]);
	} else if (r.base_url && !site_base_url_ok(r.base_url)) {
		rc = stage_usage_error(command.program, "--base-url %s: not an http:// or https:// URL",
				       r.base_url);
	} else if (render_threads_check(&err)) {
		rc = stage_usage_error(command.program, "%s", err.msg);
	} else if ((rc = check_accept(&settings, &accept))) {
		/* said */
	} else {
		r.db = db;
		r.store = settings.snapshots;
		r.accept = accept.items;
		r.naccept = accept.n;
		rc = nightly_run(&r);
	}
	opt_release(options);
	return rc;
}
