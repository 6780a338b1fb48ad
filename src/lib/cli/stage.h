/*
 * stage: what every stage program shares: the exit statuses, --version
 * (the options and --help: cli/options.h), opening the column map and the
 * catalogue, and printing errors as one line on stderr.
 */
#ifndef MODELCAT_STAGE_H
#define MODELCAT_STAGE_H

#include "base/error.h"
#include "db/catalogue.h"
#include "values/colmap.h"
#include "ingest/ingest.h"
#include "ingest/snapload.h"

/*
 * What every stage's main() calls first. A write past the file size limit
 * (ulimit -f) then fails with EFBIG, reported like a full disk, instead
 * of killing the process with SIGXFSZ; and SIGINT, SIGTERM and SIGHUP
 * remove the files registered with mc_cleanup_add() (a temporary file, a
 * catalogue the run created) before the process ends by the signal.
 * SQLite gets its settings for the process (catalogue_process_init()).
 */
void stage_init(void);
/* Catch SIGINT, SIGTERM and SIGHUP with handler (those ignored by whoever
 * started us stay ignored), the others blocked while it runs. */
void stage_catch_signals(void (*handler)(int));

/* Print "modelcat-NAME: message" to stderr (one line). */
void stage_error(const char *program, const char *fmt, ...) MC_PRINTF(2, 3);
/* Print a usage error plus a pointer to --help; returns MC_EXIT_USAGE. */
int stage_usage_error(const char *program, const char *fmt, ...) MC_PRINTF(2, 3);

/* A model NAME given on the command line as the catalogue stores names:
 * in canonical form (base/unicode.h: NFC, invisible characters removed,
 * no-break spaces as spaces), so that a pasted "Cafe\xcc\x81 LM" finds
 * "Caf\xc3\xa9 LM". A new string; the caller frees it. */
char *stage_model_name(const char *arg);
/* Print the page of the card called name (render_hardware, out/render.h)
 * in lang and format (text or html) on as_of to stdout; an unknown card
 * is one line on stderr, with names like it. Returns the exit status. */
int stage_render_hardware(const char *program, catalogue *cat, const char *name,
			  const char *lang, const char *format, const char *as_of);
/* Print "modelcat-NAME VERSION" to stdout; returns MC_EXIT_OK. */
int stage_version(const char *program);

/* Load the column map from the data folder; 0 or -1 (error printed). */
int stage_colmap(const char *program, colmap *map);
/* Open (and migrate) the catalogue; 0 or -1 (error printed). */
int stage_catalogue(const char *program, catalogue *cat, const char *db, int flags);

/* Open a load of a snapshot dated day on cat, with the export precedence
 * of pipelines/precedence.tsv and the guards of pipelines/guards.tsv (an
 * export a guard would hold is held, as ingest holds it; accept: applied,
 * as ingest --accept applies it). 0 or -1 (error printed; *out NULL). */
int stage_begin_load(const char *program, catalogue *cat, const char *day, int accept,
		     load **out);

/* A writer's --as-of: refused (the message printed) when it is after
 * tomorrow, UTC, unless allow_future: a snapshot dated in the future would
 * make every later load refuse its date. "" (not given) passes. Returns 0,
 * or MC_EXIT_USAGE. */
int stage_check_as_of(const char *program, const char *as_of, int allow_future);

/* snapload_run() of args[0..n) dated as_of (today when empty) into the
 * catalogue db under its writer lock (waiting up to wait seconds for it:
 * cli/writelock.h), summary lines on stdout, errors printed. map may be
 * NULL when load_one does not parse; accept: --accept (apply what a guard
 * of pipelines/guards.tsv would hold), accept_exports (naccept of them):
 * --accept-export, the same for those exports only; a held export makes the status
 * MC_EXIT_QUARANTINE); store: the snapshot store whose ACCEPTED.tsv the
 * files of it are read and recorded in (NULL: none). Returns the exit status
 * (MC_EXIT_LOCKED: another writer held the lock). */
int stage_load_snapshot(const char *program, const char *db, const char *as_of, long wait,
			const colmap *map, char *const *args, int n, snapload_fn *load_one,
			int accept, const char *const *accept_exports, size_t naccept,
			const char *store);

/* Write out to stdout: MC_EXIT_OK, or MC_EXIT_FAILURE with the error printed. */
int stage_write_stdout(const char *program, const sbuf *out);
/* The same for out in format: "text" (a page or a report meant to be read)
 * with each line escaped by the terminal rule (base/textout.h:
 * textout_text); any other (html, json) as it is. */
int stage_write_format(const char *program, const char *format, const sbuf *out);

/* Exit status for a run that quarantined n rows: MC_EXIT_QUARANTINE or MC_EXIT_OK. */
int stage_status(unsigned long quarantined);

#endif
