/*
 * modelcat-diff: what changed between two dates: added, removed, renamed
 * and changed models (field by field), column changes, quarantined rows.
 */
#include "publish/audit.h"
#include "base/sbuf.h"
#include "base/printf.h"
#include "store/naming.h"
#include "cli/options.h"
#include "cli/stage.h"
#include "cli/snapref.h"
#include "ingest/bundleargs.h"
#include "ingest/ingest.h"
#include "db/snapshot.h"
#include "base/day.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* the --help texts; main has the option table (opt_parse_table) */
static const opt_command command = {
	.program = "modelcat-diff",
	.usage =
		"usage: modelcat diff [--db PATH] [--from DATE[.N]] [--to DATE[.N]]\n"
		"                     [--format text|json|html]\n"
		"       modelcat diff [--db PATH] [--to DATE] [--format ...] [--verbose]\n"
		"                     [EXPORT=]FILE...\n",
	.description =
		"Compares the catalogue as it stood on --from with how it stood on --to\n"
		"(default: the last two snapshots; --to alone compares with the snapshot\n"
		"before it). Each export is compared on its own, in normalised form, on\n"
		"the fields both snapshots' headers have: a column that appeared or\n"
		"disappeared is listed once, under columns, and changes no model.\n"
		"DATE.N names the N-th snapshot of that day (from 1, in load order):\n"
		"--from 2025-06-01.1 --to 2025-06-01.2 compares two snapshots of one day.\n"
		"\n"
		"With export files, parses them as the snapshot of --to (default today)\n"
		"and compares it with the catalogue's latest state before that date,\n"
		"writing nothing: what `modelcat ingest` of those files would change (a\n"
		"bundle, a zip of several exports, as each of its members; an\n"
		"export a guard of pipelines/guards.tsv would hold is listed as held;\n"
		"--accept: what ingest --accept would change).\n",
	.exit =
		"Exit: 0 written; 2 usage; 3 no snapshot (or no such DATE.N), or failure.\n",
};

static int stage_one(ingest_ctx *ctx, const char *arg, load_stats *stats, mc_err *err)
{
	return bundleargs_ingest(ctx, arg, stats, err);   /* a bundle: every member */
}

/*
 * Load the files as a snapshot dated to inside a transaction, compare it
 * with the state before, and roll back. 0 or -1 (error printed).
 */
static int diff_files(catalogue *cat, char *const *files, int n, const char *to, int accept,
		      int verbose, diff_result *d)
{
	colmap map;
	load *ld = NULL;
	char from[11];
	mc_err err;
	int i, rc = -1;

	if (stage_colmap(command.program, &map))
		return -1;
	if (snapshot_day_before(cat, to, from, &err) < 0) {
		stage_error(command.program, "%s", err.msg);
		goto out;
	}
	if (stage_begin_load(command.program, cat, to, accept, &ld))
		goto out;
	for (i = 0; i < n; i++) {
		ingest_ctx ctx = { ld, &map, stderr, verbose };
		load_stats stats;

		if (stage_one(&ctx, files[i], &stats, &err)) {
			stage_error(command.program, "%s", err.msg);
			goto out;
		}
	}
	if (query_diff(cat, from, to, d, &err)) {
		stage_error(command.program, "%s", err.msg);
		goto out;
	}
	rc = 0;
out:
	load_abort(ld);
	colmap_release(&map);
	return rc;
}

/* Compare two snapshots of which one is named DATE.N: 0, or the exit
 * status (the error printed). */
static int diff_numbered(catalogue *cat, const char *from, const char *to, diff_result *d)
{
	catalogue_id a, b;
	char label[16];
	mc_err err;
	int rc = snapref_pair(cat, from, to, &a, &b, label, &err);

	if (!rc)
		rc = query_diff_snapshots(cat, a, b, d, &err);
	if (rc) {
		stage_error(command.program, "%s", err.msg);
		return rc == 2 ? MC_EXIT_USAGE : MC_EXIT_FAILURE;
	}
	mc_fmt(d->from, sizeof(d->from), "%s", label);
	mc_fmt(d->to, sizeof(d->to), "%s", to);
	return 0;
}

