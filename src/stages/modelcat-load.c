/*
 * modelcat-load: load staging files written by modelcat-parse into the
 * catalogue as one snapshot, in one transaction.
 */
#include "ingest/ingest.h"
#include "cli/stage.h"

#include <getopt.h>
#include <stdio.h>

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

static int load_one(ingest_ctx *ctx, const char *arg, load_stats *stats,
		    char *label, size_t labellen, mc_err *err)
{
	mc_fmt(label, labellen, "%s", arg);
	return ingest_load_staged(ctx, arg, stats, err);
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
	int opt;

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
		return stage_usage_error(program, "no staging file given");
	return stage_load_snapshot(program, db, as_of, NULL, argv + optind, argc - optind,
				   load_one);
}
