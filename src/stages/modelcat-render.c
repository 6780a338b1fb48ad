/*
 * modelcat-render: model pages, as text or HTML, in the languages that
 * modelcat translate stored: one page on stdout, or every model in every
 * language and format into a folder, with an index page per language.
 */
#include "base/textout.h"
#include "publish/page.h"
#include "db/credit.h"
#include "db/query.h"
#include "db/snapshot.h"
#include "publish/render.h"
#include "cli/options.h"
#include "cli/stage.h"
#include "cli/renderone.h"
#include "cli/snapref.h"
#include "cli/suggest.h"
#include "publish/translate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the --help texts; main has the option table (opt_parse_table) */
static const opt_command command = {
	.program = "modelcat-render",
	.usage =
		"usage: modelcat render [--db PATH] NAME [--lang LANG] [--format text|html]\n"
		"                       [--as-of DATE[.N]]\n"
		"       modelcat render [--db PATH] --hardware NAME [--lang LANG] [--format text|html]\n"
		"                       [--as-of DATE[.N]]\n"
		"       modelcat render [--db PATH] --all --out DIR [--as-of DATE[.N]]\n",
	.description =
		"Prints the page of the model called NAME (NAME#2 for a repeated name's second\n"
		"row) as it stood on the date, in LANG (default en), as text (default) or as\n"
		"an HTML document. The page text comes from the catalogue database, where\n"
		"modelcat translate stores it. Its History section (dated additions,\n"
		"changes, renames) is in the HTML page, and in the text page of a model\n"
		"with more to tell than its addition.\n"
		"\n"
		"With --all, writes the page of every model on record on the date in every\n"
		"stored language, as DIR/LANG/STEM.txt and DIR/LANG/STEM.html, and an index\n"
		"page per language, DIR/LANG/index.txt (the names) and DIR/LANG/index.html\n"
		"(a table of the models, newest first, that a small script of the page\n"
		"filters and sorts, its state in the URL: index.html#org=OpenAI&sort=-compute).\n"
		"STEM is the name lower-cased, other characters turned into '-', then '-' and\n"
		"ten hex digits of the name's SHA-256 (docs/pages.md); hardware pages go to\n"
		"DIR/LANG/hardware/. --hardware prints the page of the accelerator NAME.\n"
		"The index's charts of training compute and of parameters against publication\n"
		"date are SVG files beside it, DIR/LANG/index.compute.svg and\n"
		"DIR/LANG/index.parameters.svg, their data DIR/LANG/index.charts.txt and .html;\n"
		"each HTML model page shows the compute chart with its model marked.\n",
	.exit =
		"Exit: 0 written; 2 usage; 3 no such model (or card) on that date (up to\n"
		"five names like it are suggested), no page texts stored for the language\n"
		"(run modelcat translate), or failure.\n",
};

int main(int argc, char **argv)
{
	const char *db = NULL, *lang = "en", *format = "text", *outdir = NULL, *hardware = NULL;
	char as_of[11] = "", as_of_arg[16] = "";
	int first, all = 0, rc, status = MC_EXIT_FAILURE;
	mc_err err;
	opt_spec options[] = {
		OPT_DB(&db),
		{ .name = "lang", .arg = "LANG", .type = OPT_STRING, .dest = &lang,
		  .help = "a stored language: en, nl, ..." },
		/* a string, not a choice: --all writes both formats and ignores it */
		{ .name = "format", .arg = "FORMAT", .type = OPT_STRING, .dest = &format,
		  .help = "text (default) or html" },
		OPT_AS_OF_SNAPSHOT(as_of_arg, "YYYY-MM-DD (default: the date of the last\n"
				   "snapshot), or YYYY-MM-DD.N when that is the day's last"),
		{ .name = "all", .type = OPT_FLAG, .dest = &all,
		  .help = "every model, every language, both formats" },
		{ .name = "out", .arg = "DIR", .type = OPT_STRING, .dest = &outdir,
		  .help = "with --all: the folder to write into" },
		{ .name = "hardware", .arg = "NAME", .type = OPT_STRING, .dest = &hardware,
		  .help = "the page of the accelerator called NAME" },
		OPT_DONE
	};
	catalogue cat;

	stage_init();
	if ((rc = opt_parse_table(&command, options, argc, argv, &first)))
		return opt_status(rc);
	if (all) {
		if (first != argc)
			return stage_usage_error(command.program, "--all takes no NAME");
		if (!outdir || !*outdir)
			return stage_usage_error(command.program, "--all needs --out DIR");
	} else {
		if (first != argc - !hardware)
			return stage_usage_error(command.program, hardware ? "--hardware takes no model NAME"
						 : "expected one model NAME (or --all)");
		if (outdir)
			return stage_usage_error(command.program, "--out goes with --all");
		if (strcmp(format, "text") && strcmp(format, "html"))
			return stage_usage_error(command.program, "--format must be text or html");
		if (!translate_valid_lang(lang))
			return stage_usage_error(command.program, "--lang '%s' is not a language code", lang);
	}
	if (stage_catalogue(command.program, &cat, db, CATALOGUE_READONLY))
		return MC_EXIT_FAILURE;
	if (as_of_arg[0] && snapref_day(&cat, as_of_arg, as_of, &err)) {
		stage_error(command.program, "%s", err.msg);
		goto out;
	}
	if (!as_of[0]) {
		rc = snapshot_latest_day(&cat, as_of, &err);
		if (rc) {
			stage_error(command.program, "%s",
				    rc < 0 ? err.msg : "the catalogue holds no snapshot");
			goto out;
		}
	}
	if (hardware) {
		status = stage_render_hardware(command.program, &cat, hardware, lang, format, as_of);
	} else if (!all) {
		char *name = stage_model_name(argv[first]);

		status = stage_render_model(command.program, &cat, name, lang, format, as_of);
		free(name);
	} else {
		render_stats stats;

		if (render_all(&cat, as_of, outdir, NULL, &stats, &err)) {
			stage_error(command.program, "%s", err.msg);
			goto out;
		}
		textout_line(stdout, "%zu models as of %s in %zu languages: %zu files written to %s",
			     stats.models, as_of, stats.languages, stats.files, outdir);
		printf("%zu hardware pages: %zu files written\n", stats.cards, stats.hardware_files);
		status = MC_EXIT_OK;
	}
out:
	catalogue_close(&cat);
	return status;
}
