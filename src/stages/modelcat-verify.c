/*
 * modelcat-verify: check the snapshot store, the catalogue and (with
 * --out) the published site, one line per problem. Reads only: no lock
 * is taken and nothing is written.
 */
#include "cli/verify.h"
#include "ingest/rebuild.h"
#include "cli/options.h"
#include "cli/stage.h"

#include <stdio.h>

/* the --help texts; main has the option table (opt_parse_table) */
static const opt_command command = {
	.program = "modelcat-verify",
	.usage =
		"usage: modelcat verify [--db PATH] [--snapshots DIR] [--out DIR]\n",
	.description =
		"Checks, without writing anything or taking any lock:\n"
		"the snapshot store DIR (default: ./snapshots if it exists, else the\n"
		"installed snapshots): every entry of its export folders is a regular file\n"
		"inside it, and every snapshot file's content has the SHA-256 that the\n"
		"manifest (DIR/MANIFEST.tsv) and its name (<date>T<time>Z-<sha12>.csv.gz)\n"
		"record for it; a file with no recorded hash (the bundled history, a file\n"
		"copied in by hand) is read and counted in the summary, not a problem;\n"
		"the catalogue: SQLite's integrity_check, and every snapshot's export file\n"
		"present in the store with the content the snapshot loaded;\n"
		"with --out, the site published in DIR against what was published.\n"
		"Prints one line per problem, naming the file and what differs, then a\n"
		"summary line.\n",
	.exit =
		"Exit: 0 no problem; 1 problems found; 2 usage; 3 could not check (a store\n"
		"or catalogue that cannot be read).\n",
};

/* Check what the options name; the exit status. */
static int verify(const char *db, const char *dir, const char *out)
{
	verify_result v;
	catalogue cat;
	mc_err err;
	int status = MC_EXIT_FAILURE;

	verify_init(&v);
	if (verify_store(dir, stdout, &v, &err)) {
		stage_error(command.program, "%s", err.msg);
		goto done;
	}
	if (stage_catalogue(command.program, &cat, db, CATALOGUE_READONLY))
		goto done;
	if (verify_catalogue(&cat, dir, stdout, &v, &err)) {
		stage_error(command.program, "%s", err.msg);
		catalogue_close(&cat);
		goto done;
	}
	catalogue_close(&cat);
	if (out && verify_site(out, stdout, &v, &err)) {
		stage_error(command.program, "%s", err.msg);
		goto done;
	}
	printf("verify: %zu store files (%zu with no recorded hash), %zu snapshot files of the"
	       " catalogue%s: %zu problem%s\n", v.files, v.unrecorded, v.snapshot_files,
	       out ? ", the published site" : "", v.problems, v.problems == 1 ? "" : "s");
	status = v.problems ? 1 : MC_EXIT_OK;
done:
	verify_release(&v);
	if (fflush(stdout) && status != MC_EXIT_FAILURE)
		status = MC_EXIT_FAILURE;
	return status;
}

int main(int argc, char **argv)
{
	const char *db = NULL, *snapshot_dir = NULL, *out = NULL;
	int first, rc;
	opt_spec options[] = {
		OPT_DB(&db),
		{ .name = "snapshots", .arg = "DIR", .type = OPT_STRING, .dest = &snapshot_dir,
		  .help = "the snapshot store" },
		{ .name = "out", .arg = "DIR", .type = OPT_STRING, .dest = &out,
		  .help = "the published site to check (default: not checked)" },
		OPT_DONE
	};

	stage_init();
	if ((rc = opt_parse_table(&command, options, argc, argv, &first)))
		return opt_status(rc);
	if (first < argc)
		return stage_usage_error(command.program, "unexpected argument '%s'", argv[first]);
	if (!snapshot_dir)
		snapshot_dir = rebuild_default_store();
	return verify(db, snapshot_dir, out);
}
