/*
 * modelcat: the command-line front door. `modelcat [--db PATH] COMMAND
 * [ARGS]` runs the program modelcat-COMMAND from the same folder, the way
 * git runs its commands; --db is passed on as $MODELCAT_DB.
 */
#include "cli/stage.h"
#include "base/printf.h"
#include "base/paths.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char program[] = "modelcat";

/* The commands, sorted, with one line each for --help. */
static const struct command {
	const char *name;      /* COMMAND, run as modelcat-COMMAND */
	const char *summary;   /* what it does */
} commands[] = {
	{ "diff", "what changed between two dates (text, json, html)" },
	{ "export", "write an export as it stood on a date, as CSV" },
	{ "fetch", "download the exports into the snapshot store" },
	{ "history", "every version and field change of a model" },
	{ "ingest", "parse export files and load them as one snapshot" },
	{ "load", "load staging files written by parse as one snapshot" },
	{ "parse", "read one export, normalise it, report bad rows" },
	{ "publish", "render the catalogue and publish it in one switch" },
	{ "reingest", "rebuild the catalogue from every stored snapshot" },
	{ "render", "model pages as text or HTML, one or all (--all)" },
	{ "run", "the nightly job: fetch, ingest, translate, render, audit" },
	{ "search", "models whose name, former name or organisation matches a text" },
	{ "show", "a model as it stood on a date, merged across exports" },
	{ "translate", "merge the translation catalogues into the catalogue" },
	{ "verify", "check the snapshot store and the catalogue against each other" },
};

static void usage(FILE *out)
{
	size_t i;

	fprintf(out,
		"usage: modelcat [--db PATH] COMMAND [ARGS]\n"
		"       modelcat --help | --version | help COMMAND\n"
		"\n"
		"Keeps a versioned catalogue of AI models from Epoch AI's exports.\n"
		"The catalogue is PATH, else $MODELCAT_DB, else ./modelcat.db.\n"
		"It is an SQLite file: its views `models` (one row per model, one\n"
		"typed column per field) and `model_versions` (each state of a model,\n"
		"valid_from to valid_to) answer SQL questions (docs/sql.md).\n"
		"\n"
		"commands:\n");
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(out,
		"\n`modelcat COMMAND --help` describes each command.\n"
		"Exit status: 0 success; 1 bad input quarantined, the rest loaded;\n"
		"2 usage error; 3 or more failure, nothing written.\n");
}

static int valid_command(const char *name)
{
	size_t i;

	if (!*name || strlen(name) > 32)
		return 0;
	for (i = 0; name[i]; i++)
		if (!((name[i] >= 'a' && name[i] <= 'z') || name[i] == '-'))
			return 0;
	return name[0] != '-';
}

/*
 * The commands' memory in 2 MiB pages where the kernel gives them on
 * request (transparent huge pages, "madvise" mode): glibc's malloc asks
 * for them under the tunable glibc.malloc.hugetlb=1 (glibc 2.35 and later;
 * other C libraries ignore it). Each 4 KiB page a program touches first is
 * a page fault: about 21,000 in a first ingest of the 120 MB bench export
 * and 4,000 with the tunable, and where a fault is costly (a virtual
 * machine) that was a quarter of its time (docs/performance.md). A
 * GLIBC_TUNABLES that names the tunable already is left as it is, so
 * GLIBC_TUNABLES=glibc.malloc.hugetlb=0 turns it off.
 */
static void huge_pages(void)
{
	static const char tunable[] = "glibc.malloc.hugetlb";
	const char *now = getenv("GLIBC_TUNABLES");
	char value[4096];
	int n;

	if (now && strstr(now, tunable))
		return;
	n = snprintf(value, sizeof(value), "%s%s%s=1", now ? now : "", now && *now ? ":" : "",
		     tunable);
	if (n > 0 && (size_t)n < sizeof(value))    /* not cut short */
		setenv("GLIBC_TUNABLES", value, 1);
}

int main(int argc, char **argv)
{
	char path[PATH_MAX];
	int i = 1;

	while (i < argc && argv[i][0] == '-') {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			return MC_EXIT_OK;
		} else if (!strcmp(argv[i], "--version")) {
			return stage_version(program);
		} else if (!strcmp(argv[i], "--db") && i + 1 < argc) {
			setenv("MODELCAT_DB", argv[i + 1], 1);
			i += 2;
		} else if (!strncmp(argv[i], "--db=", 5)) {
			setenv("MODELCAT_DB", argv[i] + 5, 1);
			i++;
		} else {
			return stage_usage_error(program, "unknown option '%s'", argv[i]);
		}
	}
	if (i >= argc) {
		usage(stderr);
		return MC_EXIT_USAGE;
	}
	if (!strcmp(argv[i], "help")) {
		if (i + 1 >= argc) {
			usage(stdout);
			return MC_EXIT_OK;
		}
		argv[i] = argv[i + 1];
		argv[i + 1] = (char *)"--help";
		argv[i + 2] = NULL;
		argc = i + 2;
	}
	if (!valid_command(argv[i]))
		return stage_usage_error(program, "'%s' is not a modelcat command", argv[i]);
	mc_fmt(path, sizeof(path), "%s/modelcat-%s", paths_bindir(), argv[i]);
	if (access(path, X_OK))
		return stage_usage_error(program, "'%s' is not a modelcat command", argv[i]);
	argv[i] = path;
	huge_pages();
	execv(path, argv + i);
	stage_error(program, "cannot run %s: %s", path, strerror(errno));
	return MC_EXIT_FAILURE;
}
