/*
 * modelcat-publish: render the catalogue (every model's pages, the audit
 * of every snapshot, the audit index, the Atom feed) and publish it under
 * DIR in one switch (out/site.h), as `modelcat run` does after ingesting.
 */
#include "base/textout.h"
#include "cli/job.h"
#include "cli/options.h"
#include "cli/snapref.h"
#include "cli/stage.h"
#include "cli/writelock.h"
#include "publish/render.h"
#include "publish/site.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* the --help texts; main has the option table (opt_parse_table) */
static const opt_command command = {
	.program = "modelcat-publish",
	.usage = "usage: modelcat publish [--db PATH] [--out DIR] [--as-of DATE[.N]] [--wait SECONDS]\n"
		 "                        [--base-url URL]\n",
	.description =
		"Renders the catalogue as it stood on the date (default: its latest snapshot)\n"
		"and publishes it under DIR (default ./public) as one switch: every model's\n"
		"page in every stored language, the audit of every snapshot (DATE.* for the\n"
		"day's first, DATE.N.* for the N-th), the audit index, the Atom feed, and\n"
		"the root page DIR/index.html (what the site is, when it was published, a\n"
		"link to each language's index and to the audit; a file of yours there is\n"
		"kept). Every HTML page has the site's header: the root page, the index, the\n"
		"audit and the same page in the other languages. A reader of DIR/index.html,\n"
		"DIR/pages and DIR/audit sees the old site or the new one, never a\n"
		"mix. A snapshot published before and no longer in the catalogue (a rollback)\n"
		"is withdrawn: its audit goes and the feed says so in an entry of its own.\n"
		"DIR/downloads offers each export as published, EXPORT-DATE.csv (what\n"
		"export prints for the date; DATE its latest snapshot) and EXPORT-DATE.json\n"
		"(the same values), and models/STEM.json, the JSON twin of each model's\n"
		"page; the root page and the indexes list them with their sizes. Model\n"
		"pages, the indexes and the root page carry a citation block (credit,\n"
		"licence, the snapshot's date, the SHA-256 of its source files, a BibTeX\n"
		"entry). A page or a download is written again only when its bytes change;\n"
		"a model whose files the published version made from the same inputs\n"
		"(keys.tsv) has them linked from it, not made again.\n"
		"The index entries and the model pages are made on every core, at most 4\n"
		"($MODELCAT_RENDER_THREADS, 1 to 8, sets how many).\n"
		"Files under DIR/pages, DIR/audit and DIR/downloads that modelcat did not\n"
		"write are kept.\n"
		"Holds the catalogue's writer lock (PATH.lock) while it publishes, as run\n"
		"does: when another writer holds it, waits up to --wait seconds, then exits 75\n"
		"naming the holder. It holds DIR's lock (DIR/.modelcat/lock) too: a publish\n"
		"of another catalogue into DIR waits for it the same way. A DIR/.modelcat\n"
		"that is a symbolic link, not a folder, or not this user's is refused (exit\n"
		"3); publish removes only the folders it made there. --base-url (or a\n"
		"base-url line in pipelines/site.tsv) is the URL of DIR: the Atom feed's\n"
		"links and the pages' hreflang links are made absolute with it.\n",
	.exit =
		"Exit: 0 published; 2 usage; 3 failure, the published site as it was; 75\n"
		"another writer holds the catalogue's lock, or another publish DIR's; 128 + N\n"
		"killed by signal N (SIGINT, SIGTERM, SIGHUP): the half-built version is\n"
		"removed, the published site as it was.\n",
};

/* Publish under the lock; the exit status. */
static int publish(const char *db, const char *out, const char *as_of_arg, long wait,
		   const char *base_url)
{
	char as_of[11] = "";
	site_options o = { as_of, command.program, job_log, NULL, NULL, base_url, wait };
	writelock lock;
	site_stats st;
	catalogue cat;
	mc_err err;
	int status = MC_EXIT_FAILURE;

	/* the writer lock: one publish, run or other writer at a time */
	if ((status = writelock_stage(&lock, command.program, db, wait)))
		return status;
	status = MC_EXIT_FAILURE;
	if (stage_catalogue(command.program, &cat, db, CATALOGUE_READONLY)) {
		writelock_release(&lock);
		return MC_EXIT_FAILURE;
	}
	if (as_of_arg[0] && snapref_day(&cat, as_of_arg, as_of, &err)) {
		stage_error(command.program, "%s", err.msg);
	} else if ((status = site_publish(&cat, out, &o, &st, &err))) {
		stage_error(command.program, "%s", err.msg);
		status = status > 0 ? MC_EXIT_LOCKED : MC_EXIT_FAILURE;
	} else {
		textout_line(stdout, "published %s in %s: %zu snapshot%s, %lu file%s (%lu written),"
			     " %zu model%s (%zu made anew), %zu audit%s computed, %zu withdrawn",
			     st.label, out, st.snapshots, st.snapshots == 1 ? "" : "s", st.files,
			     st.files == 1 ? "" : "s", st.written, st.models,
			     st.models == 1 ? "" : "s", st.models_made, st.audits,
			     st.audits == 1 ? "" : "s", st.withdrawn);
		status = fflush(stdout) ? MC_EXIT_FAILURE : MC_EXIT_OK;
	}
	catalogue_close(&cat);
	writelock_release(&lock);
	return status;
}

int main(int argc, char **argv)
{
	const char *db = NULL, *out = "public", *base_url = NULL;
	char as_of[16] = "";
	long wait = 0;
	opt_spec options[] = {
		OPT_DB(&db),
		{ .name = "out", .arg = "DIR", .type = OPT_STRING, .dest = &out,
		  .help = "where to publish (default: ./public)" },
		OPT_AS_OF_SNAPSHOT(as_of, "the date to render (default: the latest snapshot's),\n"
				   "or YYYY-MM-DD.N when that is the day's last"),
		OPT_WAIT(&wait),
		{ .name = "base-url", .arg = "URL", .type = OPT_STRING, .dest = &base_url,
		  .help = "the URL of DIR: absolute links in the feed" },
		OPT_DONE
	};
	mc_err err;
	int first, rc;

	stage_init();
	job_catch_signals();
	rc = opt_parse_table(&command, options, argc, argv, &first);
	if (rc)
		return opt_status(rc);
	if (first < argc)
		return stage_usage_error(command.program, "unexpected argument '%s'", argv[first]);
	if (!*out)
		return stage_usage_error(command.program, "--out needs a folder");
	if (base_url && !site_base_url_ok(base_url))
		return stage_usage_error(command.program, "--base-url %s: not an http:// or https:// URL",
					 base_url);
	if (render_threads_check(&err))
		return stage_usage_error(command.program, "%s", err.msg);
	return publish(db, out, as_of, wait, base_url);
}
