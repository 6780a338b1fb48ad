/*
 * modelcat-export: an export as it stood on a date, as CSV on stdout.
 */
#include "cli/options.h"
#include "base/sbuf.h"
#include "cli/stage.h"
#include "cli/snapref.h"
#include "store/naming.h"
#include "ingest/ingest.h"
#include "publish/exportcsv.h"
#include "base/day.h"

#include <stdio.h>

/* the --help texts; main has the option table (opt_parse_table) */
static const opt_command command = {
	.program = "modelcat-export",
	.usage =
		"usage: modelcat export [--db PATH] --source EXPORT [--as-of DATE[.N]]\n",
	.description =
		"Writes EXPORT as the catalogue held it on the date (default: today, UTC):\n"
		"the header of the latest snapshot on or before that date, with canonical\n"
		"column names, then every row that was loaded from it, in file order, with\n"
		"normalised values; a number as stored, the shortest text that reads back as\n"
		"the same double (342212.3909614999, 1.7976931348623157e+308). Quarantined\n"
		"rows are not part of it (see the quarantine table). --as-of DATE.N names\n"
		"the N-th snapshot of that day (from 1, in the order they were loaded): the\n"
		"export as it stood right after it.\n",
	.exit =
		"Exit: 0 written; 2 usage; 3 no such export on that date, no snapshot\n"
		"DATE.N, or failure.\n",
};

int main(int argc, char **argv)
{
	const char *db = NULL, *source = NULL;
	char as_of[16] = "";
	catalogue_id snapshot = 0;
	opt_spec options[] = {
		OPT_DB(&db),
		{ .name = "source", .arg = "EXPORT", .type = OPT_STRING, .dest = &source,
		  .help = "notable_ai_models, all_ai_models, ..." },
		OPT_AS_OF_SNAPSHOT(as_of, "YYYY-MM-DD, or YYYY-MM-DD.N: the N-th snapshot\n"
				   "of the day (default: today, UTC)"),
		OPT_DONE
	};
	catalogue cat;
	mc_err err;
	sbuf out;
	int first, rc, status = MC_EXIT_FAILURE;

	stage_init();
	if ((rc = opt_parse_table(&command, options, argc, argv, &first)))
		return opt_status(rc);
	if (!source)
		return stage_usage_error(command.program, "--source EXPORT is required");
	if (!naming_export_valid(source))
		return stage_usage_error(command.program, "'%s' is not a valid export name", source);
	if (first < argc)
		return stage_usage_error(command.program, "unexpected argument '%s'", argv[first]);
	if (!as_of[0])
		day_today(as_of);
	if (stage_catalogue(command.program, &cat, db, CATALOGUE_READONLY))
		return MC_EXIT_FAILURE;
	sbuf_init(&out);
	if (snapref_numbered(as_of))
		rc = snapref_find(&cat, as_of, &snapshot, &err);
	if (!rc)
		rc = snapshot ? exportcsv_write_at(&cat, source, snapshot, as_of, &out, &err)
			: exportcsv_write(&cat, source, as_of, &out, &err);
	if (rc) {
		stage_error(command.program, "%s", err.msg);
	} else {
		status = stage_write_stdout(command.program, &out);
	}
	sbuf_release(&out);
	catalogue_close(&cat);
	return status;
}
