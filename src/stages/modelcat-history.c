/*
 * modelcat-history: the life of a model: every version and field change,
 * with dates and sources, across renames.
 */
#include "db/history.h"
#include "base/sbuf.h"
#include "cli/options.h"
#include "cli/stage.h"
#include "cli/kind.h"
#include "cli/historyout.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the --help texts; main has the option table (opt_parse_table) */
static const opt_command command = {
	.program = "modelcat-history",
	.usage =
		"usage: modelcat history [--db PATH] NAME [--format text|json]\n"
		"                        [--kind model|hardware]\n",
	.description =
		"Prints the history of every record that ever carried NAME (under any\n"
		"name it had before or after a rename), export by export: each version\n"
		"with its date, kind (added, changed, renamed, revised, removed), export\n"
		"and name, each changed field `field: old -> new`, each rename with the\n"
		"evidence it rests on, and rows carrying the name that were quarantined.\n"
		"NAME#2 (#3, ...) is a repeated name's second (third, ...) row, as pages\n"
		"and audits name it. Values are printed in full (in text, line breaks and\n"
		"tabs as spaces); a revised version lists the values new columns gave it.\n"
		"--format json writes one object: records, their versions, each version's\n"
		"renames and fields (field, old, new, why), and quarantined rows\n"
		"(docs/history.md, \"History as JSON\"). A model and a hardware record\n"
		"(ml_hardware) of one name are two records of two families: such a name\n"
		"needs --kind model or --kind hardware (without it: a usage error naming\n"
		"the two).\n",
	.exit =
		"Exit: 0 printed; 2 usage (a name that is both, without --kind); 3 the\n"
		"name was never seen (up to five names\n"
		"that were are suggested on stderr), or failure.\n",
};

int main(int argc, char **argv)
{
	static const char *const formats[] = { "text", "json", NULL };
	const char *db = NULL, *format = "text", *kind = NULL;
	opt_spec options[] = {
		OPT_DB(&db),
		OPT_FORMAT(&format, formats, "text (default) or json"),
		OPT_KIND(&kind),
		OPT_DONE
	};
	catalogue cat;
	history h;
	sbuf out;
	char *name = NULL;
	int first, rc, status = MC_EXIT_FAILURE;

	stage_init();
	if ((rc = opt_parse_table(&command, options, argc, argv, &first)))
		return opt_status(rc);
	if (first != argc - 1)
		return stage_usage_error(command.program, "expected one model NAME");
	if (stage_catalogue(command.program, &cat, db, CATALOGUE_READONLY))
		return MC_EXIT_FAILURE;
	sbuf_init(&out);
	name = stage_model_name(argv[first]);
	memset(&h, 0, sizeof(h));
	if (!(status = kind_history(command.program, &cat, name, kind, &h))) {
		if (!strcmp(format, "json"))
			historyout_json(&h, &out);
		else
			historyout_text(&h, &out);
		status = stage_write_stdout(command.program, &out);
	}
	history_release(&h);
	sbuf_release(&out);
	free(name);
	catalogue_close(&cat);
	return status;
}
