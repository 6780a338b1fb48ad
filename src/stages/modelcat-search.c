/*
 * modelcat-search: the models whose name, former name or organisation
 * matches a text, case and accents aside, best matches first
 * (cli/suggest.h has the ranking).
 */
#include "db/search.h"
#include "base/sbuf.h"
#include "cli/options.h"
#include "cli/stage.h"
#include "cli/snapref.h"
#include "cli/suggest.h"
#include "cli/kind.h"
#include "base/day.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the --help texts; main has the option table (opt_parse_table) */
static const opt_command command = {
	.program = "modelcat-search",
	.usage =
		"usage: modelcat search [--db PATH] TEXT [--as-of DATE[.N]] [--format text|json]\n"
		"                       [--limit N] [--kind model|hardware]\n",
	.description =
		"Lists the models and the hardware (ml_hardware; with --kind, only the one\n"
		"or the other) on record on the date (default: today) that TEXT finds by\n"
		"the search rules (docs/search.md), the same as the site's index filter.\n"
		"Case, accents, punctuation and spacing do not count: a text's words are\n"
		"its runs of letters and digits, compared as words and joined (\"cafe lm\"\n"
		"finds \"Café LM\", \"Llama 3.1 405B\" finds \"Llama 3.1-405B\"). Every\n"
		"word of TEXT is looked for at the start of a word of the model's name,\n"
		"former names (before a rename) and organisations, pooled (\"deepmind\n"
		"gemini\" finds Google DeepMind's Gemini models). Best matches first:\n"
		"TEXT is the name or a former name (exact), begins it (prefix), every\n"
		"word is found (all words), some are (some words; more first); then a\n"
		"name before a former name, shorter names, names in code point order.\n"
		"A model with no word found is not listed. show, history and render use\n"
		"the same ranking, plus names a few edits away (\"GTP-4\" finds \"GPT-4\",\n"
		"ahead of some words), to suggest up to five names for one they do not\n"
		"find.\n"
		"\n"
		"Text: one line per model: name, organisations, publication date, and\n"
		"what matched (\"name\", \"formerly GPT\", \"organisation OpenAI\") with its\n"
		"rank; a card's line ends in \"[hardware]\", its organisation is its\n"
		"Manufacturer and its date its Release date. JSON: an array of objects\n"
		"with name, organizations, publication_date, matched (name, former name,\n"
		"organization), text, rank and kind (model or hardware).\n",
	.exit =
		"Exit: 0 models found; 1 none (said on stderr); 2 usage; 3 no such\n"
		"snapshot DATE.N (or not the day's last), or failure.\n",
};

int main(int argc, char **argv)
{
	static const char *const formats[] = { "text", "json", NULL };
	const char *db = NULL, *format = "text", *kind = NULL;
	char as_of[16] = "", day[11];
	long limit = 20;
	opt_spec options[] = {
		OPT_DB(&db),
		OPT_AS_OF_SNAPSHOT(as_of, "YYYY-MM-DD (default: today, UTC), or\n"
				   "YYYY-MM-DD.N when that is the day's last snapshot"),
		OPT_FORMAT(&format, formats, "text (default) or json"),
		{ .name = "limit", .arg = "N", .type = OPT_INT, .dest = &limit, .min = 0,
		  .max = 1000000000, .what = "a number of models",
		  .help = "at most N models, the best (default 20; 0: all)" },
		OPT_KIND(&kind),
		OPT_DONE
	};
	search_model *models = NULL;
	suggest_match *matches = NULL;
	size_t nmodels = 0, nmatches = 0;
	catalogue cat;
	mc_err err;
	sbuf out;
	int first, rc, status = MC_EXIT_FAILURE;

	stage_init();
	if ((rc = opt_parse_table(&command, options, argc, argv, &first)))
		return opt_status(rc);
	if (first != argc - 1 || !argv[first][0])
		return stage_usage_error(command.program, "expected one TEXT to search for");
	if (!as_of[0])
		day_today(as_of);
	if (stage_catalogue(command.program, &cat, db, CATALOGUE_READONLY))
		return MC_EXIT_FAILURE;
	sbuf_init(&out);
	rc = snapref_day(&cat, as_of, day, &err);
	if (!rc)
		rc = search_models_family(&cat, day, kind, &models, &nmodels, &err);
	if (rc) {
		stage_error(command.program, "%s", err.msg);
		goto out;
	}
	suggest_rank(argv[first], models, nmodels, 0, &matches, &nmatches);
	if (limit && nmatches > (size_t)limit)
		nmatches = (size_t)limit;
	if (!strcmp(format, "json"))
		suggest_json(matches, nmatches, &out);
	else
		suggest_text(matches, nmatches, &out);
	status = stage_write_stdout(command.program, &out);
	if (!status && !nmatches) {
		stage_error(command.program, "no model matches '%s' on %s", argv[first], as_of);
		status = MC_EXIT_QUARANTINE; /* 1: ran, found nothing */
	}
out:
	free(matches);
	search_models_release(models, nmodels);
	sbuf_release(&out);
	catalogue_close(&cat);
	return status;
}
