/*
 * fetchjob: `modelcat fetch` as a library call, and the options it takes,
 * declared once: modelcat-fetch and modelcat-run parse the same table
 * (run passes what was given on to fetch with opt_argv()).
 *
 * Ownership: a fetch_settings points into argv; its sources list is freed
 * by opt_release() on the table that holds fetchjob_options().
 */
#ifndef MODELCAT_FETCHJOB_H
#define MODELCAT_FETCHJOB_H

#include "cli/options.h"

/* The number of entries fetchjob_options() fills in, OPT_DONE aside. */
#define FETCHJOB_OPTIONS 7

/* What fetch is asked to do. */
typedef struct fetch_settings {
	const char *config;              /* --config: the sources file, or NULL
					    for pipelines/sources.tsv */
	const char *snapshots;           /* --snapshots: the store folder */
	opt_list sources;                /* --source NAME or NAME=URL, repeatable;
					    none: every configured source */
	unsigned long long max_size;     /* --max-size: cap on a body, in bytes */
	long retries;                    /* --retries: retries per download */
	long timeout;                    /* --timeout: seconds per attempt */
	long connect_timeout;            /* --connect-timeout: seconds to connect */
	long wait;                       /* modelcat-fetch's --wait (not in the shared
					    table: run has its own): seconds to wait
					    for the catalogue's writer lock */
} fetch_settings;

/* The defaults: every configured source into ./snapshots, and the HTTP
 * defaults of http_request_init(). */
void fetchjob_init(fetch_settings *s);

/* Fill table[0..FETCHJOB_OPTIONS] (the last an OPT_DONE) with the options
 * that set s: --config, --snapshots, --source, --max-size, --retries,
 * --timeout, --connect-timeout. Include it with OPT_TABLE(table). */
void fetchjob_options(fetch_settings *s, opt_spec table[FETCHJOB_OPTIONS + 1]);

/*
 * Fetch the sources s names into the store, record each fetch in its
 * manifest and in the catalogue db (NULL: the default), one line per
 * source on stdout, problems on stderr under program's name, a progress
 * bar on stderr when it is a terminal. Returns the exit status: OK (every
 * source stored or unchanged), USAGE (a --source that names no source),
 * FAILURE (nothing stored), PARTIAL (some sources failed, others were
 * stored).
 */
int fetchjob_run(const char *program, const fetch_settings *s, const char *db);

#endif
