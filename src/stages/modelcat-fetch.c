/*
 * modelcat-fetch: download each configured export into the snapshot store.
 * A download is stored only when it is complete, valid and new; the same
 * content again stores nothing; a failure leaves the store as it was.
 */
#include "cli/fetchjob.h"
#include "cli/options.h"
#include "cli/stage.h"

/* the --help texts; main has the option table (opt_parse_table) */
static const opt_command command = {
	.program = "modelcat-fetch",
	.usage =
		"usage: modelcat fetch [--db PATH] [--config FILE] [--snapshots DIR]\n"
		"                      [--source NAME[=URL]]... [--wait SECONDS] [options]\n",
	.description =
		"Downloads each source into the snapshot store DIR and records it in the\n"
		"store's MANIFEST.tsv and the catalogue (table fetch_manifest). A body is\n"
		"stored only when it is complete and an export the column map knows (CSV,\n"
		"or gzip or zip holding CSV), gzip-compressed, as DIR/NAME/<date>.csv.gz\n"
		"(a later different content of the same day: <date>T<time>Z-<sha>.csv.gz).\n"
		"A bundle (a zip of several CSV members, each an export: format bundle in\n"
		"sources.tsv) is stored as it came, as DIR/NAME/<date>.zip, its SHA-256 the\n"
		"zip's; ingest and reingest read each member as the export it names.\n"
		"Requests are conditional on the last validators (ETag, Last-Modified):\n"
		"a 304, or the same content as the latest snapshot, stores nothing.\n"
		"Prints one line per source; a progress bar on stderr when it is a\n"
		"terminal. See docs/store.md. It holds the catalogue's writer lock\n"
		"(PATH.lock) while it works; when another writer holds it, it waits up\n"
		"to --wait seconds, then exits 75.\n",
	.notes =
		"The first retry waits about $MODELCAT_RETRY_BASE_MS milliseconds (default\n"
		"1000), doubling each time, or as long as the server's Retry-After says.\n",
	.exit =
		"Exit: 0 every source fetched (stored or unchanged); 2 usage; 3 failure,\n"
		"nothing stored; 4 some sources failed (nothing stored for them), others\n"
		"were stored; 75 another writer held the catalogue, nothing fetched.\n",
};

int main(int argc, char **argv)
{
	const char *db = NULL;
	fetch_settings settings;
	opt_spec network[FETCHJOB_OPTIONS + 1];
	opt_spec options[] = { OPT_DB(&db), OPT_TABLE(network), OPT_WAIT(&settings.wait), OPT_DONE };
	int first, rc;

	stage_init();
	fetchjob_init(&settings);
	fetchjob_options(&settings, network);
	rc = opt_parse_table(&command, options, argc, argv, &first);
	if (rc)
		rc = opt_status(rc);
	else if (first < argc)
		rc = stage_usage_error(command.program, "unexpected argument '%s'", argv[first]);
	else
		rc = fetchjob_run(command.program, &settings, db);
	opt_release(options);
	return rc;
}
