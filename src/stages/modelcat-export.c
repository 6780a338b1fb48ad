/*
 * modelcat-export: an export as it stood on a date, as CSV on stdout.
 */
#include "cli/stage.h"
#include "store/naming.h"
#include "ingest/ingest.h"
#include "db/query.h"

#include <getopt.h>
#include <stdio.h>

static const char program[] = "modelcat-export";

static void usage(void)
{
	printf("usage: modelcat export [--db PATH] --source EXPORT [--as-of YYYY-MM-DD]\n"
	       "\n"
	       "Writes EXPORT as the catalogue held it on the date (default: today, UTC):\n"
	       "the header of the latest snapshot on or before that date, with canonical\n"
	       "column names, then every row that was loaded from it, in file order, with\n"
	       "normalised values. Quarantined rows are not part of it (see the quarantine\n"
	       "table).\n"
	       "\n"
	       "  --db PATH         the catalogue (default $MODELCAT_DB, else ./modelcat.db)\n"
	       "  --source EXPORT   notable_ai_models, all_ai_models, ...\n"
	       "  --as-of DATE      YYYY-MM-DD\n"
	       "  --help, --version\n"
	       "\n"
	       "Exit: 0 written; 2 usage; 3 no such export on that date, or failure.\n");
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "source", required_argument, NULL, 's' },
		{ "as-of", required_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	const char *db = NULL, *source = NULL;
	char as_of[11] = "";
	catalogue cat;
	mc_err err;
	sbuf out;
	int opt, rc, status = MC_EXIT_FAILURE;

	stage_init();
	while ((opt = getopt_long(argc, argv, "h", options, NULL)) != -1) {
		switch (opt) {
		case 'd': db = optarg; break;
		case 's': source = optarg; break;
		case 'a':
			if (stage_parse_day(program, optarg, as_of))
				return MC_EXIT_USAGE;
			break;
		case 'h': usage(); return MC_EXIT_OK;
		case 'V': return stage_version(program);
		default: return stage_usage_error(program, "unknown option");
		}
	}
	if (!source)
		return stage_usage_error(program, "--source EXPORT is required");
	if (!naming_export_valid(source))
		return stage_usage_error(program, "'%s' is not a valid export name", source);
	if (optind < argc)
		return stage_usage_error(program, "unexpected argument '%s'", argv[optind]);
	if (!as_of[0])
		catalogue_today(as_of);
	if (stage_catalogue(program, &cat, db, CATALOGUE_READONLY))
		return MC_EXIT_FAILURE;
	sbuf_init(&out);
	rc = query_export_csv(&cat, source, as_of, &out, &err);
	if (rc) {
		stage_error(program, "%s", err.msg);
	} else {
		status = stage_write_stdout(program, &out);
	}
	sbuf_release(&out);
	catalogue_close(&cat);
	return status;
}
