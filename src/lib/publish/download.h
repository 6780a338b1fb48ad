/*
 * download: the files a publication offers for download (docs/pages.md,
 * "Downloads and citation"), under the version's downloads/:
 *
 *   EXPORT-DAY.csv     each export as published: byte for byte what
 *                      `modelcat export --source EXPORT --as-of DATE`
 *                      prints for the published date (exportcsv_write);
 *                      DAY is the date of the export's latest snapshot
 *   EXPORT-DAY.json    the same values: {"export", "snapshot", "sha256",
 *                      "source", "licence", "columns", "types", "rows"},
 *                      a row an array of cells in the columns' order: null
 *                      for an empty cell, a JSON number for a cell of a
 *                      number column that is one, true or false for a
 *                      bool column's cell, else the cell's text
 *   models/STEM.json   the JSON twin of each model's page (its name, page
 *                      URLs, values as on record with their export and
 *                      snapshot — numbers and booleans as JSON's —,
 *                      exports, last updated, the files cited)
 *
 * A file's name and bytes change only when its content does, so that the
 * site's MANIFEST links it from the published version (site.c).
 */
#ifndef MODELCAT_DOWNLOAD_H
#define MODELCAT_DOWNLOAD_H

#include "base/fileout.h"
#include "db/catalogue.h"
#include "db/provenance.h"
#include "publish/page.h"

struct model_view;

/* One file for download. */
typedef struct download_file {
	char name[192];              /* its name under downloads/ */
	char *export;                /* the export it holds */
	char day[11];                /* the date of the export's snapshot */
	int json;                    /* 0: CSV, 1: JSON */
	size_t bytes;                /* its size */
} download_file;

/* The downloads of one publication. */
typedef struct download_set {
	char *dir;                   /* where they are written (the version's downloads/) */
	download_file *files;        /* CSV then JSON of each export, by export name */
	size_t n;                    /* entries in files */
	const char *base_url;        /* the site's URL (NULL or "": not known); borrowed */
	const file_out *out;         /* where the files go (NULL: new files); borrowed */
} download_set;

/* Write the CSV and JSON of every export on record on as_of under dir
 * (created, with dir/models) into d (release with download_release),
 * through out (fileout.h; NULL: as new files), as each model's twin later.
 * 0, or -1 (err). */
int download_write(catalogue *cat, const char *as_of, const char *dir, const char *base_url,
		   const file_out *out, download_set *d, mc_err *err);
void download_release(download_set *d);

/* The list of d's files with their sizes, as HTML (a paragraph and a
 * list), linked from a page root away from the site root ("", "../../"),
 * in the language of texts (english for a text it lacks). */
void download_list_html(const download_set *d, const char *root, const page_texts *texts,
			const page_texts *english, sbuf *out);

/* The path of a model's JSON twin from the site root into buf:
 * "downloads/models/STEM.json". */
void download_twin_path(const char *stem, char *buf, size_t len);
/* The file download_twin() writes for stem: D->dir/models/STEM.json, into
 * out (reset first). */
void download_twin_file(const download_set *d, const char *stem, sbuf *out);

/* Write model m's JSON twin (its pages are pages/LANG/STEM.html in each
 * of langs[0..nlangs), the first the canonical one; files[0..nfiles) the
 * files its page cites, cite.h) under d->dir/models. 0, or -1 (err). */
int download_twin(const download_set *d, const struct model_view *m, const char *stem,
		  char *const *langs, size_t nlangs, const provenance_file *const *files,
		  size_t nfiles, mc_err *err);

#endif
