/*
 * sources: the exports that `modelcat fetch` downloads, read from
 * pipelines/sources.tsv (name, URL, expected format) or given on the
 * command line as NAME=URL.
 *
 * Ownership: a source_list owns every string of its sources; pointers into
 * it stay valid until sources_release() (sources_add() may move the array,
 * not the strings).
 */
#ifndef MODELCAT_SOURCES_H
#define MODELCAT_SOURCES_H

#include <stddef.h>
#include "base/error.h"

/* What a source's body is expected to be. */
enum source_format {
	SOURCE_ANY = 0,   /* any of the below, told by content */
	SOURCE_CSV,       /* plain CSV (possibly sent with Content-Encoding: gzip) */
	SOURCE_GZIP,      /* a gzip file holding CSV (.csv.gz) */
	SOURCE_ZIP,       /* a zip archive with a .csv member */
	SOURCE_BUNDLE     /* a zip of several .csv members, each an export
			     (Epoch's ai_models.zip): stored as it is */
};

typedef struct source {
	char *name;                 /* export name: store folder, ingest name */
	char *url;                  /* http://, https:// or file:// URL */
	enum source_format format;  /* expected format of the body */
} source;

typedef struct source_list {
	source *items;              /* the sources, in file order */
	size_t n;                   /* entries in items */
} source_list;

void sources_init(source_list *list);
void sources_release(source_list *list);

/*
 * Read a sources file: '#' comments and blank lines, else
 * name <TAB> url [<TAB> format] (format: csv, csv.gz, zip, bundle or any; without
 * it, guessed from the URL). The sources are added to list. Returns 0, or
 * -1 with a message naming file and line in err.
 */
int sources_load(source_list *list, const char *path, mc_err *err);

/* Add a source, or replace the URL and format of the one with that name. */
void sources_add(source_list *list, const char *name, const char *url,
		 enum source_format format);
/* The source with that name, or NULL. */
const source *sources_find(const source_list *list, const char *name);

/* Format names as written in sources.tsv: 0, or -1 for an unknown name. */
int sources_parse_format(const char *text, enum source_format *out);
const char *sources_format_name(enum source_format format);
/* The format a URL's path suggests: .csv.gz, .gz -> GZIP; .zip -> ZIP;
 * .csv -> CSV; else ANY. */
enum source_format sources_guess_format(const char *url);

/*
 * Turn the URL part of --source NAME=URL into a URL: http://, https:// and
 * file:// are kept; a local path (anything without "://") becomes a
 * file:// URL of its absolute path. Other schemes are refused. Returns 0
 * and a URL the caller frees in *url, or -1 with a message in err.
 */
int sources_url(const char *text, char **url, mc_err *err);

#endif
