/*
 * modelcat-run: the nightly job (cli/nightly.h): fetch, ingest what is
 * new, translate, render, publish the audit, under a lock, with a
 * timestamped log.
 */
#include "cli/fetchjob.h"
#include "cli/nightly.h"
#include "cli/options.h"
#include "cli/stage.h"
#include "base/paths.h"

/* the --help texts; main has the option table (opt_parse_table) */
static const opt_command command = {
	.program = "modelcat-run",
	.usage =
		"usage: modelcat run [--db PATH] [--config FILE] [--snapshots DIR]\n"
		"                    [--source NAME[=URL]]... [--out DIR] [--catalogues DIR]\n",
	.description =
		"The nightly job: takes a lock (a second run exits 75 at once, naming the\n"
		"run that holds it), fetches every source into the snapshot store, ingests\n"
		"what is new as one snapshot, merges the translation catalogues, re-renders\n"
		"the pages, and publishes under DIR in one switch (as modelcat publish):\n"
		"  DIR/pages/          every model's page\n"
		"  DIR/audit/DATE.*    the audit of each snapshot as text, JSON and HTML\n"
		"                      (DATE.N.* for the N-th of a day)\n"
		"  DIR/audit/index.html, DIR/audit/feed.atom   past audits and an Atom feed\n"
		"When nothing changed upstream and the site was published from the catalogue\n"
		"as it is, it writes nothing. The catalogue is changed on a copy that\n"
		"replaces it (a symbolic link's target) with its mode and owner. Every log\n"
		"line (stderr) has a timestamp; the last is a summary.\n",
	.exit =
		"Exit: 0 done; 1 done, rows were quarantined; 2 usage; 3 or more failure,\n"
		"the catalogue and the published pages as they were; 75 another run holds\n"
		"the lock; 128 + N stopped by signal N (SIGINT, SIGTERM, SIGHUP), the\n"
		"catalogue and the published pages as they were.\n",
};

int main(int argc, char **argv)
{
	const char *db = NULL;
	fetch_settings settings;
	opt_spec network[FETCHJOB_OPTIONS + 1];
	nightly r = { .program = command.program, .out = "public", .fetch_options = network };
	opt_spec options[] = {
		OPT_DB(&db),
		OPT_TABLE(network),
		{ .name = "out", .arg = "DIR", .type = OPT_STRING, .dest = &r.out,
		  .help = "where to publish (default: ./public)" },
		{ .name = "catalogues", .arg = "DIR", .type = OPT_STRING, .dest = &r.catalogues,
		  .help = "translation catalogues (default: the installed ones)" },
		OPT_DONE
	};
	int first, rc;

	stage_init();
	fetchjob_init(&settings);
	fetchjob_options(&settings, network);
	rc = opt_parse_table(&command, options, argc, argv, &first);
	if (rc) {
		rc = opt_status(rc);
	} else if (first < argc) {
		rc = stage_usage_error(command.program, "unexpected argument '%s'", argv[first]);
	} else {
		r.db = paths_db(db);
		r.store = settings.snapshots;
		rc = nightly_run(&r);
	}
	opt_release(options);
	return rc;
}
