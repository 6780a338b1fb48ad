/*
 * modelcat-translate: merge the translation catalogues (XLIFF) over the
 * English base and store the page text of every language in the catalogue
 * database, reporting per language what was translated, missing, stale,
 * invalid and unknown.
 */
#include "base/paths.h"
#include "base/textout.h"
#include "cli/options.h"
#include "cli/stage.h"
#include "cli/writelock.h"
#include "publish/translate.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

/* the --help texts; main has the option table (opt_parse_table) */
static const opt_command command = {
	.program = "modelcat-translate",
	.usage =
		"usage: modelcat translate [--db PATH] [--catalogues DIR] [--wait SECONDS]\n",
	.description =
		"Reads the XLIFF catalogues in DIR (default: the translations folder beside\n"
		"pipelines/): en.xlf, the English base, and one LANG.xlf per language. Each\n"
		"language is merged over English and stored in the catalogue database, where\n"
		"modelcat render finds it. One line per language on stdout:\n"
		"  nl: 122 entries: 121 translated, 1 missing, 0 stale, 0 invalid, 0 unknown\n"
		"and one line on stderr per problem, naming file, line and entry:\n"
		"  missing   no translation: the page uses English\n"
		"  stale     the English text changed since it was translated (the unit's\n"
		"            <source> is not the current English): the page uses English\n"
		"  invalid   the translation names a placeholder English does not have\n"
		"  unknown   an entry English does not have (ignored)\n"
		"A malformed catalogue is reported with file and line and not loaded (its\n"
		"language keeps what was stored before); the others still load.\n"
		"It holds the catalogue's writer lock (PATH.lock) while it stores; when\n"
		"another writer holds it, it waits up to --wait seconds, then exits 75.\n",
	.exit =
		"Exit: 0 every catalogue loaded and every entry translated; 1 stored, but an\n"
		"entry was missing, stale, invalid or unknown, or a catalogue other than\n"
		"English was refused or skipped (a file name that is no language code);\n"
		"2 usage; 3 failure (English unreadable or incomplete, database error):\n"
		"nothing stored; 75 another writer held the catalogue, nothing stored.\n",
};

int main(int argc, char **argv)
{
	const char *db = NULL, *dir = NULL;
	char default_dir[PATH_MAX];
	mc_err err;
	translate_result result;
	catalogue cat;
	writelock lock;
	long wait = 0;
	size_t i, stored = 0;
	opt_spec options[] = {
		OPT_DB(&db),
		{ .name = "catalogues", .arg = "DIR", .type = OPT_STRING, .dest = &dir,
		  .help = "the folder of .xlf files" },
		OPT_WAIT(&wait),
		OPT_DONE
	};
	int first, rc, status = MC_EXIT_OK;

	stage_init();
	if ((rc = opt_parse_table(&command, options, argc, argv, &first)))
		return opt_status(rc);
	if (first != argc)
		return stage_usage_error(command.program, "unexpected argument '%s'", argv[first]);
	if (!dir) {
		paths_data_file(default_dir, sizeof(default_dir), "translations");
		dir = default_dir;
	}
	if ((rc = writelock_stage(&lock, command.program, db, wait)))
		return rc;
	if (stage_catalogue(command.program, &cat, db, 0)) {
		writelock_release(&lock);
		return MC_EXIT_FAILURE;
	}
	if (translate_catalogues(&cat, dir, stderr, &result, &err)) {
		stage_error(command.program, "%s", err.msg);
		stage_error(command.program, "nothing was stored");
		catalogue_close(&cat);
		writelock_release(&lock);
		return MC_EXIT_FAILURE;
	}
	for (i = 0; i < result.n; i++) {
		const translate_report *r = &result.langs[i];

		stored += r->loaded != 0;
		if (!r->loaded) {
			textout_line(stdout, "%s: not loaded (%s)", r->lang, r->path);
			status = MC_EXIT_QUARANTINE;
		} else if (i == 0) {
			textout_line(stdout, "%s: %zu entries (the English base)%s", r->lang,
				     r->counts.entries, r->counts.unknown ? "; some unused entries, see above" : "");
		} else {
			textout_line(stdout, "%s: %zu entries: %zu translated, %zu missing, %zu stale, "
				     "%zu invalid, %zu unknown", r->lang, r->counts.entries,
				     r->counts.translated, r->counts.missing, r->counts.stale,
				     r->counts.invalid, r->counts.unknown);
			if (r->counts.missing || r->counts.stale || r->counts.invalid || r->counts.unknown)
				status = MC_EXIT_QUARANTINE;
		}
	}
	if (result.skipped)
		status = MC_EXIT_QUARANTINE;
	textout_line(stdout, "page texts of %zu language%s stored in %s", stored,
		     stored == 1 ? "" : "s", cat.path);
	translate_result_release(&result);
	catalogue_close(&cat);
	writelock_release(&lock);
	return status;
}
