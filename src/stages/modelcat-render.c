/*
 * modelcat-render: model pages, as text or HTML, in the languages that
 * modelcat translate stored: one page on stdout, or every model in every
 * language and format into a folder, with an index page per language.
 */
#include "out/page.h"
#include "db/credit.h"
#include "db/query.h"
#include "db/snapshot.h"
#include "out/render.h"
#include "cli/options.h"
#include "cli/stage.h"
#include "cli/snapref.h"
#include "cli/suggest.h"
#include "out/translate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the --help texts; main has the option table (opt_parse_table) */
static const opt_command command = {
	.program = "modelcat-render",
	.usage =
		"usage: modelcat render [--db PATH] NAME [--lang LANG] [--format text|html]\n"
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
		"page per language, DIR/LANG/index.txt and DIR/LANG/index.html. STEM is the\n"
		"name lower-cased, other characters turned into '-', then '-' and ten hex\n"
		"digits of the name's SHA-256 (docs/pages.md).\n",
	.exit =
		"Exit: 0 written; 2 usage; 3 no such model on that date (up to five\n"
		"names like it are suggested), no page texts stored for the language\n"
		"(run modelcat translate), or failure.\n",
};

/* Print the page of one model; returns the exit status. */
static int render_one(catalogue *cat, const char *name, const char *lang, const char *format,
		      const char *as_of)
{
	page_texts texts, english;
	former_name *formers = NULL;
	size_t nformers = 0;
	model_view m;
	page p;
	sbuf out;
	mc_err cerr;
	int rc, status = MC_EXIT_FAILURE;

	memset(&m, 0, sizeof(m));
	page_init(&p, lang);
	sbuf_init(&out);
	rc = translate_load(cat, "en", &english, &cerr);
	if (rc == 0 && strcmp(lang, "en"))
		rc = translate_load(cat, lang, &texts, &cerr);
	else
		page_texts_init(&texts, lang);
	if (rc < 0) {
		stage_error(command.program, "%s", cerr.msg);
		goto out;
	}
	if (rc > 0) {
		stage_error(command.program, "no page texts stored for language '%s' (run modelcat "
			    "translate; its catalogue is translations/%s.xlf)", lang, lang);
		goto out;
	}
	rc = query_model(cat, name, as_of, &m, &cerr);
	if (rc < 0) {
		stage_error(command.program, "%s", cerr.msg);
		goto out;
	}
	if (rc > 0) {
		stage_error(command.program, "no model named '%s' on %s (see modelcat history)", name,
			    as_of);
		suggest_did_you_mean(command.program, cat, name, as_of);
		goto out;
	}
	if (query_former_names(cat, as_of, &formers, &nformers, &cerr)) {
		stage_error(command.program, "%s", cerr.msg);
		goto out;
	}
	p.formerly = render_formerly(formers, nformers, name);
	if (credit_citation_upto(cat, m.as_of, &p.citation, &cerr) < 0) {
		stage_error(command.program, "%s", cerr.msg);
		goto out;
	}
	if (page_build(&p, &m, strcmp(lang, "en") ? &texts : &english, &english, &cerr) ||
	    render_page_history(cat, &p, &m, name, strcmp(lang, "en") ? &texts : &english,
				&english, &cerr)) {
		stage_error(command.program, "%s", cerr.msg);
		goto out;
	}
	if (!strcmp(format, "html"))
		page_render_html(&p, &out);
	else
		page_render_text(&p, &out);
	if (fwrite(out.data, 1, out.len, stdout) != out.len || fflush(stdout))
		stage_error(command.program, "cannot write to standard output");
	else
		status = MC_EXIT_OK;
out:
	former_names_release(formers, nformers);
	page_release(&p);
	model_view_release(&m);
	page_texts_release(&texts);
	page_texts_release(&english);
	sbuf_release(&out);
	return status;
}

int main(int argc, char **argv)
{
	const char *db = NULL, *lang = "en", *format = "text", *outdir = NULL;
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
		if (first != argc - 1)
			return stage_usage_error(command.program, "expected one model NAME (or --all)");
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
	if (!all) {
		char *name = stage_model_name(argv[first]);

		status = render_one(&cat, name, lang, format, as_of);
		free(name);
	} else {
		render_stats stats;

		if (render_all(&cat, as_of, outdir, NULL, &stats, &err)) {
			stage_error(command.program, "%s", err.msg);
			goto out;
		}
		printf("%zu models as of %s in %zu languages: %zu files written to %s\n",
		       stats.models, as_of, stats.languages, stats.files, outdir);
		status = MC_EXIT_OK;
	}
out:
	catalogue_close(&cat);
	return status;
}