int main(int argc, char **argv)
{
	static const char *const formats[] = { "text", "json", "html", NULL };
	const char *db = NULL, *format = "text";
	int accept_held = 0, verbose = 0;
	char from[16] = "", to[16] = "";
	opt_spec options[] = {
		OPT_DB(&db),
		{ .name = "from", .arg = "DATE[.N]", .type = OPT_SNAPSHOT, .dest = from,
		  .help = "YYYY-MM-DD (the earlier date) or YYYY-MM-DD.N" },
		{ .name = "to", .arg = "DATE[.N]", .type = OPT_SNAPSHOT, .dest = to,
		  .help = "YYYY-MM-DD (the later date) or YYYY-MM-DD.N" },
		{ .name = "accept", .type = OPT_FLAG, .dest = &accept_held,
		  .help = "with files: apply what a guard would hold, as ingest --accept" },
		OPT_FORMAT(&format, formats, "text (default: counts, then each change\n"
			   "`field: old -> new`), json (docs/diff-json.md), or html\n"
			   "(one self-contained page)"),
		OPT_VERBOSE(&verbose),
		OPT_DONE
	};
	catalogue cat;
	diff_result d;
	mc_err err;
	sbuf out;
	int first, rc, status = MC_EXIT_FAILURE, existed, i, numbered;

	stage_init();
	if ((rc = opt_parse_table(&command, options, argc, argv, &first)))
		return opt_status(rc);
	for (i = first; i < argc; i++)
		if (bundleargs_check(argv[i], 0, &err))
			return stage_usage_error(command.program, "%s", err.msg);
	if (first < argc && from[0])
		return stage_usage_error(command.program, "--from goes with two dates, not with files");
	numbered = snapref_numbered(from) || snapref_numbered(to);
	if (first < argc && numbered)
		return stage_usage_error(command.program, "a snapshot DATE.N does not go with files");
	if (from[0] && to[0] && !numbered && strcmp(from, to) >= 0)
		return stage_usage_error(command.program, "--from %s is not before --to %s", from, to);
	existed = !access(db, F_OK);
	if (stage_catalogue(command.program, &cat, db, first < argc ? 0 : CATALOGUE_READONLY))
		return MC_EXIT_FAILURE;
	sbuf_init(&out);
	memset(&d, 0, sizeof(d));
	if (!to[0] && (first < argc || numbered || from[0]))
		day_today(to);
	if (first < argc) {
		if (diff_files(&cat, argv + first, argc - first, to, accept_held, verbose, &d))
			goto out;
	} else if (numbered) {
		if ((status = diff_numbered(&cat, from, to, &d)) != 0)
			goto out;
	} else if (!to[0]) {
		rc = query_last_two(&cat, from, to, &err);
		if (rc) {
			stage_error(command.program, "%s",
				    rc > 0 ? "the catalogue holds no snapshot" : err.msg);
			goto out;
		}
	} else if (!from[0] && snapshot_day_before(&cat, to, from, &err) < 0) {
		stage_error(command.program, "%s", err.msg);
		goto out;
	}
	if (first == argc && !numbered && query_diff(&cat, from, to, &d, &err)) {
		stage_error(command.program, "%s", err.msg);
		goto out;
	}
	if (!strcmp(format, "json"))
		audit_json(&d, &out);
	else if (!strcmp(format, "html"))
		audit_html(&d, &out);
	else
		audit_text(&d, &out);
	status = stage_write_format(command.program, format, &out);
out:
	diff_result_release(&d);
	sbuf_release(&out);
	catalogue_close(&cat);
	if (!existed)
		catalogue_remove(db);
	return status;
}
