/*
 * modelcat-load: load staging files written by modelcat-parse into the
 * catalogue as one snapshot, in one transaction.
 */
#include "ingest.h"
#include "stage.h"
#include "paths.h"

#include <getopt.h>
#include <stdio.h>
#include <unistd.h>

static const char program[] = "modelcat-load";

static void usage(void)
{
	printf("usage: modelcat load [--db PATH] [--as-of YYYY-MM-DD] STAGING.db...\n"
	       "\n"
	       "Loads the staging files written by `modelcat parse --out` into the\n"
	       "catalogue as one snapshot dated --as-of (default: today, UTC), in one\n"
	       "transaction: on any failure the catalogue is left as it was.\n"
	       "\n"
	       "  --db PATH         the catalogue (default $MODELCAT_DB, else ./modelcat.db)\n"
	       "  --as-of DATE      the snapshot's date, YYYY-MM-DD\n"
	       "  --help, --version\n"
	       "\n"
	       "Exit: 0 loaded; 1 loaded, some rows were quarantined; 2 usage; 3 failure.\n");
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "as-of", required_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	const char *db = NULL;
	char as_of[11] = "", err[2048];
	catalogue cat;
	catalogue_load *load = NULL;
	unsigned long quarantined = 0;
	int opt, i, status = EXIT_FAILURE_, existed;

	while ((opt = getopt_long(argc, argv, "h", options, NULL)) != -1) {
		switch (opt) {
		case 'd': db = optarg; break;
		case 'a':
			if (!catalogue_valid_day(optarg))
				return stage_usage_error(program, "--as-of '%s' is not a date YYYY-MM-DD", optarg);
			mc_fmt(as_of, sizeof(as_of), "%s", optarg);
			break;
		case 'h': usage(); return EXIT_OK;
		case 'V': return stage_version(program);
		default: return stage_usage_error(program, "unknown option");
		}
	}
	if (optind >= argc)
		return stage_usage_error(program, "no staging file given");
	if (!as_of[0])
		catalogue_today(as_of);
	existed = !access(paths_db(db), F_OK);
	if (stage_catalogue(program, &cat, db, 0))
		return EXIT_FAILURE_;
	if (catalogue_load_begin(&cat, &load, as_of)) {
		stage_error(program, "%s", cat.err);
		goto out;
	}
	for (i = optind; i < argc; i++) {
		ingest_ctx ctx = { load, NULL, stderr };
		catalogue_export_stats stats;

		if (ingest_load_staged(&ctx, argv[i], &stats, err, sizeof(err))) {
			stage_error(program, "%s", err);
			stage_error(program, "nothing was written to the catalogue");
			catalogue_load_abort(load);
			goto out;
		}
		ingest_describe(argv[i], &stats, stdout);
		if (!stats.same_content)
			quarantined += stats.quarantined;
	}
	if (catalogue_load_commit(load)) {
		stage_error(program, "%s", cat.err);
		goto out;
	}
	status = stage_status(quarantined);
out:
	catalogue_close(&cat);
	if (status == EXIT_FAILURE_ && !existed)
		catalogue_remove(paths_db(db));
	return status;
}
