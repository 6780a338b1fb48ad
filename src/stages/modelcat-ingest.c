/*
 * modelcat-ingest: parse export files taken the same day and load them
 * into the catalogue as one snapshot, in one transaction.
 */
#include "ingest/ingest.h"
#include "store/naming.h"
#include "cli/stage.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

static const char program[] = "modelcat-ingest";

static void usage(void)
{
	printf("usage: modelcat ingest [--db PATH] [--as-of YYYY-MM-DD] [EXPORT=]FILE...\n"
	       "\n"
	       "Parses each FILE (.csv, .csv.gz or .zip), normalises its values and loads\n"
	       "all of them into the catalogue as one snapshot dated --as-of (default:\n"
	       "the date in the files' names when they come from the snapshot store,\n"
	       "<export>/<YYYY-MM-DD>.csv.gz, and all agree; else today, UTC). EXPORT\n"
	       "names the export (notable_ai_models, all_ai_models, ...); without it the\n"
	       "name is the file's name less .gz, .zip and .csv, or, when that is a date\n"
	       "(snapshots/<export>/<date>.csv.gz), its folder's name.\n"
	       "\n"
	       "Rows that cannot be read are quarantined with one line on stderr naming\n"
	       "file, line, field and reason; the other rows load. A file whose content\n"
	       "equals the export's previous snapshot is recorded as no change. Past\n"
	       "98,304 distinct names in one file, the counts that number repeated names\n"
	       "(NAME#2) go to an unnamed temporary file in $TMPDIR, else /tmp.\n"
	       "\n"
	       "  --db PATH         the catalogue (default $MODELCAT_DB, else ./modelcat.db)\n"
	       "  --as-of DATE      the snapshot's date, YYYY-MM-DD\n"
	       "  --help, --version\n"
	       "\n"
	       "Exit: 0 loaded; 1 loaded with rows quarantined; 2 usage; 3 failure, the\n"
	       "catalogue unchanged.\n");
}

static int load_one(ingest_ctx *ctx, const char *arg, load_stats *stats,
		    char *label, size_t labellen, mc_err *err)
{
	const char *path;

	naming_split_arg(arg, label, labellen, &path);
	return ingest_file(ctx, label, path, stats, err);
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
	char as_of[11] = "";
	colmap map;
	int opt, i, status;

	stage_init();
	while ((opt = getopt_long(argc, argv, "h", options, NULL)) != -1) {
		switch (opt) {
		case 'd': db = optarg; break;
		case 'a':
			if (stage_parse_day(program, optarg, as_of))
				return MC_EXIT_USAGE;
			break;
		case 'h': usage(); return MC_EXIT_OK;
		case 'V': return stage_version(program);
		default: return stage_usage_error(program, "unknown option");
		}
	}
	if (optind >= argc)
		return stage_usage_error(program, "no export file given");
	for (i = optind; i < argc; i++) {
		char name[NAMING_EXPORT_MAX + 1];
		const char *path;

		if (naming_split_arg(argv[i], name, sizeof(name), &path))
			return stage_usage_error(program, "%s: cannot tell the export's name;"
						 " write EXPORT=FILE", argv[i]);
	}
	/* files from the snapshot store are dated by their names */
	if (!as_of[0]) {
		char day[11], first[11] = "";

		for (i = optind; i < argc; i++) {
			char name[NAMING_EXPORT_MAX + 1];
			const char *path;

			naming_split_arg(argv[i], name, sizeof(name), &path);
			if (naming_snapshot_date(path, day) || (first[0] && strcmp(day, first))) {
				first[0] = '\0';
				break;
			}
			memcpy(first, day, sizeof(first));
		}
		memcpy(as_of, first, sizeof(as_of));
	}
	if (stage_colmap(program, &map))
		return MC_EXIT_FAILURE;
	status = stage_load_snapshot(program, db, as_of, &map, argv + optind, argc - optind,
				     load_one);
	colmap_release(&map);
	return status;
}
