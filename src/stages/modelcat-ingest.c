/*
 * modelcat-ingest: parse export files taken the same day and load them
 * into the catalogue as one snapshot, in one transaction.
 */
#include "ingest/bundle.h"
#include "ingest/ingest.h"
#include "ingest/rebuild.h"
#include "base/alloc.h"
#include "store/naming.h"
#include "cli/options.h"
#include "cli/stage.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the --help texts; main has the option table (opt_parse_table) */
static const opt_command command = {
	.program = "modelcat-ingest",
	.usage =
		"usage: modelcat ingest [--db PATH] [--as-of YYYY-MM-DD [--allow-future]]\n"
		"                       [--wait SECONDS] [--accept | --accept-export EXPORT...]\n"
		"                       [--snapshots DIR] [--verbose] [EXPORT=]FILE...\n",
	.description =
		"Parses each FILE (.csv, .csv.gz or .zip), normalises its values and loads\n"
		"all of them into the catalogue as one snapshot dated --as-of (default:\n"
		"the date in the files' names when they come from the snapshot store,\n"
		"<export>/<YYYY-MM-DD>.csv.gz, and all agree; else today, UTC); a date\n"
		"after tomorrow (UTC) needs --allow-future. A FILE must be a regular file\n"
		"(not a pipe). EXPORT names the export (notable_ai_models, all_ai_models,\n"
		"...); without it the name is the file's name less .gz, .zip and .csv, or,\n"
		"when that is a date (snapshots/<export>/<date>.csv.gz), its folder's name.\n"
		"A .zip of several .csv members is a bundle (Epoch's ai_models.zip): each\n"
		"member is an export named by its file name less .csv, all in the one\n"
		"snapshot, and the licence and citation of its README.md are stored with it;\n"
		"EXPORT=FILE of a bundle is a usage error that lists its members.\n"
		"\n"
		"Rows that cannot be read are quarantined with one line on stderr naming\n"
		"file, line, field and reason; the other rows load. A file whose content\n"
		"equals the export's previous snapshot is recorded as no change. Past\n"
		"98,304 distinct names in one file, the counts that number repeated names\n"
		"(NAME#2) go to an unnamed temporary file in $TMPDIR, else /tmp.\n"
		"Names (the model's, list items such as organisations) are read in\n"
		"Unicode canonical form: NFC, zero-width characters and byte-order marks\n"
		"removed, no-break spaces made spaces; a name so changed is a notice on\n"
		"stderr (FILE:LINE: FIELD: name normalised (why)). The columns of a file\n"
		"that the column map lacks are kept as text fields and counted in one line\n"
		"on stderr (--verbose: each named on a line of its own); every notice, each\n"
		"of those columns too, is kept in the catalogue's notice table. The\n"
		"summary line counts each file's notices.\n"
		"\n"
		"An export whose file trips a guard of pipelines/guards.tsv (no rows; too\n"
		"many models removed, rows quarantined, or columns gained or lost) is held\n"
		"for review: nothing of it is applied, one line on stderr names the guard\n"
		"and the numbers, and the snapshot records it. --accept applies it (every\n"
		"export; --accept-export EXPORT: that one; an EXPORT no FILE is of is a usage\n"
		"error), and the content so accepted is applied by later loads of this\n"
		"catalogue. When the FILE is a file of the snapshot store (--snapshots DIR,\n"
		"DIR/EXPORT/DATE.csv.gz: that folder, not any path of that shape), the\n"
		"acceptance is also recorded in DIR/ACCEPTED.tsv, so that reingest applies\n"
		"it too; a FILE elsewhere is accepted in the catalogue only (said on stdout)\n"
		"and nothing is written beside it.\n"
		"\n"
		"It holds the catalogue's writer lock (PATH.lock) while it loads; when\n"
		"another writer holds it, it waits up to --wait seconds, then exits 75.\n",
	.exit =
		"Exit: 0 loaded; 1 loaded with rows quarantined, or an export held; 2 usage;\n"
		"3 failure, the catalogue unchanged; 75 another writer held the catalogue,\n"
		"unchanged.\n",
};

/* --verbose: each column not in the column map listed (load_one's) */
static int verbose;

static int load_one(ingest_ctx *ctx, const char *arg, load_stats *stats,
		    char *label, size_t labellen, mc_err *err)
{
	const char *path;

	ctx->verbose = verbose;
	naming_split_arg(arg, label, labellen, &path);
	return ingest_file(ctx, label, path, stats, err);
}

