/*
 * modelcat-reingest: rebuild the catalogue from every stored snapshot,
 * oldest first, under the catalogue's writer lock. The new catalogue is
 * built beside the old one and copied into it only when complete, so a
 * failure leaves the old one as it was.
 */
#include "base/textout.h"
#include "ingest/rebuild.h"
#include "db/catalogue.h"
#include "cli/options.h"
#include "cli/stage.h"
#include "cli/writelock.h"
#include "base/paths.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* the --help texts; main has the option table (opt_parse_table) */
static const opt_command command = {
	.program = "modelcat-reingest",
	.usage =
		"usage: modelcat reingest [--db PATH] [--snapshots DIR] [--strict] [--wait SECONDS]\n"
		"                         [--out SITE] [--verbose]\n",
	.description =
		"Rebuilds the catalogue from every stored snapshot in DIR (default:\n"
		"./snapshots if it exists, else the installed snapshots), oldest first.\n"
		"DIR holds <export>/<YYYY-MM-DD>.csv.gz (or .csv, .zip); the files of one\n"
		"date form one snapshot. When fetch stored several contents of an export\n"
		"on one day (<date>T<time>Z-<sha>.csv.gz), the latest is used. The new\n"
		"catalogue is built beside the old one and, only when every snapshot has\n"
		"loaded, copied into the old file in one transaction (SQLite's backup):\n"
		"the file keeps its mode and owner, other programs' open connections stay\n"
		"valid, and through a symbolic link --db the link's target is written.\n"
		"It holds the catalogue's writer lock (PATH.lock) throughout; when another\n"
		"writer holds it, it waits up to --wait seconds, then exits 75. A program\n"
		"that does not take the lock (the sqlite3 shell) and changes the catalogue\n"
		"meanwhile makes it install nothing (exit 75).\n"
		"Prints a line per export and a summary; on stderr, the notices of each\n"
		"file, its columns that the column map lacks counted in one line\n"
		"(--verbose: each named).\n"
		"Rows quarantined in stored snapshots (reported when each was first\n"
		"ingested) are quarantined again, counted in the summary and kept in the\n"
		"quarantine table; they do not fail the rebuild unless --strict.\n"
		"With --out SITE, the rebuilt catalogue is then published under SITE: the\n"
		"page texts merged (modelcat translate, the installed catalogues) and\n"
		"every page, audit and download written (modelcat publish --out SITE),\n"
		"under the same lock, their reports on stderr; the last line (stdout)\n"
		"names the page to open, SITE/index.html.\n",
	.exit =
		"Exit: 0 rebuilt; 1 rebuilt with rows quarantined (--strict only); 2 usage;\n"
		"3 failure, the old catalogue unchanged; 75 another writer held the\n"
		"catalogue, or another program held or changed it: the catalogue as the\n"
		"other left it.\n",
};

/* Rebuild the catalogue at path (through a symbolic link, its target)
 * from the plan; the exit status. */
static int rebuild(const rebuild_plan *plan, const char *path, int strict, int verbose,
		   long wait)
{
	char target[PATH_MAX];
	rebuild_stats stats;
	colmap map;
	mc_err err;
	int rc;

	if (catalogue_target(path, target, sizeof(target), &err)) {
		stage_error(command.program, "%s", err.msg);
		return MC_EXIT_FAILURE;
	}
	if (stage_colmap(command.program, &map))
		return MC_EXIT_FAILURE;
	if (!rebuild_replaceable(target)) {
		stage_error(command.program, "%s: not a SQLite database; not replaced (move it away to"
			    " rebuild the catalogue there)", target);
		colmap_release(&map);
		return MC_EXIT_FAILURE;
	}
	rc = rebuild_run(plan, target, &map, verbose, wait, stdout, &stats, &err);
	colmap_release(&map);
	if (rc) {
		stage_error(command.program, "%s", err.msg);
		stage_error(command.program, "the catalogue %s was left as it was", target);
		return stats.conflict ? MC_EXIT_LOCKED : MC_EXIT_FAILURE;
	}
	textout_line(stdout, "rebuilt %s from %zu snapshots (%zu export files): %lu rows loaded,"
		     " %lu quarantined%s, %lu held for review%s", target, stats.snapshots, plan->n,
		     stats.loaded, stats.quarantined,
		     stats.quarantined ? " (listed in the quarantine table)" : "", stats.held,
		     stats.held ? " (a guard held them: ingest --accept applies one)" : "");
	return strict ? stage_status(stats.quarantined) : MC_EXIT_OK;
}

