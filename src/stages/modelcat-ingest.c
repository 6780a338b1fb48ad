/*
 * modelcat-ingest: parse export files taken the same day and load them
 * into the catalogue as one snapshot, in one transaction.
 */
#include "ingest.h"
#include "stage.h"
#include "paths.h"

#include <getopt.h>
#include <stdio.h>
#include <unistd.h>
#include <string.h>

static const char program[] = "modelcat-ingest";

static void usage(void)
{
	printf("usage: modelcat ingest [--db PATH] [--as-of YYYY-MM-DD] [EXPORT=]FILE...\n"
	       "\n"
	       "Parses each FILE (.csv, .csv.gz or .zip), normalises its values and loads\n"
	       "all of them into the catalogue as one snapshot dated --as-of (default:\n"
	       "today, UTC). EXPORT names the export (notable_ai_models, all_ai_models,\n"
	       "...); without it the name is the file's name less .gz, .zip and .csv, or,\n"
	       "when that is a date (snapshots/<export>/<date>.csv.gz), its folder's name.\n"
	       "\n"
	       "Rows that cannot be read are quarantined with one line on stderr naming\n"
	       "file, line, field and reason; the other rows load. A file whose content\n"
	       "equals the export's previous snapshot is recorded as no change.\n"
	       "\n"
	       "  --db PATH         the catalogue (default $MODELCAT_DB, else ./modelcat.db)\n"
	       "  --as-of DATE      the snapshot's date, YYYY-MM-DD\n"
	       "  --help, --version\n"
	       "\n"
	       "Exit: 0 loaded; 1 loaded with rows quarantined; 2 usage; 3 failure, the\n"
	       "catalogue unchanged.\n");
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
	colmap map;
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
		return stage_usage_error(program, "no export file given");
	for (i = optind; i < argc; i++) {
		char name[INGEST_EXPORT_MAX + 1];
		const char *path;

		if (ingest_split_arg(argv[i], name, sizeof(name), &path))
			return stage_usage_error(program, "%s: cannot tell the export's name;"
						 " write EXPORT=FILE", argv[i]);
	}
	if (!as_of[0])
		catalogue_today(as_of);
	if (stage_colmap(program, &map))
		return EXIT_FAILURE_;
	existed = !access(paths_db(db), F_OK);
	if (stage_catalogue(program, &cat, db, 0)) {
		colmap_release(&map);
		return EXIT_FAILURE_;
	}
	if (catalogue_load_begin(&cat, &load, as_of)) {
		stage_error(program, "%s", cat.err);
		goto out;
	}
	for (i = optind; i < argc; i++) {
		ingest_ctx ctx = { load, &map, stderr };
		catalogue_export_stats stats;
		char name[INGEST_EXPORT_MAX + 1];
		const char *path;

		ingest_split_arg(argv[i], name, sizeof(name), &path);
		if (ingest_file(&ctx, name, path, &stats, err, sizeof(err))) {
			stage_error(program, "%s", err);
			stage_error(program, "nothing was written to the catalogue");
			catalogue_load_abort(load);
			goto out;
		}
		ingest_describe(name, &stats, stdout);
		if (!stats.same_content)
			quarantined += stats.quarantined;
	}
	if (catalogue_load_commit(load)) {
		stage_error(program, "%s", cat.err);
		goto out;
	}
	printf("snapshot %s loaded into %s\n", as_of, cat.path);
	status = stage_status(quarantined);
out:
	catalogue_close(&cat);
	if (status == EXIT_FAILURE_ && !existed)
		catalogue_remove(paths_db(db));
	colmap_release(&map);
	return status;
}
