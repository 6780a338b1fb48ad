/*
 * modelcat-load: load staging files written by modelcat-parse into the
 * catalogue as one snapshot, in one transaction.
 */
#include "ingest/ingest.h"
#include "base/printf.h"
#include "cli/options.h"
#include "cli/stage.h"

#include <stdio.h>

/* the --help texts; main has the option table (opt_parse_table) */
static const opt_command command = {
	.program = "modelcat-load",
	.usage =
		"usage: modelcat load [--db PATH] [--as-of YYYY-MM-DD [--allow-future]]\n"
		"                     [--wait SECONDS] [--accept] STAGING.db...\n",
	.description =
		"Loads the staging files written by `modelcat parse --out` into the\n"
		"catalogue as one snapshot dated --as-of (default: today, UTC), in one\n"
		"transaction: on any failure the catalogue is left as it was. A date\n"
		"after tomorrow (UTC) needs --allow-future. It holds the catalogue's writer\n"
		"lock (PATH.lock) while it loads; when another writer holds it, it waits\n"
		"up to --wait seconds, then exits 75. An export a guard of\n"
		"pipelines/guards.tsv holds is not applied (as modelcat ingest); --accept\n"
		"applies it.\n",
	.exit =
		"Exit: 0 loaded; 1 loaded, some rows were quarantined or an export held;\n"
		"2 usage; 3 failure; 75 another writer held the catalogue.\n",
};

static int load_one(ingest_ctx *ctx, const char *arg, load_stats *stats,
		    char *label, size_t labellen, mc_err *err)
{
	mc_fmt(label, labellen, "%s", arg);
	return ingest_load_staged(ctx, arg, stats, err);
}

int main(int argc, char **argv)
{
	const char *db = NULL;
	char as_of[11] = "";
	int allow_future = 0, accept = 0;
	long wait = 0;
	opt_spec options[] = {
		OPT_DB(&db),
		OPT_AS_OF(as_of, "the snapshot's date, YYYY-MM-DD"),
		OPT_ALLOW_FUTURE(&allow_future),
		OPT_WAIT(&wait),
		{ .name = "accept", .type = OPT_FLAG, .dest = &accept,
		  .help = "apply an export a guard would hold" },
		OPT_DONE
	};
	int first, rc;

	stage_init();
	if ((rc = opt_parse_table(&command, options, argc, argv, &first)))
		return opt_status(rc);
	if ((rc = stage_check_as_of(command.program, as_of, allow_future)))
		return rc;
	if (first >= argc)
		return stage_usage_error(command.program, "no staging file given");
	return stage_load_snapshot(command.program, db, as_of, wait, NULL, argv + first,
				   argc - first, load_one, accept, NULL, 0, NULL);
}