/* Does each --accept-export name an export of the files given? 0, or a
 * usage error (exit status) naming it and the exports given. */
static int check_accept_exports(char *const *args, int n, const opt_list *accept)
{
	char (*names)[NAMING_EXPORT_MAX + 1] = xcalloc((size_t)n + 1, sizeof(*names));
	const char **known = xcalloc((size_t)n + 1, sizeof(*known));
	const char *path;
	int i, rc;

	for (i = 0; i < n; i++) {
		naming_split_arg(args[i], names[i], sizeof(names[i]), &path);
		known[i] = names[i];
	}
	rc = opt_check_known(command.program, "accept-export", accept, known, (size_t)n, NULL,
			     "no file of that export is given");
	free(known);
	free(names);
	return rc;
}

int main(int argc, char **argv)
{
	const char *db = NULL;
	char as_of[11] = "";
	int allow_future = 0, accept = 0;
	long wait = 0;
	opt_list accept_exports = { NULL, 0 };
	const char *store = NULL;
	opt_spec options[] = {
		OPT_DB(&db),
		OPT_AS_OF(as_of, "the snapshot's date, YYYY-MM-DD"),
		OPT_ALLOW_FUTURE(&allow_future),
		OPT_WAIT(&wait),
		{ .name = "accept", .type = OPT_FLAG, .dest = &accept,
		  .help = "apply the exports a guard would hold" },
		{ .name = "accept-export", .arg = "EXPORT", .type = OPT_LIST,
		  .dest = &accept_exports, .help = "apply EXPORT if a guard would hold it" },
		{ .name = "snapshots", .arg = "DIR", .type = OPT_STRING, .dest = &store,
		  .help = "the snapshot store whose ACCEPTED.tsv its files' acceptances\n"
			  "are read from and recorded in (default ./snapshots if a\n"
			  "folder, else the installed one)" },
		OPT_VERBOSE(&verbose),
		OPT_DONE
	};
	colmap map;
	char **args = NULL;
	int first, rc, i, status, nargs = 0;
	mc_err err;

	stage_init();
	if ((rc = opt_parse_table(&command, options, argc, argv, &first)))
		return opt_status(rc);
	if ((rc = stage_check_as_of(command.program, as_of, allow_future)))
		return rc;
	if (first >= argc)
		return stage_usage_error(command.program, "no export file given");
	/* a bundle is one argument per member from here on */
	if ((rc = bundle_expand(argv + first, argc - first, &args, &nargs, &err)))
		return stage_usage_error(command.program, "%s", err.msg);
	argv = args;
	argc = nargs;
	first = 0;
	for (i = first; i < argc; i++) {
		char name[NAMING_EXPORT_MAX + 1];
		const char *path;

		if (naming_split_arg(argv[i], name, sizeof(name), &path)) {
			rc = stage_usage_error(command.program, "%s: cannot tell the export's name;"
					       " write EXPORT=FILE", argv[i]);
			mc_free_strings(args, (size_t)nargs);
			return rc;
		}
	}
	if ((rc = check_accept_exports(argv + first, argc - first, &accept_exports))) {
		mc_free_strings(args, (size_t)nargs);
		opt_release(options);
		return rc;
	}
	/* files from the snapshot store are dated by their names */
	if (!as_of[0]) {
		char day[11], day0[11] = "";

		for (i = first; i < argc; i++) {
			char name[NAMING_EXPORT_MAX + 1];
			const char *path;

			naming_split_arg(argv[i], name, sizeof(name), &path);
			if (naming_snapshot_date(path, day) || (day0[0] && strcmp(day, day0))) {
				day0[0] = '\0';
				break;
			}
			memcpy(day0, day, sizeof(day0));
		}
		memcpy(as_of, day0, sizeof(as_of));
	}
	if (stage_colmap(command.program, &map)) {
		mc_free_strings(args, (size_t)nargs);
		return MC_EXIT_FAILURE;
	}
	status = stage_load_snapshot(command.program, db, as_of, wait, &map, argv + first,
				     argc - first, load_one, accept, accept_exports.items,
				     accept_exports.n, store ? store : rebuild_default_store());
	colmap_release(&map);
	opt_release(options);
	mc_free_strings(args, (size_t)nargs);
	return status;
}
