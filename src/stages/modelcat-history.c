/*
 * modelcat-history: the life of a model: every version and field change,
 * with dates and sources, across renames.
 */
#include "db/query.h"
#include "cli/stage.h"

#include <getopt.h>
#include <stdio.h>

static const char program[] = "modelcat-history";

static void usage(void)
{
	printf("usage: modelcat history [--db PATH] NAME\n"
	       "\n"
	       "Prints the history of every record that ever carried NAME (under any\n"
	       "name it had before or after a rename), export by export: each version\n"
	       "with its date, kind (added, changed, renamed, revised, removed), export\n"
	       "and name, each changed field `field: old -> new`, each rename with the\n"
	       "evidence it rests on, and rows carrying the name that were quarantined.\n"
	       "\n"
	       "  --help, --version\n"
	       "\n"
	       "Exit: 0 printed; 2 usage; 3 the name was never seen, or failure.\n");
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	const char *db = NULL;
	catalogue cat;
	mc_err err;
	sbuf out;
	int opt, rc, status = MC_EXIT_FAILURE;

	stage_init();
	while ((opt = getopt_long(argc, argv, "h", options, NULL)) != -1) {
		switch (opt) {
		case 'd': db = optarg; break;
		case 'h': usage(); return MC_EXIT_OK;
		case 'V': return stage_version(program);
		default: return stage_usage_error(program, "unknown option");
		}
	}
	if (optind != argc - 1)
		return stage_usage_error(program, "expected one model NAME");
	if (stage_catalogue(program, &cat, db, CATALOGUE_READONLY))
		return MC_EXIT_FAILURE;
	sbuf_init(&out);
	rc = query_history(&cat, argv[optind], &out, &err);
	if (rc < 0)
		stage_error(program, "%s", err.msg);
	else if (rc > 0)
		stage_error(program, "no model was ever named '%s'", argv[optind]);
	else
		status = stage_write_stdout(program, &out);
	sbuf_release(&out);
	catalogue_close(&cat);
	return status;
}
