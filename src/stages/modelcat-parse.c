/*
 * modelcat-parse: read one export, map its header, normalise every value,
 * report bad rows; optionally keep the result in a staging file for
 * modelcat-load.
 */
#include "ingest/bundleargs.h"
#include "base/textout.h"
#include "ingest/ingest.h"
#include "store/naming.h"
#include "cli/options.h"
#include "cli/stage.h"
#include "read/csv.h"

#include <stdio.h>

/* the --help texts; main has the option table (opt_parse_table) */
static const opt_command command = {
	.program = "modelcat-parse",
	.usage =
		"usage: modelcat parse [--out STAGING.db] [--verbose] [EXPORT=]FILE\n"
		"       modelcat parse --records-only FILE\n",
	.description =
		"Reads FILE (.csv, .csv.gz or .zip), maps its header onto the column map\n"
		"(pipelines/columns.tsv), normalises every value and reports each row that\n"
		"cannot be read on stderr (file, line, field, reason). Prints a summary.\n"
		"With --out, writes the parsed export to a staging SQLite file (tables\n"
		"staging_export, staging_column, staging_row, staging_notice) that\n"
		"`modelcat load` loads and `sqlite3` can inspect. Past 98,304 distinct\n"
		"names, the counts that number repeated names (NAME#2) go to an unnamed\n"
		"temporary file in $TMPDIR, else /tmp. A bundle (a zip of several .csv\n"
		"exports, docs/store.md) is parsed one member at a time: FILE.zip/MEMBER;\n"
		"FILE.zip itself is a usage error that lists its members.\n"
		"With --records-only, only splits FILE into CSV records (no column map, no\n"
		"normalising) and prints how many, the bytes read and the splitter used\n"
		"(avx2, sse2, fields or scalar: the CPU's best, or $MODELCAT_CSV_PATH): a\n"
		"measure of the CSV reader alone.\n",
	.exit =
		"Exit: 0 all rows good; 1 some rows quarantined; 2 usage; 3 failure.\n",
};

/* --records-only: split path into records and count them. */
static int records_only(const char *path)
{
	csv_reader *reader;
	csv_row row;
	mc_err err;
	unsigned long records = 0;
	int rc;

	if (csv_open(&reader, path, &err)) {
		stage_error(command.program, "%s", err.msg);
		return MC_EXIT_FAILURE;
	}
	while ((rc = csv_next(reader, &row, &err)) == 1)
		records++;
	if (rc == 0)
		textout_line(stdout, "%s: %lu records, %llu bytes (%s splitter)", path, records,
		       csv_bytes_read(reader), csv_path_name(csv_get_path(reader)));
	else
		stage_error(command.program, "%s", err.msg);
	csv_free(reader);
	return rc ? MC_EXIT_FAILURE : 0;
}

int main(int argc, char **argv)
{
	const char *out = NULL, *path;
	char name[NAMING_EXPORT_MAX + 1];
	mc_err err;
	load_stats stats;
	colmap map;
	int first, rc, only_records = 0, verbose = 0;
	opt_spec options[] = {
		{ .name = "out", .arg = "FILE", .type = OPT_STRING, .dest = &out,
		  .help = "write the staging file (replaced if it exists)" },
		{ .name = "records-only", .type = OPT_FLAG, .dest = &only_records,
		  .help = "only split FILE into CSV records and count them" },
		OPT_VERBOSE(&verbose),
		OPT_DONE
	};

	stage_init();
	if ((rc = opt_parse_table(&command, options, argc, argv, &first)))
		return opt_status(rc);
	if (first != argc - 1)
		return stage_usage_error(command.program, "expected exactly one export file");
	if (only_records && out)
		return stage_usage_error(command.program, "--records-only writes no staging file");
	if (only_records)
		return records_only(argv[first]);
	/* one export: a bundle's member is named, FILE.zip/MEMBER */
	if (bundleargs_check(argv[first], 1, &err))
		return stage_usage_error(command.program, "%s", err.msg);
	naming_split_arg(argv[first], name, sizeof(name), &path);
	if (stage_colmap(command.program, &map))
		return MC_EXIT_FAILURE;
	if (out)
		rc = ingest_stage(&map, name, path, out, stderr, verbose, &stats, &err);
	else
		rc = ingest_check(colmap_for_export(&map, name), path, stderr, verbose, &stats,
				  &err);
	colmap_release(&map);
	if (rc) {
		stage_error(command.program, "%s", err.msg);
		return MC_EXIT_FAILURE;
	}
	textout_line(stdout, "%s (%s): %lu rows, %lu good, %lu quarantined%s%s", path, name,
		     stats.rows,
	       stats.loaded, stats.quarantined, out ? "; staged in " : "", out ? out : "");
	return stage_status(stats.quarantined);
}
