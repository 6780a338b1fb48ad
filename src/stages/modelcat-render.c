/*
 * modelcat-render: model pages, as text or HTML, in the languages that
 * modelcat translate stored: one page on stdout, or every model in every
 * language and format into a folder, with an index page per language.
 */
#include "out/page.h"
#include "db/query.h"
#include "db/snapshot.h"
#include "out/render.h"
#include "cli/stage.h"
#include "out/translate.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

static const char program[] = "modelcat-render";

static void usage(void)
{
	printf("usage: modelcat render [--db PATH] NAME [--lang LANG] [--format text|html]\n"
	       "                       [--as-of YYYY-MM-DD]\n"
	       "       modelcat render [--db PATH] --all --out DIR [--as-of YYYY-MM-DD]\n"
	       "\n"
	       "Prints the page of the model called NAME (NAME#2 for a repeated name's second\n"
	       "row) as it stood on the date, in LANG (default en), as text (default) or as\n"
	       "an HTML document. The page text comes from the catalogue database, where\n"
	       "modelcat translate stores it.\n"
	       "\n"
	       "With --all, writes the page of every model on record on the date in every\n"
	       "stored language, as DIR/LANG/STEM.txt and DIR/LANG/STEM.html, and an index\n"
	       "page per language, DIR/LANG/index.txt and DIR/LANG/index.html. STEM is the\n"
	       "name lower-cased, other characters turned into '-', then '-' and ten hex\n"
	       "digits of the name's SHA-256 (docs/pages.md).\n"
	       "\n"
	       "  --lang LANG       a stored language: en, nl, ...\n"
	       "  --format FORMAT   text (default) or html\n"
	       "  --as-of DATE      YYYY-MM-DD (default: the date of the last snapshot)\n"
	       "  --all             every model, every language, both formats\n"
	       "  --out DIR         with --all: the folder to write into\n"
	       "  --help, --version\n"
	       "\n"
	       "Exit: 0 written; 2 usage; 3 no such model on that date, no page texts\n"
	       "stored for the language (run modelcat translate), or failure.\n");
}

/* Print the page of one model; returns the exit status. */
static int render_one(catalogue *cat, const char *name, const char *lang, const char *format,
		      const char *as_of)
{
	page_texts texts, english;
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
		stage_error(program, "%s", cerr.msg);
		goto out;
	}
	if (rc > 0) {
		stage_error(program, "no page texts stored for language '%s' (run modelcat "
			    "translate; its catalogue is translations/%s.xlf)", lang, lang);
		goto out;
	}
	rc = query_model(cat, name, as_of, &m, &cerr);
	if (rc < 0) {
		stage_error(program, "%s", cerr.msg);
		goto out;
	}
	if (rc > 0) {
		stage_error(program, "no model named '%s' on %s (see modelcat history)", name, as_of);
		goto out;
	}
	if (page_build(&p, &m, strcmp(lang, "en") ? &texts : &english, &english, &cerr)) {
		stage_error(program, "%s", cerr.msg);
		goto out;
	}
	if (!strcmp(format, "html"))
		page_render_html(&p, &out);
	else
		page_render_text(&p, &out);
	if (fwrite(out.data, 1, out.len, stdout) != out.len || fflush(stdout))
		stage_error(program, "cannot write to standard output");
	else
		status = MC_EXIT_OK;
out:
	page_release(&p);
	model_view_release(&m);
	page_texts_release(&texts);
	page_texts_release(&english);
	sbuf_release(&out);
	return status;
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "lang", required_argument, NULL, 'l' },
		{ "format", required_argument, NULL, 'F' },
		{ "as-of", required_argument, NULL, 'a' },
		{ "all", no_argument, NULL, 'A' },
		{ "out", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	const char *db = NULL, *lang = "en", *format = "text", *outdir = NULL;
	char as_of[11] = "";
	mc_err err;
	int opt, all = 0, rc, status = MC_EXIT_FAILURE;
	catalogue cat;

	while ((opt = getopt_long(argc, argv, "h", options, NULL)) != -1) {
		switch (opt) {
		case 'd': db = optarg; break;
		case 'l': lang = optarg; break;
		case 'F': format = optarg; break;
		case 'a':
			if (stage_parse_day(program, optarg, as_of))
				return MC_EXIT_USAGE;
			break;
		case 'A': all = 1; break;
		case 'o': outdir = optarg; break;
		case 'h': usage(); return MC_EXIT_OK;
		case 'V': return stage_version(program);
		default: return stage_usage_error(program, "unknown option");
		}
	}
	if (all) {
		if (optind != argc)
			return stage_usage_error(program, "--all takes no NAME");
		if (!outdir || !*outdir)
			return stage_usage_error(program, "--all needs --out DIR");
	} else {
		if (optind != argc - 1)
			return stage_usage_error(program, "expected one model NAME (or --all)");
		if (outdir)
			return stage_usage_error(program, "--out goes with --all");
		if (strcmp(format, "text") && strcmp(format, "html"))
			return stage_usage_error(program, "--format must be text or html");
		if (!translate_valid_lang(lang))
			return stage_usage_error(program, "--lang '%s' is not a language code", lang);
	}
	if (stage_catalogue(program, &cat, db, CATALOGUE_READONLY))
		return MC_EXIT_FAILURE;
	if (!as_of[0]) {
		rc = snapshot_latest_day(&cat, as_of, &err);
		if (rc) {
			stage_error(program, "%s", rc < 0 ? err.msg : "the catalogue holds no snapshot");
			goto out;
		}
	}
	if (!all) {
		status = render_one(&cat, argv[optind], lang, format, as_of);
	} else {
		render_stats stats;

		if (render_all(&cat, as_of, outdir, &stats, &err)) {
			stage_error(program, "%s", err.msg);
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