/* Run the stage argv[0] installed beside us, the writer lock handed on,
 * its report on stderr (stdout keeps our summary); 0 when it exits 0 or 1
 * (done; translate: some entry missing, English used), else -1 (said). */
static int run_stage(char *const *argv)
{
	char path[PATH_MAX];
	pid_t pid;
	int status;

	mc_fmt(path, sizeof(path), "%s/%s", paths_bindir(), argv[0]);
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		dup2(STDERR_FILENO, STDOUT_FILENO);
		writelock_hand_on();
		execv(path, argv);
		fprintf(stderr, "%s: cannot run %s: %s\n", command.program, path, strerror(errno));
		_exit(127);
	}
	if (pid < 0) {
		stage_error(command.program, "cannot run %s: %s", path, strerror(errno));
		return -1;
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (WIFEXITED(status) && WEXITSTATUS(status) <= 1)
		return 0;
	stage_error(command.program, "%s failed (%s %d); the catalogue is rebuilt, the site"
		    " not published", argv[0], WIFEXITED(status) ? "exit" : "signal",
		    WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
	return -1;
}

/* Merge the page texts and publish the catalogue db under out, the writer
 * lock handed on; the exit status. */
static int publish(const char *db, const char *out)
{
	char *translate[] = { (char *)"modelcat-translate", (char *)"--db", (char *)db, NULL };
	char *site[] = { (char *)"modelcat-publish", (char *)"--db", (char *)db,
			 (char *)"--out", (char *)out, NULL };

	if (run_stage(translate) || run_stage(site))
		return MC_EXIT_FAILURE;
	textout_line(stdout, "published the site in %s: open %s/index.html", out, out);
	return MC_EXIT_OK;
}

int main(int argc, char **argv)
{
	const char *db = NULL, *snapshot_dir = NULL, *out = NULL;
	int first, rc, strict = 0, verbose = 0;
	long wait = 0;
	opt_spec options[] = {
		OPT_DB(&db),
		{ .name = "snapshots", .arg = "DIR", .type = OPT_STRING, .dest = &snapshot_dir,
		  .help = "the snapshot store" },
		{ .name = "strict", .type = OPT_FLAG, .dest = &strict,
		  .help = "exit 1 when any row was quarantined" },
		OPT_WAIT(&wait),
		{ .name = "out", .arg = "SITE", .type = OPT_STRING, .dest = &out,
		  .help = "then translate and publish the site under SITE" },
		OPT_VERBOSE(&verbose),
		OPT_DONE
	};
	rebuild_plan plan;
	writelock lock;
	mc_err err;

	stage_init();
	if ((rc = opt_parse_table(&command, options, argc, argv, &first)))
		return opt_status(rc);
	if (first < argc)
		return stage_usage_error(command.program, "unexpected argument '%s'", argv[first]);
	if (!snapshot_dir)
		snapshot_dir = rebuild_default_store();
	/* the lock before the store is read: a rebuild that waited for a run
	 * has the snapshot the run stored */
	if ((rc = writelock_stage(&lock, command.program, db, wait)))
		return rc;
	if (rebuild_scan(snapshot_dir, &plan, &err)) {
		stage_error(command.program, "%s", err.msg);
		writelock_release(&lock);
		return MC_EXIT_FAILURE;
	}
	if (!plan.n) {
		stage_error(command.program, "%s: no stored snapshots (<export>/<YYYY-MM-DD>.csv.gz)",
			    snapshot_dir);
		rc = MC_EXIT_FAILURE;
	} else {
		rc = rebuild(&plan, db, strict, verbose, wait);
	}
	if (out && (rc == MC_EXIT_OK || rc == MC_EXIT_QUARANTINE)) {
		int published = publish(db, out);

		rc = published ? published : rc;
	}
	rebuild_plan_release(&plan);
	writelock_release(&lock);
	return rc;
}
